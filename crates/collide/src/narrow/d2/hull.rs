//! Andrew's monotone chain: the convex hull of 2D points, counter-
//! clockwise, for polygons (their vertices) and EPA (its polygon).

/// The convex hull of `items` by their `point`, counter-clockwise, without
/// points on an edge (turns of at most `straight` count as straight);
/// duplicates are dropped. Fewer than three results mean no area.
pub(crate) fn convex_hull<T: Copy>(
    items: &[T],
    point: impl Fn(&T) -> [f64; 2],
    straight: f64,
) -> Vec<T> {
    let mut sorted: Vec<T> = items.to_vec();
    sorted.sort_by(|a, b| {
        let (p, q) = (point(a), point(b));
        p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1]))
    });
    sorted.dedup_by(|a, b| point(a) == point(b));
    if sorted.len() < 3 {
        return sorted;
    }
    let turn = |o: &T, a: &T, b: &T| {
        let (o, a, b) = (point(o), point(a), point(b));
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull: Vec<T> = Vec::with_capacity(2 * sorted.len());
    let chain = |points: &mut dyn Iterator<Item = T>, hull: &mut Vec<T>| {
        let start = hull.len();
        for p in points {
            while hull.len() >= start + 2
                && turn(&hull[hull.len() - 2], &hull[hull.len() - 1], &p) <= straight
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the last point starts the other chain
    };
    chain(&mut sorted.iter().copied(), &mut hull); // lower chain
    chain(&mut sorted.iter().rev().copied(), &mut hull); // upper chain
    hull
}

//! [`Mesh`]: static level geometry as a list of vertices and elements
//! (triangles in 3D, segments in 2D), or built from a height grid. Each
//! element is a convex part; the parts sit in a static tree of their
//! boxes, so a shape on a mesh of a hundred thousand triangles tests only
//! the few beneath it.
//!
//! Bad input is an error that names the vertex or element: a non-finite
//! coordinate, an index past the vertex list, an element whose corners
//! span nothing (refused, not dropped), a grid of the wrong size. Where
//! elements meet, a shape sliding across the seam does not catch on the
//! edge between them (see [`World`](super::World)'s internal edges).
//!
//! Cost: building is `n log n` in the elements; it holds the vertices,
//! the elements, and about 1.5 boxes per element for the tree. It is
//! shared (behind an `Arc`) by the colliders and snapshots that hold it.

use super::compound::MAX_PARTS;
use super::parts_error::PartsError;
use super::seams::{Seam, seams};
use super::space::Space;
use crate::geometry::box_tree::BoxTree;
use crate::geometry::{Aabb, Ray};
use crate::narrow::RayCast;
use glam::{Vec2, Vec3};

/// Triangles (3D) or segments (2D) over shared vertices (see the module).
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere};
/// use collide::world::{Collider3, Mesh3, World3};
/// use glam::Vec3;
/// // A 2 x 2 square of ground, two triangles facing up.
/// let corners = [Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 2.0), Vec3::new(0.0, 0.0, 2.0)];
/// let ground = Mesh3::new(&corners, &[[0, 3, 2], [0, 2, 1]])?;
/// let mut world = World3::new();
/// let floor = world.insert(Collider3::fixed(ground, Pose::IDENTITY, "floor"))?;
/// let ball = world.insert(Collider3::moving(Sphere::new(0.5)?, Pose::at(Vec3::new(1.0, 0.4, 1.0))?, "ball"))?;
/// let events = world.step();
/// assert_eq!(events.started, [(floor, ball)]);
/// assert!((events.touching[0].contact.depth - 0.1).abs() < 1e-5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh<V: Space> {
    vertices: Vec<V>,
    elements: Vec<V::Element>,
    /// How each element meets its neighbours.
    seams: Vec<[Seam; 3]>,
    tree: BoxTree<V>,
}

impl<V: Space> Mesh<V> {
    /// The mesh of `elements` over `vertices` (element `i` is part `i`).
    /// An error for a non-finite vertex, an index past the vertices, an
    /// element whose corners span nothing, or no elements.
    pub fn new(vertices: &[V], elements: &[V::Element]) -> Result<Self, PartsError> {
        for (vertex, v) in vertices.iter().enumerate() {
            if let Some(value) = (0..V::DIM).map(|k| v.axis(k)).find(|x| !x.is_finite()) {
                return Err(PartsError::Vertex { vertex, value });
            }
        }
        if elements.len() > MAX_PARTS {
            return Err(PartsError::TooMany {
                count: elements.len(),
                max: MAX_PARTS,
            });
        }
        let mut boxes = Vec::with_capacity(elements.len());
        for (element, e) in elements.iter().enumerate() {
            let mut corners = [vertices.first().copied().unwrap_or(V::from_axes(|_| 0.0)); 3];
            for (slot, &index) in corners.iter_mut().zip(e.as_ref()) {
                *slot = *vertices.get(index as usize).ok_or(PartsError::Index {
                    element,
                    index,
                    vertices: vertices.len(),
                })?;
            }
            let corners = &corners[..V::DIM];
            if V::simplex_flat(corners) {
                return Err(PartsError::Degenerate { element });
            }
            let (lo, hi) = corners[1..]
                .iter()
                .fold((corners[0], corners[0]), |(lo, hi), &c| {
                    (lo.min_each(c), hi.max_each(c))
                });
            boxes.push(Aabb::new(lo, hi).expect("finite corners make a box"));
        }
        let tree = BoxTree::new(&boxes).ok_or(PartsError::Empty { what: "mesh" })?;
        Ok(Self {
            vertices: vertices.to_vec(),
            elements: elements.to_vec(),
            seams: seams(vertices, elements),
            tree,
        })
    }

    /// Its vertices.
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// Its elements, each its corners' vertex numbers.
    pub fn elements(&self) -> &[V::Element] {
        &self.elements
    }

    /// How many elements (parts) it has.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether it has none (never: a mesh has at least one element).
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Element `i` as a convex shape in the mesh's frame.
    pub fn element(&self, i: usize) -> Option<V::Shape> {
        let corners = self.corners(i)?;
        Some(V::simplex(&corners[..V::DIM]))
    }

    /// Where `ray` crosses element `i` with the mesh at `pose`. Unlike a
    /// lone triangle's (or segment's) ray cast, which misses through an
    /// edge or a corner only, an element here is closed: a ray down the
    /// seam between two elements crosses the mesh (both elements answer).
    /// `None` for no such element.
    pub fn cast_ray_element(&self, i: usize, ray: &Ray<V>, pose: &V::Pose) -> Option<RayCast<V>> {
        self.cast_ray_local(i, ray, &V::local_ray(ray, pose), pose)
    }

    /// [`Mesh::cast_ray_element`] with the ray already in the mesh's
    /// frame (`local`), for testing many elements.
    pub(crate) fn cast_ray_local(
        &self,
        i: usize,
        ray: &Ray<V>,
        local: &V::LocalRay,
        pose: &V::Pose,
    ) -> Option<RayCast<V>> {
        let corners = self.corners(i)?;
        V::cast_ray_element(&corners[..V::DIM], ray, local, pose)
    }

    /// Element `i`'s corners (the first `V::DIM`).
    fn corners(&self, i: usize) -> Option<[V; 3]> {
        let e = self.elements.get(i)?;
        let mut corners = [self.vertices[0]; 3];
        for (slot, &index) in corners.iter_mut().zip(e.as_ref()) {
            *slot = self.vertices[index as usize];
        }
        Some(corners)
    }

    /// How element `i` meets its neighbours (see `seams.rs`).
    pub(crate) fn seams(&self, i: u32) -> [Seam; 3] {
        self.seams[i as usize]
    }

    /// The tree over its elements' boxes.
    pub(crate) fn tree(&self) -> &BoxTree<V> {
        &self.tree
    }

    /// Its memory in bytes, less the struct itself.
    pub fn heap_bytes(&self) -> usize {
        self.vertices.capacity() * size_of::<V>()
            + self.elements.capacity() * size_of::<V::Element>()
            + self.seams.capacity() * size_of::<[Seam; 3]>()
            + self.tree.heap_bytes()
    }
}

/// `value` if it is a finite size above 0, else the error for `axis`.
fn cell_size(axis: usize, value: f32) -> Result<f32, PartsError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(PartsError::CellSize { axis, value })
    }
}

/// The first non-finite height, as the error.
fn check_heights(heights: &[f32]) -> Result<(), PartsError> {
    match heights.iter().position(|h| !h.is_finite()) {
        Some(index) => Err(PartsError::Height {
            index,
            value: heights[index],
        }),
        None => Ok(()),
    }
}

impl Mesh<Vec3> {
    /// A heightfield: `columns` by `rows` samples, `heights` row by row
    /// (sample `(i, j)` at `heights[j * columns + i]`, at `x = i *
    /// cell.x`, `z = j * cell.y`, `y` its height), each cell split into
    /// two triangles facing up. Cell `(i, j)`'s triangles are parts `2 *
    /// (j * (columns - 1) + i)` and the one after. An error for fewer
    /// than 2 samples a side, a list of the wrong length, a non-finite
    /// height, or a cell size that is not finite and above 0.
    ///
    /// ```
    /// use collide::world::Mesh3;
    /// use glam::Vec2;
    /// let hills = Mesh3::from_heights(3, 2, &[0.0, 1.0, 0.0, 0.5, 2.0, 0.5], Vec2::new(1.0, 1.0))?;
    /// assert_eq!(hills.len(), 4); // 2 cells, 2 triangles each
    /// assert!(Mesh3::from_heights(3, 2, &[0.0; 5], Vec2::ONE).is_err());
    /// # Ok::<(), collide::world::PartsError>(())
    /// ```
    pub fn from_heights(
        columns: usize,
        rows: usize,
        heights: &[f32],
        cell: Vec2,
    ) -> Result<Self, PartsError> {
        if columns < 2 || rows < 2 {
            return Err(PartsError::GridTooSmall { columns, rows });
        }
        if heights.len() != columns * rows {
            return Err(PartsError::GridSize {
                columns,
                rows,
                heights: heights.len(),
            });
        }
        check_heights(heights)?;
        let (sx, sz) = (cell_size(0, cell.x)?, cell_size(2, cell.y)?);
        let vertices: Vec<Vec3> = (0..rows)
            .flat_map(|j| {
                (0..columns)
                    .map(move |i| Vec3::new(i as f32 * sx, heights[j * columns + i], j as f32 * sz))
            })
            .collect();
        let at = |i: usize, j: usize| (j * columns + i) as u32;
        let mut elements = Vec::with_capacity(2 * (columns - 1) * (rows - 1));
        for j in 0..rows - 1 {
            for i in 0..columns - 1 {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
                elements.push([a, c, d]);
                elements.push([a, d, b]);
            }
        }
        Self::new(&vertices, &elements)
    }
}

impl Mesh<Vec2> {
    /// A height line: `heights` sampled every `cell` along x (sample `i`
    /// at `(i * cell, heights[i])`), joined by segments; segment `i` runs
    /// from sample `i` to `i + 1`. An error for fewer than 2 samples, a
    /// non-finite height, or a cell that is not finite and above 0.
    ///
    /// ```
    /// use collide::world::Mesh2;
    /// let dunes = Mesh2::from_heights(&[0.0, 1.0, 0.5, 0.0], 2.0)?;
    /// assert_eq!(dunes.len(), 3);
    /// # Ok::<(), collide::world::PartsError>(())
    /// ```
    pub fn from_heights(heights: &[f32], cell: f32) -> Result<Self, PartsError> {
        if heights.len() < 2 {
            return Err(PartsError::GridTooSmall {
                columns: heights.len(),
                rows: 1,
            });
        }
        check_heights(heights)?;
        let sx = cell_size(0, cell)?;
        let vertices: Vec<Vec2> = heights
            .iter()
            .enumerate()
            .map(|(i, &h)| Vec2::new(i as f32 * sx, h))
            .collect();
        let elements: Vec<[u32; 2]> = (0..heights.len() as u32 - 1).map(|i| [i, i + 1]).collect();
        Self::new(&vertices, &elements)
    }
}

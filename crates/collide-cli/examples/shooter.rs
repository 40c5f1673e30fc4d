//! A top-down shooter on the collision world: two teams of six in an
//! arena of pillars. Each player walks toward a waypoint, is pushed out of
//! walls and other players along its contacts, and every half second
//! fires at the nearest enemy it can see (a ray that meets walls only).
//! Bullets are continuous colliders whose filter meets walls and the other
//! team, never their own side or other bullets; one is removed when it
//! hits, and a player hit three times is out.
//!
//! `cargo run --release --example shooter` prints a summary and writes an
//! SVG of the arena, the players' trails and where the bullets hit.

use collide::narrow::d2::{Circle, Cuboid, Pose};
use collide::world::{Collider2, Filter, QueryFilter, World2, WorldQuery};
use collide_scenes::SceneRng;
use glam::Vec2;
use std::fmt::Write;

/// What a collider is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Thing {
    Wall,
    Player { team: usize, hits: u32 },
    Bullet { team: usize, velocity: Vec2 },
}

/// A player: its collider, side, waypoint, trail and reload ticks.
struct Player {
    body: collide::Handle,
    team: usize,
    waypoint: Vec2,
    trail: Vec<Vec2>,
    reload: u32,
}

const WALL: u32 = 1;
const PLAYERS: [u32; 2] = [2, 4];
const BULLETS: [u32; 2] = [8, 16];
const HZ: f32 = 60.0;
const SPEED: f32 = 4.0; // metres a second
const BULLET_SPEED: f32 = 60.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World2::<Thing>::new();
    let mut rng = SceneRng::new(7);
    // The arena's sides and pillars: fixed boxes that meet everything.
    let walls = [
        (Vec2::new(0.0, -21.0), Vec2::new(21.0, 1.0)),
        (Vec2::new(0.0, 21.0), Vec2::new(21.0, 1.0)),
        (Vec2::new(-21.0, 0.0), Vec2::new(1.0, 21.0)),
        (Vec2::new(21.0, 0.0), Vec2::new(1.0, 21.0)),
        (Vec2::new(-6.0, 5.0), Vec2::new(1.5, 4.0)),
        (Vec2::new(6.0, -5.0), Vec2::new(1.5, 4.0)),
        (Vec2::new(0.0, 0.0), Vec2::new(3.0, 0.75)),
    ];
    for &(at, half) in &walls {
        let wall = Collider2::fixed(Cuboid::new(half)?, Pose::at(at)?, Thing::Wall);
        world.insert(wall.with_filter(Filter::new(WALL, u32::MAX)))?;
    }
    // Six players a side, each with a waypoint, a trail and a reload timer.
    let mut players = Vec::new();
    for team in 0..2 {
        for k in 0..6 {
            let x = if team == 0 { -16.0 } else { 16.0 };
            let at = Vec2::new(x, -12.5 + 5.0 * k as f32);
            let meets = WALL | PLAYERS[0] | PLAYERS[1] | BULLETS[1 - team];
            let thing = Thing::Player { team, hits: 0 };
            let body = Collider2::moving(Circle::new(0.5)?, Pose::at(at)?, thing)
                .with_filter(Filter::new(PLAYERS[team], meets));
            players.push(Player {
                body: world.insert(body)?,
                team,
                waypoint: at,
                trail: vec![at],
                reload: k as u32 * 5,
            });
        }
    }
    let (mut fired, mut landed, mut on_walls) = (0, 0, 0);
    let mut out = Vec::new();
    let mut marks = Vec::new();
    world.step();
    for tick in 0..600 {
        let events = world.step();
        // Bullets that hit something: removed; a player hit three times is out.
        for &(a, b) in &events.started {
            let (bullet, other) = match (world.value(a), world.value(b)) {
                (Ok(Thing::Bullet { .. }), _) => (a, b),
                (_, Ok(Thing::Bullet { .. })) => (b, a),
                _ => continue,
            };
            let Ok(at) = world.pose(bullet) else { continue };
            world.remove(bullet)?;
            marks.push(at.position());
            match world.value_mut(other) {
                Ok(Thing::Player { hits, .. }) => {
                    (*hits, landed) = (*hits + 1, landed + 1);
                    if *hits >= 3 {
                        world.remove(other)?;
                    }
                }
                Ok(Thing::Wall) => on_walls += 1,
                // A player already out this tick, or another bullet.
                _ => {}
            }
        }
        // The fallen keep their trails for the picture.
        let (alive, fallen): (Vec<Player>, Vec<Player>) =
            players.drain(..).partition(|p| world.pose(p.body).is_ok());
        players = alive;
        out.extend(fallen);
        // Move: out of what each player touches, then toward its waypoint.
        let mut push = vec![Vec2::ZERO; players.len()];
        for t in events.touching.iter().filter(|t| t.contact.depth > 0.0) {
            for (i, p) in players.iter().enumerate() {
                if t.a == p.body {
                    push[i] -= t.contact.normal * t.contact.depth;
                } else if t.b == p.body {
                    push[i] += t.contact.normal * t.contact.depth;
                }
            }
        }
        for (p, push) in players.iter_mut().zip(push) {
            let at = world.pose(p.body)?.position() + push;
            if at.distance(p.waypoint) < 1.0 || tick % 120 == 0 {
                p.waypoint = Vec2::new(rng.range(-18.0, 18.0), rng.range(-18.0, 18.0));
            }
            let step = (p.waypoint - at).clamp_length_max(SPEED / HZ);
            world.set_pose(p.body, Pose::at(at + step)?)?;
            if tick % 10 == 0 {
                p.trail.push(at + step);
            }
            // Fire at the nearest enemy in sight.
            p.reload = p.reload.saturating_sub(1);
            if p.reload > 0 {
                continue;
            }
            let team = p.team;
            let walls_only = QueryFilter::new().with_filter(Filter::new(WALL, WALL));
            let target = world
                .handles()
                .filter_map(|e| match world.value(e) {
                    Ok(&Thing::Player { team: t, .. }) if t != team => {
                        Some(world.pose(e).ok()?.position())
                    }
                    _ => None,
                })
                .filter(|&e| {
                    let ray = collide::geometry::Ray::new(at, e - at, 1.0);
                    ray.is_ok_and(|r| world.cast_ray(&r, &walls_only).is_none())
                })
                .min_by(|x, y| x.distance(at).total_cmp(&y.distance(at)));
            if let Some(enemy) = target {
                let aim = (enemy - at).normalize_or_zero();
                let muzzle = Pose::at(at + aim * 0.7)?;
                let filter = Filter::new(BULLETS[team], WALL | PLAYERS[1 - team]);
                let velocity = aim * BULLET_SPEED;
                let bullet =
                    Collider2::moving(Circle::new(0.1)?, muzzle, Thing::Bullet { team, velocity });
                world.insert(bullet.with_filter(filter).as_continuous())?;
                fired += 1;
                p.reload = 30;
            }
        }
        // Bullets fly on: continuous colliders, so a fast one still reports
        // the thin pillar it would pass within a tick.
        let flying: Vec<_> = world
            .handles()
            .filter_map(|h| match world.value(h) {
                Ok(&Thing::Bullet { velocity, .. }) => Some((h, velocity)),
                _ => None,
            })
            .collect();
        for (h, velocity) in flying {
            let at = world.pose(h)?.position();
            world.set_pose(h, Pose::at(at + velocity / HZ)?)?;
        }
    }
    let left = |team| players.iter().filter(|p| p.team == team).count();
    println!("shots fired {fired}, hits on players {landed}, on walls {on_walls}");
    println!("players left: team 0 {}, team 1 {}", left(0), left(1));
    let path = std::env::temp_dir().join("collide-shooter.svg");
    out.extend(players);
    std::fs::write(&path, svg(&walls, &out, &marks))?;
    println!("picture: {}", path.display());
    Ok(())
}

/// The arena, the trails and the bullets' marks as an SVG, 10 px a metre.
fn svg(walls: &[(Vec2, Vec2)], players: &[Player], marks: &[Vec2]) -> String {
    let px = |v: Vec2| (10.0 * (v.x + 22.0), 10.0 * (22.0 - v.y));
    let mut out = String::from("<svg xmlns='http://www.w3.org/2000/svg' width='440' height='440'>");
    for (at, half) in walls {
        let (x, y) = px(*at + Vec2::new(-half.x, half.y));
        let _ = write!(
            out,
            "<rect x='{x}' y='{y}' width='{}' height='{}' fill='#555'/>",
            20.0 * half.x,
            20.0 * half.y
        );
    }
    for p in players {
        let points: Vec<String> = p
            .trail
            .iter()
            .map(|&v| format!("{},{}", px(v).0, px(v).1))
            .collect();
        let colour = ["#1f77b4", "#d62728"][p.team];
        let _ = write!(
            out,
            "<polyline points='{}' fill='none' stroke='{colour}'/>",
            points.join(" ")
        );
    }
    for &m in marks {
        let (x, y) = px(m);
        let _ = write!(out, "<circle cx='{x}' cy='{y}' r='2' fill='#f0a000'/>");
    }
    out + "</svg>"
}

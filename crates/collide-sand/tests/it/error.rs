//! Errors join one chain: `?` carries the collision library's errors into
//! `SandError` beside the sand world's own.

use collide::prelude::*;
use collide::{AabbError, HandleError};
use collide_sand::{Material, Materials, Motion, SandError, SandSettings, SandWorld};

/// A world with a stone floor whose span also goes into a broad phase.
fn floor(width: u32, floor_top: f32) -> Result<usize, SandError> {
    let mut materials = Materials::new();
    let stone = materials.add(Material::new("stone", 30.0, Motion::Static)?)?; // SandError
    let mut world = SandWorld::new(SandSettings::new(width, 16)?, materials);
    for x in 0..i64::from(width) {
        world.set(x, 0, stone)?;
    }
    let span = Aabb2::new(Vec2::ZERO, Vec2::new(width as f32, floor_top))?; // AabbError
    let mut boxes: Brute<Vec2> = Brute::new();
    let h = boxes.insert(span, ())?; // collide::Error
    boxes.remove(h)?;
    boxes.remove(h)?; // stale: collide::Error
    Ok(boxes.len())
}

#[test]
fn question_marks_carry_box_and_handle_errors_into_sand_errors() {
    assert!(matches!(
        floor(0, 1.0),
        Err(SandError::EmptyWorld { width: 0, .. })
    ));
    let inverted = floor(8, -1.0).unwrap_err();
    assert!(
        matches!(
            inverted,
            SandError::Collide(collide::Error::Aabb(AabbError::Inverted { .. }))
        ),
        "{inverted:?}"
    );
    let stale = floor(8, 1.0).unwrap_err();
    assert!(
        matches!(
            stale,
            SandError::Collide(collide::Error::Handle(HandleError::Stale(_)))
        ),
        "{stale:?}"
    );
    let box_error = AabbError::Inverted {
        axis: 1,
        min: 0.0,
        max: -1.0,
    };
    assert_eq!(inverted.to_string(), box_error.to_string());
}

//! Errors join one chain: `?` carries the collision library's errors into
//! `SandError` beside the sand world's own.

use collide::prelude::*;
use collide::{AabbError, HandleError};
use collide_sand::{Material, MaterialId, Materials, Motion, SandError, SandSettings, SandWorld};

/// A world with a stone floor whose span also goes into a broad phase.
fn floor(width: u32, floor_top: f32) -> Result<usize, SandError> {
    let mut materials = Materials::new();
    let stone = materials.add(Material::new("stone", 30.0, Motion::Static)?)?; // SandError
    let mut world = SandWorld::new(SandSettings::new(width, 16)?, materials)?;
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

/// A material id from another table named whatever material sat at its
/// index in the world's table: it is refused.
#[test]
fn a_material_id_from_another_table_is_refused() {
    let mut ours = Materials::new();
    let sand = ours
        .add(Material::new("sand", 16.0, Motion::Powder).unwrap())
        .unwrap();
    let mut theirs = Materials::new();
    let lava = theirs
        .add(Material::new("lava", 30.0, Motion::Liquid).unwrap())
        .unwrap();
    assert_eq!(sand.index(), lava.index()); // the same byte, another table
    assert_eq!(ours.get(lava).unwrap_err(), SandError::ForeignMaterial(1));
    let mut world = SandWorld::new(SandSettings::new(8, 8).unwrap(), ours).unwrap();
    assert_eq!(world.set(2, 2, lava), Err(SandError::ForeignMaterial(1)));
    assert_eq!(world.get(2, 2), Ok(MaterialId::EMPTY));
    // Its own ids, and empty space, go in and come back equal.
    world.set(2, 2, sand).unwrap();
    assert_eq!(world.get(2, 2), Ok(sand));
    world.set(2, 2, MaterialId::EMPTY).unwrap();
    assert_eq!(world.get(2, 2), Ok(MaterialId::EMPTY));
}

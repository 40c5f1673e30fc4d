//! Errors join one chain: `?` carries the collision library's errors into
//! `GameError` and into `collide::Error`, and each refused input names
//! what was wrong and the value.

use collide::narrow::ShapeError;
use collide::narrow::d3::{Cuboid, Pose, Sphere};
use collide::world::{Collider3, World3};
use collide::{AabbError, HandleError};
use collide_game::character::{Character, CharacterSettings, MAX_MOTION_PER_TICK};
use collide_game::ragdoll::{Ragdoll, RagdollSettings, Skeleton};

use collide_game::prelude::*;

/// Builds a level from sizes: every step can fail in the collision library.
fn level_in_game(radius: f32, low: Vec3, high: Vec3) -> Result<usize, GameError> {
    let _ball: Sphere = Sphere::new(radius)?; // ShapeError
    let bounds = Aabb3::new(low, high)?; // AabbError
    let mut world: Brute<Vec3> = Brute::new();
    let h = world.insert(bounds, ())?; // collide::Error
    world.remove(h)?;
    world.remove(h)?; // a stale handle: collide::Error
    Ok(world.len())
}

/// The same in a function returning the collision library's own error.
fn level_in_collide(radius: f32, low: Vec3, high: Vec3) -> Result<usize, collide::Error> {
    let _ball: Sphere = Sphere::new(radius)?;
    let _pose = Pose::new(low, Quat::IDENTITY)?;
    let bounds = Aabb3::new(low, high)?;
    let mut world: Brute<Vec3> = Brute::new();
    let h = world.insert(bounds, ())?;
    Ok(world.len() + usize::from(world.aabb(h).is_some()))
}

#[test]
fn question_marks_carry_shape_box_and_handle_errors_into_game_errors() {
    let bad_radius = level_in_game(-1.0, Vec3::ZERO, Vec3::ONE).unwrap_err();
    assert_eq!(
        bad_radius,
        GameError::Collide(collide::Error::Shape(ShapeError::Radius { radius: -1.0 }))
    );
    let inverted = level_in_game(1.0, Vec3::ONE, Vec3::ZERO).unwrap_err();
    assert!(
        matches!(
            inverted,
            GameError::Collide(collide::Error::Aabb(AabbError::Inverted { .. }))
        ),
        "{inverted:?}"
    );
    let stale = level_in_game(1.0, Vec3::ZERO, Vec3::ONE).unwrap_err();
    assert!(
        matches!(
            stale,
            GameError::Collide(collide::Error::Handle(HandleError::Stale(_)))
        ),
        "{stale:?}"
    );
    // The message is the inner error's own.
    assert!(
        bad_radius.to_string().contains("the radius is -1"),
        "{bad_radius}"
    );
}

#[test]
fn question_marks_carry_shape_and_box_errors_into_the_librarys_error() {
    assert_eq!(level_in_collide(1.0, Vec3::ZERO, Vec3::ONE), Ok(2));
    assert!(matches!(
        level_in_collide(f32::NAN, Vec3::ZERO, Vec3::ONE),
        Err(collide::Error::Shape(ShapeError::Radius { .. }))
    ));
    assert!(matches!(
        level_in_collide(1.0, Vec3::splat(f32::INFINITY), Vec3::ONE),
        Err(collide::Error::Shape(ShapeError::NonFinite { .. }))
    ));
    assert!(matches!(
        level_in_collide(1.0, Vec3::ONE, Vec3::ZERO),
        Err(collide::Error::Aabb(_))
    ));
}

#[test]
fn a_humanoid_too_short_or_too_heavy_is_out_of_range_not_too_large() {
    assert_eq!(
        Skeleton::humanoid(0.05, 70.0).unwrap_err(),
        GameError::OutOfRange {
            what: "ragdoll height (m)",
            value: f64::from(0.05f32),
            min: 0.1,
            max: 10.0,
        }
    );
    assert!(matches!(
        Skeleton::humanoid(1.8, 5_000.0),
        Err(GameError::OutOfRange { max, .. }) if max == 1000.0
    ));
    assert!(matches!(
        RagdollSettings::default().with_iterations(0),
        Err(GameError::OutOfRange { min, .. }) if min == 1.0
    ));
}

#[test]
fn a_frame_of_centuries_is_refused_and_counts_no_ticks() {
    let mut clock = FixedClock::new(ClockSettings::hz(60.0).unwrap());
    let err = clock.advance(1e30).unwrap_err();
    assert_eq!(
        err,
        GameError::TooLarge {
            what: "frame time (seconds)",
            value: 1e30,
            limit: FixedClock::MAX_FRAME_SECONDS,
        }
    );
    assert_eq!((clock.tick(), clock.dropped_ticks()), (0, 0));
    // The longest frame allowed drops what it cannot run, counted exactly.
    let frame = clock.advance(FixedClock::MAX_FRAME_SECONDS).unwrap();
    assert_eq!(frame.ticks(), 8);
    assert_eq!(frame.dropped_ticks(), 60_000_000 - 8);
    // A tick too short to count is refused where the clock is made.
    assert!(matches!(
        ClockSettings::new(1e-300, 8),
        Err(GameError::OutOfRange { .. })
    ));
}

#[test]
fn a_character_refuses_a_motion_that_would_teleport_it() {
    let mut world = World3::new();
    let settings = CharacterSettings::sized(1.8, 0.3).unwrap();
    let mut character: Character<D3> =
        Character::new(settings, Vec3::ZERO, &mut world, ()).unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let err = character
        .step(dt, Vec3::new(f32::MAX, 0.0, 0.0), &mut world)
        .unwrap_err();
    assert!(
        matches!(err, GameError::TooLarge { limit, .. } if limit == f64::from(MAX_MOTION_PER_TICK)),
        "{err:?}"
    );
    assert_eq!(character.position(), Vec3::ZERO);
    // A long but possible motion is taken.
    let far = Vec3::new(0.5 * MAX_MOTION_PER_TICK, 0.0, 0.0);
    character.step(dt, far, &mut world).unwrap();
    assert_eq!(character.position(), far);
    assert_eq!(world.pose(character.collider()).unwrap().position(), far);
}

/// A character whose collider was taken out of its world, or stepped in
/// another world: a typed error, the character unmoved.
#[test]
fn a_character_refuses_a_world_without_its_collider() {
    let mut world = World3::new();
    let settings = CharacterSettings::sized(1.8, 0.3).unwrap();
    let mut character: Character<D3> =
        Character::new(settings, Vec3::ZERO, &mut world, ()).unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let mut other = World3::new();
    other
        .insert(Collider3::fixed(
            Cuboid::new(Vec3::ONE).unwrap(),
            Pose::IDENTITY,
            (),
        ))
        .unwrap();
    let err = character.step(dt, Vec3::X, &mut other).unwrap_err();
    assert!(matches!(err, GameError::Collide(_)), "{err:?}");
    assert!(matches!(
        character.shove(Vec3::NAN, &mut world),
        Err(GameError::NotFinite { .. })
    ));
    assert!(matches!(
        character.shove(Vec3::splat(1e4), &mut world),
        Err(GameError::TooLarge { .. })
    ));
    world.remove(character.collider()).unwrap();
    let err = character.step(dt, Vec3::X, &mut world).unwrap_err();
    assert!(matches!(err, GameError::Collide(_)), "{err:?}");
    assert!(character.shove(Vec3::X, &mut world).is_err());
    assert_eq!(character.position(), Vec3::ZERO);
}

#[test]
fn a_ragdoll_refuses_a_world_without_its_parts() {
    let mut world = World3::new();
    let body = Skeleton::humanoid(1.8, 75.0).unwrap();
    let at = Vec3::new(0.0, 3.0, 0.0);
    let mut doll = Ragdoll::new(
        body,
        RagdollSettings::default(),
        at,
        Quat::IDENTITY,
        Vec3::ZERO,
        &mut world,
        (),
    )
    .unwrap();
    let before = doll.positions().to_vec();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let mut other: World3 = World3::new();
    let err = doll.step(dt, &mut other).unwrap_err();
    assert!(matches!(err, GameError::Collide(_)), "{err:?}");
    assert!(doll.place_colliders(&mut other).is_err());
    world.remove(doll.colliders()[3]).unwrap();
    let err = doll.step(dt, &mut world).unwrap_err();
    assert!(matches!(err, GameError::Collide(_)), "{err:?}");
    assert_eq!(doll.positions(), &before[..]);
    // A body whose parts' boxes overflow is refused and leaves nothing.
    let mut clean = World3::new();
    let body = Skeleton::humanoid(1.8, 75.0).unwrap();
    let far = Vec3::new(0.0, f32::MAX, 0.0);
    let err = Ragdoll::new(
        body,
        RagdollSettings::default(),
        far,
        Quat::IDENTITY,
        Vec3::ZERO,
        &mut clean,
        (),
    )
    .unwrap_err();
    assert!(matches!(err, GameError::Collide(_)), "{err:?}");
    assert!(clean.is_empty());
}

#[test]
fn gravity_is_checked_once_where_it_enters_and_surroundings_need_no_check() {
    assert!(matches!(
        Gravity::new(Vec3::new(0.0, f32::NAN, 0.0)),
        Err(GameError::NotFinite { .. })
    ));
    let world: World3 = World3::new();
    let moon = Gravity::new(Vec3::new(0.0, -1.62, 0.0)).unwrap();
    // Built every tick without a `?`.
    for _ in 0..3 {
        let around = Surroundings::<D3>::new(&world, moon);
        assert_eq!(around.gravity(), Vec3::new(0.0, -1.62, 0.0));
    }
}

/// A fighter id from another fight: `start_attack` took it, and the next
/// step indexed past the fighters and panicked.
#[test]
fn a_fighter_id_from_another_fight_is_refused() {
    use collide::narrow::d2::Pose as Pose2;
    use collide_game::hitbox::{Combat, FrameData, Part, Tolerance};
    let fist = || vec![Part::<D2>::new(0.1, 0.1, Pose2::IDENTITY).unwrap()];
    let mut world = collide::world::World2::new();
    let mut other: Combat<D2> = Combat::new(Tolerance::default());
    other
        .add_fighter(1, 0, Pose2::IDENTITY, fist(), &mut world, ())
        .unwrap();
    let stranger = other
        .add_fighter(2, 0, Pose2::IDENTITY, fist(), &mut world, ())
        .unwrap();
    let mut fight: Combat<D2> = Combat::new(Tolerance::default());
    let mine = fight
        .add_fighter(1, 0, Pose2::IDENTITY, fist(), &mut world, ())
        .unwrap();
    let foreign = GameError::ForeignId {
        what: "attacking fighter id",
    };
    let jab = FrameData::new(0, 2, 0).unwrap();
    assert_eq!(fight.start_attack(7, stranger, jab, fist()), Err(foreign));
    assert_eq!(
        fight.place(stranger, Pose2::IDENTITY),
        Err(GameError::ForeignId { what: "fighter id" })
    );
    assert!(fight.hurtboxes(stranger).is_err());
    let mut hits = Vec::new();
    fight.step(&mut world, &mut hits).unwrap(); // nothing was started: no panic, no hit
    assert!(hits.is_empty());
    // A world without the fighter's hurtboxes is refused, the fight unchanged.
    let tick = fight.tick();
    world.remove(fight.hurtboxes(mine).unwrap()[0]).unwrap();
    assert!(matches!(
        fight.step(&mut world, &mut hits),
        Err(GameError::Collide(_))
    ));
    assert_eq!(fight.tick(), tick);
}

/// A joint or frame id from another skeleton description: a frame id
/// panicked in `cone`, `limb`, `hinge`, `spine` and in `build` after
/// `torso`; a joint id with an index in range was taken.
#[test]
fn joint_and_frame_ids_from_another_skeleton_are_refused() {
    use collide_game::ragdoll::SkeletonBuilder;
    let v = Vec3::new;
    // Four joints in a rigid square and a frame on them.
    let square = |b: &mut SkeletonBuilder| {
        let j: Vec<_> = [
            v(0.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(-0.5, 0.5, 0.0),
            v(0.5, 0.5, 0.0),
        ]
        .into_iter()
        .map(|p| b.joint(p, 1.0).unwrap())
        .collect();
        let frame = b.frame(j[0], j[1], j[2], j[3]).unwrap();
        (j, frame)
    };
    let mut other = SkeletonBuilder::new();
    let (their_joints, their_frame) = square(&mut other);
    // (a second frame: its index, 1, is out of range in the builder below)
    let their_second = other
        .frame(
            their_joints[1],
            their_joints[0],
            their_joints[2],
            their_joints[3],
        )
        .unwrap();
    let mut b = SkeletonBuilder::new();
    let (j, frame) = square(&mut b);
    let frame_error = Err(GameError::ForeignId { what: "frame id" });
    let joint_error = Err(GameError::ForeignId { what: "joint id" });
    for theirs in [their_frame, their_second] {
        assert_eq!(b.torso(theirs), frame_error);
        assert_eq!(b.cone(theirs, j[0], j[1], Vec3::Y, 0.5), frame_error);
        assert_eq!(
            b.limb(theirs, j[0], j[1], j[2], Vec3::Y, 0.5, 0.3, Vec3::Z),
            frame_error
        );
        assert_eq!(b.hinge(theirs, j[0], j[1], j[2], 1.0), frame_error);
        assert_eq!(b.spine(theirs, frame, j[0], j[1], 0.5, 0.3), frame_error);
        assert_eq!(b.spine(frame, theirs, j[0], j[1], 0.5, 0.3), frame_error);
    }
    assert_eq!(b.part(their_joints[0], j[1], 0.1), joint_error);
    assert_eq!(b.tie(j[0], their_joints[3]), joint_error);
    assert_eq!(
        b.cone(frame, their_joints[0], j[1], Vec3::Y, 0.5),
        joint_error
    );
    // Its own ids still work, and it builds.
    b.part(j[0], j[1], 0.1).unwrap();
    for (x, y) in [(0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        b.tie(j[x], j[y]).unwrap();
    }
    b.torso(frame).unwrap();
    let built = b.build();
    assert!(built.is_ok(), "{built:?}");
}

/// A bounce with a NaN restitution or friction made the projectile's
/// position and velocity NaN: it is refused where it is made.
#[test]
fn a_bounce_with_a_nan_or_out_of_range_share_is_refused_where_it_is_made() {
    use collide_game::projectile::Bounce;
    assert!(matches!(
        Bounce::new(f32::NAN, 0.2),
        Err(GameError::NotFinite {
            what: "bounce restitution",
            ..
        })
    ));
    assert!(matches!(
        Bounce::new(0.5, f32::NAN),
        Err(GameError::NotFinite {
            what: "bounce friction",
            ..
        })
    ));
    assert!(matches!(
        Bounce::new(0.5, 1.5),
        Err(GameError::OutOfRange { max, .. }) if max == 1.0
    ));
    let ok = Bounce::new(0.5, 0.2).unwrap();
    assert_eq!((ok.restitution(), ok.friction()), (0.5, 0.2));
}

//! The determinism fixture: fixed scenes through every layer (each
//! broad-phase structure with `auto`, the narrow phase, motion, the
//! collision world and every game system, sand included), replayed for a
//! number of ticks, with a hash of what each reported (its event stream)
//! and of its state, bit for bit. The hashes are recorded in `tests/data/determinism.txt`;
//! every build must give them: CI runs this for the baseline x86-64,
//! for x86-64-v3 (AVX2, FMA), unoptimised and at opt-level 3.
//!
//! The scenes' inputs come from integer seeds and `collide::math`, never
//! from the platform's math, so the inputs are the same bits everywhere
//! too. Write the file afresh (after a deliberate change of results) with
//! `COLLIDE_WRITE_FIXTURE=1 cargo test -p collide-game --test determinism`.

mod bodies;
mod broad;
// The game tests' boxes in a broad phase.
#[path = "../it/common.rs"]
mod common;
mod narrow;
mod play;
mod world;

use collide::Handle;
use collide_game::glam::{Quat, Vec2, Vec3};
use collide_game::time::TimeStep;

/// FNV-1a over 64-bit words: the bits of whatever is fed to it.
pub struct Hash(u64);

impl Default for Hash {
    fn default() -> Self {
        Self::new()
    }
}

impl Hash {
    pub fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    pub fn u64(&mut self, x: u64) {
        for byte in x.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn f32(&mut self, x: f32) {
        self.u64(u64::from(x.to_bits()));
    }

    pub fn f64(&mut self, x: f64) {
        self.u64(x.to_bits());
    }

    pub fn bool(&mut self, x: bool) {
        self.u64(u64::from(x));
    }

    pub fn vec2(&mut self, v: Vec2) {
        v.to_array().into_iter().for_each(|x| self.f32(x));
    }

    pub fn vec3(&mut self, v: Vec3) {
        v.to_array().into_iter().for_each(|x| self.f32(x));
    }

    pub fn quat(&mut self, q: Quat) {
        q.to_array().into_iter().for_each(|x| self.f32(x));
    }

    pub fn value(&self) -> u64 {
        self.0
    }
}

/// A tick of 60 Hz.
pub fn tick_60() -> TimeStep<f32> {
    TimeStep::new(1.0 / 60.0).unwrap()
}

/// A handle's bits without its container's id (which differs from run
/// to run).
pub fn handle(hash: &mut Hash, h: Handle) {
    hash.u64(u64::from(h.index()) << 32 | u64::from(h.generation()));
}

/// One scene's record: its name, the hash of what it reported tick by
/// tick, and the hash of its state.
pub struct Entry {
    pub name: String,
    pub events: u64,
    pub state: u64,
}

impl Entry {
    pub fn new(name: impl Into<String>, events: &Hash, state: &Hash) -> Self {
        Self {
            name: name.into(),
            events: events.value(),
            state: state.value(),
        }
    }

    fn line(&self) -> String {
        format!("{:016x} {:016x} {}", self.events, self.state, self.name)
    }
}

fn record() -> Vec<Entry> {
    let mut out = Vec::new();
    broad::scenes(&mut out);
    narrow::scenes(&mut out);
    play::scenes(&mut out);
    bodies::scenes(&mut out);
    world::scenes(&mut out);
    out
}

#[test]
fn every_layer_gives_the_recorded_bits() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/determinism.txt");
    let now: Vec<String> = record().iter().map(Entry::line).collect();
    let header =
        "# events state scene: FNV-1a hashes of each scene's bits (see tests/determinism/main.rs)";
    if std::env::var_os("COLLIDE_WRITE_FIXTURE").is_some() {
        std::fs::write(path, format!("{header}\n{}\n", now.join("\n"))).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(path).expect("the recorded hashes");
    let recorded: Vec<&str> = recorded.lines().filter(|l| !l.starts_with('#')).collect();
    let mut wrong = Vec::new();
    for got in &now {
        let name = &got[34..];
        match recorded.iter().position(|l| l.get(34..) == Some(name)) {
            Some(line) if recorded[line] == got => {}
            Some(line) => wrong.push(format!(
                "{name}: recorded {}, now {}",
                &recorded[line][..33],
                &got[..33]
            )),
            None => wrong.push(format!("{name}: not in the record")),
        }
    }
    for want in &recorded {
        if !now.iter().any(|l| l.get(34..) == want.get(34..)) {
            wrong.push(format!(
                "{}: recorded but not run",
                want.get(34..).unwrap_or(want)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} scenes differ from {path}:\n{}",
        wrong.len(),
        now.len(),
        wrong.join("\n")
    );
}

//! The character controller: its rules by name, and thousands of
//! generated levels against brute-force geometry.

mod controller;
mod levels;
mod world;

//! Raycast vehicles: the car and the tank.

mod car;
mod tank;

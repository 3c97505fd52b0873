//! The hex grid: hexagons in rows, odd rows shifted half a cell east, 6 neighbours,
//! 6 rotations.
//!
//! A drawn cell `(row, col)` is the axial lattice point `(col - floor(row / 2), row)`,
//! so that rows stay rows and a rotation is an integer map. Text draws each cell
//! followed by a space and indents odd rows by one space.

use super::{Lattice, Point};

/// The hex lattice, in axial coordinates.
pub(crate) struct Hex;

impl Lattice for Hex {
    const STEPS: &'static [Point] = &[(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)];
    const ROTATIONS: usize = 6;

    /// 60 degrees.
    fn rotate((x, y): Point) -> Point {
        (-y, x + y)
    }

    /// About the line `x = y`.
    fn reflect((x, y): Point) -> Point {
        (y, x)
    }

    fn lattice(row: i32, col: i32) -> Point {
        (col - row.div_euclid(2), row)
    }

    fn drawn((x, y): Point) -> Option<(i32, i32)> {
        Some((y, x + y.div_euclid(2)))
    }
}

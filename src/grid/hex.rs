//! The hex grid: hexagons in rows, odd rows shifted half a cell east, 6 neighbours,
//! 6 rotations.
//!
//! A drawn cell `(row, col)` is the axial lattice point `(col - floor(row / 2), row, 0)`,
//! so that rows stay rows and a rotation is an integer map. Text draws each cell
//! followed by a space and indents odd rows by one space.

use super::{planar_symmetry, Lattice, Point};

/// The hex lattice, in axial coordinates.
pub(crate) struct Hex;

impl Hex {
    /// 60 degrees.
    pub(crate) fn rotate((x, y, z): Point) -> Point {
        (-y, x + y, z)
    }

    /// About the line `x = y`.
    pub(crate) fn reflect((x, y, z): Point) -> Point {
        (y, x, z)
    }
}

impl Lattice for Hex {
    const STEPS: &'static [Point] = &[
        (1, 0, 0),
        (-1, 0, 0),
        (0, 1, 0),
        (-1, 1, 0),
        (0, -1, 0),
        (1, -1, 0),
    ];
    const SYMMETRIES: usize = 12;
    const PROPER: usize = 6;

    fn symmetry(k: usize, p: Point) -> Point {
        planar_symmetry(k, Self::PROPER, Hex::rotate, Hex::reflect, p)
    }

    fn lattice(row: i32, col: i32) -> (i32, i32) {
        (col - row.div_euclid(2), row)
    }

    fn drawn(x: i32, y: i32) -> Option<(i32, i32)> {
        Some((y, x + y.div_euclid(2)))
    }
}

//! The square grid: cells in rows and columns, 4 neighbours, 4 rotations.
//!
//! A drawn cell `(row, col)` is the lattice point `(col, row, 0)`; text draws one
//! character per cell.

use super::{planar_symmetry, Lattice, Point};

/// The square lattice.
pub(crate) struct Square;

impl Square {
    /// 90 degrees.
    fn rotate((x, y, z): Point) -> Point {
        (-y, x, z)
    }

    /// About the column axis.
    fn reflect((x, y, z): Point) -> Point {
        (-x, y, z)
    }
}

impl Lattice for Square {
    const STEPS: &'static [Point] = &[(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)];
    const SYMMETRIES: usize = 8;
    const PROPER: usize = 4;

    fn symmetry(k: usize, p: Point) -> Point {
        planar_symmetry(k, Self::PROPER, Square::rotate, Square::reflect, p)
    }

    fn lattice(row: i32, col: i32) -> (i32, i32) {
        (col, row)
    }

    fn drawn(x: i32, y: i32) -> Option<(i32, i32)> {
        Some((y, x))
    }
}

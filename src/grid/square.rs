//! The square grid: cells in rows and columns, 4 neighbours, 4 rotations.
//!
//! A drawn cell `(row, col)` is the lattice point `(col, row)`; text draws one
//! character per cell.

use super::{Lattice, Point};

/// The square lattice.
pub(crate) struct Square;

impl Lattice for Square {
    const STEPS: &'static [Point] = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
    const ROTATIONS: usize = 4;

    /// 90 degrees.
    fn rotate((x, y): Point) -> Point {
        (-y, x)
    }

    /// About the column axis.
    fn reflect((x, y): Point) -> Point {
        (-x, y)
    }

    fn lattice(row: i32, col: i32) -> Point {
        (col, row)
    }

    fn drawn((x, y): Point) -> Option<(i32, i32)> {
        Some((y, x))
    }
}

//! The triangle grid: rows of triangles pointing alternately one way and the other,
//! 3 neighbours, 6 rotations.
//!
//! The lattice is the hex lattice's vertices in axial coordinates; the triangles of row
//! `b` lie between the lines `y = b` and `y = b + 1`. Triangle `(a, b)` *up* has the
//! corners `(a, b)`, `(a + 1, b)`, `(a, b + 1)`; triangle `(a, b)` *down* the corners
//! `(a + 1, b)`, `(a, b + 1)`, `(a + 1, b + 1)`. A triangle's lattice point is three
//! times its centroid: `(3a + 1, 3b + 1)` up, `(3a + 2, 3b + 2)` down, so that the hex
//! rotation and reflection about the origin (a vertex) map triangles to triangles and
//! the translations are the multiples of 3.
//!
//! Drawn cell `(row, col)` is triangle `(col / 2, row)`, up for even `col` and down for
//! odd `col`: a row is drawn left to right, and a parallelogram of the lattice is a
//! rectangle of the drawing (the true picture shifts each row half a triangle east of
//! the row before; `docs/puzzle-format.md` shows one).

use super::hex::Hex;
use super::{planar_symmetry, Lattice, Point};

/// The triangle lattice, as three times the centroids of its triangles.
pub(crate) struct Triangle;

impl Lattice for Triangle {
    /// Up triangles reach their neighbours by the first three steps, down triangles by
    /// the last three; the other three land on points that are not triangles.
    const STEPS: &'static [Point] = &[
        (1, 1, 0),
        (-2, 1, 0),
        (1, -2, 0),
        (-1, -1, 0),
        (2, -1, 0),
        (-1, 2, 0),
    ];
    const SYMMETRIES: usize = 12;
    const PROPER: usize = 6;

    /// The hex lattice's symmetries about a vertex (rotation by 60 degrees, reflection
    /// about the line `x = y`), on its vertices.
    fn symmetry(k: usize, p: Point) -> Point {
        planar_symmetry(k, Self::PROPER, Hex::rotate, Hex::reflect, p)
    }

    fn lattice(row: i32, col: i32) -> (i32, i32) {
        let (a, down) = (col.div_euclid(2), col.rem_euclid(2));
        (3 * a + 1 + down, 3 * row + 1 + down)
    }

    fn drawn(x: i32, y: i32) -> Option<(i32, i32)> {
        let kind = x.rem_euclid(3);
        if kind == 0 || y.rem_euclid(3) != kind {
            return None;
        }
        Some((y.div_euclid(3), 2 * x.div_euclid(3) + kind - 1))
    }

    /// `(a, b, 0)` is triangle `(a, b)` up (an even column), `(a, b, 1)` down.
    fn coordinate_cell(c: &[i32]) -> Option<Point> {
        match *c {
            [a, b, t @ (0 | 1)] => Some((3 * a + 1 + t, 3 * b + 1 + t, 0)),
            _ => None,
        }
    }

    fn translation((x, y, z): Point) -> Point {
        (3 * x.div_euclid(3), 3 * y.div_euclid(3), z)
    }
}

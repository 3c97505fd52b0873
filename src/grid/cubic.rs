//! The cubic grid: unit cubes in layers, 6 neighbours, 24 rotations and 48 symmetries.
//!
//! A drawn cell `(layer, row, col)` is the lattice point `(col, row, layer)`: each layer
//! is a square grid (`square.rs`), and layer `z + 1` lies on top of layer `z`. Cells are
//! numbered column fastest, then row, then layer, so the search fills the bottom layer
//! first (of the box as searched: `tiling::Orientations` may lay it along other edges).
//!
//! The symmetries fixing the origin are the 48 signed permutations of the axes. The 24
//! proper rotations come first: an even permutation with an even number of axes
//! reversed, or an odd one with an odd number; the identity is the first. Symmetry
//! `24 + k` is rotation `k` followed by the central inversion `p -> -p`, which reverses
//! handedness, so those are the 24 reflections.

use super::{Lattice, Point};

/// The cubic lattice.
pub(crate) struct Cubic;

/// Axis permutations, the three even ones first (identity first): image axis `i` takes
/// source axis `PERMS[k][i]`.
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [1, 0, 2],
    [0, 2, 1],
    [2, 1, 0],
];

/// Axis signs with an even number of reversals (for even permutations), then with an
/// odd number (for odd ones), so that each pair makes a proper rotation.
const SIGNS: [[[i32; 3]; 4]; 2] = [
    [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]],
    [[-1, -1, -1], [-1, 1, 1], [1, -1, 1], [1, 1, -1]],
];

impl Lattice for Cubic {
    const STEPS: &'static [Point] = &[
        (1, 0, 0),
        (-1, 0, 0),
        (0, 1, 0),
        (0, -1, 0),
        (0, 0, 1),
        (0, 0, -1),
    ];
    const SYMMETRIES: usize = 48;
    const PROPER: usize = 24;

    fn symmetry(k: usize, (x, y, z): Point) -> Point {
        let rotation = k % 24;
        let perm = PERMS[rotation / 4];
        let signs = SIGNS[rotation / 12][rotation % 4];
        let p = [x, y, z];
        let q: [i32; 3] = std::array::from_fn(|i| signs[i] * p[perm[i]]);
        let s = if k >= 24 { -1 } else { 1 };
        (s * q[0], s * q[1], s * q[2])
    }

    fn lattice(row: i32, col: i32) -> (i32, i32) {
        (col, row)
    }

    fn drawn(x: i32, y: i32) -> Option<(i32, i32)> {
        Some((y, x))
    }

    /// `(x, y, z)`: column, row, layer.
    fn coordinate_cell(c: &[i32]) -> Option<Point> {
        match *c {
            [x, y, z] => Some((x, y, z)),
            _ => None,
        }
    }
}

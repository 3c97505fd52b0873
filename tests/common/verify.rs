//! An independent meteor verifier: its own hex geometry (cube coordinates), its own
//! rotations and reflections, its own reference shapes. It shares no code with the
//! library, so a bug in the library's geometry cannot hide a bug in its solutions.
//!
//! Board cell `i` is row `i / 5`, column `i % 5`, row 0 first; odd rows are shifted half
//! a cell east. A cell's axial coordinates are `q = col - floor(row / 2)`, `r = row`, and
//! its cube coordinates `(q, -q - r, r)`; two cells are adjacent when their cube
//! coordinates differ by 1 in two coordinates and agree in the third.

use std::collections::BTreeSet;

use super::SMALLEST;

/// Board width in cells.
pub const WIDTH: usize = 5;
/// Board height in rows.
pub const HEIGHT: usize = 10;
/// Cells on the board.
pub const CELLS: usize = WIDTH * HEIGHT;
/// Pieces (digits 0-9), five cells each.
pub const PIECES: usize = 10;
/// Cells per piece.
pub const PIECE_SIZE: usize = 5;

/// A point of the hex lattice in cube coordinates; `x + y + z == 0`.
pub type Cube = (i32, i32, i32);

/// A shape: a set of lattice points.
pub type Shape = BTreeSet<Cube>;

/// Cube coordinates of board cell `cell`.
pub fn cube_of(cell: usize) -> Cube {
    let row = (cell / WIDTH) as i32;
    let col = (cell % WIDTH) as i32;
    let q = col - row.div_euclid(2);
    let r = row;
    (q, -q - r, r)
}

/// Board cell at cube point `p`, if it lies on the board.
pub fn cell_of((x, _, z): Cube) -> Option<usize> {
    let row = z;
    let col = x + row.div_euclid(2);
    if !(0..HEIGHT as i32).contains(&row) || !(0..WIDTH as i32).contains(&col) {
        return None;
    }
    Some(row as usize * WIDTH + col as usize)
}

/// Whether two lattice points are neighbours.
pub fn adjacent(a: Cube, b: Cube) -> bool {
    let d = [(a.0 - b.0).abs(), (a.1 - b.1).abs(), (a.2 - b.2).abs()];
    d.iter().sum::<i32>() == 2
}

/// Rotation by 60 degrees about the origin.
fn rotate((x, y, z): Cube) -> Cube {
    (-z, -x, -y)
}

/// A reflection of the lattice (swapping two cube axes).
fn reflect((x, y, z): Cube) -> Cube {
    (x, z, y)
}

/// `shape` translated so that its smallest point is the origin.
pub fn translate_to_origin(shape: &Shape) -> Shape {
    let Some(&(ox, oy, oz)) = shape.iter().next() else {
        return Shape::new();
    };
    shape
        .iter()
        .map(|&(x, y, z)| (x - ox, y - oy, z - oz))
        .collect()
}

/// The 12 images of `shape` under the rotations and reflections of the lattice, each
/// translated to the origin (duplicates kept).
pub fn images(shape: &Shape) -> Vec<Shape> {
    let mut out = Vec::with_capacity(12);
    for mirror in [false, true] {
        let mut s: Shape = if mirror {
            shape.iter().map(|&p| reflect(p)).collect()
        } else {
            shape.clone()
        };
        for _ in 0..6 {
            out.push(translate_to_origin(&s));
            s = s.iter().map(|&p| rotate(p)).collect();
        }
    }
    out
}

/// The distinct orientations of `shape` (translation classes of its 12 images).
pub fn orientations(shape: &Shape) -> Vec<Shape> {
    let mut all: Vec<Shape> = images(shape);
    all.sort();
    all.dedup();
    all
}

/// A canonical form: equal for two shapes exactly when they are congruent under
/// rotation, reflection and translation.
pub fn canonical(shape: &Shape) -> Shape {
    images(shape).into_iter().min().unwrap_or_default()
}

/// The lattice points of the cells of `board` holding `digit`.
pub fn cells_of(board: &[u8; CELLS], digit: u8) -> Shape {
    (0..CELLS)
        .filter(|&i| board[i] == digit)
        .map(cube_of)
        .collect()
}

/// Whether `shape` is connected under lattice adjacency (the empty shape is not).
pub fn connected(shape: &Shape) -> bool {
    let Some(&first) = shape.iter().next() else {
        return false;
    };
    let mut seen = Shape::new();
    seen.insert(first);
    let mut stack = vec![first];
    while let Some(p) = stack.pop() {
        for &q in shape {
            if !seen.contains(&q) && adjacent(p, q) {
                seen.insert(q);
                stack.push(q);
            }
        }
    }
    seen.len() == shape.len()
}

/// The ten reference pieces, in canonical form: piece `i` is the set of cells holding
/// digit `i` in the smallest known solution.
pub fn reference_shapes() -> Vec<Shape> {
    let board: [u8; CELLS] = SMALLEST.as_bytes().try_into().expect("50 cells");
    (0..PIECES as u8)
        .map(|d| canonical(&cells_of(&board, b'0' + d)))
        .collect()
}

/// Checks that `board` is a meteor solution: every cell a digit, each digit on exactly
/// five connected cells congruent to its reference piece.
pub fn verify_meteor(board: &[u8; CELLS]) -> Result<(), String> {
    verify_with(board, &reference_shapes())
}

/// [`verify_meteor`] with the reference shapes given (to avoid rebuilding them when
/// checking thousands of boards).
pub fn verify_with(board: &[u8; CELLS], shapes: &[Shape]) -> Result<(), String> {
    if let Some(i) = board.iter().position(|c| !c.is_ascii_digit()) {
        return Err(format!(
            "cell {i} holds {:?}, not a digit",
            board[i] as char
        ));
    }
    for d in 0..PIECES as u8 {
        let digit = (b'0' + d) as char;
        let cells = cells_of(board, b'0' + d);
        if cells.len() != PIECE_SIZE {
            return Err(format!(
                "digit {digit} covers {} cells, not {PIECE_SIZE}",
                cells.len()
            ));
        }
        if !connected(&cells) {
            return Err(format!("piece {digit} is not connected"));
        }
        if canonical(&cells) != shapes[d as usize] {
            return Err(format!(
                "piece {digit} does not have the shape of piece {digit}"
            ));
        }
    }
    Ok(())
}

/// Every placement of `shape` on the board, as sorted lists of board cells.
pub fn placements_on_board(shape: &Shape) -> BTreeSet<Vec<usize>> {
    let mut out = BTreeSet::new();
    for o in orientations(shape) {
        for anchor in 0..CELLS {
            let (ax, ay, az) = cube_of(anchor);
            let cells: Option<Vec<usize>> = o
                .iter()
                .map(|&(x, y, z)| cell_of((ax + x, ay + y, az + z)))
                .collect();
            if let Some(mut cells) = cells {
                cells.sort_unstable();
                out.insert(cells);
            }
        }
    }
    out
}

/// The board turned by a half turn: cell `i` goes to cell `49 - i`.
pub fn half_turn(board: &[u8; CELLS]) -> [u8; CELLS] {
    let mut b = *board;
    b.reverse();
    b
}

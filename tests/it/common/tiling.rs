//! The independent tiling verifier of the tests, and a brute-force enumerator of
//! tilings of small boards; [`meteor`] is the meteor puzzle as it sees it.
//!
//! It shares no geometry with the library: its own lattice coordinates, rotations,
//! reflections and normal forms. Only the plain enums `Grid` and `Motion` are borrowed
//! from the library, to name the grid and how a piece may move. The library's unit
//! tests include this file too (`src/tests/`), so it reaches the library as
//! `super::lib`, which each including module defines.
//!
//! Cells are `(row, col)`; board cell `row * width + col`. Square cells have 4
//! neighbours. Hex boards are offset rows with odd rows shifted half a cell east: the
//! neighbours of `(r, c)` in row `r + 1` are `c - 1, c` for even `r` and `c, c + 1` for
//! odd `r`. Triangle boards are rows of triangles, even columns pointing one way and
//! odd columns the other: `(r, c)` touches `(r, c - 1)` and `(r, c + 1)`, and `(r - 1,
//! c + 1)` for even `c`, `(r + 1, c - 1)` for odd `c`. Internally a cell is a lattice
//! point `(x, y, z)`: `(col, row, 0)` on the square grid, the cube coordinates `(q, -q -
//! r, r)` with `q = col - floor(r / 2)` on the hex grid; on the triangle grid the
//! indices of the three lines below the triangle in the three families `x`, `y` and
//! `-x - y` of axial coordinates: `(i, j, k)` with `i = floor(col / 2)`, `j = row` and
//! `i + j + k = -1` for even columns, `-2` for odd ones. Two triangles touch when their
//! points are one apart.
//!
//! Cubic boards are boxes of `width x height x depth` unit cubes; a cell is its own
//! point `(x, y, z)` (column, row, layer), board cell `(z * height + y) * width + x`
//! (the `*_box` functions). The cube's symmetries are found here by search: every
//! 3 x 3 matrix of -1, 0, 1 whose transpose is its inverse, the 24 of determinant 1
//! being the rotations.

use std::collections::{BTreeMap, BTreeSet};

use super::lib::{Grid, Motion};

/// A lattice point; see the module docs.
pub type Pt = (i32, i32, i32);

/// A piece as the verifier sees it: its `(row, col)` cells as drawn, how it may move and
/// how many copies there are.
pub type PieceSpec = (Vec<(usize, usize)>, Motion, u32);

/// A piece on the cubic grid: its `(x, y, z)` cells, motion and copies.
pub type BoxSpec = (Vec<Pt>, Motion, u32);

/// Planar drawings have `(row, col)` cells; cubic ones go through the `*_box` functions.
const PLANAR_ONLY: &str = "cubic cells have layers: use the *_box functions";

/// The lattice point of cell `(row, col)`.
pub fn point(grid: Grid, row: usize, col: usize) -> Pt {
    let (r, c) = (row as i32, col as i32);
    match grid {
        Grid::Square => (c, r, 0),
        Grid::Hex => {
            let q = c - r.div_euclid(2);
            (q, -q - r, r)
        }
        Grid::Triangle => {
            let i = c.div_euclid(2);
            (i, r, -i - r - 1 - c.rem_euclid(2))
        }
        // Layer 0: a cubic drawing's other layers go through the *_box functions.
        Grid::Cubic => (c, r, 0),
    }
}

/// The `(row, col)` of a lattice point, which may lie outside any board; `(-1, -1)`
/// for a point that is no triangle.
pub fn cell(grid: Grid, (x, y, z): Pt) -> (i32, i32) {
    match grid {
        Grid::Square => (y, x),
        Grid::Hex => (z, x + z.div_euclid(2)),
        Grid::Triangle => match x + y + z {
            -1 => (y, 2 * x),
            -2 => (y, 2 * x + 1),
            _ => (-1, -1),
        },
        Grid::Cubic => unreachable!("{PLANAR_ONLY}"),
    }
}

/// Whether a point is a cell of the lattice.
fn is_cell(grid: Grid, (x, y, z): Pt) -> bool {
    match grid {
        Grid::Square => z == 0,
        Grid::Hex => x + y + z == 0,
        Grid::Triangle => matches!(x + y + z, -1 | -2),
        Grid::Cubic => true,
    }
}

/// Whether moving by `d` maps cells onto cells of the same kind.
fn is_translation(grid: Grid, (x, y, z): Pt) -> bool {
    match grid {
        Grid::Square => z == 0,
        Grid::Hex | Grid::Triangle => x + y + z == 0,
        Grid::Cubic => true,
    }
}

/// `p + (q - r)`, if `q - r` is a translation of the lattice.
fn moved(grid: Grid, p: Pt, q: Pt, r: Pt) -> Option<Pt> {
    let d = (q.0 - r.0, q.1 - r.1, q.2 - r.2);
    is_translation(grid, d).then_some((p.0 + d.0, p.1 + d.1, p.2 + d.2))
}

/// Whether two lattice points are neighbours.
pub fn adjacent(grid: Grid, a: Pt, b: Pt) -> bool {
    let d = (a.0 - b.0).abs() + (a.1 - b.1).abs() + (a.2 - b.2).abs();
    match grid {
        Grid::Square | Grid::Triangle | Grid::Cubic => d == 1,
        Grid::Hex => d == 2,
    }
}

/// The lattice steps to a point's neighbours.
pub fn steps(grid: Grid) -> Vec<Pt> {
    match grid {
        Grid::Square => vec![(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)],
        Grid::Hex => vec![
            (1, -1, 0),
            (-1, 1, 0),
            (1, 0, -1),
            (-1, 0, 1),
            (0, 1, -1),
            (0, -1, 1),
        ],
        // Half of these lead off the lattice from any one triangle.
        Grid::Triangle | Grid::Cubic => vec![
            (1, 0, 0),
            (-1, 0, 0),
            (0, 1, 0),
            (0, -1, 0),
            (0, 0, 1),
            (0, 0, -1),
        ],
    }
}

/// A quarter turn (square) or sixth of a turn (hex), clockwise.
fn turn(grid: Grid, (x, y, z): Pt) -> Pt {
    match grid {
        Grid::Square => (y, -x, 0),
        Grid::Hex => (-y, -z, -x),
        Grid::Triangle => (-y - 1, -z - 1, -x - 1),
        Grid::Cubic => unreachable!("the cube's symmetries are cube_matrices()"),
    }
}

/// A mirror: the diagonal `x = y` (square), swapping two cube axes (hex).
fn mirror(grid: Grid, (x, y, z): Pt) -> Pt {
    match grid {
        Grid::Square => (y, x, 0),
        Grid::Hex | Grid::Triangle => (y, x, z),
        Grid::Cubic => unreachable!("the cube's symmetries are cube_matrices()"),
    }
}

fn turns(grid: Grid) -> usize {
    match grid {
        Grid::Square => 4,
        Grid::Hex | Grid::Triangle => 6,
        Grid::Cubic => unreachable!("the cube's symmetries are cube_matrices()"),
    }
}

/// A symmetry of a lattice about the origin: a planar mirror then turns, or one of the
/// cube's matrices.
#[derive(Clone, Copy, Debug)]
enum Tf {
    Planar { mirror: bool, turns: usize },
    Cube([[i32; 3]; 3]),
}

/// The image of `p` under `tf`.
fn apply(grid: Grid, tf: Tf, p: Pt) -> Pt {
    match tf {
        Tf::Planar {
            mirror: m,
            turns: k,
        } => {
            let p = if m { mirror(grid, p) } else { p };
            (0..k).fold(p, |q, _| turn(grid, q))
        }
        Tf::Cube(m) => {
            let v = [p.0, p.1, p.2];
            let row = |i: usize| (0..3).map(|j| m[i][j] * v[j]).sum::<i32>();
            (row(0), row(1), row(2))
        }
    }
}

/// The 48 symmetries of the cube about the origin, each with whether it is a rotation:
/// every matrix of -1, 0, 1 with `M * M^T = I`, a rotation when its determinant is 1.
fn cube_matrices() -> &'static [([[i32; 3]; 3], bool)] {
    static FOUND: std::sync::OnceLock<Vec<([[i32; 3]; 3], bool)>> = std::sync::OnceLock::new();
    FOUND.get_or_init(search_cube_matrices)
}

/// [`cube_matrices`], searched.
fn search_cube_matrices() -> Vec<([[i32; 3]; 3], bool)> {
    let mut out = Vec::new();
    for code in 0..3i32.pow(9) {
        let mut m = [[0i32; 3]; 3];
        let mut c = code;
        for entry in m.iter_mut().flatten() {
            *entry = c % 3 - 1;
            c /= 3;
        }
        let orthogonal = (0..3).all(|i| {
            (0..3).all(|j| {
                let dot: i32 = (0..3).map(|k| m[i][k] * m[j][k]).sum();
                dot == i32::from(i == j)
            })
        });
        if orthogonal {
            let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
            out.push((m, det == 1));
        }
    }
    assert_eq!(out.len(), 48);
    out
}

/// Every symmetry of the lattice about the origin, with whether it is a rotation.
fn transforms(grid: Grid) -> Vec<(Tf, bool)> {
    if grid == Grid::Cubic {
        return cube_matrices()
            .iter()
            .map(|&(m, proper)| (Tf::Cube(m), proper))
            .collect();
    }
    [false, true]
        .into_iter()
        .flat_map(|m| {
            (0..turns(grid)).map(move |k| {
                (
                    Tf::Planar {
                        mirror: m,
                        turns: k,
                    },
                    !m,
                )
            })
        })
        .collect()
}

/// Whether a piece with `motion` may move by a transform: `fixed` by none, `one-sided`
/// by rotations; `free` by anything a physical piece can do (on a plane turning over
/// too, in space rotations only); `mirror` by everything.
fn allowed(grid: Grid, motion: Motion, proper: bool) -> bool {
    match motion {
        Motion::Fixed => false,
        Motion::OneSided => proper,
        Motion::Free => proper || grid != Grid::Cubic,
        Motion::Mirror => true,
    }
}

/// `shape` sorted and translated so that its smallest point is the origin (on the
/// triangle grid, a triangle of the origin's pointing the same way as the smallest
/// point). Two shapes are translates of each other exactly when their normal forms are
/// equal.
pub fn normal(grid: Grid, shape: &[Pt]) -> Vec<Pt> {
    let mut v = shape.to_vec();
    v.sort_unstable();
    v.dedup();
    let Some(&(a, b, _)) = v.first() else {
        return v;
    };
    let c = match grid {
        Grid::Square => 0,
        Grid::Hex | Grid::Triangle => -a - b,
        Grid::Cubic => v[0].2,
    };
    v.iter().map(|&(x, y, z)| (x - a, y - b, z - c)).collect()
}

/// The distinct normal forms of the images of `shape` under `motion`.
pub fn images(grid: Grid, shape: &[Pt], motion: Motion) -> Vec<Vec<Pt>> {
    let mut out: BTreeSet<Vec<Pt>> = BTreeSet::from([normal(grid, shape)]);
    for (tf, proper) in transforms(grid) {
        if allowed(grid, motion, proper) {
            let s: Vec<Pt> = shape.iter().map(|&p| apply(grid, tf, p)).collect();
            out.insert(normal(grid, &s));
        }
    }
    out.into_iter().collect()
}

/// Equal for two shapes exactly when one moves onto the other under `motion`.
pub fn canonical(grid: Grid, shape: &[Pt], motion: Motion) -> Vec<Pt> {
    images(grid, shape, motion).swap_remove(0)
}

/// Whether `shape` is connected (the empty shape is not).
pub fn connected(grid: Grid, shape: &[Pt]) -> bool {
    let Some(&first) = shape.first() else {
        return false;
    };
    let mut seen = vec![first];
    let mut next = 0;
    while next < seen.len() {
        let p = seen[next];
        next += 1;
        for &q in shape {
            if !seen.contains(&q) && adjacent(grid, p, q) {
                seen.push(q);
            }
        }
    }
    seen.len() == shape.len()
}

/// The lattice points of `(row, col)` cells.
pub fn points(grid: Grid, cells: &[(usize, usize)]) -> Vec<Pt> {
    cells.iter().map(|&(r, c)| point(grid, r, c)).collect()
}

/// `(row, col)` cells of a translate of `shape` with its rows and columns starting at 0.
pub fn to_cells(grid: Grid, shape: &[Pt]) -> Vec<(usize, usize)> {
    // Translate along the lattice: first to row 0 (on the hex grid keeping `q`, which
    // is a lattice translation whatever the row parities), then along the row (by
    // whole up-and-down pairs on the triangle grid).
    let min_row = shape.iter().map(|&p| cell(grid, p).0).min().unwrap_or(0);
    let rc: Vec<(i32, i32)> = shape
        .iter()
        .map(|&(x, y, z)| match grid {
            Grid::Square => cell(grid, (x, y - min_row, z)),
            Grid::Hex => cell(grid, (x, y + min_row, z - min_row)),
            Grid::Triangle => cell(grid, (x, y - min_row, z + min_row)),
            Grid::Cubic => unreachable!("{PLANAR_ONLY}"),
        })
        .collect();
    let min_col = rc.iter().map(|&(_, c)| c).min().unwrap_or(0);
    let min_col = match grid {
        Grid::Triangle => min_col - min_col.rem_euclid(2),
        Grid::Square | Grid::Hex => min_col,
        Grid::Cubic => unreachable!("{PLANAR_ONLY}"),
    };
    let mut out: Vec<(usize, usize)> = rc
        .iter()
        .map(|&(r, c)| (r as usize, (c - min_col) as usize))
        .collect();
    out.sort_unstable();
    out
}

/// Every connected shape of `size` cells, one per class under `motion`, in canonical form.
pub fn polyforms(grid: Grid, size: usize, motion: Motion) -> Vec<Vec<Pt>> {
    // Grow fixed shapes (translation classes) cell by cell, then merge classes.
    let mut fixed: BTreeSet<Vec<Pt>> = BTreeSet::new();
    fixed.insert(vec![point(grid, 0, 0)]);
    for _ in 1..size {
        let mut grown = BTreeSet::new();
        for s in &fixed {
            for &(x, y, z) in s {
                for (dx, dy, dz) in steps(grid) {
                    let p = (x + dx, y + dy, z + dz);
                    if is_cell(grid, p) && !s.contains(&p) {
                        let mut t = s.clone();
                        t.push(p);
                        grown.insert(normal(grid, &t));
                    }
                }
            }
        }
        fixed = grown;
    }
    let classes: BTreeSet<Vec<Pt>> = fixed.iter().map(|s| canonical(grid, s, motion)).collect();
    classes.into_iter().collect()
}

/// Placements of a shape on a board: the sorted board cells of each distinct placement
/// of `shape` under `motion`.
pub fn placements(
    grid: Grid,
    width: usize,
    height: usize,
    board_cells: &[bool],
    shape: &[Pt],
    motion: Motion,
) -> Vec<Vec<usize>> {
    let pts = planar_points(grid, width, height);
    placements_on(grid, &board_points(pts, board_cells), shape, motion)
}

/// Each board cell's point, for the board's cells (holes left out).
fn board_points(pts: impl Iterator<Item = Pt>, board_cells: &[bool]) -> BTreeMap<Pt, usize> {
    pts.enumerate()
        .filter(|&(c, _)| board_cells[c])
        .map(|(c, p)| (p, c))
        .collect()
}

/// The lattice point of each cell of a `width x height` planar board, in cell order.
fn planar_points(grid: Grid, width: usize, height: usize) -> impl Iterator<Item = Pt> {
    (0..width * height).map(move |c| point(grid, c / width, c % width))
}

/// Planar pieces with their cells as lattice points, as the box functions take them.
fn lattice_specs(grid: Grid, pieces: &[PieceSpec]) -> Vec<BoxSpec> {
    pieces
        .iter()
        .map(|(shape, motion, count)| (points(grid, shape), *motion, *count))
        .collect()
}

/// [`placements`] on the board whose cells are at the points of `board`.
fn placements_on(
    grid: Grid,
    board: &BTreeMap<Pt, usize>,
    shape: &[Pt],
    motion: Motion,
) -> Vec<Vec<usize>> {
    let mut out = BTreeSet::new();
    for img in images(grid, shape, motion) {
        for &a in board.keys() {
            let cells: Option<Vec<usize>> = img
                .iter()
                .map(|&p| board.get(&moved(grid, p, a, img[0])?).copied())
                .collect();
            if let Some(mut cells) = cells {
                cells.sort_unstable();
                out.insert(cells);
            }
        }
    }
    out.into_iter().collect()
}

/// Removes from `cells` disjoint translates of `images` until none is left; whether
/// that is possible.
fn peel(grid: Grid, cells: &mut BTreeSet<Pt>, images: &[Vec<Pt>]) -> bool {
    // The smallest cell left is the smallest cell of the copy covering it, and every
    // image starts with its smallest cell (the order is translation invariant).
    let Some(&low) = cells.iter().next() else {
        return true;
    };
    for img in images {
        let Some(placed) = img
            .iter()
            .map(|&p| moved(grid, p, low, img[0]))
            .collect::<Option<Vec<Pt>>>()
        else {
            continue;
        };
        if placed.iter().all(|p| cells.contains(p)) {
            placed.iter().for_each(|p| {
                cells.remove(p);
            });
            if peel(grid, cells, images) {
                return true;
            }
            cells.extend(placed);
        }
    }
    false
}

/// Checks that `tiling` (for each board cell, row-major, the index of the piece on it)
/// tiles the board with `pieces`:
///
/// - hole cells hold `None`, board cells `Some(i)` with `i` a piece index (the board is
///   fully covered, with or without leftover pieces);
/// - the cells holding `i` split into disjoint copies of piece `i`, each the piece moved
///   by a motion `pieces[i]` allows (copies may touch each other);
/// - piece `i` has exactly `count` copies on the board, at most `count` with
///   `allow_leftover`.
pub fn verify_tiling(
    grid: Grid,
    width: usize,
    height: usize,
    board_cells: &[bool],
    pieces: &[PieceSpec],
    tiling: &[Option<u16>],
    allow_leftover: bool,
) -> Result<(), String> {
    let n = width * height;
    if board_cells.len() != n || tiling.len() != n {
        return Err(format!(
            "{} board flags and {} tiling cells for a {width} x {height} board",
            board_cells.len(),
            tiling.len()
        ));
    }
    let pts: Vec<Pt> = planar_points(grid, width, height).collect();
    let shapes = lattice_specs(grid, pieces);
    verify_points(grid, &pts, board_cells, &shapes, tiling, allow_leftover)
}

/// [`verify_tiling`] for a `width x height x depth` box on the cubic grid.
pub fn verify_box(
    (width, height, depth): (usize, usize, usize),
    board_cells: &[bool],
    pieces: &[BoxSpec],
    tiling: &[Option<u16>],
    allow_leftover: bool,
) -> Result<(), String> {
    let n = width * height * depth;
    if board_cells.len() != n || tiling.len() != n {
        return Err(format!(
            "{} board flags and {} tiling cells for a {width} x {height} x {depth} box",
            board_cells.len(),
            tiling.len()
        ));
    }
    let pts: Vec<Pt> = (0..n).map(|i| box_point(width, height, i)).collect();
    verify_points(
        Grid::Cubic,
        &pts,
        board_cells,
        pieces,
        tiling,
        allow_leftover,
    )
}

/// The point `(x, y, z)` of cell `cell` of a box `width` cells wide, `height` deep.
pub fn box_point(width: usize, height: usize, cell: usize) -> Pt {
    let (x, y, z) = (cell % width, cell / width % height, cell / width / height);
    (x as i32, y as i32, z as i32)
}

/// The check of [`verify_tiling`], with cell `c` at point `pts[c]`.
fn verify_points(
    grid: Grid,
    pts: &[Pt],
    board_cells: &[bool],
    pieces: &[BoxSpec],
    tiling: &[Option<u16>],
    allow_leftover: bool,
) -> Result<(), String> {
    let mut by_piece: Vec<BTreeSet<Pt>> = vec![BTreeSet::new(); pieces.len()];
    for (i, (&on_board, &t)) in board_cells.iter().zip(tiling).enumerate() {
        let at = pts[i];
        match (on_board, t) {
            (false, None) => {}
            (false, Some(p)) => return Err(format!("hole {at:?} holds piece {p}")),
            (true, None) => return Err(format!("cell {at:?} is not covered")),
            (true, Some(p)) => {
                let set = by_piece
                    .get_mut(p as usize)
                    .ok_or_else(|| format!("cell {at:?} holds unknown piece {p}"))?;
                set.insert(at);
            }
        }
    }
    for (i, ((shape, motion, count), mut cells)) in pieces.iter().zip(by_piece).enumerate() {
        if shape.is_empty() || !connected(grid, shape) {
            return Err(format!("piece {i} is empty or not connected"));
        }
        if cells.len() % shape.len() != 0 {
            return Err(format!(
                "piece {i} covers {} cells, not a multiple of its {}",
                cells.len(),
                shape.len()
            ));
        }
        let copies = cells.len() / shape.len();
        if copies > *count as usize || (!allow_leftover && copies != *count as usize) {
            return Err(format!(
                "piece {i} is used {copies} times; it has {count} copies"
            ));
        }
        if !peel(grid, &mut cells, &images(grid, shape, *motion)) {
            return Err(format!(
                "the cells of piece {i} are not {copies} copies of it ({motion:?})"
            ));
        }
    }
    Ok(())
}

/// Every tiling of a small board (at most 64 cells; meant for a dozen) by `pieces`, one
/// per set of placements (copies of a piece are interchangeable), by plain backtracking:
/// the lowest uncovered cell is covered by each fitting placement in turn. Every piece
/// is used exactly `count` times, or at most `count` times with `allow_leftover`; the
/// board is always fully covered.
pub fn brute_force(
    grid: Grid,
    width: usize,
    height: usize,
    board_cells: &[bool],
    pieces: &[PieceSpec],
    allow_leftover: bool,
) -> Vec<Vec<Option<u16>>> {
    let pts = planar_points(grid, width, height);
    let shapes = lattice_specs(grid, pieces);
    brute_force_on(
        grid,
        &board_points(pts, board_cells),
        board_cells,
        &shapes,
        allow_leftover,
    )
}

/// [`brute_force`] on a `width x height x depth` box of the cubic grid.
pub fn brute_force_box(
    (width, height, depth): (usize, usize, usize),
    board_cells: &[bool],
    pieces: &[BoxSpec],
    allow_leftover: bool,
) -> Vec<Vec<Option<u16>>> {
    let pts = (0..width * height * depth).map(|c| box_point(width, height, c));
    let board = board_points(pts, board_cells);
    brute_force_on(Grid::Cubic, &board, board_cells, pieces, allow_leftover)
}

/// [`brute_force`] on the board whose cells are at the points of `board`.
fn brute_force_on(
    grid: Grid,
    board: &BTreeMap<Pt, usize>,
    board_cells: &[bool],
    pieces: &[BoxSpec],
    allow_leftover: bool,
) -> Vec<Vec<Option<u16>>> {
    let n = board_cells.len();
    assert!(n <= 64);
    // covering[piece][cell] = placements (as masks) of the piece that contain the cell.
    let mut covering = vec![vec![Vec::new(); n]; pieces.len()];
    for (i, (shape, motion, _)) in pieces.iter().enumerate() {
        for p in placements_on(grid, board, shape, *motion) {
            let mask = p.iter().fold(0u64, |m, &c| m | 1 << c);
            for &c in &p {
                covering[i][c].push(mask);
            }
        }
    }
    let full = (0..n)
        .filter(|&c| board_cells[c])
        .fold(0u64, |m, c| m | 1 << c);
    let mut left: Vec<u32> = pieces.iter().map(|p| p.2).collect();
    let mut label = vec![None; n];
    let mut out = Vec::new();
    search(
        &covering,
        full,
        0,
        &mut left,
        &mut label,
        allow_leftover,
        &mut out,
    );
    out
}

fn search(
    covering: &[Vec<Vec<u64>>],
    full: u64,
    covered: u64,
    left: &mut [u32],
    label: &mut [Option<u16>],
    allow_leftover: bool,
    out: &mut Vec<Vec<Option<u16>>>,
) {
    let free = full & !covered;
    if free == 0 {
        if allow_leftover || left.iter().all(|&l| l == 0) {
            out.push(label.to_vec());
        }
        return;
    }
    let cell = free.trailing_zeros() as usize;
    for piece in 0..covering.len() {
        if left[piece] == 0 {
            continue;
        }
        for &mask in &covering[piece][cell] {
            if mask & covered != 0 {
                continue;
            }
            let mut m = mask;
            while m != 0 {
                label[m.trailing_zeros() as usize] = Some(piece as u16);
                m &= m - 1;
            }
            left[piece] -= 1;
            search(
                covering,
                full,
                covered | mask,
                left,
                label,
                allow_leftover,
                out,
            );
            left[piece] += 1;
            let mut m = mask;
            while m != 0 {
                label[m.trailing_zeros() as usize] = None;
                m &= m - 1;
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Symmetries of a board and its piece set (for tests/data_files.rs and
// tests/distinct.rs), with this module's own geometry.

/// A symmetry of a puzzle: a rotation or reflection of the lattice (then a translation)
/// that maps the board's cells onto themselves and the piece set onto itself.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Symmetry {
    /// `cells[c]` = the board cell that cell `c` goes to; `usize::MAX` for holes.
    pub cells: Vec<usize>,
    /// `pieces[i]` = the piece that piece `i` becomes.
    pub pieces: Vec<u16>,
}

impl Symmetry {
    /// The image of a labelled tiling (`None` cells stay `None`).
    pub fn tiling(&self, t: &[Option<u16>]) -> Vec<Option<u16>> {
        let mut out = vec![None; t.len()];
        for (c, &p) in t.iter().enumerate() {
            if let Some(p) = p {
                out[self.cells[c]] = Some(self.pieces[p as usize]);
            }
        }
        out
    }

    /// The image of a set of placements `(piece, sorted cells)`, sorted.
    pub fn placements(&self, set: &[(u16, Vec<usize>)]) -> Vec<(u16, Vec<usize>)> {
        let mut out: Vec<(u16, Vec<usize>)> = set
            .iter()
            .map(|(p, cells)| {
                let mut c: Vec<usize> = cells.iter().map(|&c| self.cells[c]).collect();
                c.sort_unstable();
                (self.pieces[*p as usize], c)
            })
            .collect();
        out.sort();
        out
    }
}

/// The symmetries of a board and piece set, identity included, without repeats.
///
/// A lattice rotation or reflection `f` is one when some translation maps `f(board)`
/// onto the board, and `f` permutes the piece kinds (motion, count, and shape up to that
/// motion) keeping how many pieces each kind has. Pieces of one kind are taken in index
/// order: the k-th piece of a kind becomes the k-th piece of its image kind, so a kind
/// that `f` keeps is not permuted (two pieces of the same shape stay two pieces).
pub fn symmetries(
    grid: Grid,
    width: usize,
    height: usize,
    board_cells: &[bool],
    pieces: &[PieceSpec],
) -> Vec<Symmetry> {
    let pts = planar_points(grid, width, height);
    let shapes = lattice_specs(grid, pieces);
    symmetries_on(
        grid,
        &board_points(pts, board_cells),
        board_cells.len(),
        &shapes,
    )
}

/// [`symmetries`] of a `width x height x depth` box of the cubic grid.
pub fn symmetries_box(
    (width, height, depth): (usize, usize, usize),
    board_cells: &[bool],
    pieces: &[BoxSpec],
) -> Vec<Symmetry> {
    let pts = (0..width * height * depth).map(|c| box_point(width, height, c));
    let board = board_points(pts, board_cells);
    symmetries_on(Grid::Cubic, &board, board_cells.len(), pieces)
}

/// [`symmetries`] of the board of `n` cells whose cells are at the points of `at`.
fn symmetries_on(
    grid: Grid,
    at: &BTreeMap<Pt, usize>,
    n: usize,
    pieces: &[BoxSpec],
) -> Vec<Symmetry> {
    let (pts, cells): (Vec<Pt>, Vec<usize>) = at.iter().map(|(&p, &c)| (p, c)).unzip();
    let shapes: Vec<Vec<Pt>> = pieces.iter().map(|(s, _, _)| s.clone()).collect();
    let kind = |i: usize, shape: &[Pt]| {
        (
            pieces[i].1,
            pieces[i].2,
            canonical(grid, shape, pieces[i].1),
        )
    };
    let kinds: Vec<_> = (0..pieces.len()).map(|i| kind(i, &shapes[i])).collect();
    let members = |k: &(Motion, u32, Vec<Pt>)| -> Vec<usize> {
        (0..pieces.len()).filter(|&j| kinds[j] == *k).collect()
    };
    let mut out: BTreeSet<Symmetry> = BTreeSet::new();
    for (tf, _) in transforms(grid) {
        {
            let f = |p: Pt| apply(grid, tf, p);
            let image: Vec<Pt> = pts.iter().map(|&p| f(p)).collect();
            let (Some(lo), Some(hi)) = (pts.iter().min(), image.iter().min()) else {
                continue;
            };
            let d = (lo.0 - hi.0, lo.1 - hi.1, lo.2 - hi.2);
            let mut cell_map = vec![usize::MAX; n];
            let mut ok = is_translation(grid, d);
            for (&c, &(x, y, z)) in cells.iter().zip(&image) {
                match at.get(&(x + d.0, y + d.1, z + d.2)) {
                    Some(&e) => cell_map[c] = e,
                    None => ok = false,
                }
            }
            let mut piece_map = vec![u16::MAX; pieces.len()];
            for i in 0..pieces.len() {
                if !ok || piece_map[i] != u16::MAX {
                    continue;
                }
                let moved: Vec<Pt> = shapes[i].iter().map(|&p| f(p)).collect();
                let (from, to) = (members(&kinds[i]), members(&kind(i, &moved)));
                if from.len() != to.len() {
                    ok = false;
                    continue;
                }
                for (&a, &b) in from.iter().zip(&to) {
                    piece_map[a] = b as u16;
                }
            }
            if ok {
                out.insert(Symmetry {
                    cells: cell_map,
                    pieces: piece_map,
                });
            }
        }
    }
    out.into_iter().collect()
}

/// A random connected shape of `size` cells, grown from the cell `(0, 0)` one
/// neighbour at a time.
pub fn random_shape(rng: &mut Rng, grid: Grid, size: usize) -> Vec<Pt> {
    let steps = steps(grid);
    let mut shape: Vec<Pt> = vec![point(grid, 0, 0)];
    while shape.len() < size {
        let (x, y, z) = shape[rng.below(shape.len())];
        let (dx, dy, dz) = steps[rng.below(steps.len())];
        let q = (x + dx, y + dy, z + dz);
        if is_cell(grid, q) && !shape.contains(&q) {
            shape.push(q);
        }
    }
    shape
}

/// A small deterministic generator (xorshift*) for the random-puzzle tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// The meteor puzzle as the verifier knows it: a 5 x 10 hex board, and ten free
/// pentahexes, piece `i` the cells of digit `i` in the smallest known solution
/// (Benchmarks Game; `docs/known-counts.md`). A solution is the digit of each cell, row
/// by row.
pub mod meteor {
    use super::{canonical, point, verify_tiling, Grid, Motion, PieceSpec, Pt};

    /// Board width in cells.
    pub const WIDTH: usize = 5;
    /// Board height in rows.
    pub const HEIGHT: usize = 10;
    /// Cells on the board.
    pub const CELLS: usize = WIDTH * HEIGHT;
    /// Solutions of the puzzle.
    pub const ALL_SOLUTIONS: u64 = 2098;
    /// The smallest solution.
    pub const SMALLEST: &str = "00001222012661126155865558633348893448934747977799";
    /// The largest solution.
    pub const LARGEST: &str = "99998966856688568255777257472014220144031400311333";

    /// A solution: the digit of each cell.
    pub type Digits = [u8; CELLS];

    /// A board from its 50-digit string.
    pub fn digits(s: &str) -> Digits {
        s.as_bytes()
            .try_into()
            .expect("a board string has 50 cells")
    }

    /// The lattice point of board cell `cell`.
    pub fn point_of(cell: usize) -> Pt {
        point(Grid::Hex, cell / WIDTH, cell % WIDTH)
    }

    /// The `(row, col)` cells holding `digit`.
    pub fn cells_of(board: &Digits, digit: u8) -> Vec<(usize, usize)> {
        (0..CELLS)
            .filter(|&i| board[i] == digit)
            .map(|i| (i / WIDTH, i % WIDTH))
            .collect()
    }

    /// The lattice points of the cells holding `digit`.
    pub fn points_of(board: &Digits, digit: u8) -> Vec<Pt> {
        (0..CELLS)
            .filter(|&i| board[i] == digit)
            .map(point_of)
            .collect()
    }

    /// The ten pieces as the verifier describes them.
    pub fn pieces() -> Vec<PieceSpec> {
        let board = digits(SMALLEST);
        (0..10u8)
            .map(|d| (cells_of(&board, b'0' + d), Motion::Free, 1))
            .collect()
    }

    /// The ten pieces in canonical form (free motion).
    pub fn shapes() -> Vec<Vec<Pt>> {
        let board = digits(SMALLEST);
        (0..10u8)
            .map(|d| canonical(Grid::Hex, &points_of(&board, b'0' + d), Motion::Free))
            .collect()
    }

    /// Checks that `board` is a meteor solution: every cell a digit, the cells of
    /// digit `i` one copy of piece `i`.
    pub fn verify(board: &Digits) -> Result<(), String> {
        verify_with(board, &pieces())
    }

    /// [`verify`] with the pieces given (to avoid rebuilding them for thousands of
    /// boards).
    pub fn verify_with(board: &Digits, pieces: &[PieceSpec]) -> Result<(), String> {
        let mut tiling = Vec::with_capacity(CELLS);
        for (i, &c) in board.iter().enumerate() {
            if !c.is_ascii_digit() {
                return Err(format!("cell {i} holds {:?}, not a digit", c as char));
            }
            tiling.push(Some(u16::from(c - b'0')));
        }
        verify_tiling(
            Grid::Hex,
            WIDTH,
            HEIGHT,
            &[true; CELLS],
            pieces,
            &tiling,
            false,
        )
    }

    /// The board turned by a half turn: cell `i` goes to cell `49 - i`.
    pub fn half_turn(board: &Digits) -> Digits {
        let mut b = *board;
        b.reverse();
        b
    }
}

//! Geometry: the lattices boards and pieces live on, the model types of a tiling
//! ([`Board`], [`Piece`], [`Motion`], [`Point`]), the transforms of a lattice and the
//! symmetry groups of boards and piece sets.
//!
//! Each grid is one file ([`square`](self::square), [`hex`](self::hex),
//! [`triangle`](self::triangle)) implementing [`Lattice`]: its neighbour steps, its
//! rotation and reflection, how a drawn cell `(row, col)` maps to a lattice point, and
//! which lattice vectors are translations. Everything else here works on any lattice.
//! This module knows nothing of tables, the search or files, and uses `std` only:
//! `build.rs` includes it (with `#[path]`) to bake the meteor tables.
//!
//! # Coordinates
//! Board cells are numbered row-major: cell `row * width + col`, row 0 first. Row 0 is
//! the *south* edge, the side the search fills first; text output prints it as the
//! top line. On a hex board odd rows are shifted half a cell east.
//!
//! Shapes live on the *lattice*: `(x, y)`. On the square grid `x` is the column and `y`
//! the row; on the hex grid `x = col - floor(row / 2)` and `y = row` (axial
//! coordinates); on the triangle grid a cell is three times its triangle's centroid in
//! axial coordinates (`triangle.rs`), so that every translation, rotation and
//! reflection of the lattice is a plain integer map. Not every lattice point need be a
//! cell (on the triangle grid most are not), and not every difference of cells a
//! translation: [`Grid::translation`] says which are.

mod hex;
pub mod meteor;
mod square;
mod triangle;

use crate::symmetry::{Group, Perm, NONE};

/// A lattice point `(x, y)`; see the module docs for the coordinate system.
pub type Point = (i32, i32);

/// What one grid provides; every other geometric idea is built from these.
pub(crate) trait Lattice {
    /// The lattice steps from a cell to its neighbours.
    const STEPS: &'static [Point];
    /// How many rotations map the lattice onto itself.
    const ROTATIONS: usize;
    /// Rotation by one step about the origin.
    fn rotate(p: Point) -> Point;
    /// A reflection about a line through the origin (any one: with the rotations it
    /// generates the others).
    fn reflect(p: Point) -> Point;
    /// The lattice point of drawn cell `(row, col)`.
    fn lattice(row: i32, col: i32) -> Point;
    /// The drawn `(row, col)` of a lattice point, the inverse of [`Lattice::lattice`];
    /// `None` if the point is no cell.
    fn drawn(p: Point) -> Option<(i32, i32)>;
    /// The lattice point of a cell written as coordinates (`docs/puzzle-format.md`):
    /// `(x, y)` on the square grid, axial `(q, r)` on the hex grid; `None` if they name
    /// no cell.
    fn coordinate_cell(c: &[i32]) -> Option<Point> {
        match *c {
            [x, y] => Some((x, y)),
            _ => None,
        }
    }
    /// The translation part of `p`: the largest lattice translation `t` "below" it, so
    /// that `p - t` is one of the few cells of the lattice's unit cell. Every vector is a
    /// translation of the square and hex lattices (`t = p`); the triangle lattice's are
    /// the multiples of 3.
    fn translation(p: Point) -> Point {
        p
    }
}

/// The lattice a board and its pieces live on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grid {
    /// Square cells, 4 neighbours, 4 rotations.
    Square,
    /// Hexagonal cells in rows, odd rows shifted half a cell east; 6 neighbours, 6 rotations.
    Hex,
    /// Triangles in rows, pointing alternately up and down; 3 neighbours, 6 rotations.
    Triangle,
}

/// Calls `$f` of the lattice that `$grid` names.
macro_rules! on_lattice {
    ($grid:expr, $f:ident ( $($arg:expr),* )) => {
        match $grid {
            Grid::Square => <square::Square as Lattice>::$f($($arg),*),
            Grid::Hex => <hex::Hex as Lattice>::$f($($arg),*),
            Grid::Triangle => <triangle::Triangle as Lattice>::$f($($arg),*),
        }
    };
}

impl Grid {
    /// Every grid, in the order the file format lists them.
    pub const ALL: [Grid; 3] = [Grid::Square, Grid::Hex, Grid::Triangle];

    /// The grid's name in puzzle files and output: `square`, `hex` or `triangle`.
    pub fn name(self) -> &'static str {
        match self {
            Grid::Square => "square",
            Grid::Hex => "hex",
            Grid::Triangle => "triangle",
        }
    }

    /// The grid called `name` (see [`Grid::name`]).
    pub fn from_name(name: &str) -> Option<Grid> {
        Grid::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The lattice steps to a cell's neighbours.
    pub fn neighbour_steps(self) -> &'static [Point] {
        match self {
            Grid::Square => <square::Square as Lattice>::STEPS,
            Grid::Hex => <hex::Hex as Lattice>::STEPS,
            Grid::Triangle => <triangle::Triangle as Lattice>::STEPS,
        }
    }

    /// How many rotations map the lattice onto itself.
    pub fn rotation_count(self) -> usize {
        match self {
            Grid::Square => <square::Square as Lattice>::ROTATIONS,
            Grid::Hex => <hex::Hex as Lattice>::ROTATIONS,
            Grid::Triangle => <triangle::Triangle as Lattice>::ROTATIONS,
        }
    }

    /// Rotation by one step (90 degrees square, 60 degrees hex and triangle) about the
    /// origin.
    pub fn rotate(self, p: Point) -> Point {
        on_lattice!(self, rotate(p))
    }

    /// A reflection of the lattice (any one; with the rotations it generates the rest).
    pub fn reflect(self, p: Point) -> Point {
        on_lattice!(self, reflect(p))
    }

    /// Lattice point of board cell `(row, col)`.
    pub fn lattice(self, row: usize, col: usize) -> Point {
        on_lattice!(self, lattice(row as i32, col as i32))
    }

    /// The drawn `(row, col)` of a lattice point, which may lie outside any board;
    /// `None` if the point is no cell of the lattice.
    pub fn drawn(self, p: Point) -> Option<(i32, i32)> {
        on_lattice!(self, drawn(p))
    }

    /// The lattice point of a cell written as coordinates, the form of
    /// `docs/puzzle-format.md`: `(x, y)` square, axial `(q, r)` hex, `(a, b, 0)` for the
    /// even-column triangle `(a, b)` and `(a, b, 1)` for the odd-column one; `None` if
    /// they name no cell of the grid.
    pub fn coordinate_cell(self, c: &[i32]) -> Option<Point> {
        on_lattice!(self, coordinate_cell(c))
    }

    /// The translation part of `p` (see the module docs): `p` itself when every
    /// vector is a translation of the lattice.
    pub fn translation(self, p: Point) -> Point {
        on_lattice!(self, translation(p))
    }

    /// Whether moving by `d` maps the lattice's cells onto cells of the same kind.
    pub fn is_translation(self, d: Point) -> bool {
        self.translation(d) == d
    }

    /// Whether drawn row `row` sits half a cell east of row 0 (odd rows of the hex
    /// grid), as text drawings show it.
    pub fn shifted_row(self, row: i32) -> bool {
        self == Grid::Hex && row.rem_euclid(2) == 1
    }

    /// The smallest rectangle of drawn cells holding `cells` (drawn `(row, col)`), as
    /// `(top, left, width, height)`; on the hex grid it starts on an even row and on the
    /// triangle grid on an even column, so that rows and columns keep what their parity
    /// means. `None` for no cells.
    pub fn frame(
        self,
        cells: impl IntoIterator<Item = (i64, i64)>,
    ) -> Option<(i64, i64, usize, usize)> {
        let (mut top, mut bottom, mut left, mut right) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for (r, c) in cells {
            top = top.min(r);
            bottom = bottom.max(r);
            left = left.min(c);
            right = right.max(c);
        }
        if top > bottom {
            return None;
        }
        match self {
            Grid::Hex => top -= top.rem_euclid(2),
            Grid::Triangle => left -= left.rem_euclid(2),
            Grid::Square => {}
        }
        let size = |low: i64, high: i64| usize::try_from(high - low + 1).unwrap_or(usize::MAX);
        Some((top, left, size(left, right), size(top, bottom)))
    }

    /// Board `(row, col)` of a lattice point, if it lies in the `width x height` rectangle.
    pub fn cell(self, p: Point, width: usize, height: usize) -> Option<(usize, usize)> {
        let (row, col) = self.drawn(p)?;
        if row < 0 || col < 0 || row as usize >= height || col as usize >= width {
            return None;
        }
        Some((row as usize, col as usize))
    }
}

/// How a piece may move onto the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Rotations and reflections.
    Free,
    /// Rotations only.
    OneSided,
    /// As drawn.
    Fixed,
}

impl Motion {
    /// Every motion, in the order the file format lists them.
    pub const ALL: [Motion; 3] = [Motion::Free, Motion::OneSided, Motion::Fixed];

    /// The motion called `name` (see [`Motion::name`]).
    pub fn from_name(name: &str) -> Option<Motion> {
        Motion::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The motion's name in puzzle files: `free`, `one-sided` or `fixed`.
    pub fn name(self) -> &'static str {
        match self {
            Motion::Free => "free",
            Motion::OneSided => "one-sided",
            Motion::Fixed => "fixed",
        }
    }
}

/// A piece: a set of lattice points, how it may move, and how many copies exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its name, for output.
    pub name: String,
    /// Its cells (see [`normalise`]): lattice points that are cells of the board's grid
    /// ([`Grid::drawn`] is `Some`); at least one, no two alike.
    pub cells: Vec<Point>,
    /// How it may move onto the board.
    pub motion: Motion,
    /// Copies of it, at least one; copies are interchangeable.
    pub count: u32,
}

/// A board: the cells of a `width x height` rectangle that belong to it (the rest are holes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The lattice.
    pub grid: Grid,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row-major, `width * height` entries; `true` where the board has a cell.
    pub cells: Vec<bool>,
}

impl Board {
    /// The full `width x height` rectangle.
    pub fn rectangle(grid: Grid, width: usize, height: usize) -> Board {
        Board {
            grid,
            width,
            height,
            cells: vec![true; width * height],
        }
    }

    /// Whether cell `cell` (row-major) belongs to the board.
    pub fn has(&self, cell: usize) -> bool {
        self.cells[cell]
    }

    /// Index of the board cell at lattice point `p`, if it is a board cell.
    pub fn index(&self, p: Point) -> Option<usize> {
        let (row, col) = self.grid.cell(p, self.width, self.height)?;
        let i = row * self.width + col;
        self.cells[i].then_some(i)
    }

    /// The lattice point of cell `cell`.
    pub fn point(&self, cell: usize) -> Point {
        self.grid.lattice(cell / self.width, cell % self.width)
    }

    /// Board cells adjacent to `cell`.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let (x, y) = self.point(cell);
        self.grid
            .neighbour_steps()
            .iter()
            .filter_map(move |&(dx, dy)| self.index((x + dx, y + dy)))
    }

    /// The board cells covered by shape `shape` translated so that its first cell lies
    /// on cell `anchor`, in the shape's order; `None` if no translation does that (a
    /// triangle pointing the other way), or some of it falls off the board or on a hole.
    pub fn cells_at(&self, shape: &[Point], anchor: usize) -> Option<Vec<usize>> {
        let (ax, ay) = self.point(anchor);
        let &(fx, fy) = shape.first()?;
        let (dx, dy) = (ax - fx, ay - fy);
        if !self.grid.is_translation((dx, dy)) {
            return None;
        }
        shape
            .iter()
            .map(|&(x, y)| self.index((x + dx, y + dy)))
            .collect()
    }

    /// The board's cells, in increasing order.
    pub fn cell_list(&self) -> Vec<usize> {
        (0..self.cells.len()).filter(|&c| self.has(c)).collect()
    }

    /// The board's mirror image about the lattice line `x = y` (rows become columns on
    /// the square grid, triangle `(a, b)` becomes `(b, a)`), in its own smallest
    /// rectangle, and for each of its cells the cell of `self` it is the image of
    /// ([`NONE`] for holes). The same reflection maps a piece by [`transpose`].
    pub(crate) fn transposed(&self) -> (Board, Vec<u32>) {
        let cells = self.cell_list();
        let drawn: Vec<(i64, i64)> = cells
            .iter()
            .filter_map(|&c| self.grid.drawn(transpose(self.point(c))))
            .map(|(r, c)| (i64::from(r), i64::from(c)))
            .collect();
        let Some(frame) = self.grid.frame(drawn.iter().copied()) else {
            return (self.clone(), Vec::new());
        };
        let (board, index) = Board::in_frame(self.grid, frame, &drawn);
        let from = index
            .into_iter()
            .map(|i| {
                if i == NONE {
                    NONE
                } else {
                    cells[i as usize] as u32
                }
            })
            .collect();
        (board, from)
    }

    /// The board of the drawn cells `cells` in `frame` ([`Grid::frame`] of them), and
    /// for each position of the rectangle the index in `cells` of the cell there
    /// ([`NONE`] for holes).
    pub(crate) fn in_frame(
        grid: Grid,
        (top, left, width, height): (i64, i64, usize, usize),
        cells: &[(i64, i64)],
    ) -> (Board, Vec<u32>) {
        let mut board = Board {
            grid,
            width,
            height,
            cells: vec![false; width * height],
        };
        let mut index = vec![NONE; width * height];
        for (k, &(r, c)) in cells.iter().enumerate() {
            let i = (r - top) as usize * width + (c - left) as usize;
            board.cells[i] = true;
            index[i] = k as u32;
        }
        (board, index)
    }
}

/// The mirror image of a lattice point about the line `x = y`, a reflection of the
/// square, hex and triangle lattices alike.
pub fn transpose((x, y): Point) -> Point {
    (y, x)
}

/// `cells` sorted in scan order (drawn row, then column: the order of board cells)
/// and translated so that the first lies in the unit cell at the origin: on the origin
/// itself on the square and hex grids, on `(1, 1)` or `(2, 2)` on the triangle grid.
/// Two shapes are congruent by translation exactly when their normal forms are equal.
/// Empty for an empty shape; points that are no cells sort last.
pub fn normalise(grid: Grid, cells: &[Point]) -> Vec<Point> {
    let mut v: Vec<Point> = cells.to_vec();
    v.sort_by_key(|&p| (grid.drawn(p).unwrap_or((i32::MAX, i32::MAX)), p));
    let Some(&first) = v.first() else {
        return v;
    };
    let (ox, oy) = grid.translation(first);
    v.iter().map(|&(x, y)| (x - ox, y - oy)).collect()
}

/// The distinct orientations of a shape under `motion`, normalised, in a fixed order:
/// rotations of the shape as given, then rotations of its mirror image.
pub fn orientations(grid: Grid, cells: &[Point], motion: Motion) -> Vec<Vec<Point>> {
    let mut out: Vec<Vec<Point>> = Vec::new();
    let mirrors: &[bool] = match motion {
        Motion::Free => &[false, true],
        Motion::OneSided | Motion::Fixed => &[false],
    };
    let turns = match motion {
        Motion::Fixed => 1,
        _ => grid.rotation_count(),
    };
    for &mirror in mirrors {
        let mut shape: Vec<Point> = if mirror {
            cells.iter().map(|&p| grid.reflect(p)).collect()
        } else {
            cells.to_vec()
        };
        for _ in 0..turns {
            let n = normalise(grid, &shape);
            if !out.contains(&n) {
                out.push(n);
            }
            shape = shape.iter().map(|&p| grid.rotate(p)).collect();
        }
    }
    out
}

/// A symmetry of the lattice about the origin: an optional reflection, then `turns`
/// rotation steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Reflect first.
    pub mirror: bool,
    /// Then rotate this many steps.
    pub turns: usize,
}

impl Transform {
    /// The image of `p`.
    pub fn apply(self, grid: Grid, p: Point) -> Point {
        let p = if self.mirror { grid.reflect(p) } else { p };
        (0..self.turns).fold(p, |q, _| grid.rotate(q))
    }

    /// Every transform of the lattice, the identity first.
    pub fn all(grid: Grid) -> Vec<Transform> {
        [false, true]
            .iter()
            .flat_map(|&mirror| {
                (0..grid.rotation_count()).map(move |turns| Transform { mirror, turns })
            })
            .collect()
    }

    /// The half turn: half the rotations.
    pub fn half_turn(grid: Grid) -> Transform {
        Transform {
            mirror: false,
            turns: grid.rotation_count() / 2,
        }
    }
}

/// A symmetry of a board: a lattice transform that maps its cells onto its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoardSymmetry {
    /// The lattice transform (then a translation).
    pub transform: Transform,
    /// `cell_map[cell]` = the cell it maps to; [`NONE`] for holes.
    pub cell_map: Perm,
}

/// The image of `board`'s cells under `t`, translated back onto the board, if it is
/// the board again: the cell map.
fn board_map(board: &Board, t: Transform) -> Option<Perm> {
    let cells = board.cell_list();
    let points: Vec<Point> = cells.iter().map(|&c| board.point(c)).collect();
    let key = |&(x, y): &Point| (y, x);
    let first = *points.iter().min_by_key(|p| key(p))?;
    let image: Vec<Point> = points.iter().map(|&p| t.apply(board.grid, p)).collect();
    let low = *image.iter().min_by_key(|p| key(p))?;
    let (dx, dy) = (first.0 - low.0, first.1 - low.1);
    if !board.grid.is_translation((dx, dy)) {
        return None;
    }
    let mut cell_map = vec![NONE; board.cells.len()];
    for (&c, &(x, y)) in cells.iter().zip(&image) {
        cell_map[c] = board.index((x + dx, y + dy))? as u32;
    }
    Some(cell_map)
}

/// The symmetries of `board`, the identity first.
pub(crate) fn board_symmetries(board: &Board) -> Vec<BoardSymmetry> {
    Transform::all(board.grid)
        .into_iter()
        .filter_map(|transform| {
            let cell_map = board_map(board, transform)?;
            Some(BoardSymmetry {
                transform,
                cell_map,
            })
        })
        .collect()
}

/// The board's half turn as a group of two cell maps (identity first), if the board
/// is symmetric under it.
pub(crate) fn half_turn_group(board: &Board) -> Option<Group> {
    let identity = board_map(board, Transform::all(board.grid)[0])?;
    let turn = board_map(board, Transform::half_turn(board.grid))?;
    Some(Group::new(vec![identity, turn]))
}

/// How transform `t` permutes the piece set: `map[i]` = the piece that piece `i` becomes
/// (same motion and count, and the image of its shape among that piece's orientations),
/// or `None` if some piece has no such image, i.e. `t` is not a symmetry of the set.
pub(crate) fn piece_map(grid: Grid, pieces: &[Piece], t: Transform) -> Option<Vec<usize>> {
    let shapes: Vec<Vec<Vec<Point>>> = pieces
        .iter()
        .map(|p| {
            let mut o = orientations(grid, &p.cells, p.motion);
            o.sort();
            o
        })
        .collect();
    // A bijection: a piece goes to itself when it can, otherwise to the first piece of
    // its image kind not yet taken, so the k-th piece of a kind meets the k-th of its
    // image kind and two identical pieces never land on one.
    let mut taken = vec![false; pieces.len()];
    let mut map = Vec::with_capacity(pieces.len());
    for (i, p) in pieces.iter().enumerate() {
        let image: Vec<Point> = p.cells.iter().map(|&q| t.apply(grid, q)).collect();
        let image = normalise(grid, &image);
        let fits = |j: usize| {
            pieces[j].motion == p.motion
                && pieces[j].count == p.count
                && pieces[j].cells.len() == p.cells.len()
                && shapes[j].binary_search(&image).is_ok()
        };
        let target = if fits(i) && !taken[i] {
            i
        } else {
            (0..pieces.len()).find(|&j| !taken[j] && j != i && fits(j))?
        };
        taken[target] = true;
        map.push(target);
    }
    Some(map)
}

/// Every placement of `piece` on `board`, as its sorted cells, sorted and without
/// repeats (a symmetric orientation may give one placement twice).
pub(crate) fn placements(board: &Board, piece: &Piece) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for o in orientations(board.grid, &piece.cells, piece.motion) {
        for anchor in 0..board.cells.len() {
            if let Some(mut cells) = board.cells_at(&o, anchor) {
                cells.sort_unstable();
                out.push(cells);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

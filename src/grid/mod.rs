//! Geometry: the lattices boards and pieces live on, the model types of a tiling
//! ([`Board`], [`Piece`], [`Motion`], [`Point`]), the transforms of a lattice and the
//! symmetry groups of boards and piece sets.
//!
//! Each grid is one file ([`square`](self::square), [`hex`](self::hex),
//! [`triangle`](self::triangle), [`cubic`](self::cubic)) implementing [`Lattice`]: its
//! neighbour steps, its list of symmetries (proper rotations first), how a drawn cell
//! `(row, col)` of a layer maps to a lattice point, and which lattice vectors are
//! translations. Everything else here works on any lattice. This module knows nothing
//! of tables, the search or files, and uses `std` only: `build.rs` includes it (with
//! `#[path]`) to bake the meteor tables.
//!
//! # Coordinates
//! Board cells are numbered column fastest, then row, then layer: cell
//! `(layer * height + row) * width + col`. Planar boards have one layer. Row 0 is the
//! *south* edge, layer 0 the bottom: the side the search fills first; text output
//! prints row 0 as the top line of each layer and layer 0 first. On a hex board odd
//! rows are shifted half a cell east.
//!
//! Shapes live on the *lattice*: `(x, y, z)`, with `z` the layer (0 on planar grids).
//! On the square and cubic grids `x` is the column and `y` the row; on the hex grid
//! `x = col - floor(row / 2)` and `y = row` (axial coordinates); on the triangle grid a
//! cell is three times its triangle's centroid in axial coordinates (`triangle.rs`), so
//! that every translation, rotation and reflection of the lattice is a plain integer
//! map. Not every lattice point need be a cell (on the triangle grid most are not), and
//! not every difference of cells a translation: [`Grid::translation`] says which are.
//!
//! # Motions
//! A transform is an entry of the lattice's list of symmetries ([`Transform`]); a
//! piece's [`Motion`] says which entries may move it. `free` is what a physical piece
//! can do: on a plane every rotation and reflection (turning a flat piece over), in
//! space the 24 rotations; `mirror` adds the mirror images in space.

mod cubic;
mod hex;
pub mod meteor;
mod square;
mod triangle;

use crate::symmetry::{Group, Perm, NONE};

/// A lattice point `(x, y, z)`; see the module docs for the coordinate system. Planar
/// grids use `z = 0` only.
pub type Point = (i32, i32, i32);

/// What one grid provides; every other geometric idea is built from these.
pub(crate) trait Lattice {
    /// The lattice steps from a cell to its neighbours.
    const STEPS: &'static [Point];
    /// How many symmetries of the lattice fix the origin (rotations and reflections).
    const SYMMETRIES: usize;
    /// How many of them, the first ones, are proper rotations.
    const PROPER: usize;
    /// Symmetry `k < SYMMETRIES` applied to `p`: the identity first, then the other
    /// proper rotations, then the reflections.
    fn symmetry(k: usize, p: Point) -> Point;
    /// The `(x, y)` of drawn cell `(row, col)` of a layer.
    fn lattice(row: i32, col: i32) -> (i32, i32);
    /// The drawn `(row, col)` of lattice `(x, y)`, the inverse of [`Lattice::lattice`];
    /// `None` if the point is no cell.
    fn drawn(x: i32, y: i32) -> Option<(i32, i32)>;
    /// The lattice point of a cell written as coordinates (`docs/puzzle-format.md`):
    /// `(x, y)` on the square grid, axial `(q, r)` on the hex grid; `None` if they name
    /// no cell.
    fn coordinate_cell(c: &[i32]) -> Option<Point> {
        match *c {
            [x, y] => Some((x, y, 0)),
            _ => None,
        }
    }
    /// The translation part of `p`: the largest lattice translation `t` "below" it, so
    /// that `p - t` is one of the few cells of the lattice's unit cell. Every vector is a
    /// translation of the square, hex and cubic lattices (`t = p`); the triangle
    /// lattice's are the multiples of 3.
    fn translation(p: Point) -> Point {
        p
    }
}

/// The symmetries of a planar lattice from its rotation by one step and one
/// reflection: `k < rotations` is `k` steps, `rotations + j` the reflection then `j`
/// steps. `z` is kept.
fn planar_symmetry(
    k: usize,
    rotations: usize,
    rotate: fn(Point) -> Point,
    reflect: fn(Point) -> Point,
    p: Point,
) -> Point {
    let p = if k >= rotations { reflect(p) } else { p };
    (0..k % rotations).fold(p, |q, _| rotate(q))
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
    /// Cubes in layers of square grids; 6 neighbours, 24 rotations (48 symmetries).
    Cubic,
}

/// Calls `$f` of the lattice that `$grid` names.
macro_rules! on_lattice {
    ($grid:expr, $f:ident ( $($arg:expr),* )) => {
        match $grid {
            Grid::Square => <square::Square as Lattice>::$f($($arg),*),
            Grid::Hex => <hex::Hex as Lattice>::$f($($arg),*),
            Grid::Triangle => <triangle::Triangle as Lattice>::$f($($arg),*),
            Grid::Cubic => <cubic::Cubic as Lattice>::$f($($arg),*),
        }
    };
    ($grid:expr, $c:ident) => {
        match $grid {
            Grid::Square => <square::Square as Lattice>::$c,
            Grid::Hex => <hex::Hex as Lattice>::$c,
            Grid::Triangle => <triangle::Triangle as Lattice>::$c,
            Grid::Cubic => <cubic::Cubic as Lattice>::$c,
        }
    };
}

impl Grid {
    /// Every grid, in the order the file format lists them.
    pub const ALL: [Grid; 4] = [Grid::Square, Grid::Hex, Grid::Triangle, Grid::Cubic];

    /// The grid's name in puzzle files and output: `square`, `hex`, `triangle` or
    /// `cubic`.
    pub fn name(self) -> &'static str {
        match self {
            Grid::Square => "square",
            Grid::Hex => "hex",
            Grid::Triangle => "triangle",
            Grid::Cubic => "cubic",
        }
    }

    /// The grid called `name` (see [`Grid::name`]).
    pub fn from_name(name: &str) -> Option<Grid> {
        Grid::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Whether the grid is a plane (one layer, `z = 0`): every grid but the cubic.
    pub fn is_planar(self) -> bool {
        self != Grid::Cubic
    }

    /// The lattice steps to a cell's neighbours.
    pub fn neighbour_steps(self) -> &'static [Point] {
        on_lattice!(self, STEPS)
    }

    /// How many symmetries of the lattice fix the origin: 8 square, 12 hex and
    /// triangle, 48 cubic.
    pub fn symmetry_count(self) -> usize {
        on_lattice!(self, SYMMETRIES)
    }

    /// How many of them are proper rotations: 4, 6, 6, 24.
    pub fn rotation_count(self) -> usize {
        on_lattice!(self, PROPER)
    }

    /// Lattice point of drawn cell `(row, col)` of layer `layer` (0 on planar grids).
    pub fn lattice(self, layer: usize, row: usize, col: usize) -> Point {
        let (x, y) = on_lattice!(self, lattice(row as i32, col as i32));
        (x, y, layer as i32)
    }

    /// The drawn `(layer, row, col)` of a lattice point, which may lie outside any
    /// board; `None` if the point is no cell of the lattice (on planar grids, any point
    /// off the plane `z = 0`).
    pub fn drawn(self, (x, y, z): Point) -> Option<(i32, i32, i32)> {
        if z != 0 && self.is_planar() {
            return None;
        }
        let (row, col) = on_lattice!(self, drawn(x, y))?;
        Some((z, row, col))
    }

    /// The lattice point of a cell written as coordinates, the form of
    /// `docs/puzzle-format.md`: `(x, y)` square, axial `(q, r)` hex, `(a, b, 0)` for the
    /// even-column triangle `(a, b)` and `(a, b, 1)` for the odd-column one, `(x, y, z)`
    /// cubic; `None` if they name no cell of the grid.
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

    /// The smallest box of drawn cells holding `cells` (drawn `(layer, row, col)`); on
    /// the hex grid it starts on an even row and on the triangle grid on an even column,
    /// so that rows and columns keep what their parity means. `None` for no cells.
    pub fn frame(self, cells: impl IntoIterator<Item = (i64, i64, i64)>) -> Option<Frame> {
        let mut low = [i64::MAX; 3];
        let mut high = [i64::MIN; 3];
        for (l, r, c) in cells {
            for (i, v) in [l, r, c].into_iter().enumerate() {
                low[i] = low[i].min(v);
                high[i] = high[i].max(v);
            }
        }
        if low[0] > high[0] {
            return None;
        }
        match self {
            Grid::Hex => low[1] -= low[1].rem_euclid(2),
            Grid::Triangle => low[2] -= low[2].rem_euclid(2),
            Grid::Square | Grid::Cubic => {}
        }
        let size = |i: usize| usize::try_from(high[i] - low[i] + 1).unwrap_or(usize::MAX);
        Some(Frame {
            layer: low[0],
            top: low[1],
            left: low[2],
            width: size(2),
            height: size(1),
            depth: size(0),
        })
    }
}

/// A box of drawn cells: its first layer, row and column, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The first layer.
    pub layer: i64,
    /// The first row.
    pub top: i64,
    /// The first column.
    pub left: i64,
    /// Columns.
    pub width: usize,
    /// Rows per layer.
    pub height: usize,
    /// Layers.
    pub depth: usize,
}

impl Frame {
    /// Cells of the box, holes included (saturating).
    pub fn volume(&self) -> usize {
        self.width
            .saturating_mul(self.height)
            .saturating_mul(self.depth)
    }
}

/// How a piece may move onto the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Every motion a physical piece can make: rotations in space. A planar piece turned
    /// over in space is its mirror image in the plane, so on planar grids this is every
    /// rotation and reflection; on the cubic grid the 24 rotations.
    Free,
    /// Rotations of the lattice only (on the cubic grid the same as `Free`).
    OneSided,
    /// As drawn.
    Fixed,
    /// Every symmetry of the lattice, mirror images included: on planar grids the same
    /// as `Free`, on the cubic grid the 48 symmetries of the cube.
    Mirror,
}

impl Motion {
    /// Every motion, in the order the file format lists them.
    pub const ALL: [Motion; 4] = [
        Motion::Free,
        Motion::OneSided,
        Motion::Fixed,
        Motion::Mirror,
    ];

    /// The motion called `name` (see [`Motion::name`]).
    pub fn from_name(name: &str) -> Option<Motion> {
        Motion::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The motion's name in puzzle files: `free`, `one-sided`, `fixed` or `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Motion::Free => "free",
            Motion::OneSided => "one-sided",
            Motion::Fixed => "fixed",
            Motion::Mirror => "mirror",
        }
    }

    /// Whether a piece with this motion may be moved by `t` on `grid`.
    pub fn allows(self, grid: Grid, t: Transform) -> bool {
        match self {
            Motion::Fixed => t == Transform::IDENTITY,
            Motion::OneSided => t.is_proper(grid),
            Motion::Free => grid.is_planar() || t.is_proper(grid),
            Motion::Mirror => true,
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

/// A board: the cells of a `width x height x depth` box that belong to it (the rest are
/// holes). Planar boards have one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The lattice.
    pub grid: Grid,
    /// Columns.
    pub width: usize,
    /// Rows per layer.
    pub height: usize,
    /// Layers: 1 on planar grids.
    pub depth: usize,
    /// `width * height * depth` entries, cell `(layer * height + row) * width + col`
    /// (column fastest, then row, then layer: the order the search fills); `true`
    /// where the board has a cell.
    pub cells: Vec<bool>,
}

impl Board {
    /// The full `width x height` rectangle.
    pub fn rectangle(grid: Grid, width: usize, height: usize) -> Board {
        Board::cuboid(grid, width, height, 1)
    }

    /// The full `width x height x depth` box (`depth` 1 on planar grids).
    pub fn cuboid(grid: Grid, width: usize, height: usize, depth: usize) -> Board {
        Board {
            grid,
            width,
            height,
            depth,
            cells: vec![true; width * height * depth],
        }
    }

    /// Rows of `width` cells in cell order, all layers: the rows the search's window
    /// moves by.
    pub fn rows(&self) -> usize {
        self.height * self.depth
    }

    /// Whether cell `cell` (in cell order) belongs to the board.
    pub fn has(&self, cell: usize) -> bool {
        self.cells[cell]
    }

    /// The drawn `(layer, row, col)` of cell `cell`.
    pub fn drawn(&self, cell: usize) -> (usize, usize, usize) {
        let row = cell / self.width;
        (row / self.height, row % self.height, cell % self.width)
    }

    /// Index of the board cell at lattice point `p`, if it is a board cell.
    pub fn index(&self, p: Point) -> Option<usize> {
        let (layer, row, col) = self.grid.drawn(p)?;
        let inside = |v: i32, n: usize| v >= 0 && (v as usize) < n;
        if !(inside(layer, self.depth) && inside(row, self.height) && inside(col, self.width)) {
            return None;
        }
        let i = (layer as usize * self.height + row as usize) * self.width + col as usize;
        self.cells[i].then_some(i)
    }

    /// The lattice point of cell `cell`.
    pub fn point(&self, cell: usize) -> Point {
        let (layer, row, col) = self.drawn(cell);
        self.grid.lattice(layer, row, col)
    }

    /// Board cells adjacent to `cell`.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        neighbours_by(self.grid, self.point(cell), move |p| self.index(p))
    }

    /// The board cells covered by shape `shape` translated so that its first cell lies
    /// on cell `anchor`, in the shape's order; `None` if no translation does that (a
    /// triangle pointing the other way), or some of it falls off the board or on a hole.
    /// Callers that place many shapes use a [`Locator`].
    pub fn cells_at(&self, shape: &[Point], anchor: usize) -> Option<Vec<usize>> {
        let mut cells = Vec::with_capacity(shape.len());
        place_by(self.grid, shape, self.point(anchor), &mut cells, |p| {
            self.index(p)
        })
        .then_some(cells)
    }

    /// The board's cells, in increasing order.
    pub fn cell_list(&self) -> Vec<usize> {
        (0..self.cells.len()).filter(|&c| self.has(c)).collect()
    }

    /// The board's image under `axes` (a symmetry of its lattice) in its own smallest
    /// box, and for each cell of that box the cell of `self` it is the image of
    /// ([`NONE`] for holes). The same map takes a piece by [`Axes::apply`].
    pub(crate) fn mapped(&self, axes: Axes) -> (Board, Vec<u32>) {
        let cells = self.cell_list();
        let drawn: Vec<(i64, i64, i64)> = cells
            .iter()
            .filter_map(|&c| self.grid.drawn(axes.apply(self.point(c))))
            .map(|(l, r, c)| (i64::from(l), i64::from(r), i64::from(c)))
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

    /// The board of the drawn cells `cells` (`(layer, row, col)`) in `frame`
    /// ([`Grid::frame`] of them), and for each position of the box the index in `cells`
    /// of the cell there ([`NONE`] for holes).
    pub(crate) fn in_frame(
        grid: Grid,
        frame: Frame,
        cells: &[(i64, i64, i64)],
    ) -> (Board, Vec<u32>) {
        let Frame {
            width,
            height,
            depth,
            ..
        } = frame;
        let mut board = Board::cuboid(grid, width, height, depth);
        board.cells.fill(false);
        let mut index = vec![NONE; board.cells.len()];
        for (k, &(l, r, c)) in cells.iter().enumerate() {
            let (l, r, c) = (l - frame.layer, r - frame.top, c - frame.left);
            let i = ((l as usize) * height + r as usize) * width + c as usize;
            board.cells[i] = true;
            index[i] = k as u32;
        }
        (board, index)
    }
}

/// The cells adjacent to the cell at `at`, by `index`.
fn neighbours_by(
    grid: Grid,
    (x, y, z): Point,
    index: impl Fn(Point) -> Option<usize>,
) -> impl Iterator<Item = usize> {
    grid.neighbour_steps()
        .iter()
        .filter_map(move |&(dx, dy, dz)| index((x + dx, y + dy, z + dz)))
}

/// `shape` translated so that its first cell lies on `at`, as cells by `index`, into
/// `cells` (cleared first): whether it lies on the board there ([`Board::cells_at`]).
fn place_by(
    grid: Grid,
    shape: &[Point],
    at: Point,
    cells: &mut Vec<usize>,
    index: impl Fn(Point) -> Option<usize>,
) -> bool {
    cells.clear();
    let Some(&f) = shape.first() else {
        return false;
    };
    let d = sub(at, f);
    if !grid.is_translation(d) {
        return false;
    }
    for &p in shape {
        match index(add(p, d)) {
            Some(c) => cells.push(c),
            None => return false,
        }
    }
    true
}

/// [`Board::index`], [`Board::point`] and what is built on them, for callers that look
/// up thousands of points (table building, island pruning, symmetry): the lattice point
/// of every cell and the cell of every point of the box they span, computed once, so a
/// lookup is a subtraction, a bounds check and a load instead of a lattice's division
/// per point. It borrows the board, which therefore cannot change under it.
pub(crate) struct Locator<'a> {
    pub board: &'a Board,
    /// `points[cell]`, for every cell of the box (holes too).
    points: Vec<Point>,
    /// The least corner of the box of board cells' lattice points.
    low: Point,
    /// The box's extent along x, y and z.
    size: [usize; 3],
    /// The cell at each point of the box, x fastest; [`NONE`] where there is none.
    cell_at: Vec<u32>,
    /// When the box has at most 128 points and the board at most 128 cells: the box
    /// points that are board cells, and per axis, `below[axis][k]`, the box points
    /// whose coordinate on it is less than `k` (for [`Locator::fitting`]).
    bits: Option<BoxBits>,
}

/// [`Locator::bits`].
struct BoxBits {
    cells: u128,
    below: [Vec<u128>; 3],
}

/// Where one shape lies on a board: the anchor cells (its first point on one) at which
/// every point is on a board cell, and the box offsets of its points from the first
/// ([`Locator::fitting`]).
pub(crate) struct Fitting {
    /// Bit `c`: the shape lies on the board anchored at cell `c`.
    pub anchors: u128,
    /// The box offsets of the shape's points from its first: `offsets[..points]`.
    offsets: [isize; MOST_SHAPE_POINTS],
    points: usize,
}

/// Points of the largest shape [`Locator::fitting`] serves.
const MOST_SHAPE_POINTS: usize = 16;

impl<'a> Locator<'a> {
    pub fn new(board: &'a Board) -> Locator<'a> {
        let points: Vec<Point> = (0..board.cells.len()).map(|c| board.point(c)).collect();
        let on_board = || {
            (0..points.len())
                .filter(|&c| board.has(c))
                .map(|c| points[c])
        };
        let low = on_board()
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.min(b.2)))
            .unwrap_or((0, 0, 0));
        let high = on_board()
            .reduce(|a, b| (a.0.max(b.0), a.1.max(b.1), a.2.max(b.2)))
            .unwrap_or((-1, -1, -1));
        let size = [high.0 - low.0, high.1 - low.1, high.2 - low.2].map(|d| (d + 1) as usize);
        let mut locator = Locator {
            board,
            points,
            low,
            size,
            cell_at: vec![NONE; size.iter().product()],
            bits: None,
        };
        for c in (0..board.cells.len()).filter(|&c| board.has(c)) {
            let at = locator
                .box_index(locator.points[c])
                .expect("inside its box");
            locator.cell_at[at] = c as u32;
        }
        if locator.cell_at.len() <= 128 && board.cells.len() <= 128 {
            let [sx, sy, _] = size;
            // The points at each coordinate, then their unions below each.
            let mut at_coordinate = size.map(|s| vec![0u128; s]);
            for at in 0..locator.cell_at.len() {
                let bit = 1u128 << at;
                at_coordinate[0][at % sx] |= bit;
                at_coordinate[1][at / sx % sy] |= bit;
                at_coordinate[2][at / (sx * sy)] |= bit;
            }
            let below = at_coordinate.map(|points| {
                std::iter::once(0)
                    .chain(points.iter().scan(0u128, |union, &p| {
                        *union |= p;
                        Some(*union)
                    }))
                    .collect()
            });
            let cells = (0..locator.cell_at.len())
                .filter(|&at| locator.cell_at[at] != NONE)
                .fold(0u128, |m, at| m | 1 << at);
            locator.bits = Some(BoxBits { cells, below });
        }
        locator
    }

    /// Where `shape` lies on the board (see [`Fitting`]), found for every anchor at
    /// once with shifts of the box's cells as bits, when the box has at most 128
    /// points and the shape at most 16; `None` otherwise ([`Locator::cells_into`]
    /// serves every board). The same placements as `cells_into`, which table building
    /// and the symmetry classes ask of every cell and orientation.
    pub fn fitting(&self, shape: &[Point]) -> Option<Fitting> {
        let bits = self.bits.as_ref()?;
        let &first = shape.first()?;
        if shape.len() > MOST_SHAPE_POINTS {
            return None;
        }
        let [sx, sy, _] = self.size.map(|s| s as isize);
        let mut fitting = Fitting {
            anchors: 0,
            offsets: [0; MOST_SHAPE_POINTS],
            points: shape.len(),
        };
        let mut at = bits.cells;
        for (k, &p) in shape.iter().enumerate() {
            let d = sub(p, first);
            // The anchors from which `d` stays inside the box, along each axis.
            for (axis, delta) in [d.0, d.1, d.2].into_iter().enumerate() {
                let below = &bits.below[axis];
                let size = below.len() as isize - 1;
                let delta = delta as isize;
                if delta.abs() >= size {
                    // Farther than the box is long: no anchor.
                    return Some(fitting);
                }
                at &= if delta >= 0 {
                    below[(size - delta) as usize]
                } else {
                    !below[(-delta) as usize]
                };
            }
            let offset = (d.2 as isize * sy + d.1 as isize) * sx + d.0 as isize;
            // Anchors whose point moved by `d` is a board cell.
            at &= if offset >= 0 {
                bits.cells >> offset
            } else {
                bits.cells << -offset
            };
            fitting.offsets[k] = offset;
        }
        // From box points to cells, less the anchors the lattice cannot move the
        // shape to (on the triangle grid, a cell of the other kind).
        while at != 0 {
            let point = at.trailing_zeros() as usize;
            at &= at - 1;
            let cell = self.cell_at[point] as usize;
            if self
                .board
                .grid
                .is_translation(sub(self.points[cell], first))
            {
                fitting.anchors |= 1 << cell;
            }
        }
        Some(fitting)
    }

    /// Where point `p` is in `cell_at`, if inside the box.
    #[inline]
    fn box_index(&self, (x, y, z): Point) -> Option<usize> {
        let (dx, dy, dz) = sub((x, y, z), self.low);
        let [sx, sy, sz] = self.size;
        // Negative offsets wrap to huge values and fail the bound.
        let (dx, dy, dz) = (dx as usize, dy as usize, dz as usize);
        (dx < sx && dy < sy && dz < sz).then(|| (dz * sy + dy) * sx + dx)
    }

    /// [`Board::index`].
    #[inline]
    pub fn index(&self, p: Point) -> Option<usize> {
        let c = self.cell_at[self.box_index(p)?];
        (c != NONE).then_some(c as usize)
    }

    /// [`Board::neighbours`].
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        neighbours_by(self.board.grid, self.points[cell], move |p| self.index(p))
    }

    /// [`Board::cells_at`] into `cells` (cleared first), for callers that try many
    /// shapes: whether the shape lies on the board there.
    pub fn cells_into(&self, shape: &[Point], anchor: usize, cells: &mut Vec<usize>) -> bool {
        place_by(self.board.grid, shape, self.points[anchor], cells, |p| {
            self.index(p)
        })
    }
}

impl Locator<'_> {
    /// The cells of `shape` anchored at `anchor` into `cells` (cleared first), read
    /// through `fitting` (the shape's [`Locator::fitting`]) when there is one, else
    /// placed point by point: whether it lies on the board there.
    pub fn cells_through(
        &self,
        fitting: Option<&Fitting>,
        shape: &[Point],
        anchor: usize,
        cells: &mut Vec<usize>,
    ) -> bool {
        match fitting {
            Some(f) if f.anchors >> anchor & 1 == 1 => {
                f.cells_into(self, anchor, cells);
                true
            }
            Some(_) => false,
            None => self.cells_into(shape, anchor, cells),
        }
    }
}

impl Fitting {
    /// The cells of the placement anchored at `anchor` (one of [`Fitting::anchors`]),
    /// in the shape's order, into `cells` (cleared first), as
    /// [`Locator::cells_into`] gives them.
    pub fn cells_into(&self, locator: &Locator, anchor: usize, cells: &mut Vec<usize>) {
        cells.clear();
        let at = locator
            .box_index(locator.points[anchor])
            .expect("a board cell") as isize;
        cells.extend(
            self.offsets[..self.points]
                .iter()
                .map(|&d| locator.cell_at[(at + d) as usize] as usize),
        );
    }
}

fn add(a: Point, b: Point) -> Point {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2)
}

fn sub(a: Point, b: Point) -> Point {
    (a.0 - b.0, a.1 - b.1, a.2 - b.2)
}

/// A permutation of the coordinate axes of lattice points: coordinate `i` of the image
/// is coordinate `self.0[i]` of the point. [`Axes::TRANSPOSE`] (the mirror image about
/// the plane `x = y`) is a symmetry of every lattice here; on the cubic grid every
/// permutation is one, each taking the box's columns, rows and layers to another three
/// of its edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axes(pub [u8; 3]);

impl Axes {
    /// The identity.
    pub const SAME: Axes = Axes([0, 1, 2]);
    /// `(x, y, z) -> (y, x, z)`: on the square grid rows become columns, on the
    /// triangle grid `(a, b)` becomes `(b, a)`.
    pub const TRANSPOSE: Axes = Axes([1, 0, 2]);
    /// The six permutations, the identity first (the cubic grid's reorientations of a
    /// box).
    pub const ALL: [Axes; 6] = [
        Axes([0, 1, 2]),
        Axes([1, 0, 2]),
        Axes([0, 2, 1]),
        Axes([2, 0, 1]),
        Axes([1, 2, 0]),
        Axes([2, 1, 0]),
    ];

    /// The image of `p`.
    pub fn apply(self, p: Point) -> Point {
        let c = [p.0, p.1, p.2];
        let [a, b, d] = self.0;
        (c[usize::from(a)], c[usize::from(b)], c[usize::from(d)])
    }
}

/// `cells` sorted in scan order (drawn layer, row, then column: the order of board
/// cells) and translated so that the first lies in the unit cell at the origin: on the
/// origin itself on the square, hex and cubic grids, on `(1, 1, 0)` or `(2, 2, 0)` on the
/// triangle grid. Two shapes are congruent by translation exactly when their normal
/// forms are equal. Empty for an empty shape; points that are no cells sort last.
pub fn normalise(grid: Grid, cells: &[Point]) -> Vec<Point> {
    let mut v: Vec<Point> = cells.to_vec();
    v.sort_by_key(|&p| (grid.drawn(p).unwrap_or((i32::MAX, i32::MAX, i32::MAX)), p));
    let Some(&first) = v.first() else {
        return v;
    };
    let origin = grid.translation(first);
    v.iter().map(|&p| sub(p, origin)).collect()
}

/// The distinct orientations of a shape under `motion`, normalised, in a fixed order:
/// its images under the lattice's symmetries that the motion allows, in
/// [`Transform::all`] order (on planar grids: rotations of the shape as given, then
/// rotations of its mirror image).
pub fn orientations(grid: Grid, cells: &[Point], motion: Motion) -> Vec<Vec<Point>> {
    let mut out: Vec<Vec<Point>> = Vec::new();
    for t in Transform::all(grid) {
        if !motion.allows(grid, t) {
            continue;
        }
        let image: Vec<Point> = cells.iter().map(|&p| t.apply(grid, p)).collect();
        let n = normalise(grid, &image);
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A symmetry of the lattice about the origin: entry `k` of the grid's list of
/// symmetries (the identity first, then the other proper rotations, then the
/// reflections; the lattice files say which is which).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform(pub u8);

impl Transform {
    /// The identity, first in every grid's list.
    pub const IDENTITY: Transform = Transform(0);

    /// The image of `p`.
    pub fn apply(self, grid: Grid, p: Point) -> Point {
        on_lattice!(grid, symmetry(usize::from(self.0), p))
    }

    /// Whether it is a proper rotation (keeps handedness).
    pub fn is_proper(self, grid: Grid) -> bool {
        usize::from(self.0) < grid.rotation_count()
    }

    /// Every transform of the lattice, the identity first.
    pub fn all(grid: Grid) -> impl Iterator<Item = Transform> {
        (0..grid.symmetry_count()).map(|k| Transform(k as u8))
    }

    /// The half turn about the `z` axis: `(x, y, z)` to `(-x, -y, z)`.
    pub fn half_turn(grid: Grid) -> Transform {
        let axes = [(1, 0, 0), (0, 1, 0), (0, 0, 1)];
        Transform::all(grid)
            .find(|t| {
                axes.iter()
                    .all(|&(x, y, z)| t.apply(grid, (x, y, z)) == (-x, -y, z))
            })
            .expect("every lattice here has the half turn")
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
fn board_map(locator: &Locator, t: Transform) -> Option<Perm> {
    let board = locator.board;
    let cells = board.cell_list();
    let points: Vec<Point> = cells.iter().map(|&c| board.point(c)).collect();
    let key = |&(x, y, z): &Point| (z, y, x);
    let first = *points.iter().min_by_key(|p| key(p))?;
    let image: Vec<Point> = points.iter().map(|&p| t.apply(board.grid, p)).collect();
    let low = *image.iter().min_by_key(|p| key(p))?;
    let d = sub(first, low);
    if !board.grid.is_translation(d) {
        return None;
    }
    let mut cell_map = vec![NONE; board.cells.len()];
    for (&c, &p) in cells.iter().zip(&image) {
        cell_map[c] = locator.index(add(p, d))? as u32;
    }
    Some(cell_map)
}

/// The symmetries of `board`, the identity first.
pub(crate) fn board_symmetries(board: &Board) -> Vec<BoardSymmetry> {
    let locator = Locator::new(board);
    Transform::all(board.grid)
        .filter_map(|transform| {
            let cell_map = board_map(&locator, transform)?;
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
    let locator = Locator::new(board);
    let identity = board_map(&locator, Transform::IDENTITY)?;
    let turn = board_map(&locator, Transform::half_turn(board.grid))?;
    Some(Group::new(vec![identity, turn]))
}

/// A piece set with each piece's orientations, sorted, so that the piece map of each
/// of a lattice's (up to 48) transforms is found without computing them again.
pub(crate) struct PieceSet<'a> {
    grid: Grid,
    pieces: &'a [Piece],
    /// `shapes[i]`: the orientations of piece `i`, sorted.
    shapes: Vec<Vec<Vec<Point>>>,
}

impl<'a> PieceSet<'a> {
    /// The set of `pieces`, given each piece's [`orientations`] on `grid`.
    pub(crate) fn with_orientations(
        grid: Grid,
        pieces: &'a [Piece],
        orients: &[Vec<Vec<Point>>],
    ) -> PieceSet<'a> {
        let shapes = orients
            .iter()
            .map(|o| {
                let mut o = o.clone();
                o.sort();
                o
            })
            .collect();
        PieceSet {
            grid,
            pieces,
            shapes,
        }
    }

    /// [`piece_map`] of transform `t`.
    pub(crate) fn map(&self, t: Transform) -> Option<Vec<usize>> {
        piece_map(self.grid, self.pieces, &self.shapes, t)
    }
}

/// How transform `t` permutes the piece set: `map[i]` = the piece that piece `i` becomes
/// (same motion and count, and the image of its shape among that piece's orientations
/// `shapes`, sorted), or `None` if some piece has no such image, i.e. `t` is not a
/// symmetry of the set.
fn piece_map(
    grid: Grid,
    pieces: &[Piece],
    shapes: &[Vec<Vec<Point>>],
    t: Transform,
) -> Option<Vec<usize>> {
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

/// Every placement of `piece` on `board`, as its sorted cells, sorted, each once.
pub(crate) fn placements(board: &Board, piece: &Piece) -> Vec<Vec<usize>> {
    match placement_bits(board, piece) {
        Some(mut bits) => {
            bits.sort_unstable_by_key(|&b| list_order(b));
            bits.into_iter().map(cells_of_bits).collect()
        }
        None => placement_lists(board, piece),
    }
}

/// [`placements`] on any board, as lists.
pub(crate) fn placement_lists(board: &Board, piece: &Piece) -> Vec<Vec<usize>> {
    let shapes = orientations(board.grid, &piece.cells, piece.motion);
    placement_lists_of(&Locator::new(board), &shapes)
}

/// [`placement_lists`] of the piece whose [`orientations`] are `shapes`, on the board of
/// `locator`.
pub(crate) fn placement_lists_of(locator: &Locator, shapes: &[Vec<Point>]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    each_placement_of(locator, shapes, |cells| {
        let mut cells = cells.to_vec();
        cells.sort_unstable();
        out.push(cells);
    });
    out.sort();
    out.dedup();
    out
}

/// Hands `each` the cells of every placement on the board of `locator` of the piece
/// whose [`orientations`] are `shapes`, orientation by orientation, anchor by anchor.
fn each_placement_of(locator: &Locator, shapes: &[Vec<Point>], mut each: impl FnMut(&[usize])) {
    let board = locator.board;
    let mut cells = Vec::new();
    for o in shapes {
        if let Some(fitting) = locator.fitting(o) {
            let mut anchors = fitting.anchors;
            while anchors != 0 {
                let anchor = anchors.trailing_zeros() as usize;
                anchors &= anchors - 1;
                fitting.cells_into(locator, anchor, &mut cells);
                each(&cells);
            }
            continue;
        }
        for anchor in (0..board.cells.len()).filter(|&c| board.has(c)) {
            if locator.cells_into(o, anchor, &mut cells) {
                each(&cells);
            }
        }
    }
}

/// [`placements`] as bit sets (bit `c` for cell `c`) on boards of at most 128 cells, in
/// the order [`each_placement_of`] finds them (each once: an orientation is anchored at
/// its first cell, so a placement has one orientation and anchor); sorted by
/// [`list_order`], they are in the order of [`placements`]. Words compare without the
/// pointer chasing of lists, which dominated the symmetry classes' setup (every
/// candidate piece's placements and their orbits).
pub(crate) fn placement_bits(board: &Board, piece: &Piece) -> Option<Vec<u128>> {
    let shapes = orientations(board.grid, &piece.cells, piece.motion);
    placement_bits_of(&Locator::new(board), &shapes)
}

/// [`placement_bits`] of the piece whose [`orientations`] are `shapes`, on the board of
/// `locator`.
pub(crate) fn placement_bits_of(locator: &Locator, shapes: &[Vec<Point>]) -> Option<Vec<u128>> {
    if locator.board.cells.len() > 128 {
        return None;
    }
    let mut out = Vec::new();
    each_placement_of(locator, shapes, |cells| {
        out.push(cells.iter().fold(0u128, |m, &c| m | 1 << c));
    });
    Some(out)
}

/// The key that orders bit sets of one size as their sorted cell lists.
pub(crate) fn list_order(bits: u128) -> std::cmp::Reverse<u128> {
    std::cmp::Reverse(bits.reverse_bits())
}

/// The cells of a bit set, in order.
pub(crate) fn cells_of_bits(mut bits: u128) -> Vec<usize> {
    let mut cells = Vec::with_capacity(bits.count_ones() as usize);
    while bits != 0 {
        cells.push(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
    cells
}

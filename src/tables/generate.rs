//! The placement-table generator: grid geometry, piece orientations, placements per
//! anchor cell, island pruning, and the flat window tables the search reads.
//!
//! This file is the single source of truth for tables. `build.rs` includes it with
//! `#[path]` to bake the meteor tables into the binary, and the library compiles it as
//! `polytile::tables::generate` to build tables for any puzzle at run time. It therefore
//! uses `std` only and no `crate::` paths.
//!
//! # Coordinates
//! Board cells are numbered row-major: cell `row * width + col`, row 0 first. Row 0 is
//! the *south* edge, the side the search fills first; the Benchmarks Game prints it as
//! the top line. On a hex board odd rows are shifted half a cell east.
//!
//! Shapes live on the *lattice*: `(x, y)` with `y` the row. On the square grid `x` is
//! the column; on the hex grid `x = col - floor(row / 2)` (axial coordinates), so that
//! every translation, rotation and reflection of the lattice is a plain integer map.
//!
//! # The window
//! The search keeps a `u64` *window* over the board: bit `i` of the window is cell
//! `offset * shift_rows * width + i`. When the first `shift_rows` rows of the window are
//! full the window moves `shift_rows` rows north. A placement is therefore stored for
//! each window position (`offset`) and each anchor among the window's first
//! `shift_rows * width` cells; its anchor is its lowest cell, which is the lowest free
//! cell when the search tries it.

/// The lattice a board and its pieces live on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grid {
    /// Square cells, 4 neighbours, 4 rotations.
    Square,
    /// Hexagonal cells in rows, odd rows shifted half a cell east; 6 neighbours, 6 rotations.
    Hex,
}

/// A lattice point `(x, y)`; see the module docs for the coordinate system.
pub type Point = (i32, i32);

impl Grid {
    /// The lattice steps to a cell's neighbours.
    pub fn neighbour_steps(self) -> &'static [Point] {
        match self {
            Grid::Square => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            Grid::Hex => &[(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)],
        }
    }

    /// How many rotations map the lattice onto itself.
    pub fn rotation_count(self) -> usize {
        match self {
            Grid::Square => 4,
            Grid::Hex => 6,
        }
    }

    /// Rotation by one step (90 degrees square, 60 degrees hex) about the origin.
    pub fn rotate(self, (x, y): Point) -> Point {
        match self {
            Grid::Square => (-y, x),
            Grid::Hex => (-y, x + y),
        }
    }

    /// A reflection of the lattice (any one; with the rotations it generates the rest).
    pub fn reflect(self, (x, y): Point) -> Point {
        match self {
            Grid::Square => (-x, y),
            Grid::Hex => (y, x),
        }
    }

    /// Lattice point of board cell `(row, col)`.
    pub fn lattice(self, row: usize, col: usize) -> Point {
        let (row, col) = (row as i32, col as i32);
        match self {
            Grid::Square => (col, row),
            Grid::Hex => (col - row.div_euclid(2), row),
        }
    }

    /// Board `(row, col)` of a lattice point, if it lies in the `width x height` rectangle.
    pub fn cell(self, (x, y): Point, width: usize, height: usize) -> Option<(usize, usize)> {
        let col = match self {
            Grid::Square => x,
            Grid::Hex => x + y.div_euclid(2),
        };
        if y < 0 || col < 0 || y as usize >= height || col as usize >= width {
            return None;
        }
        Some((y as usize, col as usize))
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

/// A piece: a connected set of lattice points, how it may move, and how many copies exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub name: String,
    pub cells: Vec<Point>,
    pub motion: Motion,
    pub count: u32,
}

/// A board: the cells of a `width x height` rectangle that belong to it (the rest are holes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub grid: Grid,
    pub width: usize,
    pub height: usize,
    /// Row-major; `true` where the board has a cell.
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

    pub fn has(&self, cell: usize) -> bool {
        self.cells[cell]
    }

    /// Index of the board cell at lattice point `p`, if it is a board cell.
    pub fn index(&self, p: Point) -> Option<usize> {
        let (row, col) = self.grid.cell(p, self.width, self.height)?;
        let i = row * self.width + col;
        self.cells[i].then_some(i)
    }

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
}

/// `cells` translated so that its first cell in scan order (row, then column) is the
/// origin, and sorted in scan order. Two shapes are congruent by translation exactly
/// when their normal forms are equal.
pub fn normalise(cells: &[Point]) -> Vec<Point> {
    let mut v: Vec<Point> = cells.to_vec();
    v.sort_by_key(|&(x, y)| (y, x));
    let (ox, oy) = v[0];
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
            let n = normalise(&shape);
            if !out.contains(&n) {
                out.push(n);
            }
            shape = shape.iter().map(|&p| grid.rotate(p)).collect();
        }
    }
    out
}

/// Rotates a shape by a half turn (3 hex steps or 2 square steps).
pub fn half_turn(grid: Grid, cells: &[Point]) -> Vec<Point> {
    let steps = grid.rotation_count() / 2;
    cells
        .iter()
        .map(|&p| (0..steps).fold(p, |q, _| grid.rotate(q)))
        .collect()
}

/// Regions up to this many cells are checked for an exact tiling; larger ones only for
/// a fillable size, which keeps table building fast.
pub const TILE_CHECK_CELLS: usize = 20;

/// Whether the board cells `region` can be tiled exactly by the pieces, each used at most
/// `available[piece]` times. `orients[piece]` are the piece's orientations as
/// [`orientations`] gives them (origin on the first cell in scan order).
pub fn tileable(
    board: &Board,
    region: &[usize],
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let mut free = vec![false; board.cells.len()];
    region.iter().for_each(|&c| free[c] = true);
    tile_from(board, &mut free, region.len(), orients, available)
}

fn tile_from(
    board: &Board,
    free: &mut [bool],
    left: usize,
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let Some(anchor) = free.iter().position(|&f| f) else {
        return true;
    };
    for piece in 0..orients.len() {
        if available[piece] == 0 || orients[piece].first().is_none_or(|o| o.len() > left) {
            continue;
        }
        for o in &orients[piece] {
            let Some(cells) = cells_at(board, o, anchor) else {
                continue;
            };
            if !cells.iter().all(|&c| free[c]) {
                continue;
            }
            cells.iter().for_each(|&c| free[c] = false);
            available[piece] -= 1;
            let done = tile_from(board, free, left - cells.len(), orients, available);
            available[piece] += 1;
            cells.iter().for_each(|&c| free[c] = true);
            if done {
                return true;
            }
        }
    }
    false
}

/// Sizes that some sub-multiset of `sizes` adds up to, as a bit set (bit `n` set when
/// `n` cells can be filled exactly). Sizes above 63 are not representable and dropped.
pub fn fillable_sizes(sizes: &[usize]) -> u64 {
    let mut reach: u64 = 1;
    for &s in sizes {
        if s < 64 {
            reach |= reach << s;
        }
    }
    reach
}

/// Connected regions of the board cells where `blocked` is false, each as a cell list.
pub fn regions(board: &Board, blocked: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = blocked.to_vec();
    for (i, s) in seen.iter_mut().enumerate() {
        *s |= !board.has(i);
    }
    let mut out = Vec::new();
    for start in 0..board.cells.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut region = vec![start];
        let mut next = 0;
        while next < region.len() {
            let c = region[next];
            next += 1;
            for n in board.neighbours(c) {
                if !seen[n] {
                    seen[n] = true;
                    region.push(n);
                }
            }
        }
        out.push(region);
    }
    out
}

/// Knobs for [`generate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Rows the window moves at a time; anchors live in the first `shift_rows` rows.
    pub shift_rows: usize,
    /// Drop placements that wall off a region the other pieces cannot fill, and give
    /// each kept placement its `islands` mask. Off only to test that pruning is sound.
    pub prune: bool,
}

/// One placement as the generator describes it (the tables store its two masks in
/// separate arrays, see [`Tables`]).
///
/// `mask`: the cells the placement covers, in window bits.
/// `islands`: window cells that the placement and every cell below its anchor cut off
/// from the rest of the board. Whatever the board holds, the free cells among them form
/// whole regions, so their number must be a fillable size; the search checks that with
/// one popcount. Zero when nothing is cut off.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    pub mask: u64,
    pub islands: u64,
}

/// Flat placement tables for the windowed search.
///
/// The placements of `piece` whose lowest cell is window bit `anchor` while the window
/// sits `offset` shifts north of the south edge form *group*
/// `g = (offset * anchors + anchor) * pieces + piece`. Each group owns `slots` entries
/// (the most orientations any piece has, rounded up to a multiple of 4, so the search
/// tests a whole group with one fixed-length loop that vectorises):
///
/// - `used_slots[g]` = `(1 << counts[g]) - 1`, the slots of `g` that hold placements.
/// - `masks[g * slots + i]` = cells covered by the group's `i`-th placement, for
///   `i < counts[g]`; `u64::MAX` beyond.
/// - `islands[g * slots + i]` = its `Placement::islands`.
/// - `orientation_of[g * slots + i]` = which of the piece's [`orientations`] it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    pub width: usize,
    pub height: usize,
    pub shift_rows: usize,
    pub offsets: usize,
    pub anchors: usize,
    pub pieces: usize,
    pub slots: usize,
    pub counts: Vec<u8>,
    pub used_slots: Vec<u32>,
    pub masks: Vec<u64>,
    pub islands: Vec<u64>,
    pub orientation_of: Vec<u8>,
    /// Bit `n` set when `n` free cells can be exactly filled by some of the pieces.
    pub fillable: u64,
    /// The piece `meteor_tables` restricts to one placement of each half-turn pair, if
    /// any: each solution then stands for itself and its half turn.
    pub half_turn_piece: Option<usize>,
    /// Rows in a band; see [`band_table`].
    pub band_rows: usize,
    /// `bad_band[parity]`: the [`band_table`] for bands whose first row has that parity.
    pub bad_band: [Vec<u64>; 2],
    /// `band_at[bit]` = `row * width | (row & 1) << 7` for the window row `row` that
    /// holds window bit `bit`: where the band of a board whose lowest free cell is `bit`
    /// starts, and the parity of its first row when the window sits at offset 0.
    pub band_at: [u8; 64],
    /// Bits in a look-ahead pattern; see `can_fit`.
    pub look_bits: usize,
    /// `can_fit[cell << look_bits | pattern]` = the pieces with a placement anchored at
    /// board cell `cell` that avoids every filled cell of `pattern`, the `look_bits`
    /// cells after `cell` in scan order (bit `j` = cell `cell + 1 + j`, 1 = filled).
    /// A board whose lowest free cell is `cell` can only continue with those pieces.
    pub can_fit: Vec<u32>,
    /// `placeable_from[cell]` = the pieces with a placement anchored at `cell` or later.
    /// A board whose lowest free cell is `cell` can only be completed with every unused
    /// piece among them.
    pub placeable_from: Vec<u32>,
    /// `not_cells[offset]`: window bits at `offset` that are not board cells (holes, or
    /// north of the board). The search keeps them set so that they read as filled.
    pub not_cells: Vec<u64>,
}

impl Tables {
    /// The group index of `(offset, anchor, piece)`; see [`Tables`].
    pub fn group(&self, offset: usize, anchor: usize, piece: usize) -> usize {
        (offset * self.anchors + anchor) * self.pieces + piece
    }

    /// The placements of one group.
    pub fn placements_at(&self, offset: usize, anchor: usize, piece: usize) -> Vec<Placement> {
        let g = self.group(offset, anchor, piece);
        (0..self.counts[g] as usize)
            .map(|i| Placement {
                mask: self.masks[g * self.slots + i],
                islands: self.islands[g * self.slots + i],
            })
            .collect()
    }

    /// Number of placements in all groups.
    pub fn placement_count(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }
}

/// Per piece and absolute anchor cell: placements before and after pruning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    pub orientations: Vec<Vec<Vec<Point>>>,
    /// `[piece][cell]` placements anchored at `cell` before pruning (after the
    /// half-turn restriction of `meteor_tables`, if any).
    pub before: Vec<Vec<u32>>,
    /// `[piece][cell]` after pruning.
    pub after: Vec<Vec<u32>>,
}

/// Why tables cannot be built for a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// A placement reaches beyond the 64-bit window.
    WindowTooSmall { piece: usize, rows: usize },
    /// More than 32 orientations of a piece (the 3-D cube has 24; nothing else gets near).
    TooLarge,
    /// A board wider than 64 cells, or with no columns: no row fits the window.
    BadWidth(usize),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::WindowTooSmall { piece, rows } => write!(
                f,
                "piece {piece} spans {rows} rows of the search window, more than 64 bits hold at this board width"
            ),
            GenerateError::TooLarge => write!(f, "too many placements for the tables"),
            GenerateError::BadWidth(w) => write!(
                f,
                "a board {w} cells wide does not fit the 64-bit search window (1 to 32 columns)"
            ),
        }
    }
}

/// The board cells covered by orientation `o` with its origin on `anchor`.
pub fn cells_at(board: &Board, o: &[Point], anchor: usize) -> Option<Vec<usize>> {
    let (ax, ay) = board.point(anchor);
    o.iter()
        .map(|&(x, y)| board.index((ax + x, ay + y)))
        .collect()
}

/// Builds the window tables and the census for `pieces` on `board`.
pub fn generate(
    board: &Board,
    pieces: &[Piece],
    opts: Options,
) -> Result<(Tables, Census), GenerateError> {
    generate_with_only(board, pieces, opts, None)
}

/// [`generate`], keeping for piece `only.0` just the placements whose sorted cell lists
/// are in `only.1` (one placement per symmetry orbit, for counting distinct solutions).
pub fn generate_with_only(
    board: &Board,
    pieces: &[Piece],
    opts: Options,
    only: Option<(usize, &[Vec<usize>])>,
) -> Result<(Tables, Census), GenerateError> {
    let width = board.width;
    if width == 0 || width * opts.shift_rows > 64 {
        return Err(GenerateError::BadWidth(width));
    }
    let shift = opts.shift_rows * width;
    let offsets = board.height.div_ceil(opts.shift_rows);
    let anchors = shift;
    let window_rows = 64 / width;
    let sizes: Vec<usize> = pieces
        .iter()
        .flat_map(|p| std::iter::repeat_n(p.cells.len(), p.count as usize))
        .collect();
    let fillable = fillable_sizes(&sizes);
    let ncells = board.cells.len();

    let mut census = Census {
        orientations: Vec::new(),
        before: vec![vec![0; ncells]; pieces.len()],
        after: vec![vec![0; ncells]; pieces.len()],
    };
    let mut orients = Vec::new();
    let mut other_sizes = Vec::new();
    for piece in pieces {
        let o = orientations(board.grid, &piece.cells, piece.motion);
        if o.len() > 32 {
            return Err(GenerateError::TooLarge);
        }
        census.orientations.push(o.clone());
        orients.push(o);
        let mut rest = sizes.clone();
        let k = rest.iter().position(|&s| s == piece.cells.len()).unwrap();
        rest.remove(k);
        other_sizes.push(fillable_sizes(&rest));
    }

    // At least one lane group, even with no pieces.
    let slots = orients
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .next_multiple_of(4)
        .max(4);
    let groups = offsets * anchors * pieces.len();
    let mut counts = vec![0u8; groups];
    let mut masks = vec![u64::MAX; groups * slots];
    let mut islands_of = vec![0u64; groups * slots];
    let mut orientation_of = vec![0u8; groups * slots];
    let mut available: Vec<u32> = pieces.iter().map(|p| p.count).collect();
    let mut blocked = vec![false; ncells];
    for offset in 0..offsets {
        let base = offset * shift;
        for anchor in 0..anchors {
            let cell = base + anchor;
            for pi in 0..pieces.len() {
                let g = (offset * anchors + anchor) * pieces.len() + pi;
                if cell >= ncells || !board.has(cell) {
                    continue;
                }
                for (oi, o) in orients[pi].iter().enumerate() {
                    let Some(covered) = cells_at(board, o, cell) else {
                        continue;
                    };
                    if let Some((piece, keep)) = only {
                        let mut sorted = covered.clone();
                        sorted.sort_unstable();
                        if piece == pi && keep.binary_search(&sorted).is_err() {
                            continue;
                        }
                    }
                    census.before[pi][cell] += 1;
                    let top = *covered.iter().max().unwrap();
                    if top - base >= window_rows * width {
                        return Err(GenerateError::WindowTooSmall {
                            piece: pi,
                            rows: (top - base) / width + 1,
                        });
                    }
                    let mask = covered.iter().fold(0u64, |m, &c| m | 1 << (c - base));
                    let mut islands = 0;
                    if opts.prune {
                        // Regions walled off by the piece and the board edges alone are
                        // tiled by whole pieces other than this one.
                        blocked.iter_mut().for_each(|b| *b = false);
                        covered.iter().for_each(|&c| blocked[c] = true);
                        let dead = regions(board, &blocked).iter().any(|r| {
                            // The size bit set stops at 63 cells: larger regions are
                            // not judged (on boards beyond 64 cells they are common).
                            if r.len() >= 64 {
                                return false;
                            }
                            if other_sizes[pi] >> r.len() & 1 == 0 {
                                return true;
                            }
                            if r.len() > TILE_CHECK_CELLS {
                                return false;
                            }
                            available[pi] -= 1;
                            let ok = tileable(board, r, &orients, &mut available);
                            available[pi] += 1;
                            !ok
                        });
                        if dead {
                            continue;
                        }
                        // With every cell below the anchor filled too, all regions but the
                        // largest are islands, as long as they lie inside the window.
                        blocked[..cell].iter_mut().for_each(|b| *b = true);
                        let mut rs = regions(board, &blocked);
                        rs.sort_by_key(|r| std::cmp::Reverse(r.len()));
                        for r in rs.iter().skip(1) {
                            if r.iter().all(|&c| c >= base && c - base < 64) {
                                islands |= r.iter().fold(0u64, |m, &c| m | 1 << (c - base));
                            }
                        }
                    }
                    census.after[pi][cell] += 1;
                    let slot = g * slots + counts[g] as usize;
                    counts[g] += 1;
                    masks[slot] = mask;
                    islands_of[slot] = islands;
                    orientation_of[slot] = oi as u8;
                }
            }
        }
    }
    let mut can_fit = vec![0u32; ncells << LOOK_BITS];
    for cell in 0..ncells {
        let (offset, anchor) = (cell / shift, cell % shift);
        for pattern in 0u64..1 << LOOK_BITS {
            let filled = pattern << (anchor + 1);
            for pi in 0..pieces.len() {
                let g = (offset * anchors + anchor) * pieces.len() + pi;
                let slots_of_g = &masks[g * slots..g * slots + counts[g] as usize];
                if slots_of_g.iter().any(|&m| m & filled == 0) {
                    can_fit[cell << LOOK_BITS | pattern as usize] |= 1 << pi;
                }
            }
        }
    }
    let mut placeable_from = vec![0u32; ncells];
    let mut later = 0u32;
    for cell in (0..ncells).rev() {
        let (offset, anchor) = (cell / shift, cell % shift);
        for pi in 0..pieces.len() {
            if counts[(offset * anchors + anchor) * pieces.len() + pi] > 0 {
                later |= 1 << pi;
            }
        }
        placeable_from[cell] = later;
    }
    let not_cells = (0..offsets)
        .map(|o| {
            let base = o * shift;
            (0..64)
                .filter(|&bit| base + bit >= ncells || !board.has(base + bit))
                .fold(0u64, |m, bit| m | 1 << bit)
        })
        .collect();
    Ok((
        Tables {
            width,
            height: board.height,
            shift_rows: opts.shift_rows,
            offsets,
            anchors,
            pieces: pieces.len(),
            slots,
            used_slots: counts.iter().map(|&c| ((1u64 << c) - 1) as u32).collect(),
            counts,
            masks,
            islands: islands_of,
            orientation_of,
            fillable,
            half_turn_piece: None,
            band_rows: band_rows(width),
            bad_band: [0, 1].map(|parity| band_table(board.grid, width, parity, pieces)),
            not_cells,
            band_at: std::array::from_fn(|bit| {
                let row = bit / width;
                (row * width) as u8 | ((row & 1) as u8) << 7
            }),
            look_bits: LOOK_BITS,
            can_fit,
            placeable_from,
        },
        census,
    ))
}

/// Cells after the lowest free cell that the look-ahead table `Tables::can_fit` reads.
/// 6 and 8 measured the same on the meteor (16.68 vs 16.78 ms); 6 keeps the table at
/// 12.8 KB, inside L1, and quicker to build at run time.
pub const LOOK_BITS: usize = 6;

/// Rows in the band that [`band_table`] judges: as many as keep the table at 2^16
/// entries or fewer, at most 3.
pub fn band_rows(width: usize) -> usize {
    (16 / width).clamp(1, 3)
}

/// The band table: bit `pattern` is set when `pattern`, the cells of `band_rows`
/// consecutive board rows (bit `row * width + col`, 1 = filled) whose first row has
/// parity `parity` and with every row south of them filled, holds a free region that
/// does not reach the band's last row and that the pieces cannot tile (by size, and for
/// regions of at most [`TILE_CHECK_CELLS`] cells by an exact search). Such a region is
/// closed on every side, so no board containing that band can be completed.
pub fn band_table(grid: Grid, width: usize, parity: usize, pieces: &[Piece]) -> Vec<u64> {
    let sizes: Vec<usize> = pieces
        .iter()
        .flat_map(|p| std::iter::repeat_n(p.cells.len(), p.count as usize))
        .collect();
    let fillable = fillable_sizes(&sizes);
    let orients: Vec<Vec<Vec<Point>>> = pieces
        .iter()
        .map(|p| orientations(grid, &p.cells, p.motion))
        .collect();
    let mut available: Vec<u32> = pieces.iter().map(|p| p.count).collect();
    let mut verdicts: std::collections::HashMap<u64, bool> = std::collections::HashMap::new();
    let rows = band_rows(width);
    let bits = rows * width;
    // A board one row taller when the parity is odd, so that its rows have the right
    // parity; the band is its last `rows` rows.
    let board = Board::rectangle(grid, width, rows + parity);
    let base = parity * width;
    let neighbours: Vec<u64> = (0..bits)
        .map(|i| {
            board
                .neighbours(base + i)
                .filter(|&n| n >= base)
                .fold(0u64, |m, n| m | 1 << (n - base))
        })
        .collect();
    let all = (1u64 << bits) - 1;
    let top_row = all & !((1u64 << ((rows - 1) * width)) - 1);
    let mut table = vec![0u64; (1usize << bits).div_ceil(64)];
    for pattern in 0u64..1 << bits {
        let mut free = !pattern & all;
        while free != 0 {
            // Grow the region of the lowest free cell to a fixed point.
            let mut region = free & free.wrapping_neg();
            let mut frontier = region;
            while frontier != 0 {
                let mut grown = 0;
                let mut f = frontier;
                while f != 0 {
                    grown |= neighbours[f.trailing_zeros() as usize];
                    f &= f - 1;
                }
                frontier = grown & free & !region;
                region |= frontier;
            }
            free &= !region;
            if region & top_row != 0 {
                continue;
            }
            let size = region.count_ones() as usize;
            let bad = fillable >> size & 1 == 0
                || (size <= TILE_CHECK_CELLS
                    && !*verdicts.entry(region).or_insert_with(|| {
                        let cells: Vec<usize> = (0..bits)
                            .filter(|&i| region >> i & 1 == 1)
                            .map(|i| base + i)
                            .collect();
                        tileable(&board, &cells, &orients, &mut available)
                    }));
            if bad {
                table[(pattern >> 6) as usize] |= 1 << (pattern & 63);
                break;
            }
        }
    }
    table
}

/// A symmetry of the lattice about the origin: an optional reflection, then `turns`
/// rotation steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    pub mirror: bool,
    pub turns: usize,
}

impl Transform {
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
}

/// A symmetry of a board: a lattice transform that maps its cells onto its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSymmetry {
    pub transform: Transform,
    /// `cell_map[cell]` = the cell it maps to; `usize::MAX` for non-cells.
    pub cell_map: Vec<usize>,
}

/// The symmetries of `board`, the identity first.
pub fn board_symmetries(board: &Board) -> Vec<BoardSymmetry> {
    let cells: Vec<usize> = (0..board.cells.len()).filter(|&c| board.has(c)).collect();
    let points: Vec<Point> = cells.iter().map(|&c| board.point(c)).collect();
    let key = |&(x, y): &Point| (y, x);
    let Some(first) = points.iter().min_by_key(|p| key(p)).copied() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    'transforms: for t in Transform::all(board.grid) {
        let image: Vec<Point> = points.iter().map(|&p| t.apply(board.grid, p)).collect();
        let low = *image.iter().min_by_key(|p| key(p)).unwrap();
        let (dx, dy) = (first.0 - low.0, first.1 - low.1);
        let mut cell_map = vec![usize::MAX; board.cells.len()];
        for (&c, &(x, y)) in cells.iter().zip(&image) {
            match board.index((x + dx, y + dy)) {
                Some(d) => cell_map[c] = d,
                None => continue 'transforms,
            }
        }
        out.push(BoardSymmetry {
            transform: t,
            cell_map,
        });
    }
    out
}

/// How transform `t` permutes the piece set: `map[i]` = the piece that piece `i` becomes
/// (same motion and count, and the image of its shape among that piece's orientations),
/// or `None` if some piece has no such image, i.e. `t` is not a symmetry of the set.
pub fn piece_map(grid: Grid, pieces: &[Piece], t: Transform) -> Option<Vec<usize>> {
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
        let image = normalise(&image);
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

/// The Benchmarks Game meteor board: 5 columns, 10 rows, hex.
pub fn meteor_board() -> Board {
    Board::rectangle(Grid::Hex, 5, 10)
}

/// The ten meteor pentahexes, piece `i` printed as digit `i`. Cells are `(row, col)` of
/// each piece as it lies in the smallest solution
/// `00001222012661126155865558633348893448934747977799`.
pub const METEOR_PIECE_CELLS: [[(usize, usize); 5]; 10] = [
    [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
    [(0, 4), (1, 4), (2, 3), (2, 4), (3, 2)],
    [(1, 0), (1, 1), (1, 2), (2, 0), (3, 0)],
    [(5, 2), (5, 3), (5, 4), (6, 4), (7, 4)],
    [(6, 0), (7, 0), (7, 1), (8, 0), (8, 2)],
    [(3, 3), (3, 4), (4, 2), (4, 3), (4, 4)],
    [(2, 1), (2, 2), (3, 1), (4, 1), (5, 1)],
    [(8, 1), (8, 3), (9, 0), (9, 1), (9, 2)],
    [(4, 0), (5, 0), (6, 1), (6, 2), (7, 2)],
    [(6, 3), (7, 3), (8, 4), (9, 3), (9, 4)],
];

/// The meteor pieces as free pentahexes.
pub fn meteor_pieces() -> Vec<Piece> {
    METEOR_PIECE_CELLS
        .iter()
        .enumerate()
        .map(|(i, cells)| Piece {
            name: i.to_string(),
            cells: normalise(
                &cells
                    .iter()
                    .map(|&(r, c)| Grid::Hex.lattice(r, c))
                    .collect::<Vec<_>>(),
            ),
            motion: Motion::Free,
            count: 1,
        })
        .collect()
}

/// The meteor piece restricted to one placement of each half-turn pair. Chosen by
/// measurement (nodes of the full search with each piece restricted this way, piece 0
/// to 9: 278,601 305,559 296,660 347,639 279,430 386,402 327,670 333,180 250,609
/// 334,346; restricting orientations of piece 5 instead: 292,380).
pub const METEOR_HALF_TURN_PIECE: usize = 8;

/// `map[cell]` = the cell the board's half turn takes `cell` to, if the board is
/// symmetric under the half turn; `usize::MAX` for holes.
pub fn half_turn_map(board: &Board) -> Option<Vec<usize>> {
    let cells: Vec<usize> = (0..board.cells.len()).filter(|&c| board.has(c)).collect();
    let points: Vec<Point> = cells.iter().map(|&c| board.point(c)).collect();
    let turned = half_turn(board.grid, &points);
    let key = |&(x, y): &Point| (y, x);
    let first = points.iter().min_by_key(|p| key(p))?;
    let turned_first = turned.iter().min_by_key(|p| key(p))?;
    let (dx, dy) = (first.0 - turned_first.0, first.1 - turned_first.1);
    let mut map = vec![usize::MAX; board.cells.len()];
    for (&c, &(x, y)) in cells.iter().zip(&turned) {
        map[c] = board.index((x + dx, y + dy))?;
    }
    Some(map)
}

/// Of each pair of placements of `piece` that the board's half turn swaps, the one whose
/// sorted cells come first (the southern one): sorted cell lists, sorted. `None` if the
/// board is not symmetric under the half turn or some placement is its own half turn
/// (then one of each pair would not stand for exactly two solutions).
pub fn half_turn_representatives(board: &Board, piece: &Piece) -> Option<Vec<Vec<usize>>> {
    let map = half_turn_map(board)?;
    let mut reps = Vec::new();
    for o in orientations(board.grid, &piece.cells, piece.motion) {
        for anchor in 0..board.cells.len() {
            let Some(mut cells) = cells_at(board, &o, anchor) else {
                continue;
            };
            cells.sort_unstable();
            let mut image: Vec<usize> = cells.iter().map(|&c| map[c]).collect();
            image.sort_unstable();
            match cells.cmp(&image) {
                std::cmp::Ordering::Less => reps.push(cells),
                std::cmp::Ordering::Equal => return None,
                std::cmp::Ordering::Greater => {}
            }
        }
    }
    reps.sort();
    Some(reps)
}

/// The meteor tables exactly as the binary bakes them in: with `half_turn`, piece
/// [`METEOR_HALF_TURN_PIECE`] keeps one placement of each half-turn pair.
pub fn meteor_tables(prune: bool, half_turn: bool) -> (Tables, Census) {
    let board = meteor_board();
    let pieces = meteor_pieces();
    let opts = Options {
        shift_rows: 2,
        prune,
    };
    let piece = METEOR_HALF_TURN_PIECE;
    let reps = half_turn
        .then(|| half_turn_representatives(&board, &pieces[piece]))
        .map(|r| r.expect("no meteor placement is its own half turn"));
    let only = reps.as_deref().map(|r| (piece, r));
    let (mut t, census) =
        generate_with_only(&board, &pieces, opts, only).expect("the meteor fits a 64-bit window");
    t.half_turn_piece = half_turn.then_some(piece);
    (t, census)
}

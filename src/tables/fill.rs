//! The fill checks: which region sizes some of the pieces can fill, the regions a set
//! of blocked cells leaves, and whether a small region can be tiled exactly.
//!
//! The generator uses them to drop placements that wall off a region no other pieces
//! can fill, and the band table to judge closed regions.

use crate::grid::{Board, Locator, Point};

/// Regions up to this many cells are checked for an exact tiling; larger ones only for
/// a fillable size, which keeps table building fast.
pub const TILE_CHECK_CELLS: usize = 20;

/// Whether the board cells `region` can be tiled exactly by the pieces, each used at most
/// `available[piece]` times. `orients[piece]` are the piece's orientations as
/// [`crate::grid::orientations`] gives them (origin on the first cell in scan order).
pub fn tileable(
    board: &Locator,
    region: &[usize],
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let mut free = vec![false; board.board.cells.len()];
    region.iter().for_each(|&c| free[c] = true);
    tile_from(board, &mut free, region.len(), orients, available)
}

fn tile_from(
    board: &Locator,
    free: &mut [bool],
    left: usize,
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let Some(anchor) = free.iter().position(|&f| f) else {
        return true;
    };
    // One buffer per level, reused by every orientation tried here.
    let mut cells = Vec::new();
    for piece in 0..orients.len() {
        if available[piece] == 0 || orients[piece].first().is_none_or(|o| o.len() > left) {
            continue;
        }
        for o in &orients[piece] {
            if !board.cells_into(o, anchor, &mut cells) || !cells.iter().all(|&c| free[c]) {
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

/// Exact tilings of regions of a board whose cells fit `B`, by bit sets: every
/// placement of every piece, listed under its lowest cell. [`tileable`] places shapes
/// cell by cell for each try; table building asks thousands of regions (the band
/// table most), and a placement as one word tests in one `and`.
pub struct Tiler<B> {
    /// Where each cell's placements start in `placements`; one entry more than cells.
    starts: Vec<u32>,
    /// `(cells, piece)`, grouped by lowest cell.
    placements: Vec<(B, usize)>,
}

impl<B: CellBits> Tiler<B> {
    /// The placements of the pieces' `orients` (as [`tileable`] takes them) on `board`,
    /// if its cells fit `B`.
    pub fn new(board: &Locator, orients: &[Vec<Vec<Point>>]) -> Option<Tiler<B>> {
        let n = board.board.cells.len();
        if n > std::mem::size_of::<B>() * 8 {
            return None;
        }
        let mut by_cell: Vec<Vec<(B, usize)>> = vec![Vec::new(); n];
        let mut cells = Vec::new();
        let fittings: Vec<Vec<_>> = orients
            .iter()
            .map(|shapes| shapes.iter().map(|s| board.fitting(s)).collect())
            .collect();
        for anchor in (0..n).filter(|&c| board.board.has(c)) {
            for (piece, shapes) in orients.iter().enumerate() {
                for (shape, fitting) in shapes.iter().zip(&fittings[piece]) {
                    if !board.cells_through(fitting.as_ref(), shape, anchor, &mut cells)
                        || cells.is_empty()
                    {
                        continue;
                    }
                    let bits = cells.iter().fold(B::ZERO, |m, &c| m | B::bit(c));
                    by_cell[bits.lowest()].push((bits, piece));
                }
            }
        }
        let mut starts = Vec::with_capacity(n + 1);
        let mut placements = Vec::new();
        // An orientation's origin is its first cell, so each placement is listed once.
        for list in by_cell {
            starts.push(placements.len() as u32);
            placements.extend(list);
        }
        starts.push(placements.len() as u32);
        Some(Tiler { starts, placements })
    }

    /// Whether the cells of `region` can be tiled exactly by the pieces, each used at
    /// most `available[piece]` times: [`tileable`] on bit sets.
    pub fn tileable(&self, region: B, available: &mut [u32]) -> bool {
        if region == B::ZERO {
            return true;
        }
        let c = region.lowest();
        let (from, to) = (self.starts[c] as usize, self.starts[c + 1] as usize);
        for &(bits, piece) in &self.placements[from..to] {
            if bits & !region != B::ZERO || available[piece] == 0 {
                continue;
            }
            available[piece] -= 1;
            let done = self.tileable(region & !bits, available);
            available[piece] += 1;
            if done {
                return true;
            }
        }
        false
    }
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

/// `neighbours[cell]`: the board cells adjacent to each cell ([`Board::neighbours`]),
/// computed once for the many [`regions`] of table building.
pub fn neighbour_lists(board: &Locator) -> Vec<Vec<usize>> {
    (0..board.board.cells.len())
        .map(|c| board.neighbours(c).collect())
        .collect()
}

/// A bit set of board cells: `u64` for boards of at most 64 cells, `u128` up to
/// 128 (a `u128` costs the smaller boards about a sixth more).
pub trait CellBits:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shr<usize, Output = Self>
    + std::ops::Shl<usize, Output = Self>
{
    const ZERO: Self;
    /// Bit `i` alone.
    fn bit(i: usize) -> Self;
    /// Bits `0..i`.
    fn below(i: usize) -> Self;
    fn ones(self) -> u32;
    fn lowest(self) -> usize;
    /// The lowest set bit alone.
    fn lowest_bit(self) -> Self;
    /// The low 64 bits.
    fn low_word(self) -> u64;
    /// Whether no bit at or past 64 is set.
    fn fits_word(self) -> bool;
    /// Rotated left by `by` bits.
    fn rotate(self, by: u32) -> Self;
}

macro_rules! cell_bits {
    ($t:ty) => {
        impl CellBits for $t {
            const ZERO: $t = 0;
            fn bit(i: usize) -> $t {
                1 << i
            }
            fn below(i: usize) -> $t {
                (1 << i) - 1
            }
            fn ones(self) -> u32 {
                self.count_ones()
            }
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn rotate(self, by: u32) -> $t {
                self.rotate_left(by)
            }
            fn lowest_bit(self) -> $t {
                self & self.wrapping_neg()
            }
            fn low_word(self) -> u64 {
                self as u64
            }
            fn fits_word(self) -> bool {
                self.checked_shr(64).unwrap_or(0) == 0
            }
        }
    };
}
cell_bits!(u64);
cell_bits!(u128);

/// A board's adjacency as shifts of bit sets, for boards whose cells fit `B`: per offset
/// `d` in cell order at which some cell has a neighbour, the cells whose neighbour
/// lies there. Moving those bits by `d` gives every neighbour of a set at once, so a
/// region grows a ring of cells per step rather than a cell.
pub struct Neighbourhood<B> {
    /// `(by, cells)`: the neighbours at one offset are `cells & set` rotated left by
    /// `by` (the offset modulo the width of `B`): `cells` holds only the cells whose
    /// neighbour there is a board cell, so no bit wraps round, and one rotation does
    /// the work of a shift each way. A fixed number, the unused ones with no cells, so
    /// that the loop over them unrolls (the loop over a vector measured as a third of
    /// a region's growth on the meteor board).
    steps: [(u32, B); MOST_OFFSETS],
}

/// Offsets in cell order at which a cell's neighbours lie, at most, on every grid
/// here: 4 on the square grid, 6 on the triangular and the cubic, 8 on the hex grid
/// (its rows alternate which diagonals are one cell on either side of the row above).
pub const MOST_OFFSETS: usize = 8;

impl<B: CellBits> Neighbourhood<B> {
    /// The neighbours of every cell of `set`.
    #[inline]
    pub fn of(&self, set: B) -> B {
        self.steps
            .iter()
            .fold(B::ZERO, |n, &(by, cells)| n | (set & cells).rotate(by))
    }
}

/// The adjacency of `board` as a [`Neighbourhood`], if its cells fit `B` and its
/// neighbours lie at most at [`MOST_OFFSETS`] offsets, for [`region_masks`].
pub fn neighbour_masks<B: CellBits>(board: &Locator) -> Option<Neighbourhood<B>> {
    let n = board.board.cells.len();
    if n > std::mem::size_of::<B>() * 8 {
        return None;
    }
    let mut steps: Vec<(isize, B)> = Vec::new();
    for c in 0..n {
        for neighbour in board.neighbours(c) {
            let d = neighbour as isize - c as isize;
            match steps.iter_mut().find(|(offset, _)| *offset == d) {
                Some((_, cells)) => *cells = *cells | B::bit(c),
                None => steps.push((d, B::bit(c))),
            }
        }
    }
    if steps.len() > MOST_OFFSETS {
        return None;
    }
    let bits = (std::mem::size_of::<B>() * 8) as isize;
    let mut fixed = [(0, B::ZERO); MOST_OFFSETS];
    for (slot, (d, cells)) in fixed.iter_mut().zip(steps) {
        *slot = (d.rem_euclid(bits) as u32, cells);
    }
    Some(Neighbourhood { steps: fixed })
}

/// [`Regions`] on a board of at most 128 cells, as bit sets: the connected regions of
/// the cells of `free`, in the order of their lowest cell; `neighbours` is
/// [`neighbour_masks`] of the board. Table building asks this thousands of times, and
/// bits spare it an allocation per region.
pub fn region_masks<B: CellBits>(
    neighbours: &Neighbourhood<B>,
    mut free: B,
) -> impl Iterator<Item = B> + '_ {
    std::iter::from_fn(move || {
        if free == B::ZERO {
            return None;
        }
        let mut region = free.lowest_bit();
        let mut frontier = region;
        while frontier != B::ZERO {
            frontier = neighbours.of(frontier) & free & !region;
            region = region | frontier;
        }
        free = free & !region;
        Some(region)
    })
}

/// Connected regions of board cells, found into buffers that are kept from one call to
/// the next: table building asks for them once or twice per placement on boards too
/// large for [`region_masks`], and a vector per region measured as most of its cost.
#[derive(Default)]
pub struct Regions {
    seen: Vec<bool>,
    /// Every region's cells, one region after the other, each in flood order.
    cells: Vec<usize>,
    /// Where each region ends in `cells`.
    ends: Vec<usize>,
}

impl Regions {
    /// The regions of the board cells where `blocked` is false, in the order of their
    /// lowest cell; `neighbours` is [`neighbour_lists`] of the board.
    pub fn find(&mut self, board: &Board, neighbours: &[Vec<usize>], blocked: &[bool]) -> &Self {
        self.seen.clear();
        self.seen
            .extend(blocked.iter().enumerate().map(|(i, &b)| b || !board.has(i)));
        self.cells.clear();
        self.ends.clear();
        for start in 0..board.cells.len() {
            if self.seen[start] {
                continue;
            }
            self.seen[start] = true;
            let mut next = self.cells.len();
            self.cells.push(start);
            while next < self.cells.len() {
                let c = self.cells[next];
                next += 1;
                for &n in &neighbours[c] {
                    if !self.seen[n] {
                        self.seen[n] = true;
                        self.cells.push(n);
                    }
                }
            }
            self.ends.push(self.cells.len());
        }
        self
    }

    /// The regions of the last [`Regions::find`], each as its cells.
    pub fn iter(&self) -> impl Iterator<Item = &[usize]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(s, &e)| &self.cells[s..e])
    }
}

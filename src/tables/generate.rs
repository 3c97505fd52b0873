//! The table generator: placements per anchor cell, island pruning, and the look-ahead
//! tables, laid out as [`Tables`] describes.
//!
//! Building goes cheap checks first: the board's width, the number of pieces, each
//! piece's orientations, and whether every placement fits the window are known before
//! any table is allocated. Then each placement is pruned or kept with its islands, and
//! the per-cell tables are derived from what was kept.

use std::cmp::Reverse;

use crate::grid::{meteor, orientations, Board, Locator, Piece, Point};
use crate::symmetry::Group;

use super::band::{band_rows, band_tables};
use super::cover::CoverTables;
use super::fill::{
    fillable_sizes, neighbour_lists, neighbour_masks, region_masks, tileable, CellBits,
    Neighbourhood, Regions, TILE_CHECK_CELLS,
};
use super::pockets::PocketTables;
use super::{Census, TableLayout, Tables, TablesError, SHIFT_ROWS};

/// Pieces a search can track: one bit each in a `u32` set.
pub const MAX_PIECES: usize = 32;

/// Window positions a search step can record (`Step::offset` is a `u16`).
pub const MAX_OFFSETS: usize = 1 << 16;

/// Entries a group can hold: one fit bit each in a `u32`.
pub const MAX_SLOTS: usize = 32;

/// Cells after the lowest free cell that the look-ahead table `Tables::can_fit` reads:
/// 6 keeps the table at 64 entries per cell, inside L1 for boards of the meteor's size,
/// and quick to build at run time (8 measured no faster on the meteor).
pub const LOOK_BITS: usize = 6;

/// For one piece, the placements to keep: sorted cell lists, sorted (one placement
/// per orbit of a symmetry group, for the piece that breaks it).
pub type Restriction<'a> = (usize, &'a [Vec<usize>]);

/// One placement before pruning: its anchor cell, piece and orientation (its cells
/// are handed over beside it).
struct Candidate {
    cell: usize,
    piece: usize,
    orientation: u8,
}

/// Builds the window tables and the census for `pieces` on `board`, keeping for the
/// piece of `restrict` only the placements it lists. With `prune` off, no placement
/// is dropped and none has islands (to test that pruning is sound).
pub fn generate(
    board: &Board,
    pieces: &[Piece],
    restrict: Option<Restriction>,
    prune: bool,
) -> Result<(Tables, Census), TablesError> {
    let orients = pieces
        .iter()
        .map(|p| orientations(board.grid, &p.cells, p.motion))
        .collect();
    generate_oriented(board, pieces, orients, restrict, prune)
}

/// [`generate`] given each piece's [`orientations`] on the board's grid (a solver that
/// has them for its symmetry classes too finds them once).
pub fn generate_oriented(
    board: &Board,
    pieces: &[Piece],
    orients: Vec<Vec<Vec<Point>>>,
    restrict: Option<Restriction>,
    prune: bool,
) -> Result<(Tables, Census), TablesError> {
    let mut placed = place(board, pieces, orients, prune)?;
    if let Some(restrict) = restrict {
        placed = placed.restrict(restrict);
    }
    Ok(placed.finish(board))
}

/// Tables whose placements are judged and laid out, but whose per-cell tables (derived
/// from the placements kept) are not built yet: a symmetry restriction can still be
/// chosen by what the pruning kept ([`Placed::kept`]) and applied ([`Placed::restrict`])
/// before anything is derived ([`Placed::finish`]).
#[derive(Clone, Debug)]
pub struct Placed {
    tables: Tables,
    census: Census,
}

/// Every placement of `pieces` (with their [`orientations`] `orients`) on `board`,
/// judged by island pruning unless `prune` is off, laid out in the window tables.
pub fn place(
    board: &Board,
    pieces: &[Piece],
    orients: Vec<Vec<Vec<Point>>>,
    prune: bool,
) -> Result<Placed, TablesError> {
    let width = board.width;
    if width == 0 || width * SHIFT_ROWS > 64 {
        return Err(TablesError::BadWidth(width));
    }
    if pieces.len() > MAX_PIECES {
        return Err(TablesError::TooManyPieces(pieces.len()));
    }
    if board.height.div_ceil(SHIFT_ROWS) > MAX_OFFSETS {
        return Err(TablesError::TooTall(board.height));
    }
    for (piece, o) in orients.iter().enumerate() {
        if o.len() > MAX_SLOTS {
            return Err(TablesError::TooManyOrientations {
                piece,
                orientations: o.len(),
            });
        }
    }
    let locator = Locator::new(board);

    let shift = SHIFT_ROWS * width;
    let offsets = board.rows().div_ceil(SHIFT_ROWS);
    let ncells = board.cells.len();
    let layout = TableLayout {
        anchors: shift,
        pieces: pieces.len(),
        // At least one lane group, even with no pieces.
        slots: orients
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
            .next_multiple_of(4)
            .max(4),
    };
    let sizes: Vec<usize> = pieces
        .iter()
        .flat_map(|p| std::iter::repeat_n(p.cells.len(), p.count as usize))
        .collect();
    let mut census = Census {
        // The orientations once the placements are judged.
        orientations: Vec::new(),
        before: vec![vec![0; ncells]; pieces.len()],
        after: vec![vec![0; ncells]; pieces.len()],
    };
    let groups = offsets * layout.anchors * layout.pieces;
    let mut t = Tables {
        width,
        height: board.rows(),
        shift_rows: SHIFT_ROWS,
        offsets,
        layout,
        counts: vec![0; groups],
        used_slots: Vec::new(),
        masks: vec![u64::MAX; groups * layout.slots],
        islands: vec![0; groups * layout.slots],
        orientation_of: vec![0; groups * layout.slots],
        fillable: fillable_sizes(&sizes),
        restricted_piece: None,
        band_rows: band_rows(width),
        bad_band: band_tables(board.grid, width, pieces, &orients),
        band_at: std::array::from_fn(|bit| {
            let row = bit / width;
            (row * width) as u8 | ((row & 1) as u8) << 7
        }),
        look_bits: LOOK_BITS,
        can_fit: Vec::new(),
        placeable_from: Vec::new(),
        not_cells: Vec::new(),
        pockets: PocketTables::default(),
        cover: CoverTables::default(),
    };
    let mut pruner = Pruner::new(&locator, pieces, &orients, &sizes);
    // Each placement is judged as it is found, not listed first: a list of them all
    // is fresh memory, each page of it a fault.
    candidates(&locator, &orients, |c, covered| {
        census.before[c.piece][c.cell] += 1;
        let islands = if prune {
            match pruner.islands(c.piece, c.cell, covered) {
                Some(islands) => islands,
                None => return,
            }
        } else {
            0
        };
        census.after[c.piece][c.cell] += 1;
        let (offset, anchor) = (c.cell / shift, c.cell % shift);
        let g = layout.group(offset, anchor, c.piece);
        let s = layout.slot(g, t.counts[g] as usize);
        t.counts[g] += 1;
        t.masks[s] = window_mask(covered, offset * shift);
        t.islands[s] = islands;
        t.orientation_of[s] = c.orientation;
    })?;
    census.orientations = orients;
    Ok(Placed { tables: t, census })
}

impl Placed {
    /// How many placements of `piece` the pruning kept that `keep` keeps, given their
    /// board cells in increasing order.
    pub fn kept(&self, piece: usize, keep: impl Fn(&[usize]) -> bool) -> usize {
        let mut n = 0;
        self.tables.each_of_piece(piece, |_, _, cells| {
            n += usize::from(keep(cells));
        });
        n
    }

    /// Keeps of the piece of `restrict` only the placements it lists, in table order;
    /// every list must be a placement of that piece on the board. Its census counts the
    /// listed placements before pruning, and those kept after.
    pub fn restrict(mut self, (piece, keep): Restriction) -> Placed {
        let t = &mut self.tables;
        let mut dropped = Vec::new();
        t.each_of_piece(piece, |_, slot, cells| {
            if keep.binary_search_by(|k| k.as_slice().cmp(cells)).is_err() {
                dropped.push(slot);
            }
        });
        let layout = t.layout;
        let mut dropped = dropped.into_iter().peekable();
        for cell in 0..t.offsets * layout.anchors {
            let g = layout.group(cell / layout.anchors, cell % layout.anchors, piece);
            let count = t.counts[g] as usize;
            let mut j = 0;
            for i in 0..count {
                let s = layout.slot(g, i);
                if dropped.next_if_eq(&s).is_some() {
                    continue;
                }
                let to = layout.slot(g, j);
                t.masks[to] = t.masks[s];
                t.islands[to] = t.islands[s];
                t.orientation_of[to] = t.orientation_of[s];
                j += 1;
            }
            for i in j..count {
                let s = layout.slot(g, i);
                t.masks[s] = u64::MAX;
                t.islands[s] = 0;
                t.orientation_of[s] = 0;
            }
            t.counts[g] = j as u8;
            if let Some(after) = self.census.after[piece].get_mut(cell) {
                *after = j as u32;
            }
        }
        // A placement is anchored at its lowest cell.
        let before = &mut self.census.before[piece];
        before.fill(0);
        for k in keep {
            before[k[0]] += 1;
        }
        t.restricted_piece = Some(piece);
        self
    }

    /// The tables with their per-cell tables derived from the placements kept, and
    /// their census.
    pub fn finish(self, board: &Board) -> (Tables, Census) {
        let Placed { mut tables, census } = self;
        let t = &mut tables;
        let (shift, offsets, ncells) = (t.layout.anchors, t.offsets, board.cells.len());
        t.used_slots = t.counts.iter().map(|&c| ((1u64 << c) - 1) as u32).collect();
        t.can_fit = can_fit(t, ncells);
        t.placeable_from = placeable_from(t, ncells);
        t.not_cells = (0..offsets)
            .map(|o| {
                let base = o * shift;
                (0..64)
                    .filter(|&bit| base + bit >= ncells || !board.has(base + bit))
                    .fold(0u64, |m, bit| m | 1 << bit)
            })
            .collect();
        // The band table sees closed regions of its rows on planar boards and none on the
        // cubic grid, where the pocket check takes its place. Beside the band it cost more
        // than it saved: the hexiamonds in a 6 x 6 rhombus (a one-row band) took 42% fewer
        // nodes and 10% more time, the pentominoes 6 x 10 11% fewer nodes and 65% more
        // time.
        if !board.grid.is_planar() {
            t.pockets = PocketTables::new(board, shift, offsets, t.fillable);
            t.pockets
                .add_deltas(board, shift, &t.layout, &t.masks, &t.counts);
            t.cover = CoverTables::new(&t.layout, &t.masks, &t.counts, offsets, shift, &t.pockets);
        }
        (tables, census)
    }
}

/// The cells of `covered` as window bits for a window starting at cell `base`.
fn window_mask(covered: &[usize], base: usize) -> u64 {
    covered.iter().fold(0u64, |m, &c| m | 1 << (c - base))
}

/// Every placement on the board, in table order (window position, anchor, piece,
/// orientation), each handed to `each` with its cells; an error if one does not fit
/// the window.
fn candidates(
    locator: &Locator,
    orients: &[Vec<Vec<Point>>],
    mut each: impl FnMut(&Candidate, &[usize]),
) -> Result<(), TablesError> {
    let board = locator.board;
    let width = board.width;
    let shift = SHIFT_ROWS * width;
    let window_rows = 64 / width;
    let mut covered = Vec::new();
    // Where each orientation lies, for every anchor at once where the board allows.
    let fittings: Vec<Vec<_>> = orients
        .iter()
        .map(|o| o.iter().map(|shape| locator.fitting(shape)).collect())
        .collect();
    for cell in 0..board.cells.len() {
        if !board.has(cell) {
            continue;
        }
        let base = cell - cell % shift;
        for (piece, piece_orients) in orients.iter().enumerate() {
            for (orientation, o) in piece_orients.iter().enumerate() {
                let fitting = fittings[piece][orientation].as_ref();
                if !locator.cells_through(fitting, o, cell, &mut covered) {
                    continue;
                }
                // An empty shape covers nothing: it has no placement.
                let Some(&top) = covered.iter().max() else {
                    continue;
                };
                if top - base >= window_rows * width {
                    return Err(TablesError::WindowTooSmall {
                        piece,
                        rows: (top - base) / width + 1,
                    });
                }
                let c = Candidate {
                    cell,
                    piece,
                    orientation: orientation as u8,
                };
                each(&c, &covered);
            }
        }
    }
    Ok(())
}

/// Island pruning: which placements wall off a region the other pieces cannot fill,
/// and what the kept ones cut off together with the cells below their anchor.
struct Pruner<'a> {
    fill: Fill<'a>,
    blocked: Vec<bool>,
    /// The board's [`neighbour_lists`].
    neighbours: Vec<Vec<usize>>,
    regions: Regions,
    /// The board as bit sets, on boards of at most 128 cells (a `u128`, which holds
    /// most puzzles' boards: a 6 x 6 rhombus of triangles has 72).
    masks: Masks,
}

/// A board as bit sets in the narrowest that holds it.
enum Masks {
    Word(BitBoard<u64>),
    Wide(BitBoard<u128>),
    /// Over 128 cells (a `u128`, which holds most puzzles' boards: a 6 x 6 rhombus of triangles has 72): cell lists.
    None,
}

/// What [`Pruner::islands_by_masks`] reads of a board: its [`neighbour_masks`], its
/// cells, and per cell whether the cells before it are connected and the rim of the
/// cells from it on, if they are.
struct BitBoard<B> {
    neighbours: Neighbourhood<B>,
    cells: B,
    /// Per cell, whether the board cells before it are connected (or none):
    /// [`Pruner::islands_by_masks`] then floods once per placement.
    south_connected: Vec<bool>,
    /// Per cell `t`, when the board's cells from `t` on are one region: the cells
    /// before `t` next to it (none when it is empty). Every cell after a placement's
    /// last is free, so those cells are then one region of the placement's free
    /// cells, which a region of the free cells before `t` joins exactly when it holds
    /// a rim cell: only the cells before `t` need flooding.
    upper_rims: Vec<Option<B>>,
}

impl<B: CellBits> BitBoard<B> {
    fn new(neighbours: Neighbourhood<B>, board: &Board) -> BitBoard<B> {
        let cells = cell_bits::<B>(board);
        let len = board.cells.len();
        // Before cell 0 there are none; before each next cell, those up to this one.
        let south_connected = std::iter::once(true)
            .chain(one_region_as_added(&neighbours, cells, 0..len).map(|(one, _)| one))
            .take(len)
            .collect();
        let mut upper_rims: Vec<Option<B>> =
            one_region_as_added(&neighbours, cells, (0..len).rev())
                .map(|(one, upper)| one.then(|| neighbours.of(upper) & cells & !upper))
                .collect();
        upper_rims.reverse();
        BitBoard {
            neighbours,
            cells,
            south_connected,
            upper_rims,
        }
    }
}

/// The board cells of `order`, added one at a time to an empty set: after each, whether
/// the set is at most one region, and the set. A set of one region stays one when the
/// cell added touches it and becomes two when it does not, so only a set of several is
/// flooded again (the cell may join them): on a board without holes, none is.
fn one_region_as_added<'n, B: CellBits>(
    neighbours: &'n Neighbourhood<B>,
    cells: B,
    order: impl Iterator<Item = usize> + 'n,
) -> impl Iterator<Item = (bool, B)> + 'n {
    order.scan((true, B::ZERO), move |(one, set), c| {
        let bit = B::bit(c);
        if cells & bit != B::ZERO {
            *one = if *set == B::ZERO {
                true
            } else if *one {
                neighbours.of(bit) & *set != B::ZERO
            } else {
                region_masks(neighbours, *set | bit).nth(1).is_none()
            };
            *set = *set | bit;
        }
        Some((*one, *set))
    })
}

/// The board's cells as bits.
fn cell_bits<B: CellBits>(board: &Board) -> B {
    (0..board.cells.len())
        .filter(|&c| board.has(c))
        .fold(B::ZERO, |b, c| b | B::bit(c))
}

/// What judges one closed region: the sizes and exact tilings of the other pieces.
struct Fill<'a> {
    board: &'a Locator<'a>,
    orients: &'a [Vec<Vec<Point>>],
    /// Per piece, the sizes the other pieces can fill.
    other_sizes: Vec<u64>,
    available: Vec<u32>,
    /// A region's cells, for [`tileable`].
    region: Vec<usize>,
}

impl Fill<'_> {
    /// Whether whole pieces other than `piece` can fill a region of `len` cells closed by
    /// its placement: a size they add up to, and, for a region small enough, an exact
    /// tiling of its cells, which `cells` lists on demand. Regions of 64 cells or more
    /// are not judged (the size bit set stops at 63; beyond 64 cells they are common).
    fn fillable(&mut self, piece: usize, len: usize, cells: impl FnOnce(&mut Vec<usize>)) -> bool {
        if len >= 64 {
            return true;
        }
        if self.other_sizes[piece] >> len & 1 == 0 {
            return false;
        }
        if len > TILE_CHECK_CELLS || self.available[piece] == 0 {
            return true;
        }
        self.region.clear();
        cells(&mut self.region);
        self.available[piece] -= 1;
        let ok = tileable(self.board, &self.region, self.orients, &mut self.available);
        self.available[piece] += 1;
        ok
    }
}

impl<'a> Pruner<'a> {
    fn new(
        board: &'a Locator<'a>,
        pieces: &[Piece],
        orients: &'a [Vec<Vec<Point>>],
        sizes: &[usize],
    ) -> Pruner<'a> {
        let other_sizes = pieces
            .iter()
            .map(|piece| {
                let mut rest = sizes.to_vec();
                if let Some(k) = rest.iter().position(|&s| s == piece.cells.len()) {
                    rest.remove(k);
                }
                fillable_sizes(&rest)
            })
            .collect();
        Pruner {
            fill: Fill {
                board,
                orients,
                other_sizes,
                available: pieces.iter().map(|p| p.count).collect(),
                region: Vec::new(),
            },
            blocked: vec![false; board.board.cells.len()],
            neighbours: neighbour_lists(board),
            regions: Regions::default(),
            masks: match (neighbour_masks(board), neighbour_masks(board)) {
                (Some(few), _) => Masks::Word(BitBoard::new(few, board.board)),
                (None, Some(more)) => Masks::Wide(BitBoard::new(more, board.board)),
                (None, None) => Masks::None,
            },
        }
    }

    /// [`Pruner::islands`] with bit sets `B` that hold the board: the same judgement.
    ///
    /// The regions of the free cells at and after the anchor (the cells south of it
    /// filled) give both answers in one pass when the cells south of the anchor are
    /// connected (`south_connected`), as on every board without holes: with those cells
    /// free instead, the regions next to them join them in one region, and the others
    /// stay as they are. Otherwise the whole board less the placement is flooded apart.
    /// Only the free cells up to the placement's last are flooded when the cells after
    /// it are connected ([`BitBoard::upper_rims`]).
    fn islands_by_masks<B: CellBits>(
        fill: &mut Fill,
        board: &BitBoard<B>,
        (piece, cell, covered): (usize, usize, &[usize]),
    ) -> Option<u64> {
        let (neighbours, cells) = (&board.neighbours, board.cells);
        let south_connected = board.south_connected[cell];
        let after = covered.iter().max().map_or(cell, |&c| c + 1);
        let covered = covered.iter().fold(B::ZERO, |m, &c| m | B::bit(c));
        let base = cell - cell % (SHIFT_ROWS * fill.board.board.width);
        let mut fillable = |r: B| {
            fill.fillable(piece, r.ones() as usize, |list| {
                let mut bits = r;
                while bits != B::ZERO {
                    list.push(bits.lowest());
                    bits = bits & !B::bit(bits.lowest());
                }
            })
        };
        // A placement covers nothing south of its anchor.
        let south = cells & B::below(cell);
        if !south_connected {
            for r in region_masks(neighbours, cells & !covered) {
                if !fillable(r) {
                    return None;
                }
            }
        }
        // Islands inside the window only, as the list path keeps them.
        let in_window = |r: &B| *r & B::below(base) == B::ZERO && (*r >> base).fits_word();
        let free = cells & !covered & !B::below(cell);
        // The region south of the anchor with the regions it joins; the largest region
        // of `free` (the first of the largest, as `islands` sorts stably), and every
        // region inside the window.
        let (mut joined, mut largest, mut in_windows) = (south, B::ZERO, 0u64);
        // A region meets the cells south of the anchor where it holds a neighbour of
        // one (adjacency is symmetric): their neighbours once, rather than each
        // region's.
        let south_rim = if south_connected {
            neighbours.of(south)
        } else {
            B::ZERO
        };
        let mut region = |r: B| {
            if south_connected {
                if r & south_rim != B::ZERO {
                    joined = joined | r;
                } else if !fillable(r) {
                    return false;
                }
            }
            // The first of the largest in cell order: regions come in that order but
            // for the one after the placement, which may come last.
            if (r.ones(), Reverse(r.lowest())) > (largest.ones(), Reverse(largest.lowest())) {
                largest = r;
            }
            if in_window(&r) {
                in_windows |= (r >> base).low_word();
            }
            true
        };
        // The cells after the placement: one region when they are connected, which
        // the regions before them that hold a cell of their rim join.
        let (flooded, mut upper, rim) = match board.upper_rims.get(after) {
            Some(&Some(rim)) => (free & B::below(after), cells & !B::below(after), rim),
            _ => (free, B::ZERO, B::ZERO),
        };
        for r in region_masks(neighbours, flooded) {
            if r & rim != B::ZERO {
                upper = upper | r;
            } else if !region(r) {
                return None;
            }
        }
        if upper != B::ZERO && !region(upper) {
            return None;
        }
        if south_connected && joined != B::ZERO && !fillable(joined) {
            return None;
        }
        // Regions are disjoint: the others inside the window are all of them less the
        // largest.
        let largest_bits = if in_window(&largest) {
            (largest >> base).low_word()
        } else {
            0
        };
        Some(in_windows & !largest_bits)
    }

    /// `None` if the placement of `piece` anchored at `cell` covering `covered` walls
    /// off a region that whole pieces other than it cannot tile; otherwise its islands
    /// (see [`super::Placement::islands`]).
    fn islands(&mut self, piece: usize, cell: usize, covered: &[usize]) -> Option<u64> {
        let placement = (piece, cell, covered);
        match &self.masks {
            Masks::Word(b) => Pruner::islands_by_masks(&mut self.fill, b, placement),
            Masks::Wide(b) => Pruner::islands_by_masks(&mut self.fill, b, placement),
            Masks::None => self.islands_by_lists(piece, cell, covered),
        }
    }

    /// [`Pruner::islands`] with cell lists, on any board.
    fn islands_by_lists(&mut self, piece: usize, cell: usize, covered: &[usize]) -> Option<u64> {
        let board = self.fill.board.board;
        // Regions walled off by the piece and the board edges alone are tiled by whole
        // pieces other than this one.
        self.blocked.iter_mut().for_each(|b| *b = false);
        covered.iter().for_each(|&c| self.blocked[c] = true);
        let regions = self.regions.find(board, &self.neighbours, &self.blocked);
        for r in regions.iter() {
            if !self
                .fill
                .fillable(piece, r.len(), |list| list.extend_from_slice(r))
            {
                return None;
            }
        }
        // With every cell below the anchor filled too, all regions but the largest (the
        // first of the largest) are islands, as long as they lie inside the window.
        let base = cell - cell % (SHIFT_ROWS * board.width);
        self.blocked[..cell].iter_mut().for_each(|b| *b = true);
        let regions = self.regions.find(board, &self.neighbours, &self.blocked);
        let largest = regions
            .iter()
            .enumerate()
            .fold(
                (0, 0),
                |best, (i, r)| if r.len() > best.1 { (i, r.len()) } else { best },
            )
            .0;
        let mut islands = 0;
        for (_, r) in regions.iter().enumerate().filter(|&(i, _)| i != largest) {
            if r.iter().all(|&c| c >= base && c - base < 64) {
                islands |= window_mask(r, base);
            }
        }
        Some(islands)
    }
}

/// `Tables::can_fit`, from the kept placements.
fn can_fit(t: &Tables, ncells: usize) -> Vec<u32> {
    let mut can_fit = vec![0u32; ncells << LOOK_BITS];
    let shift = t.layout.anchors;
    let all = (1u64 << LOOK_BITS) - 1;
    for cell in 0..ncells {
        let (offset, anchor) = (cell / shift, cell % shift);
        let patterns = &mut can_fit[cell << LOOK_BITS..(cell + 1) << LOOK_BITS];
        // A placement fits exactly the patterns clear of the cells it covers past its
        // anchor: every subset of the others. Each placement's piece goes under its
        // whole clear set, then every set's pieces down to its subsets, a bit at a
        // time (LOOK_BITS passes over the patterns, rather than one pass over the
        // subsets of each placement's set).
        for piece in 0..t.layout.pieces {
            let g = t.layout.group(offset, anchor, piece);
            for (p, _) in t.group_entries(g) {
                let covered = p.mask.checked_shr(anchor as u32 + 1).unwrap_or(0) & all;
                patterns[(all & !covered) as usize] |= 1 << piece;
            }
        }
        for bit in 0..LOOK_BITS {
            for pattern in 0..patterns.len() {
                if pattern >> bit & 1 == 0 {
                    patterns[pattern] |= patterns[pattern | 1 << bit];
                }
            }
        }
    }
    can_fit
}

/// `Tables::placeable_from`, from the kept placements.
fn placeable_from(t: &Tables, ncells: usize) -> Vec<u32> {
    let mut placeable_from = vec![0u32; ncells];
    let shift = t.layout.anchors;
    let mut later = 0u32;
    for cell in (0..ncells).rev() {
        let (offset, anchor) = (cell / shift, cell % shift);
        for piece in 0..t.layout.pieces {
            if t.counts[t.layout.group(offset, anchor, piece)] > 0 {
                later |= 1 << piece;
            }
        }
        placeable_from[cell] = later;
    }
    placeable_from
}

/// Of each pair of placements of `piece` that the board's half turn swaps, the one whose
/// sorted cells come first (the southern one): sorted cell lists, sorted. `None` if the
/// board is not symmetric under the half turn or some placement is its own half turn
/// (then one of each pair would not stand for exactly two solutions).
pub fn half_turn_representatives(board: &Board, piece: &Piece) -> Option<Vec<Vec<usize>>> {
    let group: Group = crate::grid::half_turn_group(board)?;
    let placements = crate::grid::placements(board, piece);
    if group.fixes_a_set(&placements) {
        return None;
    }
    Some(group.orbit_representatives(&placements))
}

/// The meteor tables exactly as the binary bakes them in: with `half_turn`, piece
/// [`meteor::HALF_TURN_PIECE`] keeps one placement of each half-turn pair.
pub fn meteor_tables(prune: bool, half_turn: bool) -> (Tables, Census) {
    let board = meteor::board();
    let pieces = meteor::pieces();
    let piece = meteor::HALF_TURN_PIECE;
    let reps = half_turn
        .then(|| half_turn_representatives(&board, &pieces[piece]))
        .map(|r| r.expect("no meteor placement is its own half turn"));
    let restrict = reps.as_deref().map(|r| (piece, r));
    generate(&board, &pieces, restrict, prune).expect("the meteor fits a 64-bit window")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;

    /// A piece's placements in `t`, as board cells, in table order.
    fn placements_of(t: &Tables, piece: usize) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        t.each_of_piece(piece, |_, _, cells| all.push(cells.to_vec()));
        all
    }

    /// Restricting placed tables keeps of the piece exactly the listed placements that
    /// were kept, in their order, and leaves every other piece's entries as they were;
    /// unpruned, every listed placement is there, anchored at its lowest cell, so the
    /// census counts before and after alike. The derived tables are those of the
    /// restricted placements.
    #[test]
    fn restricting_keeps_the_listed_placements_and_nothing_else() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut checked = 0;
        for file in ["meteor.puz", "pentomino-6x10.puz", "hexiamonds-6x6.puz"] {
            let puzzle = Puzzle::load(&dir.join(file)).unwrap();
            let (board, pieces) = (&puzzle.board, &puzzle.pieces);
            let orients: Vec<_> = pieces
                .iter()
                .map(|p| orientations(board.grid, &p.cells, p.motion))
                .collect();
            for (piece, p) in pieces.iter().enumerate() {
                let Some(keep) = half_turn_representatives(board, p) else {
                    continue;
                };
                for prune in [false, true] {
                    let placed = place(board, pieces, orients.clone(), prune).unwrap();
                    let (all, all_census) = placed.clone().finish(board);
                    let (t, census) = placed.clone().restrict((piece, &keep)).finish(board);
                    let want: Vec<Vec<usize>> = placements_of(&all, piece)
                        .into_iter()
                        .filter(|c| keep.contains(c))
                        .collect();
                    assert_eq!(placements_of(&t, piece), want, "{file} piece {piece}");
                    assert_eq!(
                        placed.kept(piece, |c| keep.contains(&c.to_vec())),
                        want.len(),
                        "{file} piece {piece}"
                    );
                    for other in (0..pieces.len()).filter(|&o| o != piece) {
                        for g in all.groups().filter(|&g| all.layout.place(g).2 == other) {
                            assert!(all.group_entries(g).eq(t.group_entries(g)), "{file}");
                        }
                        assert_eq!(census.before[other], all_census.before[other]);
                        assert_eq!(census.after[other], all_census.after[other]);
                    }
                    let before: u32 = census.before[piece].iter().sum();
                    let after: u32 = census.after[piece].iter().sum();
                    assert_eq!(before as usize, keep.len(), "{file} piece {piece}");
                    assert_eq!(after as usize, want.len(), "{file} piece {piece}");
                    if !prune {
                        assert_eq!(census.before[piece], census.after[piece], "{file}");
                    }
                    assert_eq!(t.restricted_piece, Some(piece));
                    assert_eq!(t.can_fit, can_fit(&t, board.cells.len()));
                    assert_eq!(t.placeable_from, placeable_from(&t, board.cells.len()));
                    checked += 1;
                }
            }
        }
        assert!(checked >= 20, "{checked}");
    }

    /// The bit-set path judges every placement as the list path does, on boards of
    /// every grid that the bit sets hold (over 64 cells too).
    #[test]
    fn islands_by_masks_and_by_lists_agree() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut pruned_somewhere = false;
        for file in [
            "meteor.puz",
            "hexiamonds-6x6.puz",
            "pentomino-8x8-hole.puz",
            "soma-3x3x3.puz",
            "tetrahex-7x4.puz",
            "one-sided-pentomino-3x30.puz",
        ] {
            let puzzle = Puzzle::load(&dir.join(file)).unwrap();
            let board = &puzzle.board;
            let locator = Locator::new(board);
            let orients: Vec<_> = puzzle
                .pieces
                .iter()
                .map(|p| orientations(board.grid, &p.cells, p.motion))
                .collect();
            let sizes: Vec<usize> = puzzle
                .pieces
                .iter()
                .flat_map(|p| std::iter::repeat_n(p.cells.len(), p.count as usize))
                .collect();
            let mut pruner = Pruner::new(&locator, &puzzle.pieces, &orients, &sizes);
            assert!(!matches!(pruner.masks, Masks::None), "{file}: no bit sets");
            let (mut kept, mut pruned) = (0, 0);
            candidates(&locator, &orients, |c, covered| {
                let by_masks = pruner.islands(c.piece, c.cell, covered);
                let by_lists = pruner.islands_by_lists(c.piece, c.cell, covered);
                assert_eq!(by_masks, by_lists, "{file}: {covered:?}");
                if by_masks.is_some() {
                    kept += 1;
                } else {
                    pruned += 1;
                }
            })
            .unwrap();
            assert!(kept > 0, "{file}: nothing kept");
            pruned_somewhere |= pruned > 0;
        }
        assert!(pruned_somewhere, "no placement pruned on any board");
    }

    /// The cells before each cell (`BitBoard::south_connected`) and from each cell on
    /// (`BitBoard::upper_rims`) are one region exactly when a flood of them finds one,
    /// and the rims are their neighbours outside them: on random boards with holes of
    /// every grid, as bit sets of both widths.
    #[test]
    fn regions_added_a_cell_at_a_time_are_those_a_flood_finds() {
        use crate::grid::Grid;
        fn check<B: CellBits + std::fmt::Debug>(board: &Board) -> Option<(usize, usize)> {
            let locator = Locator::new(board);
            let neighbours = neighbour_masks::<B>(&locator)?;
            let bits = BitBoard::new(neighbour_masks::<B>(&locator)?, board);
            let one = |set: B| region_masks(&neighbours, set).nth(1).is_none();
            let (mut split, mut joined) = (0, 0);
            for t in 0..board.cells.len() {
                let before = bits.cells & B::below(t);
                assert_eq!(bits.south_connected[t], one(before), "{board:?} before {t}");
                let upper = bits.cells & !before;
                let rim = one(upper).then(|| neighbours.of(upper) & before);
                assert_eq!(bits.upper_rims[t], rim, "{board:?} from {t}");
                if rim.is_some() {
                    joined += 1;
                } else {
                    split += 1;
                }
            }
            Some((split, joined))
        }
        let mut next = crate::tests::xorshift(0x2545_f491_4f6c_dd1d);
        let (mut split, mut joined) = (0, 0);
        for grid in [Grid::Square, Grid::Hex, Grid::Triangle, Grid::Cubic] {
            for _ in 0..40 {
                let most = if grid.is_planar() { 11 } else { 5 };
                let board = crate::tests::board_with_holes(grid, &mut next, most, 5);
                let counts = check::<u64>(&board).or_else(|| check::<u128>(&board));
                if let Some((s, j)) = counts {
                    split += s;
                    joined += j;
                }
            }
        }
        assert!(split > 100 && joined > 100, "{split} {joined}");
    }

    /// The same on random boards with holes, where the cells south of an anchor are
    /// often not connected (so the bit-set path floods the whole board apart), nor
    /// those after a placement (so it floods every free cell, not only those before
    /// them): every placement of a file's pieces, on boards of every grid.
    #[test]
    fn islands_by_masks_and_by_lists_agree_on_boards_with_holes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut next = crate::tests::xorshift(0x853c_49e6_748f_ea9b);
        let (mut split_south, mut joined_south) = (0, 0);
        let (mut split_upper, mut joined_upper) = (0, 0);
        for file in [
            "pentomino-6x10.puz",
            "hexiamonds-6x6.puz",
            "tetrahex-7x4.puz",
            "soma-3x3x3.puz",
        ] {
            let puzzle = Puzzle::load(&dir.join(file)).unwrap();
            let grid = puzzle.board.grid;
            for _ in 0..12 {
                let most = if grid.is_planar() { 9 } else { 4 };
                let board = crate::tests::board_with_holes(grid, &mut next, most, 6);
                let locator = Locator::new(&board);
                let orients: Vec<_> = puzzle
                    .pieces
                    .iter()
                    .map(|p| orientations(grid, &p.cells, p.motion))
                    .collect();
                let sizes: Vec<usize> = puzzle.pieces.iter().map(|p| p.cells.len()).collect();
                let mut pruner = Pruner::new(&locator, &puzzle.pieces, &orients, &sizes);
                candidates(&locator, &orients, |c, covered| {
                    let after = covered.iter().max().unwrap() + 1;
                    let (south, upper) = match &pruner.masks {
                        Masks::Word(b) => (
                            b.south_connected[c.cell],
                            b.upper_rims.get(after).map(Option::is_some),
                        ),
                        Masks::Wide(b) => (
                            b.south_connected[c.cell],
                            b.upper_rims.get(after).map(Option::is_some),
                        ),
                        Masks::None => panic!("{file}: no bit sets"),
                    };
                    if south {
                        joined_south += 1;
                    } else {
                        split_south += 1;
                    }
                    match upper {
                        Some(true) => joined_upper += 1,
                        Some(false) => split_upper += 1,
                        None => {}
                    }
                    let by_masks = pruner.islands(c.piece, c.cell, covered);
                    let by_lists = pruner.islands_by_lists(c.piece, c.cell, covered);
                    assert_eq!(by_masks, by_lists, "{file} on {board:?}: {covered:?}");
                })
                .unwrap();
            }
        }
        assert!(
            split_south > 100 && joined_south > 100,
            "{split_south} {joined_south}"
        );
        assert!(
            split_upper > 100 && joined_upper > 100,
            "{split_upper} {joined_upper}"
        );
    }
}

//! Placement tables: every placement of every piece per window position and anchor
//! cell, as masks, pruned of placements that wall off unfillable regions, with the
//! checks the search makes at each node precomputed.
//!
//! This module owns the flat layout of the tables ([`Tables`], reached only through
//! [`TableLayout`]) and the generator ([`generate`]); the fill checks ([`fill`]) and the
//! band table ([`band`]) are its parts. Every table is defined here, once: `build.rs`
//! includes this module (with `#[path]`, like [`crate::grid`] and
//! [`crate::symmetry`]) to bake the meteor tables into the binary, and the library
//! builds tables for any puzzle at run time with the same code. It therefore uses
//! `std` only.
//!
//! # The window
//! The search keeps a `u64` *window* over the board: bit `i` of the window is cell
//! `offset * shift_rows * width + i`. When the first `shift_rows` rows of the window are
//! full the window moves `shift_rows` rows north. A placement is therefore stored for
//! each window position (`offset`) and each anchor among the window's first
//! `shift_rows * width` cells; its anchor is its lowest cell, which is the lowest free
//! cell when the search tries it.

pub mod band;
pub mod cover;
pub mod fill;
pub mod generate;
pub mod pockets;

/// Rows the window moves at a time: anchors live in the window's first two rows. One
/// row pair per window position keeps the tables small while a placement anchored on
/// either row still fits the 64 bits on boards up to 32 columns.
pub const SHIFT_ROWS: usize = 2;

/// [`TableLayout`] in words, for reports.
pub const LAYOUT_DESCRIPTION: &str = "group g = (offset * anchors + anchor) * pieces + piece; \
    its placements are masks[g * slots + i], islands[g * slots + i], orientation_of[g * slots + i] \
    for i < counts[g]; 'index' is g * slots + i";

/// Where the placements of each piece anchored on each cell are, in the flat tables.
///
/// The placements of `piece` whose lowest cell is window bit `anchor` while the window
/// sits `offset` shifts north of the south edge form *group*
/// `g = (offset * anchors + anchor) * pieces + piece`, whose `slots` entries start at
/// `g * slots`. Since `anchors` is the number of cells a shift moves,
/// `offset * anchors + anchor` is the anchor's board cell. Every reader of the tables
/// (the search, the split search, the tables report, the tests) goes through this type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLayout {
    /// Anchor cells per window position: the cells of `SHIFT_ROWS` rows.
    pub anchors: usize,
    /// Pieces (each copy of a piece is a piece of its own).
    pub pieces: usize,
    /// Entries per group: the most orientations any piece has, rounded up to a
    /// multiple of 4 (at least 4), so a group is tested with one fixed-length loop.
    pub slots: usize,
}

impl TableLayout {
    /// The group of `piece` anchored at window bit `anchor` at window position `offset`.
    #[inline(always)]
    pub const fn group(&self, offset: usize, anchor: usize, piece: usize) -> usize {
        (offset * self.anchors + anchor) * self.pieces + piece
    }

    /// `(offset, anchor, piece)` of group `g`: the inverse of [`TableLayout::group`].
    #[inline(always)]
    pub const fn place(&self, g: usize) -> (usize, usize, usize) {
        let cell = g / self.pieces;
        (cell / self.anchors, cell % self.anchors, g % self.pieces)
    }

    /// The board cell of the anchor of group `g`.
    #[inline(always)]
    pub const fn cell(&self, g: usize) -> usize {
        g / self.pieces
    }

    /// The index of entry `i` of group `g` in the flat arrays.
    #[inline(always)]
    pub const fn slot(&self, g: usize, i: usize) -> usize {
        g * self.slots + i
    }

    /// The group of the entry at flat index `slot`: the inverse of [`TableLayout::slot`].
    #[inline(always)]
    pub const fn group_of(&self, slot: usize) -> usize {
        slot / self.slots
    }
}

/// One placement: the cells it covers and the cells it cuts off.
///
/// `mask`: the cells the placement covers, in window bits.
/// `islands`: window cells that the placement and every cell below its anchor cut off
/// from the rest of the board. Whatever the board holds, the free cells among them form
/// whole regions, so their number must be a fillable size; the search checks that with
/// one popcount. Zero when nothing is cut off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Covered cells, window bits.
    pub mask: u64,
    /// Cells cut off, window bits.
    pub islands: u64,
}

/// Flat placement tables for the windowed search; [`TableLayout`] says where each group
/// lives. Per group `g` and entry `i < counts[g]`, at `s = layout.slot(g, i)`:
///
/// - `used_slots[g]` = `(1 << counts[g]) - 1`, the entries of `g` that hold placements.
/// - `masks[s]` = the cells the placement covers ([`Placement::mask`]); `u64::MAX` in
///   the unused entries of a group.
/// - `islands[s]` = its [`Placement::islands`]; 0 in unused entries.
/// - `orientation_of[s]` = which of the piece's [`crate::grid::orientations`] it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// Board columns.
    pub width: usize,
    /// Board rows of `width` cells, all layers ([`crate::grid::Board::rows`]).
    pub height: usize,
    /// Rows per window move ([`SHIFT_ROWS`]).
    pub shift_rows: usize,
    /// Window positions: `ceil(height / shift_rows)`.
    pub offsets: usize,
    /// Where each group lives.
    pub layout: TableLayout,
    /// Placements per group.
    pub counts: Vec<u8>,
    /// Per group, the entries holding placements.
    pub used_slots: Vec<u32>,
    /// Per entry, the cells covered.
    pub masks: Vec<u64>,
    /// Per entry, the cells cut off.
    pub islands: Vec<u64>,
    /// Per entry, the orientation.
    pub orientation_of: Vec<u8>,
    /// Bit `n` set when `n` free cells can be exactly filled by some of the pieces.
    pub fillable: u64,
    /// The piece kept to one placement per orbit of a symmetry group, if any (the
    /// meteor's: one of each half-turn pair, so each solution stands for two).
    pub restricted_piece: Option<usize>,
    /// Rows in a band; see [`band::band_tables`].
    pub band_rows: usize,
    /// `bad_band[parity]`: the [`band::band_tables`] for bands whose first row has that
    /// parity.
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
    /// The pocket check's tables ([`pockets::PocketTables`]).
    pub pockets: pockets::PocketTables,
    /// The cover check's lists ([`cover::CoverTables`]).
    pub cover: cover::CoverTables,
}

impl Tables {
    /// The groups, in table order.
    pub fn groups(&self) -> std::ops::Range<usize> {
        0..self.counts.len()
    }

    /// The placements of group `g` with their orientations, in entry order.
    pub fn group_entries(&self, g: usize) -> impl Iterator<Item = (Placement, u8)> + '_ {
        (0..self.counts[g] as usize).map(move |i| {
            let s = self.layout.slot(g, i);
            let placement = Placement {
                mask: self.masks[s],
                islands: self.islands[s],
            };
            (placement, self.orientation_of[s])
        })
    }

    /// Each placement of `piece`, in table order: its window position, its entry (flat
    /// index) and its board cells in increasing order.
    pub fn each_of_piece(&self, piece: usize, mut each: impl FnMut(usize, usize, &[usize])) {
        let shift = self.layout.anchors;
        let mut cells = Vec::new();
        for offset in 0..self.offsets {
            for anchor in 0..shift {
                let g = self.layout.group(offset, anchor, piece);
                for i in 0..self.counts[g] as usize {
                    let slot = self.layout.slot(g, i);
                    let mut mask = self.masks[slot];
                    cells.clear();
                    while mask != 0 {
                        cells.push(offset * shift + mask.trailing_zeros() as usize);
                        mask &= mask - 1;
                    }
                    each(offset, slot, &cells);
                }
            }
        }
    }

    /// Number of placements in all groups.
    pub fn placement_count(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }
}

/// Per piece and board cell: placements anchored there before and after pruning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// Per piece, its orientations ([`crate::grid::orientations`]).
    pub orientations: Vec<Vec<Vec<crate::grid::Point>>>,
    /// `[piece][cell]` placements anchored at `cell` before pruning (after a symmetry
    /// restriction, if any).
    pub before: Vec<Vec<u32>>,
    /// `[piece][cell]` after pruning.
    pub after: Vec<Vec<u32>>,
}

/// Why tables cannot be built for a board and pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesError {
    /// A placement reaches beyond the 64-bit window.
    WindowTooSmall {
        /// The piece (copies counted separately).
        piece: usize,
        /// Window rows it spans.
        rows: usize,
    },
    /// A piece with more orientations than a group's 32 slots.
    TooManyOrientations {
        /// The piece.
        piece: usize,
        /// Its orientations.
        orientations: usize,
    },
    /// A board wider than 32 cells (two rows must fit the window), or with no columns.
    BadWidth(usize),
    /// More pieces than the search's piece sets hold.
    TooManyPieces(usize),
    /// A board taller than the search's window positions reach.
    TooTall(usize),
}

impl std::fmt::Display for TablesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TablesError::WindowTooSmall { piece, rows } => write!(
                f,
                "piece {piece} spans {rows} rows of the search window, more than 64 bits hold at this board width"
            ),
            TablesError::TooManyOrientations {
                piece,
                orientations,
            } => write!(
                f,
                "piece {piece} has {orientations} orientations; the tables hold at most {}",
                generate::MAX_SLOTS
            ),
            TablesError::BadWidth(w) => write!(
                f,
                "a board {w} cells wide does not fit the 64-bit search window (1 to 32 columns)"
            ),
            TablesError::TooManyPieces(n) => write!(
                f,
                "{n} different pieces; the search handles at most {}",
                generate::MAX_PIECES
            ),
            TablesError::TooTall(rows) => write!(
                f,
                "a board {rows} rows high (as searched); the search handles at most {}",
                generate::MAX_OFFSETS * SHIFT_ROWS
            ),
        }
    }
}

impl std::error::Error for TablesError {}

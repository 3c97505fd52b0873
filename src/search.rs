//! The exact-cover search over window tables: lowest free cell first, the board kept as
//! one `u64` window that moves north whenever its first row pair is full.
//!
//! The search knows masks and nothing else: no grids, files or output formats. A
//! [`Visitor`] receives each solution as the list of [`Step`]s that built it; [`Tiles`]
//! is the search as the driver runs it, with a solver's [`Leaves`] turning each
//! solution's steps into what the solver reports.
//!
//! # Invariants
//! - Every cell south of the lowest free cell is filled (that is what "lowest" means),
//!   so a placement anchored there never has to look south.
//! - When the search visits a node, bit `i` of `board` is cell `offset * shift + i`;
//!   the window only ever moves north, by whole shifts, between nodes.
//! - A piece (a puzzle's piece, with all its copies) is placed at most as many times as
//!   it has copies: `unused` holds one bit per piece with a copy left, and `copies`
//!   counts the copies left of each piece that has more than one ([`Copies`]).
//! - Each table group holds exactly `K` slots, so a group is tested with one
//!   fixed-length, branch-free loop; `used_slots` masks off the empty ones.

use std::ops::ControlFlow;

use crate::driver::{Search, Sink, Split};
use crate::meet::{Above, Workspace};
use crate::tables::cover::Cover;
use crate::tables::generate::MAX_PIECES;
use crate::tables::pockets::{Counts, Pockets};
use crate::tables::{TableLayout, Tables};
use crate::wide::Wide;

/// Levels of the tree above the tasks the driver shares among threads: enough tasks
/// for the cores without cutting the work of the split search's memo too fine (three
/// levels measured no faster on the meteor).
pub(crate) const TASK_DEPTH: usize = 2;

/// Tasks a level of the cut may hold and still be the last: the root's children are
/// the tasks when there are this many. That is enough for the threads of a desktop
/// machine to share evenly, and each task more costs its path, its slot in the task
/// list and a sink, while cutting the split search's memo work finer.
pub(crate) const ENOUGH_TASKS: usize = 64;

/// The cut of every tiling search: [`TASK_DEPTH`] levels, or fewer once a level holds
/// [`ENOUGH_TASKS`], whatever the threads (a checkpoint resumes on any number).
pub(crate) const TASK_SPLIT: Split = Split {
    depth: TASK_DEPTH,
    tasks: ENOUGH_TASKS,
};

/// Fit bits of up to `2 * (64 / K)` pieces: piece `pieces_here[w * (64 / K) + j]` has
/// slot `i` at bit `j * K + i` of word `w` (see [`Window::for_each_child`]).
type Fits = [u64; 2];

/// The place bit `bit` of word `word` of a [`Fits`] stands for: the piece's index in
/// `pieces_here`, and the slot. The one reading of the layout.
#[inline(always)]
fn fit_at<const K: usize>(word: usize, bit: usize) -> (usize, usize) {
    if K.is_power_of_two() {
        // A shift and a mask: cheaper than the table's load.
        return (word * (64 / K) + bit / K, bit % K);
    }
    let at = FitAt::<K>::BITS[bit & 63];
    (
        word * (64 / K) + usize::from(at >> 8),
        usize::from(at & 0xff),
    )
}

/// [`fit_at`]'s reading of a bit, for every bit of a word: piece index above, slot
/// below. For a `K` not a power of two, a load where the division (a multiply,
/// shifts and a subtract for the remainder) sat on the way from a fit bit to the
/// tables it indexes.
struct FitAt<const K: usize>;

impl<const K: usize> FitAt<K> {
    const BITS: [u16; 64] = {
        let mut bits = [0u16; 64];
        let mut bit = 0;
        while bit < 64 {
            bits[bit] = (((bit / K) << 8) | (bit % K)) as u16;
            bit += 1;
        }
        bits
    };
}

/// The integer a table stores a placement mask in. Placements are anchored in the
/// window's first rows, so their masks often fit in 32 bits, and 32-bit lanes test four
/// placements per SSE2 instruction where 64-bit lanes need several.
pub(crate) trait Lane:
    bytemuck::Pod + std::fmt::Debug + Eq + std::ops::BitAnd<Output = Self>
{
    const BITS: u32;
    /// The low `BITS` bits of a board window.
    fn from_board(board: u64) -> Self;
    fn widen(self) -> u64;

    /// Bit `i` set when `masks[i]` and `board` share no cell.
    #[inline(always)]
    fn fit_bits<const K: usize>(masks: &[Self; K], board: Self) -> u32 {
        let mut bits = 0u32;
        for (i, &m) in masks.iter().enumerate() {
            bits |= u32::from(m & board == Self::zeroed()) << i;
        }
        bits
    }
}

impl Lane for u32 {
    const BITS: u32 = 32;
    #[inline(always)]
    fn from_board(board: u64) -> u32 {
        board as u32
    }
    #[inline(always)]
    fn widen(self) -> u64 {
        u64::from(self)
    }

    /// The widest test the build's target has ([`fit`]).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn fit_bits<const K: usize>(masks: &[u32; K], board: u32) -> u32 {
        #[cfg(target_feature = "avx512f")]
        return fit::u32_avx512(masks, board);
        #[cfg(not(target_feature = "avx512f"))]
        return fit::u32_sse2(masks, board);
    }
}

impl Lane for u64 {
    const BITS: u32 = 64;
    #[inline(always)]
    fn from_board(board: u64) -> u64 {
        board
    }
    #[inline(always)]
    fn widen(self) -> u64 {
        self
    }

    /// The widest test the build's target has ([`fit`]); the generic loop without
    /// SSE4.1.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    #[inline(always)]
    fn fit_bits<const K: usize>(masks: &[u64; K], board: u64) -> u32 {
        #[cfg(target_feature = "avx512f")]
        return fit::u64_avx512(masks, board);
        #[cfg(not(target_feature = "avx512f"))]
        return fit::u64_sse41(masks, board);
    }
}

/// [`Lane::fit_bits`] of each lane type, one per instruction set a build may target:
/// the lane type takes the widest its target has, chosen when it is compiled
/// (`.cargo/config.toml` builds for the CPU that builds). Each stays compiled wherever
/// its instructions are, so that the tests check every one a machine can run.
#[cfg(target_arch = "x86_64")]
pub(crate) mod fit {
    use std::arch::x86_64::*;

    /// Four lanes per SSE2 compare (baseline on x86_64).
    // Where AVX-512 is built for, only the tests call it.
    #[cfg_attr(target_feature = "avx512f", allow(dead_code))]
    #[inline(always)]
    pub fn u32_sse2<const K: usize>(masks: &[u32; K], board: u32) -> u32 {
        const { assert!(K.is_multiple_of(4) && K <= 32) };
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
        // available; each load reads lanes `4 * chunk .. 4 * chunk + 4 <= K` of
        // `masks`, and `loadu` has no alignment requirement.
        unsafe {
            let board = _mm_set1_epi32(board as i32);
            let mut bits = 0u32;
            for chunk in 0..K / 4 {
                let m = _mm_loadu_si128(masks.as_ptr().add(chunk * 4).cast());
                let fits = _mm_cmpeq_epi32(_mm_and_si128(m, board), _mm_setzero_si128());
                bits |= (_mm_movemask_ps(_mm_castsi128_ps(fits)) as u32) << (chunk * 4);
            }
            bits
        }
    }

    /// Sixteen lanes per AVX-512 test, whose result is already a mask of bits (where
    /// SSE2 needs a compare, a `movmskps`, a shift and an or per four lanes).
    #[cfg(target_feature = "avx512f")]
    #[inline(always)]
    pub fn u32_avx512<const K: usize>(masks: &[u32; K], board: u32) -> u32 {
        const { assert!(K <= 32) };
        // SAFETY: AVX-512F is enabled at compile time (the cfg above); each masked load
        // reads lanes `16 * chunk .. min(16 * chunk + 16, K)` of `masks` only (masked
        // lanes are not read, so they cannot fault), and has no alignment requirement.
        unsafe {
            let board = _mm512_set1_epi32(board as i32);
            let mut bits = 0u32;
            for chunk in 0..K.div_ceil(16) {
                let lanes = (K - 16 * chunk).min(16);
                let used = (u32::MAX >> (32 - lanes)) as __mmask16;
                let m = _mm512_maskz_loadu_epi32(used, masks.as_ptr().add(16 * chunk).cast());
                bits |= u32::from(_mm512_mask_testn_epi32_mask(used, m, board)) << (16 * chunk);
            }
            bits
        }
    }

    /// Two lanes per SSE4.1 compare (`x86-64-v2` and later): the compiler's own
    /// vectorisation of the generic loop gathers the results into bits with dozens of
    /// shuffles, where one `shufps` and one `movmskps` per four lanes do.
    #[cfg(target_feature = "sse4.1")]
    #[cfg_attr(target_feature = "avx512f", allow(dead_code))]
    #[inline(always)]
    pub fn u64_sse41<const K: usize>(masks: &[u64; K], board: u64) -> u32 {
        const { assert!(K.is_multiple_of(4) && K <= 32) };
        // SAFETY: SSE4.1 is enabled at compile time (the cfg above), so these
        // intrinsics are available; each pair of loads reads lanes
        // `4 * chunk .. 4 * chunk + 4 <= K` of `masks`, and `loadu` has no alignment
        // requirement.
        unsafe {
            let board = _mm_set1_epi64x(board as i64);
            let zero = _mm_setzero_si128();
            let at = masks.as_ptr().cast::<__m128i>();
            let mut bits = 0u32;
            for chunk in 0..K / 4 {
                let fits = |i: usize| {
                    let m = _mm_loadu_si128(at.add(chunk * 2 + i));
                    _mm_castsi128_ps(_mm_cmpeq_epi64(_mm_and_si128(m, board), zero))
                };
                // Dword 0 of each of the four 64-bit results, in lane order.
                let four = _mm_shuffle_ps::<0b10_00_10_00>(fits(0), fits(1));
                bits |= (_mm_movemask_ps(four) as u32) << (chunk * 4);
            }
            bits
        }
    }

    /// Eight lanes per AVX-512 test, whose result is already a mask of bits.
    #[cfg(target_feature = "avx512f")]
    #[inline(always)]
    pub fn u64_avx512<const K: usize>(masks: &[u64; K], board: u64) -> u32 {
        const { assert!(K <= 32) };
        // SAFETY: AVX-512F is enabled at compile time (the cfg above); each masked load
        // reads lanes `8 * chunk .. min(8 * chunk + 8, K)` of `masks` only (masked lanes
        // are not read, so they cannot fault), and has no alignment requirement.
        unsafe {
            let board = _mm512_set1_epi64(board as i64);
            let mut bits = 0u32;
            for chunk in 0..K.div_ceil(8) {
                let lanes = (K - 8 * chunk).min(8);
                let used = (u32::MAX >> (32 - lanes)) as __mmask8;
                let m = _mm512_maskz_loadu_epi64(used, masks.as_ptr().add(8 * chunk).cast());
                bits |= u32::from(_mm512_mask_testn_epi64_mask(used, m, board)) << (8 * chunk);
            }
            bits
        }
    }
}

/// Masks and islands of [`Tables`] narrowed to lane type `L`.
#[derive(Clone, Debug)]
pub(crate) struct Lanes<L> {
    pub masks: Vec<L>,
    pub islands: Vec<L>,
}

impl<L: Lane> Lanes<L> {
    /// The tables' masks in `L`, if every mask and island fits.
    pub fn new(t: &Tables) -> Option<Lanes<L>> {
        let narrow = |v: &[u64], counts: &[u8]| -> Option<Vec<L>> {
            if L::BITS < 64 {
                for (chunk, &used) in v.chunks(t.layout.slots).zip(counts) {
                    if chunk[..usize::from(used)]
                        .iter()
                        .any(|&x| x >> L::BITS != 0)
                    {
                        return None;
                    }
                }
            }
            // Empty slots are masked off by `used_slots`; they are truncated like
            // everything else, exactly as build.rs bakes them.
            Some(v.iter().map(|&x| L::from_board(x)).collect())
        };
        Some(Lanes {
            masks: narrow(&t.masks, &t.counts)?,
            islands: narrow(&t.islands, &t.counts)?,
        })
    }
}

/// The band tables of a window ([`crate::tables::band`]): per parity of a band's first
/// row, bit `pattern` set when a band of that pattern is dead. [`Bands::new`] checks that
/// each table has a bit for every pattern, so the band check, made at nearly every fit
/// of a planar search, reads them without a bounds check (the commit that made this
/// type has the figures).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bands<'t> {
    tables: [&'t [u64]; 2],
    /// A band pattern's bits: `bits` ones.
    mask: u64,
}

impl<'t> Bands<'t> {
    /// The tables for bands of `bits` cells. Panics (at compile time for a `static`) if
    /// a table lacks a bit for some pattern.
    pub const fn new(tables: [&'t [u64]; 2], bits: usize) -> Bands<'t> {
        assert!(bits < 64, "a band pattern fits a word");
        let mask = (1u64 << bits) - 1;
        // `mask >> 6` is the last word a pattern can read.
        assert!(
            (mask >> 6) < tables[0].len() as u64 && (mask >> 6) < tables[1].len() as u64,
            "a band table has a bit for every pattern"
        );
        Bands { tables, mask }
    }

    /// The tables, by parity.
    #[cfg(test)]
    pub fn tables(&self) -> [&'t [u64]; 2] {
        self.tables
    }

    /// The bits of a band pattern.
    #[cfg(test)]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// 1 if the band of `cells` (the band's first row in bit 0) whose first row has
    /// `parity` may be completed, 0 if it is dead.
    #[inline(always)]
    pub(crate) fn alive(&self, parity: usize, cells: u64) -> u64 {
        let band = (cells & self.mask) as usize;
        // Chosen between the two addresses, not read from `tables[parity & 1]`: that
        // read waited on `parity`, which waits on the child's board, and the word's
        // read then waited on it; this check is the search's longest chain.
        let [even, odd] = self.tables;
        let table = std::hint::select_unpredictable(parity & 1 != 0, odd, even);
        // SAFETY: `band <= mask`, so `band >> 6 <= mask >> 6`, which `new` checked is
        // an index of both tables; the fields are set only there.
        let word = unsafe { *table.get_unchecked(band >> 6) };
        !word >> (band & 63) & 1
    }
}

/// Per group of a [`Window`], the islands of its placements: as many groups as the
/// window's masks ([`Islands::new`] checks), so that the island check, made at every
/// fit, reads a group that indexed the masks without a second bounds check.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Islands<'t, L, const K: usize> {
    groups: &'t [[L; K]],
}

impl<'t, L, const K: usize> Islands<'t, L, K> {
    /// The islands `groups` of a window whose masks are `masks`. Panics (at compile
    /// time for a `static`) unless there are as many groups of each.
    pub const fn new(groups: &'t [[L; K]], masks: &[[L; K]]) -> Islands<'t, L, K> {
        assert!(groups.len() == masks.len(), "an island per placement");
        Islands { groups }
    }

    /// Every group's islands.
    #[cfg(test)]
    pub fn groups(&self) -> &'t [[L; K]] {
        self.groups
    }
}

/// A borrowed view of placement tables with `K` slots per group of lane type `L`, as
/// the search reads them. The layout is documented on [`Tables`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window<'t, L, const K: usize> {
    /// Per group, the masks of its placements.
    pub masks: &'t [[L; K]],
    /// Per group, the islands of its placements, as many groups as `masks`.
    pub islands: Islands<'t, L, K>,
    /// Per group, the slot bits that hold placements: `(1 << counts[g]) - 1`.
    pub used_slots: &'t [u32],
    /// Where each group is; `layout.slots == K`.
    pub layout: TableLayout,
    /// Cells the window moves at a time (`shift_rows * width`).
    pub shift: u32,
    /// Bit `n` set when `n` free cells can be filled; read at each island check.
    pub fillable: u64,
    /// Rows per window shift; with the offset it gives a row's parity.
    pub shift_rows: usize,
    /// The band tables, see [`Bands`].
    pub bands: Bands<'t>,
    /// The checks of each fit ([`Window::checked`]): [`CHECK_BAND`] with islands and
    /// bands, where the band table marks any pattern (planar boards); else
    /// [`CHECK_ISLANDS`] without the pocket check, and [`CHECK_NONE`] with it (the
    /// cubic grid, where the pocket check finds nearly every island the island check
    /// would, for less time; the commit that made this field has the figures).
    pub checks: u8,
    /// `band_at[bit]`: the first window bit of the row holding window bit `bit`, and in
    /// bit 7 that row's parity at offset 0. The band judged for a board starts there.
    pub band_at: &'t [u8; 64],
    /// Per offset, the window bits that are not board cells; see `Tables::not_cells`.
    pub not_cells: &'t [u64],
    /// The look-ahead table `Tables::can_fit`, and its pattern width.
    pub can_fit: &'t [u32],
    pub look_bits: u32,
    /// `Tables::placeable_from`: a node is dead when an unused piece cannot be anchored
    /// at or after its lowest free cell. All ones when pieces may be left over.
    pub placeable_from: &'t [u32],
    /// The last window offset (`offsets - 1`): the window never moves past it.
    pub last_offset: usize,
    /// How many copies each piece has: identical copies are one piece of the tables
    /// and one bit of `unused`, placed as often as they number, so `k` copies cost
    /// one table group per anchor and are not counted `k!` times.
    pub copies: &'t Copies,
    /// Whether a full board is a solution even with pieces left over.
    pub leftover: bool,
    /// The pocket check (`tables::pockets`): off for the meteor.
    pub pockets: Pockets<'t>,
    /// The cover check (`tables::cover`): off for the meteor and planar boards.
    pub cover: Cover<'t>,
    /// The root's children when one piece is placed first ([`first_steps`]):
    /// the placements of the piece a symmetry restricts, in table order. Empty: the
    /// root is searched like any node, from its lowest free cell.
    pub first: &'t [Step],
    /// Per step of [`Window::first`], the restriction its subtree searches with
    /// ([`Node::restriction`]); empty: none.
    pub first_restriction: &'t [u16],
    /// Blocks of [`Window::used_slots`], one per restriction: below a first step
    /// whose placement some symmetries fix, a second piece keeps one placement per
    /// orbit of those symmetries (`tiling::Classes` says why that is exact), and the
    /// other slots of its groups are off.
    pub restricted_slots: &'t [u32],
}

/// [`Window::checks`]: islands and bands.
pub const CHECK_BAND: u8 = 2;
/// [`Window::checks`]: islands only.
pub const CHECK_ISLANDS: u8 = 1;
/// [`Window::checks`]: neither (the pocket check runs instead).
pub const CHECK_NONE: u8 = 0;

/// The placements of the piece `t` restricts to one per orbit of a symmetry group, as
/// steps to take first from the root ([`Window::first`]), if every one lies in the
/// root's window. Placed first, that piece cuts the whole tree by about the group's
/// order; placed when the lowest free cell reaches it, it cuts only the subtrees below
/// it, and the nodes above them (often most of the tree) are searched once per element
/// of the group. Empty when nothing is restricted.
pub(crate) fn first_steps(t: &Tables) -> Vec<Step> {
    t.restricted_piece
        .and_then(|piece| root_steps(t, piece, |_| true))
        .unwrap_or_default()
}

/// The placements of `piece` in `t` that `keep` keeps (given their board cells, in
/// increasing order), as steps to take from the root, in table order; `None` if one of
/// them lies beyond the root's window.
pub(crate) fn root_steps(
    t: &Tables,
    piece: usize,
    keep: impl Fn(&[usize]) -> bool,
) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut beyond = false;
    t.each_of_piece(piece, |offset, slot, cells| {
        if !keep(cells) {
            return;
        }
        // The root's window holds the board's first 64 cells.
        beyond |= cells.last().is_some_and(|&c| c >= 64);
        steps.push(Step::new(piece as u8, offset as u16, slot as u32));
    });
    if beyond {
        return None;
    }
    Some(steps)
}

impl<'t, L: Lane, const K: usize> Window<'t, L, K> {
    /// A view of run-time tables, if they have `K` slots per group.
    pub fn new(t: &'t Tables, lanes: &'t Lanes<L>) -> Option<Window<'t, L, K>> {
        if t.layout.slots != K {
            return None;
        }
        let pockets = Pockets::new(&t.pockets);
        let masks = bytemuck::cast_slice(&lanes.masks);
        Some(Window {
            masks,
            islands: Islands::new(bytemuck::cast_slice(&lanes.islands), masks),
            used_slots: &t.used_slots,
            layout: t.layout,
            shift: (t.shift_rows * t.width) as u32,
            fillable: t.fillable,
            shift_rows: t.shift_rows,
            bands: Bands::new([&t.bad_band[0], &t.bad_band[1]], t.band_rows * t.width),
            checks: if t.bad_band.iter().flatten().any(|&w| w != 0) {
                CHECK_BAND
            } else if !pockets.on() {
                CHECK_ISLANDS
            } else {
                CHECK_NONE
            },
            band_at: &t.band_at,
            not_cells: &t.not_cells,
            can_fit: &t.can_fit,
            placeable_from: &t.placeable_from,
            look_bits: t.look_bits as u32,
            last_offset: t.offsets - 1,
            copies: &Copies::NONE,
            leftover: false,
            pockets,
            cover: Cover::new(&t.cover),
            first: &[],
            first_restriction: &[],
            restricted_slots: &[],
        })
    }

    /// The first board cell north of every cell a first step covers (0 without first
    /// steps): north of it every node's cells are as on the empty board.
    pub fn first_end(&self) -> usize {
        self.first
            .iter()
            .map(|step| {
                let mask = self.step_mask(step) << (step.offset as u32 * self.shift);
                64 - mask.leading_zeros() as usize
            })
            .max()
            .unwrap_or(0)
    }

    /// The empty board.
    pub fn root(&self) -> Node {
        Node {
            board: self.not_cells[0],
            copies: self.copies.all,
            offset: 0,
            restriction: 0,
            unused: if self.layout.pieces >= 32 {
                u32::MAX
            } else {
                (1 << self.layout.pieces) - 1
            },
        }
    }

    /// Every piece, as an `unused` set.
    pub fn all_pieces(&self) -> u32 {
        self.root().unused
    }

    /// Cells per row of the board as searched.
    pub fn width(&self) -> usize {
        self.shift as usize / self.shift_rows
    }

    /// The most steps a path can have: every copy of every piece placed. A search
    /// reserves this much room in its path before it starts.
    pub fn most_steps(&self) -> usize {
        (0..self.layout.pieces)
            .map(|p| self.copies.left(p, self.copies.all) as usize)
            .sum()
    }

    /// Window bits up to the last board cell: the board's cells, counting holes, when
    /// they fit one `u64`.
    pub fn cells(&self) -> usize {
        let last = self.not_cells[self.last_offset];
        self.last_offset * self.shift as usize + (64 - last.leading_ones() as usize)
    }

    /// Whether `node` is a solution: every cell covered, with every piece placed unless
    /// pieces may be left over.
    #[inline(always)]
    pub fn is_leaf(&self, node: Node) -> bool {
        // Every piece placed is a solution only if the board is full too: the pieces'
        // area may fall short of the board's.
        (node.unused == 0 || self.leftover) && self.is_full(node)
    }

    /// Whether every board cell is covered.
    fn is_full(&self, node: Node) -> bool {
        self.settle(node).0 == u64::MAX
    }

    /// The node's window moved north while its first `shift_rows` rows are full (never
    /// past the last offset): its board and offset. The lowest free cell, if any, is
    /// then among the window's anchors.
    #[inline(always)]
    pub fn settle(&self, node: Node) -> (u64, usize) {
        let south = (1u64 << self.shift) - 1;
        let (mut board, mut offset) = (node.board, node.offset as usize);
        while board & south == south && offset < self.last_offset {
            offset += 1;
            board = board >> self.shift | self.not_cells[offset];
        }
        (board, offset)
    }

    /// Whether `node`'s children are [`Window::first`]: it is the root (the empty
    /// board is only ever the root) and a piece is placed first.
    #[inline(always)]
    pub fn places_first(&self, node: Node) -> bool {
        !self.first.is_empty() && node.offset == 0 && node.board == self.not_cells[0]
    }

    /// Calls `f` for each placement that fits `node`, in order (pieces by index, then
    /// slot order), with its step and the child node. Stops early when `f` returns
    /// `Break`, and says so.
    #[inline(always)]
    pub fn for_each_child(
        &self,
        node: Node,
        mut f: impl FnMut(Step, Node) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.places_first(node) {
            return self.for_each_first(node, f);
        }
        let unused = node.unused;
        let (board, offset) = self.settle(node);
        if board == u64::MAX {
            // Full board with pieces left over (see `is_leaf`): nothing fits.
            return ControlFlow::Continue(());
        }
        // The pocket check's free-neighbour counts, taken once for every child.
        let counts = if self.pockets.on() {
            self.pockets.counts(board, offset)
        } else {
            Counts::default()
        };
        let anchor = (!board).trailing_zeros() as usize;
        let offset_parity = (offset * self.shift_rows) & 1;
        // Only pieces that can avoid the filled cells just after the anchor.
        let look = (board >> anchor >> 1) as usize & ((1 << self.look_bits) - 1);
        let cell = offset * self.shift as usize + anchor;
        let candidates = self.can_fit[cell << self.look_bits | look];
        if !self.leftover && unused & !self.placeable_from[cell] != 0 {
            return ControlFlow::Continue(());
        }
        let low = L::from_board(board);
        let first_group = self.layout.group(offset, anchor, 0);
        let used_slots = match node.restriction {
            0 => self.used_slots,
            k => &self.restricted_slots[(usize::from(k) - 1) * self.used_slots.len()..],
        };
        let mut rest = unused & candidates;
        // The fit bits of as many pieces as two words hold, side by side (`K` bits
        // each, `64 / K` pieces a word), walked by one loop: one hard-to-predict loop
        // exit per node rather than one per piece. Bits stay in piece order, then slot
        // order: the search order is unchanged.
        const { assert!(K <= 32, "fit bits are at most 32 a piece") };
        let per_word = 64 / K;
        while rest != 0 {
            let mut fits_all: Fits = [0; 2];
            let mut pieces_here = [0u8; 32];
            let mut n = 0;
            while rest != 0 && n < 2 * per_word {
                let piece = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let group = first_group + piece;
                let fits = u64::from(L::fit_bits(&self.masks[group], low) & used_slots[group]);
                if n < per_word {
                    fits_all[0] |= fits << (n * K);
                } else {
                    fits_all[1] |= fits << ((n - per_word) * K);
                }
                pieces_here[n] = piece as u8;
                n += 1;
            }
            // First the checks, without a branch: a fit that passes keeps its bit. Then
            // the children, in the same order. Only the loop exits can mispredict (the
            // choice of checks is the same at every node of a run).
            // SAFETY: the fits are of the pieces gathered into `pieces_here` just above,
            // each of whose groups indexed `self.masks` there, and `islands` has as many
            // groups (`Islands::new`).
            let mut viable = match self.checks {
                CHECK_BAND => unsafe {
                    self.checked::<CHECK_BAND>(
                        fits_all,
                        &pieces_here,
                        first_group,
                        board,
                        offset_parity,
                    )
                },
                CHECK_ISLANDS => unsafe {
                    self.checked::<CHECK_ISLANDS>(
                        fits_all,
                        &pieces_here,
                        first_group,
                        board,
                        offset_parity,
                    )
                },
                _ => fits_all,
            };
            if self.pockets.on() && viable != [0, 0] {
                // Apart from the loop above, so boards without the check (every planar
                // one) pay one branch per node, not one per fit.
                viable = self.without_pockets(
                    viable,
                    &pieces_here,
                    first_group,
                    (board, offset),
                    node,
                    &counts,
                );
            }
            for (word, mut viable) in viable.into_iter().enumerate() {
                while viable != 0 {
                    let bit = viable.trailing_zeros() as usize;
                    viable &= viable - 1;
                    let (j, i) = fit_at::<K>(word, bit);
                    let piece = usize::from(pieces_here[j]);
                    let group = first_group + piece;
                    let step = Step::new(piece as u8, offset as u16, self.slot(group, i) as u32);
                    let (unused, copies) = self.copies.take(piece, unused, node.copies);
                    let child = Node {
                        board: board | self.masks[group][i].widen(),
                        copies,
                        offset: offset as u16,
                        restriction: node.restriction,
                        unused,
                    };
                    f(step, child)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The fits of `viable` (as in [`Window::checked`]) whose child has no free cell
    /// walled in where that is dead ([`Pockets`]) and, where the cover check is on, no
    /// cell that nothing left covers ([`Cover::dead_child`]); `board` at `offset` is
    /// `node`'s, settled. The node's free-neighbour counts are taken once, and each
    /// child's follow from them and its placement's
    /// [`Delta`](crate::tables::pockets::Delta). Not inlined: inlined, the pocket
    /// check's code in the search's child loop cost the planar searches, which never
    /// call it, about 7%.
    #[inline(never)]
    fn without_pockets(
        &self,
        viable: Fits,
        pieces_here: &[u8; 32],
        first_group: usize,
        (board, offset): (u64, usize),
        node: Node,
        counts: &Counts,
    ) -> Fits {
        // One loop over both words, as one `u128`: the checks here are heavy, and a loop
        // per word measured slower on the cubic grid.
        let mut kept = u128::from(viable[0]) | u128::from(viable[1]) << 64;
        let mut rest = kept;
        while rest != 0 {
            let at = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (j, i) = fit_at::<K>(at / 64, at % 64);
            let piece = usize::from(pieces_here[j]);
            let group = first_group + piece;
            let placed = self.masks[group][i].widen();
            let delta = &self.pockets.deltas[self.slot(group, i)];
            let dead = match self.pockets.single_after(counts, board, placed, delta) {
                None => true,
                Some(single) => {
                    self.cover.on() && {
                        let (unused, _) = self.copies.take(piece, node.unused, node.copies);
                        self.cover.dead_child(
                            board | placed,
                            offset,
                            unused,
                            &self.pockets,
                            &counts.has,
                            single,
                        )
                    }
                }
            };
            if dead {
                kept &= !(1u128 << at);
            }
        }
        [kept as u64, (kept >> 64) as u64]
    }

    /// The fits of `fits_all` (laid out as [`Fits`] says) that pass the island check
    /// and, with [`CHECK_BAND`], the band check.
    ///
    /// # Safety
    /// Every fit of `fits_all` must be of a piece `p` of `pieces_here` whose group
    /// `first_group + p` is an index of `self.masks` (and so of `self.islands`): the
    /// fits are read without bounds checks, at every fit of a planar search.
    #[inline(always)]
    unsafe fn checked<const CHECKS: u8>(
        &self,
        fits_all: Fits,
        pieces_here: &[u8; 32],
        first_group: usize,
        board: u64,
        offset_parity: usize,
    ) -> Fits {
        // Each word walked on its own, the second only when it holds fits. A method,
        // not a closure: the closure, called twice, was not inlined and read what it
        // captured through a pointer at every fit.
        // SAFETY: as this function's.
        let low = unsafe {
            self.checked_word::<CHECKS>(
                fits_all[0],
                0,
                pieces_here,
                first_group,
                board,
                offset_parity,
            )
        };
        let high = if fits_all[1] == 0 {
            0
        } else {
            // SAFETY: as this function's.
            unsafe {
                self.checked_word::<CHECKS>(
                    fits_all[1],
                    1,
                    pieces_here,
                    first_group,
                    board,
                    offset_parity,
                )
            }
        };
        [low, high]
    }

    /// [`Window::checked`] of the fits `fits` of word `word` of a [`Fits`].
    ///
    /// # Safety
    /// As [`Window::checked`]'s.
    #[inline(always)]
    unsafe fn checked_word<const CHECKS: u8>(
        &self,
        fits: u64,
        word: usize,
        pieces_here: &[u8; 32],
        first_group: usize,
        board: u64,
        offset_parity: usize,
    ) -> u64 {
        let mut viable = 0u64;
        let mut rest_fits = fits;
        while rest_fits != 0 {
            let b = rest_fits.trailing_zeros();
            rest_fits &= rest_fits - 1;
            let (j, i) = fit_at::<K>(word, b as usize);
            let group = first_group + usize::from(pieces_here[j]);
            // SAFETY: `group` indexes `masks` (this function's contract), and so
            // `islands`, which has as many groups (`Islands::new`).
            let (island, placed) = unsafe {
                (
                    self.islands.groups.get_unchecked(group)[i].widen(),
                    self.masks.get_unchecked(group)[i].widen(),
                )
            };
            let free_island_cells = (island & !board).count_ones();
            let islands_fill = self.fillable >> free_island_cells;
            let band_ok = if CHECKS == CHECK_BAND {
                let child_board = board | placed;
                // The band from the child's lowest free row: every row south of it
                // is full, which is what the band table assumes.
                let at = self.band_at[(!child_board).trailing_zeros() as usize & 63];
                self.bands.alive(
                    usize::from(at >> 7) ^ offset_parity,
                    child_board >> (at & 63),
                )
            } else {
                1
            };
            viable |= (islands_fill & band_ok & 1) << b;
        }
        viable
    }

    /// [`Window::for_each_child`] of the root when a piece is placed first: each of
    /// [`Window::first`] in turn, the window left where the root's is, less those the
    /// cover check finds dead (as it does every other node's children).
    #[cold]
    fn for_each_first(
        &self,
        node: Node,
        mut f: impl FnMut(Step, Node) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for (k, step) in self.first.iter().enumerate() {
            let piece = usize::from(step.piece);
            let (unused, copies) = self.copies.take(piece, node.unused, node.copies);
            let child = Node {
                board: node.board | self.step_mask(step) << (u32::from(step.offset) * self.shift),
                copies,
                offset: 0,
                restriction: self.first_restriction.get(k).copied().unwrap_or(0),
                unused,
            };
            if self.cover.on() {
                let counts = self.pockets.counts(child.board, 0);
                if self
                    .cover
                    .dead(child.board, 0, unused, &self.pockets, &counts)
                {
                    continue;
                }
            }
            f(*step, child)?;
        }
        ControlFlow::Continue(())
    }

    /// Depth-first search from `node`, reporting solutions to `visitor` in a fixed
    /// order. `Break` if the visitor stopped it.
    pub fn search<V: Visitor>(
        &self,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
    ) -> ControlFlow<()> {
        visitor.node();
        if self.is_leaf(node) {
            return visitor.solution(path);
        }
        self.for_each_child(node, |step, child| {
            path.push(step);
            let flow = self.search(child, path, visitor);
            path.pop();
            flow
        })
    }

    /// The tree from the root cut by levels as `split` says, in search order: each
    /// node with the steps that lead to it (searching them in turn visits the
    /// solutions in the order of one search from the root; solutions shallower than
    /// the cut come back as tasks of their own), and the nodes strictly above them.
    pub fn levels(&self, split: Split) -> (Vec<(Node, Path)>, u64) {
        let mut level = vec![(self.root(), Path::new())];
        let mut nodes = 0;
        for _ in 0..split.depth {
            if level.len() >= split.tasks {
                break;
            }
            let mut next = Vec::new();
            let mut grew = false;
            for (node, path) in level {
                if self.is_leaf(node) {
                    next.push((node, path));
                    continue;
                }
                grew = true;
                nodes += 1;
                self.children(node, &path, &mut next);
            }
            level = next;
            if !grew {
                break;
            }
        }
        (level, nodes)
    }

    /// Appends the children of `node`, reached by `path`, to `out` in search order,
    /// each with the steps that lead to it; nothing for a solution (see
    /// [`Window::search`]). Returns how many.
    pub fn children(&self, node: Node, path: &Path, out: &mut Vec<(Node, Path)>) -> usize {
        if self.is_leaf(node) {
            return 0;
        }
        let before = out.len();
        let _ = self.for_each_child(node, |step, child| {
            // Room for the step: a clone holds exactly the parent's steps, so pushing
            // onto it would copy them again.
            let mut p = Path::with_capacity(path.len() + 1);
            p.extend_from_slice(path);
            p.push(step);
            out.push((child, p));
            ControlFlow::Continue(())
        });
        out.len() - before
    }

    /// [`TableLayout::slot`], with the slot count known at compile time.
    #[inline(always)]
    fn slot(&self, group: usize, i: usize) -> usize {
        debug_assert_eq!(self.layout.slots, K);
        group * K + i
    }

    /// The step that placed the placement in `slot` (`Step::slot`).
    pub fn step_of(&self, slot: u32) -> Step {
        // `slot / K`, the inverse of `Window::slot`: a multiply, where the layout's
        // `group_of` divides by a run-time `slots`.
        let (offset, _, piece) = self.layout.place(slot as usize / K);
        Step::new(piece as u8, offset as u16, slot)
    }

    /// The cells a step covers, in window bits, and the window offset they are relative to.
    pub fn step_mask(&self, step: &Step) -> u64 {
        let s = step.slot as usize;
        self.masks[s / K][s % K].widen()
    }

    /// The board cells a step covers, in increasing order.
    pub fn step_cells(&self, step: &Step) -> impl Iterator<Item = usize> {
        let base = step.offset as usize * self.shift as usize;
        let mut mask = self.step_mask(step);
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let bit = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                base + bit
            })
        })
    }
}

/// A search node: the window, where it sits, and the pieces still to place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    /// The window: bit `i` is cell `offset * shift + i`, set when filled.
    pub board: u64,
    /// The copies left of each piece with more than one ([`Copies`]); 0 when every
    /// piece has one.
    pub copies: u64,
    /// Window shifts north of the south edge (at most `MAX_OFFSETS`).
    pub offset: u16,
    /// Which restriction of a second piece holds below this node: 0 for none, else
    /// `k` for the `k`-th block of [`Window::restricted_slots`].
    pub restriction: u16,
    /// One bit per piece with a copy still to place.
    pub unused: u32,
}

/// The copies of each piece, packed into one `u64` of a node: a piece with `c > 1`
/// copies owns a field of the bits `c` needs, holding how many are left; a piece with
/// one copy owns none (its `unused` bit says it all). Placing piece `p` subtracts
/// `take[p]` and clears its `unused` bit when its field (`field[p]`) reaches zero, so
/// a placement costs one subtraction and one test whatever the counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Copies {
    /// Per piece, one in its field's lowest bit; 0 for a piece with one copy.
    pub take: [u64; MAX_PIECES],
    /// Per piece, its field's bits; 0 for a piece with one copy.
    pub field: [u64; MAX_PIECES],
    /// Every field full: the copies at the root.
    pub all: u64,
}

impl Copies {
    /// Every piece with one copy.
    pub const NONE: Copies = Copies {
        take: [0; MAX_PIECES],
        field: [0; MAX_PIECES],
        all: 0,
    };

    /// Fields for pieces with `counts[p]` copies each, if they fit 64 bits; else the
    /// bits they need.
    pub fn new(counts: &[u32]) -> Result<Copies, u32> {
        let mut c = Copies::NONE;
        let bits = Copies::bits(counts);
        if bits > u64::BITS || counts.len() > MAX_PIECES {
            return Err(bits);
        }
        let mut at = 0;
        for (p, &n) in counts.iter().enumerate() {
            if n > 1 {
                let width = Copies::width(n);
                c.take[p] = 1 << at;
                c.field[p] = ((1u64 << width) - 1) << at;
                c.all |= u64::from(n) << at;
                at += width;
            }
        }
        Ok(c)
    }

    /// The bits the fields of `counts` need.
    pub fn bits(counts: &[u32]) -> u32 {
        counts
            .iter()
            .filter(|&&n| n > 1)
            .map(|&n| Copies::width(n))
            .sum()
    }

    /// The bits of the field of a piece with `n > 1` copies: those of `n`.
    fn width(n: u32) -> u32 {
        u32::BITS - n.leading_zeros()
    }

    /// Copies of `piece` left in `copies`, for a piece still unused.
    pub fn left(&self, piece: usize, copies: u64) -> u32 {
        if self.field[piece] == 0 {
            return 1;
        }
        ((copies & self.field[piece]) >> self.take[piece].trailing_zeros()) as u32
    }

    /// Whether some piece has more than one copy.
    pub fn any(&self) -> bool {
        self.all != 0
    }

    /// `(unused, copies)` after placing one copy of `piece`.
    #[inline(always)]
    pub fn take(&self, piece: usize, unused: u32, copies: u64) -> (u32, u64) {
        let left = copies - self.take[piece];
        let gone = u32::from(left & self.field[piece] == 0);
        (unused & !(gone << piece), left)
    }
}

/// One placed piece: which piece, the window offset it was placed at, and its slot in
/// the tables ([`TableLayout::slot`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct Step {
    /// Its entry in the tables.
    pub slot: u32,
    /// The window position it was placed at.
    pub offset: u16,
    /// The piece placed.
    pub piece: u8,
    /// Always 0: every byte defined, so [`Step::new`] can build a step as one word.
    pad: u8,
}

impl Step {
    /// A step, built as one word in a register: built field by field, the search's
    /// children loop stored it in pieces and read it back whole to push it on the
    /// path, which stalled at every child (a store that cannot be forwarded).
    #[inline(always)]
    pub fn new(piece: u8, offset: u16, slot: u32) -> Step {
        let [s0, s1, s2, s3] = slot.to_ne_bytes();
        let [o0, o1] = offset.to_ne_bytes();
        bytemuck::cast([s0, s1, s2, s3, o0, o1, piece, 0])
    }
}

/// The steps from the root to a node, one per copy placed. Searches reserve room for
/// every copy before they start, so pushing never grows it.
pub(crate) type Path = Vec<Step>;

/// What the search reports to.
pub(crate) trait Visitor {
    /// Called at every node entered (see the driver's meaning of a node).
    #[inline(always)]
    fn node(&mut self) {}
    /// Called with each solution; `Break` stops the search.
    fn solution(&mut self, path: &[Step]) -> ControlFlow<()>;
}

/// What a tiling solver makes of each solution the search finds: items reported to
/// the driver's sink.
pub(crate) trait Leaves<L, const K: usize>: Sync {
    /// What a solution becomes for the caller.
    type Item: Send;
    /// Reports the solution that `path` builds; `Break` stops the search.
    fn leaf(
        &self,
        window: &Window<L, K>,
        path: &[Step],
        sink: &mut Sink<'_, Self::Item>,
    ) -> ControlFlow<()>;
}

/// A tiling search as the driver runs it: the plain search, the split search of
/// [`crate::meet`] when `above` is given, or else the eight-lane search of
/// [`crate::wide`] when `wide` is given, each solution handed to `leaves`. Tasks are
/// the nodes of the cut [`TASK_SPLIT`].
pub(crate) struct Tiles<'a, L, const K: usize, F> {
    pub window: &'a Window<'a, L, K>,
    pub above: Option<&'a Above>,
    pub wide: Option<&'a Wide>,
    pub leaves: F,
}

impl<L: Lane + Sync, const K: usize, F: Leaves<L, K>> Search for Tiles<'_, L, K, F> {
    type Task = (Node, Path);
    type Worker = Workspace;
    type Item = F::Item;

    fn split_for(&self, _threads: usize) -> Split {
        TASK_SPLIT
    }

    fn split(&self, split: Split) -> (Vec<(Node, Path)>, u64) {
        self.window.levels(split)
    }

    fn worker(&self) -> Workspace {
        Workspace::default()
    }

    fn children(
        &self,
        _: &mut Workspace,
        (node, path): &(Node, Path),
        out: &mut Vec<(Node, Path)>,
    ) -> u64 {
        self.window.children(*node, path, out) as u64
    }

    fn run(&self, scratch: &mut Workspace, task: &(Node, Path), sink: &mut Sink<'_, F::Item>) {
        if sink.stats() {
            self.visit::<true>(scratch, task, sink);
        } else {
            self.visit::<false>(scratch, task, sink);
        }
    }

    fn worker_nodes(&self, scratch: &Workspace) -> u64 {
        scratch.nodes()
    }

    fn depth(&self) -> usize {
        self.window.most_steps() + 1
    }
}

impl<L: Lane, const K: usize, F: Leaves<L, K>> Tiles<'_, L, K, F> {
    fn visit<const STATS: bool>(
        &self,
        scratch: &mut Workspace,
        (node, prefix): &(Node, Path),
        sink: &mut Sink<'_, F::Item>,
    ) {
        let mut path = Path::with_capacity(self.window.most_steps());
        path.extend_from_slice(prefix);
        let mut visit = Visit::<'_, '_, '_, L, K, F, STATS> {
            window: self.window,
            leaves: &self.leaves,
            sink,
        };
        let _ = match self.above {
            Some(above) => self
                .window
                .search_split(*node, &mut path, &mut visit, above, scratch),
            None => match self.wide {
                Some(wide) => wide.search(self.window, *node, &mut path, &mut visit),
                None => self.window.search(*node, &mut path, &mut visit),
            },
        };
    }
}

/// The visitor of one task: nodes counted into the sink when `STATS`, solutions handed
/// to the solver's leaves.
struct Visit<'v, 's, 'i, L, const K: usize, F: Leaves<L, K>, const STATS: bool> {
    window: &'v Window<'v, L, K>,
    leaves: &'v F,
    sink: &'s mut Sink<'i, F::Item>,
}

impl<L, const K: usize, F: Leaves<L, K>, const STATS: bool> Visitor
    for Visit<'_, '_, '_, L, K, F, STATS>
{
    #[inline(always)]
    fn node(&mut self) {
        if STATS {
            self.sink.nodes += 1;
        }
    }

    // Cold: a few thousand calls against tens of thousands of nodes; kept out of the
    // search's stack frame.
    #[inline(never)]
    fn solution(&mut self, path: &[Step]) -> ControlFlow<()> {
        self.leaves.leaf(self.window, path, self.sink)
    }
}

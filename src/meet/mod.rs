//! Meet in the middle, row by row: the search below a first split cell, and above it
//! memoised completions, shared by every node (on every thread) that leaves the same
//! cells filled north of a split.
//!
//! Once every cell south of a split is filled, what is left to search depends only on
//! the cells already filled north of it (the node's *overhang*) and on the pieces still
//! unused. So for each overhang met at a split, the search above it is run once, with
//! every piece available, and what it finds is kept with the set of pieces it used.
//!
//! The search above one split stops in turn at the next split, where it takes the
//! completions of the overhang it reached that use none of the pieces it placed: a
//! completion is a chain, the steps from one split to the next, then a completion of
//! the next split. Every split but the first keeps its completions so. The first split
//! is crossed only by nodes of the search below, each wanting exactly its unused pieces;
//! it keeps each way to the next split with that split's block, and a node looks there
//! for the completions that use exactly the pieces still unused. (Keeping its
//! completions too measured slower: far more words written than lookups save.)
//!
//! On the meteor board, with splits at rows 3, 4, 5 and 6, the search visits a fifth
//! of the whole tree's nodes (README.md has the figures).
//!
//! # Order
//! Completions are kept in the order the search above finds them, and a node takes them
//! in that order, so solutions come out in exactly the order of [`Window::search`]: a
//! search with more pieces available visits the completions that use one set of pieces
//! in the same relative order.
//!
//! # Sharing between threads
//! [`Above`] is shared: each overhang's slot goes from unsearched to busy (one thread
//! claims it and searches) to a place in an append-only arena. A thread that finds a
//! slot busy waits for it. Each overhang is searched once, so the node count does not
//! depend on the number of threads. When the arena is full, an overhang that does not
//! fit is not kept, and nodes that meet it search on as if there were no split there.
//!
//! # Boards over 64 cells
//! A node's overhang is read from its window (the split's cell is window bit
//! `cell - offset * shift`; overhang cells past the window are as on the empty board).
//! Each split's search above starts in one window, the one its row is first in, and
//! the plain search settles a node crossing there into the same window before its first
//! step, so the steps kept are the plain search's, at their absolute offsets.
//!
//! # Limits
//! An overhang must be at most 48 cells (and fit one window with the split's cell) and
//! there must be at most 31 different pieces: [`Above::new`] says whether a window
//! qualifies. Overhangs of up to 24 cells are indexed directly, wider ones hashed
//! ([`Slots`]); the planner considers only the former (`plan::MAX_PLANNED_BITS`).
//! Pieces may be left over: a node then takes every completion whose pieces are among
//! its own, in the order found. Pieces may have copies: an entry then keeps how many
//! copies of each it places (in the fields of the puzzle's `Copies`), and fits a
//! node's only if no field exceeds it.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::search::{Lane, Node, Path, Visitor, Window};
use crate::zeroed::{Zeroed, ZeroedWords};

pub(crate) mod plan;

/// A counter on a cache line of its own. The counters below are bumped by whichever
/// thread takes a slot or a block, while every lookup reads the fields beside them (the
/// arena's and the tables' addresses): on a shared line, each bump would cost the other
/// thread a miss on its next lookup.
#[repr(align(64))]
#[derive(Default)]
struct Apart(AtomicUsize);

impl std::ops::Deref for Apart {
    type Target = AtomicUsize;
    fn deref(&self) -> &AtomicUsize {
        &self.0
    }
}

/// Slot states; a slot at `PUBLISHED` or more holds `PUBLISHED + start` in the arena.
const UNSEARCHED: u32 = 0;
const BUSY: u32 = 1;
/// Searched, but the arena was full: nodes with this overhang search on.
const NOT_KEPT: u32 = 2;
const PUBLISHED: u32 = 3;

/// `next` of a completion that ends at a full board.
const END: u32 = u32::MAX;

/// Words before a block's entries: their number, then their signature (two words).
const HEADER: usize = 3;

/// Entries of a later split's block up to which it keeps the order found and a node
/// scans it for its pieces; a larger one is grouped by pieces and searched by halves
/// ([`Block::order_entries`]). On the meteor board nearly every block is this small,
/// and sorting them cost more than the scans it saved: a block is sorted once per
/// overhang, but looked up for pieces only where a first split's way reaches it with
/// pieces its signature holds, on the meteor board about once for every two blocks.
const SCANNED: usize = 32;

/// Whether a block of `n` entries above split `s` is grouped by pieces (see
/// [`SCANNED`]); with pieces left over (`leftover`) none is.
#[inline(always)]
fn sorted(s: usize, n: usize, leftover: bool) -> bool {
    s > 0 && !leftover && n > SCANNED
}

/// The signature of a set of pieces: one bit for which of pieces 0 to 4 it holds, one
/// for which of pieces 5 to 9 (the rest are left out). A block's signature is the union
/// of its entries', so a set whose signature is not in it is in no entry: the first
/// split's ways to the next split carry that block's signature, and a node skips the
/// ways that cannot lead to its pieces without reading the block: on the meteor board,
/// crossing nodes read about one block in fifteen of those they would otherwise.
#[inline(always)]
fn signature(pieces: u32) -> u64 {
    1 << (pieces & 31) | 1 << (32 + (pieces >> 5 & 31))
}

/// The signature a first split's way to a full board carries in place of its next
/// block's: every bit, so that the signature test passes it to the exact test of its
/// pieces.
const ANY_BLOCK: u64 = u64::MAX;

/// The widest overhang a split serves: it must fit one window with the split's cell,
/// and a hashed index ([`Slots`]) keeps it.
const MAX_OVERHANG_BITS: usize = 48;

/// Words the arena of [`Above::new`] can hold (the meteor binary's; a `TilingSolver`
/// run sizes its arena by `--memo-mib`, [`Above::with_bytes`]). It is allocated
/// zeroed, so the operating system provides only the pages written (the meteor puzzle
/// writes under 1% of them).
const ARENA_WORDS: usize = 1 << 24;

/// The most words an arena may have: block starts and links are `u32`, and the states
/// `PUBLISHED + start` and `END` must stay apart.
const MAX_ARENA_WORDS: usize = u32::MAX as usize - 2 * PUBLISHED as usize;

/// Row blocks beyond one per possible overhang prefix, for those lost to races.
const SPARE_ROW_BLOCKS: usize = 64;

/// Where a split is, as a node's window shows it: enough to tell whether a node has
/// crossed it and to read its overhang. The split search and its planner (`plan`)
/// read crossings through this one definition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    /// Every cell before this one is filled when a node crosses the split.
    cell: usize,
    /// Overhang bits: the cells from `cell` on that a piece anchored before it can reach.
    overhang_mask: u64,
    /// The overhang of the empty board (its holes): what a node's overhang holds beyond
    /// its window, where nothing has been placed yet.
    empty: u64,
}

impl Edge {
    fn new(cell: usize, bits: usize, empty: u64) -> Edge {
        let overhang_mask = (1u64 << bits) - 1;
        Edge {
            cell,
            overhang_mask,
            empty: empty & overhang_mask,
        }
    }

    /// The split before board cell `cell` of `window`, if the split search can serve
    /// it: its overhang is at most [`MAX_OVERHANG_BITS`] cells and fits the window its
    /// search above starts in (it does when the window is 64 bits, as every placement
    /// anchored before the split lies in such a window or an earlier one).
    pub fn of<L: Lane, const K: usize>(
        window: &Window<L, K>,
        reach: &Reach,
        cell: usize,
    ) -> Option<Edge> {
        // The piece placed first may lie north of the split: the overhang holds it too,
        // so that north of the overhang every node crossing is as the empty board.
        let bits = reach
            .overhang_bits(cell)
            .max(window.first_end().saturating_sub(cell));
        let (offset, at) = start_of(window, cell);
        (bits <= MAX_OVERHANG_BITS && at + bits <= 64)
            .then(|| Edge::new(cell, bits, window.not_cells[offset] >> at))
    }

    /// The cells of the overhang.
    #[inline(always)]
    pub fn bits(&self) -> usize {
        self.overhang_mask.count_ones() as usize
    }

    /// The board cell the split is before.
    pub fn cell(&self) -> usize {
        self.cell
    }

    /// Whether a step from a node whose lowest free cell is `low` to a child whose
    /// lowest free cell is `high` crosses the split (the child is a crossing node).
    pub fn crossed(&self, low: usize, high: usize) -> bool {
        low < self.cell && self.cell <= high
    }

    /// Where a node stands against this split: its window `board` starts at cell
    /// `base`, and `empty` is the empty board's window there (`Window::not_cells`).
    ///
    /// A node has crossed the split when every cell before it is filled. Its overhang
    /// then says all that is left to search (with the pieces unused) if every cell
    /// beyond the overhang is as on the empty board: true of every node reached by a
    /// step from a node south of the split, as a placement anchored before it reaches
    /// no further. Cells beyond a node's window are always as on the empty board: a
    /// placement lies in the window it was placed from, and the window only moves north.
    #[inline(always)]
    fn cross(&self, board: u64, base: usize, empty: u64) -> Cross {
        if base + (board.trailing_ones() as usize) < self.cell {
            return Cross::Before;
        }
        // The split's cell as a window bit; a window that has moved past it (a task the
        // driver cut below the split) no longer shows the overhang.
        let at = self.cell.wrapping_sub(base);
        if at >= 64 {
            return Cross::Past;
        }
        let beyond = at + self.bits();
        if beyond < 64 && (board ^ empty) >> beyond != 0 {
            return Cross::Past;
        }
        // Bits of the overhang past the window's last are the empty board's.
        let outside = !(u64::MAX >> at);
        Cross::Overhang((board >> at | self.empty & outside) & self.overhang_mask)
    }

    /// Where the search above this split starts for `overhang`, with every piece.
    pub fn above_root<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        overhang: u64,
    ) -> Node {
        let (offset, at) = start_of(window, self.cell);
        // Every cell before the split filled, then the overhang (which fits the window:
        // see `Edge::of`). The plain search settles a node crossing here into the same
        // window before its first step, so the steps are the same.
        let filled = overhang << at | ((1u64 << at) - 1);
        Node {
            board: filled | window.not_cells[offset],
            copies: window.copies.all,
            offset: offset as u16,
            restriction: 0,
            unused: window.all_pieces(),
        }
    }

    /// [`Edge::cross`] of a node of `window`.
    #[inline(always)]
    pub fn cross_node<L: Lane, const K: usize>(&self, window: &Window<L, K>, node: Node) -> Cross {
        let offset = node.offset as usize;
        self.cross(
            node.board,
            offset * window.shift as usize,
            window.not_cells[offset],
        )
    }
}

/// One split: where it is, and a slot per overhang met there.
struct Split {
    edge: Edge,
    slots: Slots,
}

/// The slots of one split's overhangs, found by overhang.
///
/// Overhangs of at most [`MAX_DIRECT_BITS`] cells are kept first in a small hashed table
/// of [`FRONT_ENTRIES`] (a few pages, which hold every overhang a meteor split meets; the
/// splits' front tables lead the memo's arena, so that they take no pages of their own),
/// then, once it is three quarters full, indexed directly, in two levels so that the
/// overhangs met (about a thousand of the 2^20 possible on the meteor board) sit on few
/// pages: the cells of the first row after the split pick a slot in a row block, and the
/// rest pick the row block, handed out in the order first met. (Directly alone, each
/// overhang met took a row block of its own: about 27 pages a meteor split, each a page
/// fault in a fresh process.)
/// Wider overhangs (a board more than six cells wide: up to four rows of it) are
/// hashed: a direct index would be too large even to map, and the overhangs met are
/// a sliver of those possible.
enum Slots {
    Direct(DirectSlots),
    Hashed(HashedSlots),
}

/// Entries of a [`DirectSlots`]' hashed front table.
const FRONT_ENTRIES: usize = 2048;

/// Words of a [`DirectSlots`]' front table.
const FRONT_WORDS: usize = 2 * FRONT_ENTRIES;

/// Keys the front table takes before it closes its free entries to new ones.
const FRONT_FULL: usize = FRONT_ENTRIES / 4 * 3;

/// A front entry's key once the table closed it: the overhangs whose probe reaches it
/// are indexed directly.
const CLOSED: u32 = u32::MAX;

/// A split's slots, first in a small hashed table, then indexed directly by overhang,
/// in row blocks (see [`Slots`]).
struct DirectSlots {
    /// Where the front table starts in the words it is kept in (the arena's, see
    /// [`Above`]): [`FRONT_WORDS`] words, per entry two: `overhang + 1` (0 while free,
    /// [`CLOSED`] once closed; linear probing, never removed), then the overhang's slot.
    front: usize,
    /// Keys the front table took.
    front_used: Apart,
    /// Overhang bits that pick a slot within a row block.
    low_bits: u32,
    /// Overhang bits in all.
    bits: u32,
    /// The direct index, mapped when the front table first closes an entry: most
    /// splits (every meteor split) never need it, and each of its two mappings costs a
    /// system call to make and one to unmap.
    direct: OnceLock<DirectIndex>,
}

/// The direct part of a [`DirectSlots`].
struct DirectIndex {
    /// Per `overhang >> low_bits`: 1 + its row block, or 0 before the first.
    row_block: ZeroedWords,
    row_blocks_used: Apart,
    /// Row blocks of `1 << low_bits` slots each; a slot's state is `UNSEARCHED` and so
    /// on.
    slots: ZeroedWords,
}

/// A split's slots found by hashing the overhang (see [`Slots`]).
struct HashedSlots {
    /// Per entry, `overhang + 1`, or 0 while it is free (open addressing, linear
    /// probing, entries never removed).
    keys: Zeroed<AtomicU64>,
    /// Per entry, the slot of its overhang.
    slots: ZeroedWords,
    /// Entries taken, at most `full` of them.
    used: Apart,
    full: usize,
}

/// The widest overhang indexed directly (a slot per overhang, 4 bytes each, of which
/// only the pages touched are ever backed by memory).
const MAX_DIRECT_BITS: usize = 24;

/// Entries of a hashed split (12 bytes of address space each, backed only where
/// touched). At most three quarters are taken: past that probes grow long, so a new
/// overhang is not kept (its nodes search on as if there were no split).
const HASHED_ENTRIES: usize = 1 << 23;

impl Split {
    /// A split for the tests, with the words its front table would be kept in.
    #[cfg(test)]
    fn new(cell: usize, bits: usize, width: usize, empty: u64) -> (Split, ZeroedWords) {
        let mut words = 0;
        let split = Split::at(Edge::new(cell, bits, empty), width, &mut words);
        (split, ZeroedWords::new(words))
    }

    /// The split at `edge` on a board `width` cells wide. Its front table, if it has
    /// one, is to be kept at word `*words` of the arena's words, which it moves on.
    fn at(edge: Edge, width: usize, words: &mut usize) -> Split {
        let bits = edge.bits();
        let slots = if bits <= MAX_DIRECT_BITS {
            let front = *words;
            *words += FRONT_WORDS;
            Slots::Direct(DirectSlots::new(bits, width, front))
        } else {
            Slots::Hashed(HashedSlots::new(HASHED_ENTRIES))
        };
        Split { edge, slots }
    }

    /// The slot of `overhang`; `None` if the index has no room for it (races used up
    /// the spare row blocks, or the hashed table is full). `words` holds the front
    /// table, where [`Split::at`] placed it.
    fn slot<'a>(&'a self, words: &'a [AtomicU32], overhang: u64) -> Option<&'a AtomicU32> {
        match &self.slots {
            Slots::Direct(direct) => direct.slot(words, overhang),
            Slots::Hashed(hashed) => hashed.slot(overhang),
        }
    }
}

impl DirectSlots {
    /// The index of overhangs of `bits` cells on a board `width` cells wide, its front
    /// table at word `front` of zeroed words.
    fn new(bits: usize, width: usize, front: usize) -> DirectSlots {
        let low_bits = width.clamp(1, bits.max(1)) as u32;
        DirectSlots {
            front,
            front_used: Apart::default(),
            low_bits,
            bits: bits as u32,
            direct: OnceLock::new(),
        }
    }

    /// The direct index, mapped on first use.
    fn index(&self) -> &DirectIndex {
        self.direct.get_or_init(|| {
            let (bits, low_bits) = (self.bits, self.low_bits);
            DirectIndex {
                row_block: ZeroedWords::new(1 << bits.saturating_sub(low_bits)),
                row_blocks_used: Apart::default(),
                // As many row blocks as there can be overhangs, and spares for blocks
                // lost to races; only those used are touched.
                slots: ZeroedWords::new((1 << bits.max(low_bits)) + (SPARE_ROW_BLOCKS << low_bits)),
            }
        })
    }

    /// The slot of `overhang`; `None` if races used up the spare row blocks.
    ///
    /// An overhang has one slot whatever the threads do: its probe in the front table
    /// meets, before any free entry, either its key or a closed entry, and entries never
    /// change once taken or closed; a thread finding a free entry takes it for the key
    /// or, past [`FRONT_FULL`], closes it, and whichever write comes first holds for all.
    fn slot<'a>(&'a self, words: &'a [AtomicU32], overhang: u64) -> Option<&'a AtomicU32> {
        let front = &words[self.front..self.front + FRONT_WORDS];
        // Overhangs are at most `MAX_DIRECT_BITS` cells: `overhang + 1` is a word.
        let key = overhang as u32 + 1;
        let mask = FRONT_ENTRIES - 1;
        // Fibonacci hashing, as `HashedSlots` does.
        let mut i = (u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        loop {
            let (entry, slot) = (&front[2 * i], &front[2 * i + 1]);
            let mut now = entry.load(Ordering::Acquire);
            if now == 0 {
                let full = self.front_used.load(Ordering::Relaxed) >= FRONT_FULL;
                let mine = if full { CLOSED } else { key };
                now = match entry.compare_exchange(0, mine, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => {
                        if !full {
                            self.front_used.fetch_add(1, Ordering::Relaxed);
                        }
                        mine
                    }
                    Err(now) => now,
                };
            }
            if now == key {
                return Some(slot);
            }
            if now == CLOSED {
                return self.direct_slot(overhang);
            }
            // Another overhang's: probe on (keys stay under `FRONT_ENTRIES`, so some
            // entry is free or closed).
            i = (i + 1) & mask;
        }
    }

    /// The slot of `overhang` in the direct index; `None` if races used up the spare
    /// row blocks.
    fn direct_slot(&self, overhang: u64) -> Option<&AtomicU32> {
        let index = self.index();
        let entry = &index.row_block[(overhang >> self.low_bits) as usize];
        let mut block = entry.load(Ordering::Acquire);
        if block == 0 {
            // Blocks are handed out in order; one lost to a race is only skipped.
            let fresh = index.row_blocks_used.fetch_add(1, Ordering::Relaxed) as u32 + 1;
            // Written before any thread can read it (see `touch_for_writing`): both ends,
            // as a row block may straddle two pages.
            let first = (fresh as usize - 1) << self.low_bits;
            let last = first + (1 << self.low_bits) - 1;
            if last >= index.slots.len() {
                return None;
            }
            touch_for_writing(&index.slots[first]);
            touch_for_writing(&index.slots[last]);
            block = match entry.compare_exchange(0, fresh, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => fresh,
                Err(now) => now,
            };
        }
        let low = overhang as usize & ((1 << self.low_bits) - 1);
        Some(&index.slots[((block as usize - 1) << self.low_bits) | low])
    }
}

impl HashedSlots {
    /// A hashed index of `entries` entries, a power of two.
    fn new(entries: usize) -> HashedSlots {
        debug_assert!(entries.is_power_of_two());
        HashedSlots {
            keys: Zeroed::new(entries),
            slots: ZeroedWords::new(entries),
            used: Apart::default(),
            full: entries / 4 * 3,
        }
    }

    /// The slot of `overhang`; `None` if the table is full and it is not in it.
    fn slot(&self, overhang: u64) -> Option<&AtomicU32> {
        let key = overhang + 1;
        let mask = self.keys.len() - 1;
        // Fibonacci hashing: the overhang's bits spread over the index bits.
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        loop {
            let now = self.keys[i].load(Ordering::Acquire);
            if now == key {
                return Some(&self.slots[i]);
            }
            if now == 0 {
                if self.used.load(Ordering::Relaxed) >= self.full {
                    return None;
                }
                touch_for_writing(&self.slots[i]);
                match self.keys[i].compare_exchange(0, key, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => {
                        self.used.fetch_add(1, Ordering::Relaxed);
                        return Some(&self.slots[i]);
                    }
                    Err(now) if now == key => return Some(&self.slots[i]),
                    // Another overhang took the entry first: probe on.
                    Err(_) => {}
                }
            }
            i = (i + 1) & mask;
        }
    }
}

/// The memory of a split search's memo after a run ([`Above::memory`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SplitMemory {
    /// Bytes of the arena the completions took.
    pub bytes: usize,
    /// The arena's bound (`--memo-mib`).
    pub bound: usize,
    /// Whether some overhang was not kept (a block did not fit the arena, or a hashed
    /// index of overhangs was full): its nodes were searched on plainly, exact but
    /// slower.
    pub full: bool,
}

/// Where a node stands against a split (see [`Edge::cross`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cross {
    /// A cell before the split is free.
    Before,
    /// Crossed, and the overhang says all that is left to search.
    Overhang(u64),
    /// Crossed, but cells beyond the overhang may be filled: only a search from the node
    /// itself knows what is left.
    Past,
}

/// Writes zero to `word`, which must be zero and not yet seen by another thread, so
/// that its page is written before it is read.
///
/// A page of fresh zeroed memory that is read first is mapped to the shared zero page,
/// and the first write then replaces that mapping, which, with a second thread
/// running, costs an interrupt to the other core to flush its stale translation: on two
/// threads, 4% of the time. Written first, the page is mapped once. (A store, because
/// an atomic `or 0` may be compiled to a load.)
fn touch_for_writing(word: &AtomicU32) {
    word.store(0, Ordering::Relaxed);
}

/// The memoised completions above each split, shared by every thread.
///
/// An overhang's block in the arena holds `n`, the number of its entries, then the
/// pieces each uses (one word each, three with copies: [`Above::used_words`]; in the
/// first split's blocks followed by the signature of the block each entry links to,
/// two words each: [`Above::entry_words`]), so that a node scans them as columns
/// without touching the rest, then
/// per entry the word where its first steps start and a link (or `END` after a full
/// board). Steps are kept as `[count, slot, slot, ...]` (`Step::slot`), in the block
/// too. An entry of the first split is a way to the next split, linked to that split's
/// block; an entry of a later split is a completion, linked to the completion of the
/// next split it continues with.
pub(crate) struct Above {
    splits: Vec<Split>,
    /// The splits' front tables ([`DirectSlots`]), the empty block, then the blocks,
    /// from `blocks_from` on: the tables take no pages of their own, and in a run they
    /// sit in the arena's first huge page, which the blocks take anyway.
    arena: ZeroedWords,
    /// Where the one empty block is (a header of zeros, never written): every
    /// overhang that nothing completes is published there, so that a node crossing
    /// into one knows it by where its block is, without reading the block.
    empty_block: usize,
    blocks_from: usize,
    /// Words of the arena taken: the front tables, then the runs of words threads
    /// took for their blocks (`Workspace::reserved`).
    arena_len: Apart,
    /// Set once a block did not fit: no more blocks are searched.
    full: AtomicBool,
    /// Set once an overhang found no slot (a hashed index full, or the spare row
    /// blocks used up): its nodes searched on without the memo.
    unindexed: AtomicBool,
    /// Whether the puzzle's pieces may be left over: a node then takes every
    /// completion whose pieces are among its own, not only those that use them all.
    leftover: bool,
    /// Pieces of one copy (their `unused` bits say all).
    singles: u32,
    /// The copies of every piece with more than one (`Copies::all`), and the field of
    /// each such piece: an entry's copies are kept in these fields, as counts placed.
    copies_all: u64,
    fields: Vec<u64>,
}

/// One thread's working space for [`Window::search_split`]: a block being built per
/// split (a search above one split may need the block of the next).
#[derive(Default)]
pub(crate) struct Workspace {
    building: Vec<Block>,
    /// Per split, the work of the searches above it that this thread ran (the planner
    /// reads it, `plan`).
    levels: Vec<LevelWork>,
    /// The planner's bound on [`LevelWork::units`] summed over the splits: a search
    /// above stops there, its block incomplete. `None` in a run.
    budget: Option<f64>,
    /// Arena words this thread took for its blocks and has not filled yet, and the
    /// address of the arena they are in ([`Above::publish`]).
    reserved: (usize, Range<usize>),
}

impl Workspace {
    /// Nodes visited by the searches above that this thread ran.
    pub fn nodes(&self) -> u64 {
        self.levels.iter().map(|level| level.nodes).sum()
    }
}

/// The work of the searches above one split.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LevelWork {
    /// Overhangs searched.
    blocks: u64,
    /// Nodes visited.
    nodes: u64,
    /// Entries of the next split's blocks read while combining.
    entries: u64,
    /// Arena words the blocks took.
    words: u64,
}

impl LevelWork {
    /// A node of a search above costs about 1.6 nodes of the plain search, an entry
    /// read and combined about 0.21 (fitted to instructions counted by callgrind for
    /// every first split row of the meteor and 4 x 15 boards: a node keeps its path,
    /// an entry is read, copied, sorted and published).
    pub fn units(&self) -> f64 {
        1.6 * self.nodes as f64 + 0.21 * self.entries as f64
    }
}

/// An entry's link in a block under construction: where its steps start in `steps`,
/// its link, and (first split only) the signature of the block it links to.
type Link = (u32, u32, u64);

/// A block under construction, with indices relative to its `steps`.
#[derive(Default)]
struct Block {
    /// Per entry, the pieces of one copy it places, and (`copies`) how many copies of
    /// each piece with more it places, in the fields of the puzzle's `Copies`.
    used: Vec<u32>,
    copies: Vec<u64>,
    /// Per entry, its [`Link`].
    links: Vec<Link>,
    steps: Vec<u32>,
    path: Path,
    /// Scratch of [`Block::order_entries`]: the new order, its sort keys, and the
    /// entries' pieces, copies and links moved into it.
    order: Vec<u32>,
    keys: Vec<u64>,
    moved: (Vec<u32>, Vec<u64>, Vec<Link>),
}

impl Block {
    /// Keeps the steps of `path` (`[count, slot, ...]`): where they start in `steps`.
    fn keep_path(&mut self) -> u32 {
        let at = self.steps.len() as u32;
        self.steps.push(self.path.len() as u32);
        self.steps.extend(self.path.iter().map(|step| step.slot));
        at
    }

    /// A block with room for a common one (on the meteor board nearly all hold a few
    /// entries): a larger one grows it, and the split's later blocks keep the room. Room
    /// for the largest up front cost more: each split's vectors spanned pages of their
    /// own, which a fresh process pays a fault for even when they stay unused (as
    /// `copies` does without copies).
    fn reserved() -> Block {
        Block {
            used: Vec::with_capacity(64),
            copies: Vec::new(),
            links: Vec::with_capacity(64),
            steps: Vec::with_capacity(256),
            // A path places each piece once, or as often as it has copies: 32 steps
            // serve every set without copies.
            path: Vec::with_capacity(32),
            // Only blocks of more than `SCANNED` entries are reordered.
            order: Vec::new(),
            keys: Vec::new(),
            moved: Default::default(),
        }
    }

    /// Moves the entries into the order they are published in: as found for the first
    /// split, whose entries are scanned in turn; for a later split's block of more
    /// than [`SCANNED`] entries, grouped by the pieces they use, in the order found
    /// within a group, so that a node looks up its pieces by binary search, not a scan
    /// ([`sorted`]). Whoever reads a later split's block takes only the entries of one
    /// set of pieces (the first split's nodes), or entries whose sets differ from each
    /// other's (a search above, which keeps them in turn with its own steps, each then
    /// a set of its own), so the order of the entries of one set is all that the order
    /// of the solutions depends on, and grouped or not it is the order found. With
    /// pieces left over a node takes the entries of every set within its own, so every
    /// block keeps the order found.
    fn order_entries(&mut self, s: usize, leftover: bool) {
        let n = self.used.len() as u32;
        if !sorted(s, n as usize, leftover) {
            return;
        }
        self.order.clear();
        if self.copies.is_empty() {
            // Sorted as plain words: pieces, then index.
            self.keys.clear();
            self.keys.extend(
                self.used
                    .iter()
                    .zip(0u64..)
                    .map(|(&u, i)| u64::from(u) << 32 | i),
            );
            self.keys.sort_unstable();
            self.order.extend(self.keys.iter().map(|&k| k as u32));
        } else {
            let mut order = std::mem::take(&mut self.order);
            order.extend(0..n);
            order.sort_unstable_by_key(|&i| (self.used[i as usize], self.copies_of(i), i));
            self.order = order;
        }
        // The entries moved into that order, so that publishing writes them in turn.
        let (used, copies, links) = &mut self.moved;
        used.clear();
        used.extend(self.order.iter().map(|&i| self.used[i as usize]));
        std::mem::swap(used, &mut self.used);
        copies.clear();
        if !self.copies.is_empty() {
            copies.extend(self.order.iter().map(|&i| self.copies[i as usize]));
            std::mem::swap(copies, &mut self.copies);
        }
        links.clear();
        links.extend(self.order.iter().map(|&i| self.links[i as usize]));
        std::mem::swap(links, &mut self.links);
    }

    /// Keeps an entry: its pieces, its steps (at `at`) and its link; its copies only
    /// when the puzzle has some (`COPIES`), as they are 0 otherwise.
    #[inline(always)]
    fn push<const COPIES: bool>(&mut self, (used, copies): (u32, u64), link: Link) {
        self.used.push(used);
        if COPIES {
            self.copies.push(copies);
        }
        self.links.push(link);
    }

    /// [`Block::push`], kept only if `keep`: written either way, then cut back, so
    /// that `keep` (whether a completion of the next split uses none of the pieces
    /// placed, true or false in no pattern) costs no branch.
    #[inline(always)]
    fn push_if<const COPIES: bool>(&mut self, keep: bool, entry: (u32, u64), link: Link) {
        let n = self.used.len() + usize::from(keep);
        self.push::<COPIES>(entry, link);
        self.used.truncate(n);
        if COPIES {
            self.copies.truncate(n);
        }
        self.links.truncate(n);
    }

    /// The copies of entry `i` (0 when none are kept).
    fn copies_of(&self, i: u32) -> u64 {
        self.copies.get(i as usize).copied().unwrap_or(0)
    }
}

/// Arena words in at most `bytes` bytes, within what `u32` links address.
fn arena_words(bytes: usize) -> usize {
    (bytes / std::mem::size_of::<AtomicU32>()).min(MAX_ARENA_WORDS)
}

impl Above {
    /// Empty memos for a search of `window` split before each cell of `splits` (in
    /// increasing order), or `None` if the window does not qualify (see the module docs)
    /// or a split is not inside the board.
    pub fn new<L: Lane, const K: usize>(window: &Window<L, K>, splits: &[usize]) -> Option<Above> {
        Above::with_arena(window, splits, ARENA_WORDS)
    }

    /// [`Above::new`] with an arena of at most `bytes` bytes (the `u32` links of the
    /// arena address at most 16 GiB of it).
    pub fn with_bytes<L: Lane, const K: usize>(
        window: &Window<L, K>,
        splits: &[usize],
        bytes: usize,
    ) -> Option<Above> {
        Above::with_arena(window, splits, arena_words(bytes))
    }

    /// [`Above::with_bytes`] for a measurement ([`plan`]): its arena on small pages
    /// only. A pilot search touches little of its arena, and the plan measures several
    /// rows, each with an arena of its own: a huge page each cost more than the faults
    /// they saved (figures in the commit that made this).
    pub fn for_measuring<L: Lane, const K: usize>(
        window: &Window<L, K>,
        splits: &[usize],
        bytes: usize,
    ) -> Option<Above> {
        Above::with_words(window, splits, arena_words(bytes), ZeroedWords::new)
    }

    /// [`Above::new`] with room for `words` words of blocks.
    pub fn with_arena<L: Lane, const K: usize>(
        window: &Window<L, K>,
        splits: &[usize],
        words: usize,
    ) -> Option<Above> {
        // Blocks are appended: written in order from the start.
        Above::with_words(window, splits, words, ZeroedWords::in_order)
    }

    /// [`Above::new`] with room for `words` words of blocks, its arena made by `make`
    /// (given the words of the front tables and the blocks).
    fn with_words<L: Lane, const K: usize>(
        window: &Window<L, K>,
        splits: &[usize],
        words: usize,
        make: fn(usize) -> ZeroedWords,
    ) -> Option<Above> {
        let width = window.width();
        let mut empty_block = 0;
        let splits = edges(window, splits)?
            .into_iter()
            .map(|edge| Split::at(edge, width, &mut empty_block))
            .collect();
        let blocks_from = empty_block + HEADER;
        let arena = make(blocks_from.saturating_add(words));
        // Every page of the front tables and the empty block written before any is
        // read (see `touch_for_writing`): a word a page, and the last, as an arena
        // from the heap may start mid-page.
        let fronts = &arena[..blocks_from];
        for word in fronts.iter().step_by(1024).chain(fronts.last()) {
            touch_for_writing(word);
        }
        Some(Above {
            splits,
            arena,
            empty_block,
            blocks_from,
            arena_len: Apart(AtomicUsize::new(blocks_from)),
            full: AtomicBool::new(false),
            unindexed: AtomicBool::new(false),
            leftover: window.leftover,
            singles: (0..window.layout.pieces)
                .filter(|&p| window.copies.field[p] == 0)
                .fold(0, |m, p| m | 1 << p),
            copies_all: window.copies.all,
            fields: (0..window.layout.pieces)
                .map(|p| window.copies.field[p])
                .filter(|&f| f != 0)
                .collect(),
        })
    }

    /// Whether [`Above::new`] would serve `window` split before each cell of `splits`,
    /// without mapping its tables.
    pub fn serves<L: Lane, const K: usize>(window: &Window<L, K>, splits: &[usize]) -> bool {
        edges(window, splits).is_some()
    }

    /// How much of the arena the blocks took, and whether some were not kept.
    pub fn memory(&self) -> SplitMemory {
        let words = std::mem::size_of::<AtomicU32>();
        let taken = self.arena_len.load(Ordering::Relaxed).min(self.arena.len());
        SplitMemory {
            bytes: (taken - self.blocks_from) * words,
            bound: (self.arena.len() - self.blocks_from) * words,
            full: self.full.load(Ordering::Relaxed) || self.unindexed.load(Ordering::Relaxed),
        }
    }

    /// Where `node` stands against split `s` (see [`Edge::cross`]).
    #[inline(always)]
    fn cross<L: Lane, const K: usize>(&self, window: &Window<L, K>, s: usize, node: Node) -> Cross {
        self.splits[s].edge.cross_node(window, node)
    }

    /// Where the block of completions above split `s` for `overhang` starts in the
    /// arena, searching it first (in `window`, searched above a split: [`any_pieces`])
    /// if no thread has; `None` if it is not kept.
    #[inline(always)]
    fn block<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        s: usize,
        overhang: u64,
        scratch: &mut Workspace,
    ) -> Option<usize> {
        let Some(slot) = self.splits[s].slot(&self.arena, overhang) else {
            self.unindexed.store(true, Ordering::Relaxed);
            return None;
        };
        let state = slot.load(Ordering::Acquire);
        // Most look-ups find the block published: that path stays in the caller.
        if state >= PUBLISHED {
            return Some((state - PUBLISHED) as usize);
        }
        self.unpublished_block(window, s, overhang, slot, state, scratch)
    }

    /// [`Above::block`] of a slot not yet published: searches the block if no thread
    /// has, or waits for the thread that is.
    #[inline(never)]
    fn unpublished_block<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        s: usize,
        overhang: u64,
        slot: &AtomicU32,
        mut state: u32,
        scratch: &mut Workspace,
    ) -> Option<usize> {
        if state == UNSEARCHED && !self.full.load(Ordering::Relaxed) {
            match slot.compare_exchange(UNSEARCHED, BUSY, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => {
                    if scratch.levels.len() < self.splits.len() {
                        scratch
                            .levels
                            .resize(self.splits.len(), LevelWork::default());
                    }
                    scratch.levels[s].blocks += 1;
                    self.search_above(window, s, overhang, scratch);
                    scratch.building[s].order_entries(s, self.leftover);
                    scratch.levels[s].words += self.block_words(&scratch.building[s], s) as u64;
                    state = self.publish(&scratch.building[s], s, &mut scratch.reserved);
                    slot.store(state, Ordering::Release);
                }
                // Another thread claimed it first.
                Err(now) => state = now,
            }
        }
        let mut spins = 0u32;
        while state == BUSY {
            // Another thread is searching this overhang.
            spins += 1;
            if spins < 256 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
            state = slot.load(Ordering::Acquire);
        }
        (state >= PUBLISHED).then(|| (state - PUBLISHED) as usize)
    }

    /// The arena words `block`, built above split `s`, takes once published (none if
    /// it is empty: it is then the empty block).
    fn block_words(&self, block: &Block, s: usize) -> usize {
        if block.used.is_empty() {
            return 0;
        }
        HEADER + (self.entry_words(s) + LINK_WORDS) * block.used.len() + block.steps.len()
    }

    /// Copies a built block to the arena, in the words `reserved` for this thread if
    /// they hold it: the slot state that says where, or `NOT_KEPT`.
    fn publish(&self, block: &Block, s: usize, reserved: &mut (usize, Range<usize>)) -> u32 {
        let n = block.used.len();
        if n == 0 {
            debug_assert!(block.steps.is_empty(), "steps are kept only with an entry");
            return PUBLISHED + self.empty_block as u32;
        }
        let (uw, ew) = (self.used_words(), self.entry_words(s));
        let len = self.block_words(block, s);
        let arena = self.arena.as_ptr() as usize;
        if reserved.0 != arena || reserved.1.len() < len {
            // Words are taken a run at a time: an atomic add for each block waited
            // for the block's stores before it. What is left of a run too short for
            // this block stays unused.
            let take = len.max(RESERVED_WORDS);
            let from = self.arena_len.fetch_add(take, Ordering::Relaxed);
            *reserved = (arena, from..from.saturating_add(take));
        }
        let start = reserved.1.start;
        let end = start + len;
        reserved.1.start = end;
        if end > self.arena.len() || end + PUBLISHED as usize > u32::MAX as usize {
            self.full.store(true, Ordering::Relaxed);
            return NOT_KEPT;
        }
        let steps_at = (start + HEADER + (ew + LINK_WORDS) * n) as u32;
        let sig = block
            .used
            .iter()
            .fold(0, |sig, &used| sig | signature(used));
        // The block's words, reserved above, in their four parts: a range check per
        // part, then a plain loop per part.
        let (head, rest) = self.arena[start..end].split_at(HEADER);
        let (entries, rest) = rest.split_at(ew * n);
        let (links, steps) = rest.split_at(LINK_WORDS * n);
        debug_assert_eq!(steps.len(), block.steps.len(), "a block fills its words");
        for (at, word) in head.iter().zip([n as u32, sig as u32, (sig >> 32) as u32]) {
            at.store(word, Ordering::Relaxed);
        }
        // The entries' pieces, then (first split) the signatures of the blocks they
        // link to, so that a node's scan reads each as a column (`complete`).
        let (pieces, signatures) = entries.split_at(uw * n);
        if uw == 1 {
            for (at, &used) in pieces.iter().zip(&block.used) {
                at.store(used, Ordering::Relaxed);
            }
        } else {
            for (i, at) in pieces.chunks_exact(uw).enumerate() {
                let c = block.copies_of(i as u32);
                for (at, word) in at.iter().zip([block.used[i], c as u32, (c >> 32) as u32]) {
                    at.store(word, Ordering::Relaxed);
                }
            }
        }
        debug_assert_eq!(signatures.len(), (ew - uw) * n);
        for (at, &(_, _, next_sig)) in signatures
            .chunks_exact(FIRST_SIGNATURE_WORDS)
            .zip(&block.links)
        {
            for (at, word) in at.iter().zip([next_sig as u32, (next_sig >> 32) as u32]) {
                at.store(word, Ordering::Relaxed);
            }
        }
        for (at, &(steps, next, _)) in links.chunks_exact(LINK_WORDS).zip(&block.links) {
            for (at, word) in at.iter().zip([steps_at + steps, next]) {
                at.store(word, Ordering::Relaxed);
            }
        }
        for (at, &word) in steps.iter().zip(&block.steps) {
            at.store(word, Ordering::Relaxed);
        }
        PUBLISHED + start as u32
    }

    /// Every completion above split `s` of `overhang`, with any pieces, in search
    /// order, into `scratch.building[s]`; `window` is searched above a split
    /// ([`any_pieces`]).
    fn search_above<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        s: usize,
        overhang: u64,
        scratch: &mut Workspace,
    ) {
        debug_assert!(window.leftover, "a search above takes any pieces");
        let node = self.splits[s].edge.above_root(window, overhang);
        if scratch.building.len() < self.splits.len() {
            scratch
                .building
                .resize_with(self.splits.len(), Block::reserved);
        }
        let b = &mut scratch.building[s];
        b.used.clear();
        b.copies.clear();
        b.links.clear();
        b.steps.clear();
        b.path.clear();
        // The budget is checked at every node of the planner's searches, and a run's
        // pay nothing for it.
        match (self.fields.is_empty(), scratch.budget.is_some()) {
            (true, false) => self.tile::<L, K, false, false>(window, s, node, scratch),
            (true, true) => self.tile::<L, K, false, true>(window, s, node, scratch),
            (false, false) => self.tile::<L, K, true, false>(window, s, node, scratch),
            (false, true) => self.tile::<L, K, true, true>(window, s, node, scratch),
        }
    }

    /// The search above split `s`, from `node`: records in `scratch.building[s]` each
    /// full board and each completion of a later split it reaches. `BUDGETED`: whether
    /// `scratch.budget` is set (the planner's searches), so that it is checked.
    fn tile<L: Lane, const K: usize, const COPIES: bool, const BUDGETED: bool>(
        &self,
        window: &Window<L, K>,
        s: usize,
        node: Node,
        scratch: &mut Workspace,
    ) {
        scratch.levels[s].nodes += 1;
        if BUDGETED {
            if let Some(budget) = scratch.budget {
                if scratch.levels.iter().map(LevelWork::units).sum::<f64>() > budget {
                    return;
                }
            }
        }
        let used = self.used_from_root(node);
        if s + 1 < self.splits.len() {
            if let Cross::Overhang(overhang) = self.cross(window, s + 1, node) {
                if let Some(start) = self.block(window, s + 1, overhang, scratch) {
                    if start == self.empty_block {
                        // Nothing completes the next split's overhang: a dead end,
                        // kept out of the block (a first split's way to it would only
                        // be scanned, and fail, by every node below). Known from where
                        // the block is, before its header is read.
                        return;
                    }
                    let n = self.word(start) as usize;
                    let b = &mut scratch.building[s];
                    if s == 0 {
                        // The first split's completions are used by nodes below it only,
                        // each wanting one set of pieces: keep the way to the next
                        // split's block and combine there (see `complete`).
                        let at = b.keep_path();
                        b.push::<COPIES>(used, (at, start as u32, self.word_pair(start + 1)));
                        return;
                    }
                    // A later split's entries: their pieces only (`entry_words`).
                    let links = start + HEADER + used_words::<COPIES>() * n;
                    scratch.levels[s].entries += n as u64;
                    // The steps go where `keep_path` puts them, and only if some
                    // completion is kept: most crossing nodes here keep none.
                    let at = b.steps.len() as u32;
                    let before = b.used.len();
                    for i in 0..n {
                        let (later, later_copies) = self.used_at::<COPIES>(start, i);
                        let keep = (later & used.0 == 0)
                            & self.within::<COPIES>(later_copies, node.copies);
                        let both = (later | used.0, later_copies.wrapping_add(used.1));
                        b.push_if::<COPIES>(keep, both, (at, (links + LINK_WORDS * i) as u32, 0));
                    }
                    if b.used.len() > before {
                        b.keep_path();
                    }
                    return;
                }
                // Not kept: search on as if there were no split here.
            }
            // Past the split (only on boards whose window cannot show it): search on.
        }
        if window.is_leaf(node) {
            let b = &mut scratch.building[s];
            let at = b.keep_path();
            b.push::<COPIES>(used, (at, END, ANY_BLOCK));
            return;
        }
        let _ = window.for_each_child(node, |step, child| {
            scratch.building[s].path.push(step);
            self.tile::<L, K, COPIES, BUDGETED>(window, s, child, scratch);
            scratch.building[s].path.pop();
            ControlFlow::Continue(())
        });
    }

    /// Words per entry for its pieces: 1, or 3 with copies (the fields' `u64` too).
    #[inline(always)]
    fn used_words(&self) -> usize {
        if self.fields.is_empty() {
            used_words::<false>()
        } else {
            used_words::<true>()
        }
    }

    /// What a search above has placed on reaching `node` (it starts with every piece
    /// and copy): the pieces of one copy, and the copies of the others, in their fields.
    #[inline(always)]
    fn used_from_root(&self, node: Node) -> (u32, u64) {
        (!node.unused & self.singles, self.copies_all - node.copies)
    }

    /// What a node with `unused` pieces and `copies` has left to place, as an entry
    /// keeps it (see [`Above::used_from_root`]).
    #[inline(always)]
    fn left(&self, unused: u32, copies: u64) -> (u32, u64) {
        (unused & self.singles, copies)
    }

    /// Words per entry before the links in a block of split `s`: its pieces
    /// ([`Above::used_words`]), and in the first split's blocks the signature of the
    /// block it links to, in a column after the pieces', which every node's scan of
    /// them reads with the pieces ([`Window::complete`]).
    #[inline(always)]
    fn entry_words(&self, s: usize) -> usize {
        self.used_words() + if s == 0 { FIRST_SIGNATURE_WORDS } else { 0 }
    }

    /// Entry `i` of the block at `start`, of a split after the first: its pieces and
    /// copies (`COPIES`: whether the puzzle has copies, so entries keep them).
    #[inline(always)]
    fn used_at<const COPIES: bool>(&self, start: usize, i: usize) -> (u32, u64) {
        self.pieces_at::<COPIES>(start + HEADER + used_words::<COPIES>() * i)
    }

    /// The pieces and copies of the entry at word `at`.
    #[inline(always)]
    fn pieces_at<const COPIES: bool>(&self, at: usize) -> (u32, u64) {
        if !COPIES {
            return (self.word(at), 0);
        }
        (self.word(at), self.word_pair(at + 1))
    }

    /// Whether `copies` placed fit within `left` in every field.
    #[inline(always)]
    fn within<const COPIES: bool>(&self, copies: u64, left: u64) -> bool {
        !COPIES || self.fields.iter().all(|&f| copies & f <= left & f)
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u32 {
        self.arena[i].load(Ordering::Relaxed)
    }

    /// Of `lanes` (at most 16) consecutive ways of a first split's block, whose
    /// pieces start at word `pieces` and the signatures of their next blocks at word
    /// `signatures`, those that pass `complete`'s test for a node with `unused` pieces
    /// left, as bits (way `i` at bit `i`); for puzzles without copies or pieces left
    /// over. The test of sixteen ways with AVX-512, without a branch per way.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    #[inline(always)]
    fn passing_ways(&self, pieces: usize, signatures: usize, lanes: usize, unused: u32) -> u32 {
        use std::arch::x86_64::*;
        // A signature is read as one 64-bit lane.
        const { assert!(FIRST_SIGNATURE_WORDS == 2) };
        debug_assert!(lanes <= 16);
        debug_assert!(pieces + lanes <= self.arena.len());
        debug_assert!(signatures + FIRST_SIGNATURE_WORDS * lanes <= self.arena.len());
        let words = self.arena.as_ptr().cast::<u32>();
        let used_lanes = (u32::MAX >> (32 - lanes)) as __mmask16;
        // SAFETY: AVX-512F is enabled at compile time (the cfg above). The masked loads
        // read only their enabled lanes (the others cannot fault): words `pieces ..
        // pieces + lanes` and `signatures .. signatures + 2 * lanes` of the arena, a
        // published block's, which no thread writes again (its slot's release and our
        // acquire order those writes before these reads, so plain reads of the atomic
        // words race with nothing).
        unsafe {
            let used = _mm512_maskz_loadu_epi32(used_lanes, words.add(pieces).cast());
            // Pieces of the node's only.
            let own =
                _mm512_mask_testn_epi32_mask(used_lanes, used, _mm512_set1_epi32(!unused as i32));
            // The pieces left, and their signature in two halves of 64-bit lanes.
            let rest = _mm512_andnot_si512(used, _mm512_set1_epi32(unused as i32));
            let one = _mm512_set1_epi64(1);
            let low5 = _mm512_set1_epi64(31);
            let signature_of = |rest: __m256i| {
                let rest = _mm512_cvtepu32_epi64(rest);
                let low = _mm512_and_si512(rest, low5);
                let high = _mm512_add_epi64(
                    _mm512_and_si512(_mm512_srli_epi64::<5>(rest), low5),
                    _mm512_set1_epi64(32),
                );
                _mm512_or_si512(_mm512_sllv_epi64(one, low), _mm512_sllv_epi64(one, high))
            };
            let sig_at = |half: usize| {
                let k = (used_lanes >> (8 * half)) as __mmask8;
                let at = signatures + 8 * FIRST_SIGNATURE_WORDS * half;
                _mm512_maskz_loadu_epi64(k, words.add(at).cast())
            };
            // Bits of the rest's signature that the next block's lacks: none may be.
            let held = |half: usize, rest: __m256i| {
                let k = (used_lanes >> (8 * half)) as __mmask8;
                _mm512_mask_testn_epi64_mask(
                    k,
                    signature_of(rest),
                    _mm512_xor_si512(sig_at(half), _mm512_set1_epi64(-1)),
                )
            };
            let low = held(0, _mm512_castsi512_si256(rest));
            let high = held(1, _mm512_extracti64x4_epi64::<1>(rest));
            u32::from(own) & (u32::from(low) | u32::from(high) << 8)
        }
    }

    /// Words `i` and `i + 1` as one `u64`, low word first (signatures).
    #[inline(always)]
    fn word_pair(&self, i: usize) -> u64 {
        u64::from(self.word(i)) | u64::from(self.word(i + 1)) << 32
    }
}

/// The edges of `window` split before each cell of `splits`, if the split search
/// serves them all (see the module docs).
fn edges<L: Lane, const K: usize>(window: &Window<L, K>, splits: &[usize]) -> Option<Vec<Edge>> {
    let qualifies = qualifies(window)
        && !splits.is_empty()
        && splits.windows(2).all(|w| w[0] < w[1])
        && splits[0] > 0
        && splits[splits.len() - 1] < window.cells();
    if !qualifies {
        return None;
    }
    let reach = Reach::of(window);
    splits
        .iter()
        .map(|&cell| Edge::of(window, &reach, cell))
        .collect()
}

/// `window` searched above a split: a full board is a completion whatever pieces it
/// leaves, as a node below takes the completions that use exactly its own.
fn any_pieces<'t, L: Lane, const K: usize>(window: &Window<'t, L, K>) -> Window<'t, L, K> {
    let mut any = *window;
    any.leftover = true;
    any
}

/// Whether the split search can serve `window` at all: fewer than 32 different pieces
/// (see the module docs).
pub(crate) fn qualifies<L: Lane, const K: usize>(window: &Window<L, K>) -> bool {
    window.layout.pieces < 32
}

/// The window the search above split `cell` starts in (the one where the split's row is
/// among the first, or the last), and the split's bit in it.
fn start_of<L: Lane, const K: usize>(window: &Window<L, K>, cell: usize) -> (usize, usize) {
    let shift = window.shift as usize;
    let offset = (cell / shift).min(window.last_offset);
    (offset, cell - offset * shift)
}

/// Words per entry link in a block: where its steps start, and its link.
const LINK_WORDS: usize = 2;

/// Arena words a thread takes for its blocks at a time ([`Above::publish`]): at most
/// this many per thread are left unused when the search ends.
const RESERVED_WORDS: usize = 1 << 12;

/// Words of a first split's entry's signature of the block it links to, kept after
/// every entry's pieces ([`Above::entry_words`]).
const FIRST_SIGNATURE_WORDS: usize = 2;

/// [`Above::used_words`] of a puzzle with copies (`COPIES`) or without: known at
/// compile time where the search is specialised on it.
const fn used_words<const COPIES: bool>() -> usize {
    if COPIES {
        3
    } else {
        1
    }
}

/// Per board cell, one past the last cell that a placement anchored before it can
/// reach: what an overhang there needs (holes beyond it are the same in every node).
pub(crate) struct Reach(Vec<usize>);

impl Reach {
    pub fn of<L: Lane, const K: usize>(window: &Window<L, K>) -> Reach {
        let shift = window.shift as usize;
        let mut reach = vec![0; window.cells() + 1];
        for (group, (masks, &used)) in window.masks.iter().zip(window.used_slots).enumerate() {
            let (offset, _, _) = window.layout.place(group);
            // Anchored at `cell`, so it counts for the splits after it.
            let Some(r) = reach.get_mut(window.layout.cell(group) + 1) else {
                continue;
            };
            for (i, mask) in masks.iter().enumerate() {
                let mask = mask.widen();
                if used >> i & 1 == 1 && mask != 0 {
                    *r = (*r).max(offset * shift + 64 - mask.leading_zeros() as usize);
                }
            }
        }
        for c in 1..reach.len() {
            reach[c] = reach[c].max(reach[c - 1]);
        }
        Reach(reach)
    }

    /// The cells from `split` on that a placement anchored before it can reach: the
    /// bits an overhang there needs.
    fn overhang_bits(&self, split: usize) -> usize {
        let reach = self.0.get(split).or(self.0.last()).copied().unwrap_or(0);
        reach.saturating_sub(split)
    }
}

impl<L: Lane, const K: usize> Window<'_, L, K> {
    /// [`Window::search`] with the splits `above` was made for: the same solutions in
    /// the same order, with the searches north of the first split shared through
    /// `above` (see the module docs). `Break` if the visitor stopped it.
    pub fn search_split<V: Visitor>(
        &self,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
        above: &Above,
        scratch: &mut Workspace,
    ) -> ControlFlow<()> {
        // Made once here rather than for each block searched.
        let any = any_pieces(self);
        self.search_south(&any, node, path, visitor, above, scratch)
    }

    /// [`Window::search_split`] from `node`, south of the first split; `any` is
    /// `self` searched above a split ([`any_pieces`]).
    fn search_south<V: Visitor>(
        &self,
        any: &Window<L, K>,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
        above: &Above,
        scratch: &mut Workspace,
    ) -> ControlFlow<()> {
        match above.cross(self, 0, node) {
            Cross::Before => {}
            Cross::Past => {
                // Past the split by more than one step (a task the driver cut below
                // it): cells beyond the overhang are filled, which the block of the
                // overhang does not know. The plain search from here.
                return self.search(node, path, visitor);
            }
            Cross::Overhang(overhang) => {
                let Some(start) = above.block(any, 0, overhang, scratch) else {
                    // Not kept: the plain search from here.
                    return self.search(node, path, visitor);
                };
                visitor.node();
                return if above.fields.is_empty() {
                    self.complete::<V, false>(node, path, visitor, above, start)
                } else {
                    self.complete::<V, true>(node, path, visitor, above, start)
                };
            }
        }
        visitor.node();
        self.for_each_child(node, |step, child| {
            path.push(step);
            let flow = self.search_south(any, child, path, visitor, above, scratch);
            path.pop();
            flow
        })
    }

    /// Reports `node` completed by each completion of the first split's block at
    /// `start` that uses exactly its unused pieces.
    ///
    /// That block holds, per way to the next split (or to a full board), the pieces it
    /// places and the next split's block: a completion is such a way, then one of that
    /// block's completions that uses exactly the pieces still unused.
    fn complete<V: Visitor, const COPIES: bool>(
        &self,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
        above: &Above,
        start: usize,
    ) -> ControlFlow<()> {
        let (unused, copies) = above.left(node.unused, node.copies);
        let n = above.word(start) as usize;
        let uw = used_words::<COPIES>();
        // The ways' pieces, then the signatures of the blocks they link to, then their
        // links (`Above::publish`).
        let pieces = start + HEADER;
        let signatures = pieces + uw * n;
        let links = pieces + above.entry_words(0) * n;
        // Whether way `i` places only pieces of the node's and its next block holds the
        // pieces that would be left (without pieces left over; a way to a full board
        // carries every signature bit, `ANY_BLOCK`), and its copies fit.
        let passes = |i: usize| {
            let (used, used_copies) = above.pieces_at::<COPIES>(pieces + uw * i);
            let foreign = u64::from(used & !unused);
            let missing = if above.leftover {
                0
            } else {
                signature(unused & !used) & !above.word_pair(signatures + FIRST_SIGNATURE_WORDS * i)
            };
            foreign | missing == 0 && above.within::<COPIES>(used_copies, copies)
        };
        #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
        if !COPIES && !above.leftover {
            // Sixteen ways tested at once, then those that pass taken in turn: the
            // same ways in the same order.
            for first in (0..n).step_by(16) {
                let mut pass = above.passing_ways(
                    pieces + first,
                    signatures + FIRST_SIGNATURE_WORDS * first,
                    (n - first).min(16),
                    unused,
                );
                debug_assert!(
                    (0..(n - first).min(16)).all(|j| (pass >> j & 1 == 1) == passes(first + j))
                );
                while pass != 0 {
                    let i = first + pass.trailing_zeros() as usize;
                    pass &= pass - 1;
                    let way = above.pieces_at::<COPIES>(pieces + uw * i);
                    let link = links + LINK_WORDS * i;
                    self.take_way::<V, COPIES>(path, visitor, above, way, link, (unused, copies))?;
                }
            }
            return ControlFlow::Continue(());
        }
        for i in 0..n {
            if passes(i) {
                let way = above.pieces_at::<COPIES>(pieces + uw * i);
                let link = links + LINK_WORDS * i;
                self.take_way::<V, COPIES>(path, visitor, above, way, link, (unused, copies))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Reports the completions through a way of a first split's block that passed
    /// `complete`'s test: the way places `(used, used_copies)` and its link is at
    /// `link`; the node has `(unused, copies)` left.
    #[inline(always)]
    fn take_way<V: Visitor, const COPIES: bool>(
        &self,
        path: &mut Path,
        visitor: &mut V,
        above: &Above,
        (used, used_copies): (u32, u64),
        link: usize,
        (unused, copies): (u32, u64),
    ) -> ControlFlow<()> {
        let way = above.word(link) as usize;
        let next = above.word(link + 1);
        if next == END {
            // Every piece placed, or (with pieces left over) a full board.
            if (used, used_copies) == (unused, copies) || above.leftover {
                self.report(path, visitor, above, way, None)?;
            }
            return ControlFlow::Continue(());
        }
        let rest = (unused & !used, copies - used_copies);
        let next = next as usize;
        let m = above.word(next) as usize;
        let completions = next + HEADER + used_words::<COPIES>() * m;
        if above.leftover {
            // Every completion whose pieces are among those left, in the order
            // found (such blocks are not grouped: `Block::order_entries`).
            for j in 0..m {
                let (later, later_copies) = above.used_at::<COPIES>(next, j);
                if later & !rest.0 == 0 && above.within::<COPIES>(later_copies, rest.1) {
                    let completion = completions + LINK_WORDS * j;
                    self.report(path, visitor, above, way, Some(completion))?;
                }
            }
            return ControlFlow::Continue(());
        }
        if !sorted(1, m, false) {
            // In the order found: every entry with exactly `rest`.
            for j in 0..m {
                if above.used_at::<COPIES>(next, j) == rest {
                    let completion = completions + LINK_WORDS * j;
                    self.report(path, visitor, above, way, Some(completion))?;
                }
            }
            return ControlFlow::Continue(());
        }
        // The block's entries are grouped by their pieces (`Block::order_entries`):
        // the first with `rest`, then the rest of its group.
        let (mut lo, mut hi) = (0, m);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if above.used_at::<COPIES>(next, mid) < rest {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for j in lo..m {
            if above.used_at::<COPIES>(next, j) != rest {
                break;
            }
            let completion = completions + LINK_WORDS * j;
            self.report(path, visitor, above, way, Some(completion))?;
        }
        ControlFlow::Continue(())
    }

    /// Reports the solution made of `path`, the steps kept at `way`, and the chain of
    /// completions from the link at `completion`; `Break` if the visitor stops.
    fn report<V: Visitor>(
        &self,
        path: &mut Path,
        visitor: &mut V,
        above: &Above,
        way: usize,
        completion: Option<usize>,
    ) -> ControlFlow<()> {
        let depth = path.len();
        self.push_steps(path, above, way);
        let mut link = completion;
        while let Some(at) = link {
            self.push_steps(path, above, above.word(at) as usize);
            link = match above.word(at + 1) {
                END => None,
                later => Some(later as usize),
            };
        }
        let flow = visitor.solution(path);
        path.truncate(depth);
        flow
    }

    /// Appends the steps kept at `at` (`[count, slot, ...]`).
    #[inline(always)]
    fn push_steps(&self, path: &mut Path, above: &Above, at: usize) {
        for k in 0..above.word(at) as usize {
            path.push(self.step_of(above.word(at + 1 + k)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{HashedSlots, Slots, Split, FRONT_ENTRIES, FRONT_FULL, SPARE_ROW_BLOCKS};
    use std::sync::atomic::Ordering;

    #[test]
    fn every_overhang_gets_a_slot_of_its_own() {
        // 4 overhang bits, 2 in a row block.
        let (split, words) = Split::new(10, 4, 2, 0);
        let mut seen = std::collections::BTreeSet::new();
        for overhang in [9u64, 0, 15, 3, 12, 9, 0] {
            let slot = split.slot(&words, overhang).expect("a slot") as *const _ as usize;
            let again = split.slot(&words, overhang).expect("the same slot");
            let again = again as *const _ as usize;
            assert_eq!(slot, again, "overhang {overhang}");
            seen.insert((overhang, slot));
        }
        let slots: std::collections::BTreeSet<usize> = seen.iter().map(|p| p.1).collect();
        assert_eq!(slots.len(), 5, "five overhangs, five slots");
    }

    #[test]
    fn used_up_row_blocks_give_no_slot_rather_than_a_wrong_one() {
        let (split, _) = Split::new(10, 4, 2, 0);
        let Slots::Direct(direct) = &split.slots else {
            panic!("4 bits are indexed directly");
        };
        direct
            .index()
            .row_blocks_used
            .store(4 + SPARE_ROW_BLOCKS, Ordering::Relaxed);
        assert!(direct.direct_slot(5).is_none());
    }

    #[test]
    fn past_the_front_table_overhangs_are_indexed_directly_one_slot_each() {
        // 20 overhang bits, 5 in a row block: far more overhangs than the front holds,
        // asked for from two threads at once, each overhang twice.
        let (split, words) = Split::new(10, 20, 5, 0);
        let Slots::Direct(direct) = &split.slots else {
            panic!("20 bits are indexed directly");
        };
        let overhangs: Vec<u64> = (0..3 * FRONT_ENTRIES as u64)
            .map(|i| (i * 0x9_7F4B) & ((1 << 20) - 1))
            .collect();
        let find = |order: &mut dyn Iterator<Item = &u64>| -> Vec<(u64, usize)> {
            order
                .map(|&o| {
                    (
                        o,
                        split.slot(&words, o).expect("a slot") as *const _ as usize,
                    )
                })
                .collect()
        };
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| find(&mut overhangs.iter()));
            let b = s.spawn(|| find(&mut overhangs.iter().rev()));
            (a.join().unwrap(), b.join().unwrap())
        });
        let pairs: std::collections::BTreeSet<(u64, usize)> = a.into_iter().chain(b).collect();
        let distinct: std::collections::BTreeSet<u64> = overhangs.iter().copied().collect();
        assert_eq!(
            pairs.len(),
            distinct.len(),
            "one slot per overhang, from both threads"
        );
        let slots: std::collections::BTreeSet<usize> = pairs.iter().map(|p| p.1).collect();
        assert_eq!(slots.len(), distinct.len(), "a slot of its own for each");
        let taken = direct.front_used.load(Ordering::Relaxed);
        assert!(
            (FRONT_FULL..FRONT_FULL + 4).contains(&taken),
            "the front took {taken}"
        );
        assert!(
            direct.index().row_blocks_used.load(Ordering::Relaxed) > 0,
            "some indexed directly"
        );
    }

    #[test]
    fn wide_overhangs_are_hashed_each_to_a_slot_of_its_own_until_full() {
        let (split, words) = Split::new(10, 40, 8, 0);
        assert!(words.is_empty(), "a hashed split has no front table");
        assert!(
            matches!(split.slots, Slots::Hashed(_)),
            "40 bits are hashed"
        );
        // 16 entries, 12 of them may be taken.
        let slots = HashedSlots::new(16);
        let overhangs: Vec<u64> = (0..12)
            .map(|i| (i * 0x9_1234_5677) & ((1 << 40) - 1))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for &overhang in overhangs.iter().chain(overhangs.iter().rev()) {
            let slot = slots.slot(overhang).expect("room") as *const _ as usize;
            seen.insert((overhang, slot));
        }
        assert_eq!(seen.len(), 12, "one slot per overhang, the same each time");
        let distinct: std::collections::BTreeSet<usize> = seen.iter().map(|p| p.1).collect();
        assert_eq!(distinct.len(), 12, "twelve overhangs, twelve slots");
        assert!(slots.slot(1 << 39).is_none(), "a thirteenth is not kept");
        assert!(slots.slot(overhangs[3]).is_some(), "those kept still are");
    }
}

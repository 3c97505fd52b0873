//! Meet in the middle: the search below a split cell, with the searches above it shared
//! between every node that leaves the same cells filled there, on every thread.
//!
//! Once every cell south of the split is filled, what is left to search depends only on
//! the cells already filled north of it (the node's *overhang*) and on the pieces still
//! unused. So the search above is run once per overhang, with every piece available, and
//! each tiling it finds is kept with the set of pieces it used. A node that crosses the
//! split takes the tilings of its overhang that use exactly its unused pieces.
//!
//! The tilings of one overhang are kept in the order the search above finds them, and a
//! node takes them in that order, so solutions come out in exactly the order of
//! [`Window::search`]: a search with more pieces available visits the tilings that use
//! one set of pieces in the same relative order.
//!
//! On the meteor board split at the middle row, the search below visits 103,368 nodes
//! and the searches above 23,254, against 250,609 for the whole tree: the 37,353 nodes
//! that cross the split have only 1,023 different overhangs.
//!
//! # Sharing between threads
//! [`Above`] is shared: each overhang's slot goes from unsearched to busy (one thread
//! claims it and searches) to a place in an append-only arena of words. A thread that
//! finds a slot busy waits; the searches above are short (tens of nodes). Each overhang
//! is searched once, so the node count does not depend on the number of threads.
//!
//! # Limits
//! The board must have at most 64 cells (a node's overhang is read from its absolute
//! board), an overhang at most 24 cells, each piece must be one copy, and every piece
//! must be placed: [`Above::new`] says whether a window qualifies.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

use crate::search::{Lane, Node, Path, Visitor, Window};

/// Slot states; a slot at `PUBLISHED` or more holds `PUBLISHED + start` in the arena.
const UNSEARCHED: u32 = 0;
const BUSY: u32 = 1;
/// Searched, but the arena was full: every thread searches it again when it needs it.
const NOT_KEPT: u32 = 2;
const PUBLISHED: u32 = 3;

/// The largest overhang indexed directly (a slot per overhang, 4 bytes each, of which
/// only the pages touched are ever backed by memory).
const MAX_OVERHANG_BITS: usize = 24;

/// Words the arena can hold. It is allocated zeroed, so the operating system provides
/// only the pages written (the meteor puzzle writes about 16,000 words).
const ARENA_WORDS: usize = 1 << 24;

/// The searches above the split, memoised per overhang and shared by every thread.
///
/// The arena holds, per overhang searched, the number of its tilings and then each
/// tiling: the set of pieces it uses, then the slot of each of its steps
/// (`Step::slot`, one per piece used), in search order.
pub struct Above {
    /// The first cell of the part above: every cell before it is filled when a node
    /// crosses the split.
    split: usize,
    /// The board's cells as absolute bits.
    on_board: u64,
    /// Overhang bits: the cells from `split` that a piece anchored before it can reach.
    overhang_mask: u64,
    /// Per overhang, its state: see `UNSEARCHED` and the others.
    slots: Box<[AtomicU32]>,
    arena: Box<[AtomicU32]>,
    arena_len: AtomicUsize,
}

/// One thread's working space for [`Window::search_split`].
#[derive(Default)]
pub struct Scratch {
    /// Tilings found by the running search above, in the arena's format.
    words: Vec<u32>,
    path: Path,
    /// Nodes visited by the searches above that this thread ran.
    pub nodes: u64,
}

impl Above {
    /// An empty memo for a search of `window` split before cell `split`, or `None` if
    /// the window does not qualify (see the module docs) or the split is not inside the
    /// board.
    pub fn new<L: Lane, const K: usize>(window: &Window<L, K>, split: usize) -> Option<Above> {
        Above::with_arena(window, split, ARENA_WORDS)
    }

    /// [`Above::new`] with an arena of `words` words. Overhangs whose tilings do not fit
    /// are searched again by every node that needs them: slower, same results.
    pub fn with_arena<L: Lane, const K: usize>(
        window: &Window<L, K>,
        split: usize,
        words: usize,
    ) -> Option<Above> {
        let cells = window.cells();
        let qualifies = cells <= 64
            && split > 0
            && split < cells
            && window.copy_of_previous == 0
            && !window.leftover
            && window.pieces < 32;
        if !qualifies {
            return None;
        }
        // The highest cell a placement anchored before the split covers: overhangs hold
        // cells up to it and no further (holes beyond it are the same in every node).
        let shift = window.shift as usize;
        let mut reach = 0u64;
        for (group, (masks, &used)) in window.masks.iter().zip(window.used_slots).enumerate() {
            let offset = group / window.pieces / window.anchors;
            let anchor = offset * shift + group / window.pieces % window.anchors;
            if anchor >= split {
                continue;
            }
            for (i, mask) in masks.iter().enumerate() {
                if used >> i & 1 == 1 {
                    reach |= mask.widen() << (offset * shift);
                }
            }
        }
        let overhang_bits = (64 - reach.leading_zeros() as usize).saturating_sub(split);
        if overhang_bits > MAX_OVERHANG_BITS {
            return None;
        }
        Some(Above {
            split,
            on_board: if cells == 64 {
                u64::MAX
            } else {
                (1 << cells) - 1
            },
            overhang_mask: (1u64 << overhang_bits) - 1,
            slots: bytemuck::allocation::zeroed_slice_box(1 << overhang_bits),
            arena: bytemuck::allocation::zeroed_slice_box(words),
            arena_len: AtomicUsize::new(0),
        })
    }

    /// Where the tilings of `overhang` start in the arena, searching them first if no
    /// thread has; `None` if the arena had no room for them (they are in
    /// `scratch.words` then).
    fn tilings<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        overhang: u64,
        scratch: &mut Scratch,
    ) -> Option<usize> {
        let slot = &self.slots[overhang as usize];
        let mut state = slot.load(Ordering::Acquire);
        if state == UNSEARCHED
            && slot
                .compare_exchange(UNSEARCHED, BUSY, Ordering::Acquire, Ordering::Acquire)
                .is_ok()
        {
            self.search_above(window, overhang, scratch);
            state = self.publish(&scratch.words);
            slot.store(state, Ordering::Release);
        } else {
            let mut spins = 0u32;
            while state <= BUSY {
                // Another thread is searching this overhang; it takes microseconds.
                spins += 1;
                if spins < 256 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
                state = slot.load(Ordering::Acquire);
            }
            if state == NOT_KEPT {
                self.search_above(window, overhang, scratch);
            }
        }
        (state >= PUBLISHED).then(|| (state - PUBLISHED) as usize)
    }

    /// Copies `words` to the arena: the slot state that says where, or `NOT_KEPT`.
    fn publish(&self, words: &[u32]) -> u32 {
        let start = self.arena_len.fetch_add(words.len(), Ordering::Relaxed);
        let end = start + words.len();
        if end > self.arena.len() || start + PUBLISHED as usize > u32::MAX as usize {
            return NOT_KEPT;
        }
        for (cell, &w) in self.arena[start..end].iter().zip(words) {
            cell.store(w, Ordering::Relaxed);
        }
        PUBLISHED + start as u32
    }

    /// Every tiling of the cells above the split that `overhang` leaves free, with any
    /// pieces, in search order, into `scratch.words`.
    fn search_above<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        overhang: u64,
        scratch: &mut Scratch,
    ) {
        let shift = window.shift as usize;
        let offset = (self.split / shift).min(window.last_offset);
        // The absolute board: every cell before the split filled, then the overhang.
        let filled = (overhang << self.split) | ((1u64 << self.split) - 1);
        let node = Node {
            board: filled >> (offset * shift) | window.not_cells[offset],
            offset,
            unused: window.all_pieces(),
        };
        let mut any_pieces = *window;
        any_pieces.leftover = true;
        scratch.words.clear();
        scratch.words.push(0);
        scratch.path.clear();
        tile(&any_pieces, node, scratch);
    }
}

/// The search above: records each full board in `scratch.words`.
fn tile<L: Lane, const K: usize>(window: &Window<L, K>, node: Node, scratch: &mut Scratch) {
    scratch.nodes += 1;
    if window.is_leaf(node) {
        scratch.words[0] += 1;
        scratch.words.push(window.all_pieces() & !node.unused);
        let Scratch { words, path, .. } = scratch;
        words.extend(path.iter().map(|s| s.slot));
        return;
    }
    window.for_each_child(node, |step, child| {
        scratch.path.push(step);
        tile(window, child, scratch);
        scratch.path.pop();
        false
    });
}

impl<L: Lane, const K: usize> Window<'_, L, K> {
    /// [`Window::search`] split at the cell `above` was made for: the same solutions in
    /// the same order, with the searches north of the split shared through `above` (see
    /// the module docs). Returns `true` if the visitor stopped it.
    pub fn search_split<V: Visitor>(
        &self,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
        above: &Above,
        scratch: &mut Scratch,
    ) -> bool {
        visitor.node();
        // The board with bit `i` for cell `i`: cells south of the window read as filled.
        let south = node.offset * self.shift as usize;
        let board = (node.board << south | ((1u64 << south) - 1)) & above.on_board;
        if ((!board).trailing_zeros() as usize) < above.split {
            return self.for_each_child(node, |step, child| {
                path.push(step);
                let stop = self.search_split(child, path, visitor, above, scratch);
                path.pop();
                stop
            });
        }
        let overhang = board >> above.split & above.overhang_mask;
        match above.tilings(self, overhang, scratch) {
            Some(start) => self.complete(node, path, visitor, start, |i| {
                above.arena[i].load(Ordering::Relaxed)
            }),
            None => {
                let words = std::mem::take(&mut scratch.words);
                let stop = self.complete(node, path, visitor, 0, |i| words[i]);
                scratch.words = words;
                stop
            }
        }
    }

    /// Reports `node` completed by each tiling above (in the arena's format, read by
    /// `word` from `start`) that uses exactly its unused pieces.
    #[inline(always)]
    fn complete<V: Visitor>(
        &self,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
        start: usize,
        word: impl Fn(usize) -> u32,
    ) -> bool {
        let tilings = word(start);
        let depth = path.len();
        let mut at = start + 1;
        for _ in 0..tilings {
            let used = word(at);
            let steps = used.count_ones() as usize;
            if used == node.unused {
                for i in 0..steps {
                    path.push(self.step_of(word(at + 1 + i)));
                }
                let stop = visitor.solution(path);
                path.truncate(depth);
                if stop {
                    return true;
                }
            }
            at += 1 + steps;
        }
        false
    }
}

//! The eight-lane search: the plain search's tree ([`Window::search`]), node for node
//! and child for child in the same order, for boards with the pocket check (the cubic
//! grid), with the placements tested eight at a time (AVX-512) and an explicit stack.
//!
//! The plain search tests each unused piece's group of `K` slots in turn, then checks
//! each fit in a loop of its own; on the cubic grid its time went to the branches of
//! those loops (README, Performance). Here the placements anchored at each cell are one
//! list, padded to lanes of eight, and a node takes four passes, the first three branch-light:
//! 1. every chunk of eight in its cell's list is tested against the board and the
//!    unused pieces, one compare each, into a byte of fit bits;
//! 2. each chunk with a fit is given the pocket check, all eight lanes at once;
//! 3. its survivors are pushed on the stack in one compress and store per word, with
//!    the cells the cover check (`tables::cover`) may judge of each;
//! 4. the children just pushed are given the cover check one at a time, its chunks
//!    tested one compare each (a list's first four with no branch, from a padded copy
//!    addressed by the list's index), and the survivors moved down the stack in order.
//!
//! Checking the children in a loop of their own, after the pushes, rather than in
//! pass 2 leaves pass 2 its registers (README, Performance).
//!
//! The list is chosen by the state of the few cells after the anchor that its
//! placements cover most often (`LOOK_CELLS` of them, gathered with `pext`): a list
//! holds only the placements clear of those cells' filled ones, so a crowded node
//! tests fewer chunks. Lists hold their cell's placements in reverse search order,
//! so that what is pushed last, and so popped first, is the first child.
//!
//! This module owns the lists ([`Wide`]) and the search over them. It serves a board
//! only where the plain search takes exactly these steps: the pocket check on and the
//! island and band checks off ([`CHECK_NONE`]), one copy of each piece, no leftovers;
//! and it runs only on a CPU with AVX-512F, BMI2 and POPCNT. Elsewhere [`Wide::new`]
//! says no and the plain search runs.

use std::ops::ControlFlow;

use crate::search::{Lane, Node, Path, Step, Visitor, Window, CHECK_NONE};
use crate::tables::cover::{Chunk, Cover};

/// A cell's placements in search order: piece, table group, slot in the group, and
/// the index of the step it is.
type Entries = Vec<(usize, usize, usize, u64)>;

/// Placements per chunk: the 64-bit lanes of one AVX-512 register.
const LANES: usize = 8;

/// Chunks of each cover list kept again in a slot of its own ([`Wide::slots`]),
/// padded: nine scans in ten read no further (README, Performance).
const AHEAD: usize = 4;

/// Cells after the anchor whose state chooses the list: 16 lists a cell. Measured
/// against 0 to 6 (README, Performance): 4 and 5 were the fastest on the Bedlam cube,
/// 3 and 4 on the solid pentominoes.
const LOOK_CELLS: u32 = 4;

/// The most bytes the lists may take; past it fewer look cells are used.
const MOST_BYTES: usize = 64 << 20;

/// The most chunks one list may have: its fit bits are kept one byte a chunk.
const MOST_CHUNKS: usize = 64;

/// Bits of a stacked node's meta word that hold the index of the step that made it.
const STEP_BITS: u32 = 24;

/// The meta word's step index of a node no step made (the task's root).
const NO_STEP: u64 = (1 << STEP_BITS) - 1;

/// What the fit test reads of eight placements.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Test {
    /// The placements' masks in the window.
    mask: [u64; LANES],
    /// One bit per placement: its piece's. Zero in padding, so padding never fits.
    piece: [u64; LANES],
}

/// What a fit's pocket check and child read of eight placements.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Child {
    /// The placements' [`Delta`](crate::tables::pockets::Delta) planes.
    d0: [u64; LANES],
    d1: [u64; LANES],
    d2: [u64; LANES],
    /// The child's meta word less its unused pieces: its step's index at bit 32, its
    /// window position at bit 56.
    meta: [u64; LANES],
}

/// The placements of a board's tables as per-cell lists eight lanes wide.
#[derive(Debug)]
pub(crate) struct Wide {
    tests: Vec<Test>,
    children: Vec<Child>,
    /// Per list (`cell << look_cells | pattern`): its first chunk and its chunks.
    lists: Vec<(u32, u32)>,
    /// Per cell, its look cells as window bits.
    look: Vec<u64>,
    look_cells: u32,
    /// Per restriction (0: none, else `Node::restriction`), per chunk, its lanes that
    /// the restriction keeps.
    allowed: Vec<u8>,
    /// The step each placement index stands for.
    steps: Vec<Step>,
    /// The most placements a cell's list holds: bounds the stack.
    longest: usize,
    /// `slots[l * AHEAD ..][.. AHEAD]`: the first [`AHEAD`] chunks of the cover
    /// check's list `l` ([`Cover::list`]), padded. The cover scan tests them all with
    /// no branch, at an address it computes from `l` alone: when it first loaded the
    /// list's bounds, each scan waited on that load (README, Performance). They take
    /// `AHEAD * DIRECTIONS * 8` KiB a window position (`tables::cover::DIRECTIONS`).
    slots: Vec<Chunk>,
}

impl Wide {
    /// Whether this CPU runs the eight-lane search.
    pub fn available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The lists of `w`'s tables, if this CPU has the instructions and the eight-lane
    /// search takes the plain search's steps on `w` (see the module's documentation).
    pub fn new<L: Lane, const K: usize>(w: &Window<L, K>) -> Option<Wide> {
        // The CPU is asked last: on a virtual machine each `cpuid` the detection runs
        // traps to the host, and a planar board never needs the answer.
        if w.checks != CHECK_NONE
            || !w.pockets.on()
            || w.copies.any()
            || w.leftover
            || w.layout.pieces > 32
            || w.last_offset >= 255
            || !Wide::available()
        {
            return None;
        }
        // Every cell's placements in search order (pieces, then slots), each with its
        // step's index.
        let mut steps = Vec::new();
        let mut cells = Vec::new();
        for offset in 0..=w.last_offset {
            for anchor in 0..w.layout.anchors {
                let mut entries: Entries = Vec::new();
                for piece in 0..w.layout.pieces {
                    let group = w.layout.group(offset, anchor, piece);
                    for i in (0..K).filter(|&i| w.used_slots[group] >> i & 1 == 1) {
                        entries.push((piece, group, i, steps.len() as u64));
                        steps.push(Step::new(
                            piece as u8,
                            offset as u16,
                            w.layout.slot(group, i) as u32,
                        ));
                    }
                }
                cells.push((offset, anchor, entries));
            }
        }
        if steps.len() as u64 >= NO_STEP {
            return None;
        }
        let longest = cells.iter().map(|c| c.2.len()).max().unwrap_or(0);
        if longest.div_ceil(LANES) > MOST_CHUNKS {
            return None;
        }
        let mut look_cells = LOOK_CELLS;
        loop {
            let mut wide = Wide::lay(w, &cells, &steps, look_cells, longest);
            let bytes = wide.tests.len() * size_of::<Test>()
                + wide.children.len() * size_of::<Child>()
                + wide.allowed.len();
            if bytes <= MOST_BYTES || look_cells == 0 {
                let cover = &w.cover;
                wide.slots = (0..cover.lists())
                    .flat_map(|l| {
                        let list = cover.list(l);
                        (0..AHEAD).map(move |j| list.get(j).copied().unwrap_or(Chunk::PADDING))
                    })
                    .collect();
                return Some(wide);
            }
            look_cells -= 1;
        }
    }

    /// The lists of `cells` (offset, anchor and placements of each, in search order)
    /// chosen by `look_cells` cells each.
    fn lay<L: Lane, const K: usize>(
        w: &Window<L, K>,
        cells: &[(usize, usize, Entries)],
        steps: &[Step],
        look_cells: u32,
        longest: usize,
    ) -> Wide {
        let restrictions = 1 + w.restricted_slots.len() / w.used_slots.len().max(1);
        let mask = |group: usize, i: usize| w.masks[group][i].widen();
        let mut wide = Wide {
            tests: Vec::new(),
            children: Vec::new(),
            lists: Vec::new(),
            look: Vec::new(),
            look_cells,
            allowed: Vec::new(),
            steps: steps.to_vec(),
            longest,
            slots: Vec::new(),
        };
        let mut allowed: Vec<Vec<u8>> = vec![Vec::new(); restrictions];
        for (offset, anchor, entries) in cells {
            // The look cells: the window bits after the anchor that the cell's
            // placements cover most often (ties to the nearest).
            let mut cover = [0usize; 64];
            for &(_, group, i, _) in entries {
                let m = mask(group, i) & !(1u64 << anchor);
                for (bit, c) in cover.iter_mut().enumerate() {
                    *c += (m >> bit & 1) as usize;
                }
            }
            let mut bits: Vec<usize> = (0..64).filter(|&b| cover[b] > 0).collect();
            bits.sort_by_key(|&b| std::cmp::Reverse(cover[b]));
            bits.truncate(look_cells as usize);
            let look = bits.iter().fold(0u64, |a, &b| a | 1 << b);
            wide.look.push(look);
            for pattern in 0..1u64 << look_cells {
                // The look cells `pattern` fills (its bits in look-cell order, as
                // `pext` gathers them).
                let filled = (0..64)
                    .filter(|&b| look >> b & 1 == 1)
                    .enumerate()
                    .filter(|&(k, _)| pattern >> k & 1 == 1)
                    .fold(0u64, |a, (_, b)| a | 1 << b);
                let kept: Vec<_> = entries
                    .iter()
                    .rev()
                    .filter(|&&(_, group, i, _)| mask(group, i) & filled == 0)
                    .collect();
                let first = wide.tests.len();
                for part in kept.chunks(LANES) {
                    let (mut t, mut c) = (Test::default(), Child::default());
                    let mut lanes = vec![0u8; restrictions];
                    for (lane, &&(piece, group, i, step)) in part.iter().enumerate() {
                        t.mask[lane] = mask(group, i);
                        t.piece[lane] = 1 << piece;
                        let d = &w.pockets.deltas[w.layout.slot(group, i)];
                        (c.d0[lane], c.d1[lane], c.d2[lane]) =
                            (d.planes[0], d.planes[1], d.planes[2]);
                        c.meta[lane] = step << 32 | (*offset as u64) << 56;
                        lanes[0] |= 1 << lane;
                        for (r, l) in lanes.iter_mut().enumerate().skip(1) {
                            let block = &w.restricted_slots[(r - 1) * w.used_slots.len()..];
                            *l |= ((block[group] >> i & 1) as u8) << lane;
                        }
                    }
                    for (r, l) in lanes.into_iter().enumerate() {
                        allowed[r].push(l);
                    }
                    wide.tests.push(t);
                    wide.children.push(c);
                }
                wide.lists
                    .push((first as u32, (wide.tests.len() - first) as u32));
            }
        }
        wide.allowed = allowed.concat();
        wide
    }

    /// [`Window::search`] from `node` over these lists: the same nodes visited and
    /// solutions reported, in the same order. `path` holds the steps to `node`.
    pub fn search<L: Lane, const K: usize, V: Visitor>(
        &self,
        w: &Window<L, K>,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
    ) -> ControlFlow<()> {
        // The root's children are the first steps when a piece is placed first: the
        // plain search takes them (a task is rarely the root).
        if w.places_first(node) {
            return w.search(node, path, visitor);
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Wide::new` made these lists only where `Wide::available` found
        // every instruction set that `search_x86` enables.
        unsafe {
            self.search_x86(w, node, path, visitor)
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("Wide::new serves x86_64 only")
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,bmi1,bmi2,popcnt")]
    unsafe fn search_x86<L: Lane, const K: usize, V: Visitor>(
        &self,
        w: &Window<L, K>,
        node: Node,
        path: &mut Path,
        visitor: &mut V,
    ) -> ControlFlow<()> {
        use std::arch::x86_64::*;
        let pieces = w.layout.pieces as u32;
        let prefix = path.len();
        // `path[placed - 1]` is the step to a node with `placed` pieces placed.
        path.resize(w.most_steps().max(prefix), Step::default());
        // The stack holds at most the children of one node a level (each at most a
        // list long), and a store writes a whole chunk from the top.
        let room = 1 + w.most_steps() * self.longest + LANES;
        let mut boards = vec![0u64; room];
        let mut metas = vec![0u64; room];
        let mut judgeds = vec![0u64; room];
        boards[0] = node.board;
        metas[0] = u64::from(node.unused) | NO_STEP << 32 | u64::from(node.offset) << 56;
        let mut top = 1usize;
        // Every node below the task shares its restriction.
        let allowed = &self.allowed[usize::from(node.restriction) * self.tests.len()..];
        let south = (1u64 << w.shift) - 1;
        let lone = _mm512_set1_epi64(w.pockets.lone as i64);
        let pair = _mm512_set1_epi64(w.pockets.pair as i64);
        let north = w.pockets.north.map(|s| _mm_cvtsi64_si128(i64::from(s)));
        let flow = loop {
            if top == 0 {
                break ControlFlow::Continue(());
            }
            top -= 1;
            let (mut board, meta) = (boards[top], metas[top]);
            visitor.node();
            let unused = meta as u32;
            let placed = (pieces - unused.count_ones()) as usize;
            let step = meta >> 32 & NO_STEP;
            if step != NO_STEP {
                path[placed - 1] = self.steps[step as usize];
            }
            let mut offset = (meta >> 56) as usize;
            while board & south == south && offset < w.last_offset {
                offset += 1;
                board = board >> w.shift | w.not_cells[offset];
            }
            if board == u64::MAX {
                if unused == 0 && visitor.solution(&path[..placed]).is_break() {
                    break ControlFlow::Break(());
                }
                continue;
            }
            let anchor = (!board).trailing_zeros() as usize;
            let cell = offset * w.layout.anchors + anchor;
            // A piece that can no longer be placed leaves the node no child: then no
            // piece is a candidate, with no branch.
            let candidates = if unused & !w.placeable_from[cell] == 0 {
                unused
            } else {
                0
            };
            let pattern = _pext_u64(board, self.look[cell]) as usize;
            let (first, chunks) = self.lists[cell << self.look_cells | pattern];
            let (first, chunks) = (first as usize, chunks as usize);
            let b = _mm512_set1_epi64(board as i64);
            let pieces_v = _mm512_set1_epi64(i64::from(candidates));
            // Pass 1: the fit bits of every chunk, and which chunks have any.
            let mut fits = [0u8; MOST_CHUNKS];
            let mut any = 0u64;
            for j in 0..chunks {
                // SAFETY: the list's chunks are `first..first + chunks`, within
                // `tests` and `allowed` (made together in `lay`), and `chunks` is
                // at most `MOST_CHUNKS` (checked in `new`).
                let (t, lanes) = unsafe {
                    (
                        self.tests.get_unchecked(first + j),
                        *allowed.get_unchecked(first + j),
                    )
                };
                let m = _mm512_load_si512(t.mask.as_ptr().cast());
                let p = _mm512_load_si512(t.piece.as_ptr().cast());
                let fit =
                    _mm512_testn_epi64_mask(m, b) & _mm512_test_epi64_mask(p, pieces_v) & lanes;
                // SAFETY: `j < chunks <= MOST_CHUNKS`.
                unsafe { *fits.get_unchecked_mut(j) = fit };
                any |= u64::from(fit != 0) << j;
            }
            if any == 0 {
                continue;
            }
            // Pass 2: the pocket check of the chunks with a fit, and their children.
            // The node's free-neighbour counts are taken once (`Pockets::counts`);
            // each lane's follow by subtracting its placement's delta, as in
            // `Pockets::single_after`.
            let counts = w.pockets.counts(board, offset);
            let unused_v = _mm512_set1_epi64(i64::from(unused));
            let [c0, c1, c2] = counts.planes.map(|p| _mm512_set1_epi64(p as i64));
            let open = _mm512_set1_epi64(counts.open as i64);
            let has = [0, 1, 2].map(|k| _mm512_set1_epi64(counts.has[k] as i64));
            let checkable = _mm512_set1_epi64(if w.cover.on() {
                w.cover.checkable(offset) as i64
            } else {
                0
            });
            let pushed = top;
            while any != 0 {
                let j = any.trailing_zeros() as usize;
                any &= any - 1;
                // SAFETY: as in pass 1; `children` has an entry per test.
                let (t, c) = unsafe {
                    (
                        self.tests.get_unchecked(first + j),
                        self.children.get_unchecked(first + j),
                    )
                };
                let m = _mm512_load_si512(t.mask.as_ptr().cast());
                let p = _mm512_load_si512(t.piece.as_ptr().cast());
                let d0 = _mm512_load_si512(c.d0.as_ptr().cast());
                let d1 = _mm512_load_si512(c.d1.as_ptr().cast());
                let d2 = _mm512_load_si512(c.d2.as_ptr().cast());
                // free = !(b | m)
                let free = _mm512_ternarylogic_epi64::<0x03>(b, m, m);
                // The bit-sliced difference n = c - d; a free cell's count is at
                // least its delta. Borrows: b0 = !c0 & d0, b1 = !c1 & (d1 | b0) |
                // d1 & b0.
                let n0 = _mm512_xor_si512(c0, d0);
                let b0 = _mm512_andnot_si512(c0, d0);
                let n1 = _mm512_ternarylogic_epi64::<0x96>(c1, d1, b0);
                let b1 = _mm512_ternarylogic_epi64::<0x8E>(c1, d1, b0);
                let n2 = _mm512_ternarylogic_epi64::<0x96>(c2, d2, b1);
                let seen = _mm512_andnot_si512(open, free);
                let n12 = _mm512_or_si512(n1, n2);
                // No free neighbour; exactly one.
                let alone = _mm512_andnot_si512(_mm512_or_si512(n0, n12), seen);
                let single = _mm512_andnot_si512(n12, _mm512_and_si512(seen, n0));
                // A dead pair: a single cell with a single neighbour north of it.
                let mut pairs = _mm512_setzero_si512();
                for k in 0..3 {
                    let up = _mm512_and_si512(_mm512_srl_epi64(single, north[k]), has[k]);
                    pairs = _mm512_or_si512(pairs, up);
                }
                let dead = _mm512_or_si512(
                    _mm512_and_si512(alone, lone),
                    _mm512_and_si512(_mm512_and_si512(pairs, single), pair),
                );
                let keep = fits[j] & !_mm512_test_epi64_mask(dead, dead);
                // The cells the cover check may judge of each child.
                let judged = _mm512_and_si512(single, checkable);
                // Pass 3: the survivors on the stack, in list order (reverse search
                // order). child meta = (unused & !piece) | meta.
                let child = _mm512_or_si512(b, m);
                let em = _mm512_load_si512(c.meta.as_ptr().cast());
                let child_meta = _mm512_ternarylogic_epi64::<0xF4>(em, unused_v, p);
                debug_assert!(top + LANES <= room);
                // SAFETY: `top` is at most one plus the children pushed on each
                // level so far (one node's a level, at most `longest`, on at most
                // `most_steps` levels), so `top + LANES <= room`; `storeu` needs no
                // alignment.
                unsafe {
                    _mm512_storeu_si512(
                        boards.as_mut_ptr().add(top).cast(),
                        _mm512_maskz_compress_epi64(keep, child),
                    );
                    _mm512_storeu_si512(
                        metas.as_mut_ptr().add(top).cast(),
                        _mm512_maskz_compress_epi64(keep, child_meta),
                    );
                    _mm512_storeu_si512(
                        judgeds.as_mut_ptr().add(top).cast(),
                        _mm512_maskz_compress_epi64(keep, judged),
                    );
                }
                top += keep.count_ones() as usize;
            }
            // Pass 4: the cover check (`tables::cover`) of the children just pushed that
            // have a cell it may judge; the survivors are moved down, in order.
            let mut kept = pushed;
            for i in pushed..top {
                let (child, meta) = (boards[i], metas[i]);
                let lead = Cover::lead(child);
                let cells = lead & judgeds[i];
                let child_b = _mm512_set1_epi64(child as i64);
                let child_unused = _mm512_set1_epi64(i64::from(meta as u32));
                let dead =
                    w.cover
                        .dead_among(child, offset, &w.pockets, &counts.has, cells, |l, list| {
                            // Every chunk is tested, with no exit at the first fit: a
                            // loop as long as its list is predicted worse than none.
                            // The slot's `AHEAD` chunks are tested with no branch and
                            // no wait for the list's bounds; the rest, of few lists,
                            // in a loop.
                            let test = |c: &Chunk| {
                                let m = _mm512_load_si512(c.mask.as_ptr().cast());
                                let p = _mm512_load_si512(c.piece.as_ptr().cast());
                                _mm512_testn_epi64_mask(m, child_b)
                                    & _mm512_test_epi64_mask(p, child_unused)
                            };
                            // SAFETY: `slots` holds `AHEAD` chunks for each of the
                            // cover's lists (made in `new`), and `l` is one of them.
                            let slot = unsafe {
                                &*self.slots.as_ptr().add(l * AHEAD).cast::<[Chunk; AHEAD]>()
                            };
                            let mut fit = 0;
                            for c in slot {
                                fit |= test(c);
                            }
                            for c in list.get(AHEAD..).unwrap_or_default() {
                                fit |= test(c);
                            }
                            fit != 0
                        });
                boards[kept] = child;
                metas[kept] = meta;
                kept += usize::from(!dead);
            }
            top = kept;
        };
        path.truncate(prefix);
        flow
    }
}

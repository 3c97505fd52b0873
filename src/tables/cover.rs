//! The cover check: a child is dropped when a free cell just after its lowest one,
//! walled in on every side but one, can be covered by no placement that is left (no
//! placement of an unused piece that avoids every filled cell).
//!
//! Filling the lowest free cell first leaves a ragged front on the cubic grid: the
//! cells just north of what is filled are hemmed in by pieces on several sides, and
//! one of them often has no placement left long before the search reaches it; the
//! subtree in between is wasted. The pocket check finds such a cell only when it is
//! walled in alone or with one other. This check looks at the free cells in the
//! [`SPAN`] window bits from the lowest one, and at those of them with exactly one free
//! neighbour (most dead cells have one, and their lists are short): every placement
//! that covers such a cell covers that neighbour and none of the cell's others. So
//! each cell has a list per direction of its free neighbour, in chunks of eight for the
//! eight-lane search, anchored highest first (those reach north, where the cells are
//! mostly free, so the first chunk usually has one that fits). The plain search stops
//! a cell's scan at the first fit; the eight-lane search tests the whole list, which
//! its branch predictor takes better (README, Performance).
//!
//! Both searches judge a child in its parent, at the parent's window position, from
//! the free-neighbour counts the pocket check has just taken of it
//! ([`Cover::dead_child`]): a dead child is never entered, pushed or counted as a node.
//!
//! The lists are the tables' own placements: one that island pruning dropped takes
//! part in no solution of the search, so the check is exact for the search's tree. It
//! never removes a solution: a cell that nothing left covers is a cell no completion
//! covers. It is on where the pocket check is, whose free-neighbour counts it reads.

use super::pockets::{neighbours_in, Counts, PocketTables, Pockets, SIDE_STEPS};
use super::TableLayout;

/// Window bits from a node's lowest free cell (that one included) whose free cells the
/// check looks at: two layers of a 4 x 4 box, the Bedlam cube's, and more of narrower
/// ones. Farther looks prune little more (README, Performance).
pub const SPAN: u32 = 32;

/// Entries per chunk: the 64-bit lanes of one AVX-512 register.
pub const LANES: usize = 8;

/// Directions of the lattice the lists are kept by: those of the pocket check.
pub const DIRECTIONS: usize = 2 * SIDE_STEPS;

/// Eight entries of a list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Chunk {
    /// The placements' cells as window bits of the list's window position; all ones
    /// in padding, so padding never fits.
    pub mask: [u64; LANES],
    /// The placement's piece's bit in a node's unused pieces; zero in padding.
    pub piece: [u64; LANES],
}

impl Chunk {
    /// Eight lanes of padding.
    pub const PADDING: Chunk = Chunk {
        mask: [u64::MAX; LANES],
        piece: [0; LANES],
    };
}

/// The cover lists of a board, owned; [`Cover`] is the search's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoverTables {
    /// `starts[l] .. starts[l + 1]`: the chunks of list `l = (offset * 64 + bit) *
    /// DIRECTIONS + k`, the placements that cover window bit `bit` at window position
    /// `offset` and, of its neighbours, at most the one in direction `k` (the pocket
    /// check's directions: its `north` ones, then its `south` ones).
    pub starts: Vec<u32>,
    /// The lists' entries, eight to a chunk, padded.
    pub chunks: Vec<Chunk>,
    /// Per window position, the window bits whose every covering placement lies inside
    /// the window there: the cells the check may judge.
    pub checkable: Vec<u64>,
}

impl CoverTables {
    /// The lists of the placements of tables laid out by `layout` (masks `masks`,
    /// `counts` per group), over `offsets` window positions moving `shift` cells at a
    /// time, by the directions of `pockets`; empty (the check off) where the pocket
    /// check is off.
    pub fn new(
        layout: &TableLayout,
        masks: &[u64],
        counts: &[u8],
        offsets: usize,
        shift: usize,
        pockets: &PocketTables,
    ) -> CoverTables {
        if pockets.has.is_empty() {
            return CoverTables::default();
        }
        let mut t = CoverTables {
            starts: vec![0],
            checkable: vec![u64::MAX; offsets],
            ..CoverTables::default()
        };
        // Reused from one window position to the next.
        let mut lists: Vec<Vec<(u64, u32)>> = vec![Vec::new(); 64 * DIRECTIONS];
        let mut here: Vec<(u8, u64, u32)> = Vec::new();
        for offset in 0..offsets {
            // (anchor bit, mask, piece) of every placement anchored in the window.
            here.clear();
            for group in 0..counts.len() {
                let (at, anchor, piece) = layout.place(group);
                if at < offset || (at - offset) * shift + anchor >= 64 {
                    continue;
                }
                let by = (at - offset) * shift;
                for i in 0..usize::from(counts[group]) {
                    let mask = masks[layout.slot(group, i)];
                    if by > 0 && mask.leading_zeros() < by as u32 {
                        // Part of it lies north of the window: the cells it covers
                        // inside cannot be judged here.
                        t.checkable[offset] &= !(mask << by);
                        continue;
                    }
                    here.push(((by + anchor) as u8, mask << by, 1 << piece));
                }
            }
            here.sort_by_key(|e| std::cmp::Reverse(e.0));
            let has = &pockets.has[offset];
            // A placement is in the lists of each of its cells under the direction of
            // the one neighbour of the cell it also covers, or under every direction
            // if it covers none (a piece in parts); kept in anchor order.
            for list in &mut lists {
                list.clear();
            }
            for &(_, mask, piece) in &here {
                // Per direction, the window bits whose neighbour that way it covers.
                let covered = neighbours_in(mask, &pockets.north, &pockets.south, has);
                let mut rest = mask;
                while rest != 0 {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    // The directions of the cell's neighbours the placement covers.
                    let inside = (0..DIRECTIONS)
                        .fold(0u32, |m, k| m | ((covered[k] >> bit & 1) as u32) << k);
                    let directions = match inside.count_ones() {
                        0 => 0..DIRECTIONS,
                        1 => inside.trailing_zeros() as usize..inside.trailing_zeros() as usize + 1,
                        _ => continue,
                    };
                    for k in directions {
                        lists[bit * DIRECTIONS + k].push((mask, piece));
                    }
                }
            }
            for list in &lists {
                for part in list.chunks(LANES) {
                    let mut c = Chunk::PADDING;
                    for (lane, &(mask, piece)) in part.iter().enumerate() {
                        c.mask[lane] = mask;
                        c.piece[lane] = u64::from(piece);
                    }
                    t.chunks.push(c);
                }
                t.starts.push(t.chunks.len() as u32);
            }
        }
        t
    }
}

/// The search's view of [`CoverTables`]: `starts` empty when the check is off.
#[derive(Clone, Copy, Debug)]
pub struct Cover<'t> {
    /// [`CoverTables::starts`].
    starts: &'t [u32],
    /// [`CoverTables::chunks`].
    chunks: &'t [Chunk],
    /// [`CoverTables::checkable`].
    checkable: &'t [u64],
}

impl<'t> Cover<'t> {
    /// The check off.
    pub const NONE: Cover<'static> = Cover {
        starts: &[],
        chunks: &[],
        checkable: &[],
    };

    /// The view of `t`.
    pub fn new(t: &'t CoverTables) -> Cover<'t> {
        Cover {
            starts: &t.starts,
            chunks: &t.chunks,
            checkable: &t.checkable,
        }
    }

    /// Its lists: each [`Cover::list`] is an index below this.
    pub fn lists(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The chunks of list `l`: of the window bit and direction [`Cover::dead_among`]
    /// gives with it ([`CoverTables::starts`]).
    pub fn list(&self, l: usize) -> &'t [Chunk] {
        &self.chunks[self.starts[l] as usize..self.starts[l + 1] as usize]
    }

    /// Whether the check is on.
    #[inline(always)]
    pub fn on(&self) -> bool {
        !self.starts.is_empty()
    }

    /// The free cells of `board` (window bits, set = filled) in the [`SPAN`] bits from
    /// its lowest free one: a mask from the lowest free bit up, by a shift and a
    /// subtraction.
    #[inline(always)]
    pub fn lead(board: u64) -> u64 {
        let free = !board;
        let low = free & free.wrapping_neg();
        free & (low << SPAN).wrapping_sub(low)
    }

    /// The cells the check may judge at window position `offset`, of those with
    /// exactly one free neighbour and none north of the window: those whose covering
    /// placements all lie in the window.
    #[inline(always)]
    pub fn checkable(&self, offset: usize) -> u64 {
        self.checkable[offset]
    }

    /// Whether a free cell of [`Cover::lead`] of `board` (window bits, set = filled) at
    /// window position `offset`, with exactly one free neighbour, none north of the
    /// window, and [`Cover::checkable`], can be covered by no placement of the pieces
    /// in `unused`; `counts` are the node's ([`Pockets::counts`]).
    #[inline(always)]
    pub fn dead(
        &self,
        board: u64,
        offset: usize,
        unused: u32,
        pockets: &Pockets,
        counts: &Counts,
    ) -> bool {
        let [c0, c1, c2] = counts.planes;
        let single = !board & c0 & !c1 & !c2 & !counts.open;
        self.dead_child(board, offset, unused, pockets, &counts.has, single)
    }

    /// [`Cover::dead`] of a child at its parent's window position `offset`, from what
    /// the parent's pocket check found of it: `single`, its free cells with one free
    /// neighbour and none north of the window ([`Pockets::single_after`]). `has` are
    /// the parent's [`Counts::has`].
    #[inline(always)]
    pub fn dead_child(
        &self,
        child: u64,
        offset: usize,
        unused: u32,
        pockets: &Pockets,
        has: &[u64; DIRECTIONS],
        single: u64,
    ) -> bool {
        let judged = single & self.checkable[offset];
        if judged == 0 {
            return false;
        }
        let unused = u64::from(unused);
        self.dead_among(
            child,
            offset,
            pockets,
            has,
            judged & Cover::lead(child),
            |_, list| {
                list.iter().any(|c| {
                    (0..LANES).fold(false, |a, l| {
                        a | (c.piece[l] & unused != 0) & (c.mask[l] & child == 0)
                    })
                })
            },
        )
    }

    /// Whether one of `cells` (of [`Cover::lead`], judged as in [`Cover::dead`]) of
    /// `board` at window position `offset` can be covered by nothing left, with the
    /// test of a list given: whether one of its chunks' placements is of an unused
    /// piece and avoids the filled cells. The test is given the list's index (as in
    /// [`Cover::list`]) and its chunks. `has` are [`Counts::has`] at `offset`.
    #[inline(always)]
    pub fn dead_among(
        &self,
        board: u64,
        offset: usize,
        pockets: &Pockets,
        has: &[u64; DIRECTIONS],
        mut cells: u64,
        fits: impl Fn(usize, &[Chunk]) -> bool,
    ) -> bool {
        if cells == 0 {
            return false;
        }
        // The direction of a judged cell's free neighbour, in three bit planes.
        let d = neighbours_in(!board, &pockets.north, &pockets.south, has);
        let planes = [d[1] | d[3] | d[5], d[2] | d[3], d[4] | d[5]];
        let base = offset * 64;
        while cells != 0 {
            let bit = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let k = (0..3).fold(0, |k, j| k | (planes[j] >> bit & 1) << j) as usize;
            let l = (base + bit) * DIRECTIONS + k;
            let (from, to) = (self.starts[l] as usize, self.starts[l + 1] as usize);
            // SAFETY: `starts` index `chunks`: `from <= to <= chunks.len()`.
            if !fits(l, unsafe { self.chunks.get_unchecked(from..to) }) {
                return true;
            }
        }
        false
    }
}

//! The pocket check: free cells that no piece can cover because they are walled in
//! alone, or two together, by whatever fills the board around them.
//!
//! The island check of the tables judges the regions one placement cuts off together
//! with the cells below its anchor. On the cubic grid that is rarely a closed region:
//! the layer above is open. A cube walled in on all six sides by several placements,
//! anchored at different cells, is only found when the search reaches it, a layer
//! later. This check finds such pockets at once, on the whole window, with shifts: for
//! each direction of the lattice in which a neighbour is a fixed number of cells away
//! in the board's cell order, the window bits that have a neighbour there.
//!
//! A node's children are checked together: the node's free cells' counts of free
//! neighbours are taken once ([`Pockets::counts`]), and each child's follow by
//! subtracting what its placement covers ([`Delta`], one per table slot), so that a
//! child costs one shift per northern direction (for the pairs): most fits are
//! checked, and most of them die here.
//!
//! The generator turns it on for the cubic grid only: beside the band table of planar
//! boards it measured slower (`generate.rs` says by how much).

use super::TableLayout;
use crate::grid::Board;

/// Directions of the lattice as offsets in cell order the check handles on each side
/// (north, later in cell order, and south): a cubic board's neighbours lie at 3 each
/// way (a square or triangle board's at 2 or fewer; a hex board's at 4, where the
/// check is off, as on every planar board).
pub const SIDE_STEPS: usize = 3;

/// Per direction `k` (the `north` ones, then the `south` ones, as in
/// [`PocketTables::has`]), the window bits whose neighbour that way is in `cells`
/// (window bits) and inside the window: one shift of the whole window a direction.
#[inline(always)]
pub fn neighbours_in(
    cells: u64,
    north: &[u32; SIDE_STEPS],
    south: &[u32; SIDE_STEPS],
    has: &[u64; 2 * SIDE_STEPS],
) -> [u64; 2 * SIDE_STEPS] {
    let mut d = [0u64; 2 * SIDE_STEPS];
    for k in 0..SIDE_STEPS {
        d[k] = cells >> north[k] & has[k];
        d[SIDE_STEPS + k] = cells << south[k] & has[SIDE_STEPS + k];
    }
    d
}

/// The pocket tables of a board, owned; [`Pockets`] is the search's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PocketTables {
    /// Per direction `k < SIDE_STEPS` with a neighbour `d > 0` cells later in cell
    /// order, `d`: the free cells shifted right by it hold, at bit `c`, cell `c + d`.
    /// Unused directions shift by 0 and have no bits in `has`.
    pub north: [u32; SIDE_STEPS],
    /// The same for neighbours `d` cells earlier, as left shifts.
    pub south: [u32; SIDE_STEPS],
    /// `has[offset][k]`: window bits at that window position whose neighbour in
    /// direction `k` (the `north` ones, then the `south` ones) is a board cell inside
    /// the window.
    pub has: Vec<[u64; 2 * SIDE_STEPS]>,
    /// `open[offset]`: window bits with a board neighbour north of the window, which
    /// the check cannot see and so takes as free.
    pub open: Vec<u64>,
    /// Bit 0: a lone free cell is dead (no piece has one cell); bit 1: two free cells
    /// walled in together are dead (no set of pieces covers two).
    pub dead_sizes: u8,
    /// Per table slot (`TableLayout::slot`), the placement's [`Delta`]: how many
    /// neighbours each window cell outside it has in it. Empty until
    /// [`PocketTables::add_deltas`].
    pub deltas: Vec<Delta>,
}

/// Per window cell outside a placement, how many of its neighbours the placement
/// covers, bit-sliced: bit `c` of `planes[j]` is bit `j` of cell `c`'s count. At most
/// 6 on every grid here (a cell has at most 6 neighbours), so 3 planes hold it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    pub planes: [u64; 3],
}

impl Delta {
    /// The delta of the placement covering window bits `mask` at window position
    /// `offset`, on `board` with a window that moves `shift` cells at a time.
    #[cfg(test)]
    pub fn of(board: &Board, shift: usize, offset: usize, mask: u64) -> Delta {
        Delta::by(
            |cell| board.neighbours(cell).collect::<Vec<_>>(),
            offset * shift,
            mask,
        )
    }

    /// [`Delta::of`] with the board's neighbours given per cell, for a window starting
    /// at cell `base`.
    fn by<N: AsRef<[usize]>>(neighbours: impl Fn(usize) -> N, base: usize, mask: u64) -> Delta {
        let mut planes = [0u64; 3];
        let mut rest = mask;
        while rest != 0 {
            let cell = base + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for &n in neighbours(cell).as_ref() {
                if n >= base && n - base < 64 && mask >> (n - base) & 1 == 0 {
                    // Add one to the bit-sliced count of window bit `n - base`.
                    let mut carry = 1u64 << (n - base);
                    for plane in planes.iter_mut() {
                        let next = *plane & carry;
                        *plane ^= carry;
                        carry = next;
                    }
                }
            }
        }
        Delta { planes }
    }
}

impl PocketTables {
    /// The tables for `board` with a window that moves `shift` cells at a time, over
    /// `offsets` positions, for pieces that can fill the sizes in `fillable` (bit `n`:
    /// `n` cells). Empty (the check off) when neither a lone cell nor a pair is dead,
    /// or the neighbours lie at more than [`SIDE_STEPS`] offsets on a side.
    pub fn new(board: &Board, shift: usize, offsets: usize, fillable: u64) -> PocketTables {
        let dead_sizes = (fillable >> 1 & 1 == 0) as u8 | ((fillable >> 2 & 1 == 0) as u8) << 1;
        if dead_sizes == 0 {
            return PocketTables::default();
        }
        let ncells = board.cells.len();
        // Neighbour offsets, north ones (positive) first, each side in its own order.
        let (mut north, mut south): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for cell in (0..ncells).filter(|&c| board.has(c)) {
            for n in board.neighbours(cell) {
                let (side, d) = if n > cell {
                    (&mut north, n - cell)
                } else {
                    (&mut south, cell - n)
                };
                if !side.contains(&d) {
                    side.push(d);
                }
            }
        }
        if north.len() > SIDE_STEPS || south.len() > SIDE_STEPS {
            return PocketTables::default();
        }
        // So a cell has at most 2 * SIDE_STEPS = 6 neighbours: its counts fit the 3
        // bits of `Delta` and `Counts`.
        north.sort_unstable();
        south.sort_unstable();
        let direction = |n: usize, cell: usize| -> usize {
            if n > cell {
                north
                    .iter()
                    .position(|&d| d == n - cell)
                    .expect("listed above")
            } else {
                SIDE_STEPS
                    + south
                        .iter()
                        .position(|&d| d == cell - n)
                        .expect("listed above")
            }
        };
        let mut has = vec![[0u64; 2 * SIDE_STEPS]; offsets];
        let mut open = vec![0u64; offsets];
        for offset in 0..offsets {
            let base = offset * shift;
            for bit in 0..64 {
                let cell = base + bit;
                if cell >= ncells || !board.has(cell) {
                    continue;
                }
                for n in board.neighbours(cell) {
                    // Cells south of the window are filled (the window only moves
                    // north over full rows): never a free neighbour.
                    if n < base {
                        continue;
                    }
                    if n - base >= 64 {
                        open[offset] |= 1 << bit;
                        continue;
                    }
                    has[offset][direction(n, cell)] |= 1 << bit;
                }
            }
        }
        let fixed = |v: &[usize]| {
            let mut out = [0u32; SIDE_STEPS];
            for (o, &d) in out.iter_mut().zip(v) {
                *o = d as u32;
            }
            out
        };
        PocketTables {
            north: fixed(&north),
            south: fixed(&south),
            has,
            open,
            dead_sizes,
            deltas: Vec::new(),
        }
    }

    /// Fills [`PocketTables::deltas`] for the table slots laid out by `layout`, whose
    /// masks are `masks` and whose groups hold `counts` placements each (the others
    /// are empty and get none).
    pub fn add_deltas(
        &mut self,
        board: &Board,
        shift: usize,
        layout: &TableLayout,
        masks: &[u64],
        counts: &[u8],
    ) {
        if self.has.is_empty() {
            return;
        }
        let neighbours: Vec<Vec<usize>> = (0..board.cells.len())
            .map(|cell| board.neighbours(cell).collect())
            .collect();
        self.deltas = masks
            .iter()
            .enumerate()
            .map(|(slot, &mask)| {
                let group = layout.group_of(slot);
                if slot % layout.slots < usize::from(counts[group]) {
                    let offset = layout.place(group).0;
                    Delta::by(|cell| &neighbours[cell], offset * shift, mask)
                } else {
                    Delta::default()
                }
            })
            .collect();
    }
}

/// The search's view of [`PocketTables`]: `has` empty when the check is off.
#[derive(Clone, Copy, Debug)]
pub struct Pockets<'t> {
    /// [`PocketTables::north`].
    pub north: [u32; SIDE_STEPS],
    /// [`PocketTables::south`].
    pub south: [u32; SIDE_STEPS],
    /// [`PocketTables::has`].
    pub has: &'t [[u64; 2 * SIDE_STEPS]],
    /// [`PocketTables::open`].
    pub open: &'t [u64],
    /// [`PocketTables::deltas`].
    pub deltas: &'t [Delta],
    /// All ones when a lone free cell is dead, else zero.
    pub lone: u64,
    /// All ones when two free cells walled in together are dead, else zero.
    pub pair: u64,
}

impl<'t> Pockets<'t> {
    /// The check off.
    pub const NONE: Pockets<'static> = Pockets {
        north: [0; SIDE_STEPS],
        south: [0; SIDE_STEPS],
        has: &[],
        open: &[],
        deltas: &[],
        lone: 0,
        pair: 0,
    };

    /// The view of `t`.
    pub fn new(t: &'t PocketTables) -> Pockets<'t> {
        Pockets {
            north: t.north,
            south: t.south,
            has: &t.has,
            open: &t.open,
            deltas: &t.deltas,
            lone: 0u64.wrapping_sub(u64::from(t.dead_sizes & 1)),
            pair: 0u64.wrapping_sub(u64::from(t.dead_sizes >> 1 & 1)),
        }
    }

    /// Whether the check is on.
    #[inline(always)]
    pub fn on(&self) -> bool {
        !self.has.is_empty()
    }

    /// The free-neighbour counts of the free cells of `board` (window bits, set =
    /// filled) at window position `offset`, for [`Pockets::single_after`]: once per node,
    /// shared by its children.
    #[inline(always)]
    pub fn counts(&self, board: u64, offset: usize) -> Counts {
        let free = !board;
        let has = &self.has[offset];
        let (mut c0, mut c1, mut c2) = (0u64, 0u64, 0u64);
        let mut add = |n: u64| {
            let carry0 = c0 & n;
            c0 ^= n;
            let carry1 = c1 & carry0;
            c1 ^= carry0;
            c2 |= carry1;
        };
        for n in neighbours_in(free, &self.north, &self.south, has) {
            add(n);
        }
        Counts {
            planes: [c0, c1, c2],
            open: self.open[offset],
            has: *has,
        }
    }

    /// Whether `board | placed` (window bits, set = filled) has a free cell walled in
    /// alone, or two walled in together, where that is dead: then `None`; else its free
    /// cells with exactly one free neighbour and none north of the window (`single`),
    /// those the cover check judges (`tables::cover`). `counts` are `board`'s at its
    /// window position ([`Pockets::counts`]), `delta` is the placement's, and `placed`
    /// is free in `board`. Each free cell's count less the neighbours the placement
    /// covers tells the lone cells and the single ones; a pair is two single cells side
    /// by side, found with one shift per northern direction.
    #[inline(always)]
    pub fn single_after(
        &self,
        counts: &Counts,
        board: u64,
        placed: u64,
        delta: &Delta,
    ) -> Option<u64> {
        let free = !(board | placed);
        let [c0, c1, c2] = counts.planes;
        let [d0, d1, d2] = delta.planes;
        // Bit-sliced subtraction; a free cell's count is at least its delta.
        let n0 = c0 ^ d0;
        let b0 = !c0 & d0;
        let n1 = c1 ^ d1 ^ b0;
        let b1 = !c1 & (d1 | b0) | d1 & b0;
        let n2 = c2 ^ d2 ^ b1;
        let seen = free & !counts.open;
        let lone = seen & !(n0 | n1 | n2);
        let single = seen & n0 & !(n1 | n2);
        // A dead pair is two single cells side by side; its southern cell (the
        // earlier in cell order) is single with a single neighbour north of it, so the
        // northern directions find every pair, once.
        let mut pair = 0u64;
        // `has` holds the northern directions first.
        for (&step, &has) in self.north.iter().zip(&counts.has) {
            pair |= single >> step & has;
        }
        (lone & self.lone | pair & single & self.pair == 0).then_some(single)
    }
}

/// Free-neighbour counts of a node's free cells ([`Pockets::counts`]), bit-sliced as
/// in [`Delta`], and the cells with a neighbour north of the window (never walled in).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub planes: [u64; 3],
    pub open: u64,
    /// [`PocketTables::has`] at the node's window position, read by every child.
    pub has: [u64; 2 * SIDE_STEPS],
}

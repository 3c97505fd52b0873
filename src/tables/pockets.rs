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
//! The generator turns it on for the cubic grid only: beside the band table of planar
//! boards it measured slower (`generate.rs` says by how much).

use crate::grid::Board;

/// Directions of the lattice as offsets in cell order the check handles; enough for
/// every grid here (a hex or triangle board's neighbours lie at up to 8 offsets).
pub const MAX_STEPS: usize = 8;

/// The pocket tables of a board, owned; [`Pockets`] is the search's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PocketTables {
    /// Per direction `k`, the neighbour's offset in cell order as a right shift and a
    /// left shift of the free cells, one of them zero: the free cells moved so that
    /// bit `c` holds cell `c + offset`.
    pub steps: [(u32, u32); MAX_STEPS],
    /// `has[offset][k]`: window bits at that window position whose neighbour in
    /// direction `k` is a board cell inside the window.
    pub has: Vec<[u64; MAX_STEPS]>,
    /// `open[offset]`: window bits with a board neighbour north of the window, which
    /// the check cannot see and so takes as free.
    pub open: Vec<u64>,
    /// Bit 0: a lone free cell is dead (no piece has one cell); bit 1: two free cells
    /// walled in together are dead (no set of pieces covers two).
    pub dead_sizes: u8,
}

impl PocketTables {
    /// The tables for `board` with a window that moves `shift` cells at a time, over
    /// `offsets` positions, for pieces that can fill the sizes in `fillable` (bit `n`:
    /// `n` cells). Empty (the check off) when neither a lone cell nor a pair is dead,
    /// or the neighbours lie at more than [`MAX_STEPS`] offsets.
    pub fn new(board: &Board, shift: usize, offsets: usize, fillable: u64) -> PocketTables {
        let dead_sizes = (fillable >> 1 & 1 == 0) as u8 | ((fillable >> 2 & 1 == 0) as u8) << 1;
        if dead_sizes == 0 {
            return PocketTables::default();
        }
        let ncells = board.cells.len();
        let mut deltas: Vec<isize> = Vec::new();
        for cell in (0..ncells).filter(|&c| board.has(c)) {
            for n in board.neighbours(cell) {
                let d = n as isize - cell as isize;
                if !deltas.contains(&d) {
                    deltas.push(d);
                }
            }
        }
        if deltas.len() > MAX_STEPS {
            return PocketTables::default();
        }
        deltas.sort_unstable();
        let mut steps = [(0, 0); MAX_STEPS];
        for (k, &d) in deltas.iter().enumerate() {
            steps[k] = if d > 0 {
                (d as u32, 0)
            } else {
                (0, d.unsigned_abs() as u32)
            };
        }
        let mut has = vec![[0u64; MAX_STEPS]; offsets];
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
                    let d = n as isize - cell as isize;
                    let k = deltas.iter().position(|&x| x == d).expect("listed above");
                    has[offset][k] |= 1 << bit;
                }
            }
        }
        PocketTables {
            steps,
            has,
            open,
            dead_sizes,
        }
    }
}

/// The search's view of [`PocketTables`]: `has` empty when the check is off.
#[derive(Clone, Copy, Debug)]
pub struct Pockets<'t> {
    /// [`PocketTables::steps`].
    pub steps: [(u32, u32); MAX_STEPS],
    /// [`PocketTables::has`].
    pub has: &'t [[u64; MAX_STEPS]],
    /// [`PocketTables::open`].
    pub open: &'t [u64],
    /// All ones when a lone free cell is dead, else zero.
    pub lone: u64,
    /// All ones when two free cells walled in together are dead, else zero.
    pub pair: u64,
}

impl<'t> Pockets<'t> {
    /// The check off.
    pub const NONE: Pockets<'static> = Pockets {
        steps: [(0, 0); MAX_STEPS],
        has: &[],
        open: &[],
        lone: 0,
        pair: 0,
    };

    /// The view of `t`.
    pub fn new(t: &'t PocketTables) -> Pockets<'t> {
        Pockets {
            steps: t.steps,
            has: &t.has,
            open: &t.open,
            lone: 0u64.wrapping_sub(u64::from(t.dead_sizes & 1)),
            pair: 0u64.wrapping_sub(u64::from(t.dead_sizes >> 1 & 1)),
        }
    }

    /// Whether the check is on.
    #[inline(always)]
    pub fn on(&self) -> bool {
        !self.has.is_empty()
    }

    /// Whether `board` (window bits, set = filled) at window position `offset` has a
    /// free cell walled in alone, or two walled in together, where that is dead. Only
    /// called when the check is on. Not inlined: inlined, its code in the search's
    /// child loop cost the planar searches, which never call it, about 7%.
    #[inline(never)]
    pub fn dead(&self, board: u64, offset: usize) -> bool {
        let free = !board;
        let has = &self.has[offset];
        // Per free cell: whether it has one free neighbour (`one`), or more (`more`;
        // a neighbour the window cannot see counts as more).
        let (mut one, mut more) = (0u64, self.open[offset]);
        for (k, &(right, left)) in self.steps.iter().enumerate() {
            let n = (free >> right) << left & has[k];
            more |= one & n;
            one |= n;
        }
        let lone = free & !one & !more;
        let single = free & one & !more;
        let mut pair = 0u64;
        for (k, &(right, left)) in self.steps.iter().enumerate() {
            pair |= (single >> right) << left & has[k];
        }
        (lone & self.lone | pair & single & self.pair) != 0
    }
}

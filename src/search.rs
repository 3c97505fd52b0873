//! The exact-cover search over window tables: lowest free cell first, the board kept as
//! one `u64` window that moves north whenever its first row pair is full.
//!
//! The search knows masks and nothing else: no grids, files or output formats. A
//! [`Visitor`] receives each solution as the list of [`Step`]s that built it.
//!
//! # Invariants
//! - Every cell south of the lowest free cell is filled (that is what "lowest" means),
//!   so a placement anchored there never has to look south.
//! - When the search visits a node, bit `i` of `board` is cell `offset * shift + i`;
//!   the window only ever moves north, by whole shifts, between nodes.
//! - A piece is placed at most once: `unused` holds one bit per piece still free.

use crate::tables::generate::{Placement, Tables};

/// A borrowed view of placement tables, as the search reads them.
#[derive(Clone, Copy, Debug)]
pub struct Window<'t> {
    pub placements: &'t [Placement],
    pub starts: &'t [u32],
    pub anchors: usize,
    pub pieces: usize,
    /// Cells the window moves at a time (`shift_rows * width`).
    pub shift: u32,
    /// Bit `n` set when `n` free cells can be filled; read at each island check.
    pub fillable: u64,
}

impl<'t> Window<'t> {
    pub fn new(t: &'t Tables) -> Window<'t> {
        Window {
            placements: &t.placements,
            starts: &t.starts,
            anchors: t.anchors,
            pieces: t.pieces,
            shift: (t.shift_rows * t.width) as u32,
            fillable: t.fillable,
        }
    }

    /// The cells the window must hold before it may move: its first `shift` bits.
    #[inline(always)]
    fn south_rows(&self) -> u64 {
        (1u64 << self.shift) - 1
    }

    /// Calls `f` for each placement that fits the node `(board, offset, unused)`: its
    /// step and the child node. Stops early when `f` returns `true`, and says so.
    #[inline(always)]
    pub fn for_each_child(
        &self,
        node: Node,
        mut f: impl FnMut(Step, Node) -> bool,
    ) -> bool {
        let Node {
            mut board,
            mut offset,
            unused,
        } = node;
        let south = self.south_rows();
        while board & south == south {
            board >>= self.shift;
            offset += 1;
        }
        let anchor = (!board).trailing_zeros() as usize;
        let row = (offset * self.anchors + anchor) * self.pieces;
        let mut rest = unused;
        while rest != 0 {
            let piece = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let lo = self.starts[row + piece] as usize;
            let hi = self.starts[row + piece + 1] as usize;
            for (i, p) in self.placements[lo..hi].iter().enumerate() {
                let free_island_cells = (p.islands & !board).count_ones();
                if p.mask & board == 0 && self.fillable >> free_island_cells & 1 != 0 {
                    let step = Step {
                        piece: piece as u8,
                        offset: offset as u8,
                        placement: (lo + i) as u32,
                    };
                    let child = Node {
                        board: board | p.mask,
                        offset,
                        unused: unused & !(1 << piece),
                    };
                    if f(step, child) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Depth-first search from `node`, reporting solutions to `visitor` in a fixed
    /// order (pieces by index, then table order). Returns `true` if the visitor stopped
    /// it.
    pub fn search<V: Visitor>(&self, node: Node, path: &mut Path, visitor: &mut V) -> bool {
        self.search_from(node, path, visitor)
    }

    fn search_from<V: Visitor>(&self, node: Node, path: &mut Path, visitor: &mut V) -> bool {
        visitor.node();
        if node.unused == 0 {
            return visitor.solution(path);
        }
        self.for_each_child(node, |step, child| {
            path.push(step);
            let stop = self.search_from(child, path, visitor);
            path.pop();
            stop
        })
    }

    /// The nodes `depth` placements below `node`, each with the steps that lead to it,
    /// in search order. Searching each in turn visits the solutions in the same order as
    /// one search from `node`. Solutions shallower than `depth` are returned as nodes
    /// with no unused piece.
    pub fn frontier(&self, node: Node, path: &Path, depth: usize) -> Vec<(Node, Path)> {
        let mut out = Vec::new();
        let mut path = path.clone();
        self.frontier_into(node, &mut path, depth, &mut out);
        out
    }

    fn frontier_into(&self, node: Node, path: &mut Path, depth: usize, out: &mut Vec<(Node, Path)>) {
        if depth == 0 || node.unused == 0 {
            out.push((node, path.clone()));
            return;
        }
        self.for_each_child(node, |step, child| {
            path.push(step);
            self.frontier_into(child, path, depth - 1, out);
            path.pop();
            false
        });
    }
}

/// A search node: the window, where it sits, and the pieces still to place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub board: u64,
    pub offset: usize,
    pub unused: u32,
}

impl Node {
    /// The empty board with `pieces` pieces to place.
    pub fn root(pieces: usize) -> Node {
        Node {
            board: 0,
            offset: 0,
            unused: if pieces >= 32 {
                u32::MAX
            } else {
                (1 << pieces) - 1
            },
        }
    }
}

/// One placed piece: which piece, the window offset it was placed at, and the index of
/// its placement in the tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    pub piece: u8,
    pub offset: u8,
    pub placement: u32,
}

/// The steps from the root to a node; never longer than the 32 pieces `unused` holds.
pub type Path = arrayvec::ArrayVec<Step, 32>;

/// What the search reports to.
pub trait Visitor {
    /// Called at every node; count here for `--stats`.
    #[inline(always)]
    fn node(&mut self) {}
    /// Called with each solution; return `true` to stop the search.
    fn solution(&mut self, path: &[Step]) -> bool;
}

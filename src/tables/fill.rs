//! The fill checks: which region sizes some of the pieces can fill, the regions a set
//! of blocked cells leaves, and whether a small region can be tiled exactly.
//!
//! The generator uses them to drop placements that wall off a region no other pieces
//! can fill, and the band table to judge closed regions.

use crate::grid::{Board, Point};

/// Regions up to this many cells are checked for an exact tiling; larger ones only for
/// a fillable size, which keeps table building fast.
pub const TILE_CHECK_CELLS: usize = 20;

/// Whether the board cells `region` can be tiled exactly by the pieces, each used at most
/// `available[piece]` times. `orients[piece]` are the piece's orientations as
/// [`crate::grid::orientations`] gives them (origin on the first cell in scan order).
pub fn tileable(
    board: &Board,
    region: &[usize],
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let mut free = vec![false; board.cells.len()];
    region.iter().for_each(|&c| free[c] = true);
    tile_from(board, &mut free, region.len(), orients, available)
}

fn tile_from(
    board: &Board,
    free: &mut [bool],
    left: usize,
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let Some(anchor) = free.iter().position(|&f| f) else {
        return true;
    };
    for piece in 0..orients.len() {
        if available[piece] == 0 || orients[piece].first().is_none_or(|o| o.len() > left) {
            continue;
        }
        for o in &orients[piece] {
            let Some(cells) = board.cells_at(o, anchor) else {
                continue;
            };
            if !cells.iter().all(|&c| free[c]) {
                continue;
            }
            cells.iter().for_each(|&c| free[c] = false);
            available[piece] -= 1;
            let done = tile_from(board, free, left - cells.len(), orients, available);
            available[piece] += 1;
            cells.iter().for_each(|&c| free[c] = true);
            if done {
                return true;
            }
        }
    }
    false
}

/// Sizes that some sub-multiset of `sizes` adds up to, as a bit set (bit `n` set when
/// `n` cells can be filled exactly). Sizes above 63 are not representable and dropped.
pub fn fillable_sizes(sizes: &[usize]) -> u64 {
    let mut reach: u64 = 1;
    for &s in sizes {
        if s < 64 {
            reach |= reach << s;
        }
    }
    reach
}

/// `neighbours[cell]`: the board cells adjacent to each cell ([`Board::neighbours`]),
/// computed once for the many [`regions`] of table building.
pub fn neighbour_lists(board: &Board) -> Vec<Vec<usize>> {
    (0..board.cells.len())
        .map(|c| board.neighbours(c).collect())
        .collect()
}

/// Connected regions of the board cells where `blocked` is false, each as a cell list;
/// `neighbours` is [`neighbour_lists`] of the board.
pub fn regions(board: &Board, neighbours: &[Vec<usize>], blocked: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = blocked.to_vec();
    for (i, s) in seen.iter_mut().enumerate() {
        *s |= !board.has(i);
    }
    let mut out = Vec::new();
    for start in 0..board.cells.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut region = vec![start];
        let mut next = 0;
        while next < region.len() {
            let c = region[next];
            next += 1;
            for &n in &neighbours[c] {
                if !seen[n] {
                    seen[n] = true;
                    region.push(n);
                }
            }
        }
        out.push(region);
    }
    out
}

//! The fill checks: which region sizes some of the pieces can fill, the regions a set
//! of blocked cells leaves, and whether a small region can be tiled exactly.
//!
//! The generator uses them to drop placements that wall off a region no other pieces
//! can fill, and the band table to judge closed regions.

use crate::grid::{Board, Locator, Point};

/// Regions up to this many cells are checked for an exact tiling; larger ones only for
/// a fillable size, which keeps table building fast.
pub const TILE_CHECK_CELLS: usize = 20;

/// Whether the board cells `region` can be tiled exactly by the pieces, each used at most
/// `available[piece]` times. `orients[piece]` are the piece's orientations as
/// [`crate::grid::orientations`] gives them (origin on the first cell in scan order).
pub fn tileable(
    board: &Locator,
    region: &[usize],
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let mut free = vec![false; board.board.cells.len()];
    region.iter().for_each(|&c| free[c] = true);
    tile_from(board, &mut free, region.len(), orients, available)
}

fn tile_from(
    board: &Locator,
    free: &mut [bool],
    left: usize,
    orients: &[Vec<Vec<Point>>],
    available: &mut [u32],
) -> bool {
    let Some(anchor) = free.iter().position(|&f| f) else {
        return true;
    };
    // One buffer per level, reused by every orientation tried here.
    let mut cells = Vec::new();
    for piece in 0..orients.len() {
        if available[piece] == 0 || orients[piece].first().is_none_or(|o| o.len() > left) {
            continue;
        }
        for o in &orients[piece] {
            if !board.cells_into(o, anchor, &mut cells) || !cells.iter().all(|&c| free[c]) {
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
pub fn neighbour_lists(board: &Locator) -> Vec<Vec<usize>> {
    (0..board.board.cells.len())
        .map(|c| board.neighbours(c).collect())
        .collect()
}

/// `masks[cell]`: the board cells adjacent to each cell as bits, for boards of at most
/// 64 cells (`None` for larger ones), for [`region_masks`].
pub fn neighbour_masks(board: &Locator) -> Option<Vec<u64>> {
    (board.board.cells.len() <= 64).then(|| {
        (0..board.board.cells.len())
            .map(|c| board.neighbours(c).fold(0, |m, n| m | 1 << n))
            .collect()
    })
}

/// [`regions`] on a board of at most 64 cells, as bit sets: the connected regions of
/// the cells of `free`, in the order of their lowest cell; `neighbours` is
/// [`neighbour_masks`] of the board. Table building asks this thousands of times, and
/// bits spare it an allocation per region.
pub fn region_masks(neighbours: &[u64], mut free: u64) -> impl Iterator<Item = u64> + '_ {
    std::iter::from_fn(move || {
        if free == 0 {
            return None;
        }
        let mut region = free & free.wrapping_neg();
        let mut frontier = region;
        while frontier != 0 {
            let c = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = neighbours[c] & free & !region;
            region |= new;
            frontier |= new;
        }
        free &= !region;
        Some(region)
    })
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

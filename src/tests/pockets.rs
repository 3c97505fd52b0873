//! The pocket check against its definition, cell by cell: on random boxes of the
//! grids it serves (holes included, one window or several), random fillings of each
//! window position and random cells filled on top of them (a placement, as the check
//! sees one: its cells and its [`Delta`]), [`Pockets::single_after`] finds the child
//! dead exactly when some free cell has no free neighbour, or two free cells have only
//! each other, counting a neighbour north of the window as free (and the cells south
//! of it as filled); and where it lives, gives the free cells with exactly one free
//! neighbour, none north of the window.

use super::tiling::Rng;
use crate::grid::{Board, Grid};
use crate::tables::pockets::{Delta, PocketTables, Pockets};
use crate::tables::SHIFT_ROWS;

/// The definition: walled-in free cells, alone (`lone`) or in pairs (`pair`).
fn walled_in(board: &Board, base: usize, window: u64, lone: bool, pair: bool) -> bool {
    let free =
        |cell: usize| cell >= base && (cell - base >= 64 || window >> (cell - base) & 1 == 0);
    let free_neighbours =
        |cell: usize| -> Vec<usize> { board.neighbours(cell).filter(|&n| free(n)).collect() };
    (0..64).map(|bit| base + bit).any(|cell| {
        if cell >= board.cells.len() || !board.has(cell) || !free(cell) {
            return false;
        }
        match free_neighbours(cell)[..] {
            [] => lone,
            [n] => pair && n - base < 64 && free_neighbours(n) == [cell],
            _ => false,
        }
    })
}

#[test]
fn pockets_are_the_walled_in_free_cells() {
    let mut rng = Rng(0x0090_c3e7);
    let mut dead = [0usize; 2];
    for case in 0..400 {
        // Hex boards have neighbours at 4 offsets each way, more than the check
        // serves: it is off there (and on every planar board in the search).
        let grid = [Grid::Square, Grid::Triangle, Grid::Cubic][case % 3];
        let (w, h, d) = if grid == Grid::Cubic {
            (1 + rng.below(5), 1 + rng.below(5), 1 + rng.below(8))
        } else {
            (1 + rng.below(12), 1 + rng.below(14), 1)
        };
        let w = if grid == Grid::Triangle { 2 * w } else { w };
        let mut board = Board::cuboid(grid, w, h, d);
        for c in board.cells.iter_mut() {
            *c = rng.below(6) != 0;
        }
        let shift = SHIFT_ROWS * w;
        let offsets = board.rows().div_ceil(SHIFT_ROWS);
        // Lone cells dead, pairs dead, or both.
        let fillable = [!0b110u64, !0b010, !0b100][case / 3 % 3];
        let t = PocketTables::new(&board, shift, offsets, fillable);
        let p = Pockets::new(&t);
        assert!(p.on(), "case {case}");
        let (lone, pair) = (fillable >> 1 & 1 == 0, fillable >> 2 & 1 == 0);
        for offset in 0..offsets {
            for _ in 0..20 {
                // Sparse and dense fillings, so that pockets are neither rare nor
                // everywhere; then up to 6 of the free cells filled on top.
                let density = 1 + rng.below(4);
                let mut window = 0u64;
                for bit in 0..64 {
                    let cell = offset * shift + bit;
                    if cell >= board.cells.len() || !board.has(cell) || rng.below(5) < density {
                        window |= 1 << bit;
                    }
                }
                let mut placed = 0u64;
                for _ in 0..rng.below(7) {
                    placed |= 1 << rng.below(64);
                }
                placed &= !window;
                let counts = p.counts(window, offset);
                let delta = Delta::of(&board, shift, offset, placed);
                let want = walled_in(&board, offset * shift, window | placed, lone, pair);
                let got = p.single_after(&counts, window, placed, &delta);
                let what = format!(
                    "case {case}: {grid:?} {w}x{h}x{d} offset {offset} window {window:#x} placed {placed:#x}"
                );
                assert_eq!(got.is_none(), want, "{what}");
                if let Some(single) = got {
                    let base = offset * shift;
                    let child = window | placed;
                    let free = |cell: usize| {
                        cell >= base && (cell - base >= 64 || child >> (cell - base) & 1 == 0)
                    };
                    let single_by_definition = (0..64)
                        .filter(|&bit| child >> bit & 1 == 0)
                        .filter(|&bit| {
                            let cell = base + bit;
                            let n: Vec<usize> =
                                board.neighbours(cell).filter(|&n| free(n)).collect();
                            n.len() == 1 && n[0] - base < 64
                        })
                        .fold(0u64, |a, bit| a | 1 << bit);
                    assert_eq!(single, single_by_definition, "{what}");
                }
                dead[usize::from(want)] += 1;
            }
        }
    }
    assert!(dead[0] > 1000 && dead[1] > 1000, "{dead:?}");
}

#[test]
fn pockets_are_off_where_pieces_fill_one_and_two_cells() {
    let board = Board::cuboid(Grid::Cubic, 3, 3, 3);
    let t = PocketTables::new(&board, 6, 5, 0b111);
    assert!(!Pockets::new(&t).on());
    assert!(!Pockets::NONE.on());
    // Neighbours at more offsets each way than the check serves.
    let hex = Board::cuboid(Grid::Hex, 6, 6, 1);
    assert!(!Pockets::new(&PocketTables::new(&hex, 12, 3, !0b110)).on());
}

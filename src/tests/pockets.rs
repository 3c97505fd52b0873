//! The pocket check against its definition, cell by cell: on random boxes of every
//! grid (holes included, one window or several) and random fillings of each window
//! position, [`Pockets::dead`] is true exactly when some free cell has no free
//! neighbour, or two free cells have only each other, counting a neighbour north of
//! the window as free (and the cells south of it as filled).

use super::tiling::Rng;
use crate::grid::{Board, Grid};
use crate::tables::pockets::{PocketTables, Pockets};
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
        let grid = [Grid::Square, Grid::Hex, Grid::Triangle, Grid::Cubic][case % 4];
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
        let fillable = [!0b110u64, !0b010, !0b100][case / 4 % 3];
        let t = PocketTables::new(&board, shift, offsets, fillable);
        let p = Pockets::new(&t);
        assert!(p.on(), "case {case}");
        let (lone, pair) = (fillable >> 1 & 1 == 0, fillable >> 2 & 1 == 0);
        for offset in 0..offsets {
            for _ in 0..20 {
                // Sparse and dense fillings, so that pockets are neither rare nor
                // everywhere.
                let density = 1 + rng.below(4);
                let mut window = 0u64;
                for bit in 0..64 {
                    let cell = offset * shift + bit;
                    if cell >= board.cells.len() || !board.has(cell) || rng.below(5) < density {
                        window |= 1 << bit;
                    }
                }
                let want = walled_in(&board, offset * shift, window, lone, pair);
                assert_eq!(
                    p.dead(window, offset),
                    want,
                    "case {case}: {grid:?} {w}x{h}x{d} offset {offset} window {window:#x}"
                );
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
}

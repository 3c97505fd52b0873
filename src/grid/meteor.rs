//! The Benchmarks Game meteor puzzle's definition: ten pentahexes on a 5 x 10 hex
//! board, and the piece that breaks its half-turn symmetry.

use super::{normalise, Board, Grid, Motion, Piece};

/// Columns of the board.
pub const WIDTH: usize = 5;
/// Rows of the board.
pub const HEIGHT: usize = 10;

/// The meteor board: 5 columns, 10 rows, hex.
pub fn board() -> Board {
    Board::rectangle(Grid::Hex, WIDTH, HEIGHT)
}

/// The ten meteor pentahexes, piece `i` printed as digit `i`. Cells are `(row, col)` of
/// each piece as it lies in the smallest solution
/// `00001222012661126155865558633348893448934747977799`.
pub const PIECE_CELLS: [[(usize, usize); 5]; 10] = [
    [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
    [(0, 4), (1, 4), (2, 3), (2, 4), (3, 2)],
    [(1, 0), (1, 1), (1, 2), (2, 0), (3, 0)],
    [(5, 2), (5, 3), (5, 4), (6, 4), (7, 4)],
    [(6, 0), (7, 0), (7, 1), (8, 0), (8, 2)],
    [(3, 3), (3, 4), (4, 2), (4, 3), (4, 4)],
    [(2, 1), (2, 2), (3, 1), (4, 1), (5, 1)],
    [(8, 1), (8, 3), (9, 0), (9, 1), (9, 2)],
    [(4, 0), (5, 0), (6, 1), (6, 2), (7, 2)],
    [(6, 3), (7, 3), (8, 4), (9, 3), (9, 4)],
];

/// The meteor pieces as free pentahexes.
pub fn pieces() -> Vec<Piece> {
    PIECE_CELLS
        .iter()
        .enumerate()
        .map(|(i, cells)| Piece {
            name: i.to_string(),
            cells: normalise(
                Grid::Hex,
                &cells
                    .iter()
                    .map(|&(r, c)| Grid::Hex.lattice(0, r, c))
                    .collect::<Vec<_>>(),
            ),
            motion: Motion::Free,
            count: 1,
        })
        .collect()
}

/// The piece restricted to one placement of each half-turn pair, so that each solution
/// found stands for itself and its half turn. Chosen by measurement: restricted so,
/// this piece leaves the fewest nodes in the whole tree (commit d466597 has the figures
/// for every piece).
pub const HALF_TURN_PIECE: usize = 8;

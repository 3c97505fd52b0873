//! Build a tiling puzzle in code, without a file: the twelve pentominoes on an 8 x 8
//! board with a 2 x 2 hole in the middle (Dana Scott's 1958 puzzle), counted in all and
//! up to symmetry.
//!
//! ```sh
//! cargo run --release --example build_puzzle
//! ```

use polytile::{Board, Grid, Mode, Motion, Options, Piece, Puzzle, TilingSolver};

/// The twelve pentominoes, each drawn with `#` for a cell.
const PENTOMINOES: [(&str, &[&str]); 12] = [
    ("F", &[".##", "##.", ".#."]),
    ("I", &["#####"]),
    ("L", &["####", "#..."]),
    ("N", &["##..", ".###"]),
    ("P", &["##", "##", "#."]),
    ("T", &["###", ".#.", ".#."]),
    ("U", &["#.#", "###"]),
    ("V", &["#..", "#..", "###"]),
    ("W", &["#..", "##.", ".##"]),
    ("X", &[".#.", "###", ".#."]),
    ("Y", &["####", ".#.."]),
    ("Z", &["##.", ".#.", ".##"]),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pieces = PENTOMINOES
        .iter()
        .map(|(name, rows)| Piece {
            name: name.to_string(),
            // On the square grid a drawn cell (row, col) is the lattice point (col, row, 0).
            cells: rows
                .iter()
                .enumerate()
                .flat_map(|(y, row)| {
                    row.chars()
                        .enumerate()
                        .filter(|&(_, c)| c == '#')
                        .map(move |(x, _)| (x as i32, y as i32, 0))
                })
                .collect(),
            motion: Motion::Free,
            count: 1,
        })
        .collect();
    let mut board = Board::rectangle(Grid::Square, 8, 8);
    for cell in [27, 28, 35, 36] {
        board.cells[cell] = false;
    }
    let puzzle = Puzzle::new("scott", board, pieces);
    let options = Options {
        threads: polytile::default_threads(),
        ..Options::default()
    };
    let all = TilingSolver::new(&puzzle, Mode::All)?.count(&options);
    let distinct = TilingSolver::new(&puzzle, Mode::Distinct)?;
    let classes = distinct.count(&options);
    println!(
        "{} tilings; {} up to the {} symmetries of the board (standing for {})",
        all.solutions,
        classes.solutions,
        distinct.symmetries(),
        classes.total
    );
    Ok(())
}

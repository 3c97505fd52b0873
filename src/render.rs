//! Drawing solutions: each board row as text, in the puzzle's own orientation.
//!
//! Square boards print one character per cell; hex boards print like the Benchmarks
//! Game (each cell followed by a space, odd rows indented by one space, since they are
//! shifted half a cell east). Cubic boards print their layers one after another, the
//! bottom layer (layer 0) first, with a line `-` between two layers, as puzzle files
//! draw them. A cell shows the first character of its piece's name; a hole or an
//! uncovered cell shows `.`.
//!
//! ```
//! use polytile::render::rows;
//! use polytile::{Board, Grid};
//!
//! let tiling = vec![Some(0), Some(0), Some(1), None];
//! let names = ["A".to_string(), "B".to_string()];
//! let square = Board::rectangle(Grid::Square, 2, 2);
//! assert_eq!(rows(&square, &tiling, &names), ["AA", "B."]);
//! assert_eq!(rows(&Board::rectangle(Grid::Hex, 2, 2), &tiling, &names), ["A A ", " B . "]);
//! let tower = Board::cuboid(Grid::Cubic, 2, 1, 2);
//! assert_eq!(rows(&tower, &tiling, &names), ["AA", "-", "B."]);
//! ```

use crate::grid::{Board, Grid};

/// The rows of a tiling of `board` (`tiling[cell]` = piece index, cells in the board's
/// order) as text, layers separated by a line `-`; none for a board without columns.
pub fn rows(board: &Board, tiling: &[Option<u16>], names: &[String]) -> Vec<String> {
    let (grid, width) = (board.grid, board.width);
    if width == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, cells) in tiling.chunks(width).enumerate() {
        let (layer, r) = (i / board.height.max(1), i % board.height.max(1));
        if r == 0 && layer > 0 {
            out.push("-".to_string());
        }
        let mut line = String::new();
        if grid.shifted_row(r as i32) {
            line.push(' ');
        }
        for cell in cells {
            let c = cell
                .and_then(|p| names.get(p as usize))
                .and_then(|n| n.chars().next())
                .unwrap_or('.');
            line.push(c);
            if grid == Grid::Hex {
                line.push(' ');
            }
        }
        out.push(line);
    }
    out
}

//! Drawing solutions: each board row as text, in the puzzle's own orientation.
//!
//! Square boards print one character per cell; hex boards print like the Benchmarks
//! Game (each cell followed by a space, odd rows indented by one space, since they are
//! shifted half a cell east). A cell shows the first character of its piece's name; a
//! hole or an uncovered cell shows `.`.
//!
//! ```
//! use polytile::render::rows;
//! use polytile::Grid;
//!
//! let tiling = vec![Some(0), Some(0), Some(1), None];
//! let names = ["A".to_string(), "B".to_string()];
//! assert_eq!(rows(Grid::Square, 2, &tiling, &names), ["AA", "B."]);
//! assert_eq!(rows(Grid::Hex, 2, &tiling, &names), ["A A ", " B . "]);
//! ```

use crate::grid::Grid;

/// The rows of a tiling (`tiling[row * width + col]` = piece index) as text; none for
/// a board without columns.
pub fn rows(grid: Grid, width: usize, tiling: &[Option<u16>], names: &[String]) -> Vec<String> {
    if width == 0 {
        return Vec::new();
    }
    tiling
        .chunks(width)
        .enumerate()
        .map(|(r, cells)| {
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
            line
        })
        .collect()
}

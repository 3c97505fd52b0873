//! polytile: tiling and number-placement puzzles solved with 64-bit masks.
//!
//! Two kinds of puzzle share one engine. A tiling puzzle ([`Puzzle`]: a board and
//! pieces on the square, hex or triangle grid, read from a `.puz` file or built in code) is
//! solved by a [`TilingSolver`]; a number puzzle with sums ([`sums::Model`]: magic
//! figures, killer sudoku, cryptarithms, from a `.sum` file or [`sums::builtin`]) by a
//! [`SumsSolver`]. Both count solutions or hand them to a callback in a fixed order,
//! on as many threads as [`Options`] says, and report a [`Summary`]; the Benchmarks
//! Game meteor puzzle has its own entry point in [`meteor`].
//!
//! ```
//! use polytile::{Mode, Options, Puzzle, TilingSolver};
//!
//! // Two L-trominoes, A and B, on a 3 x 2 rectangle.
//! let text = "grid: square\nboard:\nxxx\nxxx\n\npiece A:\nxx\nx.\n\npiece B:\nxx\nx.\n";
//! let puzzle = Puzzle::parse(text, "tiny.puz")?;
//! let solver = TilingSolver::new(&puzzle, Mode::All)?;
//! let names = ["A".to_string(), "B".to_string()];
//! let mut drawings = Vec::new();
//! let summary = solver.for_each(&Options::default(), |tiling| {
//!     drawings.push(polytile::render::rows(&puzzle.board, &tiling, &names).join("/"));
//!     std::ops::ControlFlow::Continue(())
//! });
//! assert_eq!(summary.solutions, 4);
//! assert_eq!(drawings, ["AAB/ABB", "ABB/AAB", "BAA/BBA", "BBA/BAA"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The data flow is `puzzle -> tables -> search -> driver -> solutions`; see
//! `ARCHITECTURE.md` for the map. Internals (the tables, the search, the split
//! search, the symmetry engine) are private; what is public is what a caller needs.

#![warn(missing_docs)]

pub mod count;
pub mod driver;
pub mod estimate;
pub mod grid;
mod meet;
pub mod meteor;
pub mod output;
pub mod picture;
pub mod puzzle;
pub mod render;
pub mod report;
pub mod runs;
mod search;
pub mod sums;
mod symmetry;
mod tables;
#[cfg(test)]
mod tests;
mod text;
pub mod tiling;
mod wide;
mod zeroed;

pub use driver::{default_threads, Mode, Options, Progress, Shard, ShardError, Summary};
pub use estimate::{Estimate, EstimateOptions, SplitWork};
pub use grid::{Board, Grid, Motion, Piece, Point};
pub use meet::plan::{RowEstimate, SplitPlan};
pub use meet::SplitMemory;
pub use puzzle::{Puzzle, PuzzleError};
pub use report::TablesReport;
pub use sums::{Model, ModelError, SumsError, SumsSolver};
pub use text::MAX_FILE_BYTES;
pub use tiling::{
    Move, Orientation, Orientations, Orienting, Splitting, Tiling, TilingError, TilingSolver, Trace,
};

//! Number puzzles with sums: magic figures, killer sudoku, cryptarithms.
//!
//! A puzzle is a [`Model`] (cells, a value set of at most 64 values, distinct groups,
//! linear equations, order constraints), read from a `.sum` file
//! (`docs/sums-format.md`) or built in ([`builtin`]).

pub mod builtin;
pub mod error;
pub mod model;
pub mod parse;
mod plan;
mod propagate;
pub mod render;
pub mod solve;
mod symmetry;

pub use error::{CellSource, ErrorKind, SumsError};
pub use model::{Equation, Layout, Model, Order, SymmetryBreak, MAX_VALUES};
pub use parse::{load, parse};

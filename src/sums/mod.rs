//! Number puzzles with sums: magic figures, killer sudoku, cryptarithms.
//!
//! A puzzle is a [`Model`] (cells, a value set of at most 64 values, distinct groups,
//! linear equations, order constraints), read from a `.sum` file
//! (`docs/sums-format.md`) or built in ([`builtin`]), and solved by a [`SumsSolver`].
//!
//! ```
//! use polytile::sums::{self, SumsSolver};
//! use polytile::{Mode, Options};
//!
//! // SEND + MORE = MONEY, written as one equation over the letters.
//! let text = "values: 0..9\ncells: S E N D M O R Y\ndistinct: all\ndomain 1..9: S M\n\
//!             1000*S + 91*E - 90*N + D - 9000*M - 900*O + 10*R - Y = 0\n";
//! let model = sums::parse(text, "money.sum").unwrap();
//! let solver = SumsSolver::new(&model, Mode::All).unwrap();
//! let mut found = Vec::new();
//! solver.for_each(&Options::default(), |values| {
//!     found.push(values);
//!     std::ops::ControlFlow::Continue(())
//! });
//! assert_eq!(found, [vec![9, 5, 6, 7, 1, 0, 8, 2]]);
//! ```
//!
//! The searches are internal: [`plan`](self) for a static order, `propagate` for the
//! smallest domain first, both run by the [driver](crate::driver).

mod automorphisms;
pub mod builtin;
mod error;
mod implied;
mod model;
mod parse;
mod plan;
mod prepare;
mod propagate;
mod render;
mod solve;

pub use error::{CellSource, SumsError, SumsErrorKind};
pub use model::{Equation, Generator, Layout, Model, ModelError, Order, SymmetryBreak, MAX_VALUES};
pub use parse::{load, parse, parse_bytes};
pub use render::rows;
pub use solve::SumsSolver;

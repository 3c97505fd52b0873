//! polytile: tiling and number-placement puzzles solved with 64-bit masks.
//!
//! The data flow is `puzzle -> tables -> search -> solutions -> render`; see
//! `ARCHITECTURE.md` for the map. The meteor puzzle of the Benchmarks Game is the first
//! instance:
//!
//! ```
//! let report = polytile::meteor::solve(usize::MAX, 1);
//! assert_eq!(report.count, 2098);
//! ```

pub mod meet;
pub mod meteor;
pub mod parallel;
pub mod puzzle;
pub mod render;
pub mod search;
pub mod solve;
pub mod sums;
pub mod tables;
pub mod text;
pub mod zeroed;

//! polytile's integration tests: one crate, linked once, a module per area, the shared
//! helpers in `common`.
//!
//! The internals (the tables, the split search) are tested by the library's own unit
//! tests (`src/tests/`), which include this crate's independent verifier
//! (`common/tiling.rs`).

mod common;
mod count;
mod cubic;
mod data_files;
mod distinct;
mod estimate;
mod meteor;
mod meteor_cli;
mod pictures;
mod puzzle_parse;
mod runs;
mod solve;
mod solve_cli;
mod split;
mod sums;
mod sums_cli;
mod sums_engines;
mod sums_orbits;
mod sums_parse;

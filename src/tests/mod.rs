//! Tests of the internals that the integration tests (`tests/it/`) cannot reach: the
//! estimate's walk of the tree against a run, the split search against the plain search, the meteor search from run-time tables
//! (pruned or not, restricted or not, any thread count, any limit), the baked tables against the run-time ones
//! and an independent enumeration, the pruning and the half-turn restriction against
//! the unpruned tables, the eight-lane search against the plain search, the pocket and cover checks against
//! their definitions.
//!
//! The independent verifier is the integration tests' own file, included here so that
//! there is one verifier; it reaches the library's plain enums as `super::lib`.

use crate as lib;

mod cover;
mod estimate;
mod lanes;
mod meet;
mod meteor;
mod pockets;
mod tables;
#[path = "../../tests/it/common/tiling.rs"]
#[allow(dead_code)]
mod tiling;
mod wide;

/// One thread, nodes counted: the options under which runs are compared node for node.
pub(crate) fn counted() -> crate::Options {
    crate::Options {
        threads: 1,
        stats: true,
        ..crate::Options::default()
    }
}

/// The tests' fixed-seed random numbers: a xorshift generator from `state` (not zero).
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A random box on `grid` with sides of 2 to `most_side` cells (one layer on a planar
/// grid), about one cell in `one_in` a hole.
pub(crate) fn board_with_holes(
    grid: crate::grid::Grid,
    next: &mut impl FnMut() -> u64,
    most_side: u64,
    one_in: u64,
) -> crate::grid::Board {
    let mut side = || (2 + next() % (most_side - 1)) as usize;
    let (w, h) = (side(), side());
    let d = if grid.is_planar() { 1 } else { side() };
    let mut board = crate::grid::Board::cuboid(grid, w, h, d);
    for c in 0..board.cells.len() {
        if next().is_multiple_of(one_in) {
            board.cells[c] = false;
        }
    }
    board
}

/// Every shipped puzzle file (`data/*.puz`), parsed, with its name, in name order.
pub(crate) fn shipped_puzzles() -> Vec<(String, crate::Puzzle)> {
    let dir = format!("{}/data", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("data/ exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "puz"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable file");
            let puzzle = crate::Puzzle::parse(&text, &path.display().to_string())
                .expect("a shipped file parses");
            let name = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, puzzle)
        })
        .collect()
}

//! Small parsed puzzles solved end to end: every solution the library reports is a
//! tiling by the tests' independent verifier, the count (listed, and counted with the
//! memo) equals the verifier's brute force, the same on one and two threads, and the
//! distinct classes add up to the same
//! total (when the library accepts the puzzle for a distinct run).
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use polytile::{Mode, Options, Puzzle, Tiling, TilingSolver};

/// The verifier reaches the library's plain enums as `super::lib`.
use polytile as lib;
#[path = "../../tests/it/common/tiling.rs"]
#[allow(dead_code)]
mod tiling;

/// Boards up to this many cells are brute-forced.
const MAX_CELLS: usize = 14;

fn solutions(solver: &TilingSolver, threads: usize) -> (Vec<Tiling>, u64) {
    let mut out = Vec::new();
    let options = Options {
        threads,
        ..Options::default()
    };
    let summary = solver.for_each(&options, |t| {
        out.push(t);
        ControlFlow::Continue(())
    });
    assert!(summary.complete);
    assert_eq!(summary.solutions, out.len() as u64);
    (out, summary.total)
}

fuzz_target!(|data: &[u8]| {
    let Ok(puzzle) = Puzzle::parse_bytes(data, "fuzz.puz") else {
        return;
    };
    let board = &puzzle.board;
    if board.cells.len() > MAX_CELLS || puzzle.pieces.iter().map(|p| p.count).sum::<u32>() > 8 {
        return;
    }
    // The verifier's (row, col) cells are planar; cubic boxes are tests/it/cubic.rs's.
    if !board.grid.is_planar() {
        return;
    }
    // The pieces as the verifier takes them: drawn (row, col) cells, shifted by whole
    // row pairs and column pairs so that hex rows and triangle columns keep their
    // parity.
    let grid = board.grid;
    let specs: Vec<tiling::PieceSpec> = puzzle
        .pieces
        .iter()
        .map(|p| {
            let drawn: Vec<(i32, i32)> = p
                .cells
                .iter()
                .filter_map(|&q| grid.drawn(q))
                .map(|(_, r, c)| (r, c))
                .collect();
            let r0 = drawn.iter().map(|d| d.0).min().unwrap().div_euclid(2) * 2;
            let c0 = drawn.iter().map(|d| d.1).min().unwrap().div_euclid(2) * 2;
            let cells = drawn
                .iter()
                .map(|&(r, c)| ((r - r0) as usize, (c - c0 + 2) as usize))
                .collect();
            (cells, p.motion, p.count)
        })
        .collect();
    let leftover = puzzle.allow_leftover;
    let (w, h) = (board.width, board.height);
    let solver = match TilingSolver::new(&puzzle, Mode::All) {
        Ok(s) => s,
        Err(_) => return, // refused with a typed error: not a crash
    };
    let (one, total) = solutions(&solver, 1);
    assert_eq!(total, one.len() as u64);
    for t in &one {
        if let Err(e) = tiling::verify_tiling(grid, w, h, &board.cells, &specs, t, leftover) {
            panic!("not a tiling ({e}): {t:?}");
        }
    }
    let mut brute = tiling::brute_force(grid, w, h, &board.cells, &specs, leftover);
    brute.sort();
    let mut sorted = one.clone();
    sorted.sort();
    assert_eq!(sorted.len(), brute.len(), "library {} tilings, brute force {}", sorted.len(), brute.len());
    assert!(sorted == brute, "the library's tilings are not the brute force's");
    // Counting without listing gives the same count.
    let (memo, _) = solver
        .count_memoised(&Options::default(), &Default::default(), &mut |_| {})
        .expect("all mode without a limit is memo-countable");
    assert_eq!(memo.solutions, one.len() as u64, "the memo's count");
    if one.is_empty() {
        // Nothing for the thread and symmetry checks to compare; they cost a second
        // and third set of tables.
        return;
    }
    let (two, _) = solutions(&solver, 2);
    assert!(one == two, "two threads give other solutions or another order");
    if let Ok(distinct) = TilingSolver::new(&puzzle, Mode::Distinct) {
        let (classes, total) = solutions(&distinct, 1);
        assert_eq!(total, one.len() as u64, "classes stand for {total}, all mode finds {}", one.len());
        assert!(classes.len() <= one.len());
    }
});

//! The eight-lane search (`crate::wide`) against the plain search it stands for: the
//! same solutions in the same order and the same nodes, on every shipped file it
//! serves and on random boxes of random polycubes (with holes, in both modes, one
//! thread and two, with and without a limit). The verifier checks the tilings
//! themselves (`tests/it/cubic.rs` and `tests/it/data_files.rs` run through whichever
//! search this machine takes).
//!
//! On a CPU without AVX-512 the eight-lane search never runs; these tests then check
//! only that it says so, and print that they did not compare.

use std::ops::ControlFlow;

use super::tiling::{self, Pt, Rng};
use crate::driver::Summary;
use crate::grid::{Board, Grid};
use crate::tiling::TilingSolver;
use crate::wide::Wide;
use crate::{Mode, Motion, Options, Piece, Puzzle, Splitting, Tiling};

/// Every solution in the order delivered, and the summary, with the eight-lane search
/// allowed or not.
fn run(puzzle: &Puzzle, mode: Mode, wide: bool, options: &Options) -> (Vec<Tiling>, Summary) {
    let mut solver = TilingSolver::new(puzzle, mode).expect("a puzzle the solver takes");
    // The split search runs instead of either where it is chosen.
    solver
        .set_splitting(Splitting::Off)
        .expect("off is always allowed");
    solver.set_wide(wide);
    assert!(
        !solver.wide() || wide,
        "the eight-lane search ran when turned off"
    );
    let mut got = Vec::new();
    let summary = solver.for_each(options, |t| {
        got.push(t);
        ControlFlow::Continue(())
    });
    (got, summary)
}

/// Whether `puzzle` in `mode` takes the eight-lane search when allowed; and if so,
/// that it matches the plain search under `options`.
fn same_as_plain(puzzle: &Puzzle, mode: Mode, options: &Options, what: &str) -> bool {
    let mut solver = TilingSolver::new(puzzle, mode).expect("a puzzle the solver takes");
    solver
        .set_splitting(Splitting::Off)
        .expect("off is always allowed");
    if !solver.wide() {
        return false;
    }
    let (want, plain) = run(puzzle, mode, false, options);
    let (got, wide) = run(puzzle, mode, true, options);
    assert_eq!(got.len(), want.len(), "{what}: solutions");
    assert!(got == want, "{what}: the solutions or their order differ");
    // Under a limit on several threads, tasks past the last solution may or may not
    // have started: the nodes are compared where they are the same on every run.
    if options.threads == 1 || options.limit.is_none() {
        assert_eq!(wide.nodes, plain.nodes, "{what}: nodes");
    }
    assert_eq!(
        (wide.solutions, wide.total, wide.complete),
        (plain.solutions, plain.total, plain.complete),
        "{what}: summary"
    );
    true
}

fn counted(threads: usize, limit: Option<u64>) -> Options {
    Options {
        threads,
        limit,
        ..super::counted()
    }
}

#[test]
fn the_shipped_cubic_files_search_as_the_plain_search_does() {
    if !Wide::available() {
        eprintln!("no AVX-512 on this CPU: the eight-lane search was not compared");
        return;
    }
    let mut compared = Vec::new();
    for (name, puzzle) in super::shipped_puzzles() {
        if puzzle.board.grid != Grid::Cubic {
            continue;
        }
        // The large trees up to a limit: every node and solution before it, in order.
        let limit = match name.as_str() {
            "soma-3x3x3" | "solid-pentominoes-2x5x6" => None,
            _ => Some(300),
        };
        for mode in [Mode::All, Mode::Distinct] {
            for threads in [1, 2] {
                let what = format!("{name} {mode:?} {threads} threads");
                if same_as_plain(&puzzle, mode, &counted(threads, limit), &what) {
                    compared.push(what);
                }
            }
        }
    }
    // Soma, the solid pentominoes (two boxes) and Bedlam, both modes, both counts.
    assert_eq!(compared.len(), 16, "compared: {compared:?}");
}

/// A random box of 8 to 24 cells with random holes, and random connected pieces of 3
/// to 5 cubes with random motions, one copy each, covering it exactly (the last
/// smaller if that is all that is left, but at least 3: no lone cube or pair to fill,
/// so the pocket check is on).
fn random_puzzle(rng: &mut Rng) -> Option<Puzzle> {
    let (w, h, d) = loop {
        let dims = (2 + rng.below(3), 2 + rng.below(3), 2 + rng.below(4));
        if dims.0 * dims.1 * dims.2 <= 24 {
            break dims;
        }
    };
    let mut board = Board::cuboid(Grid::Cubic, w, h, d);
    for c in board.cells.iter_mut() {
        *c = rng.below(7) != 0;
    }
    let n = board.cells.iter().filter(|&&c| c).count();
    let mut pieces = Vec::new();
    let mut covered = 0;
    while covered < n {
        let size = (3 + rng.below(3)).min(n - covered);
        if size < 3 {
            return None;
        }
        let shape: Vec<Pt> = tiling::random_shape(rng, Grid::Cubic, size);
        pieces.push(Piece {
            name: pieces.len().to_string(),
            cells: crate::grid::normalise(Grid::Cubic, &shape),
            motion: Motion::ALL[rng.below(4)],
            count: 1,
        });
        covered += size;
    }
    Some(Puzzle {
        name: "random".into(),
        board,
        pieces,
        allow_leftover: false,
        split: Splitting::Auto,
        first: None,
    })
}

#[test]
fn random_boxes_search_as_the_plain_search_does() {
    if !Wide::available() {
        eprintln!("no AVX-512 on this CPU: the eight-lane search was not compared");
        return;
    }
    let mut rng = Rng(0x3a1d_e5e7);
    let (mut compared, mut with_solutions, mut cases) = (0, 0, 0);
    while cases < 300 {
        let Some(puzzle) = random_puzzle(&mut rng) else {
            continue;
        };
        cases += 1;
        let mode = [Mode::All, Mode::Distinct][cases % 2];
        let options = counted(1 + cases % 2, [None, Some(3)][cases / 2 % 2]);
        let Ok(solver) = TilingSolver::new(&puzzle, mode) else {
            continue;
        };
        let what = format!("case {cases}: {:?} {mode:?}", puzzle.board);
        if same_as_plain(&puzzle, mode, &options, &what) {
            compared += 1;
            with_solutions += usize::from(solver.count(&options).solutions > 0);
        }
    }
    assert!(compared >= 150, "only {compared} of {cases} cases compared");
    assert!(
        with_solutions >= 40,
        "only {with_solutions} cases with a solution"
    );
}

#[test]
fn turned_off_or_not_served_it_does_not_run() {
    let puzzle = |file: &str| {
        super::shipped_puzzles()
            .into_iter()
            .find(|(name, _)| name == file)
            .expect("a shipped file")
            .1
    };
    let soma = puzzle("soma-3x3x3");
    let mut solver = TilingSolver::new(&soma, Mode::All).unwrap();
    assert_eq!(solver.wide(), Wide::available());
    solver.set_wide(false);
    assert!(!solver.wide());
    // A tree measured too small to pay for the lists (6,469 nodes).
    let measured = TilingSolver::new(&soma, Mode::All).unwrap();
    assert_eq!(measured.count(&counted(1, None)).solutions, 11_520);
    assert!(
        !measured.wide(),
        "the Soma cube's tree took the eight-lane search"
    );
    // A planar board (band and island checks, no pocket check).
    let flat = TilingSolver::new(&puzzle("pentomino-6x10"), Mode::All).unwrap();
    assert!(!flat.wide());
    // Copies of a piece.
    let dominoes = TilingSolver::new(&puzzle("dominoes-10x10"), Mode::All).unwrap();
    assert!(!dominoes.wide());
}

//! Counting without listing (`TilingSolver::count_memoised`, `polytile solve --count
//! --memo`): the memo's count against the plain search on every shipped file, against
//! brute force on random puzzles with copies, and against the known domino counts;
//! the memory bound, overflow past 64 bits, and the refusals.
//!
//! Known counts: domino tilings of the n x n square, n = 2, 4, ..., 12: 2, 36, 6,728,
//! 12,988,816, 258,584,046,368, 53,060,477,521,960,000 (OEIS A004003); of the 2 x n
//! rectangle: Fibonacci F(n + 1) (OEIS A000045); of the 2 x 2 x n box: 2, 9, 32, 121,
//! 450, 1,681 for n = 1 to 6 (OEIS A006253).

use polytile::count::MemoOptions;
use polytile::{Board, Grid, Mode, Motion, Options, Piece, Puzzle, TilingError, TilingSolver};

use crate::common::cli::{fails, json_lines, polytile, stdout_of};
use crate::common::tiling::{brute_force, Rng};
use crate::common::{puzzle, random_board, verifier_specs};

/// The memo's count, on `threads` threads, with the memo's report.
fn memo_count(solver: &TilingSolver, threads: usize, max_bytes: usize) -> (u64, u64) {
    let options = Options {
        threads,
        stats: true,
        ..Options::default()
    };
    let (summary, report) = solver
        .count_memoised(&options, &MemoOptions { max_bytes }, &mut |_| {})
        .expect("a memo count");
    assert!(summary.complete);
    (summary.solutions, report.states)
}

fn plain_count(solver: &TilingSolver) -> u64 {
    solver.count(&Options::default()).solutions
}

/// `n` copies of a domino.
fn dominoes(n: u32) -> Piece {
    Piece {
        name: "d".into(),
        cells: vec![(0, 0, 0), (1, 0, 0)],
        motion: Motion::Free,
        count: n,
    }
}

fn square_of_dominoes(w: usize, h: usize) -> TilingSolver {
    let p = puzzle(
        &Board::rectangle(Grid::Square, w, h),
        &[dominoes((w * h / 2) as u32)],
        false,
    );
    TilingSolver::new(&p, Mode::All).expect("dominoes tile an even square")
}

#[test]
fn memo_counts_equal_the_search_on_every_shipped_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("data/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "puz") {
            continue;
        }
        let puzzle = Puzzle::load(&path).expect("a shipped file parses");
        let solver = TilingSolver::new(&puzzle, Mode::All).expect("a shipped file solves");
        // The larger trees are counted by the plain search elsewhere; the memo is
        // checked on those that take it under a second or two (not the 2 x 5 x 6 box
        // of solid pentominoes, 1.3M nodes: its states rarely repeat, and the memo
        // fills its bound in 21 s, 2.7M hits in 73.8M nodes).
        if solver.estimate(&Default::default()).nodes.mean > 1e6 {
            continue;
        }
        let plain = plain_count(&solver);
        for threads in [1, 2] {
            let (count, _) = memo_count(&solver, threads, 1 << 30);
            assert_eq!(count, plain, "{} on {threads} threads", path.display());
        }
        seen += 1;
    }
    assert!(seen >= 8, "only {seen} files checked");
}

#[test]
fn memo_counts_match_brute_force_on_random_puzzles_with_copies() {
    let mut rng = Rng(0xC0_FFEE);
    let mut with_solutions = 0;
    for round in 0..300 {
        let board = random_board(&mut rng);
        let grid = board.grid;
        let cells = board.cells.iter().filter(|&&c| c).count();
        // A monomino, a domino and a straight tromino of the board's grid, in copies.
        let shapes: Vec<Vec<_>> = (1..=3)
            .map(|n| (0..n).map(|col| grid.lattice(0, 0, col)).collect())
            .collect();
        let mut pieces: Vec<Piece> = Vec::new();
        for (i, shape) in shapes.iter().enumerate() {
            let count = rng.below(4) as u32;
            if count > 0 {
                pieces.push(Piece {
                    name: format!("p{i}"),
                    cells: shape.clone(),
                    motion: Motion::Free,
                    count,
                });
            }
        }
        let area: usize = pieces
            .iter()
            .map(|p| p.cells.len() * p.count as usize)
            .sum();
        if pieces.is_empty() || area < cells {
            continue;
        }
        let leftover = area > cells;
        let p = puzzle(&board, &pieces, leftover);
        let solver =
            TilingSolver::new(&p, Mode::All).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let b = &p.board;
        let expected = brute_force(
            grid,
            b.width,
            b.height,
            &b.cells,
            &verifier_specs(&p),
            leftover,
        )
        .len() as u64;
        let (count, _) = memo_count(&solver, 1 + round % 2, 1 << 20);
        assert_eq!(count, expected, "round {round}: {board:?} {pieces:?}");
        assert_eq!(plain_count(&solver), expected, "round {round}");
        with_solutions += usize::from(expected > 0);
    }
    assert!(
        with_solutions >= 50,
        "only {with_solutions} puzzles had solutions"
    );
}

#[test]
fn memo_counts_domino_tilings() {
    for (n, expected) in [
        (2, 2),
        (4, 36),
        (6, 6_728),
        (8, 12_988_816),
        (10, 258_584_046_368),
        (12, 53_060_477_521_960_000),
    ] {
        let solver = square_of_dominoes(n, n);
        assert!(solver.memo_pays());
        assert_eq!(memo_count(&solver, 2, 1 << 30).0, expected, "{n} x {n}");
    }
    for n in [1, 2, 3, 10, 40, 90] {
        let fib = (0..n).fold((1u64, 1u64), |(a, b), _| (b, a + b)).0;
        let solver = square_of_dominoes(2, n);
        assert_eq!(memo_count(&solver, 1, 1 << 30).0, fib, "2 x {n}");
    }
    // In boxes: dominoes in the 2 x 2 x n box, OEIS A006253 (perfect matchings of
    // C_4 x P_n), against the plain search too.
    for (n, expected) in [(1, 2), (2, 9), (3, 32), (4, 121), (5, 450), (6, 1681)] {
        let p = puzzle(
            &Board::cuboid(Grid::Cubic, 2, 2, n),
            &[dominoes(2 * n as u32)],
            false,
        );
        let solver = TilingSolver::new(&p, Mode::All).expect("dominoes fill the box");
        assert_eq!(memo_count(&solver, 2, 1 << 30).0, expected, "2 x 2 x {n}");
        assert_eq!(plain_count(&solver), expected, "2 x 2 x {n}");
    }
    // A memo too small to store anything: the count is the same, from more nodes.
    let solver = square_of_dominoes(6, 6);
    let options = Options {
        stats: true,
        ..Options::default()
    };
    let (small, report) = solver
        .count_memoised(&options, &MemoOptions { max_bytes: 0 }, &mut |_| {})
        .expect("a count");
    assert_eq!((small.solutions, report.states), (6_728, 0));
    assert!(report.full);
    let (large, report) = solver
        .count_memoised(&options, &MemoOptions::default(), &mut |_| {})
        .expect("a count");
    assert!(!report.full && report.states > 0 && report.hits > 0);
    assert!(large.nodes < small.nodes);
}

#[test]
fn memo_refuses_what_it_cannot_count_and_reports_overflow() {
    let p = puzzle(&Board::rectangle(Grid::Square, 4, 4), &[dominoes(8)], false);
    let all = TilingSolver::new(&p, Mode::All).expect("solvable");
    let limited = Options {
        limit: Some(3),
        ..Options::default()
    };
    assert!(matches!(
        all.count_memoised(&limited, &MemoOptions::default(), &mut |_| {}),
        Err(TilingError::NotMemoCountable(_))
    ));
    // 14 x 14: about 1.1e23 tilings.
    let solver = square_of_dominoes(14, 14);
    let (summary, _) = solver
        .count_memoised(&Options::default(), &MemoOptions::default(), &mut |_| {})
        .expect("a count");
    assert!(summary.overflowed());
    assert!(!square_of_dominoes(12, 12)
        .count(&Options {
            limit: Some(1),
            ..Options::default()
        })
        .overflowed());
}

#[test]
fn cli_counts_dominoes_with_the_memo() {
    let out = stdout_of(&["solve", "data/dominoes-10x10.puz", "--count"]);
    assert_eq!(out, "258584046368 solutions\n");
    let out = stdout_of(&[
        "solve",
        "data/dominoes-10x10.puz",
        "--count",
        "--format",
        "json",
    ]);
    let summary = &json_lines(&out)[0];
    assert_eq!(summary["solutions"], 258_584_046_368u64);
    let memo = summary["memo"].as_object().expect("a memo report");
    assert!(memo["states"].as_u64().unwrap() > 0 && memo["full"] == false);
    // Off, the plain search; on, the memo on a file without copies.
    let out = stdout_of(&[
        "solve",
        "data/pentomino-3x20.puz",
        "--count",
        "--memo",
        "on",
    ]);
    assert_eq!(out, "8 solutions\n");
    let out = stdout_of(&[
        "solve",
        "data/pentomino-3x20.puz",
        "--count",
        "--memo",
        "off",
        "--format",
        "json",
    ]);
    assert!(!json_lines(&out)[0].contains_key("memo"));
    // Refusals: one line, exit 2.
    let line = fails(&[
        "solve",
        "data/dominoes-10x10.puz",
        "--count",
        "--memo",
        "on",
        "--limit",
        "5",
    ]);
    assert!(
        line.contains("dominoes-10x10.puz") && line.contains("no limit"),
        "{line}"
    );
    let line = fails(&[
        "solve",
        "data/pentomino-3x20.puz",
        "--count",
        "--memo",
        "on",
        "--distinct",
    ]);
    assert!(line.contains("distinct class"), "{line}");
    let line = fails(&["solve", "data/dominoes-10x10.puz", "--memo", "on"]);
    assert!(line.contains("--count"), "{line}");
    let line = fails(&[
        "solve",
        "data/dominoes-10x10.puz",
        "--count",
        "--memo-mib",
        "0",
    ]);
    assert!(line.contains("memo-mib"), "{line}");
}

#[test]
fn cli_reports_a_count_past_64_bits() {
    let board = "x".repeat(14) + "\n";
    let text = format!(
        "grid: square\nboard:\n{}\npiece d: count 98\ndd\n",
        board.repeat(14)
    );
    let file = crate::common::cli::TempFile::new("count", "dominoes-14", "puz", text.as_bytes());
    let out = polytile(&["solve", file.0.to_str().unwrap(), "--count"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("does not fit 64 bits"), "{err}");
}

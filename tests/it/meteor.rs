//! The meteor solver against known facts and an independent verifier.
//!
//! Known counts come from the Benchmarks Game meteor-contest reference output
//! (`2098_out`, summarised in `docs/known-counts.md`): 2098
//! solutions, 1049 up to the 180-degree rotation (the only symmetry of board and
//! pieces), smallest `00001222012661126155865558633348893448934747977799`, largest
//! `99998966856688568255777257472014220144031400311333`.

use std::collections::BTreeSet;

use crate::common::tiling::meteor::{
    self, half_turn, point_of, points_of, shapes, verify, verify_with, CELLS,
};
use crate::common::tiling::{adjacent, canonical, connected};
use crate::common::{board, options, run_tiling, ALL_SOLUTIONS, LARGEST, SMALLEST};
use polytile::meteor::{render, solve, Report};
use polytile::{Grid, Mode, Motion, Options, Puzzle};

type Board = [u8; CELLS];

/// All solutions in search order, through the general tiling solver (the meteor's
/// own tables are tested against them in the library's unit tests).
fn all_solutions() -> Vec<Board> {
    let puzzle = Puzzle::new(
        "meteor",
        polytile::grid::meteor::board(),
        polytile::grid::meteor::pieces(),
    );
    let run = run_tiling(&puzzle, Mode::All, options(usize::MAX, 2), true).unwrap();
    run.solutions
        .iter()
        .map(|t| {
            let v: Vec<u8> = t.iter().map(|c| b'0' + c.unwrap() as u8).collect();
            v.try_into().unwrap()
        })
        .collect()
}

/// `meteor::solve` with a limit (`u64::MAX`: none), threads and node counting.
fn meteor(limit: u64, threads: usize, stats: bool) -> Report {
    solve(&Options {
        limit: (limit != u64::MAX).then_some(limit),
        threads,
        stats,
        pin_threads: false,
        ..Options::default()
    })
}

fn show(b: &Board) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// ---------------------------------------------------------------------------------
// The verifier itself.

#[test]
fn verifier_adjacency_matches_euclidean_geometry() {
    // Centres in units of half a cell width: x = 2 * col + row % 2, and rows sqrt(3)/2
    // apart; two hexes touch when their centres are one cell width apart.
    let centre = |i: usize| ((2 * (i % 5) + (i / 5) % 2) as i64, (i / 5) as i64);
    for a in 0..CELLS {
        for b in 0..CELLS {
            let ((xa, ya), (xb, yb)) = (centre(a), centre(b));
            let touch = (xa - xb).pow(2) + 3 * (ya - yb).pow(2) == 4;
            assert_eq!(
                adjacent(Grid::Hex, point_of(a), point_of(b)),
                touch,
                "cells {a} and {b}"
            );
        }
    }
    for i in 0..CELLS {
        let (r, c) = crate::common::tiling::cell(Grid::Hex, point_of(i));
        assert_eq!((r as usize, c as usize), (i / 5, i % 5));
    }
}

#[test]
fn reference_shapes_are_ten_distinct_free_pentahexes() {
    let shapes = shapes();
    assert_eq!(shapes.len(), 10);
    for (i, s) in shapes.iter().enumerate() {
        assert_eq!(s.len(), 5, "piece {i}");
        assert!(connected(Grid::Hex, s), "piece {i}");
    }
    let distinct: BTreeSet<_> = shapes.iter().collect();
    assert_eq!(distinct.len(), 10, "two reference pieces are congruent");
    // The board's half turn (cell i -> 49 - i) is a motion of the lattice: it maps
    // every piece of a solution onto a congruent copy.
    let turned = half_turn(&board(SMALLEST));
    for d in 0..10u8 {
        let cells = points_of(&turned, b'0' + d);
        assert_eq!(
            canonical(Grid::Hex, &cells, Motion::Free),
            shapes[d as usize]
        );
    }
}

#[test]
fn verifier_accepts_the_known_solutions_and_their_half_turns() {
    for s in [SMALLEST, LARGEST] {
        let b = board(s);
        assert_eq!(verify(&b), Ok(()), "{s}");
        assert_eq!(verify(&half_turn(&b)), Ok(()), "half turn of {s}");
    }
}

#[test]
fn verifier_rejects_a_non_digit() {
    let mut b = board(SMALLEST);
    b[17] = b'.';
    assert!(verify(&b).unwrap_err().contains("not a digit"));
    let mut b = board(SMALLEST);
    b[49] = b'a';
    assert!(verify(&b).is_err());
}

#[test]
fn verifier_rejects_a_digit_used_six_times() {
    // Cell 4 holds a 1; make it a 0: six 0s and four 1s.
    let mut b = board(SMALLEST);
    assert_eq!(b[4], b'1');
    b[4] = b'0';
    let err = verify(&b).unwrap_err();
    assert!(
        err.contains("covers 6 cells") || err.contains("covers 4 cells"),
        "{err}"
    );
}

#[test]
fn verifier_rejects_exchanged_cells() {
    let good = board(SMALLEST);
    // Far apart: both pieces become disconnected.
    let mut b = good;
    b.swap(0, 49);
    assert!(!connected(Grid::Hex, &points_of(&b, b'0')));
    assert!(verify(&b).unwrap_err().contains("are not 1 copies"));
    // Neighbours (cells 4 and 8, pieces 1 and 0): both stay connected but change shape.
    let mut b = good;
    b.swap(4, 8);
    assert_eq!(&b[..10], b"0000022211");
    assert!(connected(Grid::Hex, &points_of(&b, b'0')));
    assert!(connected(Grid::Hex, &points_of(&b, b'1')));
    assert!(verify(&b).unwrap_err().contains("are not 1 copies"));
}

#[test]
fn verifier_rejects_the_pieces_renumbered() {
    // Right shapes in the right places, wrong names: swap digits 0 and 1 everywhere.
    let b: Board = board(SMALLEST).map(|c| match c {
        b'0' => b'1',
        b'1' => b'0',
        c => c,
    });
    assert!(verify(&b).is_err());
}

#[test]
fn verifier_accepts_a_cell_exchange_exactly_when_it_gives_a_solution() {
    // Exchanging two cells of different pieces keeps every digit count at five; the
    // verifier must accept the result if and only if it is one of the 2098 solutions.
    let solutions: BTreeSet<Board> = all_solutions().into_iter().collect();
    let pieces = meteor::pieces();
    let mut accepted = 0;
    for s in [SMALLEST, LARGEST] {
        let good = board(s);
        for i in 0..CELLS {
            for j in i + 1..CELLS {
                if good[i] == good[j] {
                    continue;
                }
                let mut b = good;
                b.swap(i, j);
                let ok = verify_with(&b, &pieces).is_ok();
                assert_eq!(
                    ok,
                    solutions.contains(&b),
                    "{s} with cells {i}, {j} swapped"
                );
                accepted += ok as usize;
            }
        }
    }
    // Not a requirement, just what the puzzle gives: no single exchange of two cells
    // turns either extreme solution into another one.
    assert_eq!(accepted, 0);
}

// ---------------------------------------------------------------------------------
// The solver.

#[test]
fn full_solve_finds_2098_with_the_known_extremes() {
    for threads in [1, 2] {
        let r = meteor(u64::MAX, threads, false);
        assert_eq!(r.summary.solutions, ALL_SOLUTIONS, "threads {threads}");
        assert_eq!(r.smallest.map(|b| show(&b)).as_deref(), Some(SMALLEST));
        assert_eq!(r.largest.map(|b| show(&b)).as_deref(), Some(LARGEST));
        assert_eq!(r.summary.nodes, None, "nodes are counted only with stats");
        assert!(r.summary.complete);
    }
}

#[test]
fn full_render_is_the_benchmarks_game_output() {
    let text = render(&meteor(u64::MAX, 2, false));
    assert_eq!(text, crate::common::expected_full_output());
    let (count, boards) = crate::common::parse_output(&text).unwrap();
    assert_eq!(count, ALL_SOLUTIONS);
    assert_eq!(boards, vec![board(SMALLEST), board(LARGEST)]);
    if let Some(reference) = crate::common::reference_output() {
        assert_eq!(text.as_bytes(), reference.as_slice());
    }
}

#[test]
fn every_solution_verifies_and_they_are_distinct() {
    let all = all_solutions();
    assert_eq!(all.len() as u64, ALL_SOLUTIONS);
    let pieces = meteor::pieces();
    for b in &all {
        if let Err(e) = verify_with(b, &pieces) {
            panic!("{}: {e}", show(b));
        }
    }
    let set: BTreeSet<Board> = all.iter().copied().collect();
    assert_eq!(set.len() as u64, ALL_SOLUTIONS, "duplicate solutions");
    assert_eq!(set.first(), Some(&board(SMALLEST)));
    assert_eq!(set.last(), Some(&board(LARGEST)));
    // Closed under the half turn, with no solution its own half turn: 1049 pairs.
    for b in &all {
        let t = half_turn(b);
        assert_ne!(&t, b, "{} is its own half turn", show(b));
        assert!(set.contains(&t), "half turn of {} missing", show(b));
    }
}

fn summary(r: &Report) -> (u64, Option<Board>, Option<Board>) {
    (r.summary.solutions, r.smallest, r.largest)
}

#[test]
fn limited_runs_are_pairs_and_do_not_depend_on_threads() {
    // The limit counts whole pairs (a solution and its half turn): N rounded up to
    // even, at most 2098; the extremes are among exactly those solutions. (That they
    // are a prefix of the search order is tested against the search itself in the
    // library's unit tests.)
    let all: BTreeSet<Board> = all_solutions().into_iter().collect();
    for limit in [1, 2, 3, 10, 99, 100, 1000, 2097, 2098, 2099, 5000, u64::MAX] {
        let expected = limit.saturating_add(limit % 2).min(ALL_SOLUTIONS);
        let first = meteor(limit, 1, false);
        assert_eq!(first.summary.solutions, expected, "limit {limit}");
        assert_eq!(first.summary.complete, expected < limit, "limit {limit}");
        for b in [first.smallest.unwrap(), first.largest.unwrap()] {
            assert!(all.contains(&b), "limit {limit}: {}", show(&b));
        }
        for threads in [2, 4] {
            let r = meteor(limit, threads, false);
            assert_eq!(
                summary(&r),
                summary(&first),
                "limit {limit}, threads {threads}"
            );
        }
    }
}

#[test]
fn limit_zero_finds_nothing() {
    for threads in [1, 2, 4] {
        let r = meteor(0, threads, true);
        assert_eq!(r.summary.solutions, 0);
        assert_eq!(r.summary.nodes, Some(0), "nothing is searched");
        assert_eq!(r.smallest, None);
        assert_eq!(r.largest, None);
        assert_eq!(render(&r), "0 solutions found\n\n");
    }
}

#[test]
fn limited_boards_verify() {
    let pieces = meteor::pieces();
    for threads in [1, 2] {
        let r = meteor(10, threads, false);
        for b in [r.smallest.unwrap(), r.largest.unwrap()] {
            assert_eq!(verify_with(&b, &pieces), Ok(()), "{}", show(&b));
        }
    }
}

#[test]
fn stats_count_nodes_without_changing_the_result() {
    let plain = meteor(u64::MAX, 1, false);
    let one = meteor(u64::MAX, 1, true);
    let two = meteor(u64::MAX, 2, true);
    assert_eq!(summary(&one), summary(&plain));
    assert_eq!(summary(&two), summary(&plain));
    // Every pair of solutions is a leaf of the search tree; a full search visits the
    // same tree whatever the number of threads. 51,112 nodes: README.md.
    let nodes = one.summary.nodes.unwrap();
    assert!(nodes >= ALL_SOLUTIONS / 2, "nodes {nodes}");
    assert_eq!(nodes, 51_112);
    assert_eq!(two.summary.nodes, Some(nodes));
}

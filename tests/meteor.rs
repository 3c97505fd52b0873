//! The meteor solver against known facts and an independent verifier.
//!
//! Known counts come from the Benchmarks Game meteor-contest reference output
//! (`../shared/meteor/2098_out`, summarised in `../shared/known-counts.md`): 2098
//! solutions, 1049 up to the 180-degree rotation (the only symmetry of board and
//! pieces), smallest `00001222012661126155865558633348893448934747977799`, largest
//! `99998966856688568255777257472014220144031400311333`.

mod common;

use std::collections::BTreeSet;

use common::verify::{
    self, adjacent, canonical, cells_of, connected, cube_of, half_turn, reference_shapes,
    verify_meteor, verify_with, CELLS,
};
use common::{board, ALL_SOLUTIONS, LARGEST, SMALLEST};
use polytile::meteor::{all_solutions_from, render, solve, solve_with_stats, Report};
use polytile::tables::generate::meteor_tables;

type Board = [u8; CELLS];

/// All solutions from the run-time tables the binary bakes, in search order.
fn all_solutions() -> Vec<Board> {
    all_solutions_from(&meteor_tables(true, true).0, 2)
}

fn sorted(mut v: Vec<Board>) -> Vec<Board> {
    v.sort_unstable();
    v
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
            assert_eq!(adjacent(cube_of(a), cube_of(b)), touch, "cells {a} and {b}");
        }
    }
    for i in 0..CELLS {
        assert_eq!(verify::cell_of(cube_of(i)), Some(i));
    }
}

#[test]
fn reference_shapes_are_ten_distinct_free_pentahexes() {
    let shapes = reference_shapes();
    assert_eq!(shapes.len(), 10);
    for (i, s) in shapes.iter().enumerate() {
        assert_eq!(s.len(), 5, "piece {i}");
        assert!(connected(s), "piece {i}");
    }
    let distinct: BTreeSet<_> = shapes.iter().collect();
    assert_eq!(distinct.len(), 10, "two reference pieces are congruent");
    // The board's half turn (cell i -> 49 - i) is a motion of the lattice: it maps
    // every piece of a solution onto a congruent copy.
    let turned = half_turn(&board(SMALLEST));
    for d in 0..10u8 {
        assert_eq!(canonical(&cells_of(&turned, b'0' + d)), shapes[d as usize]);
    }
}

#[test]
fn verifier_accepts_the_known_solutions_and_their_half_turns() {
    for s in [SMALLEST, LARGEST] {
        let b = board(s);
        assert_eq!(verify_meteor(&b), Ok(()), "{s}");
        assert_eq!(verify_meteor(&half_turn(&b)), Ok(()), "half turn of {s}");
    }
}

#[test]
fn verifier_rejects_a_non_digit() {
    let mut b = board(SMALLEST);
    b[17] = b'.';
    assert!(verify_meteor(&b).unwrap_err().contains("not a digit"));
    let mut b = board(SMALLEST);
    b[49] = b'a';
    assert!(verify_meteor(&b).is_err());
}

#[test]
fn verifier_rejects_a_digit_used_six_times() {
    // Cell 4 holds a 1; make it a 0: six 0s and four 1s.
    let mut b = board(SMALLEST);
    assert_eq!(b[4], b'1');
    b[4] = b'0';
    let err = verify_meteor(&b).unwrap_err();
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
    assert!(verify_meteor(&b).unwrap_err().contains("not connected"));
    // Neighbours (cells 4 and 8, pieces 1 and 0): both stay connected but change shape.
    let mut b = good;
    b.swap(4, 8);
    assert_eq!(&b[..10], b"0000022211");
    assert!(connected(&cells_of(&b, b'0')) && connected(&cells_of(&b, b'1')));
    assert!(verify_meteor(&b)
        .unwrap_err()
        .contains("does not have the shape"));
}

#[test]
fn verifier_rejects_the_pieces_renumbered() {
    // Right shapes in the right places, wrong names: swap digits 0 and 1 everywhere.
    let b: Board = board(SMALLEST).map(|c| match c {
        b'0' => b'1',
        b'1' => b'0',
        c => c,
    });
    assert!(verify_meteor(&b).is_err());
}

#[test]
fn verifier_accepts_a_cell_exchange_exactly_when_it_gives_a_solution() {
    // Exchanging two cells of different pieces keeps every digit count at five; the
    // verifier must accept the result if and only if it is one of the 2098 solutions.
    let solutions: BTreeSet<Board> = all_solutions().into_iter().collect();
    let shapes = reference_shapes();
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
                let ok = verify_with(&b, &shapes).is_ok();
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
        let r = solve(usize::MAX, threads);
        assert_eq!(r.count, ALL_SOLUTIONS, "threads {threads}");
        assert_eq!(r.smallest.map(|b| show(&b)).as_deref(), Some(SMALLEST));
        assert_eq!(r.largest.map(|b| show(&b)).as_deref(), Some(LARGEST));
        assert_eq!(r.nodes, 0, "nodes are counted only with stats");
    }
}

#[test]
fn full_render_is_the_benchmarks_game_output() {
    let text = render(&solve(usize::MAX, 2));
    assert_eq!(text, common::expected_full_output());
    let (count, boards) = common::parse_output(&text).unwrap();
    assert_eq!(count, ALL_SOLUTIONS);
    assert_eq!(boards, vec![board(SMALLEST), board(LARGEST)]);
    if let Some(reference) = common::reference_output() {
        assert_eq!(text.as_bytes(), reference.as_slice());
    }
}

#[test]
fn every_solution_verifies_and_they_are_distinct() {
    let all = all_solutions();
    assert_eq!(all.len(), ALL_SOLUTIONS);
    let shapes = reference_shapes();
    for b in &all {
        if let Err(e) = verify_with(b, &shapes) {
            panic!("{}: {e}", show(b));
        }
    }
    let set: BTreeSet<Board> = all.iter().copied().collect();
    assert_eq!(set.len(), ALL_SOLUTIONS, "duplicate solutions");
    assert_eq!(set.first(), Some(&board(SMALLEST)));
    assert_eq!(set.last(), Some(&board(LARGEST)));
    // Closed under the half turn, with no solution its own half turn: 1049 pairs.
    for b in &all {
        let t = half_turn(b);
        assert_ne!(&t, b, "{} is its own half turn", show(b));
        assert!(set.contains(&t), "half turn of {} missing", show(b));
    }
}

#[test]
fn pruning_and_the_half_turn_restriction_lose_no_solution() {
    let reference = sorted(all_solutions());
    for prune in [true, false] {
        for half in [true, false] {
            let (tables, _) = meteor_tables(prune, half);
            assert_eq!(tables.half_turn_piece.is_some(), half);
            let got = sorted(all_solutions_from(&tables, 2));
            assert_eq!(got.len(), ALL_SOLUTIONS, "prune {prune}, half turn {half}");
            assert!(got == reference, "prune {prune}, half turn {half}");
        }
    }
}

#[test]
fn all_solutions_do_not_depend_on_threads() {
    let (tables, _) = meteor_tables(true, true);
    let one = all_solutions_from(&tables, 1);
    assert_eq!(one.len(), ALL_SOLUTIONS);
    for threads in [2, 4] {
        assert!(
            all_solutions_from(&tables, threads) == one,
            "threads {threads}"
        );
    }
}

fn summary(r: &Report) -> (usize, Option<Board>, Option<Board>) {
    (r.count, r.smallest, r.largest)
}

#[test]
fn limited_search_is_deterministic_and_takes_a_prefix_of_the_search_order() {
    // In search order, each solution followed by its half turn; the same order the
    // baked tables give, since they equal the run-time tables (tests/tables.rs).
    let order = all_solutions_from(&meteor_tables(true, true).0, 1);
    assert_eq!(order.len(), ALL_SOLUTIONS);
    for pair in order.chunks(2) {
        assert_eq!(pair[1], half_turn(&pair[0]));
    }
    let limits = [
        1,
        2,
        3,
        10,
        99,
        100,
        1000,
        2097,
        2098,
        2099,
        5000,
        usize::MAX,
    ];
    for limit in limits {
        let expected = limit.saturating_add(limit % 2).min(ALL_SOLUTIONS);
        let first = solve(limit, 1);
        assert_eq!(first.count, expected, "limit {limit}");
        let prefix = &order[..expected];
        assert_eq!(
            first.smallest,
            prefix.iter().min().copied(),
            "limit {limit}"
        );
        assert_eq!(first.largest, prefix.iter().max().copied(), "limit {limit}");
        for threads in [2, 4] {
            let r = solve(limit, threads);
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
        let r = solve(0, threads);
        assert_eq!(r.count, 0);
        assert_eq!(r.smallest, None);
        assert_eq!(r.largest, None);
        assert_eq!(render(&r), "0 solutions found\n\n");
    }
}

#[test]
fn limited_boards_verify() {
    let shapes = reference_shapes();
    for threads in [1, 2] {
        let r = solve(10, threads);
        for b in [r.smallest.unwrap(), r.largest.unwrap()] {
            assert_eq!(verify_with(&b, &shapes), Ok(()), "{}", show(&b));
        }
    }
}

#[test]
fn stats_count_nodes_without_changing_the_result() {
    let plain = solve(usize::MAX, 1);
    let one = solve_with_stats(usize::MAX, 1, true);
    let two = solve_with_stats(usize::MAX, 2, true);
    assert_eq!(summary(&one), summary(&plain));
    assert_eq!(summary(&two), summary(&plain));
    // Every solution is a leaf of the search tree; a full search visits the same tree
    // whatever the number of threads.
    assert!(one.nodes >= ALL_SOLUTIONS as u64 / 2, "nodes {}", one.nodes);
    assert_eq!(one.nodes, two.nodes);
}

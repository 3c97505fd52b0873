//! The meteor search from tables built at run time: pruning and the half-turn
//! restriction lose no solution, every thread count gives the same solutions in the
//! same order, and a limit takes a prefix of that order.

use crate::meteor::{all_solutions_from, half_turn, solve, Report, Solution, ALL_SOLUTIONS};
use crate::tables::generate::meteor_tables;
use crate::Options;

fn sorted(mut v: Vec<Solution>) -> Vec<Solution> {
    v.sort_unstable();
    v
}

#[test]
fn pruning_and_the_half_turn_restriction_lose_no_solution() {
    let reference = sorted(all_solutions_from(&meteor_tables(false, false).0, 2));
    assert_eq!(reference.len() as u64, ALL_SOLUTIONS);
    for prune in [true, false] {
        for half in [true, false] {
            let (tables, _) = meteor_tables(prune, half);
            assert_eq!(tables.restricted_piece.is_some(), half);
            let got = sorted(all_solutions_from(&tables, 2));
            assert!(got == reference, "prune {prune}, half turn {half}");
        }
    }
    // Every one is a meteor solution, by the independent verifier.
    let pieces = super::tiling::meteor::pieces();
    for b in &reference {
        super::tiling::meteor::verify_with(b, &pieces).unwrap();
    }
}

#[test]
fn all_solutions_do_not_depend_on_threads() {
    let (tables, _) = meteor_tables(true, true);
    let one = all_solutions_from(&tables, 1);
    assert_eq!(one.len() as u64, ALL_SOLUTIONS);
    for threads in [2, 4] {
        assert!(
            all_solutions_from(&tables, threads) == one,
            "threads {threads}"
        );
    }
}

#[test]
fn a_limit_takes_a_prefix_of_the_search_order() {
    // In search order, each solution followed by its half turn; the baked tables give
    // the same order, since they equal the run-time tables (`tests::tables`).
    let order = all_solutions_from(&meteor_tables(true, true).0, 1);
    assert_eq!(order.len() as u64, ALL_SOLUTIONS);
    for pair in order.chunks(2) {
        assert_eq!(pair[1], half_turn(&pair[0]));
    }
    let extremes = |r: &Report| (r.summary.solutions, r.smallest, r.largest);
    for limit in [1, 2, 3, 10, 99, 100, 1000, 2097, 2098, 2099, 5000, u64::MAX] {
        let expected = limit.saturating_add(limit % 2).min(ALL_SOLUTIONS);
        let prefix = &order[..expected as usize];
        for threads in [1, 2, 4] {
            let r = solve(&Options {
                limit: Some(limit),
                threads,
                ..Options::default()
            });
            assert_eq!(
                extremes(&r),
                (
                    expected,
                    prefix.iter().min().copied(),
                    prefix.iter().max().copied()
                ),
                "limit {limit}, threads {threads}"
            );
        }
    }
}

/// Every solution's steps, in the order the plain search finds them.
struct Paths(Vec<Vec<crate::search::Step>>);

impl crate::search::Visitor for Paths {
    fn node(&mut self) {}
    fn solution(&mut self, path: &[crate::search::Step]) -> std::ops::ControlFlow<()> {
        self.0.push(path.to_vec());
        std::ops::ControlFlow::Continue(())
    }
}

#[test]
fn every_board_drawing_draws_each_solution_alike() {
    use crate::meteor::{board_of, board_of_cells, WINDOW};
    let window = &WINDOW;
    let mut paths = Paths(Vec::new());
    let _ = window.search(window.root(), &mut Vec::new(), &mut paths);
    assert_eq!(paths.0.len() as u64, ALL_SOLUTIONS / 2);
    for path in &paths.0 {
        let cells = board_of_cells(window, path);
        assert!(
            cells.iter().all(u8::is_ascii_digit),
            "{path:?} fills the board"
        );
        assert_eq!(board_of(window, path), cells, "{path:?}");
        #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
        assert_eq!(
            crate::meteor::board_of_masked(window, path),
            cells,
            "{path:?}"
        );
        // And a path cut short: cells not yet placed stay holes.
        let half = &path[..path.len() / 2];
        assert_eq!(board_of(window, half), board_of_cells(window, half));
    }
}

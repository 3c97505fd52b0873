//! The estimate's view of the tree is the run's: walking every node through
//! `Search::children` finds the nodes, solutions and totals a run counts, for every
//! search kind (tilings in both modes, static and propagating number searches) on
//! every shipped file small enough; and estimates made of the same seed agree.

use super::counted;
use crate::sums::{self, SumsSolver};
use crate::{EstimateOptions, Mode, Puzzle, TilingSolver};

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

#[test]
fn walking_the_children_counts_what_a_tiling_run_counts() {
    let files = [
        "pentomino-3x20.puz",
        "pentomino-4x15.puz",
        "pentomino-5x12.puz",
        "pentomino-8x8-hole.puz",
        "tetrahex-7x4.puz",
        "meteor.puz",
        "one-sided-pentomino-3x30.puz",
    ];
    for file in files {
        let puzzle = Puzzle::load(&data(file)).unwrap();
        for mode in [Mode::All, Mode::Distinct] {
            let Ok(mut solver) = TilingSolver::new(&puzzle, mode) else {
                continue;
            };
            // The children are the plain search's: a split run visits fewer nodes.
            solver.set_splitting(crate::Splitting::Off).unwrap();
            let run = solver.count(&counted());
            let walked = solver.exhaust();
            assert_eq!(
                walked,
                (run.nodes.unwrap(), run.solutions, run.total),
                "{file} {mode:?}"
            );
        }
    }
}

#[test]
fn walking_the_children_counts_what_a_number_run_counts() {
    let files = [
        "abc.sum",
        "send-more-money.sum",
        "magic-square-3.sum",
        "magic-square-4.sum",
        "magic-hexagon.sum",
        "killer-tarek1.sum",
        "killer-wikipedia.sum",
    ];
    let mut smallest_first = [false; 2];
    for file in files {
        let model = sums::load(&data(file)).unwrap();
        smallest_first[usize::from(model.order == sums::Order::Smallest)] = true;
        for mode in [Mode::All, Mode::Distinct] {
            let solver = SumsSolver::new(&model, mode).unwrap();
            let run = solver.count(&counted());
            assert_eq!(
                solver.exhaust(),
                (run.nodes.unwrap(), run.solutions, run.total),
                "{file} {mode:?}"
            );
        }
    }
    // Both number searches were walked: the static order and smallest domain first.
    assert_eq!(smallest_first, [true, true]);
}

#[test]
fn the_same_seed_gives_the_same_estimate_and_another_seed_another() {
    let puzzle = Puzzle::load(&data("pentomino-6x10.puz")).unwrap();
    let solver = TilingSolver::new(&puzzle, Mode::All).unwrap();
    let options = EstimateOptions {
        paths: 2_000,
        seed: 7,
        probe_seconds: 0.0,
        // Far below the tree's size: sampled, not searched whole.
        tail_nodes: 16.0,
    };
    let a = solver.estimate(&options);
    assert!(!a.exact && a.rate.is_none());
    assert_eq!(a, solver.estimate(&options));
    let b = solver.estimate(&EstimateOptions { seed: 8, ..options });
    assert_ne!(a.nodes, b.nodes);
}

//! Criterion benchmarks of the meteor puzzle: the full search on one thread and on every
//! core, building the placement tables at run time, and making the general path's solver
//! from `data/meteor.puz` (its tables, symmetry classes and first-piece choice: the setup
//! that `polytile solve data/meteor.puz` pays before it searches).
//!
//! `cargo bench --bench meteor` takes about 20 seconds with the defaults below; command
//! line options (`--warm-up-time`, `--measurement-time`, `--sample-size`) override them.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use polytile::meteor::{self, ALL_SOLUTIONS};
use polytile::{Mode, Options, Puzzle, TilingSolver};

/// All solutions on `threads` threads, pinned as the `meteor` binary pins them.
fn all(threads: usize) -> Options {
    Options {
        limit: None,
        threads,
        stats: false,
        pin_threads: true,
        ..Options::default()
    }
}

fn meteor(c: &mut Criterion) {
    let threads = polytile::default_threads();
    let mut group = c.benchmark_group("meteor");

    group.bench_function("solve_1_thread", |b| {
        b.iter(|| {
            let report = meteor::solve(black_box(&all(1)));
            assert_eq!(report.summary.solutions, ALL_SOLUTIONS);
            report
        })
    });

    // Same name whatever the core count, so runs compare; the count is printed above.
    eprintln!("meteor/solve_all_threads uses {threads} threads");
    group.bench_function("solve_all_threads", |b| {
        b.iter(|| {
            let report = meteor::solve(black_box(&all(threads)));
            assert_eq!(report.summary.solutions, ALL_SOLUTIONS);
            report
        })
    });

    group.bench_function("tables", |b| b.iter(meteor::build_tables));

    let puzzle = Puzzle::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/meteor.puz"
    )))
    .expect("data/meteor.puz parses");
    group.bench_function("general_solver_new", |b| {
        b.iter(|| TilingSolver::new(black_box(&puzzle), Mode::All).expect("the meteor solves"))
    });

    group.finish();
}

criterion_group! {
    name = benches;
    // The search takes tens of milliseconds: ten samples are plenty and keep the run short.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = meteor
}
criterion_main!(benches);

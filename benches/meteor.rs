//! Criterion benchmarks of the meteor puzzle: the full search on one thread and on every
//! core, and building the placement tables at run time.
//!
//! `cargo bench --bench meteor` takes about 20 seconds with the defaults below; command
//! line options (`--warm-up-time`, `--measurement-time`, `--sample-size`) override them.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use polytile::meteor::{self, ALL_SOLUTIONS};
use polytile::Options;

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

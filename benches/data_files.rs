//! Criterion benches: every shipped puzzle file, all solutions counted on one thread,
//! tables built at run time included (as `polytile solve FILE --count --threads 1`).

use criterion::{criterion_group, criterion_main, Criterion};
use polytile::solve::{solve, solve_distinct, Limits};

const FILES: &[&str] = &[
    "meteor",
    "pentomino-6x10",
    "pentomino-5x12",
    "pentomino-4x15",
    "pentomino-3x20",
    "pentomino-8x8-hole",
    "one-sided-pentomino-3x30",
    "tetrahex-7x4",
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let limits = Limits {
        threads: 1,
        ..Limits::default()
    };
    for name in FILES {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(format!("{name}.puz"));
        let puzzle = polytile::puzzle::load(&path).expect("shipped puzzle files parse");
        let (board, pieces, leftover) = (&puzzle.board, &puzzle.pieces, puzzle.allow_leftover);
        group.bench_function(format!("{name}/all"), |b| {
            b.iter(|| solve(board, pieces, leftover, limits).unwrap().count)
        });
        group.bench_function(format!("{name}/distinct"), |b| {
            b.iter(|| {
                solve_distinct(board, pieces, leftover, limits)
                    .unwrap()
                    .classes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

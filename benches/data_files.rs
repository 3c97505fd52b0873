//! Criterion benches: every shipped puzzle file, all solutions counted on one thread,
//! tables built at run time included (as `polytile solve FILE --count --threads 1`):
//! by the search for files of one-of-a-kind pieces, with the memo for files with
//! copies (`COUNTED`), as `--memo auto` does. The files whose count takes minutes
//! ([`SLOW`]: the solid pentominoes, the Bedlam cube) run only with
//! `POLYTILE_BENCH_SLOW=1` in the environment.

use criterion::{criterion_group, criterion_main, Criterion};
use polytile::{Mode, Options, Puzzle, TilingSolver};

const FILES: &[&str] = &[
    "meteor",
    "pentomino-6x10",
    "pentomino-5x12",
    "pentomino-4x15",
    "pentomino-3x20",
    "pentomino-8x8-hole",
    "one-sided-pentomino-3x30",
    "tetrahex-7x4",
    "hexiamonds-6x6",
    "hexiamonds-4x9",
    "soma-3x3x3",
];

/// Minutes a count: ten samples each take most of an hour.
const SLOW: &[&str] = &["solid-pentominoes-3x4x5", "bedlam-4x4x4"];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let one = Options::default();
    let slow = std::env::var_os("POLYTILE_BENCH_SLOW").is_some_and(|v| v == "1");
    let files = FILES.iter().chain(SLOW.iter().filter(|_| slow));
    for name in files {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(format!("{name}.puz"));
        let puzzle = Puzzle::load(&path).expect("shipped puzzle files parse");
        for (mode, label) in [(Mode::All, "all"), (Mode::Distinct, "distinct")] {
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    TilingSolver::new(&puzzle, mode)
                        .expect("shipped puzzle files solve")
                        .count(&one)
                        .solutions
                })
            });
        }
    }
    for name in COUNTED {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(format!("{name}.puz"));
        let puzzle = Puzzle::load(&path).expect("shipped puzzle files parse");
        group.bench_function(format!("{name}/all-memo"), |b| {
            b.iter(|| {
                TilingSolver::new(&puzzle, Mode::All)
                    .expect("shipped puzzle files solve")
                    .count_memoised(&one, &Default::default(), &mut |_| {})
                    .expect("memo-countable")
                    .0
                    .solutions
            })
        });
    }
    group.finish();
}

/// Files counted with the memo (their pieces have copies; listing takes days).
const COUNTED: &[&str] = &["dominoes-10x10"];

criterion_group!(benches, bench);
criterion_main!(benches);

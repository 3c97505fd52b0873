//! Criterion benches of the number puzzles, in-process, one thread, the targets of
//! issue 4: the magic hexagon (all 12), 4x4 magic squares (all 7,040), Tarek's
//! unsolvable killer #1, and the rate of 5x5 magic squares (the first 1,000,000).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use polytile::{Mode, Options, SumsSolver};

fn load(name: &str) -> polytile::sums::Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(format!("{name}.sum"));
    polytile::sums::load(&path).expect("shipped puzzle files parse")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sums");
    group.sample_size(20);
    let one = Options::default();
    for (name, distinct) in [
        ("magic-hexagon", false),
        ("magic-hexagon", true),
        ("magic-square-3", false),
        ("magic-square-4", false),
        ("magic-square-4", true),
        ("send-more-money", false),
        ("abc", false),
        ("killer-wikipedia", false),
        ("killer-tarek1", false),
    ] {
        let model = load(name);
        let (mode, label) = if distinct {
            (Mode::Distinct, "distinct")
        } else {
            (Mode::All, "all")
        };
        group.bench_function(format!("{name}/{label}"), |b| {
            b.iter(|| {
                SumsSolver::new(&model, mode)
                    .expect("shipped models solve")
                    .count(&one)
                    .solutions
            })
        });
    }
    let square5 = load("magic-square-5");
    const FIRST: usize = 1_000_000;
    group.throughput(Throughput::Elements(FIRST as u64));
    group.bench_function("magic-square-5/first-1000000", |b| {
        let first = Options {
            limit: Some(FIRST as u64),
            ..one
        };
        b.iter(|| {
            SumsSolver::new(&square5, Mode::All)
                .expect("the 5x5 model solves")
                .count(&first)
                .solutions
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

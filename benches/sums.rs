//! Criterion benches of the number puzzles, in-process, one thread, the targets of
//! issue 4: the magic hexagon (all 12), 4x4 magic squares (all 7,040), Tarek's
//! unsolvable killer #1, and the rate of 5x5 magic squares (the first 1,000,000); and
//! of issue 14, one 1,024th of the whole 5x5 count in all and in distinct mode.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use polytile::{Mode, Options, Shard, SumsSolver};

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
    // The same share of the whole 5x5 tree counted in both modes: distinct is meant
    // to cost what all costs (issue 14).
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    let shard = Options {
        shard: Some(Shard {
            index: 0,
            count: 1024,
        }),
        ..one
    };
    for (mode, label) in [(Mode::All, "all"), (Mode::Distinct, "distinct")] {
        group.bench_function(format!("magic-square-5/shard-1-of-1024/{label}"), |b| {
            b.iter(|| {
                SumsSolver::new(&square5, mode)
                    .expect("the 5x5 model solves")
                    .count(&shard)
                    .total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Criterion benches of the number puzzles, in-process, one thread, the targets of
//! issue 4: the magic hexagon (all 12), 4x4 magic squares (all 7,040), Tarek's
//! unsolvable killer #1, and the rate of 5x5 magic squares (the first 1,000,000).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use polytile::sums::solve::{solve, Limits};

fn load(name: &str) -> polytile::sums::Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(format!("{name}.sum"));
    polytile::sums::load(&path).expect("shipped puzzle files parse")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sums");
    group.sample_size(20);
    let one = Limits {
        threads: 1,
        ..Limits::default()
    };
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
        let mode = if distinct { "distinct" } else { "all" };
        group.bench_function(format!("{name}/{mode}"), |b| {
            b.iter(|| solve(&model, distinct, one).count)
        });
    }
    let square5 = load("magic-square-5");
    const FIRST: usize = 1_000_000;
    group.throughput(Throughput::Elements(FIRST as u64));
    group.bench_function("magic-square-5/first-1000000", |b| {
        b.iter(|| {
            let limits = Limits {
                limit: FIRST,
                ..one
            };
            solve(&square5, false, limits).count
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

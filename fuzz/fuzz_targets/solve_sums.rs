//! Small parsed number models solved end to end: the count of every search order
//! equals a brute force over all assignments, the solutions satisfy every constraint,
//! and one and two threads agree.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use polytile::sums::{self, Model, Order};
use polytile::{Mode, Options, SumsSolver};

/// Models with at most this many assignments are brute-forced: enough for every
/// constraint kind to interact, small enough for thousands of executions a second.
const MAX_ASSIGNMENTS: u64 = 4_096;

/// Whether `values` (one per cell) satisfies every constraint of `model`.
fn satisfies(model: &Model, values: &[i64]) -> bool {
    let bit = |cell: usize| model.values.iter().position(|&v| v == values[cell]);
    (0..values.len()).all(|c| bit(c).is_some_and(|b| model.domains[c] >> b & 1 != 0))
        && model.groups.iter().all(|g| {
            g.iter()
                .enumerate()
                .all(|(i, &a)| g[i + 1..].iter().all(|&b| values[a] != values[b]))
        })
        && model.equations.iter().all(|e| {
            e.terms
                .iter()
                .map(|&(c, k)| i128::from(k) * i128::from(values[c]))
                .sum::<i128>()
                == i128::from(e.target)
        })
        && model.less.iter().all(|&(a, b)| values[a] < values[b])
}

fn brute_force(model: &Model) -> Vec<Vec<i64>> {
    let n = model.cells.len();
    let mut out = Vec::new();
    let mut digits = vec![0usize; n];
    loop {
        let values: Vec<i64> = digits.iter().map(|&d| model.values[d]).collect();
        if satisfies(model, &values) {
            out.push(values);
        }
        let mut i = 0;
        loop {
            if i == n {
                return out;
            }
            digits[i] += 1;
            if digits[i] < model.values.len() {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
    }
}

fn solve(model: &Model, threads: usize) -> Option<Vec<Vec<i64>>> {
    let solver = SumsSolver::new(model, Mode::All).ok()?;
    let mut out = Vec::new();
    let options = Options {
        threads,
        ..Options::default()
    };
    let summary = solver.for_each(&options, |v| {
        out.push(v);
        ControlFlow::Continue(())
    });
    assert!(summary.complete);
    assert_eq!(summary.solutions, out.len() as u64);
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let Ok(model) = sums::parse_bytes(data, "fuzz.sum") else {
        return;
    };
    let n = model.cells.len() as u32;
    let size = (model.values.len() as u64).checked_pow(n);
    if n == 0 || !size.is_some_and(|s| s <= MAX_ASSIGNMENTS) {
        return;
    }
    let mut brute = brute_force(&model);
    brute.sort();
    let mut orders = vec![Order::Smallest, Order::Planned];
    if !orders.contains(&model.order) {
        orders.push(model.order.clone());
    }
    for order in orders {
        let m = Model {
            order,
            ..model.clone()
        };
        let Some(mut found) = solve(&m, 1) else {
            return; // refused with a typed error: not a crash
        };
        // Two threads (which cut the tree into tasks) for the model's own order.
        if m.order == model.order {
            assert!(solve(&m, 2).as_ref() == Some(&found), "threads disagree ({:?})", m.order);
        }
        for v in &found {
            assert!(satisfies(&m, v), "{v:?} breaks a constraint ({:?})", m.order);
        }
        found.sort();
        assert!(found == brute, "{:?}: {} solutions, brute force {}", m.order, found.len(), brute.len());
    }
});

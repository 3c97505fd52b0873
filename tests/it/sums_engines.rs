//! The two number searches against each other on random killer-like puzzles: the
//! static-order search (checks only the equations through each step's cell) and the
//! propagating search (cage value sets, derived sums of group unions, pointing, hidden
//! singles). Their solution sets must be equal, and every solution verified.
//!
//! Each puzzle is a 4x4, 5x5 or 6x6 grid (with or without boxes) filled with a random
//! Latin square (values consecutive, spaced, or with gaps, some negative), then cut into
//! random connected cages whose totals are the filled values' sums (one in twelve is
//! off by one, to make unsolvable puzzles), plus random equations with other
//! coefficients and an order constraint.

use std::collections::BTreeSet;

use crate::common::sums::{solve, verify, Limits};
use crate::common::tiling::Rng;
use polytile::sums::Order;

/// Fills `grid` from cell `i` on with values distinct in each row, column and box.
fn fill(
    rng: &mut Rng,
    grid: &mut Vec<i64>,
    i: usize,
    n: usize,
    boxes: Option<(usize, usize)>,
    vals: &[i64],
) -> bool {
    if i == n * n {
        return true;
    }
    let (r, c) = (i / n, i % n);
    let mut order: Vec<i64> = vals.to_vec();
    for k in (1..order.len()).rev() {
        let j = rng.below(k + 1);
        order.swap(k, j);
    }
    for v in order {
        let ok = (0..n)
            .all(|k| (k == c || grid[r * n + k] != v) && (k == r || grid[k * n + c] != v))
            && boxes.is_none_or(|(bh, bw)| {
                let (br, bc) = (r / bh * bh, c / bw * bw);
                (br..br + bh).all(|rr| {
                    (bc..bc + bw).all(|cc| (rr == r && cc == c) || grid[rr * n + cc] != v)
                })
            });
        if ok {
            grid[i] = v;
            if fill(rng, grid, i + 1, n, boxes, vals) {
                return true;
            }
            grid[i] = i64::MIN;
        }
    }
    false
}

fn name(i: usize, n: usize) -> String {
    format!("r{}c{}", i / n + 1, i % n + 1)
}

fn random_text(rng: &mut Rng) -> String {
    let (n, boxes) = match rng.below(5) {
        0 => (4, Some((2, 2))),
        1 => (4, None),
        2 => (5, None),
        3 => (6, Some((2, 3))),
        _ => (6, Some((3, 2))),
    };
    let extra = rng.below(4) == 0;
    let count = n + extra as usize;
    let vals: Vec<i64> = match rng.below(3) {
        0 => (1..=count as i64).collect(),
        1 => (0..count as i64).map(|v| 3 * v - 4).collect(),
        _ => {
            let mut v = Vec::new();
            let mut x = -(rng.below(5) as i64);
            for _ in 0..count {
                x += 1 + rng.below(3) as i64;
                v.push(x);
            }
            v
        }
    };
    let mut grid = vec![i64::MIN; n * n];
    assert!(fill(rng, &mut grid, 0, n, boxes, &vals));
    let mut text = format!("grid: {n} x {n}\n");
    if let Some((h, w)) = boxes {
        text.push_str(&format!("boxes: {h} x {w}\n"));
    }
    let spelled: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
    text.push_str(&format!("values: {}\n", spelled.join(" ")));
    text.push_str("distinct: rows\n");
    if rng.below(5) != 0 {
        text.push_str("distinct: columns\n");
    }
    if boxes.is_some() && rng.below(4) != 0 {
        text.push_str("distinct: boxes\n");
    }
    // Cages: grow connected pieces.
    let mut owner = vec![usize::MAX; n * n];
    let mut pieces: Vec<Vec<usize>> = Vec::new();
    let cover = rng.below(3) != 0;
    for start in 0..n * n {
        if owner[start] != usize::MAX {
            continue;
        }
        if !cover && rng.below(3) == 0 {
            continue;
        }
        let size = 1 + rng.below(5);
        let id = pieces.len();
        let mut piece = vec![start];
        owner[start] = id;
        while piece.len() < size {
            let c = piece[rng.below(piece.len())];
            let (r, k) = (c / n, c % n);
            let mut nb = Vec::new();
            if r > 0 {
                nb.push(c - n);
            }
            if r + 1 < n {
                nb.push(c + n);
            }
            if k > 0 {
                nb.push(c - 1);
            }
            if k + 1 < n {
                nb.push(c + 1);
            }
            let free: Vec<usize> = nb.into_iter().filter(|&x| owner[x] == usize::MAX).collect();
            if free.is_empty() {
                break;
            }
            let x = free[rng.below(free.len())];
            owner[x] = id;
            piece.push(x);
        }
        pieces.push(piece);
    }
    for piece in &pieces {
        let mut total: i64 = piece.iter().map(|&c| grid[c]).sum();
        if rng.below(12) == 0 {
            total += rng.below(3) as i64 - 1;
        }
        let names: Vec<String> = piece.iter().map(|&c| name(c, n)).collect();
        let distinct_ok = {
            let vs: BTreeSet<i64> = piece.iter().map(|&c| grid[c]).collect();
            vs.len() == piece.len()
        };
        if distinct_ok && rng.below(5) != 0 {
            text.push_str(&format!("cage {total}: {}\n", names.join(" ")));
        } else {
            text.push_str(&format!("{} = {total}\n", names.join(" + ")));
        }
    }
    // A few random equations with other coefficients.
    for _ in 0..rng.below(3) {
        let k = 1 + rng.below(3);
        let mut terms = Vec::new();
        let mut total = 0;
        for _ in 0..k {
            let c = rng.below(n * n);
            let a = [1i64, -1, 2, -2, 3][rng.below(5)];
            if terms.iter().any(|&(x, _)| x == c) {
                continue;
            }
            terms.push((c, a));
            total += a * grid[c];
        }
        let s: Vec<String> = terms
            .iter()
            .map(|&(c, a)| format!("{a}*{}", name(c, n)))
            .collect();
        text.push_str(&format!(
            "{} = {total}\n",
            s.join(" + ").replace("+ -", "- ")
        ));
    }
    if rng.below(4) == 0 {
        let a = rng.below(n * n);
        let b = rng.below(n * n);
        if a != b {
            text.push_str(&format!("{} < {}\n", name(a, n), name(b, n)));
        }
    }
    text
}

/// Up to 20,000 solutions, verified.
fn solutions(model: &polytile::sums::Model, threads: usize) -> (usize, BTreeSet<Vec<i64>>) {
    let out = solve(
        model,
        false,
        Limits {
            limit: 20000,
            keep: true,
            threads,
            stats: false,
        },
    );
    for s in &out.solutions {
        verify(model, s).unwrap_or_else(|e| panic!("{e}"));
    }
    (out.count, out.solutions.into_iter().collect())
}

#[test]
fn propagate_matches_static_on_random_killers() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 0x1234_5678_9abc_def1);
    let mut total = 0;
    for round in 0..300 {
        let text = random_text(&mut rng);
        let mut model =
            polytile::sums::parse(&text, "x.sum").unwrap_or_else(|e| panic!("{e}\n{text}"));
        model.order = Order::Static((0..model.cells.len()).collect());
        let (c1, s1) = solutions(&model, 1);
        model.order = Order::Smallest;
        let (c2, s2) = solutions(&model, 1 + round % 2);
        assert_eq!(c1, c2, "round {round}\n{text}");
        if c1 < 20000 {
            assert_eq!(s1, s2, "round {round}\n{text}");
        }
        total += c1;
    }
    // The generator makes mostly solvable puzzles: the test compares real solutions.
    assert!(total > 300, "{total} solutions in all");
}

//! Independent checks for number puzzles with sums.
//!
//! [`verify`] reads a solution against the definition of [`Model`] alone (domains,
//! distinct groups, equations, order constraints); it shares no code with the parser or
//! the solver. The puzzle checkers ([`magic_square_ok`], [`magic_hexagon_ok`],
//! [`sudoku_ok`]) do not even look at a model: they restate each puzzle from its
//! definition, so a model built wrongly (by a `.sum` file or a built-in) cannot hide
//! behind a solver that solves it faithfully.
//!
//! Symmetries act on solutions as permutations of cells: `p` maps a solution `v` to
//! `w` with `w[p[i]] = v[i]` (the value in cell `i` moves to cell `p[i]`). The square's
//! 8 (D4) and the hexagon's 12 (D6) are computed here from coordinates, not copied from
//! any symmetry-breaking statement.

use std::collections::BTreeSet;

use std::ops::ControlFlow;

use polytile::sums::Model;
use polytile::{Mode, SumsSolver};

pub use super::Limits;

/// What a number puzzle run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumsOutcome {
    pub count: usize,
    pub solutions: Vec<Vec<i64>>,
    /// Nodes, when counted (0 otherwise).
    pub nodes: u64,
    /// In distinct mode, the solutions each class stands for.
    pub group_order: u64,
    pub automorphisms: usize,
    /// All the solutions found stand for.
    pub total: u64,
}

impl SumsOutcome {
    pub fn total(&self) -> u64 {
        self.total
    }
}

/// Solves `model` through the library; one per class when `distinct`.
pub fn solve(model: &Model, distinct: bool, limits: Limits) -> SumsOutcome {
    let mode = if distinct { Mode::Distinct } else { Mode::All };
    let solver = SumsSolver::new(model, mode).expect("a valid model");
    let mut solutions = Vec::new();
    let summary = if limits.keep {
        solver.for_each(&limits.options(), |v| {
            solutions.push(v);
            ControlFlow::Continue(())
        })
    } else {
        solver.count(&limits.options())
    };
    SumsOutcome {
        count: summary.solutions as usize,
        solutions,
        nodes: summary.nodes.unwrap_or(0),
        group_order: solver.symmetries(),
        automorphisms: solver.automorphisms(),
        total: summary.total,
    }
}

/// Checks that `values` (one per cell, in `model.cells` order) satisfy every constraint
/// of `model` except the symmetry-breaking ones.
pub fn verify(model: &Model, values: &[i64]) -> Result<(), String> {
    if values.len() != model.cells.len() {
        return Err(format!(
            "{} values for {} cells",
            values.len(),
            model.cells.len()
        ));
    }
    let name = |i: usize| &model.cells[i];
    for (i, &v) in values.iter().enumerate() {
        let bit = model
            .values
            .iter()
            .position(|&x| x == v)
            .ok_or_else(|| format!("{} = {v} is not in the value set", name(i)))?;
        if model.domains[i] >> bit & 1 == 0 {
            return Err(format!("{} = {v} is outside its domain", name(i)));
        }
    }
    for group in &model.groups {
        for (k, &a) in group.iter().enumerate() {
            for &b in &group[k + 1..] {
                if values[a] == values[b] {
                    return Err(format!(
                        "{} and {} are both {} in a distinct group",
                        name(a),
                        name(b),
                        values[a]
                    ));
                }
            }
        }
    }
    for eq in &model.equations {
        let sum: i64 = eq.terms.iter().map(|&(c, k)| k * values[c]).sum();
        if sum != eq.target {
            return Err(format!(
                "equation {:?} = {}: the left side is {sum}",
                eq.terms, eq.target
            ));
        }
    }
    less_ok(model, &model.less, values)
}

/// Checks the symmetry-breaking constraints that distinct mode adds.
pub fn symmetry_ok(model: &Model, values: &[i64]) -> Result<(), String> {
    match &model.symmetry {
        Some(s) => less_ok(model, &s.less, values),
        None => Ok(()),
    }
}

fn less_ok(model: &Model, less: &[(usize, usize)], values: &[i64]) -> Result<(), String> {
    for &(a, b) in less {
        if values[a] >= values[b] {
            return Err(format!(
                "{} = {} is not less than {} = {}",
                model.cells[a], values[a], model.cells[b], values[b]
            ));
        }
    }
    Ok(())
}

/// Checks that `values` (row-major) are a magic square of order `n`: a permutation of
/// `1..=n*n` whose rows, columns and two diagonals all sum to `n(n*n+1)/2`.
pub fn magic_square_ok(n: usize, values: &[i64]) -> Result<(), String> {
    if values.len() != n * n {
        return Err(format!("{} values for order {n}", values.len()));
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if sorted != (1..=(n * n) as i64).collect::<Vec<_>>() {
        return Err(format!("{values:?} is not a permutation of 1..{}", n * n));
    }
    let magic = (n * (n * n + 1) / 2) as i64;
    let at = |r: usize, c: usize| values[r * n + c];
    let mut lines: Vec<(String, i64)> = Vec::new();
    for i in 0..n {
        lines.push((format!("row {}", i + 1), (0..n).map(|c| at(i, c)).sum()));
        lines.push((format!("column {}", i + 1), (0..n).map(|r| at(r, i)).sum()));
    }
    lines.push(("diagonal".into(), (0..n).map(|i| at(i, i)).sum()));
    lines.push((
        "antidiagonal".into(),
        (0..n).map(|i| at(i, n - 1 - i)).sum(),
    ));
    for (line, sum) in lines {
        if sum != magic {
            return Err(format!("{values:?}: {line} sums to {sum}, not {magic}"));
        }
    }
    Ok(())
}

/// The cells of the order-3 magic hexagon, drawn
/// ```text
///     a b c
///    d e f g
///   h i j k l
///    m n o p
///     q r s
/// ```
pub const HEX_CELLS: &str = "abcdefghijklmnopqrs";

/// The 15 lines of the hexagon, as strings of cell letters: 5 rows, 5 lines running
/// down to the right, 5 running down to the left.
pub const HEX_LINES: [&str; 15] = [
    "abc", "defg", "hijkl", "mnop", "qrs", // rows
    "hmq", "dinr", "aejos", "bfkp", "cgl", // down to the right
    "adh", "beim", "cfjnq", "gkor", "lps", // down to the left
];

/// Index of hexagon cell `letter` (`a` = 0 .. `s` = 18).
pub fn hex_index(letter: char) -> usize {
    HEX_CELLS
        .find(letter)
        .unwrap_or_else(|| panic!("{letter:?} is not a hexagon cell"))
}

/// Checks that `values` (cells `a..s`) are an order-3 magic hexagon: a permutation of
/// `1..=19` with every line summing to 38.
pub fn magic_hexagon_ok(values: &[i64]) -> Result<(), String> {
    if values.len() != 19 {
        return Err(format!("{} values for the hexagon", values.len()));
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if sorted != (1..=19).collect::<Vec<i64>>() {
        return Err(format!("{values:?} is not a permutation of 1..19"));
    }
    for line in HEX_LINES {
        let sum: i64 = line.chars().map(|l| values[hex_index(l)]).sum();
        if sum != 38 {
            return Err(format!("{values:?}: line {line} sums to {sum}, not 38"));
        }
    }
    Ok(())
}

/// Checks a 9 x 9 sudoku grid (row-major): every row, column and 3 x 3 box holds 1..9.
pub fn sudoku_ok(values: &[i64]) -> Result<(), String> {
    if values.len() != 81 {
        return Err(format!("{} values for a sudoku", values.len()));
    }
    let digits: BTreeSet<i64> = (1..=9).collect();
    for i in 0..9 {
        let row: BTreeSet<i64> = (0..9).map(|c| values[i * 9 + c]).collect();
        let column: BTreeSet<i64> = (0..9).map(|r| values[r * 9 + i]).collect();
        let (r0, c0) = (i / 3 * 3, i % 3 * 3);
        let boxed: BTreeSet<i64> = (0..9)
            .map(|k| values[(r0 + k / 3) * 9 + c0 + k % 3])
            .collect();
        for (what, set) in [("row", row), ("column", column), ("box", boxed)] {
            if set != digits {
                return Err(format!("{what} {} does not hold 1..9", i + 1));
            }
        }
    }
    Ok(())
}

/// A permutation of cells (see the module doc for how it acts).
pub type Perm = Vec<usize>;

/// `p` applied to solution `v`.
pub fn apply(p: &[usize], v: &[i64]) -> Vec<i64> {
    let mut w = vec![0; v.len()];
    for (i, &x) in v.iter().enumerate() {
        w[p[i]] = x;
    }
    w
}

/// The group generated by `gens`: every product of generators, the identity included.
fn closure(gens: &[Perm]) -> Vec<Perm> {
    let n = gens[0].len();
    let identity: Perm = (0..n).collect();
    let mut group = vec![identity.clone()];
    let mut seen: BTreeSet<Perm> = BTreeSet::from([identity]);
    let mut k = 0;
    while k < group.len() {
        for g in gens {
            let next: Perm = group[k].iter().map(|&i| g[i]).collect();
            if seen.insert(next.clone()) {
                group.push(next);
            }
        }
        k += 1;
    }
    group
}

/// The 8 symmetries (D4) of the `n` x `n` square, cells row-major: generated by the
/// quarter turn `(r, c) -> (c, n-1-r)` and the transpose `(r, c) -> (c, r)`.
pub fn square_symmetries(n: usize) -> Vec<Perm> {
    let turn: Perm = (0..n * n).map(|i| (i % n) * n + (n - 1 - i / n)).collect();
    let transpose: Perm = (0..n * n).map(|i| (i % n) * n + i / n).collect();
    closure(&[turn, transpose])
}

/// Cube coordinates of the hexagon's cells `a..s`, the centre `j` at the origin: row
/// `r` (0..5 from the top) and the doubled horizontal position `x` of the drawing give
/// axial `(q, r') = ((x - 4 - r') / 2, r - 2)` and cube `(q, r', -q - r')`.
fn hex_cube() -> Vec<(i32, i32, i32)> {
    // (row, doubled x) of each cell in the drawing, a..s.
    let rows: [(i32, &[i32]); 5] = [
        (0, &[2, 4, 6]),
        (1, &[1, 3, 5, 7]),
        (2, &[0, 2, 4, 6, 8]),
        (3, &[1, 3, 5, 7]),
        (4, &[2, 4, 6]),
    ];
    let mut cubes = Vec::new();
    for (row, xs) in rows {
        for &x in xs {
            let r = row - 2;
            let q = (x - 4 - r) / 2;
            cubes.push((q, r, -q - r));
        }
    }
    cubes
}

/// The 12 symmetries (D6) of the order-3 hexagon, cells `a..s`: generated by the sixth
/// turn `(x, y, z) -> (-y, -z, -x)` and the reflection `(x, y, z) -> (y, x, z)` of cube
/// coordinates.
pub fn hexagon_symmetries() -> Vec<Perm> {
    let cubes = hex_cube();
    let perm = |f: &dyn Fn((i32, i32, i32)) -> (i32, i32, i32)| -> Perm {
        cubes
            .iter()
            .map(|&c| {
                let image = f(c);
                cubes
                    .iter()
                    .position(|&d| d == image)
                    .expect("a symmetry maps the hexagon onto itself")
            })
            .collect()
    };
    let turn = perm(&|(x, y, z)| (-y, -z, -x));
    let reflect = perm(&|(x, y, z)| (y, x, z));
    closure(&[turn, reflect])
}

/// The orbit of solution `v` under `group`.
pub fn orbit(group: &[Perm], v: &[i64]) -> BTreeSet<Vec<i64>> {
    group.iter().map(|p| apply(p, v)).collect()
}

/// The least element of the orbit of `v`: equal for two solutions exactly when they are
/// symmetric.
pub fn canonical(group: &[Perm], v: &[i64]) -> Vec<i64> {
    orbit(group, v)
        .into_iter()
        .next()
        .expect("a non-empty orbit")
}

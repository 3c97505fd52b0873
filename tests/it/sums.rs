//! Number puzzles with sums through the library: `sums::load`, `SumsSolver`, the
//! built-ins and `sums::rows`.
//!
//! Known counts (`docs/known-counts.md`; each data file cites its source):
//! the order-3 magic hexagon has 12 solutions, 1 up to its 12 symmetries (Wikipedia
//! "Magic hexagon"); the 3 x 3 magic square 8, 1 up to its 8 (the Lo Shu; OEIS
//! A006052); the 4 x 4 magic square 7,040, 880 up to its 8 (Frenicle de Bessy, 1693;
//! OEIS A006052); SEND + MORE = MONEY has exactly one solution, 9567 + 1085 = 10652
//! (Dudeney, 1924); `a, b, c in 0..4, a < b, a + b = c` has the 6 solutions printed in
//! Ruby Quiz 70 ("Using Amb"); each killer sudoku has the one solution its source
//! publishes (Wikipedia "Killer sudoku"; rcbroughton.co.uk forum thread 434).
//!
//! Every solution is checked twice: by `verify`, against the model, and by a checker
//! that restates the puzzle without the model (`common/sums.rs`). Distinct mode is
//! checked against orbits computed here: its classes lie in pairwise different orbits
//! that together cover every solution. Small random models are checked against brute
//! force.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::common::sums::{
    canonical, hex_index, hexagon_symmetries, magic_hexagon_ok, magic_square_ok, orbit,
    square_symmetries, sudoku_ok, symmetry_ok, verify, Perm, HEX_LINES,
};
use crate::common::sums::{solve, Limits, SumsOutcome as Outcome};
use crate::common::tiling::Rng;
use polytile::sums::{self, builtin, Model};

fn path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(file)
}

fn load(file: &str) -> Model {
    let p = path(file);
    polytile::sums::load(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn parse(text: &str) -> Model {
    polytile::sums::parse(text, "test.sum").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Limits that keep every solution.
fn keep(limit: usize, threads: usize) -> Limits {
    Limits {
        limit,
        keep: true,
        threads,
        stats: false,
    }
}

/// Every solution of `model`, kept.
fn all(model: &Model, distinct: bool) -> Outcome {
    let out = solve(model, distinct, keep(usize::MAX, 1));
    assert_eq!(out.count, out.solutions.len());
    out
}

/// Checks each solution with `verify` (and the symmetry-breaking constraints in
/// distinct mode), then with the puzzle's own checker.
fn check_all(
    model: &Model,
    out: &Outcome,
    distinct: bool,
    puzzle_ok: impl Fn(&[i64]) -> Result<(), String>,
) {
    for (k, v) in out.solutions.iter().enumerate() {
        verify(model, v).unwrap_or_else(|e| panic!("solution {}: {e}", k + 1));
        if distinct {
            symmetry_ok(model, v).unwrap_or_else(|e| panic!("class {}: {e}", k + 1));
        }
        puzzle_ok(v).unwrap_or_else(|e| panic!("solution {}: {e}", k + 1));
    }
}

fn pairwise_different(solutions: &[Vec<i64>]) {
    let set: BTreeSet<&Vec<i64>> = solutions.iter().collect();
    assert_eq!(set.len(), solutions.len(), "a solution is repeated");
}

/// Checks distinct mode against all mode: the classes lie in pairwise different orbits
/// of `group`, every orbit has `group.len()` solutions, and the orbits of the classes
/// are exactly the solutions of all mode.
fn check_classes(group: &[Perm], all: &Outcome, classes: &Outcome) {
    assert_eq!(classes.group_order, group.len() as u64);
    assert_eq!(all.group_order, 1);
    let canon: BTreeSet<Vec<i64>> = classes
        .solutions
        .iter()
        .map(|v| canonical(group, v))
        .collect();
    assert_eq!(
        canon.len(),
        classes.solutions.len(),
        "two classes are symmetric"
    );
    let mut covered = BTreeSet::new();
    for v in &classes.solutions {
        let o = orbit(group, v);
        assert_eq!(o.len(), group.len(), "{v:?} is fixed by a symmetry");
        covered.extend(o);
    }
    let every: BTreeSet<Vec<i64>> = all.solutions.iter().cloned().collect();
    assert_eq!(covered, every);
    assert_eq!(classes.total(), all.count as u64);
    assert_eq!(all.total(), all.count as u64);
}

// ---------------------------------------------------------------------------------
// Independent helpers.

#[test]
fn the_checkers_own_symmetries_are_the_figures_groups() {
    let hex = hexagon_symmetries();
    assert_eq!(hex.len(), 12);
    let lines: BTreeSet<BTreeSet<usize>> = HEX_LINES
        .iter()
        .map(|l| l.chars().map(hex_index).collect())
        .collect();
    assert_eq!(lines.len(), 15);
    for p in &hex {
        for line in &lines {
            let image: BTreeSet<usize> = line.iter().map(|&c| p[c]).collect();
            assert!(lines.contains(&image), "{p:?} maps {line:?} off the lines");
        }
    }
    for n in 2..=5 {
        let sq = square_symmetries(n);
        assert_eq!(sq.len(), 8, "order {n}");
        let lo_shu = [2, 7, 6, 9, 5, 1, 4, 3, 8];
        if n == 3 {
            for p in &sq {
                magic_square_ok(3, &crate::common::sums::apply(p, &lo_shu)).unwrap();
            }
        }
    }
    // The checkers reject what they should.
    assert!(magic_square_ok(3, &[2, 7, 6, 9, 5, 1, 4, 8, 3]).is_err());
    assert!(magic_square_ok(3, &[5; 9]).is_err());
    assert!(magic_hexagon_ok(&(1..=19).collect::<Vec<_>>()).is_err());
}

// ---------------------------------------------------------------------------------
// Magic figures.

#[test]
fn magic_hexagon_has_12_solutions_and_1_up_to_symmetry() {
    let model = load("magic-hexagon.sum");
    assert_eq!(model.cells.concat(), crate::common::sums::HEX_CELLS);
    let every = all(&model, false);
    assert_eq!(every.count, 12);
    check_all(&model, &every, false, magic_hexagon_ok);
    pairwise_different(&every.solutions);
    let classes = all(&model, true);
    assert_eq!(classes.count, 1);
    assert_eq!(classes.total(), 12);
    check_all(&model, &classes, true, magic_hexagon_ok);
    check_classes(&hexagon_symmetries(), &every, &classes);
}

#[test]
fn magic_square_3_has_8_solutions_the_lo_shu_and_its_images() {
    let model = load("magic-square-3.sum");
    let every = all(&model, false);
    assert_eq!(every.count, 8);
    check_all(&model, &every, false, |v| magic_square_ok(3, v));
    let group = square_symmetries(3);
    let want = orbit(&group, &[2, 7, 6, 9, 5, 1, 4, 3, 8]);
    let got: BTreeSet<Vec<i64>> = every.solutions.iter().cloned().collect();
    assert_eq!(got, want);
    let classes = all(&model, true);
    assert_eq!(classes.count, 1);
    assert_eq!(classes.total(), 8);
    check_all(&model, &classes, true, |v| magic_square_ok(3, v));
    check_classes(&group, &every, &classes);
}

#[test]
fn magic_square_4_has_7040_solutions_880_up_to_symmetry() {
    let model = load("magic-square-4.sum");
    let every = all(&model, false);
    assert_eq!(every.count, 7040);
    check_all(&model, &every, false, |v| magic_square_ok(4, v));
    pairwise_different(&every.solutions);
    let classes = all(&model, true);
    assert_eq!(classes.count, 880);
    assert_eq!(classes.total(), 7040);
    check_all(&model, &classes, true, |v| magic_square_ok(4, v));
    check_classes(&square_symmetries(4), &every, &classes);
}

#[test]
fn counting_without_keeping_gives_the_same_counts() {
    for (file, t, d, g) in [
        ("magic-hexagon.sum", 12, 1, 12),
        ("magic-square-3.sum", 8, 1, 8),
        ("magic-square-4.sum", 7040, 880, 8),
    ] {
        let model = load(file);
        let out = solve(&model, false, Limits::default());
        assert_eq!((out.count, out.group_order), (t, 1), "{file}");
        assert!(out.solutions.is_empty(), "{file}: kept without keep");
        let out = solve(&model, true, Limits::default());
        assert_eq!((out.count, out.group_order), (d, g), "{file}");
        assert_eq!(out.total(), t as u64, "{file}");
    }
}

/// The first 20,000 solutions (classes in distinct mode) of the 5 x 5 square: each a
/// magic square, pairwise different (in distinct mode, pairwise not symmetric).
fn magic_square_5_first_20000(distinct: bool) {
    let model = load("magic-square-5.sum");
    let out = solve(&model, distinct, keep(20000, 1));
    assert_eq!(out.count, 20000);
    assert_eq!(out.solutions.len(), 20000);
    check_all(&model, &out, distinct, |v| magic_square_ok(5, v));
    pairwise_different(&out.solutions);
    if distinct {
        assert_eq!(out.group_order, 8);
        assert_eq!(out.total(), 160000);
        let group = square_symmetries(5);
        let canon: BTreeSet<Vec<i64>> =
            out.solutions.iter().map(|v| canonical(&group, v)).collect();
        assert_eq!(canon.len(), 20000, "two classes are symmetric");
    }
}

// Two tests rather than one loop, so that the harness runs them side by side.
#[test]
fn magic_square_5_first_20000_solutions_are_verified_and_different() {
    magic_square_5_first_20000(false);
}

#[test]
fn magic_square_5_first_20000_classes_are_verified_and_not_symmetric() {
    magic_square_5_first_20000(true);
}

#[test]
fn builtins_are_the_data_files_puzzles() {
    let files = [
        (builtin::magic_hexagon(), load("magic-hexagon.sum"), 12, 1),
        (
            builtin::magic_square(3).unwrap(),
            load("magic-square-3.sum"),
            8,
            1,
        ),
        (
            builtin::magic_square(4).unwrap(),
            load("magic-square-4.sum"),
            7040,
            880,
        ),
    ];
    for (built, file, t, d) in files {
        assert_eq!(built.cells, file.cells);
        assert_eq!(built.values, file.values);
        let a = all(&built, false);
        assert_eq!(a.count, t, "{:?}", built.name);
        let set = |o: &Outcome| o.solutions.iter().cloned().collect::<BTreeSet<_>>();
        assert_eq!(set(&a), set(&all(&file, false)), "{:?}", built.name);
        for v in &a.solutions {
            verify(&built, v).unwrap();
        }
        let c = all(&built, true);
        assert_eq!((c.count, c.group_order), (d, t as u64 / d as u64));
        for v in &c.solutions {
            verify(&built, v).unwrap();
            symmetry_ok(&built, v).unwrap();
        }
    }
    for v in &all(&builtin::magic_hexagon(), false).solutions {
        magic_hexagon_ok(v).unwrap();
    }
}

#[test]
fn builtin_magic_squares_of_order_1_to_8() {
    // Order 1: the single cell holds 1. Order 2: no magic square exists (a + b = a + c
    // forces b = c).
    let one = builtin::magic_square(1).unwrap();
    let out = all(&one, false);
    assert_eq!(out.solutions, vec![vec![1]]);
    let out = all(&one, true);
    assert_eq!(out.count, 1);
    assert_eq!(all(&builtin::magic_square(2).unwrap(), false).count, 0);
    assert_eq!(all(&builtin::magic_square(2).unwrap(), true).count, 0);
    for n in 1..=8 {
        let m = builtin::magic_square(n).unwrap_or_else(|e| panic!("order {n}: {e}"));
        assert_eq!(m.cells.len(), n * n);
        assert_eq!(m.values, (1..=(n * n) as i64).collect::<Vec<_>>());
    }
    for n in 5..=6 {
        let m = builtin::magic_square(n).unwrap();
        let out = solve(&m, false, keep(50, 1));
        assert_eq!(out.count, 50, "order {n}");
        check_all(&m, &out, false, |v| magic_square_ok(n, v));
    }
    for n in [0, 9, 100] {
        assert!(builtin::magic_square(n).is_err(), "order {n}");
    }
}

// ---------------------------------------------------------------------------------
// Other puzzles.

/// Values by cell name.
fn named(model: &Model, v: &[i64]) -> BTreeMap<String, i64> {
    model.cells.iter().cloned().zip(v.iter().copied()).collect()
}

#[test]
fn send_more_money_has_one_solution() {
    let model = load("send-more-money.sum");
    let out = all(&model, false);
    assert_eq!(out.count, 1);
    check_all(&model, &out, false, |_| Ok(()));
    let got = named(&model, &out.solutions[0]);
    let want: BTreeMap<String, i64> = [
        ("S", 9),
        ("E", 5),
        ("N", 6),
        ("D", 7),
        ("M", 1),
        ("O", 0),
        ("R", 8),
        ("Y", 2),
        ("c1", 1),
        ("c2", 1),
        ("c3", 0),
        ("c4", 1),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(got, want);
    // The sum itself, from the words rather than the model's columns.
    let word = |w: &str| w.chars().fold(0, |n, l| n * 10 + got[&l.to_string()]);
    assert_eq!(word("SEND") + word("MORE"), word("MONEY"));
    assert_eq!(word("MONEY"), 10652);
}

#[test]
fn abc_has_the_six_solutions_of_ruby_quiz_70() {
    let model = load("abc.sum");
    let out = all(&model, false);
    assert_eq!(out.count, 6);
    check_all(&model, &out, false, |v| {
        let (a, b, c) = (v[0], v[1], v[2]);
        let ok = (0..=4).contains(&a) && (0..=4).contains(&b) && (0..=4).contains(&c);
        if ok && a < b && a + b == c {
            Ok(())
        } else {
            Err(format!("{v:?}"))
        }
    });
    assert_eq!(model.cells, ["a", "b", "c"]);
    let got: BTreeSet<Vec<i64>> = out.solutions.into_iter().collect();
    let want: BTreeSet<Vec<i64>> = [
        [0, 1, 1],
        [0, 2, 2],
        [0, 3, 3],
        [0, 4, 4],
        [1, 2, 3],
        [1, 3, 4],
    ]
    .iter()
    .map(|t| t.to_vec())
    .collect();
    assert_eq!(got, want);
}

/// A 9 x 9 grid from its rows of digits.
fn grid(rows: &[&str]) -> Vec<i64> {
    rows.iter()
        .flat_map(|r| r.bytes().map(|b| (b - b'0') as i64))
        .collect()
}

#[test]
fn killer_sudokus_have_their_published_solution() {
    // Wikipedia "Killer sudoku", and "Tarek
    // unsolvable #1" (rcbroughton.co.uk forum thread 434, as listed in the Interactive
    // Sudoku Solver's data/killers.js).
    let cases = [
        (
            "killer-wikipedia.sum",
            [
                "215647398",
                "368952174",
                "794381652",
                "586274931",
                "142593867",
                "973816425",
                "821739546",
                "659428713",
                "437165289",
            ],
        ),
        (
            "killer-tarek1.sum",
            [
                "432851769",
                "786239415",
                "159467823",
                "263974581",
                "971583642",
                "548612397",
                "397148256",
                "614725938",
                "825396174",
            ],
        ),
    ];
    for (file, rows) in cases {
        let model = load(file);
        let want = grid(&rows);
        sudoku_ok(&want).unwrap();
        verify(&model, &want).unwrap_or_else(|e| panic!("{file}: {e}"));
        let out = all(&model, false);
        assert_eq!(out.count, 1, "{file}");
        check_all(&model, &out, false, sudoku_ok);
        assert_eq!(out.solutions[0], want, "{file}");
    }
}

#[test]
fn an_unsatisfiable_model_has_no_solution() {
    let text = std::fs::read_to_string(path("magic-square-3.sum")).unwrap();
    let sixteen = text.replace("= 15", "= 16");
    assert_ne!(sixteen, text);
    let model = parse(&sixteen);
    for distinct in [false, true] {
        let out = solve(&model, distinct, keep(usize::MAX, 1));
        assert_eq!(out.count, 0);
        assert!(out.solutions.is_empty());
        assert_eq!(out.total(), 0);
        let out = solve(&model, distinct, keep(usize::MAX, 2));
        assert_eq!(out.count, 0);
    }
}

// ---------------------------------------------------------------------------------
// Limits, threads and statistics.

#[test]
fn a_limit_keeps_the_first_solutions_in_search_order() {
    let model = load("magic-square-4.sum");
    for distinct in [false, true] {
        let full = all(&model, distinct).solutions;
        for (i, k) in [0, 1, 2, 100, 879, 880, 881, 7040, 7041]
            .into_iter()
            .enumerate()
        {
            let threads = 1 + i % 2;
            let out = solve(&model, distinct, keep(k, threads));
            let want = k.min(full.len());
            assert_eq!(out.count, want, "limit {k}, distinct {distinct}");
            assert_eq!(
                out.solutions,
                full[..want],
                "limit {k}, distinct {distinct}, {threads} threads"
            );
        }
        // Counting without keeping stops at the same place.
        let counted = solve(
            &model,
            distinct,
            Limits {
                limit: 500,
                ..Limits::default()
            },
        );
        assert_eq!(counted.count, 500);
        let kept = solve(&model, distinct, keep(500, 1));
        assert_eq!(counted.total(), kept.total(), "distinct {distinct}");
    }
}

#[test]
fn two_threads_find_the_same_solutions_in_the_same_order() {
    let cases = [
        ("magic-square-4.sum", usize::MAX),
        ("magic-square-4.sum", 1000),
        ("magic-square-5.sum", 300),
        ("magic-hexagon.sum", usize::MAX),
        ("killer-wikipedia.sum", usize::MAX),
    ];
    for (file, limit) in cases {
        let model = load(file);
        for distinct in [false, true] {
            let one = solve(&model, distinct, keep(limit, 1));
            let two = solve(&model, distinct, keep(limit, 2));
            assert_eq!(one.count, two.count, "{file} {limit} {distinct}");
            assert_eq!(one.solutions, two.solutions, "{file} {limit} {distinct}");
            assert_eq!(one.group_order, two.group_order);
        }
    }
}

#[test]
fn stats_count_nodes_without_changing_solutions() {
    let model = load("magic-square-3.sum");
    let plain = solve(&model, false, keep(usize::MAX, 1));
    let with = solve(
        &model,
        false,
        Limits {
            stats: true,
            ..keep(usize::MAX, 1)
        },
    );
    assert_eq!(plain.solutions, with.solutions);
    assert!(with.nodes >= with.count as u64, "{} nodes", with.nodes);
}

// ---------------------------------------------------------------------------------
// Rendering.

/// The integers of a drawn row, left to right, and the column where each ends.
fn numbers(row: &str) -> Vec<(i64, usize)> {
    let bytes = row.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let negative = bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if bytes[i].is_ascii_digit() || negative {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push((row[start..i].parse().unwrap(), i));
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn grids_are_drawn_row_by_row_right_aligned() {
    for (file, n) in [("magic-square-3.sum", 3), ("magic-square-4.sum", 4)] {
        let model = load(file);
        for v in solve(&model, false, keep(50, 1)).solutions {
            let rows = sums::rows(&model, &v);
            assert_eq!(rows.len(), n, "{rows:?}");
            let cells: Vec<Vec<(i64, usize)>> = rows.iter().map(|r| numbers(r)).collect();
            let flat: Vec<i64> = cells.iter().flatten().map(|&(x, _)| x).collect();
            assert_eq!(flat, v, "{rows:?}");
            let ends = |r: &Vec<(i64, usize)>| r.iter().map(|&(_, e)| e).collect::<Vec<_>>();
            for r in &cells {
                assert_eq!(ends(r), ends(&cells[0]), "not right-aligned: {rows:?}");
            }
        }
    }
    let model = load("killer-wikipedia.sum");
    let v = all(&model, false).solutions.remove(0);
    let rows = sums::rows(&model, &v);
    let flat: Vec<i64> = rows
        .iter()
        .flat_map(|r| numbers(r))
        .map(|(x, _)| x)
        .collect();
    assert_eq!(flat, v, "{rows:?}");
}

#[test]
fn the_hexagon_is_drawn_as_a_hexagon() {
    let model = load("magic-hexagon.sum");
    for v in all(&model, false).solutions {
        let rows = sums::rows(&model, &v);
        let cells: Vec<Vec<(i64, usize)>> = rows.iter().map(|r| numbers(r)).collect();
        let sizes: Vec<usize> = cells.iter().map(Vec::len).collect();
        assert_eq!(sizes, [3, 4, 5, 4, 3], "{rows:?}");
        let flat: Vec<i64> = cells.iter().flatten().map(|&(x, _)| x).collect();
        assert_eq!(flat, v, "{rows:?}");
        // Each cell of a short row stands between its two neighbours in the longer row
        // next to it.
        for (short, long) in [(0, 1), (1, 2), (3, 2), (4, 3)] {
            for (k, &(_, end)) in cells[short].iter().enumerate() {
                let left = cells[long][k].1;
                let right = cells[long][k + 1].1;
                assert!(left < end && end < right, "{rows:?}");
            }
        }
    }
    let model = load("send-more-money.sum");
    let v = all(&model, false).solutions.remove(0);
    let rows = sums::rows(&model, &v);
    let drawn: Vec<Vec<i64>> = rows
        .iter()
        .map(|r| numbers(r).into_iter().map(|(x, _)| x).collect())
        .collect();
    assert_eq!(drawn, [vec![9, 5, 6, 7, 1, 0, 8, 2], vec![1, 0, 1, 1]]);
}

// ---------------------------------------------------------------------------------
// Random small models against brute force.

/// A linear equation as written: `lhs terms + lhs constant = rhs terms + rhs constant`,
/// terms `(coefficient, cell)`.
#[derive(Clone, Debug)]
struct Eq {
    lhs: Vec<(i64, usize)>,
    lhs_const: i64,
    rhs: Vec<(i64, usize)>,
    rhs_const: i64,
}

impl Eq {
    fn holds(&self, v: &[i64]) -> bool {
        let side =
            |terms: &[(i64, usize)], k: i64| terms.iter().map(|&(c, x)| c * v[x]).sum::<i64>() + k;
        side(&self.lhs, self.lhs_const) == side(&self.rhs, self.rhs_const)
    }
}

/// A small random puzzle: its `.sum` text and the constraints it states, kept here in
/// their own form for the brute force.
#[derive(Debug)]
struct Random {
    text: String,
    names: Vec<String>,
    values: Vec<i64>,
    allowed: Vec<Vec<i64>>,
    distinct: Vec<Vec<usize>>,
    cages: Vec<(i64, Vec<usize>)>,
    equations: Vec<Eq>,
    less: Vec<(usize, usize)>,
    symmetry: Option<(u64, Vec<(usize, usize)>)>,
}

impl Random {
    fn ok(&self, v: &[i64], distinct_mode: bool) -> bool {
        let all_different = |cells: &[usize]| {
            cells
                .iter()
                .enumerate()
                .all(|(k, &a)| cells[k + 1..].iter().all(|&b| v[a] != v[b]))
        };
        (0..v.len()).all(|i| self.allowed[i].contains(&v[i]))
            && self.distinct.iter().all(|g| all_different(g))
            && self
                .cages
                .iter()
                .all(|(t, g)| all_different(g) && g.iter().map(|&c| v[c]).sum::<i64>() == *t)
            && self.equations.iter().all(|e| e.holds(v))
            && self.less.iter().all(|&(a, b)| v[a] < v[b])
            && (!distinct_mode
                || self
                    .symmetry
                    .as_ref()
                    .is_none_or(|(_, l)| l.iter().all(|&(a, b)| v[a] < v[b])))
    }

    fn brute_force(&self, distinct_mode: bool) -> BTreeSet<Vec<i64>> {
        let n = self.names.len();
        let k = self.values.len();
        let mut out = BTreeSet::new();
        for code in 0..k.pow(n as u32) {
            let v: Vec<i64> = (0..n)
                .map(|i| self.values[code / k.pow(i as u32) % k])
                .collect();
            if self.ok(&v, distinct_mode) {
                out.insert(v);
            }
        }
        out
    }
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// `count` different indices below `n`, in random order.
fn sample(rng: &mut Rng, n: usize, count: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    for i in 0..n {
        let j = i + rng.below(n - i);
        all.swap(i, j);
    }
    all.truncate(count);
    all
}

/// A value list in one of the spellings `values:` and `domain` accept.
fn spell_values(rng: &mut Rng, values: &[i64]) -> String {
    let contiguous = values.windows(2).all(|w| w[1] == w[0] + 1);
    if contiguous && values.len() > 1 && rng.below(2) == 0 {
        return format!("{}..{}", values[0], values[values.len() - 1]);
    }
    let mut s = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            s.push_str(pick::<&str>(rng, &[" ", ", ", ","]));
        }
        s.push_str(&v.to_string());
    }
    s
}

/// Terms of one side of an equation, `3*x - y + 2` style.
fn spell_side(rng: &mut Rng, names: &[String], terms: &[(i64, usize)], constant: i64) -> String {
    let mut s = String::new();
    let mut parts: Vec<(i64, Option<usize>)> = terms.iter().map(|&(c, x)| (c, Some(x))).collect();
    if constant != 0 || terms.is_empty() {
        let at = rng.below(parts.len() + 1);
        parts.insert(at, (constant, None));
    }
    for (i, &(c, x)) in parts.iter().enumerate() {
        // A leading negative term is written as a negative integer; later ones after `-`.
        let magnitude = if i == 0 { c } else { c.abs() };
        if i > 0 {
            s.push_str(if c < 0 { " - " } else { " + " });
        }
        match x {
            None => s.push_str(&magnitude.to_string()),
            Some(x) if magnitude == 1 && rng.below(2) == 0 => s.push_str(&names[x]),
            Some(x) => {
                s.push_str(&magnitude.to_string());
                s.push_str(pick::<&str>(rng, &["*", " * ", " *", "* "]));
                s.push_str(&names[x]);
            }
        }
    }
    s
}

fn random_model(rng: &mut Rng) -> Random {
    const NAMES: [&str; 10] = [
        "a", "b", "x1", "y_2", "Zed", "r1c1", "carry_3", "q", "S", "s",
    ];
    let n = 3 + rng.below(3);
    let names: Vec<String> = sample(rng, NAMES.len(), n)
        .into_iter()
        .map(|i| NAMES[i].to_string())
        .collect();
    let k = 3 + rng.below(3);
    let lo = rng.below(8) as i64 - 4;
    let mut values: Vec<i64> = if rng.below(2) == 0 {
        (lo..lo + k as i64).collect()
    } else {
        sample(rng, 11, k)
            .into_iter()
            .map(|x| x as i64 - 4)
            .collect()
    };
    values.sort_unstable();
    let mut text = String::from("# A random model.\n");
    if rng.below(2) == 0 {
        text.push_str("name: random\n");
    }
    text.push_str(&format!("values: {}\n", spell_values(rng, &values)));
    // The drawing: one line, or several lines with random indents.
    if rng.below(2) == 0 {
        text.push_str(&format!("cells: {}\n\n", names.join(" ")));
    } else {
        text.push_str("cells:\n");
        let mut i = 0;
        while i < n {
            let take = 1 + rng.below(n - i);
            let indent = " ".repeat(rng.below(4));
            text.push_str(&format!("{indent}{}\n", names[i..i + take].join("  ")));
            i += take;
        }
        text.push('\n');
    }
    let mut allowed = vec![values.clone(); n];
    for _ in 0..rng.below(3) {
        let size = 1 + rng.below(values.len());
        let mut spec: Vec<i64> = sample(rng, values.len(), size)
            .into_iter()
            .map(|i| values[i])
            .collect();
        spec.sort_unstable();
        let size = 1 + rng.below(2);
        let cells = sample(rng, n, size);
        for &c in &cells {
            allowed[c].retain(|x| spec.contains(x));
        }
        let list: Vec<&str> = cells.iter().map(|&c| names[c].as_str()).collect();
        text.push_str(&format!(
            "domain {}: {}\n",
            spell_values(rng, &spec),
            list.join(" ")
        ));
    }
    // A witness assignment, so that most equations and cages can be satisfied.
    let witness: Vec<i64> = allowed
        .iter()
        .map(|a| {
            if a.is_empty() {
                values[0]
            } else {
                *pick(rng, a)
            }
        })
        .collect();
    let mut distinct = Vec::new();
    for _ in 0..rng.below(3) {
        if rng.below(5) == 0 {
            text.push_str("distinct: all\n");
            distinct.push((0..n).collect());
        } else {
            let size = 2 + rng.below(n - 1);
            let g = sample(rng, n, size);
            let list: Vec<&str> = g.iter().map(|&c| names[c].as_str()).collect();
            text.push_str(&format!("distinct: {}\n", list.join(" ")));
            distinct.push(g);
        }
    }
    let mut cages = Vec::new();
    if rng.below(4) == 0 {
        let size = 1 + rng.below(n);
        let g = sample(rng, n, size);
        let total = if rng.below(4) == 0 {
            rng.below(10) as i64 - 3
        } else {
            g.iter().map(|&c| witness[c]).sum()
        };
        let list: Vec<&str> = g.iter().map(|&c| names[c].as_str()).collect();
        text.push_str(&format!("cage {total}: {}\n", list.join(" ")));
        cages.push((total, g));
    }
    let mut equations = Vec::new();
    for _ in 0..rng.below(4) {
        let term = |rng: &mut Rng| {
            let c = loop {
                let c = rng.below(7) as i64 - 3;
                if c != 0 {
                    break c;
                }
            };
            (c, rng.below(n))
        };
        let lhs: Vec<(i64, usize)> = (0..1 + rng.below(3)).map(|_| term(rng)).collect();
        let rhs: Vec<(i64, usize)> = (0..rng.below(3)).map(|_| term(rng)).collect();
        // Skip equations whose cells all cancel: the format rejects them.
        let mut net = vec![0i64; n];
        for &(c, x) in &lhs {
            net[x] += c;
        }
        for &(c, x) in &rhs {
            net[x] -= c;
        }
        if net.iter().all(|&c| c == 0) {
            continue;
        }
        let lhs_const = if rng.below(3) == 0 {
            rng.below(7) as i64 - 3
        } else {
            0
        };
        let mut eq = Eq {
            lhs,
            lhs_const,
            rhs,
            rhs_const: 0,
        };
        let side = |t: &[(i64, usize)]| t.iter().map(|&(c, x)| c * witness[x]).sum::<i64>();
        eq.rhs_const = if rng.below(4) == 0 {
            rng.below(9) as i64 - 4
        } else {
            side(&eq.lhs) + eq.lhs_const - side(&eq.rhs)
        };
        text.push_str(&format!(
            "{} = {}\n",
            spell_side(rng, &names, &eq.lhs, eq.lhs_const),
            spell_side(rng, &names, &eq.rhs, eq.rhs_const)
        ));
        equations.push(eq);
    }
    let mut less = Vec::new();
    for _ in 0..rng.below(3) {
        let p = sample(rng, n, 2);
        let (a, b) = (p[0], p[1]);
        if rng.below(2) == 0 {
            text.push_str(&format!("{} < {}\n", names[a], names[b]));
        } else {
            text.push_str(&format!("{} > {}  # the same as <\n", names[b], names[a]));
        }
        less.push((a, b));
    }
    let symmetry = if rng.below(2) == 0 {
        let order = 1 + rng.below(6) as u64;
        let pairs: Vec<(usize, usize)> = (0..1 + rng.below(2))
            .map(|_| {
                let p = sample(rng, n, 2);
                (p[0], p[1])
            })
            .collect();
        let spelled: Vec<String> = pairs
            .iter()
            .map(|&(a, b)| format!("{} < {}", names[a], names[b]))
            .collect();
        text.push_str(&format!("symmetry {order}: {}\n", spelled.join(", ")));
        Some((order, pairs))
    } else {
        None
    };
    match rng.below(4) {
        0 => text.push_str("order: smallest\n"),
        1 => text.push_str("order: static\n"),
        2 => {
            let p = sample(rng, n, n);
            let list: Vec<&str> = p.iter().map(|&c| names[c].as_str()).collect();
            text.push_str(&format!("order: {}\n", list.join(" ")));
        }
        _ => {}
    }
    Random {
        text,
        names,
        values,
        allowed,
        distinct,
        cages,
        equations,
        less,
        symmetry,
    }
}

#[test]
fn random_small_models_match_brute_force() {
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut solvable = 0;
    // Models without a stated group whose distinct mode used their automorphisms.
    let mut grouped = 0;
    for case in 0..400 {
        let r = random_model(&mut rng);
        let model = parse(&r.text);
        assert_eq!(model.values, r.values, "{}", r.text);
        // Cell `i` of the model is cell `index[i]` of the brute force.
        let index: Vec<usize> = model
            .cells
            .iter()
            .map(|c| r.names.iter().position(|x| x == c).expect("a known name"))
            .collect();
        assert_eq!(index.len(), r.names.len());
        let mut all_mode = Vec::new();
        for distinct in [false, true] {
            let threads = 1 + case % 2;
            let out = solve(&model, distinct, keep(usize::MAX, threads));
            if !distinct {
                all_mode = out.solutions.clone();
            } else if r.symmetry.is_none() {
                // No stated group: one solution per class of the model's automorphisms
                // G, which all mode (checked against brute force) writes out class by
                // class, the class's representative first. So the classes are every
                // |G|-th solution of all mode, and stand for |G| each.
                let g = out.group_order as usize;
                grouped += usize::from(g > 1);
                let firsts: Vec<Vec<i64>> = all_mode.iter().step_by(g).cloned().collect();
                assert_eq!(out.solutions, firsts, "case {case}\n{}", r.text);
                assert_eq!(out.total(), all_mode.len() as u64, "{}", r.text);
                if !firsts.is_empty() {
                    solvable += 1;
                    let k = rng.below(firsts.len());
                    let cut = solve(&model, distinct, keep(k, 1));
                    assert_eq!(cut.solutions, out.solutions[..k], "{}", r.text);
                }
                continue;
            }
            let mut got = BTreeSet::new();
            for v in &out.solutions {
                verify(&model, v).unwrap_or_else(|e| panic!("{e}\n{}", r.text));
                let mut mine = vec![0; v.len()];
                for (i, &x) in v.iter().enumerate() {
                    mine[index[i]] = x;
                }
                assert!(got.insert(mine), "a repeated solution\n{}", r.text);
            }
            let want = r.brute_force(distinct);
            assert_eq!(got, want, "case {case}, distinct {distinct}\n{}", r.text);
            assert_eq!(out.count, want.len(), "{}", r.text);
            let order = match (&r.symmetry, distinct) {
                (Some((g, _)), true) => *g,
                _ => 1,
            };
            assert_eq!(out.group_order, order, "{}", r.text);
            assert_eq!(out.total(), want.len() as u64 * order);
            if !want.is_empty() {
                solvable += 1;
                // A limit keeps a prefix of the search order.
                let k = rng.below(want.len());
                let cut = solve(&model, distinct, keep(k, 1));
                assert_eq!(cut.solutions, out.solutions[..k], "{}", r.text);
            }
        }
    }
    // Enough of the models have solutions for the comparison to mean something.
    assert!(solvable > 200, "{solvable} solvable");
    assert!(grouped > 10, "{grouped} models used their automorphisms");
}

/// Both searches, and the drawing order, find the same solutions of the magic figures:
/// the static search's exact partner and pair checks and the propagating search's
/// hidden singles and implied sums prune nothing that is a solution.
#[test]
fn every_search_order_finds_the_same_solutions() {
    for (file, distinct) in [
        ("magic-hexagon.sum", false),
        ("magic-hexagon.sum", true),
        ("magic-square-4.sum", true),
    ] {
        let mut model = load(file);
        let mut sets = Vec::new();
        let drawing = polytile::sums::Order::Static((0..model.cells.len()).collect());
        for order in [
            polytile::sums::Order::Planned,
            polytile::sums::Order::Smallest,
            drawing,
        ] {
            model.order = order.clone();
            let found: BTreeSet<Vec<i64>> = solve(&model, distinct, keep(usize::MAX, 2))
                .solutions
                .into_iter()
                .collect();
            for s in &found {
                verify(&model, s).unwrap_or_else(|e| panic!("{file} {order:?}: {e}"));
            }
            sets.push((order, found));
        }
        for (order, set) in &sets[1..] {
            assert_eq!(
                set, &sets[0].1,
                "{file} (distinct: {distinct}): {order:?} against static"
            );
        }
    }
}

/// All solutions of `model` by trying every permutation of `values` (the model must
/// have one cell per value and `distinct: all`), checked with the verifier.
fn brute_force_permutations(model: &Model, values: &[i64]) -> BTreeSet<Vec<i64>> {
    fn permute(k: usize, current: &mut Vec<i64>, model: &Model, out: &mut BTreeSet<Vec<i64>>) {
        if k == current.len() {
            if verify(model, current).is_ok() {
                out.insert(current.clone());
            }
            return;
        }
        for i in k..current.len() {
            current.swap(k, i);
            permute(k + 1, current, model, out);
            current.swap(k, i);
        }
    }
    let mut out = BTreeSet::new();
    permute(0, &mut values.to_vec(), model, &mut out);
    out
}

/// In all mode the search finds one solution per class of the model's automorphisms
/// and writes out the class: the semi-magic 3 x 3 squares (rows and columns only, no
/// diagonals) have a larger group than the square's 8 (any row or column permutation,
/// and the transpose: 72), and the sets must equal brute force in every search order.
#[test]
fn classes_of_automorphisms_expand_to_exactly_the_solutions() {
    let text = "values: 1..9\ngrid: 3 x 3\ndistinct: all\n\
                r1c1 + r1c2 + r1c3 = 15\nr2c1 + r2c2 + r2c3 = 15\nr3c1 + r3c2 + r3c3 = 15\n\
                r1c1 + r2c1 + r3c1 = 15\nr1c2 + r2c2 + r3c2 = 15\nr1c3 + r2c3 + r3c3 = 15\n";
    let mut model = parse(text);
    let expected = brute_force_permutations(&model, &(1..=9).collect::<Vec<_>>());
    // One class: every semi-magic square of 1..9 is a row and column shuffle of the
    // Lo Shu, or of its transpose.
    assert_eq!(expected.len(), 72);
    for order in [
        polytile::sums::Order::Planned,
        polytile::sums::Order::Smallest,
    ] {
        model.order = order.clone();
        let out = all(&model, false);
        // The 72 cell maps, each alone and with the complement v -> 10 - v.
        assert_eq!(out.automorphisms, 144, "{order:?}");
        let found: BTreeSet<Vec<i64>> = out.solutions.iter().cloned().collect();
        assert_eq!(
            found.len(),
            out.solutions.len(),
            "{order:?}: a solution twice"
        );
        assert_eq!(found, expected, "{order:?}");
    }
    // A model whose solutions repeat values is searched in full: no class expansion.
    let repeated = parse("values: 1..3\ncells: a b\na + b = 4\n");
    let out = all(&repeated, false);
    assert_eq!((out.count, out.automorphisms), (3, 1));
}

/// The automorphism groups the solver finds for the shipped figures: the hexagon's 12
/// (its lines of 3 and 5 cells rule out the complement v -> 20 - v: 3 * 20 - 38 is not
/// 38); for the magic squares, the square's 8, times (order 4 and 5) the 4 maps that
/// swap rows and columns symmetrically about the centre, times the complement
/// v -> n² + 1 - v (Harry White's 64 for order 5); none for the killers.
#[test]
fn automorphism_groups_of_the_shipped_models() {
    for (file, order) in [
        ("magic-hexagon.sum", 12),
        ("magic-square-3.sum", 16),
        ("magic-square-4.sum", 64),
        ("magic-square-5.sum", 64),
        ("killer-wikipedia.sum", 1),
        ("send-more-money.sum", 1),
    ] {
        let out = solve(&load(file), false, keep(1, 1));
        assert_eq!(out.automorphisms, order, "{file}");
    }
}

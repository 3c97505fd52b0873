//! `polytile sums FILE`, `polytile magic-hexagon` and `polytile magic-square N`: output
//! formats, options, exit codes and error lines.
//!
//! Known counts (`docs/known-counts.md`; the data files cite their sources): the
//! 3 x 3 magic square has 8 solutions, 1 up to its 8 symmetries (the Lo Shu); the 4 x 4
//! has 7,040, 880 up to symmetry (Frenicle de Bessy, 1693); the order-3 magic hexagon
//! has 12, 1 up to its 12 symmetries. Drawings are read back and checked with the
//! independent checkers of `tests/common/sums.rs`, and compared with what the library's
//! `sums::rows` draws for the library's solutions.
//!
//! Errors (`docs/sums-format.md`): a malformed file exits with code 2, prints nothing on
//! standard output and one line on standard error, `FILE:LINE:COLUMN: message`; a bad
//! argument exits with code 2 and one line. A model without solutions is not an error.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::cli::{
    check_seconds, fails, json_lines, number, parse_text, run_ok, stdout_of, strip, timed, TempFile,
};
use crate::common::sums::{magic_square_ok, orbit, solve, square_symmetries, Limits};
use polytile::sums;
use serde_json::Value;

const SQUARE3: &str = "data/magic-square-3.sum";

/// `polytile sums data/magic-square-3.sum ARGS`.
fn square3(args: &[&str]) -> String {
    let mut all = vec!["sums", SQUARE3];
    all.extend_from_slice(args);
    stdout_of(&all)
}

/// The numbers of a drawn row, left to right, each with the column where it ends.
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

/// Reads a drawn `n` x `n` square back: `n` rows of `n` right-aligned numbers; checks
/// it is a magic square and returns it row-major.
fn read_square(n: usize, rows: &[String]) -> Vec<i64> {
    assert_eq!(rows.len(), n, "{rows:?}");
    let cells: Vec<Vec<(i64, usize)>> = rows.iter().map(|r| numbers(r)).collect();
    let ends = |r: &Vec<(i64, usize)>| r.iter().map(|&(_, e)| e).collect::<Vec<_>>();
    for r in &cells {
        assert_eq!(r.len(), n, "{rows:?}");
        assert_eq!(ends(r), ends(&cells[0]), "not right-aligned: {rows:?}");
    }
    let v: Vec<i64> = cells.iter().flatten().map(|&(x, _)| x).collect();
    magic_square_ok(n, &v).unwrap_or_else(|e| panic!("{rows:?}: {e}"));
    v
}

fn load(file: &str) -> polytile::sums::Model {
    polytile::sums::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap()
}

// ---------------------------------------------------------------------------------
// Output.

#[test]
fn text_output_draws_the_8_squares() {
    let (drawings, last) = parse_text(&square3(&[]));
    assert_eq!(last, "8 solutions");
    assert_eq!(drawings.len(), 8);
    let squares: BTreeSet<Vec<i64>> = drawings.iter().map(|d| read_square(3, d)).collect();
    let lo_shu = [2, 7, 6, 9, 5, 1, 4, 3, 8];
    assert_eq!(squares, orbit(&square_symmetries(3), &lo_shu));
    // --all is the default.
    assert_eq!(square3(&["--all"]), square3(&[]));
}

#[test]
fn drawings_are_the_librarys_solutions_in_order() {
    for file in [
        SQUARE3,
        "data/magic-square-4.sum",
        "data/magic-hexagon.sum",
        "data/send-more-money.sum",
        "data/abc.sum",
        "data/killer-wikipedia.sum",
    ] {
        let model = load(file);
        for distinct in [false, true] {
            let limits = Limits {
                limit: 20,
                keep: true,
                ..Limits::default()
            };
            let lib = solve(&model, distinct, limits);
            let mut args = vec!["sums", file, "--limit", "20"];
            if distinct {
                args.push("--distinct");
            }
            let (drawings, _) = parse_text(&stdout_of(&args));
            let want: Vec<Vec<String>> = lib
                .solutions
                .iter()
                .map(|v| sums::rows(&model, v))
                .collect();
            assert_eq!(drawings, want, "{args:?}");
        }
    }
}

#[test]
fn count_and_distinct_final_lines() {
    assert_eq!(square3(&["--count"]), "8 solutions\n");
    assert_eq!(
        square3(&["--count", "--distinct"]),
        "1 distinct solution (8 in all, 8 symmetries)\n"
    );
    let (drawings, last) = parse_text(&square3(&["--distinct"]));
    assert_eq!(last, "1 distinct solution (8 in all, 8 symmetries)");
    assert_eq!(drawings.len(), 1);
    let v = read_square(3, &drawings[0]);
    // The symmetry statement keeps the square whose least corner is top left and whose
    // top right corner is less than its bottom left.
    assert!(
        v[0] < v[2] && v[0] < v[6] && v[0] < v[8] && v[2] < v[6],
        "{v:?}"
    );
    assert_eq!(
        stdout_of(&["sums", "data/send-more-money.sum", "--count"]),
        "1 solution\n"
    );
    assert_eq!(
        stdout_of(&["sums", "data/abc.sum", "--count"]),
        "6 solutions\n"
    );
}

#[test]
fn built_in_puzzles() {
    assert_eq!(stdout_of(&["magic-hexagon", "--count"]), "12 solutions\n");
    assert_eq!(
        stdout_of(&["magic-hexagon", "--count", "--distinct"]),
        "1 distinct solution (12 in all, 12 symmetries)\n"
    );
    assert_eq!(
        stdout_of(&["magic-square", "4", "--count", "--distinct"]),
        "880 distinct solutions (7040 in all, 8 symmetries)\n"
    );
    assert_eq!(
        stdout_of(&["magic-square", "4", "--count"]),
        "7040 solutions\n"
    );
    // The built-in 3 x 3 square is the data file's puzzle.
    let (drawings, last) = parse_text(&stdout_of(&["magic-square", "3"]));
    assert_eq!(last, "8 solutions");
    let squares: BTreeSet<Vec<i64>> = drawings.iter().map(|d| read_square(3, d)).collect();
    let (file, _) = parse_text(&square3(&[]));
    let from_file: BTreeSet<Vec<i64>> = file.iter().map(|d| read_square(3, d)).collect();
    assert_eq!(squares, from_file);
    assert_eq!(
        stdout_of(&["magic-square", "2", "--count"]),
        "0 solutions\n"
    );
    assert_eq!(stdout_of(&["magic-square", "1", "--count"]), "1 solution\n");
    let (d, last) = parse_text(&stdout_of(&["magic-square", "5", "--limit", "3"]));
    assert_eq!(last, "3 solutions");
    for rows in &d {
        read_square(5, rows);
    }
}

#[test]
fn json_output_is_one_object_per_solution_then_the_summary() {
    let (json, wall) = timed(|| square3(&["--format", "json"]));
    let lines = json_lines(&json);
    assert_eq!(lines.len(), 9);
    let (text, _) = parse_text(&square3(&[]));
    for (i, line) in lines[..8].iter().enumerate() {
        assert_eq!(number(line, "solution"), (i + 1) as f64);
        let rows: Vec<String> = line["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r.as_str().expect("a row string").to_string())
            .collect();
        assert_eq!(rows, text[i], "solution {}", i + 1);
        let values = line["values"].as_object().expect("values");
        assert_eq!(values.len(), 9);
        let mut v = Vec::new();
        for r in 1..=3 {
            for c in 1..=3 {
                v.push(number(values, &format!("r{r}c{c}")) as i64);
            }
        }
        assert_eq!(v, read_square(3, &rows));
    }
    let summary = &lines[8];
    assert_eq!(number(summary, "solutions"), 8.0);
    assert!(number(summary, "nodes") > 0.0);
    check_seconds(summary, wall);
    assert!(number(summary, "threads") >= 1.0);
    assert!(summary["puzzle"].is_string(), "{summary:?}");
    assert_eq!(summary.get("mode"), Some(&Value::from("all")));
    assert_eq!(summary.get("complete"), Some(&Value::Bool(true)));
    assert!(summary.get("solution").is_none());

    let lines = json_lines(&square3(&["--format", "json", "--distinct"]));
    assert_eq!(lines.len(), 2);
    let summary = &lines[1];
    assert_eq!(summary.get("mode"), Some(&Value::from("distinct")));
    assert_eq!(number(summary, "solutions"), 1.0);
    assert_eq!(number(summary, "total"), 8.0);
    assert_eq!(number(summary, "symmetries"), 8.0);
    assert_eq!(summary.get("complete"), Some(&Value::Bool(true)));

    let lines = json_lines(&square3(&["--format", "json", "--count"]));
    assert_eq!(lines.len(), 1);
    assert_eq!(number(&lines[0], "solutions"), 8.0);

    // SEND + MORE: values by letter.
    let lines = json_lines(&stdout_of(&[
        "sums",
        "data/send-more-money.sum",
        "--format",
        "json",
    ]));
    assert_eq!(lines.len(), 2);
    let values = lines[0]["values"].as_object().expect("values");
    let digits: String = "SENDMORY"
        .chars()
        .map(|l| number(values, &l.to_string()).to_string())
        .collect();
    assert_eq!(digits, "95671082");
}

#[test]
fn limit_stops_after_n_solutions() {
    let (all, _) = parse_text(&square3(&[]));
    for n in [0, 1, 3, 8, 9] {
        let (drawings, last) = parse_text(&square3(&["--limit", &n.to_string()]));
        let want = n.min(8);
        let s = if want == 1 { "" } else { "s" };
        assert_eq!(last, format!("{want} solution{s}"), "--limit {n}");
        assert_eq!(drawings, all[..want], "--limit {n}");
    }
    let json = json_lines(&square3(&["--limit", "3", "--format", "json"]));
    assert_eq!(json.len(), 4);
    assert_eq!(number(&json[3], "solutions"), 3.0);
    assert_eq!(json[3].get("complete"), Some(&Value::Bool(false)));
    let four = stdout_of(&["sums", "data/magic-square-4.sum", "--limit", "5", "--count"]);
    assert_eq!(four, "5 solutions\n");
}

#[test]
fn output_does_not_depend_on_threads() {
    for (file, args) in [
        (SQUARE3, &[][..]),
        (SQUARE3, &["--distinct"]),
        ("data/magic-square-4.sum", &[]),
        ("data/magic-square-4.sum", &["--distinct"]),
        ("data/magic-square-4.sum", &["--limit", "100"]),
        ("data/magic-square-5.sum", &["--limit", "200"]),
    ] {
        let run = |threads: &str, extra: &[&str]| {
            let mut a = vec!["sums", file];
            a.extend_from_slice(args);
            a.extend_from_slice(extra);
            a.extend_from_slice(&["--threads", threads]);
            stdout_of(&a)
        };
        assert_eq!(run("1", &[]), run("2", &[]), "{file} {args:?}");
        let fields = ["seconds", "threads", "nodes"];
        assert_eq!(
            strip(&run("1", &["--format", "json"]), &fields),
            strip(&run("2", &["--format", "json"]), &fields),
            "{file} {args:?}"
        );
    }
}

#[test]
fn stats_go_to_stderr() {
    let plain = square3(&[]);
    let (out, err) = run_ok(&["sums", SQUARE3, "--stats"]);
    assert_eq!(out, plain, "--stats changes standard output");
    assert!(
        err.lines().any(|l| l.starts_with("nodes:")),
        "no nodes line: {err:?}"
    );
    let (out, err) = run_ok(&["sums", SQUARE3, "--stats", "--count"]);
    assert_eq!(out, "8 solutions\n");
    assert!(err.lines().any(|l| l.starts_with("nodes:")), "{err:?}");
}

#[test]
fn an_unsatisfiable_file_has_0_solutions() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SQUARE3))
        .unwrap()
        .replace("= 15", "= 16");
    let file = temp_file("unsatisfiable", text.as_bytes());
    let path = file.0.display().to_string();
    assert_eq!(stdout_of(&["sums", &path]), "0 solutions\n");
    assert_eq!(stdout_of(&["sums", &path, "--count"]), "0 solutions\n");
    assert_eq!(
        stdout_of(&["sums", &path, "--distinct"]),
        "0 distinct solutions (0 in all, 8 symmetries)\n"
    );
    let json = json_lines(&stdout_of(&["sums", &path, "--format", "json"]));
    assert_eq!(json.len(), 1);
    assert_eq!(number(&json[0], "solutions"), 0.0);
    assert_eq!(json[0].get("complete"), Some(&Value::Bool(true)));
}

// ---------------------------------------------------------------------------------
// Errors.

/// A temporary `.sum` file for this test crate.
fn temp_file(name: &str, bytes: &[u8]) -> TempFile {
    TempFile::new("sums-cli", name, "sum", bytes)
}

/// A path for a temporary `.sum` file of this test crate (nothing is written).
fn temp_path(name: &str) -> PathBuf {
    TempFile::path("sums-cli", name, "sum")
}

/// A malformed file: name, contents, the line of the error, its column when the
/// offending word is unambiguous, words of its message.
type BadFile = (
    &'static str,
    &'static str,
    usize,
    Option<usize>,
    &'static str,
);

#[test]
fn malformed_files_give_one_line_with_file_line_and_column() {
    let cases: &[BadFile] = &[
        (
            "unknown-statement",
            "values: 1..3\ncells: a b\n\nfrobnicate: a\n",
            4,
            Some(1),
            "",
        ),
        (
            "unknown-name",
            "values: 1..3\ncells: a b\n\na < zz\n",
            4,
            Some(5),
            "zz",
        ),
        (
            "drawn-twice",
            "values: 1..3\ncells: a b a\n",
            2,
            Some(12),
            "a",
        ),
        (
            "value-outside",
            "values: 1..3\ncells: a b\n\ndomain 2..5: a\n",
            4,
            None,
            "",
        ),
        (
            "too-many-values",
            "values: 1..65\ncells: a b\n",
            1,
            None,
            "64",
        ),
        ("bad-integer", "values: 1..x\ncells: a b\n", 1, None, ""),
        (
            "integer-too-large",
            "values: 1..3\ncells: a b\n\na + b = 99999999999\n",
            4,
            None,
            "",
        ),
        (
            "bad-expression",
            "values: 1..3\ncells: a b\n\na + * b = 3\n",
            4,
            None,
            "",
        ),
        (
            "no-cell",
            "values: 1..3\ncells: a b\n\n1 + 2 = 3\n",
            4,
            None,
            "",
        ),
        (
            "a-less-than-a",
            "values: 1..3\ncells: a b\n\na < a\n",
            4,
            None,
            "",
        ),
        (
            "rows-without-grid",
            "values: 1..3\ncells: a b\n\ndistinct: rows\n",
            4,
            None,
            "",
        ),
        (
            "symmetry-0",
            "values: 1..3\ncells: a b\n\nsymmetry 0: a < b\n",
            4,
            None,
            "",
        ),
        (
            "no-constraint-operator",
            "values: 1..3\ncells: a b\n\na + b\n",
            4,
            None,
            "",
        ),
        // Generators (docs/sums-format.md): each error names the word at fault.
        (
            "generator-empty",
            "values: 1..3\ncells: a b\n\ngenerator:\n",
            4,
            Some(11),
            "expected cycles of cells",
        ),
        (
            "generator-not-a-cycle",
            "values: 1..3\ncells: a b\n\ngenerator: a b\n",
            4,
            Some(12),
            "'(' starting a cycle",
        ),
        (
            "generator-unclosed",
            "values: 1..3\ncells: a b\n\ngenerator: (a b\n",
            4,
            Some(16),
            "')' closing the cycle",
        ),
        (
            "generator-unknown-cell",
            "values: 1..3\ncells: a b\n\ngenerator: (a zz)\n",
            4,
            Some(15),
            "zz",
        ),
        (
            "generator-cell-twice",
            "values: 1..3\ncells: a b\n\ngenerator: (a b) (a)\n",
            4,
            Some(19),
            "twice",
        ),
        (
            "generator-after-complement",
            "values: 1..3\ncells: a b\n\ngenerator: complement (a b)\n",
            4,
            Some(23),
            "after 'complement'",
        ),
        (
            "generator-no-complement",
            "values: 1 2 4\ncells: a b\n\ngenerator: complement\n",
            4,
            Some(12),
            "value set",
        ),
        (
            "generator-not-a-symmetry",
            "values: 1..3\ncells: a b c\n\na + b = 3\ngenerator: (a c)\n",
            5,
            Some(12),
            "does not map the model onto itself",
        ),
        (
            "generator-and-symmetry",
            "values: 1..3\ncells: a b\n\nsymmetry 2: a < b\ngenerator: (a b)\n",
            5,
            Some(10),
            "both declare the group",
        ),
    ];
    for &(name, text, line_no, column, words) in cases {
        let file = temp_file(name, text.as_bytes());
        let path = file.0.display().to_string();
        for extra in [&[][..], &["--distinct", "--format", "json"], &["--count"]] {
            let mut args = vec!["sums", path.as_str()];
            args.extend_from_slice(extra);
            let line = fails(&args);
            let rest = line
                .strip_prefix(&format!("{path}:"))
                .unwrap_or_else(|| panic!("{name}: {line:?} does not start with {path}:"));
            let mut parts = rest.splitn(3, ':');
            let l: usize = parts.next().unwrap().parse().unwrap_or_else(|_| {
                panic!("{name}: no line number in {line:?}");
            });
            let c: usize = parts.next().unwrap_or("").parse().unwrap_or_else(|_| {
                panic!("{name}: no column in {line:?}");
            });
            let message = parts.next().unwrap_or("");
            assert!(message.starts_with(' ') && message.len() > 1, "{line:?}");
            assert_eq!(l, line_no, "{name}: {line:?}");
            if let Some(col) = column {
                assert_eq!(c, col, "{name}: {line:?}");
            }
            assert!(c >= 1, "{name}: {line:?}");
            assert!(
                message.contains(words),
                "{name}: {line:?} does not say {words:?}"
            );
        }
    }
    // Missing statements: the position is the file's, whatever line it names.
    for (name, text) in [
        ("no-values", "cells: a b\n\na < b\n"),
        ("no-cells", "values: 1..3\n\n"),
    ] {
        let file = temp_file(name, text.as_bytes());
        let path = file.0.display().to_string();
        let line = fails(&["sums", &path]);
        let rest = line
            .strip_prefix(&format!("{path}:"))
            .unwrap_or_else(|| panic!("{name}: {line:?}"));
        let parts: Vec<&str> = rest.splitn(3, ':').collect();
        assert_eq!(parts.len(), 3, "{name}: {line:?}");
        assert!(parts[0].parse::<usize>().is_ok(), "{name}: {line:?}");
        assert!(parts[1].parse::<usize>().is_ok(), "{name}: {line:?}");
    }
}

#[test]
fn missing_file_gives_one_line_naming_it() {
    let path = temp_path("does-not-exist");
    assert!(!path.exists());
    let path = path.display().to_string();
    let line = fails(&["sums", &path]);
    assert!(line.starts_with(&path), "{line:?} does not name {path}");
}

#[test]
fn bad_arguments_give_one_line() {
    for args in [
        &["magic-square", "0"][..],
        &["magic-square", "9"],
        &["magic-square", "x"],
        &["magic-square", "-1"],
        &["magic-square"],
        &["magic-hexagon", "--bogus"],
        &["sums", SQUARE3, "--bogus"],
        &["sums", SQUARE3, "--limit", "x"],
        &["sums", SQUARE3, "--threads", "0"],
        &["sums", SQUARE3, "--all", "--distinct"],
        &["sums", SQUARE3, "--format", "xml"],
        &["sums"],
    ] {
        fails(args);
    }
}

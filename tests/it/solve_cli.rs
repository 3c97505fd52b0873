//! `polytile solve FILE`: output formats, options, exit codes and error lines.
//!
//! Known facts: the 12 free pentominoes tile the 3 x 20 rectangle in 8 ways, 2 up to
//! its 4 symmetries (`data/pentomino-3x20.puz`, Wikipedia "Pentomino"; Polyform
//! Puzzler; `docs/known-counts.md`). Drawings are checked with the independent
//! verifier of `tests/common/tiling.rs`.
//!
//! Errors (README, `docs/puzzle-format.md`): a bad puzzle file exits with code 2, prints
//! nothing on standard output and one line on standard error, `FILE:LINE:COLUMN: ...`
//! (`FILE: ...` for an I/O error); a bad argument exits with code 2 and one line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::cli::{
    check_seconds, fails, json_lines, number, parse_text, polytile, run_ok, strip, timed, TempFile,
};
use crate::common::tiling::{self, PieceSpec};
use crate::common::verifier_specs;
use polytile::{Grid, Puzzle};
use serde_json::Value;

const FILE: &str = "data/pentomino-3x20.puz";
const LETTERS: &str = "FILNPTUVWXYZ";

/// Runs a successful `polytile solve FILE ARGS`; its standard output and error.
fn solve_ok(args: &[&str]) -> (String, String) {
    let mut all = vec!["solve", FILE];
    all.extend_from_slice(args);
    run_ok(&all)
}

/// Like [`solve_ok`], checking that standard error stays empty.
fn stdout_of(args: &[&str]) -> String {
    let (out, err) = solve_ok(args);
    assert!(err.is_empty(), "{args:?} wrote to stderr: {err}");
    out
}

/// The pieces of the file as the verifier takes them, and their letters.
fn pentominoes() -> (Vec<PieceSpec>, Vec<char>) {
    let p = Puzzle::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE)).unwrap();
    (verifier_specs(&p), p.labels())
}

/// Checks that a drawing is a 3 x 20 tiling by the 12 pentominoes.
fn check_drawing(rows: &[String]) {
    let (specs, labels) = pentominoes();
    assert_eq!(labels.iter().collect::<String>(), LETTERS);
    assert_eq!(rows.len(), 20, "{rows:?}");
    let mut t = Vec::new();
    for row in rows {
        assert_eq!(row.chars().count(), 3, "{rows:?}");
        for ch in row.chars() {
            let p = labels.iter().position(|&l| l == ch);
            t.push(Some(
                p.unwrap_or_else(|| panic!("{ch:?} in {rows:?}")) as u16
            ));
        }
    }
    tiling::verify_tiling(Grid::Square, 3, 20, &[true; 60], &specs, &t, false)
        .unwrap_or_else(|e| panic!("{rows:?}: {e}"));
}

#[test]
fn text_output_draws_the_8_solutions() {
    let (drawings, last) = parse_text(&stdout_of(&[]));
    assert_eq!(last, "8 solutions");
    assert_eq!(drawings.len(), 8);
    for d in &drawings {
        check_drawing(d);
    }
    let distinct: BTreeSet<&Vec<String>> = drawings.iter().collect();
    assert_eq!(distinct.len(), 8);
    // --all is the default.
    assert_eq!(stdout_of(&["--all"]), stdout_of(&[]));
}

#[test]
fn triangle_solutions_print_as_drawn_and_are_tilings() {
    // The 9 x 4 hexiamond parallelogram is searched transposed; its 74 classes print in
    // the file's own orientation, 4 lines of 18 triangles, each a tiling (Polyform
    // Puzzler: 74; docs/known-counts.md).
    let file = "data/hexiamonds-4x9.puz";
    let p = Puzzle::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let (specs, labels) = (verifier_specs(&p), p.labels());
    let (out, _) = run_ok(&["solve", file, "--distinct"]);
    let (drawings, last) = parse_text(&out);
    assert_eq!(last, "74 distinct solutions (148 in all, 2 symmetries)");
    assert_eq!(drawings.len(), 74);
    for rows in &drawings {
        assert_eq!(rows.len(), 4, "{rows:?}");
        let t: Vec<Option<u16>> = rows
            .iter()
            .flat_map(|row| row.chars())
            .map(|ch| labels.iter().position(|&l| l == ch).map(|i| i as u16))
            .collect();
        assert_eq!(t.len(), 72, "{rows:?}");
        tiling::verify_tiling(Grid::Triangle, 18, 4, &[true; 72], &specs, &t, false)
            .unwrap_or_else(|e| panic!("{rows:?}: {e}"));
    }
}

#[test]
fn distinct_output() {
    let text = stdout_of(&["--distinct"]);
    let (drawings, last) = parse_text(&text);
    assert_eq!(last, "2 distinct solutions (8 in all, 4 symmetries)");
    assert_eq!(drawings.len(), 2);
    let (all, _) = parse_text(&stdout_of(&[]));
    for d in &drawings {
        check_drawing(d);
        assert!(all.contains(d));
    }
    assert_ne!(drawings[0], drawings[1]);
    let count = stdout_of(&["--distinct", "--count"]);
    assert_eq!(count, "2 distinct solutions (8 in all, 4 symmetries)\n");
}

#[test]
fn count_prints_only_the_count() {
    assert_eq!(stdout_of(&["--count"]), "8 solutions\n");
    let (text, wall) = timed(|| stdout_of(&["--count", "--format", "json"]));
    assert_eq!(text.lines().count(), 1, "{text}");
    let summary = &json_lines(&text)[0];
    assert_eq!(number(summary, "solutions"), 8.0);
    assert!(number(summary, "nodes") > 0.0);
    check_seconds(summary, wall);
    assert_eq!(summary.get("mode"), Some(&Value::from("all")));
    assert_eq!(summary.get("complete"), Some(&Value::Bool(true)));
    let d = &json_lines(&stdout_of(&["--count", "--format", "json", "--distinct"]))[0];
    assert_eq!(number(d, "solutions"), 2.0);
    assert_eq!(number(d, "total"), 8.0);
    assert_eq!(number(d, "symmetries"), 4.0);
}

#[test]
fn json_output_is_one_object_per_solution_then_the_summary() {
    let (json, wall) = timed(|| stdout_of(&["--format", "json"]));
    let lines = json_lines(&json);
    assert_eq!(lines.len(), 9);
    let (text, _) = parse_text(&stdout_of(&[]));
    for (i, line) in lines[..8].iter().enumerate() {
        assert_eq!(number(line, "solution"), (i + 1) as f64);
        let rows: Vec<String> = line["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r.as_str().expect("a row string").to_string())
            .collect();
        assert_eq!(rows, text[i], "solution {}", i + 1);
    }
    let summary = &lines[8];
    assert_eq!(number(summary, "solutions"), 8.0);
    assert!(number(summary, "nodes") > 0.0);
    check_seconds(summary, wall);
    assert!(summary.get("solution").is_none());
}

#[test]
fn limit_stops_after_n_solutions() {
    let (all, _) = parse_text(&stdout_of(&[]));
    for n in [0, 1, 3, 8, 9] {
        let (drawings, last) = parse_text(&stdout_of(&["--limit", &n.to_string()]));
        let want = n.min(8);
        let s = if want == 1 { "" } else { "s" };
        assert_eq!(last, format!("{want} solution{s}"), "--limit {n}");
        assert_eq!(drawings, all[..want], "--limit {n}");
    }
    let json = json_lines(&stdout_of(&["--limit", "3", "--format", "json"]));
    assert_eq!(json.len(), 4);
    assert_eq!(number(&json[3], "solutions"), 3.0);
    assert_eq!(json[3].get("complete"), Some(&Value::Bool(false)));
    let (d, last) = parse_text(&stdout_of(&["--limit", "1", "--distinct"]));
    assert_eq!(d.len(), 1);
    assert_eq!(last, "1 distinct solution (4 in all, 4 symmetries)");
}

fn with_threads(file: &str, args: &[&str], threads: &str) -> String {
    let mut a = vec!["solve", file];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--threads", threads]);
    let out = polytile(&a);
    assert!(out.status.success(), "{a:?}");
    assert!(out.stderr.is_empty(), "{a:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn output_does_not_depend_on_threads() {
    for args in [
        &[][..],
        &["--distinct"],
        &["--limit", "3"],
        &["--limit", "1", "--distinct"],
        &["--count"],
    ] {
        let run = |threads| with_threads(FILE, args, threads);
        assert_eq!(run("1"), run("2"), "{args:?}");
        let mut json = args.to_vec();
        json.extend_from_slice(&["--format", "json"]);
        let run = |threads| with_threads(FILE, &json, threads);
        // Nodes: see limited_json_nodes_do_not_depend_on_threads.
        let fields: &[&str] = if args.contains(&"--limit") {
            &["seconds", "threads", "nodes"]
        } else {
            &["seconds", "threads"]
        };
        assert_eq!(
            strip(&run("1"), fields),
            strip(&run("2"), fields),
            "{args:?}"
        );
    }
}

#[test]
fn limited_json_nodes_do_not_depend_on_threads() {
    // The summary's "nodes" with --limit: the same for any thread count, like the rest
    // of the output (only "seconds" and "threads" may differ).
    let file = "data/pentomino-6x10.puz";
    let args = ["--limit", "2000", "--count", "--format", "json"];
    let one = strip(&with_threads(file, &args, "1"), &["seconds", "threads"]);
    for _ in 0..10 {
        let two = strip(&with_threads(file, &args, "2"), &["seconds", "threads"]);
        assert_eq!(one, two);
    }
}

#[test]
fn stats_go_to_stderr() {
    let plain = stdout_of(&[]);
    let (out, err) = solve_ok(&["--stats"]);
    assert_eq!(out, plain, "--stats changes standard output");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains("nodes"), "{err:?}");
    let (out, err) = solve_ok(&["--stats", "--count"]);
    assert_eq!(out, "8 solutions\n");
    assert!(err.contains("nodes"), "{err:?}");
    // In JSON the summary holds the statistics; standard output stays JSON.
    let (out, _) = solve_ok(&["--stats", "--format", "json"]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 9);
    assert!(number(&lines[8], "nodes") > 0.0);
}

// ---------------------------------------------------------------------------------
// Errors.

/// A temporary `.puz` file for this test crate.
fn temp_file(name: &str, bytes: &[u8]) -> TempFile {
    TempFile::new("solve-cli", name, "puz", bytes)
}

/// A path for a temporary `.puz` file of this test crate (nothing is written).
fn temp_path(name: &str) -> PathBuf {
    TempFile::path("solve-cli", name, "puz")
}

/// Checks that a line is `FILE:LINE:COLUMN: message` with that position and a message
/// containing `words`.
fn check_position(line: &str, file: &str, position: (usize, usize), words: &str) {
    let rest = line
        .strip_prefix(file)
        .unwrap_or_else(|| panic!("{line:?} does not start with {file:?}"));
    let want = format!(":{}:{}: ", position.0, position.1);
    let message = rest
        .strip_prefix(&want)
        .unwrap_or_else(|| panic!("{line:?}: expected {file}{want}..."));
    assert!(message.contains(words), "{line:?} does not say {words:?}");
}

/// A bad file: name, contents, the (line, column) of the error, words of its message.
type BadFile = (&'static str, &'static [u8], (usize, usize), &'static str);

#[test]
fn bad_puzzle_files_give_one_line_with_file_line_and_column() {
    let cases: &[BadFile] = &[
        (
            "not-utf8",
            b"grid: square\nboard:\nx\xff\n\npiece A:\nxx\n",
            (3, 2),
            "UTF-8",
        ),
        (
            "unknown-character",
            b"grid: square\nboard:\nxqx\n\npiece A:\nxxx\n",
            (3, 2),
            "unknown character 'q'",
        ),
        (
            "disconnected",
            b"grid: square\nboard:\nxx\nxx\n\npiece A:\nx.x\n\npiece B:\nxx\n",
            (7, 3),
            "not connected",
        ),
        (
            "area",
            b"grid: square\nboard:\nxx\nxx\n\npiece A:\nxxx\n",
            (2, 1),
            "the pieces cover 3 cells but the board has 4",
        ),
        (
            "duplicate-name",
            b"grid: square\nboard:\nxx\nxx\n\npiece A:\nxx\n\npiece A:\nxx\n",
            (9, 7),
            "duplicate piece name 'A'",
        ),
        (
            "empty-board",
            b"grid: square\nboard:\n\npiece A:\nxx\n",
            (2, 1),
            "empty board drawing",
        ),
        (
            "board-without-cells",
            b"grid: square\nboard:\n..\n\npiece A:\nxx\n",
            (2, 1),
            "no cells",
        ),
        (
            "piece-larger-than-board",
            b"grid: square\nleftover: allowed\nboard:\nxx\n\npiece A:\nxxx\n",
            (6, 7),
            "piece A has 3 cells but the board has only 2",
        ),
    ];
    for &(name, bytes, position, words) in cases {
        let file = temp_file(name, bytes);
        let path = file.0.display().to_string();
        for extra in [&[][..], &["--distinct", "--format", "json"]] {
            let mut args = vec!["solve", path.as_str()];
            args.extend_from_slice(extra);
            let line = fails(&args);
            check_position(&line, &path, position, words);
        }
    }
}

#[test]
fn missing_file_gives_one_line_naming_it() {
    let path = temp_path("does-not-exist");
    assert!(!path.exists());
    let path = path.display().to_string();
    let line = fails(&["solve", &path]);
    let rest = line
        .strip_prefix(&format!("{path}: "))
        .unwrap_or_else(|| panic!("{line:?} does not start with '{path}: '"));
    assert!(rest.contains("cannot read"), "{line:?}");
}

#[test]
fn distinct_without_a_usable_piece_is_an_error_naming_the_file() {
    // Leftover pieces: the library does not count distinct solutions.
    let file = temp_file(
        "leftover-distinct",
        b"grid: square\nleftover: allowed\nboard:\nxx\n\npiece A:\nxx\n\npiece B:\nx\n",
    );
    let path = file.0.display().to_string();
    let line = fails(&["solve", &path, "--distinct"]);
    assert!(line.starts_with(&format!("{path}: ")), "{line:?}");
    assert!(line.contains("--all"), "{line:?}");
    let out = polytile(&["solve", &path]);
    assert!(out.status.success());
}

#[test]
fn bad_arguments_give_one_line() {
    for args in [
        &["solve", FILE, "--limit", "x"][..],
        &["solve", FILE, "--limit", "-1"],
        &["solve", FILE, "--threads", "0"],
        &["solve", FILE, "--threads", "x"],
        &["solve", FILE, "--all", "--distinct"],
        &["solve", FILE, "--format", "xml"],
        &["solve", FILE, "--bogus"],
        &["solve", FILE, FILE],
        &["solve"],
    ] {
        let line = fails(args);
        assert!(line.contains("polytile --help"), "{args:?}: {line:?}");
    }
}

/// The `restricted_piece` of `polytile tables FILE [MODE] --format json` (`MODE`:
/// `--distinct`, or empty for all solutions), and the whole JSON; `None` when the
/// command refuses the file in that mode (no piece can restrict distinct solutions).
fn restricted_piece(file: &str, mode: &str) -> Option<(Option<usize>, String)> {
    let mut args = vec!["tables", file, "--format", "json"];
    if !mode.is_empty() {
        args.push(mode);
    }
    let out = polytile(&args);
    if !out.status.success() {
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        return None;
    }
    let json = String::from_utf8(out.stdout).unwrap();
    let v: Value = serde_json::from_str(&json).unwrap();
    Some((v["restricted_piece"].as_u64().map(|p| p as usize), json))
}

/// `polytile ARGS`' standard output, standard error empty.
fn stdout_of_cmd(args: &[&str]) -> String {
    let (out, err) = run_ok(args);
    assert!(err.is_empty(), "{args:?} wrote to stderr: {err}");
    out
}

#[test]
fn a_stated_first_piece_gives_the_tables_of_the_chosen_one() {
    // Every shipped file, in both modes: the piece the solver chooses, stated with
    // `first:`, gives the same tables (restriction, second piece and all), without the
    // choice.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut stated_somewhere = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "puz") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzle = Puzzle::parse(&text, "f.puz").unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        // The file as the solver chooses for it: without its own `first:` line (the
        // meteor's states the solver's choice, which this checks is still that).
        let unstated: String = text
            .lines()
            .filter(|l| !l.starts_with("first:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let unstated_file = temp_file(&format!("unstated-{name}"), unstated.as_bytes());
        for mode in ["", "--distinct"] {
            let file = unstated_file.0.display().to_string();
            let Some((Some(piece), chosen)) = restricted_piece(&file, mode) else {
                continue;
            };
            if let Some(own) = puzzle.first {
                assert_eq!(
                    own, piece,
                    "{name}: its first: line is not the solver's choice"
                );
            }
            let stated = format!("{unstated}\nfirst: {}\n", puzzle.pieces[piece].name);
            let temp = temp_file(&format!("first-{name}{mode}"), stated.as_bytes());
            let (again, json) = restricted_piece(&temp.0.display().to_string(), mode)
                .unwrap_or_else(|| panic!("{name} {mode}: refused with its piece stated"));
            assert_eq!(again, Some(piece), "{name} {mode}");
            // Compared whole, but not printed whole when they differ.
            assert!(json == chosen, "{name} {mode}: the tables differ");
            stated_somewhere += 1;
        }
    }
    assert!(stated_somewhere >= 20, "{stated_somewhere}");
}

#[test]
fn a_stated_first_piece_is_reported_and_any_qualifying_one_finds_every_solution() {
    let file = format!("{}/{FILE}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap();
    let (_, err) = run_ok(&["solve", &file, "--count", "--stats"]);
    assert!(!err.contains("first piece: "), "{err}");
    let json = stdout_of_cmd(&["solve", &file, "--count", "--format", "json"]);
    assert!(json.contains("\"first_stated\":false"), "{json}");
    // Every piece of the 3 x 20 pentominoes qualifies; each, placed first, gives the 8
    // solutions (2 distinct).
    for piece in LETTERS.chars() {
        let temp = temp_file(
            &format!("first-{piece}"),
            format!("{text}\nfirst: {piece}\n").as_bytes(),
        );
        let path = temp.0.display().to_string();
        let (out, err) = run_ok(&["solve", &path, "--count", "--stats"]);
        assert_eq!(out, "8 solutions\n", "{piece}");
        assert!(
            err.contains(&format!(
                "first piece: {piece}, restricted by symmetry, as the file states"
            )),
            "{err}"
        );
        let json = stdout_of_cmd(&["solve", &path, "--count", "--distinct", "--format", "json"]);
        assert!(json.contains("\"solutions\":2"), "{piece}: {json}");
        assert!(
            json.contains(&format!(
                "\"first_piece\":\"{piece}\",\"first_stated\":true"
            )),
            "{json}"
        );
    }
}

#[test]
fn a_first_piece_the_symmetries_move_is_refused() {
    // One-sided pentominoes: a reflection of the board maps the one-sided F to its mirror
    // image, another piece, so it cannot be restricted.
    let file = format!(
        "{}/data/one-sided-pentomino-3x30.puz",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let puzzle = Puzzle::parse(&text, "f.puz").unwrap();
    let moved = puzzle
        .pieces
        .iter()
        .find(|p| p.name.starts_with('F'))
        .expect("an F");
    let temp = temp_file(
        "first-moved",
        format!("{text}\nfirst: {}\n", moved.name).as_bytes(),
    );
    let path = temp.0.display().to_string();
    let line = fails(&["solve", &path, "--count"]);
    assert!(
        line.contains("cannot be ")
            && line.contains("a symmetry of the board maps it to another piece"),
        "{line}"
    );
}

/// Every subcommand's help, its arguments added only when the parser enters it
/// (`Deferred` in `src/bin/polytile/args.rs`): it begins with the subcommand's own
/// description (not its arguments' struct's), and lists its flags; a flag it does not
/// take is refused with one line.
#[test]
fn every_subcommand_gives_its_own_help_and_flags() {
    for (sub, about, flags) in [
        (
            "tables",
            "Print the placement tables",
            &["--distinct", "--output"][..],
        ),
        (
            "solve",
            "Solve a tiling puzzle file",
            &["--split", "--memo-mib", "--shard"],
        ),
        (
            "sums",
            "Solve a number puzzle with sums",
            &["--count", "--checkpoint"],
        ),
        (
            "magic-hexagon",
            "Solve the order-3 magic hexagon",
            &["--distinct"],
        ),
        (
            "magic-square",
            "Solve the magic square of order N",
            &["--limit"],
        ),
        (
            "animate",
            "Write the start of a tiling search",
            &["--steps", "--seconds"],
        ),
        ("merge", "Add up the JSON summaries", &["--format"]),
        (
            "estimate",
            "Estimate how long a search takes",
            &["--paths", "--probe"],
        ),
    ] {
        for help in [vec![sub, "--help"], vec!["help", sub]] {
            let (out, _) = run_ok(&help);
            assert!(out.starts_with(about), "{help:?}: {out}");
            for flag in flags {
                assert!(out.contains(flag), "{help:?}: no {flag} in {out}");
            }
        }
        let line = fails(&[sub, "--no-such-flag"]);
        assert!(line.contains("--no-such-flag"), "{sub}: {line}");
    }
}

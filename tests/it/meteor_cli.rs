//! The `meteor` binary: output, arguments and exit codes.
//!
//! Known output: the Benchmarks Game meteor-contest reference output `2098_out`
//! (compared byte for byte when this machine has it, next to the repository) and the
//! facts from it recorded in `docs/known-counts.md`, checked always: 2098
//! solutions, smallest `00001222012661126155865558633348893448934747977799`, largest
//! `99998966856688568255777257472014220144031400311333`.

use std::process::{Command, Output};

use crate::common::tiling::meteor::verify as verify_meteor;
use crate::common::{board, parse_output, ALL_SOLUTIONS, LARGEST, SMALLEST};

fn meteor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meteor"))
        .args(args)
        .output()
        .expect("run meteor")
}

/// Runs a successful `meteor`, checks that it wrote nothing to stderr, and returns its
/// standard output.
fn stdout_of(args: &[&str]) -> String {
    let out = meteor(args);
    assert!(out.status.success(), "meteor {args:?}: {:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "meteor {args:?} wrote to stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn full_run_prints_the_benchmarks_game_output() {
    let text = stdout_of(&["2098"]);
    if let Some(reference) = crate::common::reference_output() {
        assert!(
            text.as_bytes() == reference.as_slice(),
            "differs from {}:\n{text}",
            crate::common::reference_output_path().display()
        );
    }
    assert_eq!(text.lines().next(), Some("2098 solutions found"));
    let (count, boards) = parse_output(&text).unwrap();
    assert_eq!(count, ALL_SOLUTIONS);
    assert_eq!(boards, vec![board(SMALLEST), board(LARGEST)]);
    assert_eq!(text, crate::common::expected_full_output());
}

#[test]
fn full_run_is_the_default_and_does_not_depend_on_threads() {
    let expected = crate::common::expected_full_output();
    for args in [
        &[][..],
        &["--threads", "1", "2098"],
        &["--threads", "2", "2098"],
        &["--threads=3"],
        &["2099"],
    ] {
        assert_eq!(stdout_of(args), expected, "meteor {args:?}");
    }
}

#[test]
fn limited_runs_do_not_depend_on_threads() {
    for (limit, count) in [("10", 10), ("1", 2), ("99", 100)] {
        let one = stdout_of(&["--threads", "1", limit]);
        let two = stdout_of(&["--threads", "2", limit]);
        assert_eq!(one, two, "meteor {limit}");
        let (n, boards) = parse_output(&one).unwrap();
        assert_eq!(n, count, "meteor {limit}");
        assert_eq!(boards.len(), 2);
        assert!(boards[0] <= boards[1]);
        for b in &boards {
            assert_eq!(verify_meteor(b), Ok(()), "meteor {limit}");
        }
    }
}

#[test]
fn limit_zero_prints_no_board() {
    assert_eq!(stdout_of(&["0"]), "0 solutions found\n\n");
}

#[test]
fn usage_errors_exit_2_with_one_line_on_stderr() {
    for args in [
        &["-5"][..],
        &["abc"],
        &["1", "2"],
        &["--threads", "0", "10"],
        &["--threads", "x"],
        &["--threads"],
        &["--bogus"],
        &["1.5"],
    ] {
        let out = meteor(args);
        assert_eq!(out.status.code(), Some(2), "meteor {args:?}");
        assert!(out.stdout.is_empty(), "meteor {args:?} wrote to stdout");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.ends_with('\n'), "meteor {args:?}: {err:?}");
        assert_eq!(err.lines().count(), 1, "meteor {args:?}: {err:?}");
        assert!(!err.trim().is_empty(), "meteor {args:?}");
    }
}

#[test]
fn stats_go_to_stderr_only() {
    let plain = stdout_of(&["2098"]);
    let out = meteor(&["--stats", "2098"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), plain);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.trim().is_empty(), "no stats on stderr");
    assert!(err.contains("nodes"), "{err}");
}

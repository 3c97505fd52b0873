//! Big runs through the CLI: shards that add up to the single run, `polytile merge`
//! refusing what it cannot add, and checkpoints that survive `kill -9`.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::common::cli::{
    fails, json_lines, number, parse_text, polytile, run_ok, stdout_of, TempFile,
};

/// The summary line of `polytile ARGS --format json`.
fn summary(args: &[&str]) -> Map<String, Value> {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    json_lines(&stdout_of(&args)).pop().expect("a summary line")
}

/// `(solutions, total, nodes)` of a summary (total = solutions in all mode).
fn counts(s: &Map<String, Value>) -> (u64, u64, u64) {
    let solutions = number(s, "solutions") as u64;
    let total = s.get("total").map_or(solutions, |t| t.as_u64().unwrap());
    (solutions, total, number(s, "nodes") as u64)
}

/// Runs every shard of `n` (on `threads` threads), writes each summary to a file and
/// returns the files.
fn shard_files(tag: &str, command: &[&str], n: usize, threads: &str) -> Vec<TempFile> {
    (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut args = command.to_vec();
            args.extend(["--shard", &shard, "--threads", threads, "--format", "json"]);
            let out = stdout_of(&args);
            TempFile::new(
                "shard",
                &format!("{tag}-{k}-of-{n}"),
                "json",
                out.as_bytes(),
            )
        })
        .collect()
}

fn merge(files: &[TempFile], extra: &[&str]) -> Vec<String> {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|f| f.0.display().to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn merged(files: &[TempFile]) -> Map<String, Value> {
    let args = merge(files, &["--format", "json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    json_lines(&stdout_of(&args)).pop().unwrap()
}

/// The commands the shard tests split: tilings in both modes, numbers in both. The
/// tilings search plainly: with a split, each shard makes the searches above the
/// overhangs it meets, so their nodes add up to more than one run's
/// (`split_shards_add_up_in_solutions`).
const COMMANDS: [&[&str]; 5] = [
    &[
        "solve",
        "data/pentomino-6x10.puz",
        "--count",
        "--split",
        "off",
    ],
    &[
        "solve",
        "data/pentomino-6x10.puz",
        "--count",
        "--distinct",
        "--split",
        "off",
    ],
    &["solve", "data/tetrahex-7x4.puz"],
    &["sums", "data/magic-square-4.sum", "--count"],
    &["sums", "data/magic-square-4.sum", "--count", "--distinct"],
];

#[test]
fn shards_add_up_to_the_single_run() {
    for command in COMMANDS {
        let single = summary(command);
        for n in [1, 2, 7, 64] {
            let files = shard_files("add-up", command, n, "2");
            let m = merged(&files);
            let what = format!("{command:?} in {n} shards");
            assert_eq!(counts(&m), counts(&single), "{what}");
            assert_eq!(m["shards"], n, "{what}");
            assert_eq!(m["complete"], true, "{what}");
            assert_eq!(m["mode"], single["mode"], "{what}");
            for key in ["symmetries", "placements", "automorphisms", "puzzle"] {
                assert_eq!(m.get(key), single.get(key), "{what}: {key}");
            }
            // Every task is searched by exactly one shard.
            let searched: u64 = files
                .iter()
                .map(|f| {
                    let text = std::fs::read_to_string(&f.0).unwrap();
                    number(&json_lines(&text).pop().unwrap(), "searched") as u64
                })
                .sum();
            assert_eq!(searched, number(&m, "tasks") as u64, "{what}");
            let text = stdout_of(
                &merge(&files, &[])
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            );
            assert_eq!(text.lines().count(), 1, "{what}: {text}");
        }
    }
}

#[test]
fn split_shards_add_up_in_solutions() {
    // The default split: every shard measures alike and chooses the same rows.
    let command = &["solve", "data/pentomino-6x10.puz", "--count", "--distinct"];
    let single = summary(command);
    assert!(single.contains_key("split"), "{single:?}");
    for n in [2, 7] {
        let files = shard_files("split-add-up", command, n, "2");
        let m = merged(&files);
        assert_eq!(counts(&m).0, counts(&single).0, "{n} shards");
        assert_eq!(m["total"], single["total"], "{n} shards");
        for f in &files {
            let text = std::fs::read_to_string(&f.0).unwrap();
            let shard = json_lines(&text).pop().unwrap();
            assert_eq!(shard["split"], single["split"], "{n} shards");
        }
    }
}

#[test]
fn a_shard_is_the_same_on_any_thread_count() {
    let command = &["sums", "data/magic-square-4.sum", "--count"];
    let one = shard_files("threads-1", command, 7, "1");
    let two = shard_files("threads-2", command, 7, "2");
    for (a, b) in one.iter().zip(&two) {
        let read = |f: &TempFile| {
            let text = std::fs::read_to_string(&f.0).unwrap();
            let s = json_lines(&text).pop().unwrap();
            (counts(&s), s["searched"].clone(), s["tasks"].clone())
        };
        assert_eq!(read(a), read(b));
    }
}

#[test]
fn shard_solutions_are_the_single_runs_dealt_out() {
    // Listing, not counting: the shards' drawings together are the single run's.
    let all = stdout_of(&["solve", "data/tetrahex-7x4.puz"]);
    let drawings = |text: &str| parse_text(text).0;
    let mut want = drawings(&all);
    want.sort();
    let mut got = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        got.extend(drawings(&stdout_of(&[
            "solve",
            "data/tetrahex-7x4.puz",
            "--shard",
            &shard,
        ])));
    }
    got.sort();
    assert_eq!(got.len(), 18);
    assert_eq!(got, want);
}

#[test]
fn merge_refuses_what_it_cannot_add() {
    let command: &[&str] = &["sums", "data/magic-square-4.sum", "--count"];
    let files = shard_files("refuse", command, 3, "2");
    let path = |f: &TempFile| f.0.display().to_string();
    let run = |files: &[String]| {
        let mut args = vec!["merge"];
        args.extend(files.iter().map(String::as_str));
        fails(&args)
    };
    let (a, b, c) = (path(&files[0]), path(&files[1]), path(&files[2]));
    // A missing shard, a duplicated one.
    let e = run(&[a.clone(), c.clone()]);
    assert!(e.contains("shard 2 of 3 missing"), "{e}");
    let e = run(&[a.clone(), b.clone(), b.clone(), c.clone()]);
    assert!(e.contains("shard 2/3 is also in"), "{e}");
    // Another puzzle, other options.
    let other = shard_files(
        "refuse-other",
        &["sums", "data/magic-square-3.sum", "--count"],
        3,
        "2",
    );
    let e = run(&[a.clone(), b.clone(), path(&other[2])]);
    assert!(e.contains("puzzle or options"), "{e}");
    let distinct = shard_files(
        "refuse-distinct",
        &["sums", "data/magic-square-4.sum", "--count", "--distinct"],
        3,
        "2",
    );
    let e = run(&[a.clone(), b.clone(), path(&distinct[2])]);
    assert!(e.contains("differs from"), "{e}");
    // Another split of the same run.
    let four = shard_files("refuse-four", command, 4, "2");
    let e = run(&[a.clone(), b.clone(), path(&four[2])]);
    assert!(e.contains("differs from"), "{e}");
    // Another version.
    let text = std::fs::read_to_string(&files[2].0).unwrap();
    let old = TempFile::new(
        "shard",
        "old-version",
        "json",
        text.replace("\"version\":\"", "\"version\":\"0.0.0-")
            .as_bytes(),
    );
    let e = run(&[a.clone(), b.clone(), path(&old)]);
    assert!(e.contains("version"), "{e}");
    // Truncated, malformed, empty, not finished.
    let cut = TempFile::new("shard", "cut", "json", &text.as_bytes()[..text.len() / 2]);
    let e = run(&[a.clone(), b.clone(), path(&cut)]);
    assert!(e.starts_with(&format!("{}:1:", path(&cut))), "{e}");
    let junk = TempFile::new("shard", "junk", "json", b"{\"shard\": 3}\n");
    let e = run(&[a.clone(), b.clone(), path(&junk)]);
    assert!(e.contains(&path(&junk)), "{e}");
    let empty = TempFile::new("shard", "empty", "json", b"");
    let e = run(&[a.clone(), b.clone(), path(&empty)]);
    assert!(e.contains("empty"), "{e}");
    let unfinished = TempFile::new(
        "shard",
        "unfinished",
        "json",
        text.replace("\"complete\":true", "\"complete\":false")
            .as_bytes(),
    );
    let e = run(&[a.clone(), b.clone(), path(&unfinished)]);
    assert!(e.contains("did not search all its tasks"), "{e}");
    let e = run(&[a, b, "/nonexistent/shard.json".into()]);
    assert!(e.contains("/nonexistent/shard.json"), "{e}");
}

#[test]
fn bad_shards_and_checkpoint_flags_are_refused() {
    for shard in [
        "0/3",
        "4/3",
        "3",
        "a/b",
        "1/0",
        "1/-3",
        "1/3/4",
        "",
        "1/99999999999999999999999",
    ] {
        let e = fails(&["solve", "data/tetrahex-7x4.puz", "--shard", shard]);
        assert!(e.contains("K/N"), "{shard}: {e}");
    }
    let e = fails(&[
        "solve",
        "data/tetrahex-7x4.puz",
        "--shard",
        "1/2",
        "--limit",
        "3",
    ]);
    assert!(e.contains("--limit"), "{e}");
    let e = fails(&["solve", "data/tetrahex-7x4.puz", "--checkpoint", "x.json"]);
    assert!(e.contains("--count"), "{e}");
    for every in ["-1", "nan", "inf", "soon"] {
        let e = fails(&[
            "solve",
            "data/tetrahex-7x4.puz",
            "--count",
            "--checkpoint",
            "x.json",
            "--checkpoint-every",
            every,
        ]);
        assert!(e.contains("seconds"), "{every}: {e}");
    }
    assert!(!std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("x.json")
        .exists());
}

/// The magic squares of order 5, shard 1 of 400: about a second of work in a few
/// dozen tasks of very different sizes.
const LONG: [&str; 7] = [
    "sums",
    "data/magic-square-5.sum",
    "--count",
    "--shard",
    "1/400",
    "--format",
    "json",
];

fn long_with_checkpoint(file: &str, every: &str) -> Vec<String> {
    let mut args: Vec<String> = LONG.iter().map(|s| s.to_string()).collect();
    args.extend(
        [
            "--checkpoint",
            file,
            "--checkpoint-every",
            every,
            "--threads",
            "2",
        ]
        .map(String::from),
    );
    args
}

#[test]
fn a_checkpointed_run_survives_kill_9() {
    let started = std::time::Instant::now();
    let uninterrupted = summary(&LONG[..5]);
    // Kills at fractions of the run's own time, so that the first lands mid-run on
    // a fast machine as on a slow one (a run of this shard took 0.11 s here).
    let whole = started.elapsed();
    let file = TempFile::path("checkpoint", "kill", "json");
    let name = file.display().to_string();
    // Killed again and again, writing after every task (so that kills land during
    // writes too), then left to finish: nothing is lost and nothing counted twice.
    let mut resumed_from = Vec::new();
    for percent in [40, 25, 60, 15, 30, 75, 10, 50] {
        let delay_ms = (whole.as_millis() as u64 * percent / 100).max(5);
        let args = long_with_checkpoint(&name, "0");
        let mut child = Command::new(env!("CARGO_BIN_EXE_polytile"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        if let Ok(text) = std::fs::read_to_string(&file) {
            let c: Value = serde_json::from_str(&text).expect("the checkpoint is whole");
            resumed_from.push(c["done"].as_u64().unwrap());
        }
    }
    assert!(
        resumed_from.windows(2).all(|w| w[0] <= w[1]),
        "a checkpoint went back: {resumed_from:?}"
    );
    let tasks = number(&uninterrupted, "searched") as u64;
    assert!(
        resumed_from.iter().any(|&d| 0 < d && d < tasks),
        "no kill landed mid-run: {resumed_from:?} of {tasks} tasks"
    );
    let args = long_with_checkpoint(&name, "0");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let done = json_lines(&stdout_of(&args)).pop().unwrap();
    assert_eq!(
        counts(&done),
        counts(&uninterrupted),
        "after kills at {resumed_from:?}"
    );
    // Run again with the finished checkpoint: the same result, nothing searched.
    let again = json_lines(&stdout_of(&args)).pop().unwrap();
    assert_eq!(counts(&again), counts(&uninterrupted));
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_checkpoint_of_another_run_or_a_damaged_one_is_refused() {
    let file = TempFile::path("checkpoint", "other", "json");
    let name = file.display().to_string();
    let first = stdout_of(&[
        "sums",
        "data/magic-square-4.sum",
        "--count",
        "--checkpoint",
        &name,
    ]);
    assert_eq!(first, "7040 solutions\n");
    // Nodes are recorded even when the first run does not print them.
    let resumed = summary(&[
        "sums",
        "data/magic-square-4.sum",
        "--count",
        "--checkpoint",
        &name,
    ]);
    let plain = summary(&["sums", "data/magic-square-4.sum", "--count"]);
    assert_eq!(counts(&resumed), counts(&plain));
    // The same run on another thread count goes on from it.
    let again = stdout_of(&[
        "sums",
        "data/magic-square-4.sum",
        "--count",
        "--checkpoint",
        &name,
        "--threads",
        "1",
    ]);
    assert_eq!(again, first);
    let kept = std::fs::read(&file).unwrap();
    // Another puzzle, another mode, a shard: refused, and the file is left alone.
    for args in [
        &[
            "sums",
            "data/magic-square-3.sum",
            "--count",
            "--checkpoint",
            &name,
        ][..],
        &[
            "sums",
            "data/magic-square-4.sum",
            "--count",
            "--distinct",
            "--checkpoint",
            &name,
        ],
        &[
            "sums",
            "data/magic-square-4.sum",
            "--count",
            "--shard",
            "1/2",
            "--checkpoint",
            &name,
        ],
    ] {
        let e = fails(args);
        assert!(e.contains("another run"), "{args:?}: {e}");
        assert_eq!(std::fs::read(&file).unwrap(), kept);
    }
    // Damaged: cut short, or not a checkpoint.
    for bytes in [&kept[..kept.len() / 2], b"[1, 2]\n", b"\xff\xfe", b""] {
        std::fs::write(&file, bytes).unwrap();
        let e = fails(&[
            "sums",
            "data/magic-square-4.sum",
            "--count",
            "--checkpoint",
            &name,
        ]);
        assert!(e.starts_with(&format!("{name}:")), "{e}");
        assert!(e.contains("damaged"), "{e}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            bytes,
            "a damaged checkpoint is kept"
        );
    }
    let _ = std::fs::remove_file(&file);
    // A checkpoint that cannot be written.
    let out = polytile(&[
        "sums",
        "data/magic-square-3.sum",
        "--count",
        "--checkpoint",
        "/nonexistent/dir/c.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/dir/c.json"));
}

#[test]
fn progress_goes_to_standard_error_only_when_asked_off_a_terminal() {
    let plain = stdout_of(&["solve", "data/pentomino-6x10.puz", "--count"]);
    // Off a terminal (as here) nothing by default, nothing with --quiet.
    let (out, err) = run_ok(&["solve", "data/pentomino-6x10.puz", "--count", "--quiet"]);
    assert_eq!((out.as_str(), err.as_str()), (plain.as_str(), ""));
    // --progress: lines on standard error, the last one of every task; stdout as ever.
    for args in [
        &["solve", "data/pentomino-6x10.puz", "--count", "--progress"][..],
        &[
            "solve",
            "data/pentomino-6x10.puz",
            "--count",
            "--progress",
            "--shard",
            "2/3",
        ],
        &[
            "sums",
            "data/magic-square-4.sum",
            "--progress",
            "--threads",
            "2",
        ],
    ] {
        let (out, err) = run_ok(args);
        assert!(!out.contains("progress"), "{args:?}");
        let last = err.lines().last().unwrap_or_default();
        let (done, rest) = last
            .strip_prefix("progress: ")
            .and_then(|l| l.split_once(" tasks, "))
            .unwrap_or_else(|| panic!("{args:?}: {err}"));
        let (a, b) = done.split_once('/').unwrap();
        assert_eq!(a, b, "{args:?}: {last}");
        let solutions: u64 = rest.split(' ').next().unwrap().parse().unwrap();
        let printed: u64 = out
            .lines()
            .last()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(solutions, printed, "{args:?}: {last}");
    }
    let e = fails(&["solve", "data/pentomino-6x10.puz", "--progress", "--quiet"]);
    assert!(e.contains("--quiet") || e.contains("--progress"), "{e}");
}

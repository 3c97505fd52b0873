//! Running the `polytile` binary in tests: successful runs, failing runs (exit code 2,
//! one line on standard error), JSON lines, and temporary files.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Map, Value};

/// Runs `polytile ARGS` in the crate directory.
pub fn polytile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_polytile"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run polytile")
}

/// Runs a successful `polytile ARGS`; its standard output and error.
pub fn run_ok(args: &[&str]) -> (String, String) {
    let out = polytile(args);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert!(
        out.status.success(),
        "polytile {args:?}: {:?} {stderr}",
        out.status
    );
    (String::from_utf8(out.stdout).expect("UTF-8 stdout"), stderr)
}

/// Like [`run_ok`], checking that standard error stays empty.
pub fn stdout_of(args: &[&str]) -> String {
    let (out, err) = run_ok(args);
    assert!(err.is_empty(), "{args:?} wrote to stderr: {err}");
    out
}

/// Runs `polytile ARGS`, which must fail with status 2, nothing on standard output and
/// one line on standard error; returns the line.
pub fn fails(args: &[&str]) -> String {
    let out = polytile(args);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{args:?}: {stderr}"
    );
    let line = stderr
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("{args:?}: {stderr:?}"));
    assert!(
        !line.contains('\n') && !line.is_empty(),
        "{args:?}: {stderr:?}"
    );
    line.to_string()
}

/// Runs `run` (a call of the binary), timing it: its output and the wall seconds taken.
pub fn timed(run: impl FnOnce() -> String) -> (String, f64) {
    let start = std::time::Instant::now();
    let out = run();
    (out, start.elapsed().as_secs_f64())
}

/// Checks a summary's `"seconds"`: a time the run took, so at least 0 and at most
/// `wall`, the wall time of the whole process that printed it.
pub fn check_seconds(summary: &Map<String, Value>, wall: f64) {
    let seconds = number(summary, "seconds");
    assert!(
        (0.0..=wall).contains(&seconds),
        "seconds {seconds}, but the process took {wall} s"
    );
}

/// Text output: the drawings (`solution K`, the rows, a blank line) and the last line.
pub fn parse_text(text: &str) -> (Vec<Vec<String>>, String) {
    let body = text.strip_suffix('\n').expect("ends with a newline");
    let lines: Vec<&str> = body.split('\n').collect();
    let (last, blocks) = lines.split_last().unwrap();
    let mut drawings = Vec::new();
    let mut rest = blocks;
    while !rest.is_empty() {
        let n = drawings.len() + 1;
        assert_eq!(rest[0], format!("solution {n}"), "header of drawing {n}");
        let end = rest
            .iter()
            .position(|l| l.is_empty())
            .expect("a blank line");
        drawings.push(rest[1..end].iter().map(|s| s.to_string()).collect());
        rest = &rest[end + 1..];
    }
    (drawings, last.to_string())
}

/// JSON output: one object per line.
pub fn json_lines(text: &str) -> Vec<Map<String, Value>> {
    assert!(text.ends_with('\n'), "{text:?}");
    text.lines()
        .map(|l| match serde_json::from_str(l) {
            Ok(Value::Object(m)) => m,
            other => panic!("not a JSON object: {l:?} ({other:?})"),
        })
        .collect()
}

/// JSON lines without `fields` (those that vary from run to run, such as times).
pub fn strip(text: &str, fields: &[&str]) -> Vec<Map<String, Value>> {
    json_lines(text)
        .into_iter()
        .map(|mut m| {
            for f in fields {
                m.remove(*f);
            }
            m
        })
        .collect()
}

/// The number under `key`.
pub fn number(m: &Map<String, Value>, key: &str) -> f64 {
    m.get(key)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("no number {key:?} in {m:?}"))
}

/// A file in the temporary directory, removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    /// Writes `bytes` to [`TempFile::path`].
    pub fn new(tag: &str, name: &str, extension: &str, bytes: &[u8]) -> TempFile {
        let path = TempFile::path(tag, name, extension);
        std::fs::write(&path, bytes).expect("write a temporary file");
        TempFile(path)
    }

    /// A path in the temporary directory unique to the test crate (`tag`), the process
    /// and `name`; nothing is written.
    pub fn path(tag: &str, name: &str, extension: &str) -> PathBuf {
        std::env::temp_dir().join(format!(
            "polytile-{tag}-{}-{name}.{extension}",
            std::process::id()
        ))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

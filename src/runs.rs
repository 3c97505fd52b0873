//! Big runs: what a shard reports, merging shard reports into one result, and
//! checkpoints that let a run stop and go on.
//!
//! The search side lives in the [driver](crate::driver) ([`Options::shard`],
//! [`Options::skip`], [`Progress`]); this module owns the records around it and their
//! files. Every record carries the program version and a [`Fingerprint`] of what
//! decides the result (the puzzle or model as parsed, and the mode), so that results of
//! another puzzle, other options or another version are refused, never added up.
//!
//! [`Options::shard`]: crate::Options::shard
//! [`Options::skip`]: crate::Options::skip

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::driver::{Mode, Options, Progress, Shard, Summary};

/// The program version records are written by.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What decides a run's result, hashed: the puzzle or model as parsed and the mode.
/// 64-bit FNV-1a of their debug text: stable for one version of the program, which
/// records check separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint(pub u64);

impl Fingerprint {
    /// The fingerprint of `input` (any `Debug` value: a puzzle, a model) solved in
    /// `mode`.
    pub fn of(input: &impl std::fmt::Debug, mode: Mode) -> Fingerprint {
        let text = format!("{input:?}\n{mode:?}");
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Fingerprint(h)
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// The part of a run a checkpoint has finished: the first `done` tasks of the run's
/// list (the shard's, or the whole tree's), and what they held.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Always [`CHECKPOINT_FORMAT`]: what kind of file this is.
    pub polytile_checkpoint: u32,
    /// The program version that wrote it.
    pub version: String,
    /// [`Fingerprint`] of the puzzle and mode, as hex.
    pub fingerprint: String,
    /// The shard, `K/N`, or `None` for a whole run.
    pub shard: Option<String>,
    /// Tasks in the run's list.
    pub tasks: usize,
    /// Tasks done, from the start of the list.
    pub done: usize,
    /// Solutions in those tasks (classes, in distinct mode).
    pub solutions: u64,
    /// The solutions they stand for.
    pub total: u64,
    /// Nodes in those tasks.
    pub nodes: u64,
    /// Seconds spent by the runs that wrote this checkpoint, added up.
    pub seconds: f64,
}

/// The `polytile_checkpoint` value of the current format.
pub const CHECKPOINT_FORMAT: u32 = 1;

/// Why a checkpoint cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("{}: {what}: {source}", path.display())]
    Io {
        /// The checkpoint file.
        path: PathBuf,
        /// What was being done.
        what: &'static str,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a checkpoint, or is damaged.
    #[error("{}:{line}:{column}: not a polytile checkpoint, or a damaged one ({message}); expected the JSON object a run with --checkpoint writes", path.display())]
    Damaged {
        /// The checkpoint file.
        path: PathBuf,
        /// Where the damage shows, from 1.
        line: usize,
        /// See `line`.
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// The checkpoint belongs to another run.
    #[error("{}: the checkpoint is of another run ({what}: it has {found}, this run {expected}); expected the same puzzle, options, shard and version, or another checkpoint file", path.display())]
    OtherRun {
        /// The checkpoint file.
        path: PathBuf,
        /// What differs.
        what: &'static str,
        /// The checkpoint's.
        found: String,
        /// This run's.
        expected: String,
    },
}

impl Checkpoint {
    /// A checkpoint of nothing done yet; the run's first [`Progress`] tells its
    /// number of tasks.
    fn start(fingerprint: Fingerprint, shard: Option<Shard>) -> Checkpoint {
        Checkpoint {
            polytile_checkpoint: CHECKPOINT_FORMAT,
            version: VERSION.to_string(),
            fingerprint: fingerprint.to_string(),
            shard: shard.map(|s| s.to_string()),
            tasks: 0,
            done: 0,
            solutions: 0,
            total: 0,
            nodes: 0,
            seconds: 0.0,
        }
    }

    /// Reads the checkpoint at `path`: `Ok(None)` if there is no file.
    pub fn read(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(CheckpointError::Io {
                    path: path.to_path_buf(),
                    what: "cannot read the checkpoint",
                    source,
                })
            }
        };
        let damaged = |line, column, message: String| CheckpointError::Damaged {
            path: path.to_path_buf(),
            line,
            column,
            message,
        };
        let c: Checkpoint = serde_json::from_slice(&bytes)
            .map_err(|e| damaged(e.line().max(1), e.column().max(1), e.to_string()))?;
        if c.polytile_checkpoint != CHECKPOINT_FORMAT || c.done > c.tasks || c.total < c.solutions {
            return Err(damaged(1, 1, "inconsistent fields".into()));
        }
        Ok(Some(c))
    }

    /// Checks that this checkpoint was written by the run `expected` starts.
    fn check_matches(&self, path: &Path, expected: &Checkpoint) -> Result<(), CheckpointError> {
        let differs = |what, found: String, want: String| {
            Err(CheckpointError::OtherRun {
                path: path.to_path_buf(),
                what,
                found,
                expected: want,
            })
        };
        let shard = |s: &Option<String>| s.clone().unwrap_or_else(|| "no shard".into());
        if self.version != expected.version {
            return differs("version", self.version.clone(), expected.version.clone());
        }
        if self.fingerprint != expected.fingerprint {
            return differs(
                "puzzle or options",
                format!("fingerprint {}", self.fingerprint),
                format!("fingerprint {}", expected.fingerprint),
            );
        }
        if self.shard != expected.shard {
            return differs("shard", shard(&self.shard), shard(&expected.shard));
        }
        Ok(())
    }

    /// This checkpoint moved on by `progress`, of a run that started from `base`
    /// (which skipped `base.done` tasks) and has run for `seconds`.
    fn advanced(base: &Checkpoint, progress: &Progress, seconds: f64) -> Checkpoint {
        Checkpoint {
            tasks: progress.tasks,
            done: progress.done,
            // Saturating, as the driver's sums are (a count past 64 bits stays at
            // u64::MAX and is reported as an overflow).
            solutions: base.solutions.saturating_add(progress.solutions),
            total: base.total.saturating_add(progress.total),
            nodes: base.nodes + progress.nodes,
            seconds: base.seconds + seconds,
            ..base.clone()
        }
    }

    /// Writes the checkpoint to `path` atomically: to a temporary file beside it,
    /// flushed to disk, renamed over `path`, and the directory flushed, so that a kill
    /// at any moment leaves either the old checkpoint or the new one.
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |what, source| CheckpointError::Io {
            path: path.to_path_buf(),
            what,
            source,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let text = serde_json::to_string(self).expect("a checkpoint serialises") + "\n";
        let mut f =
            std::fs::File::create(&tmp).map_err(|e| io("cannot write the checkpoint", e))?;
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(|e| io("cannot write the checkpoint", e))?;
        drop(f);
        std::fs::rename(&tmp, path).map_err(|e| io("cannot replace the checkpoint", e))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // Flushing the directory makes the rename itself durable; where directories
        // cannot be opened (not Unix), the rename is as durable as the system makes it.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// What a checkpointed count found, the earlier runs of its checkpoint included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resumed {
    /// The whole count: the checkpoint's tasks and this run's.
    pub summary: Summary,
    /// Seconds the earlier runs of the checkpoint took.
    pub seconds_before: f64,
}

/// Counts with `count` (a solver's `count_observed`) from the checkpoint at `path`,
/// recording the tasks done there every `every` and at the end (see [`Checkpoint`]).
/// `fingerprint` names the puzzle and mode, `options` the run; `observe` hears each
/// task merged, with the solutions of the earlier runs.
///
/// The run is cut as `options.shard`, or as the one shard of one: never by the
/// threads, which may differ between the runs of one checkpoint. Nodes are always
/// counted, so that a later run asked for them adds up the right figure.
pub fn count_from_checkpoint(
    path: &Path,
    fingerprint: Fingerprint,
    options: &Options,
    every: std::time::Duration,
    count: impl FnOnce(&Options, &mut dyn FnMut(&Progress)) -> Summary,
    observe: &mut dyn FnMut(&Progress, u64),
) -> Result<Resumed, CheckpointError> {
    let fresh = Checkpoint::start(fingerprint, options.shard);
    let base = match Checkpoint::read(path)? {
        Some(found) => {
            found.check_matches(path, &fresh)?;
            found
        }
        None => fresh,
    };
    let options = Options {
        skip: base.done,
        stats: true,
        shard: Some(options.shard.unwrap_or(Shard { index: 0, count: 1 })),
        ..*options
    };
    let start = std::time::Instant::now();
    let mut last_write = start;
    let mut latest: Option<Checkpoint> = None;
    let mut failed = None;
    let summary = count(&options, &mut |p: &Progress| {
        observe(p, base.solutions);
        let now = Checkpoint::advanced(&base, p, start.elapsed().as_secs_f64());
        if failed.is_none() && last_write.elapsed() >= every {
            failed = now.write(path).err();
            last_write = std::time::Instant::now();
        }
        latest = Some(now);
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let done = match latest {
        // Same fingerprint, shard and version make the same cut; a different one
        // means the checkpoint was edited by hand.
        Some(now) if base.done > 0 && now.tasks != base.tasks => {
            return Err(CheckpointError::OtherRun {
                path: path.to_path_buf(),
                what: "tasks",
                found: base.tasks.to_string(),
                expected: now.tasks.to_string(),
            })
        }
        Some(now) => now,
        None => base.clone(),
    };
    let last = Checkpoint {
        seconds: base.seconds + start.elapsed().as_secs_f64(),
        ..done
    };
    last.write(path)?;
    Ok(Resumed {
        summary: Summary {
            solutions: last.solutions,
            total: last.total,
            nodes: Some(last.nodes),
            tasks: summary.tasks,
            searched: last.done,
            complete: summary.complete,
        },
        seconds_before: base.seconds,
    })
}

/// Why shard reports cannot be merged. Each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file could not be read.
    #[error("{file}: cannot read the shard report: {source}")]
    Io {
        /// The file.
        file: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A file's last line is not a shard report, or is damaged or cut short.
    #[error("{file}:{line}:{column}: {message}; expected the JSON summary line of a run with --shard K/N --format json")]
    Malformed {
        /// The file.
        file: String,
        /// Where, from 1.
        line: usize,
        /// See `line`.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Two reports of different runs.
    #[error("{file}: {what} differs from {first}'s ({found} against {expected}); expected shard reports of one puzzle, one set of options and one version")]
    Mismatch {
        /// The file that differs.
        file: String,
        /// The first file.
        first: String,
        /// What differs.
        what: &'static str,
        /// This file's.
        found: String,
        /// The first file's.
        expected: String,
    },
    /// A shard given twice.
    #[error("{file}: shard {shard} is also in {other}; expected each shard once")]
    Duplicate {
        /// The file.
        file: String,
        /// The shard.
        shard: String,
        /// The other file.
        other: String,
    },
    /// A shard that did not finish.
    #[error("{file}: shard {shard} did not search all its tasks (complete: false); expected finished shards")]
    Incomplete {
        /// The file.
        file: String,
        /// The shard.
        shard: String,
    },
    /// Shards missing.
    #[error("shard{} {} of {count} missing; expected every shard 1/{count} to {count}/{count}", if missing.len() > 1 { "s" } else { "" }, missing.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "))]
    Missing {
        /// The shards missing, from 1.
        missing: Vec<usize>,
        /// Shards in all.
        count: usize,
    },
    /// No files.
    #[error("no shard reports given; expected FILE...")]
    Nothing,
}

/// The fields every shard report carries and that must agree between shards.
const SAME: [(&str, &str); 4] = [
    ("version", "the program version"),
    ("fingerprint", "the puzzle or options (fingerprint)"),
    ("mode", "the mode"),
    ("tasks", "the tasks of the tree"),
];

/// Merges shard reports (`(file name, file text)`: each file's last line is the JSON
/// summary of a run with `--shard K/N --format json`) into the summary one run over the
/// whole tree gives: counts, nodes and seconds added up, the rest as the shards give it.
pub fn merge(
    reports: &[(String, String)],
) -> Result<serde_json::Map<String, serde_json::Value>, MergeError> {
    use serde_json::Value;
    let (first_file, _) = reports.first().ok_or(MergeError::Nothing)?;
    let mut merged: Option<serde_json::Map<String, Value>> = None;
    let mut seen: Vec<Option<String>> = Vec::new();
    let mut count = 0;
    for (file, text) in reports {
        let malformed = |line: usize, column: usize, message: String| MergeError::Malformed {
            file: file.clone(),
            line,
            column,
            message,
        };
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .ok_or_else(|| malformed(1, 1, "the file is empty".into()))?;
        if !text.ends_with('\n') {
            return Err(malformed(
                at + 1,
                lines[at].chars().count() + 1,
                "the last line is cut short (no newline at its end)".into(),
            ));
        }
        let line = at + 1;
        let report: serde_json::Map<String, Value> = serde_json::from_str(lines[at])
            .map_err(|e| malformed(line, e.column().max(1), e.to_string()))?;
        let field = |key: &str| {
            report
                .get(key)
                .ok_or_else(|| malformed(line, 1, format!("no \"{key}\" field")))
        };
        let number = |key: &str| {
            field(key)?
                .as_u64()
                .ok_or_else(|| malformed(line, 1, format!("\"{key}\" is not a whole number")))
        };
        let shard: Shard = field("shard")?
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| malformed(line, 1, "\"shard\" is not K/N".into()))?;
        for key in ["solutions", "nodes", "tasks"] {
            number(key)?;
        }
        field("seconds")?
            .as_f64()
            .ok_or_else(|| malformed(line, 1, "\"seconds\" is not a number".into()))?;
        if field("complete")? != &Value::Bool(true) {
            return Err(MergeError::Incomplete {
                file: file.clone(),
                shard: shard.to_string(),
            });
        }
        match &mut merged {
            None => {
                count = shard.count;
                seen = vec![None; count];
                let mut m = report.clone();
                m.remove("shard");
                m.remove("searched");
                m.insert("shards".into(), count.into());
                m.insert("threads".into(), 0.into());
                for key in ["solutions", "total", "nodes", "seconds"] {
                    if m.contains_key(key) {
                        m.insert(key.into(), 0.into());
                    }
                }
                merged = Some(m);
            }
            Some(m) => {
                for (key, what) in SAME {
                    if report.get(key) != m.get(key) {
                        let show =
                            |v: Option<&Value>| v.map_or("nothing".into(), |v| v.to_string());
                        return Err(MergeError::Mismatch {
                            file: file.clone(),
                            first: first_file.clone(),
                            what,
                            found: show(report.get(key)),
                            expected: show(m.get(key)),
                        });
                    }
                }
                if shard.count != count {
                    return Err(MergeError::Mismatch {
                        file: file.clone(),
                        first: first_file.clone(),
                        what: "the number of shards",
                        found: shard.count.to_string(),
                        expected: count.to_string(),
                    });
                }
            }
        }
        if let Some(other) = &seen[shard.index] {
            return Err(MergeError::Duplicate {
                file: file.clone(),
                shard: shard.to_string(),
                other: other.clone(),
            });
        }
        seen[shard.index] = Some(file.clone());
        let m = merged.as_mut().expect("set by the first report");
        for key in ["solutions", "total", "nodes"] {
            if let (Some(a), Some(b)) = (
                m.get(key).and_then(Value::as_u64),
                report.get(key).and_then(Value::as_u64),
            ) {
                m.insert(key.into(), a.saturating_add(b).into());
            }
        }
        let seconds =
            m["seconds"].as_f64().unwrap_or(0.0) + report["seconds"].as_f64().unwrap_or(0.0);
        m.insert("seconds".into(), seconds.into());
        let threads = m["threads"].as_u64().unwrap_or(0)
            + report.get("threads").and_then(Value::as_u64).unwrap_or(0);
        m.insert("threads".into(), threads.into());
    }
    let missing: Vec<usize> = (0..count)
        .filter(|&k| seen[k].is_none())
        .map(|k| k + 1)
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    Ok(merged.expect("at least one report"))
}

/// Reads a shard report file, of at most [`crate::MAX_FILE_BYTES`].
pub fn read_report(path: &Path) -> Result<String, MergeError> {
    let file = path.display().to_string();
    let bytes = crate::text::read_bounded(path).map_err(|e| match e {
        crate::text::ReadError::Io(source) => MergeError::Io {
            file: file.clone(),
            source,
        },
        crate::text::ReadError::TooLarge => MergeError::Malformed {
            file: file.clone(),
            line: 1,
            column: 1,
            message: format!(
                "the file is larger than {} MiB",
                crate::MAX_FILE_BYTES >> 20
            ),
        },
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let (line, column, _) = crate::text::utf8_error_at(e.as_bytes(), &e.utf8_error());
        MergeError::Malformed {
            file,
            line,
            column,
            message: "invalid UTF-8".into(),
        }
    })
}

//! What the `polytile` command prints, and the runs that print it.
//!
//! A solving subcommand runs as its [`Request`] says (counted or listed, from a
//! checkpoint, with progress on standard error) and prints each solution as the
//! library hands it over, as text or a JSON line, or keeps it for one picture sheet;
//! then its summary: the count line (statistics on standard error), or one JSON object,
//! the one `polytile merge` adds up. One printer serves tilings and number puzzles
//! alike. The output of `tables`, `merge` and `estimate`, and pictures written to a file
//! or standard output, are here too.
//!
//! The binary parses its arguments into these plain values and maps an [`Error`] to an
//! exit code; the searches never call into this module.

use std::io::{IsTerminal, Write as _};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use crate::count::MemoOptions;
use crate::driver::{Mode, Options, Progress, Summary};
use crate::estimate::EstimateOptions;
use crate::picture::{self, Picture, MAX_PANELS};
use crate::puzzle::Puzzle;
use crate::report::TablesReport;
use crate::runs::{self, Fingerprint, Resumed};
use crate::sums::{self, SumsSolver};
use crate::tiling::{Splitting, TilingSolver};
use crate::SplitMemory;

/// How a command prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text: solutions drawn as rows, then the count line.
    Text,
    /// JSON: one object per line, the summary last.
    Json,
    /// An SVG picture.
    Svg,
    /// A PNG picture.
    Png,
}

impl Format {
    /// Whether the output is a picture.
    pub fn picture(self) -> bool {
        matches!(self, Format::Svg | Format::Png)
    }
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input from the user: a file, or what it says, or output that cannot be
    /// given as asked; exit code 2, printed as is (it names the file, or `polytile`,
    /// first).
    #[error("{0}")]
    Input(String),
    /// Writing the output failed: exit code 1.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
    /// A picture could not be rendered: exit code 1.
    #[error("cannot render the picture: {0}")]
    Render(String),
    /// A count past what 64 bits hold: exit code 1.
    #[error("more than {} solutions: the count does not fit 64 bits", u64::MAX - 1)]
    Overflow,
}

/// When a run shows its progress on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowProgress {
    /// A bar when standard error is a terminal and the solutions are only counted or
    /// written elsewhere than the terminal; nothing otherwise.
    Auto,
    /// A bar on a terminal, elsewhere a line every few seconds (`--progress`).
    Always,
    /// Nothing (`--quiet`).
    Never,
}

/// What a solving command (`solve`, `sums`, `magic-hexagon`, `magic-square`) asks for,
/// from the flags they share.
#[derive(Clone, Debug)]
pub struct Request {
    /// All solutions, or one per symmetry class.
    pub mode: Mode,
    /// The search's options. The JSON summary gives the nodes, so JSON needs
    /// [`Options::stats`] on.
    pub options: Options,
    /// Only count the solutions.
    pub count: bool,
    /// How to print.
    pub format: Format,
    /// Where a picture goes; `None`: standard output.
    pub output: Option<PathBuf>,
    /// Pictures of tilings show the pieces' labels.
    pub labels: bool,
    /// Print nodes, time and the solver's figures (standard error in text).
    pub stats: bool,
    /// When to show progress.
    pub progress: ShowProgress,
    /// Count from this checkpoint file and record finished tasks in it (with
    /// `count`).
    pub checkpoint: Option<PathBuf>,
    /// Time between checkpoint writes.
    pub checkpoint_every: Duration,
}

/// What `polytile solve` asks for beyond a [`Request`].
#[derive(Clone, Debug)]
pub struct TilingRequest {
    /// Where the search splits; `None`: as the puzzle's `split:` statement says, or
    /// [`Splitting::Auto`] without one.
    pub split: Option<Splitting>,
    /// Whether a count uses the memo: as given, or where it pays when `None` (see
    /// [`TilingSolver::memo_wanted`]).
    pub memo: Option<bool>,
    /// The memo's bound.
    pub memo_options: MemoOptions,
    /// Whether the search may test placements eight at a time
    /// ([`TilingSolver::set_wide`]).
    pub wide: bool,
}

/// Checks that a picture can go where it is asked to: `output` only with a picture
/// format, PNG bytes never onto a terminal.
pub fn check_output(format: Format, output: Option<&Path>) -> Result<(), Error> {
    if output.is_some() && !format.picture() {
        return Err(Error::Input(
            "polytile: --output writes pictures; it needs --format svg or --format png".into(),
        ));
    }
    if format == Format::Png && output.is_none() && std::io::stdout().is_terminal() {
        return Err(Error::Input(
            "polytile: --format png writes binary data; give --output FILE or redirect standard output".into(),
        ));
    }
    Ok(())
}

/// Writes a picture as SVG or PNG (`format`) to `output` or standard output.
pub fn write_picture(
    picture: &Picture,
    format: Format,
    output: Option<&Path>,
) -> Result<(), Error> {
    let bytes = if format == Format::Png {
        picture::png(&picture.svg).map_err(|e| Error::Render(e.to_string()))?
    } else {
        picture.svg.clone().into_bytes()
    };
    match output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| Error::Input(format!("{}: cannot write: {e}", path.display()))),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
            Ok(())
        }
    }
}

/// The tiling puzzle in `file`; its errors (which name the file) are bad input.
fn load_puzzle(file: &Path) -> Result<Puzzle, Error> {
    Puzzle::load(file).map_err(|e| Error::Input(e.to_string()))
}

/// The number puzzle in `file`; its errors (which name the file) are bad input.
fn load_model(file: &Path) -> Result<sums::Model, Error> {
    sums::load(file).map_err(|e| Error::Input(e.to_string()))
}

/// Prints the tables of `puzzle` (`polytile tables`): `meteor`, the built-in puzzle as
/// the build script baked it, or a puzzle file, whose tables are those a run in `mode`
/// builds; text, JSON, or the picture to `output`.
pub fn puzzle_tables(
    puzzle: &str,
    mode: Mode,
    format: Format,
    output: Option<&Path>,
) -> Result<(), Error> {
    check_output(format, output)?;
    let report = if puzzle == "meteor" {
        TablesReport::meteor()
    } else {
        let path = Path::new(puzzle);
        let loaded = load_puzzle(path)?;
        TablesReport::for_puzzle(&loaded, mode)
            .map_err(|e| Error::Input(format!("{}: {e}", path.display())))?
    };
    tables(&report, format, output)
}

/// Writes the start of the search of the puzzle `file` as an animated SVG to `output`
/// (`polytile animate`): at most `steps` moves, `seconds` each, ending on the first
/// solution.
pub fn animate(
    file: &Path,
    steps: usize,
    seconds: f64,
    output: Option<&Path>,
) -> Result<(), Error> {
    check_output(Format::Svg, output)?;
    let puzzle = load_puzzle(file)?;
    let solver = TilingSolver::new(&puzzle, Mode::All)
        .map_err(|e| Error::Input(format!("{}: {e}", file.display())))?;
    let trace = solver.trace(steps);
    let movie = picture::movie::movie(&puzzle, &trace, seconds);
    write_picture(&movie, Format::Svg, output)
}

/// Prints `report` (`polytile tables`): text, JSON, or the picture to `output`.
pub fn tables(report: &TablesReport, format: Format, output: Option<&Path>) -> Result<(), Error> {
    let out = match format {
        Format::Text => report.text(),
        Format::Json => report.json(),
        Format::Svg | Format::Png => return write_picture(&report.picture(), format, output),
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Loads the tiling puzzle `file` and solves it as [`solve_tiling`] does.
pub fn solve_tiling_file(
    file: &Path,
    request: &Request,
    tiling: &TilingRequest,
) -> Result<(), Error> {
    let puzzle = load_puzzle(file)?;
    solve_tiling(&puzzle, &file.display().to_string(), request, tiling)
}

/// Solves `puzzle` (from `source`, which error messages name) as `request` and
/// `tiling` ask, printing the solutions and the summary.
pub fn solve_tiling(
    puzzle: &Puzzle,
    source: &str,
    request: &Request,
    tiling: &TilingRequest,
) -> Result<(), Error> {
    let mut solver = TilingSolver::new(puzzle, request.mode)
        .map_err(|e| Error::Input(format!("{source}: {e}")))?;
    if let Some(split) = &tiling.split {
        solver
            .set_splitting(split.clone())
            .map_err(|e| Error::Input(format!("{source}: --split: {e}")))?;
    }
    solver.set_memo_bound(&tiling.memo_options);
    solver.set_wide(tiling.wide);
    let options = &request.options;
    let memoised = solver
        .memo_wanted(tiling.memo, options)
        .map_err(|e| Error::Input(format!("{source}: --memo on: {e}")))?;
    let mut memo_report = None;
    // One distinct character per piece, even when names share a first letter.
    let names: Vec<String> = puzzle.labels().iter().map(char::to_string).collect();
    let mut printer = Printer::new(request)?;
    // Only checkpoints and shards record it: the debug text of a whole puzzle is
    // written out and hashed on demand.
    let fingerprint = || Fingerprint::of(puzzle, request.mode);
    let mut drawn = Vec::new();
    let summary = search(
        request,
        fingerprint,
        |options, observe| {
            if !memoised {
                return solver.count_observed(options, observe);
            }
            let (summary, report) = solver
                .count_memoised(options, &tiling.memo_options, observe)
                .expect("memo_refusal said yes");
            memo_report = Some(report);
            summary
        },
        |options, observe| {
            solver.for_each_observed(
                options,
                |t| {
                    if request.format.picture() {
                        drawn.push(t);
                        printer.drawn()
                    } else {
                        printer.solution(crate::render::rows(&puzzle.board, &t, &names), None)
                    }
                },
                observe,
            )
        },
    )?;
    let style = picture::tiling::Style {
        labels: request.labels,
    };
    printer.picture = Some(Box::new(move || {
        picture::tiling::tilings(puzzle, &drawn, style)
    }));
    let mut extra = Map::new();
    extra.insert("placements".into(), solver.placements().into());
    if let Some(m) = memo_report {
        extra.insert("memo".into(), json!(m));
    }
    // The memo's count does not split.
    let rows = if memoised {
        &[][..]
    } else {
        solver.split_rows_for(options)
    };
    if !memoised && rows.is_empty() {
        let wide = solver.wide();
        if request.format == Format::Json {
            extra.insert("search".into(), if wide { "wide" } else { "plain" }.into());
        } else if request.stats && wide {
            eprintln!("search: placements tested eight at a time (AVX-512)");
        }
    }
    if !rows.is_empty() {
        extra.insert("split".into(), json!(rows));
        if let Splitting::Stated(_) = solver.splitting() {
            // Not measured: the file's `split:` statement gave them.
            if request.format == Format::Json {
                extra.insert("split_stated".into(), true.into());
            } else if request.stats {
                eprintln!("split: rows {rows:?}, as the file states (not measured)");
            }
        }
    }
    if let Some((piece, stated)) = solver.first_piece() {
        let name = &puzzle.pieces[piece].name;
        if request.format == Format::Json {
            extra.insert("first_piece".into(), json!(name));
            extra.insert("first_stated".into(), stated.into());
        } else if request.stats && stated {
            // Not chosen: the file's `first:` statement gave it.
            eprintln!("first piece: {name}, restricted by symmetry, as the file states (no other measured)");
        }
    }
    if let Some(o) = solver.orientations() {
        if request.format == Format::Json {
            extra.insert("orientation".into(), o.json());
        } else if request.stats {
            eprint!("{}", o.text());
        }
    }
    if let Some((width, height)) = solver.transposed() {
        // Split rows are the search's rows: say when those are the puzzle's columns.
        if request.format == Format::Json {
            extra.insert("transposed".into(), json!([width, height]));
        } else if request.stats {
            eprintln!(
                "transposed: the board, {width} columns x {height} rows, is searched along its short side ({height} columns x {width} rows, as --split counts them)"
            );
        }
    }
    // Measured only where the run splits: not under a limit, nor when the memo counts.
    let measured = (options.limit.is_none() && !memoised)
        .then(|| solver.split_plan())
        .flatten();
    if let Some(plan) = measured {
        if request.format == Format::Json {
            extra.insert("split_plan".into(), plan.json());
        } else if request.stats && plan.skipped.is_none() {
            eprint!("{}", plan.text());
        }
    }
    if let Some(memory) = solver.split_memory().filter(|_| !rows.is_empty()) {
        if request.format == Format::Json {
            extra.insert("split_memo".into(), json!(memory));
        } else if request.stats {
            eprintln!("{}", split_memory_text(&memory));
        }
    }
    printer.finish(
        &summary,
        json!(puzzle.name),
        extra,
        solver.symmetries() as u64,
        &fingerprint,
    )
}

/// The split memo's line of `--stats`.
fn split_memory_text(m: &SplitMemory) -> String {
    let mib = |bytes: usize| bytes as f64 / f64::from(1 << 20);
    let full = if m.full {
        "; full: the overhangs met after were searched without it (exact, slower; --memo-mib raises the bound)"
    } else {
        ""
    };
    format!(
        "split memo: {:.1} MiB of {:.0} MiB{full}",
        mib(m.bytes),
        mib(m.bound)
    )
}

/// Loads the number puzzle `file` and solves it as [`solve_sums`] does.
pub fn solve_sums_file(file: &Path, request: &Request) -> Result<(), Error> {
    let model = load_model(file)?;
    solve_sums(&model, &file.display().to_string(), request)
}

/// Solves `model` (from `source`, which error messages name) as `request` asks,
/// printing the solutions (in JSON with each cell's value by name) and the summary.
pub fn solve_sums(model: &sums::Model, source: &str, request: &Request) -> Result<(), Error> {
    let solver =
        SumsSolver::new(model, request.mode).map_err(|e| Error::Input(format!("{source}: {e}")))?;
    let mut printer = Printer::new(request)?;
    let fingerprint = || Fingerprint::of(model, request.mode);
    let mut drawn = Vec::new();
    let summary = search(
        request,
        fingerprint,
        |options, observe| solver.count_observed(options, observe),
        |options, observe| {
            solver.for_each_observed(
                options,
                |values| {
                    if request.format.picture() {
                        drawn.push(values);
                        return printer.drawn();
                    }
                    let named = (request.format == Format::Json).then(|| {
                        let named: Map<String, Value> = model
                            .cells
                            .iter()
                            .zip(&values)
                            .map(|(name, &v)| (name.clone(), v.into()))
                            .collect();
                        Value::Object(named)
                    });
                    printer.solution(sums::rows(model, &values), named)
                },
                observe,
            )
        },
    )?;
    printer.picture = Some(Box::new(move || {
        picture::numbers::solutions(model, &drawn, true)
    }));
    let mut extra = Map::new();
    extra.insert("automorphisms".into(), solver.automorphisms().into());
    extra.insert("search".into(), solver.search_kind().into());
    printer.finish(
        &summary,
        json!(model.name),
        extra,
        solver.symmetries(),
        &fingerprint,
    )
}

/// Runs a search as `request` asks: `count` (told where the run stands after each
/// task) when it only counts, `list` otherwise; with a checkpoint, from where the file
/// says and recording as it goes.
fn search(
    request: &Request,
    fingerprint: impl Fn() -> Fingerprint,
    count: impl FnOnce(&Options, &mut dyn FnMut(&Progress)) -> Summary,
    list: impl FnOnce(&Options, &mut dyn FnMut(&Progress)) -> Summary,
) -> Result<Resumed, Error> {
    let options = &request.options;
    let mut meter = Meter::new(request);
    let searched = match &request.checkpoint {
        Some(path) => runs::count_from_checkpoint(
            path,
            fingerprint(),
            options,
            request.checkpoint_every,
            count,
            &mut |p, before| meter.show(p, before),
        )
        .map_err(|e| Error::Input(e.to_string()))?,
        None => Resumed {
            summary: if request.count {
                count(options, &mut |p| meter.show(p, 0))
            } else {
                list(options, &mut |p| meter.show(p, 0))
            },
            seconds_before: 0.0,
        },
    };
    meter.finish();
    Ok(searched)
}

/// Reads the shard reports `files`, adds them up ([`runs::merge`]) and prints the
/// result: in text its count line, in JSON the merged summary object.
pub fn merge(files: &[PathBuf], format: Format) -> Result<(), Error> {
    if format.picture() {
        return Err(Error::Input(
            "polytile: merge prints text or json, not pictures".into(),
        ));
    }
    let mut reports = Vec::new();
    for path in files {
        let file = path.display().to_string();
        let bytes = runs::read_report(path).map_err(|e| Error::Input(e.to_string()))?;
        reports.push((file, bytes));
    }
    let merged = runs::merge(&reports).map_err(|e| Error::Input(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        writeln!(out, "{}", Value::Object(merged))?;
    } else {
        let n = |key: &str| merged.get(key).and_then(Value::as_u64).unwrap_or(0);
        let distinct = (merged.get("mode") == Some(&json!("distinct"))).then(|| n("symmetries"));
        writeln!(out, "{}", count_line(n("solutions"), n("total"), distinct))?;
    }
    out.flush()?;
    Ok(())
}

/// Estimates the search of `file` (a number puzzle if `numbers`, else a tiling) in
/// `mode` and prints the estimate, its times for `threads` threads: JSON, or text
/// for any other format.
pub fn estimate(
    file: &Path,
    numbers: bool,
    mode: Mode,
    options: &EstimateOptions,
    memo: &MemoOptions,
    threads: usize,
    format: Format,
) -> Result<(), Error> {
    let source = file.display().to_string();
    // A box on the cubic grid may be searched along other edges than drawn: the
    // estimate is of the tree searched, and says which.
    let (name, estimate, orientation) = if numbers {
        let model = load_model(file)?;
        let solver =
            SumsSolver::new(&model, mode).map_err(|e| Error::Input(format!("{source}: {e}")))?;
        (json!(model.name), solver.estimate(options), None)
    } else {
        let puzzle = load_puzzle(file)?;
        let mut solver =
            TilingSolver::new(&puzzle, mode).map_err(|e| Error::Input(format!("{source}: {e}")))?;
        solver.set_memo_bound(memo);
        let orientation = solver.orientations().cloned();
        (json!(puzzle.name), solver.estimate(options), orientation)
    };
    let distinct = mode == Mode::Distinct;
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let mut json = estimate.json(name, distinct, threads);
        if let Some(o) = &orientation {
            json["orientation"] = o.json();
        }
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{}", estimate.text(&source, distinct, threads))?;
        if let Some(o) = &orientation {
            write!(out, "{}", o.text())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The line a count is reported in: `N solutions`, or in distinct mode (with the
/// group's order) `N distinct solutions (T in all, S symmetries)`.
fn count_line(solutions: u64, total: u64, distinct: Option<u64>) -> String {
    let s = if solutions == 1 { "" } else { "s" };
    match distinct {
        Some(symmetries) => {
            format!("{solutions} distinct solution{s} ({total} in all, {symmetries} symmetries)")
        }
        None => format!("{solutions} solution{s}"),
    }
}

/// Prints solutions as the library hands them over, then the summary, in the format
/// the request asks for.
struct Printer<'f> {
    request: &'f Request,
    /// With a picture format: draws the solutions kept, at the end.
    picture: Option<Box<dyn FnOnce() -> Picture + 'f>>,
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    printed: usize,
    /// The first write that failed; the search is stopped then.
    failed: Option<std::io::Error>,
    start: Instant,
}

impl<'f> Printer<'f> {
    /// A printer for `request`, if it asks for output it can write.
    fn new(request: &'f Request) -> Result<Printer<'f>, Error> {
        check_output(request.format, request.output.as_deref())?;
        if request.format.picture() {
            let conflict = if request.count {
                Some("--count prints a number, not a picture")
            } else if request.options.limit.is_some_and(|n| n > MAX_PANELS as u64) {
                Some("a sheet draws at most 1000 solutions; give --limit 1000 or less")
            } else {
                None
            };
            if let Some(why) = conflict {
                return Err(Error::Input(format!("polytile: {why}")));
            }
        }
        Ok(Printer {
            request,
            picture: None,
            out: std::io::BufWriter::new(std::io::stdout().lock()),
            printed: 0,
            failed: None,
            start: Instant::now(),
        })
    }

    /// One solution kept for a picture; stops the search once there are more than a
    /// sheet holds.
    fn drawn(&mut self) -> ControlFlow<()> {
        self.printed += 1;
        if self.printed > MAX_PANELS {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// One solution drawn as `rows` (with, in JSON, the value of each cell by name).
    fn solution(&mut self, rows: Vec<String>, values: Option<Value>) -> ControlFlow<()> {
        self.printed += 1;
        let i = self.printed;
        let written = if self.request.format == Format::Json {
            let mut line = json!({ "solution": i, "rows": rows });
            if let Some(values) = values {
                line["values"] = values;
            }
            writeln!(self.out, "{line}")
        } else {
            (|| {
                writeln!(self.out, "solution {i}")?;
                for row in &rows {
                    writeln!(self.out, "{row}")?;
                }
                writeln!(self.out)
            })()
        };
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.failed = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// The summary: the count line (and statistics on standard error) in text, one
    /// object in JSON with the common fields and `extra`. `symmetries` is the order of
    /// the group classes stand for in distinct mode.
    fn finish(
        mut self,
        searched: &Resumed,
        puzzle: Value,
        extra: Map<String, Value>,
        symmetries: u64,
        fingerprint: &dyn Fn() -> Fingerprint,
    ) -> Result<(), Error> {
        if let Some(e) = self.failed {
            return Err(e.into());
        }
        if searched.summary.overflowed() {
            return Err(Error::Overflow);
        }
        let request = self.request;
        if request.format.picture() && !request.count {
            if self.printed > MAX_PANELS {
                return Err(Error::Input(format!(
                    "polytile: more than {MAX_PANELS} solutions to draw; a sheet draws at most {MAX_PANELS}: give --limit N"
                )));
            }
            let draw = self.picture.take().expect("the caller gives the picture");
            write_picture(&draw(), request.format, request.output.as_deref())?;
        }
        let summary = &searched.summary;
        let seconds = searched.seconds_before + self.start.elapsed().as_secs_f64();
        let threads = request.options.threads;
        let (count, total, nodes) = (summary.solutions, summary.total, summary.nodes);
        let distinct = request.mode == Mode::Distinct;
        if request.format == Format::Json {
            let mut line = json!({
                "puzzle": puzzle,
                "mode": if distinct { "distinct" } else { "all" },
                "solutions": count,
                "nodes": nodes.unwrap_or(0),
                "seconds": seconds,
                "threads": threads,
                "complete": summary.complete,
            });
            for (key, value) in extra {
                line[key] = value;
            }
            if distinct {
                line["total"] = total.into();
                line["symmetries"] = symmetries.into();
            }
            if let Some(shard) = request.options.shard {
                // What `polytile merge` checks and adds up.
                line["shard"] = shard.to_string().into();
                line["tasks"] = summary.tasks.into();
                line["searched"] = summary.searched.into();
                line["fingerprint"] = fingerprint().to_string().into();
                line["version"] = runs::VERSION.into();
            }
            writeln!(self.out, "{line}")?;
        } else {
            let line = count_line(count, total, distinct.then_some(symmetries));
            if request.format.picture() {
                // Standard output holds the picture alone.
                if request.stats {
                    eprintln!("{line}");
                }
            } else {
                writeln!(self.out, "{line}")?;
            }
            if request.stats {
                let extra: Vec<String> = extra.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                eprintln!(
                    "nodes: {}  {}  threads: {}  time: {seconds:.6} s",
                    nodes.unwrap_or(0),
                    extra.join("  "),
                    threads
                );
            }
        }
        self.out.flush()?;
        Ok(())
    }
}

/// Progress on standard error, as [`Request::progress`] says: a bar on a terminal, a
/// line every few seconds elsewhere.
struct Meter {
    bar: Option<indicatif::ProgressBar>,
    /// Lines off a terminal: when the last line was written.
    lines: Option<Instant>,
    start: Instant,
}

/// Seconds between progress lines off a terminal.
const PROGRESS_LINE_SECONDS: u64 = 5;

impl Meter {
    fn new(request: &Request) -> Meter {
        let terminal = std::io::stderr().is_terminal();
        let solutions_elsewhere = request.count || !std::io::stdout().is_terminal();
        let shown = match request.progress {
            ShowProgress::Auto => solutions_elsewhere,
            ShowProgress::Always => true,
            ShowProgress::Never => false,
        };
        let bar = (terminal && shown).then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} tasks  {msg}  eta {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        });
        let lines = (!terminal && request.progress == ShowProgress::Always).then(Instant::now);
        Meter {
            bar,
            lines,
            start: Instant::now(),
        }
    }

    /// Shows `p`, with `before` solutions found by earlier runs of a checkpoint.
    fn show(&mut self, p: &Progress, before: u64) {
        if self.bar.is_none() && self.lines.is_none() {
            // Nothing shown: not even the clock is read (this runs after every task).
            return;
        }
        let solutions = before + p.solutions;
        let seconds = self.start.elapsed().as_secs_f64();
        let rate = solutions as f64 / seconds.max(1e-9);
        if let Some(bar) = &self.bar {
            bar.set_length(p.tasks as u64);
            bar.set_position(p.done as u64);
            bar.set_message(format!("{solutions} solutions  {rate:.0}/s"));
        } else if let Some(last) = &mut self.lines {
            if last.elapsed().as_secs() >= PROGRESS_LINE_SECONDS || p.done == p.tasks {
                *last = Instant::now();
                eprintln!("{}", progress_line(p, solutions, seconds));
            }
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// One line of progress for logs: tasks done of all, solutions, rate, elapsed time and
/// the time left at the rate of tasks so far.
fn progress_line(p: &Progress, solutions: u64, seconds: f64) -> String {
    let left = if p.done > 0 && p.done < p.tasks {
        format!(
            ", about {:.1} s left",
            seconds / p.done as f64 * (p.tasks - p.done) as f64
        )
    } else {
        String::new()
    };
    format!(
        "progress: {}/{} tasks, {solutions} solutions ({:.0}/s), {seconds:.1} s{left}",
        p.done,
        p.tasks,
        solutions as f64 / seconds.max(1e-9)
    )
}

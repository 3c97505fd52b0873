//! `polytile`: the command-line front end.
//!
//! Each subcommand is a variant of [`Command`] with its own argument struct and a `run_*`
//! function returning `Result<(), CliError>`; `main` only parses, dispatches and maps
//! errors to exit codes (2 for bad input, 1 for failures). Solutions are printed as the
//! library hands them over, by one [`Printer`] for tilings and number puzzles alike.
//!
//! Everything here is presentation: the search path never calls into this file.

use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{json, Map, Value};

use polytile::picture::MAX_PANELS;
use polytile::runs::{self, Fingerprint, Resumed};
use polytile::sums::{self, SumsSolver};
use polytile::{Mode, Options, Progress, Puzzle, Splitting, Summary, TablesReport, TilingSolver};

/// Tiling and number-placement puzzles solved with 64-bit masks.
#[derive(Parser)]
#[command(name = "polytile", version, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the placement tables of the meteor or of a tiling puzzle file.
    Tables(TablesArgs),
    /// Solve a tiling puzzle file (format: docs/puzzle-format.md).
    Solve(SolveArgs),
    /// Solve a number puzzle with sums (format: docs/sums-format.md).
    Sums(FileArgs),
    /// Solve the order-3 magic hexagon (built in).
    MagicHexagon(SearchFlags),
    /// Solve the magic square of order N (built in).
    MagicSquare(MagicSquareArgs),
    /// Write the start of a tiling search as an animated SVG: pieces placed and taken
    /// back, ending on the first solution found.
    Animate(AnimateArgs),
    /// Add up the JSON summaries of the shards of one run (`--shard K/N --format
    /// json`) into the summary one run gives.
    Merge(MergeArgs),
    /// Estimate how long a search takes before running it: its nodes and solutions
    /// from random paths (Knuth's estimate), its speed from a short real search.
    Estimate(EstimateArgs),
}

#[derive(Args)]
struct EstimateArgs {
    /// A tiling puzzle, or a number puzzle when the name ends in `.sum` (or with
    /// --sums).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Read FILE as a number puzzle whatever its name.
    #[arg(long)]
    sums: bool,
    /// Estimate the search of `--distinct` (solutions up to symmetry).
    #[arg(long)]
    distinct: bool,
    /// Random paths from the root: more narrow the spread (as one over the square root).
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    paths: u64,
    /// Seed of the random paths: the same seed gives the same estimate.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Seconds of real search that measure the node rate (0: no time estimate).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.5, value_parser = seconds,
          allow_negative_numbers = true)]
    probe: f64,
    /// Paths search the rest of their subtree exactly once its subtrees hold at most N
    /// nodes on average (0: never): larger narrows the spread of the solutions, at
    /// about N nodes of search a path.
    #[arg(long, value_name = "N", default_value_t = polytile::estimate::TAIL_SUBTREE,
          value_parser = seconds)]
    tail: f64,
    /// Threads to give the expected time for [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Output format: text, or one json object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Args)]
struct MergeArgs {
    /// The shards' outputs: each file's last line is its summary.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Output format: text prints the count line, json the merged summary object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Args)]
struct AnimateArgs {
    /// The puzzle file (format: docs/puzzle-format.md).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Moves to show (a piece placed or taken back counts one); the movie ends sooner
    /// on the first solution.
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    steps: u32,
    /// Seconds each move is shown.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.1, value_parser = seconds)]
    seconds: f64,
    /// Write the SVG to FILE rather than standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Args)]
struct FileArgs {
    /// The puzzle file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    flags: SearchFlags,
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    file: FileArgs,
    /// How --count counts: with a memo of completions per search state (on), by
    /// visiting every solution (off), or with the memo when pieces have copies (auto).
    /// The memo counts all solutions: not with --distinct or --limit.
    #[arg(long, value_enum, default_value_t = MemoChoice::Auto, requires = "count")]
    memo: MemoChoice,
    /// The most memory the memo may take, in MiB; past it the count goes on, exact but
    /// slower.
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    memo_mib: u64,
    /// Split the search before these rows of the board as searched (counted from 0,
    /// after any transposition; e.g. 3,4,5,6 for the meteor board): the rows north of
    /// the first split are searched once per overhang and shared, as the meteor binary
    /// does. auto: rows chosen by measuring a sample of the tree first, or none where
    /// no split pays (not with --limit); --stats shows what was measured. off: the
    /// plain search. The solutions and their order are the same; the speed depends on
    /// the rows (README.md, "Splitting the search").
    #[arg(long, value_name = "auto|off|ROWS", default_value = "auto", value_parser = splitting)]
    split: Splitting,
}

/// `--split`: `auto`, `off` or rows separated by commas.
fn splitting(arg: &str) -> Result<Splitting, String> {
    match arg {
        "auto" => Ok(Splitting::Auto),
        "off" => Ok(Splitting::Off),
        rows => rows
            .split(',')
            .map(|r| r.trim().parse::<usize>())
            .collect::<Result<Vec<usize>, _>>()
            .map(Splitting::Rows)
            .map_err(|_| format!("expected auto, off or rows such as 3,4,5, got '{arg}'")),
    }
}

/// Whether `--count` uses the memo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum MemoChoice {
    Auto,
    On,
    Off,
}

#[derive(Args)]
struct MagicSquareArgs {
    /// The order of the square: 1 to 8 (its n² values fit one 64-bit domain).
    #[arg(value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    order: u8,
    #[command(flatten)]
    flags: SearchFlags,
}

/// The flags of every solving subcommand (`solve`, `sums`, `magic-hexagon`,
/// `magic-square`).
#[derive(Args)]
struct SearchFlags {
    /// Print only the number of solutions (and, with --format json, the summary).
    #[arg(long)]
    count: bool,
    /// Every solution: rotations and reflections of the whole figure count as different
    /// (the default).
    #[arg(long, conflicts_with = "distinct")]
    all: bool,
    /// Solutions up to symmetry (tilings: the board's rotations, and reflections when
    /// the pieces allow them; number puzzles: the file's `symmetry` constraints); the
    /// summary also gives the total they stand for.
    #[arg(long)]
    distinct: bool,
    /// Stop after N solutions, in search order.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Worker threads [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Output format: text draws each solution; json prints one object per solution
    /// and a summary object as the last line; svg and png draw the solutions on one
    /// sheet (at most 1,000; png needs --output on a terminal).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the picture (--format svg or png) to FILE rather than standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Pictures of tilings without the pieces' labels.
    #[arg(long)]
    no_labels: bool,
    /// Print nodes visited and time, and placements for tilings (standard error in
    /// text format).
    #[arg(long)]
    stats: bool,
    /// Search only shard K of N (1 <= K <= N): the tree is cut the same way on every
    /// machine and the tasks are dealt in turn; `polytile merge` adds the shards'
    /// `--format json` summaries up.
    #[arg(long, value_name = "K/N", conflicts_with = "limit")]
    shard: Option<polytile::Shard>,
    /// Record finished tasks in FILE (atomically, every --checkpoint-every seconds and
    /// at the end); the same command with the same FILE goes on from there. Needs
    /// --count.
    #[arg(
        long,
        value_name = "FILE",
        requires = "count",
        conflicts_with = "limit"
    )]
    checkpoint: Option<PathBuf>,
    /// Show progress on standard error (tasks done, solutions, rate, elapsed time,
    /// estimated time left) even when it is not a terminal: a line every few seconds.
    /// By default a bar is shown when standard error is a terminal and the solutions
    /// are only counted (--count) or written elsewhere than the terminal.
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Never show progress.
    #[arg(long)]
    quiet: bool,
    /// Seconds between checkpoint writes (0: after every task).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 5.0,
        requires = "checkpoint",
        value_parser = seconds,
        allow_negative_numbers = true
    )]
    checkpoint_every: f64,
}

impl SearchFlags {
    fn mode(&self) -> Mode {
        // --all is the default; the flag exists to be explicit and to conflict with
        // --distinct.
        if self.distinct {
            Mode::Distinct
        } else {
            Mode::All
        }
    }

    fn options(&self) -> Options {
        Options {
            limit: self.limit,
            threads: self
                .threads
                .map_or_else(polytile::default_threads, usize::from),
            stats: self.stats || self.format == Format::Json,
            // One search per process: pinning its threads crowds nothing.
            pin_threads: true,
            shard: self.shard,
            skip: 0,
        }
    }
}

/// A number of seconds, at least 0.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err("expected a number of seconds, at least 0".into()),
    }
}

#[derive(Args)]
struct TablesArgs {
    /// `meteor` (the built-in puzzle, as the build script baked it) or a puzzle file.
    #[arg(value_name = "PUZZLE")]
    puzzle: String,
    /// The tables a `--distinct` run builds (for a puzzle file).
    #[arg(long)]
    distinct: bool,
    /// Output format; json masks are "0x"-prefixed 16-digit hex strings; svg and png
    /// draw the placements anchored on each cell before and after pruning.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the picture (--format svg or png) to FILE rather than standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Svg,
    Png,
}

impl Format {
    fn picture(self) -> bool {
        matches!(self, Format::Svg | Format::Png)
    }
}

/// Checks that a picture can go where it is asked to: `--output` only with a picture
/// format, PNG bytes never onto a terminal.
fn check_output(format: Format, output: Option<&std::path::Path>) -> Result<(), CliError> {
    use std::io::IsTerminal;
    if output.is_some() && !format.picture() {
        return Err(CliError::Input(
            "polytile: --output writes pictures; it needs --format svg or --format png".into(),
        ));
    }
    if format == Format::Png && output.is_none() && std::io::stdout().is_terminal() {
        return Err(CliError::Input(
            "polytile: --format png writes binary data; give --output FILE or redirect standard output".into(),
        ));
    }
    Ok(())
}

/// Writes a picture as SVG or PNG to `output` or standard output.
fn write_picture(
    picture: &polytile::picture::Picture,
    format: Format,
    output: Option<&std::path::Path>,
) -> Result<(), CliError> {
    let bytes = if format == Format::Png {
        polytile::picture::png(&picture.svg).map_err(|e| CliError::Render(e.to_string()))?
    } else {
        picture.svg.clone().into_bytes()
    };
    match output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| CliError::Input(format!("{}: cannot write: {e}", path.display()))),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&bytes)?;
            stdout.flush()?;
            Ok(())
        }
    }
}

/// Why a subcommand failed.
#[derive(Debug, thiserror::Error)]
enum CliError {
    /// Bad input from the user: a file, or what it says; exit code 2, printed as is
    /// (it names the file first).
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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    let input = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    let result = match cli.command {
        Command::Tables(args) => run_tables(&args),
        Command::Solve(args) => Puzzle::load(&args.file.file)
            .map_err(|e| input(&e))
            .and_then(|puzzle| run_solve(&puzzle, &args)),
        Command::Sums(args) => sums::load(&args.file)
            .map_err(|e| input(&e))
            .and_then(|model| run_sums(&model, &args.flags, &args.file.display().to_string())),
        Command::MagicHexagon(flags) => {
            run_sums(&sums::builtin::magic_hexagon(), &flags, "magic-hexagon")
        }
        Command::MagicSquare(args) => sums::builtin::magic_square(args.order.into())
            .map_err(|e| input(&e))
            .and_then(|model| run_sums(&model, &args.flags, "magic-square")),
        Command::Animate(args) => run_animate(&args),
        Command::Merge(args) => run_merge(&args),
        Command::Estimate(args) => run_estimate(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Input(msg)) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("polytile: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reports a clap error: `--help` and `--version` to standard output with status 0,
/// full help (no subcommand) to standard error with status 2, anything else as one
/// line naming what was expected, status 2.
fn clap_exit(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            eprintln!("polytile: {}", one_line(&e));
            ExitCode::from(2)
        }
    }
}

/// A clap error message folded onto one line, without the usage and "--help" footer,
/// with the accepted values when clap knows them.
fn one_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("Usage:") || line.starts_with("For more information")
        {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if !out.is_empty() {
            out.push_str(if line.starts_with("tip:") { "; " } else { " " });
        }
        out.push_str(line);
    }
    if let Some(ContextValue::Strings(valid)) = e.get(ContextKind::ValidValue) {
        if !out.contains("possible values") {
            let _ = write!(out, " (expected one of: {})", valid.join(", "));
        }
    }
    out.push_str("; try 'polytile --help'");
    out
}

fn run_tables(args: &TablesArgs) -> Result<(), CliError> {
    check_output(args.format, args.output.as_deref())?;
    let report = if args.puzzle == "meteor" {
        TablesReport::meteor()
    } else {
        let path = PathBuf::from(&args.puzzle);
        let puzzle = Puzzle::load(&path).map_err(|e| CliError::Input(e.to_string()))?;
        let mode = if args.distinct {
            Mode::Distinct
        } else {
            Mode::All
        };
        TablesReport::for_puzzle(&puzzle, mode)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?
    };
    let out = match args.format {
        Format::Text => report.text(),
        Format::Json => report.json(),
        Format::Svg | Format::Png => {
            return write_picture(&report.picture(), args.format, args.output.as_deref())
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

fn run_solve(puzzle: &Puzzle, solve: &SolveArgs) -> Result<(), CliError> {
    let args = &solve.file;
    let flags = &args.flags;
    let file = args.file.display();
    let mut solver = TilingSolver::new(puzzle, flags.mode())
        .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
    solver
        .set_splitting(solve.split.clone())
        .map_err(|e| CliError::Input(format!("{file}: --split: {e}")))?;
    let on = match solve.memo {
        MemoChoice::On => Some(true),
        MemoChoice::Off => Some(false),
        MemoChoice::Auto => None,
    };
    let memoised = solver
        .memo_wanted(on, &flags.options())
        .map_err(|e| CliError::Input(format!("{file}: --memo on: {e}")))?;
    let memo_options = polytile::count::MemoOptions {
        max_bytes: usize::try_from(solve.memo_mib << 20).unwrap_or(usize::MAX),
    };
    let mut memo_report = None;
    // One distinct character per piece, even when names share a first letter.
    let names: Vec<String> = puzzle.labels().iter().map(char::to_string).collect();
    let mut printer = Printer::new(flags)?;
    let fingerprint = Fingerprint::of(puzzle, flags.mode());
    let mut drawn = Vec::new();
    let summary = search(
        flags,
        fingerprint,
        |options, observe| {
            if !memoised {
                return solver.count_observed(options, observe);
            }
            let (summary, report) = solver
                .count_memoised(options, &memo_options, observe)
                .expect("memo_refusal said yes");
            memo_report = Some(report);
            summary
        },
        |options, observe| {
            solver.for_each_observed(
                options,
                |t| {
                    if flags.format.picture() {
                        drawn.push(t);
                        printer.drawn()
                    } else {
                        printer.solution(polytile::render::rows(&puzzle.board, &t, &names), None)
                    }
                },
                observe,
            )
        },
    )?;
    let style = polytile::picture::tiling::Style {
        labels: !flags.no_labels,
    };
    printer.picture = Some(Box::new(move || {
        polytile::picture::tiling::tilings(puzzle, &drawn, style)
    }));
    let mut extra = Map::new();
    extra.insert("placements".into(), solver.placements().into());
    if let Some(m) = memo_report {
        extra.insert("memo".into(), json!(m));
    }
    let options = flags.options();
    // The memo's count does not split.
    let rows = if memoised {
        &[][..]
    } else {
        solver.split_rows_for(&options)
    };
    if !rows.is_empty() {
        extra.insert("split".into(), json!(rows));
    }
    // Measured only where the run splits: not under a limit, nor when the memo counts.
    let measured = (options.limit.is_none() && !memoised)
        .then(|| solver.split_plan())
        .flatten();
    if let Some(plan) = measured {
        if flags.format == Format::Json {
            extra.insert("split_plan".into(), plan.json());
        } else if flags.stats && plan.skipped.is_none() {
            eprint!("{}", plan.text());
        }
    }
    printer.finish(
        &summary,
        json!(puzzle.name),
        extra,
        solver.symmetries() as u64,
        fingerprint,
    )
}

fn run_sums(model: &sums::Model, flags: &SearchFlags, source: &str) -> Result<(), CliError> {
    let solver = SumsSolver::new(model, flags.mode())
        .map_err(|e| CliError::Input(format!("{source}: {e}")))?;
    let mut printer = Printer::new(flags)?;
    let fingerprint = Fingerprint::of(model, flags.mode());
    let mut drawn = Vec::new();
    let summary = search(
        flags,
        fingerprint,
        |options, observe| solver.count_observed(options, observe),
        |options, observe| {
            solver.for_each_observed(
                options,
                |values| {
                    if flags.format.picture() {
                        drawn.push(values);
                        return printer.drawn();
                    }
                    let named = (flags.format == Format::Json).then(|| {
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
        polytile::picture::numbers::solutions(model, &drawn, true)
    }));
    let mut extra = Map::new();
    extra.insert("automorphisms".into(), solver.automorphisms().into());
    printer.finish(
        &summary,
        json!(model.name),
        extra,
        solver.symmetries(),
        fingerprint,
    )
}

/// Runs a search as the flags ask: `count` (told where the run stands after each
/// task) with `--count`, `list` otherwise; with `--checkpoint`, from where the file
/// says and recording as it goes.
fn search(
    flags: &SearchFlags,
    fingerprint: Fingerprint,
    count: impl FnOnce(&Options, &mut dyn FnMut(&Progress)) -> Summary,
    list: impl FnOnce(&Options, &mut dyn FnMut(&Progress)) -> Summary,
) -> Result<Resumed, CliError> {
    let options = flags.options();
    let mut meter = Meter::new(flags);
    let searched = match &flags.checkpoint {
        Some(path) => runs::count_from_checkpoint(
            path,
            fingerprint,
            &options,
            std::time::Duration::from_secs_f64(flags.checkpoint_every),
            count,
            &mut |p, before| meter.show(p, before),
        )
        .map_err(|e| CliError::Input(e.to_string()))?,
        None => Resumed {
            summary: if flags.count {
                count(&options, &mut |p| meter.show(p, 0))
            } else {
                list(&options, &mut |p| meter.show(p, 0))
            },
            seconds_before: 0.0,
        },
    };
    meter.finish();
    Ok(searched)
}

fn run_animate(args: &AnimateArgs) -> Result<(), CliError> {
    check_output(Format::Svg, args.output.as_deref())?;
    let puzzle = Puzzle::load(&args.file).map_err(|e| CliError::Input(e.to_string()))?;
    let solver = TilingSolver::new(&puzzle, Mode::All)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.file.display())))?;
    let trace = solver.trace(args.steps as usize);
    let movie = polytile::picture::movie::movie(&puzzle, &trace, args.seconds);
    write_picture(&movie, Format::Svg, args.output.as_deref())
}

fn run_merge(args: &MergeArgs) -> Result<(), CliError> {
    if args.format.picture() {
        return Err(CliError::Input(
            "polytile: merge prints text or json, not pictures".into(),
        ));
    }
    let mut reports = Vec::new();
    for path in &args.files {
        let file = path.display().to_string();
        let bytes =
            polytile::runs::read_report(path).map_err(|e| CliError::Input(e.to_string()))?;
        reports.push((file, bytes));
    }
    let merged = polytile::runs::merge(&reports).map_err(|e| CliError::Input(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    if args.format == Format::Json {
        writeln!(out, "{}", Value::Object(merged))?;
    } else {
        let n = |key: &str| merged.get(key).and_then(Value::as_u64).unwrap_or(0);
        let distinct = (merged.get("mode") == Some(&json!("distinct"))).then(|| n("symmetries"));
        writeln!(out, "{}", count_line(n("solutions"), n("total"), distinct))?;
    }
    out.flush()?;
    Ok(())
}

fn run_estimate(args: &EstimateArgs) -> Result<(), CliError> {
    let file = args.file.display().to_string();
    let input = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    let mode = if args.distinct {
        Mode::Distinct
    } else {
        Mode::All
    };
    let options = polytile::EstimateOptions {
        paths: args.paths,
        seed: args.seed,
        probe_seconds: args.probe,
        tail_nodes: args.tail,
    };
    let numbers = args.sums || args.file.extension().is_some_and(|e| e == "sum");
    let (name, estimate) = if numbers {
        let model = sums::load(&args.file).map_err(|e| input(&e))?;
        let solver =
            SumsSolver::new(&model, mode).map_err(|e| CliError::Input(format!("{file}: {e}")))?;
        (json!(model.name), solver.estimate(&options))
    } else {
        let puzzle = Puzzle::load(&args.file).map_err(|e| input(&e))?;
        let solver = TilingSolver::new(&puzzle, mode)
            .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
        (json!(puzzle.name), solver.estimate(&options))
    };
    let threads = args
        .threads
        .map_or_else(polytile::default_threads, usize::from);
    let distinct = mode == Mode::Distinct;
    let mut out = std::io::stdout().lock();
    if args.format == Format::Json {
        writeln!(out, "{}", estimate.json(name, distinct, threads))?;
    } else {
        write!(out, "{}", estimate.text(&file, distinct, threads))?;
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
/// the flags ask for.
struct Printer<'f> {
    flags: &'f SearchFlags,
    /// With a picture format: draws the solutions kept, at the end.
    picture: Option<Box<dyn FnOnce() -> polytile::picture::Picture + 'f>>,
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    printed: usize,
    /// The first write that failed; the search is stopped then.
    failed: Option<std::io::Error>,
    start: std::time::Instant,
}

impl<'f> Printer<'f> {
    /// A printer for `flags`, if they ask for output it can write.
    fn new(flags: &'f SearchFlags) -> Result<Printer<'f>, CliError> {
        check_output(flags.format, flags.output.as_deref())?;
        if flags.format.picture() {
            let conflict = if flags.count {
                Some("--count prints a number, not a picture")
            } else if flags.limit.is_some_and(|n| n > MAX_PANELS as u64) {
                Some("a sheet draws at most 1000 solutions; give --limit 1000 or less")
            } else {
                None
            };
            if let Some(why) = conflict {
                return Err(CliError::Input(format!("polytile: {why}")));
            }
        }
        Ok(Printer {
            flags,
            picture: None,
            out: std::io::BufWriter::new(std::io::stdout().lock()),
            printed: 0,
            failed: None,
            start: std::time::Instant::now(),
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
        let written = if self.flags.format == Format::Json {
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
        fingerprint: Fingerprint,
    ) -> Result<(), CliError> {
        if let Some(e) = self.failed {
            return Err(e.into());
        }
        if searched.summary.overflowed() {
            return Err(CliError::Overflow);
        }
        let flags = self.flags;
        if flags.format.picture() && !flags.count {
            if self.printed > MAX_PANELS {
                return Err(CliError::Input(format!(
                    "polytile: more than {MAX_PANELS} solutions to draw; a sheet draws at most {MAX_PANELS}: give --limit N"
                )));
            }
            let draw = self.picture.take().expect("the caller gives the picture");
            write_picture(&draw(), flags.format, flags.output.as_deref())?;
        }
        let summary = &searched.summary;
        let seconds = searched.seconds_before + self.start.elapsed().as_secs_f64();
        let options = flags.options();
        let (count, total, nodes) = (summary.solutions, summary.total, summary.nodes);
        let distinct = flags.mode() == Mode::Distinct;
        if flags.format == Format::Json {
            let mut line = json!({
                "puzzle": puzzle,
                "mode": if distinct { "distinct" } else { "all" },
                "solutions": count,
                "nodes": nodes.unwrap_or(0),
                "seconds": seconds,
                "threads": options.threads,
                "complete": summary.complete,
            });
            for (key, value) in extra {
                line[key] = value;
            }
            if distinct {
                line["total"] = total.into();
                line["symmetries"] = symmetries.into();
            }
            if let Some(shard) = flags.shard {
                // What `polytile merge` checks and adds up.
                line["shard"] = shard.to_string().into();
                line["tasks"] = summary.tasks.into();
                line["searched"] = summary.searched.into();
                line["fingerprint"] = fingerprint.to_string().into();
                line["version"] = polytile::runs::VERSION.into();
            }
            writeln!(self.out, "{line}")?;
        } else {
            let line = count_line(count, total, distinct.then_some(symmetries));
            if flags.format.picture() {
                // Standard output holds the picture alone.
                if flags.stats {
                    eprintln!("{line}");
                }
            } else {
                writeln!(self.out, "{line}")?;
            }
            if flags.stats {
                let extra: Vec<String> = extra.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                eprintln!(
                    "nodes: {}  {}  threads: {}  time: {seconds:.6} s",
                    nodes.unwrap_or(0),
                    extra.join("  "),
                    options.threads
                );
            }
        }
        self.out.flush()?;
        Ok(())
    }
}

/// Progress on standard error: a bar on a terminal, a line every few seconds with
/// `--progress` elsewhere, nothing with `--quiet` (see [`SearchFlags::progress`]).
struct Meter {
    bar: Option<indicatif::ProgressBar>,
    /// With `--progress` off a terminal: when the last line was written.
    lines: Option<std::time::Instant>,
    start: std::time::Instant,
}

/// Seconds between progress lines off a terminal.
const PROGRESS_LINE_SECONDS: u64 = 5;

impl Meter {
    fn new(flags: &SearchFlags) -> Meter {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        let solutions_elsewhere = flags.count || !std::io::stdout().is_terminal();
        let bar =
            (terminal && !flags.quiet && (flags.progress || solutions_elsewhere)).then(|| {
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
        let lines = (!terminal && flags.progress).then(std::time::Instant::now);
        Meter {
            bar,
            lines,
            start: std::time::Instant::now(),
        }
    }

    /// Shows `p`, with `before` solutions found by earlier runs of a checkpoint.
    fn show(&mut self, p: &Progress, before: u64) {
        let solutions = before + p.solutions;
        let seconds = self.start.elapsed().as_secs_f64();
        let rate = solutions as f64 / seconds.max(1e-9);
        if let Some(bar) = &self.bar {
            bar.set_length(p.tasks as u64);
            bar.set_position(p.done as u64);
            bar.set_message(format!("{solutions} solutions  {rate:.0}/s"));
        } else if let Some(last) = &mut self.lines {
            if last.elapsed().as_secs() >= PROGRESS_LINE_SECONDS || p.done == p.tasks {
                *last = std::time::Instant::now();
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

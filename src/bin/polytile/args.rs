//! The arguments of `polytile`, as clap parses them, and their conversion into the
//! plain values the library takes ([`Request`], [`TilingRequest`], [`Mode`]).

use std::path::PathBuf;

use clap::builder::{Resettable, StyledStr};
use clap::{Args, Parser, Subcommand, ValueEnum};

use polytile::output::{self, Request, ShowProgress, TilingRequest};
use polytile::{Mode, Options, Splitting};

/// Tiling and number-placement puzzles solved with 64-bit masks.
#[derive(Parser)]
#[command(name = "polytile", version, arg_required_else_help = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Print the placement tables of the meteor or of a tiling puzzle file.
    Tables(Deferred<TablesArgs>),
    /// Solve a tiling puzzle file (format: docs/puzzle-format.md).
    Solve(Deferred<SolveArgs>),
    /// Solve a number puzzle with sums (format: docs/sums-format.md).
    Sums(Deferred<FileArgs>),
    /// Solve the order-3 magic hexagon (built in).
    MagicHexagon(Deferred<SearchFlags>),
    /// Solve the magic square of order N (built in).
    MagicSquare(Deferred<MagicSquareArgs>),
    /// Write the start of a tiling search as an animated SVG: pieces placed and taken
    /// back, ending on the first solution found.
    Animate(Deferred<AnimateArgs>),
    /// Add up the JSON summaries of the shards of one run (`--shard K/N --format
    /// json`) into the summary one run gives.
    Merge(Deferred<MergeArgs>),
    /// Estimate how long a search takes before running it: its nodes and solutions
    /// from random paths (Knuth's estimate), its speed from a short real search.
    Estimate(Deferred<EstimateArgs>),
}

/// A subcommand's arguments, added to its [`clap::Command`] only when the parser enters
/// that subcommand ([`clap::Command::defer`]): clap builds every argument of every
/// subcommand before it parses, each help text copied, and a run uses one subcommand.
/// The subcommand's own description (its variant's doc comment, which clap sets before
/// the deferred arguments are added) is kept over the one the arguments' struct gives.
pub(crate) struct Deferred<A>(pub(crate) A);

impl<A> std::ops::Deref for Deferred<A> {
    type Target = A;
    fn deref(&self) -> &A {
        &self.0
    }
}

impl<A: clap::FromArgMatches> clap::FromArgMatches for Deferred<A> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        A::from_arg_matches(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

impl<A: Args> Args for Deferred<A> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, A::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, A::augment_args_for_update))
    }
    fn group_id() -> Option<clap::Id> {
        A::group_id()
    }
}

/// `cmd` with `augment`'s arguments and its own description.
fn keeping_about(cmd: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about: Resettable<StyledStr> = cmd.get_about().cloned().into();
    let long_about: Resettable<StyledStr> = cmd.get_long_about().cloned().into();
    augment(cmd).about(about).long_about(long_about)
}

#[derive(Args)]
pub(crate) struct EstimateArgs {
    /// A tiling puzzle, or a number puzzle when the name ends in `.sum` (or with
    /// --sums).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Read FILE as a number puzzle whatever its name.
    #[arg(long)]
    pub(crate) sums: bool,
    /// Estimate the search of `--distinct` (solutions up to symmetry).
    #[arg(long)]
    pub(crate) distinct: bool,
    /// Random paths from the root: more narrow the spread (as one over the square root).
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) paths: u64,
    /// Seed of the random paths: the same seed gives the same estimate.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Seconds of real search that measure the node rate (0: no time estimate).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.5, value_parser = seconds,
          allow_negative_numbers = true)]
    pub(crate) probe: f64,
    /// Paths search the rest of their subtree exactly once its subtrees hold at most N
    /// nodes on average (0: never): larger narrows the spread of the solutions, at
    /// about N nodes of search a path.
    #[arg(long, value_name = "N", default_value_t = polytile::estimate::TAIL_SUBTREE,
          value_parser = seconds)]
    pub(crate) tail: f64,
    /// Threads to give the expected time for [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) threads: Option<u16>,
    /// The split search's memory bound the run will have (`solve --memo-mib`): the
    /// split plan reported measures within it, as the run's does (tiling puzzles)
    /// [default: a quarter of this machine's memory, at least 1024].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub(crate) memo_mib: Option<u64>,
    /// Output format: text, or one json object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The shards' outputs: each file's last line is its summary.
    #[arg(value_name = "FILE", required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Output format: text prints the count line, json the merged summary object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

#[derive(Args)]
pub(crate) struct AnimateArgs {
    /// The puzzle file (format: docs/puzzle-format.md).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Moves to show (a piece placed or taken back counts one); the movie ends sooner
    /// on the first solution.
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(crate) steps: u32,
    /// Seconds each move is shown.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.1, value_parser = seconds)]
    pub(crate) seconds: f64,
    /// Write the SVG to FILE rather than standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct FileArgs {
    /// The puzzle file.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) flags: SearchFlags,
}

#[derive(Args)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) file: FileArgs,
    /// How --count counts: with a memo of completions per search state (on), by
    /// visiting every solution (off), or with the memo when pieces have copies (auto).
    /// The memo counts all solutions: not with --distinct or --limit.
    #[arg(long, value_enum, default_value_t = MemoChoice::Auto, requires = "count")]
    pub(crate) memo: MemoChoice,
    /// The most memory a memo may take, in MiB: the --count memo's, or the split
    /// search's (--split; --stats and JSON report what it took, and `--split auto`
    /// chooses rows whose memo it expects to fit). Past it the search goes on, exact
    /// but slower. Only the memory a memo uses is taken [default: a quarter of this
    /// machine's memory, at least 1024].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub(crate) memo_mib: Option<u64>,
    /// Split the search before these rows of the board as searched (counted from 0,
    /// after any transposition; e.g. 3,4,5,6 for the meteor board): the rows north of
    /// the first split are searched once per overhang and shared, as the meteor binary
    /// does. auto: rows chosen by measuring a sample of the tree first, or none where
    /// no split pays (not with --limit); --stats shows what was measured. off: the
    /// plain search. The solutions and their order are the same; the speed depends on
    /// the rows (README.md, "Splitting the search") [default: the puzzle file's
    /// split: statement, else auto].
    #[arg(long, value_name = "auto|off|ROWS")]
    pub(crate) split: Option<Splitting>,
    /// auto: where the search does not split, test the placements eight at a time
    /// (AVX-512) on boards with the pocket check (the cubic grid) whose pieces have one
    /// copy each and fill the board, when this CPU has AVX-512; --stats says when. off:
    /// the plain search. The nodes, solutions and their order are the same.
    #[arg(long, value_enum, default_value_t = WideChoice::Auto)]
    pub(crate) wide: WideChoice,
}

/// Whether the search may test placements eight at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WideChoice {
    Auto,
    Off,
}

/// Whether `--count` uses the memo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum MemoChoice {
    Auto,
    On,
    Off,
}

#[derive(Args)]
pub(crate) struct MagicSquareArgs {
    /// The order of the square: 1 to 8 (its n² values fit one 64-bit domain).
    #[arg(value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub(crate) order: u8,
    #[command(flatten)]
    pub(crate) flags: SearchFlags,
}

/// The flags of every solving subcommand (`solve`, `sums`, `magic-hexagon`,
/// `magic-square`).
#[derive(Args)]
pub(crate) struct SearchFlags {
    /// Print only the number of solutions (and, with --format json, the summary).
    #[arg(long)]
    pub(crate) count: bool,
    /// Every solution: rotations and reflections of the whole figure count as different
    /// (the default).
    #[arg(long, conflicts_with = "distinct")]
    pub(crate) all: bool,
    /// Solutions up to symmetry (tilings: the board's rotations, and reflections when
    /// the pieces allow them; number puzzles: the file's `symmetry` constraints); the
    /// summary also gives the total they stand for.
    #[arg(long)]
    pub(crate) distinct: bool,
    /// Stop after N solutions, in search order.
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Worker threads [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) threads: Option<u16>,
    /// Output format: text draws each solution; json prints one object per solution
    /// and a summary object as the last line; svg and png draw the solutions on one
    /// sheet (at most 1,000; png needs --output on a terminal).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Write the picture (--format svg or png) to FILE rather than standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Pictures of tilings without the pieces' labels.
    #[arg(long)]
    pub(crate) no_labels: bool,
    /// Print nodes visited and time, and placements for tilings (standard error in
    /// text format).
    #[arg(long)]
    pub(crate) stats: bool,
    /// Search only shard K of N (1 <= K <= N): the tree is cut the same way on every
    /// machine and the tasks are dealt in turn; `polytile merge` adds the shards'
    /// `--format json` summaries up.
    #[arg(long, value_name = "K/N", conflicts_with = "limit")]
    pub(crate) shard: Option<polytile::Shard>,
    /// Record finished tasks in FILE (atomically, every --checkpoint-every seconds and
    /// at the end); the same command with the same FILE goes on from there. Needs
    /// --count.
    #[arg(
        long,
        value_name = "FILE",
        requires = "count",
        conflicts_with = "limit"
    )]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Show progress on standard error (tasks done, solutions, rate, elapsed time,
    /// estimated time left) even when it is not a terminal: a line every few seconds.
    /// By default a bar is shown when standard error is a terminal and the solutions
    /// are only counted (--count) or written elsewhere than the terminal.
    #[arg(long, conflicts_with = "quiet")]
    pub(crate) progress: bool,
    /// Never show progress.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Seconds between checkpoint writes (0: after every task).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 5.0,
        requires = "checkpoint",
        value_parser = seconds,
        allow_negative_numbers = true
    )]
    pub(crate) checkpoint_every: f64,
}

impl SearchFlags {
    pub(crate) fn request(&self) -> Request {
        Request {
            // --all is the default; the flag exists to be explicit and to conflict with
            // --distinct.
            mode: mode(self.distinct),
            options: Options {
                limit: self.limit,
                threads: self
                    .threads
                    .map_or_else(polytile::default_threads, usize::from),
                stats: self.stats || self.format == Format::Json,
                // One search per process: pinning its threads crowds nothing.
                pin_threads: true,
                shard: self.shard,
                skip: 0,
            },
            count: self.count,
            format: self.format.into(),
            output: self.output.clone(),
            labels: !self.no_labels,
            stats: self.stats,
            progress: match (self.progress, self.quiet) {
                (true, _) => ShowProgress::Always,
                (_, true) => ShowProgress::Never,
                _ => ShowProgress::Auto,
            },
            checkpoint: self.checkpoint.clone(),
            checkpoint_every: std::time::Duration::from_secs_f64(self.checkpoint_every),
        }
    }
}

pub(crate) fn mode(distinct: bool) -> Mode {
    if distinct {
        Mode::Distinct
    } else {
        Mode::All
    }
}

/// A number of seconds, at least 0.
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err("expected a number of seconds, at least 0".into()),
    }
}

#[derive(Args)]
pub(crate) struct TablesArgs {
    /// `meteor` (the built-in puzzle, as the build script baked it) or a puzzle file.
    #[arg(value_name = "PUZZLE")]
    pub(crate) puzzle: String,
    /// The tables a `--distinct` run builds (for a puzzle file).
    #[arg(long)]
    pub(crate) distinct: bool,
    /// Output format; json masks are "0x"-prefixed 16-digit hex strings; svg and png
    /// draw the placements anchored on each cell before and after pruning.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Write the picture (--format svg or png) to FILE rather than standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
    Svg,
    Png,
}

impl From<Format> for output::Format {
    fn from(format: Format) -> output::Format {
        match format {
            Format::Text => output::Format::Text,
            Format::Json => output::Format::Json,
            Format::Svg => output::Format::Svg,
            Format::Png => output::Format::Png,
        }
    }
}

impl SolveArgs {
    /// What the tiling flags ask of the run.
    pub(crate) fn tiling(&self) -> TilingRequest {
        TilingRequest {
            split: self.split.clone(),
            memo: match self.memo {
                MemoChoice::On => Some(true),
                MemoChoice::Off => Some(false),
                MemoChoice::Auto => None,
            },
            memo_options: memo_options(self.memo_mib),
            wide: self.wide == WideChoice::Auto,
        }
    }
}

impl EstimateArgs {
    /// The estimate's options.
    pub(crate) fn options(&self) -> polytile::EstimateOptions {
        polytile::EstimateOptions {
            paths: self.paths,
            seed: self.seed,
            probe_seconds: self.probe,
            tail_nodes: self.tail,
        }
    }

    /// Whether the file is a number puzzle: `--sums`, or a name ending in `.sum`.
    pub(crate) fn numbers(&self) -> bool {
        self.sums || self.file.extension().is_some_and(|e| e == "sum")
    }

    /// The threads the estimate's times are for.
    pub(crate) fn threads(&self) -> usize {
        self.threads
            .map_or_else(polytile::default_threads, usize::from)
    }

    /// The memo bound the run would have.
    pub(crate) fn memo(&self) -> polytile::count::MemoOptions {
        memo_options(self.memo_mib)
    }
}

/// A memo bound in MiB, or the default.
fn memo_options(mib: Option<u64>) -> polytile::count::MemoOptions {
    mib.map_or_else(Default::default, polytile::count::MemoOptions::from_mib)
}

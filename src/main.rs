//! `polytile`: the command-line front end.
//!
//! Each subcommand is a variant of [`Command`] with its own argument struct and a `run_*`
//! function returning `Result<(), CliError>`; `main` only parses, dispatches and maps
//! errors to exit codes (2 for usage errors, 1 for failures).
//!
//! Everything here is presentation: the search path never calls into this file.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

use polytile::tables::generate::{self, Census, Grid, Piece, Point, Tables};

/// Tiling and number-placement puzzles solved with 64-bit masks.
#[derive(Parser)]
#[command(name = "polytile", version, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the precomputed placement tables of a built-in puzzle.
    Tables(TablesArgs),
    /// Solve a tiling puzzle file (format: docs/puzzle-format.md).
    Solve(SolveArgs),
    /// Solve a number puzzle with sums (format: docs/sums-format.md).
    Sums(SumsArgs),
    /// Solve the order-3 magic hexagon (built in).
    MagicHexagon(SearchFlags),
    /// Solve the magic square of order N (built in).
    MagicSquare(MagicSquareArgs),
}

#[derive(Args)]
struct SumsArgs {
    /// The puzzle file.
    #[arg(value_name = "FILE")]
    file: std::path::PathBuf,
    #[command(flatten)]
    flags: SearchFlags,
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
    limit: Option<usize>,
    /// Worker threads [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Output format: text draws each solution; json prints one object per solution
    /// and a summary object as the last line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print nodes visited and time, and placements for tilings (standard error in
    /// text format).
    #[arg(long)]
    stats: bool,
}

#[derive(Args)]
struct SolveArgs {
    /// The puzzle file.
    #[arg(value_name = "FILE")]
    file: std::path::PathBuf,
    #[command(flatten)]
    flags: SearchFlags,
}

#[derive(Args)]
struct TablesArgs {
    /// Built-in puzzle: meteor.
    #[arg(value_name = "PUZZLE")]
    puzzle: String,
    /// Output format; json masks are "0x"-prefixed 16-digit hex strings.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// Why a subcommand failed.
#[derive(Debug, thiserror::Error)]
enum CliError {
    /// Bad input from the user: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// A bad puzzle file: exit code 2, printed as is (it starts `FILE:LINE:COLUMN:`).
    #[error("{0}")]
    Input(String),
    /// Writing the output failed: exit code 1.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

/// Built-in puzzles that `tables` knows, in the order the error message lists them.
const BUILTIN_PUZZLES: &[&str] = &["meteor"];

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    let result = match cli.command {
        Command::Tables(args) => run_tables(&args),
        Command::Solve(args) => run_solve(&args),
        Command::Sums(args) => polytile::sums::load(&args.file)
            .map_err(|e| CliError::Input(e.to_string()))
            .and_then(|model| run_sums(&model, &args.flags)),
        Command::MagicHexagon(flags) => run_sums(&polytile::sums::builtin::magic_hexagon(), &flags),
        Command::MagicSquare(args) => polytile::sums::builtin::magic_square(args.order.into())
            .map_err(CliError::Usage)
            .and_then(|model| run_sums(&model, &args.flags)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            eprintln!("polytile: {msg}");
            ExitCode::from(2)
        }
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

// ---------------------------------------------------------------------------------------
// `polytile tables PUZZLE`

/// Everything `tables` prints about one puzzle.
struct TableReport {
    name: &'static str,
    grid: Grid,
    pieces: Vec<Piece>,
    /// The tables as baked (pruned, half-turn restricted), with their census.
    tables: Tables,
    census: Census,
    /// The placement lists of `tables`, in table order.
    groups: Vec<Group>,
    /// The placement lists of the same tables without island pruning.
    unpruned: Vec<Group>,
    /// Total placements without the half-turn restriction, unpruned and pruned.
    unrestricted: (usize, usize),
}

/// The placements of one piece anchored on one window cell at one window offset.
struct Group {
    offset: usize,
    anchor: usize,
    piece: usize,
    entries: Vec<Entry>,
}

/// One placement and where the tables keep it.
struct Entry {
    /// Index into the tables' mask arrays.
    index: usize,
    mask: u64,
    islands: u64,
    orientation: u8,
}

/// How the tables lay placements out, in words (for the text and JSON output).
const LAYOUT: &str = "group g = (offset * anchors + anchor) * pieces + piece; its placements are \
                      masks[g * slots + i], islands[g * slots + i], orientation_of[g * slots + i] \
                      for i < counts[g]; 'index' is g * slots + i";

/// The placement lists of `t` in table order. The only code here that knows the table
/// layout (see `Tables` in `src/tables/generate.rs`).
fn groups_of(t: &Tables) -> Vec<Group> {
    (0..t.offsets * t.anchors * t.pieces)
        .map(|g| Group {
            offset: g / t.pieces / t.anchors,
            anchor: g / t.pieces % t.anchors,
            piece: g % t.pieces,
            entries: (g * t.slots..g * t.slots + t.counts[g] as usize)
                .map(|index| Entry {
                    index,
                    mask: t.masks[index],
                    islands: t.islands[index],
                    orientation: t.orientation_of[index],
                })
                .collect(),
        })
        .collect()
}

fn placement_count(groups: &[Group]) -> usize {
    groups.iter().map(|g| g.entries.len()).sum()
}

fn run_solve(args: &SolveArgs) -> Result<(), CliError> {
    // --all is the default; the flag exists to be explicit and to conflict with --distinct.
    let _ = args.flags.all;
    let puzzle = polytile::puzzle::load(&args.file).map_err(|e| CliError::Input(e.to_string()))?;
    let threads = args
        .flags
        .threads
        .map_or_else(polytile::parallel::default_threads, usize::from);
    let json = args.flags.format == Format::Json;
    let limits = polytile::solve::Limits {
        limit: args.flags.limit.unwrap_or(usize::MAX),
        keep: !args.flags.count,
        threads,
        stats: args.flags.stats || json,
    };
    let start = std::time::Instant::now();
    let failed =
        |e: polytile::solve::SolveError| CliError::Input(format!("{}: {e}", args.file.display()));
    let (board, pieces, leftover) = (&puzzle.board, &puzzle.pieces, puzzle.allow_leftover);
    let (count, total, group_order, solutions, nodes, placements) = if args.flags.distinct {
        let d = polytile::solve::solve_distinct(board, pieces, leftover, limits).map_err(failed)?;
        let (total, order) = (Some(d.total), Some(d.group_order));
        (d.classes, total, order, d.solutions, d.nodes, d.placements)
    } else {
        let o = polytile::solve::solve(board, pieces, leftover, limits).map_err(failed)?;
        (o.count, None, None, o.solutions, o.nodes, o.placements)
    };
    let seconds = start.elapsed().as_secs_f64();
    // One distinct character per piece, even when names share a first letter.
    let names: Vec<String> = puzzle.labels().iter().map(|c| c.to_string()).collect();
    let draw = |t: &[Option<u16>]| {
        polytile::render::rows(puzzle.board.grid, puzzle.board.width, t, &names)
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if json {
        for (i, t) in solutions.iter().enumerate() {
            let line = serde_json::json!({ "solution": i + 1, "rows": draw(t) });
            writeln!(out, "{line}")?;
        }
        let mut summary = serde_json::json!({
            "puzzle": puzzle.name,
            "mode": if args.flags.distinct { "distinct" } else { "all" },
            "solutions": count,
            "nodes": nodes,
            "placements": placements,
            "seconds": seconds,
            "threads": threads,
            "complete": count < limits.limit,
        });
        if let (Some(total), Some(order)) = (total, group_order) {
            summary["total"] = total.into();
            summary["symmetries"] = order.into();
        }
        writeln!(out, "{summary}")?;
    } else {
        for (i, t) in solutions.iter().enumerate() {
            writeln!(out, "solution {}", i + 1)?;
            for row in draw(t) {
                writeln!(out, "{row}")?;
            }
            writeln!(out)?;
        }
        let s = if count == 1 { "" } else { "s" };
        match (total, group_order) {
            (Some(total), Some(order)) => writeln!(
                out,
                "{count} distinct solution{s} ({total} in all, {order} symmetries)"
            )?,
            _ => writeln!(out, "{count} solution{s}")?,
        }
        if args.flags.stats {
            eprintln!("nodes: {nodes}  placements: {placements}  threads: {threads}  time: {seconds:.3} s");
        }
    }
    out.flush()?;
    Ok(())
}

fn run_sums(model: &polytile::sums::Model, flags: &SearchFlags) -> Result<(), CliError> {
    // --all is the default; the flag exists to be explicit and to conflict with --distinct.
    let _ = flags.all;
    let threads = flags
        .threads
        .map_or_else(polytile::parallel::default_threads, usize::from);
    let json = flags.format == Format::Json;
    let limits = polytile::sums::solve::Limits {
        limit: flags.limit.unwrap_or(usize::MAX),
        keep: !flags.count,
        threads,
        stats: flags.stats || json,
    };
    let start = std::time::Instant::now();
    let outcome = polytile::sums::solve::solve(model, flags.distinct, limits);
    let seconds = start.elapsed().as_secs_f64();
    let count = outcome.count;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if json {
        for (i, values) in outcome.solutions.iter().enumerate() {
            let named: serde_json::Map<String, serde_json::Value> = model
                .cells
                .iter()
                .zip(values)
                .map(|(name, &v)| (name.clone(), v.into()))
                .collect();
            let rows = polytile::sums::render::rows(model, values);
            let line = serde_json::json!({ "solution": i + 1, "rows": rows, "values": named });
            writeln!(out, "{line}")?;
        }
        let mut summary = serde_json::json!({
            "puzzle": model.name,
            "mode": if flags.distinct { "distinct" } else { "all" },
            "solutions": count,
            "nodes": outcome.nodes,
            "seconds": seconds,
            "threads": threads,
            "complete": count < limits.limit,
            "automorphisms": outcome.automorphisms,
        });
        if flags.distinct {
            summary["total"] = outcome.total().into();
            summary["symmetries"] = outcome.group_order.into();
        }
        writeln!(out, "{summary}")?;
    } else {
        for (i, values) in outcome.solutions.iter().enumerate() {
            writeln!(out, "solution {}", i + 1)?;
            for row in polytile::sums::render::rows(model, values) {
                writeln!(out, "{row}")?;
            }
            writeln!(out)?;
        }
        let s = if count == 1 { "" } else { "s" };
        if flags.distinct {
            let (total, order) = (outcome.total(), outcome.group_order);
            writeln!(
                out,
                "{count} distinct solution{s} ({total} in all, {order} symmetries)"
            )?;
        } else {
            writeln!(out, "{count} solution{s}")?;
        }
        if flags.stats {
            let nodes = outcome.nodes;
            let automorphisms = outcome.automorphisms;
            eprintln!(
                "nodes: {nodes}  automorphisms: {automorphisms}  threads: {threads}  time: {seconds:.6} s"
            );
        }
    }
    out.flush()?;
    Ok(())
}

fn run_tables(args: &TablesArgs) -> Result<(), CliError> {
    let report = match args.puzzle.as_str() {
        "meteor" => meteor_report(),
        other => {
            return Err(CliError::Usage(format!(
                "unknown puzzle '{other}' (expected one of: {})",
                BUILTIN_PUZZLES.join(", ")
            )))
        }
    };
    let out = match args.format {
        Format::Text => tables_text(&report),
        Format::Json => {
            let mut s = serde_json::to_string(&tables_json(&report))
                .expect("the tables document serialises");
            s.push('\n');
            s
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

fn meteor_report() -> TableReport {
    let (tables, census) = generate::meteor_tables(true, true);
    let unpruned = groups_of(&generate::meteor_tables(false, true).0);
    let unrestricted = (
        placement_count(&groups_of(&generate::meteor_tables(false, false).0)),
        placement_count(&groups_of(&generate::meteor_tables(true, false).0)),
    );
    TableReport {
        name: "meteor",
        grid: generate::meteor_board().grid,
        pieces: generate::meteor_pieces(),
        groups: groups_of(&tables),
        tables,
        census,
        unpruned,
        unrestricted,
    }
}

impl TableReport {
    fn cells(&self) -> usize {
        self.tables.width * self.tables.height
    }

    /// Which orientations of `piece` the tables use, read off the tables themselves.
    fn allowed(&self, piece: usize) -> Vec<bool> {
        let t = &self.tables;
        let mut used = vec![false; self.census.orientations[piece].len()];
        for g in (piece..t.counts.len()).step_by(t.pieces) {
            for i in 0..t.counts[g] as usize {
                used[t.orientation_of[g * t.slots + i] as usize] = true;
            }
        }
        used
    }

    /// Placements of `piece` per orientation in `groups`.
    fn per_orientation(&self, groups: &[Group], piece: usize) -> Vec<u32> {
        let mut n = vec![0; self.census.orientations[piece].len()];
        for e in groups
            .iter()
            .filter(|g| g.piece == piece)
            .flat_map(|g| &g.entries)
        {
            n[e.orientation as usize] += 1;
        }
        n
    }
}

fn grid_name(g: Grid) -> &'static str {
    match g {
        Grid::Square => "square",
        Grid::Hex => "hex",
    }
}

fn hex64(m: u64) -> String {
    format!("{m:#018x}")
}

fn bits(set: u64) -> Vec<u32> {
    (0..64).filter(|i| set >> i & 1 != 0).collect()
}

/// A shape drawn in ASCII with `mark` on its cells, row 0 (south) on top as the
/// Benchmarks Game prints boards; on the hex grid each row sits half a cell east of the
/// one above it, two characters per cell.
fn draw_shape(grid: Grid, cells: &[Point], mark: char) -> Vec<String> {
    let column = |(x, y): Point| match grid {
        Grid::Hex => 2 * x + y,
        Grid::Square => 2 * x,
    };
    let left = cells.iter().map(|&p| column(p)).min().unwrap_or(0);
    let top = cells.iter().map(|p| p.1).min().unwrap_or(0);
    let bottom = cells.iter().map(|p| p.1).max().unwrap_or(0);
    (top..=bottom)
        .map(|y| {
            let mut cols: Vec<usize> = cells
                .iter()
                .filter(|p| p.1 == y)
                .map(|&p| (column(p) - left) as usize)
                .collect();
            cols.sort_unstable();
            let mut line = String::new();
            for c in cols {
                while line.len() < c {
                    line.push(' ');
                }
                line.push(mark);
            }
            line
        })
        .collect()
}

/// Text blocks side by side, `gap` spaces apart, wrapped to `width` columns.
fn side_by_side(blocks: &[Vec<String>], gap: usize, width: usize, out: &mut String) {
    let mut start = 0;
    while start < blocks.len() {
        let mut end = start;
        let mut used = 0;
        while end < blocks.len() {
            let w = blocks[end].iter().map(String::len).max().unwrap_or(0);
            if end > start && used + gap + w > width {
                break;
            }
            used += if end > start { gap } else { 0 } + w;
            end += 1;
        }
        let widths: Vec<usize> = blocks[start..end]
            .iter()
            .map(|b| b.iter().map(String::len).max().unwrap_or(0))
            .collect();
        let height = blocks[start..end].iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for (b, w) in blocks[start..end].iter().zip(&widths) {
                let cell = b.get(row).map_or("", String::as_str);
                let _ = write!(line, "{cell:<w$}{:gap$}", "");
            }
            out.push_str("  ");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
        start = end;
    }
}

/// `text` broken into lines of at most `width` columns at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split_whitespace() {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

fn heading(out: &mut String, title: &str, underline: char) {
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "{}",
        underline.to_string().repeat(title.chars().count())
    );
}

fn tables_text(r: &TableReport) -> String {
    let t = &r.tables;
    let c = &r.census;
    let mut out = String::new();
    let total_before: u32 = c.before.iter().flatten().sum();
    let total_after: u32 = c.after.iter().flatten().sum();

    heading(&mut out, &format!("polytile tables {}", r.name), '=');
    out.push('\n');
    heading(&mut out, "Board and window", '-');
    let _ = writeln!(
        out,
        "grid: {}, {} columns x {} rows = {} cells; row 0 is the south edge, printed first",
        grid_name(r.grid),
        t.width,
        t.height,
        r.cells()
    );
    let _ = writeln!(
        out,
        "window: 64 bits, moves {} rows ({} cells) at a time; {} offsets x {} anchors x {} pieces = {} placement lists",
        t.shift_rows,
        t.shift_rows * t.width,
        t.offsets,
        t.anchors,
        t.pieces,
        t.offsets * t.anchors * t.pieces
    );
    let _ = writeln!(
        out,
        "fillable free-cell counts: {} = {:?}",
        hex64(t.fillable),
        bits(t.fillable)
    );
    match t.half_turn_piece {
        Some(p) => {
            let _ = writeln!(
                out,
                "half-turn piece: {p} (keeps one of each half-turn pair; each solution found stands for two)"
            );
        }
        None => {
            let _ = writeln!(out, "half-turn piece: none");
        }
    }
    out.push('\n');

    heading(&mut out, "Placement totals", '-');
    let _ = writeln!(out, "                          unpruned    pruned");
    let _ = writeln!(
        out,
        "all orientations          {:>8}  {:>8}",
        r.unrestricted.0, r.unrestricted.1
    );
    let _ = writeln!(
        out,
        "half-turn restricted      {:>8}  {:>8}   <- these tables",
        total_before, total_after
    );
    out.push('\n');
    let _ = writeln!(out, "piece  orientations  before  after  pruned");
    for p in 0..t.pieces {
        let before: u32 = c.before[p].iter().sum();
        let after: u32 = c.after[p].iter().sum();
        let used = r.allowed(p).iter().filter(|&&a| a).count();
        let orients = c.orientations[p].len();
        let o = if used == orients {
            orients.to_string()
        } else {
            format!("{used} of {orients}")
        };
        let _ = writeln!(
            out,
            "{p:>5}  {o:>12}  {before:>6}  {after:>5}  {:>6}{}",
            before - after,
            if t.half_turn_piece == Some(p) {
                "   half-turn piece"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(
        out,
        "total  {:>12}  {total_before:>6}  {total_after:>5}  {:>6}",
        "",
        total_before - total_after
    );
    out.push('\n');

    heading(&mut out, "Pieces", '-');
    let _ = writeln!(
        out,
        "Orientations are lattice points (x, y) (axial on the hex grid: x = col - floor(row / 2)),\n\
         normalised so the first cell in row order is (0, 0), and drawn with row 0 on top.\n\
         Counts are placements per orientation before/after pruning; 'unused' marks an\n\
         orientation the half-turn restriction drops. Per cell: placements anchored there,\n\
         before/after pruning, laid out like the board.\n"
    );
    for p in 0..t.pieces {
        let allowed = r.allowed(p);
        let before_o = r.per_orientation(&r.unpruned, p);
        let after_o = r.per_orientation(&r.groups, p);
        let orients = &c.orientations[p];
        let mark = char::from_digit(p as u32 % 36, 36).unwrap_or('#');
        let title = format!(
            "piece {p} ({}): {} orientations{}",
            r.pieces[p].name,
            orients.len(),
            if t.half_turn_piece == Some(p) {
                format!(
                    ", {} used (half-turn piece)",
                    allowed.iter().filter(|&&a| a).count()
                )
            } else {
                String::new()
            }
        );
        heading(&mut out, &title, '~');
        for (i, o) in orients.iter().enumerate() {
            let pts: Vec<String> = o.iter().map(|(x, y)| format!("({x},{y})")).collect();
            let _ = writeln!(
                out,
                "  #{i:<2} {}  {}",
                pts.join(" "),
                if allowed[i] {
                    format!("{}/{}", before_o[i], after_o[i])
                } else {
                    "unused".to_string()
                }
            );
        }
        out.push('\n');
        let blocks: Vec<Vec<String>> = orients
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let mut b = vec![if allowed[i] {
                    format!("#{i}")
                } else {
                    format!("#{i} unused")
                }];
                b.extend(draw_shape(r.grid, o, mark));
                b
            })
            .collect();
        side_by_side(&blocks, 3, 88, &mut out);
        census_board(r, p, &mut out);
        let before: u32 = c.before[p].iter().sum();
        let after: u32 = c.after[p].iter().sum();
        let _ = writeln!(
            out,
            "  total: {before} before, {after} after pruning ({} pruned)\n",
            before - after
        );
    }

    heading(&mut out, "Masks", '-');
    let _ = writeln!(
        out,
        "Bit i of a mask is window cell i; at offset o it is board cell {} * o + i.\n\
         'islands': cells cut off by the placement and every cell below its anchor.\n\
         {}\n",
        t.shift_rows * t.width,
        wrap(&format!("Layout: {LAYOUT}."), 88)
    );
    for (k, groups) in r.groups.chunks(t.pieces).enumerate() {
        let (offset, anchor) = (k / t.anchors, k % t.anchors);
        let n = placement_count(groups);
        let _ = writeln!(
            out,
            "offset {offset}, anchor {anchor} (board cell {}): {n} placements",
            offset * t.shift_rows * t.width + anchor
        );
        if n > 0 {
            let _ = writeln!(out, "   piece  orient   index  mask                islands");
        }
        for g in groups {
            for e in &g.entries {
                let _ = writeln!(
                    out,
                    "  {:>6}  {:>6}  {:>6}  {}  {}",
                    g.piece,
                    e.orientation,
                    e.index,
                    hex64(e.mask),
                    hex64(e.islands)
                );
            }
        }
    }
    out
}

/// Placements of `piece` per anchor cell, before/after pruning, drawn like the board.
fn census_board(r: &TableReport, piece: usize, out: &mut String) {
    let t = &r.tables;
    let c = &r.census;
    let entries: Vec<String> = (0..r.cells())
        .map(|cell| format!("{}/{}", c.before[piece][cell], c.after[piece][cell]))
        .collect();
    let w = entries.iter().map(String::len).max().unwrap_or(1).max(3) + 1;
    let w = w + w % 2;
    for row in 0..t.height {
        let mut line = String::from("  ");
        if r.grid == Grid::Hex && row % 2 == 1 {
            line.push_str(&" ".repeat(w / 2));
        }
        for col in 0..t.width {
            let _ = write!(line, "{:>w$}", entries[row * t.width + col]);
        }
        let _ = writeln!(out, "{}   row {row}", line.trim_end());
    }
}

// JSON: the same information, one compact document.

#[derive(Serialize)]
struct JsonTables {
    puzzle: &'static str,
    /// How masks are encoded.
    mask_encoding: &'static str,
    grid: &'static str,
    width: usize,
    height: usize,
    shift_rows: usize,
    offsets: usize,
    anchors: usize,
    pieces: usize,
    fillable: String,
    fillable_sizes: Vec<u32>,
    half_turn_piece: Option<usize>,
    totals: JsonTotals,
    piece_info: Vec<JsonPiece>,
    /// How the tables lay placements out.
    layout: &'static str,
    slots: usize,
    /// Placements per group.
    counts: Vec<u8>,
    placements: Vec<JsonPlacement>,
}

#[derive(Serialize)]
struct JsonTotals {
    unrestricted_unpruned: usize,
    unrestricted_pruned: usize,
    before_pruning: u32,
    after_pruning: u32,
}

#[derive(Serialize)]
struct JsonPiece {
    piece: usize,
    name: String,
    half_turn_piece: bool,
    orientations: Vec<JsonOrientation>,
    /// Per board cell: placements anchored there before pruning.
    before: Vec<u32>,
    /// Per board cell: after pruning.
    after: Vec<u32>,
    total_before: u32,
    total_after: u32,
}

#[derive(Serialize)]
struct JsonOrientation {
    index: usize,
    /// Lattice points `[x, y]`.
    cells: Vec<Point>,
    used: bool,
    placements_before: u32,
    placements_after: u32,
}

#[derive(Serialize)]
struct JsonPlacement {
    index: usize,
    offset: usize,
    anchor: usize,
    cell: usize,
    piece: usize,
    orientation: u8,
    mask: String,
    islands: String,
}

fn tables_json(r: &TableReport) -> JsonTables {
    let t = &r.tables;
    let c = &r.census;
    let piece_info = (0..t.pieces)
        .map(|p| {
            let allowed = r.allowed(p);
            let before_o = r.per_orientation(&r.unpruned, p);
            let after_o = r.per_orientation(&r.groups, p);
            JsonPiece {
                piece: p,
                name: r.pieces[p].name.clone(),
                half_turn_piece: t.half_turn_piece == Some(p),
                orientations: c.orientations[p]
                    .iter()
                    .enumerate()
                    .map(|(i, o)| JsonOrientation {
                        index: i,
                        cells: o.clone(),
                        used: allowed[i],
                        placements_before: before_o[i],
                        placements_after: after_o[i],
                    })
                    .collect(),
                before: c.before[p].clone(),
                after: c.after[p].clone(),
                total_before: c.before[p].iter().sum(),
                total_after: c.after[p].iter().sum(),
            }
        })
        .collect();
    let placements = r
        .groups
        .iter()
        .flat_map(|g| {
            g.entries.iter().map(move |e| JsonPlacement {
                index: e.index,
                offset: g.offset,
                anchor: g.anchor,
                cell: g.offset * t.shift_rows * t.width + g.anchor,
                piece: g.piece,
                orientation: e.orientation,
                mask: hex64(e.mask),
                islands: hex64(e.islands),
            })
        })
        .collect();
    JsonTables {
        puzzle: r.name,
        mask_encoding: "0x-prefixed 16-digit hex strings; bit i is window cell i, board cell offset * shift_rows * width + i",
        grid: grid_name(r.grid),
        width: t.width,
        height: t.height,
        shift_rows: t.shift_rows,
        offsets: t.offsets,
        anchors: t.anchors,
        pieces: t.pieces,
        fillable: hex64(t.fillable),
        fillable_sizes: bits(t.fillable),
        half_turn_piece: t.half_turn_piece,
        totals: JsonTotals {
            unrestricted_unpruned: r.unrestricted.0,
            unrestricted_pruned: r.unrestricted.1,
            before_pruning: c.before.iter().flatten().sum(),
            after_pruning: c.after.iter().flatten().sum(),
        },
        piece_info,
        layout: LAYOUT,
        slots: t.slots,
        counts: t.counts.clone(),
        placements,
    }
}

//! `polytile`: the command-line front end.
//!
//! Each subcommand is a variant of [`Command`] with its own argument struct
//! (`args.rs`); `main` only parses, hands the arguments to the library
//! ([`polytile::output`], which loads, runs and prints) as plain values, and maps errors
//! to exit codes (2 for bad input, 1 for failures).
//!
//! Everything here is presentation: the search path never calls into this file.

mod args;

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Parser;

use polytile::output::{self, Error};
use polytile::sums;

use args::{mode, Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    let result = match cli.command {
        Command::Tables(a) => output::puzzle_tables(
            &a.puzzle,
            mode(a.distinct),
            a.format.into(),
            a.output.as_deref(),
        ),
        Command::Solve(a) => {
            output::solve_tiling_file(&a.file.file, &a.file.flags.request(), &a.tiling())
        }
        Command::Sums(a) => output::solve_sums_file(&a.file, &a.flags.request()),
        Command::MagicHexagon(flags) => output::solve_sums(
            &sums::builtin::magic_hexagon(),
            "magic-hexagon",
            &flags.request(),
        ),
        Command::MagicSquare(a) => sums::builtin::magic_square(a.order.into())
            .map_err(|e| Error::Input(e.to_string()))
            .and_then(|model| output::solve_sums(&model, "magic-square", &a.flags.request())),
        Command::Animate(a) => {
            output::animate(&a.file, a.steps as usize, a.seconds, a.output.as_deref())
        }
        Command::Merge(a) => output::merge(&a.files, a.format.into()),
        Command::Estimate(a) => output::estimate(
            &a.file,
            a.numbers(),
            mode(a.distinct),
            &a.options(),
            &a.memo(),
            a.threads(),
            a.format.into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Input(msg)) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
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

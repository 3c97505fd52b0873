//! `meteor [--threads T] [--stats] [N]`: the Benchmarks Game meteor-contest program.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

const USAGE: &str = "usage: meteor [--threads T] [--stats] [N]";

/// The allocator of the static musl build (`scripts/meteor-musl.sh`): dlmalloc, whose
/// heap has nothing to set up at start and keeps this program's few hundred blocks in
/// few pages. musl's own allocator made the binary 1.15 times slower than the glibc
/// build, mimalloc about 1.06 times slower than dlmalloc (its start-up and its arenas'
/// fresh pages); README.md ("The static musl meteor") has the figures. Not for `polytile`:
/// dlmalloc has one lock for all threads, and a listing, which allocates per solution
/// on every thread, took 2.4 to 3.9 times as long with it on two threads. On glibc,
/// glibc's allocator stays: dlmalloc measured no faster there.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// Solves the Benchmarks Game meteor puzzle and prints the solution count and the
/// smallest and largest solutions found.
///
/// Solutions are found in a fixed order, in pairs (a solution and its half turn). The
/// program stops once it holds at least N of them, so it reports N rounded up to even
/// (at most 2098), and the smallest and largest among exactly those: the output is the
/// same on every run and with any number of threads.
#[derive(Parser)]
#[command(name = "meteor", version)]
struct Args {
    /// Solutions to find before stopping [default: all 2098].
    #[arg(value_name = "N")]
    limit: Option<u64>,
    /// Worker threads [default: one per core].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Print nodes visited and time to standard error.
    #[arg(long)]
    stats: bool,
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let msg = e.to_string();
            let first = msg.lines().next().unwrap_or("bad arguments");
            eprintln!("meteor: {}; {USAGE}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let threads = args
        .threads
        .map_or_else(polytile::default_threads, usize::from);
    let options = polytile::Options {
        limit: args.limit,
        threads,
        stats: args.stats,
        // One search per process: pinning its threads crowds nothing, and a run of a
        // few milliseconds gains from each thread having its core at once.
        pin_threads: true,
        ..polytile::Options::default()
    };
    let start = Instant::now();
    let report = polytile::meteor::solve(&options);
    let elapsed = start.elapsed();
    let out = polytile::meteor::render(&report);
    if std::io::stdout().lock().write_all(out.as_bytes()).is_err() {
        return ExitCode::FAILURE;
    }
    if args.stats {
        let ns = elapsed.as_nanos() as f64;
        let nodes = report.summary.nodes.unwrap_or(0);
        eprintln!(
            "nodes: {nodes}  threads: {threads}  search: {:.3} ms  per node: {:.1} ns",
            ns / 1e6,
            ns * threads as f64 / nodes.max(1) as f64
        );
    }
    ExitCode::SUCCESS
}

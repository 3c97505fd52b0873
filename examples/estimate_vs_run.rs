//! How good `polytile estimate` is: for every shipped data file, the estimate (nodes,
//! solutions, time on one thread) beside a real count on one thread, as a Markdown
//! table. The 5x5 magic squares take a quarter of an hour to count and are left out
//! unless `--all` is given.
//!
//! ```sh
//! cargo run --release --example estimate_vs_run [-- [--all] [--distinct] [--paths N] [--seed N] [--tail N]]
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use polytile::estimate::Spread;
use polytile::{
    Estimate, EstimateOptions, Mode, Options, Puzzle, Summary, SumsSolver, TilingSolver,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let everything = args.iter().any(|a| a == "--all");
    let mode = if args.iter().any(|a| a == "--distinct") {
        Mode::Distinct
    } else {
        Mode::All
    };
    let mut options = EstimateOptions::default();
    let value = |flag: &str| -> Result<Option<f64>, Box<dyn std::error::Error>> {
        match args.iter().position(|a| a == flag) {
            None => Ok(None),
            Some(i) => Ok(Some(
                args.get(i + 1)
                    .ok_or(format!("{flag} needs a number"))?
                    .parse()?,
            )),
        }
    };
    if let Some(paths) = value("--paths")? {
        options.paths = paths as u64;
    }
    if let Some(seed) = value("--seed")? {
        options.seed = seed as u64;
    }
    if let Some(tail) = value("--tail")? {
        options.tail_nodes = tail;
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&data)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    println!(
        "| file | nodes: estimate | nodes: run | solutions: estimate | solutions: run | \
         time: estimate | time: run |"
    );
    println!("|---|---|---|---|---|---|---|");
    let one = Options {
        threads: 1,
        stats: true,
        ..Options::default()
    };
    for file in files {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if name.contains("magic-square-5") && !everything {
            continue;
        }
        let timed = |count: &dyn Fn() -> Summary| {
            let start = Instant::now();
            let summary = count();
            (summary, start.elapsed().as_secs_f64())
        };
        let (estimate, (run, seconds)) = match file.extension().and_then(|e| e.to_str()) {
            Some("puz") => {
                let puzzle = Puzzle::load(&file)?;
                let Ok(solver) = TilingSolver::new(&puzzle, mode) else {
                    continue;
                };
                // Walking every node of a tree the memo counts takes days.
                if solver.memo_pays() {
                    continue;
                }
                (solver.estimate(&options), timed(&|| solver.count(&one)))
            }
            Some("sum") => {
                let model = polytile::sums::load(&file)?;
                let solver = SumsSolver::new(&model, mode)?;
                (solver.estimate(&options), timed(&|| solver.count(&one)))
            }
            _ => continue,
        };
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} |",
            figure(&estimate, &estimate.nodes, run.nodes.unwrap_or(0)),
            run.nodes.unwrap_or(0),
            figure(&estimate, &estimate.solutions, run.solutions),
            run.solutions,
            estimate.seconds(1).map_or("-".into(), seconds_text),
            seconds_text(seconds),
        );
    }
    Ok(())
}

/// An estimated figure with its standard error, and how many standard errors it is
/// from the `real` figure.
fn figure(estimate: &Estimate, spread: &Spread, real: u64) -> String {
    if estimate.exact {
        format!("{:.0} (exact)", spread.mean)
    } else {
        let off = (spread.mean - real as f64).abs() / spread.std_error;
        format!(
            "{:.4e} ± {:.1}% ({off:.1} SE off)",
            spread.mean,
            100.0 * spread.relative()
        )
    }
}

fn seconds_text(seconds: f64) -> String {
    format!("{:.3} ms", seconds * 1e3)
}

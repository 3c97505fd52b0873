//! Solve a puzzle file and print each solution as text, then the count.
//!
//! ```sh
//! cargo run --release --example solve_file -- data/pentomino-6x10.puz 3
//! ```
//!
//! The first argument is a `.puz` file (docs/puzzle-format.md), the second an optional
//! limit on the solutions printed.

use std::ops::ControlFlow;
use std::process::ExitCode;

use polytile::{Mode, Options, Puzzle, TilingSolver};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: solve_file FILE [LIMIT]");
        return ExitCode::from(2);
    };
    let limit = match args.next().map(|n| n.parse::<u64>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(e)) => {
            eprintln!("solve_file: bad limit: {e}");
            return ExitCode::from(2);
        }
    };
    // Errors name the file, line and column.
    let puzzle = match Puzzle::load(path.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let solver = match TilingSolver::new(&puzzle, Mode::All) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let labels: Vec<String> = puzzle.labels().iter().map(char::to_string).collect();
    let options = Options {
        limit,
        threads: polytile::default_threads(),
        ..Options::default()
    };
    let summary = solver.for_each(&options, |tiling| {
        for row in polytile::render::rows(&puzzle.board, &tiling, &labels) {
            println!("{row}");
        }
        println!();
        ControlFlow::Continue(())
    });
    println!("{} solutions", summary.solutions);
    ExitCode::SUCCESS
}

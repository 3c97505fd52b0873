//! Shared by the integration tests: the independent tiling verifier ([`tiling`], with
//! the meteor's known facts in [`tiling::meteor`]), the Benchmarks Game output parser,
//! helpers that run the solvers and the binaries, and the number puzzles' checker.
//!
//! Known facts: the Benchmarks Game meteor-contest reference output (`2098_out`) and
//! `docs/known-counts.md`: 2098 solutions, 1049 up to the half turn, the smallest and
//! largest solutions.

// Not every module of the crate uses every helper.
#![allow(dead_code)]

pub mod cli;
pub mod sums;
pub mod tiling;

use std::ops::ControlFlow;
use std::path::PathBuf;

/// The library, as the verifier reaches it (`tiling.rs` is shared with the library's
/// unit tests, where this is `crate`).
use polytile as lib;

use polytile::{Board, Grid, Mode, Options, Puzzle, Summary, Tiling, TilingError, TilingSolver};

pub use tiling::meteor::{digits as board, ALL_SOLUTIONS, LARGEST, SMALLEST};
use tiling::meteor::{HEIGHT, WIDTH};

/// A library lattice point as the verifier's: the library's square `(x, y)` is
/// `(col, row)`, its hex `(x, y)` the axial `(col - floor(row / 2), row)` and its
/// triangle `(x, y)` three times the centroid of triangle `(a, b)` in axial
/// coordinates, `(3a + 1, 3b + 1)` up and `(3a + 2, 3b + 2)` down
/// (`docs/puzzle-format.md`); the verifier uses `(x, y, 0)`, cube coordinates and
/// line indices `(a, b, -a - b - 1)` up, `(a, b, -a - b - 2)` down.
pub fn verifier_point(grid: Grid, (x, y, z): polytile::Point) -> tiling::Pt {
    match grid {
        // Column, row, layer in both.
        Grid::Cubic => (x, y, z),
        Grid::Square => (x, y, 0),
        Grid::Hex => (x, -x - y, y),
        Grid::Triangle => {
            let (a, b) = (x.div_euclid(3), y.div_euclid(3));
            (a, b, -a - b - x.rem_euclid(3))
        }
    }
}

/// The pieces of a puzzle on the cubic grid as the verifier takes them.
pub fn verifier_box_specs(p: &Puzzle) -> Vec<tiling::BoxSpec> {
    p.pieces
        .iter()
        .map(|piece| {
            let pts = piece.cells.iter().map(|&c| verifier_point(p.board.grid, c));
            (pts.collect(), piece.motion, piece.count)
        })
        .collect()
}

/// The puzzle's pieces as the verifier takes them.
pub fn verifier_specs(p: &Puzzle) -> Vec<tiling::PieceSpec> {
    p.pieces
        .iter()
        .map(|piece| {
            let pts: Vec<tiling::Pt> = piece
                .cells
                .iter()
                .map(|&c| verifier_point(p.board.grid, c))
                .collect();
            (
                tiling::to_cells(p.board.grid, &pts),
                piece.motion,
                piece.count,
            )
        })
        .collect()
}

/// How much a test run finds and how: the CLI's flags, in one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many (`usize::MAX`: no limit).
    pub limit: usize,
    /// Keep the solutions.
    pub keep: bool,
    pub threads: usize,
    /// Count nodes.
    pub stats: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            limit: usize::MAX,
            keep: false,
            threads: 1,
            stats: false,
        }
    }
}

impl Limits {
    /// The library's options for these limits.
    pub fn options(&self) -> Options {
        Options {
            limit: (self.limit != usize::MAX).then_some(self.limit as u64),
            threads: self.threads,
            stats: self.stats,
            pin_threads: false,
            ..Options::default()
        }
    }
}

/// What a tiling run in all mode found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub count: usize,
    pub solutions: Vec<Tiling>,
    /// Nodes, when counted (0 otherwise).
    pub nodes: u64,
    pub placements: usize,
}

/// What a tiling run in distinct mode found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distinct {
    pub classes: usize,
    pub total: usize,
    pub group_order: usize,
    pub solutions: Vec<Tiling>,
    pub nodes: u64,
    pub placements: usize,
}

/// All solutions of `pieces` on `board` through the library.
pub fn solve(
    board: &Board,
    pieces: &[polytile::Piece],
    allow_leftover: bool,
    limits: Limits,
) -> Result<Outcome, TilingError> {
    let run = run_tiling(
        &puzzle(board, pieces, allow_leftover),
        Mode::All,
        limits.options(),
        limits.keep,
    )?;
    Ok(Outcome {
        count: run.summary.solutions as usize,
        solutions: run.solutions,
        nodes: run.summary.nodes.unwrap_or(0),
        placements: run.placements,
    })
}

/// Distinct solutions of `pieces` on `board` through the library.
pub fn solve_distinct(
    board: &Board,
    pieces: &[polytile::Piece],
    allow_leftover: bool,
    limits: Limits,
) -> Result<Distinct, TilingError> {
    let run = run_tiling(
        &puzzle(board, pieces, allow_leftover),
        Mode::Distinct,
        limits.options(),
        limits.keep,
    )?;
    Ok(Distinct {
        classes: run.summary.solutions as usize,
        total: run.summary.total as usize,
        group_order: run.symmetries,
        solutions: run.solutions,
        nodes: run.summary.nodes.unwrap_or(0),
        placements: run.placements,
    })
}

/// What a tiling run found: its summary and, when asked for, its solutions.
pub struct Run {
    pub summary: Summary,
    pub solutions: Vec<Tiling>,
    pub placements: usize,
    pub symmetries: usize,
}

/// Solves `puzzle` in `mode`; keeps the solutions when `keep`.
pub fn run_tiling(
    puzzle: &Puzzle,
    mode: Mode,
    options: Options,
    keep: bool,
) -> Result<Run, TilingError> {
    let solver = TilingSolver::new(puzzle, mode)?;
    let mut solutions = Vec::new();
    let summary = if keep {
        solver.for_each(&options, |t| {
            solutions.push(t);
            ControlFlow::Continue(())
        })
    } else {
        solver.count(&options)
    };
    Ok(Run {
        summary,
        solutions,
        placements: solver.placements(),
        symmetries: solver.symmetries(),
    })
}

/// Options with a limit (`usize::MAX`: none) and a thread count.
pub fn options(limit: usize, threads: usize) -> Options {
    Options {
        limit: (limit != usize::MAX).then_some(limit as u64),
        threads,
        ..Options::default()
    }
}

/// A puzzle of `pieces` on `board`.
pub fn puzzle(board: &Board, pieces: &[polytile::Piece], allow_leftover: bool) -> Puzzle {
    Puzzle {
        name: "test".into(),
        board: board.clone(),
        pieces: pieces.to_vec(),
        allow_leftover,
        split: polytile::Splitting::Auto,
        first: None,
    }
}

/// A random board of 3 to 12 cells: a rectangle on a random grid with random holes
/// (at least one cell kept).
pub fn random_board(rng: &mut tiling::Rng) -> Board {
    let grid = [Grid::Square, Grid::Hex, Grid::Triangle][rng.below(3)];
    let (w, h) = loop {
        let (w, h) = (1 + rng.below(6), 1 + rng.below(6));
        if (3..=12).contains(&(w * h)) {
            break (w, h);
        }
    };
    let mut board = Board::rectangle(grid, w, h);
    for c in board.cells.iter_mut() {
        *c = rng.below(6) != 0;
    }
    board.cells[rng.below(w * h)] = true;
    board
}

/// Where the Benchmarks Game reference output lives, next to the repository.
pub fn reference_output_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/meteor/2098_out")
}

/// The Benchmarks Game reference output, when this machine has it.
pub fn reference_output() -> Option<Vec<u8>> {
    std::fs::read(reference_output_path()).ok()
}

/// The Benchmarks Game output the full run must print, built from the known facts.
pub fn expected_full_output() -> String {
    let mut out = format!("{ALL_SOLUTIONS} solutions found\n\n");
    for b in [SMALLEST, LARGEST] {
        for (row, cells) in b.as_bytes().chunks(WIDTH).enumerate() {
            if row % 2 == 1 {
                out.push(' ');
            }
            for &c in cells {
                out.push(c as char);
                out.push(' ');
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Parses meteor output, checking every formatting rule: `<count> solutions found`, a
/// blank line, then boards of 10 lines (each cell followed by one space, odd rows
/// indented by one space) each followed by a blank line, and nothing else.
pub fn parse_output(text: &str) -> Result<(u64, Vec<[u8; tiling::meteor::CELLS]>), String> {
    let body = text
        .strip_suffix('\n')
        .ok_or("output does not end with a newline")?;
    let lines: Vec<&str> = body.split('\n').collect();
    let count: u64 = lines[0]
        .strip_suffix(" solutions found")
        .ok_or_else(|| format!("bad count line {:?}", lines[0]))?
        .parse()
        .map_err(|e| format!("bad count in {:?}: {e}", lines[0]))?;
    if lines.get(1) != Some(&"") {
        return Err("no blank line after the count".into());
    }
    let rest = &lines[2..];
    let board_lines = HEIGHT + 1;
    if !rest.len().is_multiple_of(board_lines) {
        return Err(format!("{} lines after the count line", rest.len()));
    }
    let mut boards = Vec::new();
    for chunk in rest.chunks(board_lines) {
        let mut b = Vec::with_capacity(tiling::meteor::CELLS);
        for (row, line) in chunk[..HEIGHT].iter().enumerate() {
            let cells = if row % 2 == 1 {
                line.strip_prefix(' ')
                    .ok_or_else(|| format!("odd row {row} not indented: {line:?}"))?
            } else {
                line
            };
            let bytes = cells.as_bytes();
            if bytes.len() != 2 * WIDTH
                || bytes
                    .chunks(2)
                    .any(|p| !p[0].is_ascii_digit() || p[1] != b' ')
            {
                return Err(format!("bad row {row}: {line:?}"));
            }
            b.extend(bytes.iter().step_by(2));
        }
        if !chunk[HEIGHT].is_empty() {
            return Err("no blank line after a board".into());
        }
        boards.push(b.try_into().unwrap());
    }
    Ok((count, boards))
}

//! The Benchmarks Game meteor-contest puzzle: ten pentahexes on a 5 x 10 hex board.
//!
//! This module owns the puzzle-specific parts around the generic search: the baked
//! tables, the half-turn symmetry (each solution found is emitted with its rotation),
//! the order in which solutions count towards a limit, and the Benchmarks Game output.
//!
//! # What `limit` means
//! The search visits solutions in a fixed order (lowest free cell first, pieces by
//! number, placements in table order) and finds them in pairs: a solution and its half
//! turn. [`solve`] takes pairs in that order until it holds at least `limit` solutions,
//! so the count is `limit` rounded up to even, at most 2098, and the smallest and largest
//! are taken among exactly those solutions, whatever the number of threads.
//!
//! ```
//! let report = polytile::meteor::solve(10, 1);
//! assert_eq!(report.count, 10);
//! ```

use crate::meet::{Above, Scratch};
use crate::parallel::Task;
use crate::search::{Lanes, Node, Path, Step, Visitor};
use crate::tables::generate::Tables;
use crate::tables::meteor as baked;

/// Cells on the board.
pub const CELLS: usize = baked::WIDTH * baked::HEIGHT;
/// Solutions of the full puzzle (Benchmarks Game; `../shared/known-counts.md`).
pub const ALL_SOLUTIONS: usize = 2098;

/// A solution: the digit of the piece on each cell, row by row from row 0.
pub type Board = [u8; CELLS];

/// Where the search splits (see [`crate::meet`]): at the start of rows 3, 4, 5 and 6.
const SPLITS: [usize; 4] = [15, 20, 25, 30];

/// Slots per table group: the 12 orientations of a free pentahex.
pub const SLOTS: usize = baked::SLOTS;

/// The search's view of meteor tables: placements fit 32-bit lanes.
pub type Window<'t> = crate::search::Window<'t, u32, SLOTS>;

/// The baked tables as the search reads them: a `static` of statics, built at compile
/// time.
pub static WINDOW: Window<'static> = Window {
    masks: &baked::MASKS,
    islands: &baked::ISLANDS,
    used_slots: &baked::USED_SLOTS,
    anchors: baked::ANCHORS,
    pieces: baked::PIECES,
    shift: (baked::SHIFT_ROWS * baked::WIDTH) as u32,
    fillable: baked::FILLABLE,
    shift_rows: baked::SHIFT_ROWS,
    bad_band: [&baked::BAD_BAND_EVEN, &baked::BAD_BAND_ODD],
    band_mask: (1 << (baked::BAND_ROWS * baked::WIDTH)) - 1,
    band_at: &baked::BAND_AT,
    not_cells: &baked::NOT_CELLS,
    can_fit: &baked::CAN_FIT,
    placeable_from: &baked::PLACEABLE_FROM,
    look_bits: baked::LOOK_BITS as u32,
    last_offset: baked::OFFSETS - 1,
    copy_of_previous: 0,
    leftover: false,
};

/// The baked tables as the search reads them.
pub fn window() -> &'static Window<'static> {
    &WINDOW
}

/// Whether the tables restrict a piece to one orientation per half-turn pair, in which
/// case every solution found stands for itself and its half turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    HalfTurnPairs,
    None,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub count: usize,
    pub smallest: Option<Board>,
    pub largest: Option<Board>,
    /// Search nodes visited, when counted.
    pub nodes: u64,
}

/// The board drawn by the placements of `path`.
pub fn board_of(window: &Window, path: &[Step]) -> Board {
    let mut board = [b'.'; CELLS];
    for step in path {
        let mut mask = window.step_mask(step);
        let base = step.offset as usize * window.shift as usize;
        while mask != 0 {
            board[base + mask.trailing_zeros() as usize] = b'0' + step.piece;
            mask &= mask - 1;
        }
    }
    board
}

/// The board turned by a half turn: cell `i` goes to cell `CELLS - 1 - i`.
pub fn half_turn(board: &Board) -> Board {
    let mut b = *board;
    b.reverse();
    b
}

/// Collects solutions (with their half turns) until it holds `limit`, or until its task
/// is abandoned.
struct Collector<'a, const STATS: bool> {
    window: &'a Window<'a>,
    symmetry: Symmetry,
    limit: usize,
    task: Task<'a>,
    found: Vec<Board>,
    nodes: u64,
}

impl<const STATS: bool> Visitor for Collector<'_, STATS> {
    #[inline(always)]
    fn node(&mut self) {
        if STATS {
            self.nodes += 1;
        }
    }

    // Cold: 2098 calls against ~50,000 nodes; kept out of the search's stack frame.
    #[inline(never)]
    fn solution(&mut self, path: &[Step]) -> bool {
        let b = board_of(self.window, path);
        self.found.push(b);
        if self.symmetry == Symmetry::HalfTurnPairs {
            self.found.push(half_turn(&b));
        }
        self.found.len() >= self.limit || self.task.abandoned()
    }
}

/// One task's solutions, and its nodes below the split when `STATS`.
fn collect<const STATS: bool>(
    window: &Window,
    symmetry: Symmetry,
    limit: usize,
    task: Task,
    (node, prefix): &(Node, Path),
    above: &Above,
    scratch: &mut Scratch,
) -> (Vec<Board>, u64) {
    let mut c = Collector::<STATS> {
        window,
        symmetry,
        limit,
        task,
        found: Vec::new(),
        nodes: 0,
    };
    window.search_split(*node, &mut prefix.clone(), &mut c, above, scratch);
    (c.found, c.nodes)
}

/// Every solution the tables give, in search order, each followed by its half turn
/// when `symmetry` says the tables hold one of each pair; stops once `limit` are found.
/// Returns the solutions and the nodes visited (0 unless `stats`).
pub fn solutions_with(
    window: &Window,
    symmetry: Symmetry,
    limit: usize,
    threads: usize,
    stats: bool,
) -> (Vec<Board>, u64) {
    // Two levels give ~350 tasks, the largest 3.5% of the nodes; three levels (~1,400
    // tasks, none over 1%) measured no faster on two cores.
    const TASK_DEPTH: usize = 2;
    let tasks = window.frontier(window.root(), &Path::new(), TASK_DEPTH);
    let frontier_nodes = if stats {
        window.nodes_above(window.root(), TASK_DEPTH)
    } else {
        0
    };
    let above = Above::new(window, &SPLITS).expect("meteor boards fit the split search");
    let run = |scratch: &mut Scratch, task: Task| {
        let start = &tasks[task.index];
        if stats {
            collect::<true>(window, symmetry, limit, task, start, &above, scratch)
        } else {
            collect::<false>(window, symmetry, limit, task, start, &above, scratch)
        }
    };
    let (results, scratches) =
        crate::parallel::run_tasks_with(tasks.len(), threads, limit, Scratch::default, run, |r| {
            r.0.len()
        });
    let mut all = Vec::new();
    let mut nodes = frontier_nodes;
    if stats {
        nodes += scratches.iter().map(|s| s.nodes).sum::<u64>();
    }
    for (found, n) in results.into_iter().flatten() {
        if all.len() >= limit {
            // Tasks past the limit may have run on other threads; leaving their nodes
            // out keeps the figure independent of the thread count.
            break;
        }
        nodes += n;
        all.extend(found);
    }
    let keep = match symmetry {
        Symmetry::HalfTurnPairs => limit.div_ceil(2).saturating_mul(2),
        Symmetry::None => limit,
    };
    all.truncate(keep);
    (all, nodes)
}

/// Solves with the baked tables: see the module docs for what `limit` means.
pub fn solve(limit: usize, threads: usize) -> Report {
    solve_with_stats(limit, threads, false)
}

/// [`solve`], counting search nodes when `stats` is set.
pub fn solve_with_stats(limit: usize, threads: usize, stats: bool) -> Report {
    let (found, nodes) = solutions_with(window(), Symmetry::HalfTurnPairs, limit, threads, stats);
    Report {
        count: found.len(),
        smallest: found.iter().min().copied(),
        largest: found.iter().max().copied(),
        nodes,
    }
}

/// All 2098 solutions in search order, from tables built at run time with or without
/// pruning and the half-turn restriction (used to test that neither loses a solution).
pub fn all_solutions_from(tables: &Tables, threads: usize) -> Vec<Board> {
    let symmetry = match tables.half_turn_piece {
        Some(_) => Symmetry::HalfTurnPairs,
        None => Symmetry::None,
    };
    let lanes = Lanes::new(tables).expect("meteor placements fit 32 bits");
    let window = Window::new(tables, &lanes).expect("meteor tables have 12 slots per group");
    solutions_with(&window, symmetry, usize::MAX, threads, false).0
}

/// One board in the Benchmarks Game format: each cell followed by a space, odd rows
/// indented by one space, a blank line after the board.
pub fn render_board(board: &Board, out: &mut String) {
    for (row, cells) in board.chunks(baked::WIDTH).enumerate() {
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

/// The Benchmarks Game output for a report.
pub fn render(report: &Report) -> String {
    let mut out = format!("{} solutions found\n\n", report.count);
    for b in [&report.smallest, &report.largest].into_iter().flatten() {
        render_board(b, &mut out);
    }
    out
}

//! Solving any board and piece set: tables built at run time by the generator that
//! `build.rs` uses for the meteor, searched by the same core.
//!
//! This module owns the path from a board and pieces to solutions: expanding piece
//! counts into interchangeable copies, choosing the lane width and slot count the
//! search is compiled for, splitting the work into tasks, and turning search paths
//! back into boards. It knows nothing of files or output formats.
//!
//! ```
//! use polytile::solve::{solve, Limits};
//! use polytile::tables::generate::{Board, Grid, Motion, Piece};
//!
//! // Two dominoes on a 2 x 2 square: two tilings.
//! let board = Board::rectangle(Grid::Square, 2, 2);
//! let domino = Piece { name: "d".into(), cells: vec![(0, 0), (1, 0)], motion: Motion::Free, count: 2 };
//! let out = solve(&board, &[domino], false, Limits::default()).unwrap();
//! assert_eq!(out.count, 2);
//! ```

use crate::parallel::run_tasks;
use crate::search::{Lane, Lanes, Path, Step, Visitor, Window};
use crate::tables::generate::{
    self, Board, GenerateError, Grid, Motion, Options, Piece, Point, Tables,
};

/// Pieces a search can track: one bit each in `Node::unused`.
pub const MAX_PIECES: usize = 32;

/// Why a puzzle cannot be solved as given.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    #[error("{0} pieces counting copies; the search handles at most {MAX_PIECES}")]
    TooManyPieces(usize),
    #[error("{0}")]
    Tables(String),
    #[error("a piece has {0} orientations; the search handles at most 32")]
    TooManyOrientations(usize),
}

impl From<GenerateError> for SolveError {
    fn from(e: GenerateError) -> SolveError {
        SolveError::Tables(e.to_string())
    }
}

/// How much to find and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop once this many solutions are found (in search order).
    pub limit: usize,
    /// Keep the solutions (otherwise only count them).
    pub keep: bool,
    /// Worker threads.
    pub threads: usize,
    /// Count search nodes.
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

/// A solution: for each board cell (row-major), the index of the piece covering it in
/// the caller's piece list, or `None` for holes and cells left uncovered.
pub type Tiling = Vec<Option<u16>>;

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (all of them unless `limit` stopped the search).
    pub count: usize,
    /// The solutions, in search order, when `keep` was set.
    pub solutions: Vec<Tiling>,
    /// Search nodes visited, when `stats` was set.
    pub nodes: u64,
    /// Placements in the tables after pruning.
    pub placements: usize,
}

/// Finds the tilings of `board` by `pieces` (each used at most `count` times; all of
/// them exactly `count` times unless `allow_leftover`).
///
/// Square boards wider than tall are solved transposed: the search fills rows, and
/// short rows keep the open frontier small (measured on the 12 pentominoes: 6 x 10
/// needs 10.2 million nodes scanned along its 6-cell rows, 90.9 million along its
/// 10-cell rows). Solutions come back in the board's own orientation.
pub fn solve(
    board: &Board,
    pieces: &[Piece],
    allow_leftover: bool,
    limits: Limits,
) -> Result<Outcome, SolveError> {
    if board.grid != Grid::Square || board.width <= board.height {
        return solve_rows(board, pieces, allow_leftover, limits);
    }
    let transposed = Board {
        grid: board.grid,
        width: board.height,
        height: board.width,
        cells: (0..board.cells.len())
            .map(|i| board.cells[(i % board.height) * board.width + i / board.height])
            .collect(),
    };
    // The transpose is the reflection (x, y) -> (y, x) of the square lattice; pieces
    // that may not reflect must be reflected with the board.
    let pieces: Vec<Piece> = pieces
        .iter()
        .map(|p| Piece {
            cells: generate::normalise(&p.cells.iter().map(|&(x, y)| (y, x)).collect::<Vec<_>>()),
            ..p.clone()
        })
        .collect();
    let mut out = solve_rows(&transposed, &pieces, allow_leftover, limits)?;
    for t in &mut out.solutions {
        *t = (0..t.len())
            .map(|i| t[(i % board.width) * board.height + i / board.width])
            .collect();
    }
    Ok(out)
}

/// [`solve`] with the board scanned row by row as given.
fn solve_rows(
    board: &Board,
    pieces: &[Piece],
    allow_leftover: bool,
    limits: Limits,
) -> Result<Outcome, SolveError> {
    let copies: usize = pieces.iter().map(|p| p.count as usize).sum();
    if copies > MAX_PIECES {
        return Err(SolveError::TooManyPieces(copies));
    }
    // One search piece per copy; `owner[i]` is the caller's piece index of copy `i`.
    let mut expanded = Vec::with_capacity(copies);
    let mut owner = Vec::with_capacity(copies);
    let mut copy_of_previous = 0u32;
    for (i, p) in pieces.iter().enumerate() {
        for c in 0..p.count {
            if c > 0 {
                copy_of_previous |= 1 << expanded.len();
            }
            expanded.push(Piece {
                count: 1,
                ..p.clone()
            });
            owner.push(i as u16);
        }
    }
    // When the board and the piece set are symmetric under the half turn, one piece keeps
    // one orientation of each half-turn pair and every solution found is reported with
    // its half turn: half the search. The restricted piece has no orientation that is its
    // own half turn, so no solution is its own half turn and none is counted twice.
    let half_turn = half_turn_map(board)
        .filter(|_| pieces.iter().all(|p| p.motion != Motion::Fixed))
        .and_then(|map| Some((map, generate::choose_half_turn_piece(board, pieces)?)));
    let half_turn_piece = half_turn.as_ref().map(|&(_, p)| {
        // The chosen piece has a single copy: its index among the copies.
        pieces[..p].iter().map(|q| q.count as usize).sum()
    });
    let opts = Options {
        shift_rows: 2,
        prune: true,
        half_turn_piece,
    };
    let (tables, _) = generate::generate(board, &expanded, opts)?;
    let run = Run {
        half_turn: half_turn.map(|(map, _)| map),
        tables: &tables,
        owner: &owner,
        copy_of_previous,
        leftover: allow_leftover,
        limits,
        cells: board.cells.len(),
    };
    let narrow = Lanes::<u32>::new(&tables);
    macro_rules! dispatch {
        ($($k:literal)*) => {
            match (tables.slots, narrow) {
                $(($k, Some(lanes)) => run.go::<u32, $k>(&lanes),
                  ($k, None) => run.go::<u64, $k>(&Lanes::new(&tables).expect("u64 lanes hold any mask")),)*
                (k, _) => Err(SolveError::TooManyOrientations(k)),
            }
        };
    }
    dispatch!(4 8 12 16 20 24 28 32)
}

/// For a board symmetric under the half turn, `map[cell]` = the cell it turns onto.
fn half_turn_map(board: &Board) -> Option<Vec<usize>> {
    let cells: Vec<usize> = (0..board.cells.len()).filter(|&c| board.has(c)).collect();
    let points: Vec<Point> = cells.iter().map(|&c| board.point(c)).collect();
    let turned = generate::half_turn(board.grid, &points);
    let key = |&(x, y): &Point| (y, x);
    let first = points.iter().min_by_key(|p| key(p))?;
    let turned_first = turned.iter().min_by_key(|p| key(p))?;
    let (dx, dy) = (first.0 - turned_first.0, first.1 - turned_first.1);
    let mut map = vec![usize::MAX; board.cells.len()];
    for (&c, &(x, y)) in cells.iter().zip(&turned) {
        map[c] = board.index((x + dx, y + dy))?;
    }
    Some(map)
}

/// One solve, before the lane width and slot count are fixed.
struct Run<'a> {
    /// The half-turn map when every solution found stands for itself and its half turn.
    half_turn: Option<Vec<usize>>,
    tables: &'a Tables,
    owner: &'a [u16],
    copy_of_previous: u32,
    leftover: bool,
    limits: Limits,
    cells: usize,
}

impl Run<'_> {
    fn go<L: Lane + Sync, const K: usize>(&self, lanes: &Lanes<L>) -> Result<Outcome, SolveError> {
        let mut window: Window<L, K> =
            Window::new(self.tables, lanes).expect("slot count matches the dispatch");
        window.copy_of_previous = self.copy_of_previous;
        window.leftover = self.leftover;
        let window = &window;
        const TASK_DEPTH: usize = 2;
        let root = window.root();
        let tasks = window.frontier(root, &Path::new(), TASK_DEPTH);
        let limit = self.limits.limit;
        let run = |task: usize| {
            let (node, prefix) = &tasks[task];
            let mut path = prefix.clone();
            let mut c = Collector {
                window,
                run: self,
                limit,
                count: 0,
                found: Vec::new(),
                nodes: 0,
            };
            if self.limits.stats {
                window.search(*node, &mut path, &mut Counting(&mut c));
            } else {
                window.search(*node, &mut path, &mut c);
            }
            (c.count, c.found, c.nodes)
        };
        let results = run_tasks(tasks.len(), self.limits.threads, limit, run, |r| r.0);
        let mut out = Outcome {
            count: 0,
            solutions: Vec::new(),
            nodes: if self.limits.stats {
                window.nodes_above(root, TASK_DEPTH)
            } else {
                0
            },
            placements: self.tables.placement_count(),
        };
        for (count, found, nodes) in results.into_iter().flatten() {
            out.nodes += nodes;
            let take = count.min(limit - out.count);
            out.count += take;
            out.solutions.extend(found.into_iter().take(take));
        }
        Ok(out)
    }

    /// The board a search path draws, in the caller's piece indices.
    fn tiling<L: Lane, const K: usize>(&self, window: &Window<L, K>, path: &[Step]) -> Tiling {
        let mut t = vec![None; self.cells];
        for step in path {
            let base = step.offset as usize * window.shift as usize;
            let mut mask = window.step_mask(step);
            while mask != 0 {
                t[base + mask.trailing_zeros() as usize] = Some(self.owner[step.piece as usize]);
                mask &= mask - 1;
            }
        }
        t
    }
}

/// Counts solutions and keeps them if asked, up to the limit.
struct Collector<'a, L, const K: usize> {
    window: &'a Window<'a, L, K>,
    run: &'a Run<'a>,
    limit: usize,
    count: usize,
    found: Vec<Tiling>,
    nodes: u64,
}

impl<L: Lane, const K: usize> Visitor for Collector<'_, L, K> {
    #[inline(never)]
    fn solution(&mut self, path: &[Step]) -> bool {
        self.count += 1;
        if self.run.half_turn.is_some() {
            self.count += 1;
        }
        if self.run.limits.keep {
            let t = self.run.tiling(self.window, path);
            if let Some(map) = &self.run.half_turn {
                let turned = (0..t.len())
                    .map(|c| {
                        if map[c] == usize::MAX {
                            None
                        } else {
                            t[map[c]]
                        }
                    })
                    .collect();
                self.found.push(t);
                self.found.push(turned);
            } else {
                self.found.push(t);
            }
        }
        self.count >= self.limit
    }
}

/// A [`Collector`] that also counts nodes.
struct Counting<'c, 'a, L, const K: usize>(&'c mut Collector<'a, L, K>);

impl<L: Lane, const K: usize> Visitor for Counting<'_, '_, L, K> {
    #[inline(always)]
    fn node(&mut self) {
        self.0.nodes += 1;
    }
    fn solution(&mut self, path: &[Step]) -> bool {
        self.0.solution(path)
    }
}

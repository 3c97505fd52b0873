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

use crate::parallel::{run_tasks, Task};
use crate::search::{Lane, Lanes, Path, Step, Visitor, Window};
use crate::tables::generate::{self, Board, GenerateError, Grid, Options, Piece, Tables};

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
    #[error(
        "counting distinct solutions needs a piece with one copy that every symmetry of \
         the board maps to itself; none qualifies (use --all)"
    )]
    NoSymmetryPiece,
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
    solve_oriented(board, pieces, allow_leftover, limits, false)
}

/// What a distinct solve found: solutions up to the symmetries of the board that map
/// the piece set onto itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distinct {
    /// Classes of solutions (distinct solutions), up to the limit.
    pub classes: usize,
    /// All solutions in those classes: the sum of their orbit sizes. Equals
    /// [`solve`]'s count when no limit stopped the search.
    pub total: usize,
    /// The order of the symmetry group used.
    pub group_order: usize,
    /// One solution per class (the least under the symmetries that fix the restricted
    /// piece), in search order, when `keep` was set.
    pub solutions: Vec<Tiling>,
    pub nodes: u64,
    pub placements: usize,
}

/// Solutions up to symmetry. The symmetries are those of the board (rotations and
/// reflections) that map the piece set onto itself, reflections included only when the
/// pieces allow them (free pieces, or one-sided sets closed under mirroring).
///
/// One piece that every symmetry maps to itself is restricted to one placement per
/// orbit, so each class is searched once or, for a placement fixed by some symmetries,
/// a few times; of those, the search keeps the least under those symmetries, and counts
/// the class's size from the symmetries that fix the solution. Nothing is deduplicated
/// after the fact.
pub fn solve_distinct(
    board: &Board,
    pieces: &[Piece],
    allow_leftover: bool,
    limits: Limits,
) -> Result<Distinct, SolveError> {
    solve_oriented(board, pieces, allow_leftover, limits, true)
}

/// Either mode's result before it is shaped for the caller.
struct Found {
    count: usize,
    total: usize,
    group_order: usize,
    solutions: Vec<Tiling>,
    nodes: u64,
    placements: usize,
}

impl From<Found> for Outcome {
    fn from(f: Found) -> Outcome {
        Outcome {
            count: f.count,
            solutions: f.solutions,
            nodes: f.nodes,
            placements: f.placements,
        }
    }
}

fn solve_oriented<T: From<Found>>(
    board: &Board,
    pieces: &[Piece],
    allow_leftover: bool,
    limits: Limits,
    distinct: bool,
) -> Result<T, SolveError> {
    if board.grid != Grid::Square || board.width <= board.height {
        return solve_rows(board, pieces, allow_leftover, limits, distinct).map(T::from);
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
    let mut out = solve_rows(&transposed, &pieces, allow_leftover, limits, distinct)?;
    for t in &mut out.solutions {
        *t = (0..t.len())
            .map(|i| t[(i % board.width) * board.height + i / board.width])
            .collect();
    }
    Ok(T::from(out))
}

impl From<Found> for Distinct {
    fn from(f: Found) -> Distinct {
        Distinct {
            classes: f.count,
            total: f.total,
            group_order: f.group_order,
            solutions: f.solutions,
            nodes: f.nodes,
            placements: f.placements,
        }
    }
}

/// [`solve`] with the board scanned row by row as given.
fn solve_rows(
    board: &Board,
    pieces: &[Piece],
    allow_leftover: bool,
    limits: Limits,
    distinct: bool,
) -> Result<Found, SolveError> {
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
    // Search one solution per class of the symmetry group; in `--all` mode each class
    // then stands for its whole orbit. Without a usable symmetry, distinct counting
    // fails and counting all searches everything.
    let symmetry = match Symmetry::new(board, pieces, allow_leftover) {
        Ok(s) if distinct || s.group.len() > 1 => Some(s),
        Ok(_) => None,
        Err(e) if distinct => return Err(e),
        Err(_) => None,
    };
    let only = symmetry
        .as_ref()
        .map(|s| (s.piece as usize, &s.representatives[..]));
    let opts = Options {
        shift_rows: 2,
        prune: true,
    };
    let (tables, _) = generate::generate_with_only(board, &expanded, opts, only)?;
    let run = Run {
        distinct,
        symmetry,
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

/// The symmetry group whose classes the search visits once each, and the piece that is
/// restricted to one placement per orbit to make it so.
///
/// It works on tilings labelled by *copy* (see [`Run::tiling`]): copies of a piece are
/// numbered by their lowest cell, as the search places them, so two solutions are the
/// same exactly when their copy-labelled tilings are equal.
struct Symmetry {
    /// Each symmetry as (cell map, piece map over the caller's pieces), identity first.
    group: Vec<(Vec<usize>, Vec<u16>)>,
    /// The copy of the piece every symmetry maps to itself (it has one copy).
    piece: u16,
    /// Its placements kept: one per orbit, as sorted cell lists, sorted.
    representatives: Vec<Vec<usize>>,
    /// `owner[copy]` = the caller's piece; `first_copy[piece]` = its first copy.
    owner: Vec<u16>,
    first_copy: Vec<u16>,
}

impl Symmetry {
    fn new(board: &Board, pieces: &[Piece], allow_leftover: bool) -> Result<Symmetry, SolveError> {
        // With pieces left over, the restricted piece might be one of them.
        if allow_leftover {
            return Err(SolveError::NoSymmetryPiece);
        }
        let group: Vec<(Vec<usize>, Vec<u16>)> = generate::board_symmetries(board)
            .into_iter()
            .filter_map(|s| {
                let map = generate::piece_map(board.grid, pieces, s.transform)?;
                Some((s.cell_map, map.into_iter().map(|p| p as u16).collect()))
            })
            .fold(Vec::new(), |mut g: Vec<(Vec<usize>, Vec<u16>)>, s| {
                // On thin boards two transforms can act alike (a row's half turn is
                // its mirror image): the group holds what acts, once.
                if !g.contains(&s) {
                    g.push(s);
                }
                g
            });
        let mut best: Option<(usize, Vec<Vec<usize>>)> = None;
        for (i, piece) in pieces.iter().enumerate() {
            if piece.count != 1 || group.iter().any(|(_, m)| m[i] as usize != i) {
                continue;
            }
            let mut placements: Vec<Vec<usize>> = Vec::new();
            for o in generate::orientations(board.grid, &piece.cells, piece.motion) {
                for anchor in 0..board.cells.len() {
                    if let Some(mut cells) = generate::cells_at(board, &o, anchor) {
                        cells.sort_unstable();
                        placements.push(cells);
                    }
                }
            }
            placements.sort();
            placements.dedup();
            let mut seen = std::collections::BTreeSet::new();
            let mut reps = Vec::new();
            for p in &placements {
                if seen.contains(p) {
                    continue;
                }
                reps.push(p.clone());
                for (cell_map, _) in &group {
                    let mut image: Vec<usize> = p.iter().map(|&c| cell_map[c]).collect();
                    image.sort_unstable();
                    seen.insert(image);
                }
            }
            // Fewest representatives: the strongest restriction at the root.
            if best.as_ref().is_none_or(|(_, r)| reps.len() < r.len()) {
                best = Some((i, reps));
            }
        }
        let Some((piece, representatives)) = best else {
            return Err(SolveError::NoSymmetryPiece);
        };
        let owner: Vec<u16> = pieces
            .iter()
            .enumerate()
            .flat_map(|(i, p)| std::iter::repeat_n(i as u16, p.count as usize))
            .collect();
        let first_copy: Vec<u16> = (0..pieces.len())
            .map(|i| pieces[..i].iter().map(|p| p.count as u16).sum())
            .collect();
        Ok(Symmetry {
            group,
            piece: first_copy[piece],
            representatives,
            owner,
            first_copy,
        })
    }

    /// The image of a copy-labelled tiling under symmetry `g`, its copies renumbered by
    /// their lowest cell.
    fn image(&self, g: usize, t: &Tiling) -> Tiling {
        let (cell_map, piece_map) = &self.group[g];
        let mut moved = vec![None; t.len()];
        for (c, &p) in t.iter().enumerate() {
            if cell_map[c] != usize::MAX {
                moved[cell_map[c]] = p;
            }
        }
        let mut next = self.first_copy.clone();
        let mut renamed: Vec<Option<u16>> = vec![None; self.owner.len()];
        moved
            .iter()
            .map(|&p| {
                let old = p? as usize;
                Some(*renamed[old].get_or_insert_with(|| {
                    let piece = piece_map[self.owner[old] as usize] as usize;
                    next[piece] += 1;
                    next[piece] - 1
                }))
            })
            .collect()
    }

    /// For a solution with the restricted piece on a representative: whether it is the
    /// least of its images under the symmetries that keep that placement (the only
    /// images the search can also find), and how many symmetries fix it.
    fn judge(&self, t: &Tiling) -> (bool, usize) {
        let mut fixing = 0;
        for (g, (cell_map, _)) in self.group.iter().enumerate() {
            let keeps_piece = t
                .iter()
                .enumerate()
                .all(|(c, &p)| p != Some(self.piece) || t[cell_map[c]] == Some(self.piece));
            if !keeps_piece {
                continue;
            }
            match self.image(g, t).cmp(t) {
                std::cmp::Ordering::Less => return (false, 0),
                std::cmp::Ordering::Equal => fixing += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        (true, fixing)
    }
}

/// One solve, before the lane width and slot count are fixed.
struct Run<'a> {
    /// Report one solution per class rather than every solution.
    distinct: bool,
    /// The group whose classes the search visits once each, when there is one.
    symmetry: Option<Symmetry>,
    tables: &'a Tables,
    owner: &'a [u16],
    copy_of_previous: u32,
    leftover: bool,
    limits: Limits,
    cells: usize,
}

impl Run<'_> {
    fn go<L: Lane + Sync, const K: usize>(&self, lanes: &Lanes<L>) -> Result<Found, SolveError> {
        let mut window: Window<L, K> =
            Window::new(self.tables, lanes).expect("slot count matches the dispatch");
        window.copy_of_previous = self.copy_of_previous;
        window.leftover = self.leftover;
        let window = &window;
        const TASK_DEPTH: usize = 2;
        let root = window.root();
        let tasks = window.frontier(root, &Path::new(), TASK_DEPTH);
        let limit = self.limits.limit;
        let run = |task: Task| {
            let (node, prefix) = &tasks[task.index];
            let mut path = prefix.clone();
            let mut c = Collector {
                window,
                run: self,
                limit,
                task,
                count: 0,
                orbits: Vec::new(),
                found: Vec::new(),
                nodes: 0,
            };
            if self.limits.stats {
                window.search(*node, &mut path, &mut Counting(&mut c));
            } else {
                window.search(*node, &mut path, &mut c);
            }
            (c.count, c.orbits, c.found, c.nodes)
        };
        let results = run_tasks(tasks.len(), self.limits.threads, limit, run, |r| r.0);
        let mut out = Found {
            count: 0,
            total: 0,
            group_order: self.symmetry.as_ref().map_or(1, |s| s.group.len()),
            solutions: Vec::new(),
            nodes: if self.limits.stats {
                window.nodes_above(root, TASK_DEPTH)
            } else {
                0
            },
            placements: self.tables.placement_count(),
        };
        for (count, orbits, found, nodes) in results.into_iter().flatten() {
            if out.count == limit {
                // Tasks past the limit may have run on other threads; their nodes are
                // left out so that the figure does not depend on the thread count.
                break;
            }
            out.nodes += nodes;
            // A task stops at the limit on its own, so only the last task taken can
            // hold more than is needed.
            let take = count.min(limit - out.count);
            out.count += take;
            out.total += if self.distinct {
                orbits[..take].iter().sum()
            } else {
                take
            };
            out.solutions.extend(found.into_iter().take(take));
        }
        Ok(out)
    }

    /// The board a search path draws, labelled by copy (search piece index).
    fn tiling<L: Lane, const K: usize>(&self, window: &Window<L, K>, path: &[Step]) -> Tiling {
        let mut t = vec![None; self.cells];
        for step in path {
            let base = step.offset as usize * window.shift as usize;
            let mut mask = window.step_mask(step);
            while mask != 0 {
                t[base + mask.trailing_zeros() as usize] = Some(u16::from(step.piece));
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
    /// Its task: the search stops once the task is abandoned.
    task: Task<'a>,
    count: usize,
    /// Distinct mode: the orbit size of each class counted, in order.
    orbits: Vec<usize>,
    found: Vec<Tiling>,
    nodes: u64,
}

impl<L: Lane, const K: usize> Visitor for Collector<'_, L, K> {
    #[inline(never)]
    fn solution(&mut self, path: &[Step]) -> bool {
        self.take(path) || self.task.abandoned()
    }
}

impl<L: Lane, const K: usize> Collector<'_, L, K> {
    /// Takes one solution; `true` once the task holds `limit`.
    fn take(&mut self, path: &[Step]) -> bool {
        let keep = self.run.limits.keep;
        // Solutions leave labelled by the caller's pieces.
        let owned = |t: Tiling| -> Tiling {
            t.into_iter()
                .map(|p| p.map(|c| self.run.owner[c as usize]))
                .collect()
        };
        let Some(symmetry) = &self.run.symmetry else {
            self.count += 1;
            if keep {
                self.found.push(owned(self.run.tiling(self.window, path)));
            }
            return self.count >= self.limit;
        };
        let t = self.run.tiling(self.window, path);
        let (least, fixing) = symmetry.judge(&t);
        if !least {
            return false;
        }
        let orbit = symmetry.group.len() / fixing;
        if self.run.distinct {
            self.count += 1;
            self.orbits.push(orbit);
            if keep {
                self.found.push(owned(t));
            }
        } else {
            self.count += orbit;
            if keep {
                let mut images: Vec<Tiling> = (0..symmetry.group.len())
                    .map(|g| symmetry.image(g, &t))
                    .collect();
                images.sort();
                images.dedup();
                debug_assert_eq!(images.len(), orbit);
                self.found.extend(images.into_iter().map(owned));
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

//! Solving any board and piece set: tables built at run time by the generator that
//! `build.rs` uses for the meteor, searched by the same core, run by the driver.
//!
//! This module owns the path from a [`Puzzle`] to solutions: checking the input,
//! expanding piece counts into interchangeable copies, transposing wide square and
//! triangle boards, the symmetry classes of solutions, choosing the lane width and slot
//! count the search is compiled for, and turning search paths back into tilings. It
//! knows nothing of files or output formats.
//!
//! ```
//! use polytile::{Board, Grid, Mode, Motion, Options, Piece, Puzzle, TilingSolver};
//!
//! // Dominoes a and b on a 2 x 2 square: four tilings (two ways to cut the square,
//! // two ways to place a and b), all of them rotations of one another.
//! let domino = |name: &str| Piece { name: name.into(), cells: vec![(0, 0, 0), (1, 0, 0)], motion: Motion::Free, count: 1 };
//! let puzzle = Puzzle::new("square", Board::rectangle(Grid::Square, 2, 2), vec![domino("a"), domino("b")]);
//! let all = TilingSolver::new(&puzzle, Mode::All).unwrap();
//! assert_eq!(all.count(&Options::default()).solutions, 4);
//! let distinct = TilingSolver::new(&puzzle, Mode::Distinct).unwrap();
//! let summary = distinct.count(&Options::default());
//! assert_eq!((summary.solutions, summary.total), (1, 4));
//! ```
//!
//! # Symmetry
//! The symmetries used are those of the board (rotations and reflections) that map the
//! piece set onto itself, reflections only when the pieces allow them (free pieces, or
//! one-sided sets closed under mirroring). One piece that every symmetry maps to itself
//! is restricted to one placement per orbit, so each class of solutions is searched
//! once or, for a placement fixed by some symmetries, a few times; of those, the search
//! keeps the least under those symmetries, and counts the class's size from the
//! symmetries that fix the solution. Nothing is deduplicated after the fact. In
//! [`Mode::All`] each class is then written out whole.
//!
//! The restricted piece is placed first, from the root (when each of its kept
//! placements lies in the first window), so the restriction divides the whole tree
//! rather than the subtrees below the node whose lowest free cell reaches the piece.
//! Which piece: the one with the fewest placements kept by the restriction and the
//! island pruning together, unless the tree is large,
//! where a Knuth estimate of the trees of the few candidates with the fewest decides
//! (the solid pentominoes' X, not their I).
//!
//! Below a first placement `r` that symmetries other than the identity fix (its
//! stabilizer `S`), a second piece that every symmetry maps to itself keeps one
//! placement per `S`-orbit, wherever the search places it: every solution with the
//! first piece on `r` has an image under `S` with the second piece on its orbit's
//! representative, so each class is still searched, about `|S|` times fewer times.
//! The search then keeps a solution when the second piece lies on a representative
//! and it is the least of its images under the symmetries that fix both placements.
//! A split search's memoised searches north of a split are shared by every node, so
//! they place the second piece anywhere: those solutions are dropped at the leaf.

use arrayvec::ArrayVec;
use std::ops::ControlFlow;
use std::sync::{Mutex, OnceLock};

use crate::count::{Counting, Memo, MemoOptions, MemoReport};
use crate::driver::{self, Mode, Options, Progress, Sink, Summary};
use crate::estimate::{self, Estimate, EstimateOptions, SplitWork};
use crate::grid::{self, normalise, Axes, Board, Grid, Piece, Point};
use crate::meet::plan::{self, SplitPlan};
use crate::meet::{self, Above, SplitMemory};
use crate::puzzle::Puzzle;
use crate::search::{self, Copies, Lane, Lanes, Leaves, Node, Step, Tiles, Window};
use crate::symmetry::{Group, NONE};
use crate::tables::generate::{self, MAX_PIECES};
use crate::tables::{Census, Tables, TablesError};
use crate::wide::Wide;

/// Pieces counting copies that a tiling can label (`u16` labels).
pub const MAX_COPIES: usize = u16::MAX as usize;

/// A solution: for each board cell (row-major), the index of the piece covering it in
/// the puzzle's piece list, or `None` for holes and cells left uncovered.
pub type Tiling = Vec<Option<u16>>;

/// Why a puzzle cannot be solved as given.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TilingError {
    /// The board's cell list does not match its box, or a planar board has layers.
    #[error("the board has {cells} cells listed for a {width} x {height} x {depth} box (planar grids have 1 layer)")]
    BoardShape {
        /// Cells listed.
        cells: usize,
        /// Its width.
        width: usize,
        /// Its height.
        height: usize,
        /// Its layers.
        depth: usize,
    },
    /// The board has no cells.
    #[error("the board has no cells")]
    EmptyBoard,
    /// [`Orienting::Axes`] names a map the search does not lay boards of this grid by.
    #[error("the axes {:?} are no way of laying a board of the {} grid (square and triangle: the identity or the transpose; hex: the identity; cubic: any permutation)", .axes.0, .grid.name())]
    BadAxes {
        /// The axes asked for.
        axes: Axes,
        /// The board's grid.
        grid: Grid,
    },
    /// A piece has no cells.
    #[error("piece '{0}' has no cells")]
    EmptyPiece(String),
    /// A piece lists a cell twice.
    #[error("piece '{0}' lists a cell twice")]
    RepeatedCell(String),
    /// A piece lists a lattice point that is no cell of the grid.
    #[error("piece '{name}' lists the point {point:?}, which is no cell of the {} grid", .grid.name())]
    NotACell {
        /// The piece.
        name: String,
        /// The point.
        point: crate::grid::Point,
        /// The board's grid.
        grid: Grid,
    },
    /// A piece has no copies.
    #[error("piece '{0}' has count 0; every piece needs at least one copy")]
    NoCopies(String),
    /// A piece larger than one search window.
    #[error("piece '{name}' has {cells} cells; a placement must fit the 64-cell search window")]
    PieceTooLarge {
        /// The piece.
        name: String,
        /// Its cells.
        cells: usize,
    },
    /// More different pieces than the search tracks.
    #[error("{0} different pieces; the search handles at most {MAX_PIECES} (the copies of one piece count once)")]
    TooManyPieces(usize),
    /// More copies than a tiling labels, or counts too large for the search's counter.
    #[error("{copies} pieces counting copies, whose counts need {bits} bits; the search handles at most {MAX_COPIES} copies, with counts in 64 bits (a piece with c > 1 copies needs the bits of c)")]
    TooManyCopies {
        /// Pieces counting copies.
        copies: u64,
        /// Bits the counts of pieces with more than one copy need.
        bits: u32,
    },
    /// The pieces cannot cover the board exactly (or, with leftovers, at all).
    #[error("the pieces cover {pieces} cells and the board has {board}{}", if *.leftover { "; with pieces left over they must cover at least the board" } else { "; they must be equal" })]
    Areas {
        /// Cells of all pieces, counting copies.
        pieces: usize,
        /// Board cells.
        board: usize,
        /// Whether pieces may be left over.
        leftover: bool,
    },
    /// The tables cannot be built.
    #[error(transparent)]
    Tables(#[from] TablesError),
    /// Counting with the memo was asked of a run it cannot count exactly.
    #[error("counting with the memo counts all solutions of the whole tree: {0}")]
    NotMemoCountable(&'static str),
    /// Split rows were given that the split search cannot use.
    #[error("cannot split the search before rows {rows:?}{}: {why}", if *.stated { " (the file's split: statement)" } else { "" })]
    Split {
        /// The rows given.
        rows: Vec<usize>,
        /// What is wrong.
        why: &'static str,
        /// Whether the puzzle file stated them ([`Splitting::Stated`]).
        stated: bool,
    },
    /// The file's `first:` statement names a piece the search cannot restrict by the
    /// board's symmetries.
    #[error("the piece placed first (the file's first: statement) cannot be {name}: {why}; expected a piece with one copy that every symmetry of the board maps to itself")]
    FirstPiece {
        /// The piece named.
        name: String,
        /// Why it cannot be.
        why: &'static str,
    },
    /// [`Mode::Distinct`] needs a piece that breaks the symmetry.
    #[error(
        "counting distinct solutions needs a piece with one copy that every symmetry of \
         the board maps to itself; none qualifies (use --all)"
    )]
    NoSymmetryPiece,
}

/// Calls the method `$f::<L, K>` of a solver with the lane type and slot count its
/// tables were built for, passing the lanes first.
macro_rules! on_lanes {
    ($solver:ident, $f:ident ( $($arg:expr),* )) => {
        on_lanes!(@ $solver, $f, ($($arg),*), 4 8 12 16 20 24 28 32)
    };
    (@ $solver:ident, $f:ident, $args:tt, $($k:literal)*) => {
        match ($solver.tables.layout.slots, &$solver.lanes) {
            $(($k, LaneTables::Narrow(l)) => on_lanes!(@call $solver, $f, u32, $k, l, $args),
              ($k, LaneTables::Wide(l)) => on_lanes!(@call $solver, $f, u64, $k, l, $args),)*
            (k, _) => unreachable!("the generator makes 4 to 32 slots, not {k}"),
        }
    };
    (@call $solver:ident, $f:ident, $lane:ty, $k:literal, $l:ident, ($($arg:expr),*)) => {
        $solver.$f::<$lane, $k>($l, $($arg),*)
    };
}

/// The fewest nodes (the split plan's estimate of the plain tree) for which a run
/// takes the eight-lane search: its lists take about half a millisecond to make on
/// the Soma cube, whose whole search of 6,469 nodes takes about as long (README,
/// Performance).
const WIDE_LEAST_NODES: f64 = 50_000.0;

/// A tiling puzzle made ready to solve: checked, its tables built.
///
/// Solving does not change it, so one solver can run any number of times, on any
/// number of threads.
pub struct TilingSolver {
    setup: Setup,
    mode: Mode,
    tables: Tables,
    lanes: LaneTables,
    splitting: Splitting,
    /// The measurement of [`Splitting::Auto`], made at its first use.
    plan: OnceLock<SplitPlan>,
    /// The most bytes the split search's memo may take (`--memo-mib`).
    memo_bytes: usize,
    /// What the split search's memo took in the last run that split.
    split_memory: Mutex<Option<SplitMemory>>,
    /// The restricted piece's placements, taken first from the root
    /// ([`search::first_steps`]).
    first: Vec<Step>,
    /// Per first step, the restriction of a second piece below it
    /// ([`Classes::restrict_second`]; `Window::first_restriction`).
    first_restriction: Vec<u16>,
    /// The slot blocks of those restrictions (`Window::restricted_slots`).
    restricted_slots: Vec<u32>,
    /// Whether runs may take the eight-lane search ([`TilingSolver::set_wide`]).
    wide_on: bool,
    /// Its lists, made at their first use; `None` where it does not serve.
    wide: OnceLock<Option<Wide>>,
}

/// Whether the search splits into a search south of a row and memoised searches north
/// of it (meet in the middle, shared by every node with the same overhang: the
/// meteor binary's search; see `src/meet/`). The solutions and their order are the
/// same either way; the nodes are fewer where it pays, and more where it does not
/// (README.md, "Splitting the search", has figures per file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Splitting {
    /// Rows chosen by measurement, or none where no split pays (the default): a
    /// sample of the tree and a few searches above estimate each candidate row
    /// ([`SplitPlan`]; `src/meet/plan.rs`). The measurement is made at the first run
    /// that needs it and counts nodes, not time, so every run and shard of a puzzle
    /// with the same memo bound ([`TilingSolver::set_memo_bound`]) chooses alike. A
    /// run with a limit searches plainly: it may need only a sliver of the tree,
    /// which the measurement could cost more than.
    #[default]
    Auto,
    /// The plain search.
    Off,
    /// Split before each of these rows of the board as searched (counted from 0, in
    /// increasing order, after any transposition): every cell of the rows before a
    /// split is filled when a node crosses it.
    Rows(Vec<usize>),
    /// The rows a puzzle file states (`split:`, see `docs/puzzle-format.md`): searched
    /// as [`Splitting::Auto`] searches the rows it measures (plainly under a limit),
    /// without measuring. A file states what `Auto` measured, so that runs and shards
    /// of a puzzle skip the measurement; `tests/it/split.rs` checks each shipped
    /// file's rows against it.
    Stated(Vec<usize>),
}

impl std::fmt::Display for Splitting {
    /// As `--split` and `split:` take it: `auto`, `off`, or the rows with commas.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Splitting::Auto => f.write_str("auto"),
            Splitting::Off => f.write_str("off"),
            Splitting::Rows(rows) | Splitting::Stated(rows) => {
                let rows: Vec<String> = rows.iter().map(usize::to_string).collect();
                f.write_str(&rows.join(","))
            }
        }
    }
}

impl std::str::FromStr for Splitting {
    type Err = String;

    /// `auto`, `off`, or rows separated by commas (`3,4,5,6`, spaces allowed around
    /// the commas), as `--split` and a puzzle file's `split:` take them; the error
    /// says what was expected.
    fn from_str(text: &str) -> Result<Splitting, String> {
        match text.trim() {
            "auto" => Ok(Splitting::Auto),
            "off" => Ok(Splitting::Off),
            rows => rows
                .split(',')
                .map(|r| {
                    let r = r.trim();
                    // Digits only: `parse` would take a leading `+`.
                    r.bytes()
                        .all(|b| b.is_ascii_digit())
                        .then(|| r.parse::<usize>().ok())
                        .flatten()
                })
                .collect::<Option<Vec<usize>>>()
                .map(Splitting::Rows)
                .ok_or_else(|| format!("expected auto, off or rows such as 3,4,5, got '{text}'")),
        }
    }
}

/// The tables' masks in the narrowest lanes they fit.
enum LaneTables {
    Narrow(Lanes<u32>),
    Wide(Lanes<u64>),
}

impl LaneTables {
    fn new(tables: &Tables) -> LaneTables {
        match Lanes::<u32>::new(tables) {
            Some(lanes) => LaneTables::Narrow(lanes),
            None => LaneTables::Wide(Lanes::new(tables).expect("u64 lanes hold any mask")),
        }
    }
}

/// Tables other than a solver's own (the unrestricted ones a memoised count searches),
/// with what a window over them needs.
struct Tabled<'a> {
    tables: &'a Tables,
    lanes: &'a LaneTables,
    setup: &'a Setup,
}

impl Tabled<'_> {
    /// [`plan::stratified_size`] of the tree as it is, with `paths` paths.
    fn plain_size<L: Lane + Sync, const K: usize>(&self, lanes: &Lanes<L>, paths: usize) -> f64 {
        let window = self.setup.window::<L, K>(self.tables, lanes);
        plan::stratified_size(&window, paths, &mut 0)
    }

    /// [`plan::stratified_size`] of the tree with each of `candidates` placed first
    /// (infinite for `None`).
    fn first_sizes<L: Lane + Sync, const K: usize>(
        &self,
        lanes: &Lanes<L>,
        candidates: &[Option<Vec<Step>>],
        paths: usize,
    ) -> Vec<f64> {
        candidates
            .iter()
            .map(|steps| {
                let Some(steps) = steps else {
                    return f64::INFINITY;
                };
                let mut window = self.setup.window::<L, K>(self.tables, lanes);
                window.first = steps;
                plan::stratified_size(&window, paths, &mut 0)
            })
            .collect()
    }

    fn count_with<L: Lane + Sync, const K: usize>(
        &self,
        lanes: &Lanes<L>,
        options: &Options,
        memo: &Memo,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        let window = self.setup.window::<L, K>(self.tables, lanes);
        let counting = Counting {
            window: &window,
            memo,
        };
        driver::run_observed(
            &counting,
            options,
            false,
            |()| ControlFlow::Continue(()),
            observe,
        )
    }
}

/// Everything about a puzzle that the tables are built from, as the search sees it.
pub(crate) struct Setup {
    /// The board as searched: transposed or reoriented when `reoriented`.
    pub board: Board,
    /// The puzzle's pieces as searched (mapped with the board when reoriented), each
    /// with its count: copies are one search piece.
    pub pieces: Vec<Piece>,
    /// Each piece's orientations on the board's grid ([`grid::orientations`]), found
    /// once for the symmetry classes and every table built.
    orients: Vec<Vec<Vec<Point>>>,
    /// How many copies each piece has, as the search counts them.
    copies: Copies,
    /// Copy labels of a tiling.
    labels: CopyLabels,
    leftover: bool,
    /// How the puzzle's board relates to the board searched, if they differ.
    reoriented: Option<Reoriented>,
    /// The orientations of a box on the cubic grid that were estimated, when there was
    /// more than one.
    orientations: Option<Orientations>,
    /// The symmetry classes, when the board has a usable symmetry.
    classes: Option<Classes>,
}

impl TilingSolver {
    /// Checks `puzzle` (cheap checks first) and builds its tables for `mode`, the
    /// board laid for the search as [`Orienting::Auto`] chooses, split as the
    /// puzzle's `split:` statement says ([`Puzzle::split`]; [`Splitting::Auto`]
    /// without one).
    pub fn new(puzzle: &Puzzle, mode: Mode) -> Result<TilingSolver, TilingError> {
        TilingSolver::oriented(puzzle, mode, Orienting::Auto)
    }

    /// [`TilingSolver::new`] with the board laid as `orienting` says. The solutions
    /// and counts are the same every way (on the puzzle's own board); their order and
    /// the nodes are not. The rows of a `split:` statement are rows of the board laid
    /// as [`Orienting::Auto`] lays it, so laid another way the search splits as
    /// [`Splitting::Auto`] measures.
    pub fn oriented(
        puzzle: &Puzzle,
        mode: Mode,
        orienting: Orienting,
    ) -> Result<TilingSolver, TilingError> {
        let mut setup = Setup::new(puzzle, mode, orienting)?;
        let (tables, _) = setup.run_tables()?;
        let lanes = LaneTables::new(&tables);
        let first = search::first_steps(&tables);
        let (first_restriction, restricted_slots) = match &mut setup.classes {
            Some(classes) => {
                classes.restrict_second(&tables, &first, (&setup.board, &setup.orients))
            }
            None => (Vec::new(), Vec::new()),
        };
        let mut solver = TilingSolver {
            setup,
            mode,
            first,
            first_restriction,
            restricted_slots,
            tables,
            lanes,
            splitting: Splitting::Auto,
            plan: OnceLock::new(),
            memo_bytes: MemoOptions::default().max_bytes,
            split_memory: Mutex::new(None),
            wide_on: true,
            wide: OnceLock::new(),
        };
        if orienting == Orienting::Auto {
            solver.set_splitting(puzzle.split.clone())?;
        }
        Ok(solver)
    }

    /// Bounds the memory of the split search's memo (its arena of completions; one GiB
    /// unless set): past it, overhangs met later are searched on without the memo,
    /// exact but slower. The split plan measures within it too, so a plan made under
    /// another bound is dropped. [`TilingSolver::count_memoised`] takes its bound as
    /// an argument.
    pub fn set_memo_bound(&mut self, options: &MemoOptions) {
        if self.memo_bytes != options.max_bytes {
            self.plan = OnceLock::new();
        }
        self.memo_bytes = options.max_bytes;
    }

    /// Sets whether a run that does not split may take the eight-lane search
    /// (`crate::wide`; on unless set): the plain search's nodes, solutions and order,
    /// with the placements tested eight at a time. It serves boards with the pocket
    /// check (the cubic grid) whose pieces have one copy each and fill the board, on
    /// a CPU with AVX-512; elsewhere the plain search runs either way.
    pub fn set_wide(&mut self, on: bool) {
        self.wide_on = on;
    }

    /// Whether a run that does not split takes the eight-lane search
    /// ([`TilingSolver::set_wide`]): not where the split plan's measurement found a
    /// tree too small to pay for its lists.
    pub fn wide(&self) -> bool {
        self.wide_wanted() && on_lanes!(self, wide_lists()).is_some()
    }

    /// Whether the eight-lane search is on and the tree, if measured, pays for its
    /// lists ([`WIDE_LEAST_NODES`]).
    fn wide_wanted(&self) -> bool {
        self.wide_on
            && self
                .plan
                .get()
                .is_none_or(|plan| plan.plain >= WIDE_LEAST_NODES)
    }

    /// The eight-lane search's lists over this solver's window, if it serves it.
    fn wide_lists<L: Lane, const K: usize>(&self, lanes: &Lanes<L>) -> Option<&Wide> {
        self.wide
            .get_or_init(|| Wide::new(&self.window::<L, K>(lanes)))
            .as_ref()
    }

    /// What the split search's memo took in the last run that split, if one did.
    pub fn split_memory(&self) -> Option<SplitMemory> {
        *self.split_memory.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets whether and where the search splits (see [`Splitting`]), in place of the
    /// puzzle's `split:` statement if it has one; given rows are checked against what
    /// the split search serves: fewer than 32 different pieces, rows inside the board
    /// whose overhang fits.
    pub fn set_splitting(&mut self, splitting: Splitting) -> Result<(), TilingError> {
        if let Splitting::Rows(rows) | Splitting::Stated(rows) = &splitting {
            let why = on_lanes!(self, split_refusal(rows));
            if let Some(why) = why {
                return Err(TilingError::Split {
                    rows: rows.clone(),
                    why,
                    stated: matches!(splitting, Splitting::Stated(_)),
                });
            }
        }
        self.splitting = splitting;
        Ok(())
    }

    /// Whether and where the search splits: the puzzle's `split:` statement, or what
    /// [`TilingSolver::set_splitting`] set.
    pub fn splitting(&self) -> &Splitting {
        &self.splitting
    }

    /// The piece the search restricts by the board's symmetries and places first (its
    /// index in the puzzle), and whether the puzzle stated it (`first:`); `None` when
    /// no piece is restricted.
    pub fn first_piece(&self) -> Option<(usize, bool)> {
        let classes = self.setup.classes.as_ref()?;
        Some((classes.restricted().0, classes.stated))
    }

    /// The puzzle's `(width, height)` when its square or triangle board is searched
    /// transposed (along its short side): the search's rows, which `--split` and
    /// `split:` count, are then the puzzle's columns.
    pub fn transposed(&self) -> Option<(usize, usize)> {
        self.setup.transposed()
    }

    /// How a box on the cubic grid was laid for the search, when there was a choice:
    /// each candidate's estimated tree and the one chosen.
    pub fn orientations(&self) -> Option<&Orientations> {
        self.setup.orientations()
    }

    /// The rows a run without a limit splits before, of the board as searched (empty:
    /// the plain search); with [`Splitting::Auto`], measured first if no run has.
    pub fn split_rows(&self) -> &[usize] {
        match &self.splitting {
            Splitting::Off => &[],
            Splitting::Rows(rows) | Splitting::Stated(rows) => rows,
            Splitting::Auto => &self.split_plan().expect("auto").rows,
        }
    }

    /// The rows a run with `options` splits before: none under [`Splitting::Auto`]
    /// and [`Splitting::Stated`] when a limit is set.
    pub fn split_rows_for(&self, options: &Options) -> &[usize] {
        match (&self.splitting, options.limit) {
            (Splitting::Auto | Splitting::Stated(_), Some(_)) => &[],
            _ => self.split_rows(),
        }
    }

    /// What the measurement of [`Splitting::Auto`] found (made now if no run has made
    /// it); `None` under the other settings.
    pub fn split_plan(&self) -> Option<&SplitPlan> {
        (self.splitting == Splitting::Auto).then(|| self.measured_plan())
    }

    /// The measurement [`Splitting::Auto`] makes, made now if no run has made it.
    fn measured_plan(&self) -> &SplitPlan {
        self.plan.get_or_init(|| on_lanes!(self, plan_with()))
    }

    fn plan_with<L: Lane + Sync, const K: usize>(&self, lanes: &Lanes<L>) -> SplitPlan {
        meet::plan::plan(&self.window::<L, K>(lanes), self.memo_bytes)
    }

    /// Placements in the tables after pruning.
    pub fn placements(&self) -> usize {
        self.tables.placement_count()
    }

    /// The order of the symmetry group whose classes the search visits: 1 when the
    /// board has no symmetry the pieces allow (and in [`Mode::All`], the search then
    /// visits every solution).
    pub fn symmetries(&self) -> usize {
        self.setup.classes.as_ref().map_or(1, |c| c.group.order())
    }

    /// Counts the solutions, without making them.
    pub fn count(&self, options: &Options) -> Summary {
        self.run(options, false, |_| ControlFlow::Continue(()), &mut |_| {})
    }

    /// Hands each solution to `each`, in search order, on the calling thread, as the
    /// search's tasks finish; `Break` from `each` stops the search. In
    /// [`Mode::Distinct`] each solution stands for a class.
    pub fn for_each(
        &self,
        options: &Options,
        each: impl FnMut(Tiling) -> ControlFlow<()>,
    ) -> Summary {
        self.run(options, true, each, &mut |_| {})
    }

    /// [`TilingSolver::count`], telling `observe` where the run stands after each
    /// task, on the calling thread (for progress displays and checkpoints).
    pub fn count_observed(&self, options: &Options, observe: &mut dyn FnMut(&Progress)) -> Summary {
        self.run(options, false, |_| ControlFlow::Continue(()), observe)
    }

    /// [`TilingSolver::for_each`], telling `observe` where the run stands after each
    /// task, once the task's solutions are handed over.
    pub fn for_each_observed(
        &self,
        options: &Options,
        each: impl FnMut(Tiling) -> ControlFlow<()>,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        self.run(options, true, each, observe)
    }

    fn run(
        &self,
        options: &Options,
        keep: bool,
        mut each: impl FnMut(Tiling) -> ControlFlow<()>,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        let deliver = |t: Tiling| each(self.setup.as_drawn(t));
        on_lanes!(self, go(options, keep, deliver, observe))
    }

    /// Whether [`TilingSolver::count_memoised`] is the better way to count: in
    /// [`Mode::All`] when some piece has more than one copy, since copies make states
    /// meet often. With every piece one of a kind, the lookups measured costlier than
    /// the nodes they save (README.md, "Counting without listing").
    pub fn memo_pays(&self) -> bool {
        self.mode == Mode::All && self.setup.copies.any()
    }

    /// Whether a count with `options` uses the memo: `Some(on)` as the caller says (an
    /// error when [`TilingSolver::count_memoised`] would refuse), `None` to choose:
    /// where it pays ([`TilingSolver::memo_pays`]) and would not refuse.
    pub fn memo_wanted(&self, on: Option<bool>, options: &Options) -> Result<bool, TilingError> {
        match on {
            Some(true) => self.memo_refusal(options).map_or(Ok(true), Err),
            Some(false) => Ok(false),
            None => Ok(self.memo_pays() && self.memo_refusal(options).is_none()),
        }
    }

    /// Why [`TilingSolver::count_memoised`] refuses to count with `options`, if it does.
    pub fn memo_refusal(&self, options: &Options) -> Option<TilingError> {
        if self.mode == Mode::Distinct {
            return Some(TilingError::NotMemoCountable(
                "a distinct class depends on each whole solution's images, not on one state's completions",
            ));
        }
        options
            .limit
            .is_some()
            .then_some(TilingError::NotMemoCountable("it takes no limit"))
    }

    /// Counts every solution with a memo of completions per search state (see
    /// [`crate::count`]), telling `observe` where the run stands after each task: the
    /// count of [`TilingSolver::count`], from far fewer nodes when states repeat. An
    /// error in [`Mode::Distinct`] or with a limit ([`TilingSolver::memo_refusal`]). A
    /// count past 64 bits stays at `u64::MAX` ([`Summary::overflowed`]).
    pub fn count_memoised(
        &self,
        options: &Options,
        memo: &MemoOptions,
        observe: &mut dyn FnMut(&Progress),
    ) -> Result<(Summary, MemoReport), TilingError> {
        if let Some(e) = self.memo_refusal(options) {
            return Err(e);
        }
        // Symmetry classes restrict a piece's placements; the memo counts the
        // unrestricted tree.
        let unrestricted;
        let tables = if self.setup.classes.is_some() {
            let tables = self.setup.tables(true, false)?.0;
            let lanes = LaneTables::new(&tables);
            unrestricted = (tables, lanes);
            Tabled {
                tables: &unrestricted.0,
                lanes: &unrestricted.1,
                setup: &self.setup,
            }
        } else {
            Tabled {
                tables: &self.tables,
                lanes: &self.lanes,
                setup: &self.setup,
            }
        };
        let memo = Memo::new(memo);
        let summary = on_lanes!(tables, count_with(options, &memo, observe));
        Ok((summary, memo.report()))
    }

    /// Knuth's estimate of the plain search (`Splitting::Off`) of
    /// [`TilingSolver::count`]: its nodes and solutions, with their spread, and the node
    /// rate (see [`crate::estimate`]); under [`Splitting::Auto`] also the rows the
    /// split chooses and its estimated work (`Estimate::split`). The solutions are the
    /// same either way.
    pub fn estimate(&self, options: &EstimateOptions) -> Estimate {
        on_lanes!(self, estimate_with(options))
    }

    /// The first `steps` moves of the search (a piece placed, or the last one taken
    /// back), in search order, ending early on the first solution: the tree walked from
    /// the root with the search's own child order, outside its hot loop. Pieces and
    /// cells are the puzzle's (untransposed); with a symmetry restriction the walk is
    /// that of the restricted tables, as a run searches them.
    pub fn trace(&self, steps: usize) -> Trace {
        on_lanes!(self, trace_with(steps))
    }

    fn trace_with<L: Lane + Sync, const K: usize>(&self, lanes: &Lanes<L>, steps: usize) -> Trace {
        trace(&self.window::<L, K>(lanes), &self.setup, steps)
    }

    /// [`crate::estimate::exhaust`] of the search [`TilingSolver::count`] runs.
    #[cfg(test)]
    pub(crate) fn exhaust(&self) -> (u64, u64, u64) {
        on_lanes!(self, exhaust_with())
    }

    #[cfg(test)]
    fn exhaust_with<L: Lane + Sync, const K: usize>(&self, lanes: &Lanes<L>) -> (u64, u64, u64) {
        let window = self.window::<L, K>(lanes);
        estimate::exhaust(&self.tiles(&window))
    }

    /// The window over this solver's tables, with `K` slots a group.
    fn window<'a, L: Lane, const K: usize>(&'a self, lanes: &'a Lanes<L>) -> Window<'a, L, K> {
        let mut window = self.setup.window(&self.tables, lanes);
        window.first = &self.first;
        window.first_restriction = &self.first_restriction;
        window.restricted_slots = &self.restricted_slots;
        window
    }

    /// The search of `window`, its solutions made into tilings.
    fn tiles<'a, L, const K: usize>(
        &'a self,
        window: &'a Window<'a, L, K>,
    ) -> Tiles<'a, L, K, Tilings<'a>> {
        Tiles {
            window,
            above: None,
            wide: None,
            leaves: Tilings {
                setup: &self.setup,
                distinct: self.mode == Mode::Distinct,
                cells: self.setup.board.cells.len(),
                fixed: self
                    .setup
                    .classes
                    .as_ref()
                    .map_or((0, Vec::new()), Classes::fixed_representatives),
            },
        }
    }

    fn go<L: Lane + Sync, const K: usize>(
        &self,
        lanes: &Lanes<L>,
        options: &Options,
        keep: bool,
        deliver: impl FnMut(Tiling) -> ControlFlow<()>,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        let window = self.window::<L, K>(lanes);
        let cells = split_cells(&window, self.split_rows_for(options));
        // Checked by `set_splitting`, or chosen among rows that qualify.
        let above = (!cells.is_empty())
            .then(|| Above::with_bytes(&window, &cells, self.memo_bytes))
            .flatten();
        let mut tiles = self.tiles(&window);
        tiles.above = above.as_ref();
        if self.wide_wanted() {
            tiles.wide = self.wide_lists::<L, K>(lanes);
        }
        let summary = driver::run_observed(&tiles, options, keep, deliver, observe);
        if let Some(above) = &above {
            *self.split_memory.lock().unwrap_or_else(|e| e.into_inner()) = Some(above.memory());
        }
        summary
    }

    /// Why the split search cannot split before `rows`, if it cannot.
    fn split_refusal<L: Lane + Sync, const K: usize>(
        &self,
        lanes: &Lanes<L>,
        rows: &[usize],
    ) -> Option<&'static str> {
        let window = self.window::<L, K>(lanes);
        if !meet::qualifies(&window) {
            return Some("the split search serves at most 31 different pieces");
        }
        let cells = split_cells(&window, rows);
        if rows.is_empty() {
            return Some("no rows given");
        }
        if !rows_in_order(rows) {
            return Some("rows must increase, from row 1 on");
        }
        if cells[cells.len() - 1] >= window.cells() {
            return Some("a row is past the board's last");
        }
        (!Above::serves(&window, &cells)).then_some(
            "a row's overhang is too wide (at most 48 cells, in one window with the row: those a placement south of it can reach, and those of the piece placed first)",
        )
    }

    fn estimate_with<L: Lane + Sync, const K: usize>(
        &self,
        lanes: &Lanes<L>,
        options: &EstimateOptions,
    ) -> Estimate {
        let window = self.window::<L, K>(lanes);
        let mut estimate = estimate::estimate(&self.tiles(&window), options);
        // Stated rows are what the measurement chose when the file was written: their
        // work is measured as `Auto`'s is, and reported when the rows still agree.
        let plan = match &self.splitting {
            Splitting::Auto => Some(self.measured_plan()),
            Splitting::Stated(rows) => Some(self.measured_plan()).filter(|p| &p.rows == rows),
            Splitting::Off | Splitting::Rows(_) => None,
        };
        estimate.split = plan.and_then(|plan| {
            Some(SplitWork {
                rows: plan.rows.clone(),
                work: plan.chosen()?.cost()?,
            })
        });
        estimate
    }
}

/// Whether split rows are in the order the split search takes them: increasing, from
/// row 1 on (row 0 has nothing south of it). `--split` and a file's `split:` share it.
pub(crate) fn rows_in_order(rows: &[usize]) -> bool {
    rows.first().is_some_and(|&r| r > 0) && rows.windows(2).all(|w| w[0] < w[1])
}

/// The first cell of each of `rows` of `window`'s board: the cells the split search
/// splits before.
fn split_cells<L: Lane, const K: usize>(window: &Window<L, K>, rows: &[usize]) -> Vec<usize> {
    rows.iter()
        .map(|r| r.saturating_mul(window.width()))
        .collect()
}

/// One move of the search, as [`TilingSolver::trace`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// A piece (the puzzle's index) placed on these board cells (row-major, increasing).
    Place {
        /// The piece.
        piece: u16,
        /// Its cells.
        cells: Vec<usize>,
    },
    /// The last piece placed and not yet taken back is taken back.
    Undo,
}

/// The start of a search, move by move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Whether the pieces placed and not taken back at the end are a solution.
    pub solved: bool,
}

/// The first `steps` moves of the search of `window`, or fewer up to its first
/// solution (see [`TilingSolver::trace`]).
fn trace<L: Lane, const K: usize>(window: &Window<'_, L, K>, setup: &Setup, steps: usize) -> Trace {
    let mut trace = Trace {
        moves: Vec::new(),
        solved: false,
    };
    let puzzle_cells = setup.puzzle_cells();
    let place = |step: &Step| {
        let mut cells: Vec<usize> = window.step_cells(step).map(|c| puzzle_cells[c]).collect();
        cells.sort_unstable();
        Move::Place {
            piece: u16::from(step.piece),
            cells,
        }
    };
    // Depth first in the search's child order; `Break` ends the walk.
    fn walk<L: Lane, const K: usize>(
        window: &Window<'_, L, K>,
        node: Node,
        steps: usize,
        trace: &mut Trace,
        place: &dyn Fn(&Step) -> Move,
    ) -> ControlFlow<()> {
        if window.is_leaf(node) {
            trace.solved = true;
            return ControlFlow::Break(());
        }
        window.for_each_child(node, |step, child| {
            if trace.moves.len() >= steps {
                return ControlFlow::Break(());
            }
            trace.moves.push(place(&step));
            walk(window, child, steps, trace, place)?;
            if trace.moves.len() >= steps {
                return ControlFlow::Break(());
            }
            trace.moves.push(Move::Undo);
            ControlFlow::Continue(())
        })
    }
    let _ = walk(window, window.root(), steps, &mut trace, &place);
    trace
}

impl Setup {
    /// Checks the puzzle and prepares what its tables are built from.
    pub(crate) fn new(
        puzzle: &Puzzle,
        mode: Mode,
        orienting: Orienting,
    ) -> Result<Setup, TilingError> {
        check(puzzle)?;
        let board = &puzzle.board;
        // A planar board is solved transposed (reflected about the lattice line x = y)
        // when that makes it narrower: the search fills rows, and short rows keep the
        // open frontier small (measured in README.md on the 6 x 10 pentominoes) and let
        // the 64-bit window hold more of them. Hex boards keep their offset rows as
        // drawn. A box on the cubic grid may be searched along any three of its
        // edges; no rule of thumb picks them (`Orientations`), so each is estimated.
        // Pieces that may not reflect are reflected with the board.
        let mut setup = match (board.grid, orienting) {
            (grid, Orienting::Axes(axes)) => {
                let allowed = match grid {
                    Grid::Square | Grid::Triangle => [Axes::SAME, Axes::TRANSPOSE].contains(&axes),
                    Grid::Hex => axes == Axes::SAME,
                    Grid::Cubic => Axes::ALL.contains(&axes),
                };
                if !allowed {
                    return Err(TilingError::BadAxes { axes, grid });
                }
                Setup::bare(puzzle, axes)
            }
            (Grid::Square | Grid::Triangle, Orienting::Auto) => {
                let narrower = board.mapped(Axes::TRANSPOSE).0.width < board.width;
                Setup::bare(
                    puzzle,
                    if narrower {
                        Axes::TRANSPOSE
                    } else {
                        Axes::SAME
                    },
                )
            }
            (Grid::Hex, Orienting::Auto) => Setup::bare(puzzle, Axes::SAME),
            (Grid::Cubic, Orienting::Auto) => Orientations::choose(puzzle),
        };
        if setup.board.width * crate::tables::SHIFT_ROWS > 64 {
            return Err(TablesError::BadWidth(setup.board.width).into());
        }
        // Search one solution per class of the symmetry group; in all mode each class
        // then stands for its whole orbit. Without a usable symmetry, distinct counting
        // fails and counting all searches everything.
        let classes = Classes::new(
            &setup.board,
            &setup.pieces,
            &setup.orients,
            puzzle.allow_leftover,
            puzzle.first,
        );
        setup.classes = match classes {
            Ok(c) if mode == Mode::Distinct || c.group.order() > 1 => Some(c),
            Ok(_) => None,
            Err(e @ TilingError::FirstPiece { .. }) => return Err(e),
            Err(e) if mode == Mode::Distinct => return Err(e),
            Err(_) => None,
        };
        Ok(setup)
    }

    /// The puzzle with its board and pieces mapped by `axes` (a symmetry of the lattice),
    /// without symmetry classes.
    fn bare(puzzle: &Puzzle, axes: Axes) -> Setup {
        let (board, pieces, reoriented) = if axes == Axes::SAME {
            (puzzle.board.clone(), puzzle.pieces.clone(), None)
        } else {
            let (board, from) = puzzle.board.mapped(axes);
            let pieces = puzzle
                .pieces
                .iter()
                .map(|p| Piece {
                    cells: normalise(
                        board.grid,
                        &p.cells.iter().map(|&q| axes.apply(q)).collect::<Vec<_>>(),
                    ),
                    ..p.clone()
                })
                .collect();
            let reoriented = Reoriented {
                width: puzzle.board.width,
                height: puzzle.board.height,
                depth: puzzle.board.depth,
                from,
            };
            (board, pieces, Some(reoriented))
        };
        // Copies of a piece are one search piece, placed as often as it has copies;
        // their labels in a tiling are numbered in the order the search places them.
        let counts: Vec<u32> = pieces.iter().map(|p| p.count).collect();
        let copies = Copies::new(&counts).expect("check() bounds the counts");
        let labels = CopyLabels::new(&pieces);
        let orients = pieces
            .iter()
            .map(|p| grid::orientations(board.grid, &p.cells, p.motion))
            .collect();
        Setup {
            board,
            pieces,
            orients,
            copies,
            labels,
            leftover: puzzle.allow_leftover,
            reoriented,
            orientations: None,
            classes: None,
        }
    }

    /// The tables a run searches (pruned, restricted), with the piece the symmetry
    /// restricts and places first chosen ([`search::first_steps`]). With several
    /// candidates, the one with the fewest representatives that the pruning keeps (those
    /// it drops are in no solution, so they do not make the root wider), unless its tree
    /// is large: then the one whose tree is smallest with it placed first, by a Knuth
    /// estimate of each (on the unrestricted tables, where every candidate's
    /// representatives are placements). The fewest representatives is a poor guide on
    /// large trees: on the solid pentominoes the I has 4 and the X 11, and the tree with
    /// the X first is a quarter of the one with the I first.
    pub(crate) fn run_tables(&mut self) -> Result<(Tables, Census), TablesError> {
        let placed = self.placed(true)?;
        let Some(classes) = &mut self.classes else {
            return Ok(placed.finish(&self.board));
        };
        if !classes.stated {
            let kept = |(piece, reps): &(usize, Representatives)| {
                matches!(reps, Representatives::Listed(_))
                    .then(|| placed.kept(*piece, |cells| reps.holds(cells)))
            };
            // On a tie, the first in the solver's order: the fewest representatives.
            let counts: Vec<Option<usize>> = classes.candidates.iter().map(kept).collect();
            classes.chosen = (0..counts.len())
                .filter(|&k| counts[k].is_some())
                .min_by_key(|&k| counts[k])
                .unwrap_or(0);
        }
        let (tables, census) = placed.restrict(classes.restricted()).finish(&self.board);
        let first = search::first_steps(&tables);
        let chosen = classes.chosen;
        if classes.stated || classes.candidates.len() < 2 || first.is_empty() {
            return Ok((tables, census));
        }
        let lanes = LaneTables::new(&tables);
        let own = Tabled {
            tables: &tables,
            lanes: &lanes,
            setup: self,
        };
        let size = on_lanes!(own, first_sizes(&[Some(first)], FIRST_PATHS))[0];
        if size < FIRST_LARGE {
            return Ok((tables, census));
        }
        let (all, _) = self.tables(true, false)?;
        let lanes = LaneTables::new(&all);
        let classes = self.classes.as_ref().expect("classes, checked above");
        let steps: Vec<Option<Vec<Step>>> = classes
            .candidates
            .iter()
            .take(FIRST_CANDIDATES)
            .map(|(piece, reps)| {
                // Those the tables pruned are left out: no solution has them.
                search::root_steps(&all, *piece, |cells| reps.holds(cells))
            })
            .collect();
        let tabled = Tabled {
            tables: &all,
            lanes: &lanes,
            setup: self,
        };
        // Knuth's estimate is heavy-tailed: telling trees apart within a factor of two
        // takes thousands of paths, affordable in proportion to the tree.
        let paths = ((size / FIRST_NODES_PER_PATH) as usize).clamp(FIRST_PATHS, FIRST_MOST_PATHS);
        let sizes = on_lanes!(tabled, first_sizes(&steps, paths));
        let best = (0..sizes.len()).fold(
            chosen,
            |best, c| {
                if sizes[c] < sizes[best] {
                    c
                } else {
                    best
                }
            },
        );
        if best == chosen {
            return Ok((tables, census));
        }
        if let Some(classes) = &mut self.classes {
            classes.chosen = best;
        }
        self.tables(true, true)
    }

    /// The tables a run searches: pruned or not, with the symmetry restriction or not.
    pub(crate) fn tables(
        &self,
        prune: bool,
        restricted: bool,
    ) -> Result<(Tables, Census), TablesError> {
        let mut placed = self.placed(prune)?;
        if let Some(classes) = self.classes.as_ref().filter(|_| restricted) {
            placed = placed.restrict(classes.restricted());
        }
        Ok(placed.finish(&self.board))
    }

    /// Every placement of the puzzle's pieces, pruned or not, unrestricted.
    fn placed(&self, prune: bool) -> Result<generate::Placed, TablesError> {
        generate::place(&self.board, &self.pieces, self.orients.clone(), prune)
    }

    /// A window over `tables` (built from this setup) with `K` slots a group: the
    /// copies and leftover rule of the puzzle.
    fn window<'a, L: Lane, const K: usize>(
        &'a self,
        tables: &'a Tables,
        lanes: &'a Lanes<L>,
    ) -> Window<'a, L, K> {
        let mut window: Window<L, K> =
            Window::new(tables, lanes).expect("slot count matches the dispatch");
        window.copies = &self.copies;
        window.leftover = self.leftover;
        window
    }

    /// The puzzle's `(width, height)` when its planar board is searched transposed.
    pub(crate) fn transposed(&self) -> Option<(usize, usize)> {
        self.reoriented
            .as_ref()
            .filter(|_| self.board.grid.is_planar())
            .map(|t| (t.width, t.height))
    }

    /// The puzzle's `(width, height, depth)` when its box on the cubic grid is searched
    /// along other edges.
    pub(crate) fn reoriented_box(&self) -> Option<(usize, usize, usize)> {
        self.reoriented
            .as_ref()
            .filter(|_| !self.board.grid.is_planar())
            .map(|t| (t.width, t.height, t.depth))
    }

    /// The orientations estimated, if there was a choice.
    pub(crate) fn orientations(&self) -> Option<&Orientations> {
        self.orientations.as_ref()
    }

    /// Knuth's estimate of the plain tree (pruned tables, no symmetry restriction)
    /// with `paths` random paths; `None` when this setup's tables cannot be built (a
    /// row too wide for the window among them).
    fn plain_size(&self, paths: usize) -> Option<f64> {
        let (tables, _) = self.tables(true, false).ok()?;
        let lanes = LaneTables::new(&tables);
        let tabled = Tabled {
            tables: &tables,
            lanes: &lanes,
            setup: self,
        };
        Some(on_lanes!(tabled, plain_size(paths)))
    }

    /// The second piece restricted below the first placements of `tables` that
    /// symmetries fix ([`Classes::restrict_second`]), below how many, and how many
    /// first placements there are; `None` when below none.
    pub(crate) fn second_piece(&mut self, tables: &Tables) -> Option<(usize, usize, usize)> {
        let classes = self.classes.as_mut()?;
        let first = search::first_steps(tables);
        let (per_first, _) = classes.restrict_second(tables, &first, (&self.board, &self.orients));
        let second = classes.seconds.first()?;
        let piece = usize::from(classes.labels.owner[usize::from(second.label)]);
        let below = per_first.iter().filter(|&&k| k > 0).count();
        Some((piece, below, first.len()))
    }

    /// The order of the group the restricted piece breaks, if any.
    pub(crate) fn symmetries(&self) -> Option<usize> {
        self.classes.as_ref().map(|c| c.group.order())
    }

    /// For each cell of the board as searched, the puzzle's cell (row-major on its own
    /// board) it is; holes may map anywhere. Read off [`Setup::as_drawn`], so it
    /// holds for any way the board is reoriented: cells are labelled by their index
    /// in two passes of 16 bits, as a tiling's labels are `u16`.
    fn puzzle_cells(&self) -> Vec<usize> {
        let cells = self.board.cells.len();
        let pass = |part: fn(usize) -> u16| -> Tiling {
            self.as_drawn((0..cells).map(|c| Some(part(c))).collect())
        };
        let (low, high) = (pass(|c| c as u16), pass(|c| (c >> 16) as u16));
        let mut map = vec![0; cells];
        for (p, (l, h)) in low.into_iter().zip(high).enumerate() {
            if let (Some(l), Some(h)) = (l, h) {
                map[usize::from(h) << 16 | usize::from(l)] = p;
            }
        }
        map
    }

    /// A tiling of the board as searched, in the puzzle's own orientation.
    fn as_drawn(&self, t: Tiling) -> Tiling {
        let Some(reoriented) = &self.reoriented else {
            return t;
        };
        let mut out = vec![None; reoriented.width * reoriented.height * reoriented.depth];
        for (&cell, &from) in t.iter().zip(&reoriented.from) {
            if from != NONE {
                out[from as usize] = cell;
            }
        }
        out
    }
}

/// A puzzle's board searched mapped by a symmetry of its lattice: transposed (planar
/// grids) or along other edges of its box (the cubic grid).
struct Reoriented {
    /// The puzzle's board width.
    width: usize,
    /// Its height.
    height: usize,
    /// Its depth.
    depth: usize,
    /// For each cell of the board searched, the puzzle's cell it is; `NONE` for holes.
    from: Vec<u32>,
}

/// Which way the search lays a puzzle's board: which lattice directions are its
/// columns, rows and layers. Solutions are given on the puzzle's own board either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orienting {
    /// Square and triangle boards transposed when that makes them narrower; hex boards
    /// as drawn; boxes on the cubic grid the way whose tree is estimated smallest
    /// ([`Orientations`]).
    #[default]
    Auto,
    /// The board mapped by these axes (a symmetry of the lattice; the pieces are mapped
    /// with it): the identity or [`Axes::TRANSPOSE`] on square and triangle boards, the
    /// identity on hex boards, any of [`Axes::ALL`] on the cubic grid.
    Axes(Axes),
}

/// The ways of laying a box on the cubic grid along the search's columns, rows and
/// layers, and the one chosen. The search fills the lowest free cell in cell order, and
/// the size of its tree depends on which edges of the box are its columns and layers,
/// by up to 300 times with no rule of thumb that holds (README.md, "Which way a box is
/// searched"): so each distinct way is built and its tree estimated (Knuth's estimate,
/// [`ORIENT_PATHS`] seeded paths: every run and shard chooses alike), and the smallest
/// is searched. Ways that give the same box are one (a cube has one way).
#[derive(Clone, Debug, PartialEq)]
pub struct Orientations {
    /// The candidates, the box as drawn first.
    pub candidates: Vec<Orientation>,
    /// The index of the one searched.
    pub chosen: usize,
}

/// One way of laying a box for the search ([`Orientations`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Orientation {
    /// The box as searched: columns, rows, layers.
    pub size: (usize, usize, usize),
    /// Whether it was measured: the box as drawn always is, the others unless the box
    /// as drawn was small ([`ORIENT_SMALL`]).
    pub measured: bool,
    /// The estimated nodes of its plain tree (pruned tables, without the symmetry
    /// restriction); `None` if it was not measured or cannot be searched (a row too
    /// wide, a placement longer than the 64-bit window).
    pub nodes: Option<f64>,
}

/// Random paths of each orientation's estimate.
pub const ORIENT_PATHS: usize = 256;

/// A box whose tree as drawn is estimated under this many nodes is searched as drawn.
/// Measuring the other orientations costs about 1.5 ms each (building their tables,
/// then the paths); an unrestricted tree this size is a search of some tens of
/// milliseconds once the symmetry restriction divides it.
pub const ORIENT_SMALL: f64 = 5_000_000.0;

impl Orientations {
    /// The setup of `puzzle` (a box on the cubic grid) in the orientation whose tree is
    /// estimated smallest, recording the choice when there was one.
    fn choose(puzzle: &Puzzle) -> Setup {
        let mut setups: Vec<Setup> = Vec::new();
        for axes in Axes::ALL {
            let setup = Setup::bare(puzzle, axes);
            if setups.iter().all(|s| s.board != setup.board) {
                setups.push(setup);
            }
        }
        if setups.len() == 1 {
            return setups.remove(0);
        }
        let mut candidates: Vec<Orientation> = setups
            .iter()
            .map(|s| Orientation {
                size: (s.board.width, s.board.height, s.board.depth),
                measured: false,
                nodes: None,
            })
            .collect();
        for (k, setup) in setups.iter().enumerate() {
            candidates[k].measured = true;
            candidates[k].nodes = setup.plain_size(ORIENT_PATHS);
            if k == 0 && candidates[0].nodes.is_some_and(|n| n < ORIENT_SMALL) {
                break;
            }
        }
        let chosen = (0..candidates.len())
            .filter(|&k| candidates[k].nodes.is_some())
            .min_by(|&a, &b| {
                candidates[a]
                    .nodes
                    .partial_cmp(&candidates[b].nodes)
                    .expect("finite")
            })
            .unwrap_or(0);
        let mut setup = setups.swap_remove(chosen);
        setup.orientations = Some(Orientations { candidates, chosen });
        setup
    }

    /// The `--stats` line.
    pub fn text(&self) -> String {
        let each: Vec<String> = self
            .candidates
            .iter()
            .map(|c| {
                let (w, h, d) = c.size;
                let nodes = match (c.measured, c.nodes) {
                    (false, _) => "-".to_string(),
                    (true, None) => "not served".to_string(),
                    (true, Some(n)) => format!("{n:.0}"),
                };
                format!("{w}x{h}x{d} {nodes}")
            })
            .collect();
        let (w, h, d) = self.candidates[self.chosen].size;
        format!(
            "orientation: searched as {w}x{h}x{d} (columns x rows x layers); estimated nodes before the symmetry restriction: {}\n",
            each.join(", ")
        )
    }

    /// The JSON form: the chosen box and each candidate's estimate.
    pub fn json(&self) -> serde_json::Value {
        let size = |c: &Orientation| serde_json::json!([c.size.0, c.size.1, c.size.2]);
        serde_json::json!({
            "searched_as": size(&self.candidates[self.chosen]),
            "candidates": self.candidates.iter().map(|c| serde_json::json!({
                "size": size(c),
                "measured": c.measured,
                "nodes": c.nodes,
            })).collect::<Vec<_>>(),
        })
    }
}

/// The cheap checks, before anything is built: every one bounds the work that follows
/// (with pieces of at most 64 cells and 65,535 copies, a board they cover has at most 4 Mi
/// cells).
fn check(puzzle: &Puzzle) -> Result<(), TilingError> {
    let board = &puzzle.board;
    let planar_depth = board.depth == 1 || !board.grid.is_planar();
    if board.cells.len() != board.width * board.height * board.depth || !planar_depth {
        return Err(TilingError::BoardShape {
            cells: board.cells.len(),
            width: board.width,
            height: board.height,
            depth: board.depth,
        });
    }
    let board_cells = board.cells.iter().filter(|&&c| c).count();
    if board_cells == 0 {
        return Err(TilingError::EmptyBoard);
    }
    let mut copies = 0u64;
    let mut area = 0usize;
    for p in &puzzle.pieces {
        if p.cells.is_empty() {
            return Err(TilingError::EmptyPiece(p.name.clone()));
        }
        if p.count == 0 {
            return Err(TilingError::NoCopies(p.name.clone()));
        }
        if p.cells.len() > 64 {
            return Err(TilingError::PieceTooLarge {
                name: p.name.clone(),
                cells: p.cells.len(),
            });
        }
        if let Some(&point) = p.cells.iter().find(|&&q| board.grid.drawn(q).is_none()) {
            return Err(TilingError::NotACell {
                name: p.name.clone(),
                point,
                grid: board.grid,
            });
        }
        let mut sorted = p.cells.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(TilingError::RepeatedCell(p.name.clone()));
        }
        copies = copies.saturating_add(u64::from(p.count));
        area = area.saturating_add(p.cells.len().saturating_mul(p.count as usize));
    }
    if puzzle.pieces.len() > MAX_PIECES {
        return Err(TilingError::TooManyPieces(puzzle.pieces.len()));
    }
    let counts: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
    let bits = Copies::bits(&counts);
    if copies > MAX_COPIES as u64 || bits > u64::BITS {
        return Err(TilingError::TooManyCopies { copies, bits });
    }
    if area < board_cells || (area > board_cells && !puzzle.allow_leftover) {
        return Err(TilingError::Areas {
            pieces: area,
            board: board_cells,
            leftover: puzzle.allow_leftover,
        });
    }
    Ok(())
}

/// Random paths in the tree of a candidate first piece ([`Setup::run_tables`]), shared
/// among its placements: enough to tell a large tree.
const FIRST_PATHS: usize = 256;

/// Paths of the comparison: one per this many nodes of the first candidate's tree, as
/// estimated first, within [`FIRST_PATHS`] and [`FIRST_MOST_PATHS`]. Seeds other than
/// the fixed one choose the same piece on the shipped cubic files (README,
/// Performance).
const FIRST_NODES_PER_PATH: f64 = 20_000.0;
const FIRST_MOST_PATHS: usize = 8192;

/// Candidates weighed (by the representatives the pruning keeps, or on a large tree by
/// a Knuth estimate): those with the fewest representatives.
const FIRST_CANDIDATES: usize = 4;

/// Below this many nodes (estimated) with the first candidate placed first, no other is
/// measured: telling trees of a few hundred thousand nodes apart takes more paths than
/// the search costs (the estimate's noise picked worse pieces on the 6 x 10 pentominoes
/// with 512 paths).
const FIRST_LARGE: f64 = 5_000_000.0;

/// The symmetry group whose classes the search visits once each, and the piece that is
/// restricted to one placement per orbit to make it so.
///
/// It works on tilings labelled by *copy* (see [`Tilings::tiling`]): copies of a piece
/// are numbered by their lowest cell, as the search places them, so two solutions are
/// the same exactly when their copy-labelled tilings are equal.
struct Classes {
    /// Each symmetry's cell map, the identity first.
    group: Group,
    /// Per symmetry, how it maps the puzzle's pieces.
    piece_maps: Vec<Vec<u16>>,
    /// Every piece every symmetry maps to itself (it has one copy), with its
    /// representatives (one placement per orbit, as sorted cell lists, sorted), fewest
    /// first: the pieces that could be restricted to one placement per orbit. Past the
    /// first [`FIRST_CANDIDATES`], which alone may be restricted, not listed. When the
    /// puzzle states its first piece, that one first, listed, and the others in piece
    /// order, not listed.
    candidates: Vec<(usize, Representatives)>,
    /// Per candidate, how many representatives it has, where they were found (all but
    /// the stated piece's when the puzzle states one).
    known: Vec<Option<usize>>,
    /// The candidate restricted ([`Setup::run_tables`] picks it).
    chosen: usize,
    /// Whether the puzzle stated the piece restricted (`first:`): then it is the first
    /// candidate and none is measured.
    stated: bool,
    labels: CopyLabels,
    /// The first placements below which a second piece is restricted
    /// ([`Classes::restrict_second`]), sorted by their cells.
    seconds: Vec<Second>,
}

/// A second piece restricted below a first placement.
#[derive(Clone, Debug)]
struct Second {
    /// The first placement's cells, sorted.
    first: Vec<usize>,
    /// The second piece's label in a copy-labelled tiling.
    label: u16,
    /// The symmetries that fix the first placement (the identity first).
    stabilizer: Vec<usize>,
}

/// At most this many first placements restrict a second piece, each with a block of
/// slot masks as large as the tables' group count: beyond, the rest search as before.
const MAX_SECOND_BLOCKS: usize = 1024;

/// At most this many slot masks in all those blocks (16 MiB).
const MAX_SECOND_SLOTS: usize = 1 << 22;

/// Placement images compared while choosing second pieces, about a second's work on
/// the largest boards, past which no further first placement restricts one.
const MAX_SECOND_WORK: usize = 1 << 23;

/// How copies are labelled in a copy-labelled tiling: the copies of piece `p` are
/// `first_copy[p]..first_copy[p] + count`, numbered by their lowest cell (the order the
/// search places them in).
#[derive(Clone, Debug)]
struct CopyLabels {
    /// `owner[copy]` = the puzzle's piece.
    owner: Vec<u16>,
    /// `first_copy[piece]` = the label of its first copy.
    first_copy: Vec<u16>,
}

impl CopyLabels {
    /// Labels for `pieces`, whose copies number at most [`MAX_COPIES`] (checked first).
    fn new(pieces: &[Piece]) -> CopyLabels {
        let owner: Vec<u16> = pieces
            .iter()
            .enumerate()
            .flat_map(|(i, p)| std::iter::repeat_n(i as u16, p.count as usize))
            .collect();
        let first_copy: Vec<u16> = (0..pieces.len())
            .map(|i| pieces[..i].iter().map(|p| p.count as u16).sum())
            .collect();
        CopyLabels { owner, first_copy }
    }
}

/// A candidate piece's placements, one per orbit (see [`Classes::candidates`]).
enum Representatives {
    /// Sorted cell lists, sorted.
    Listed(Vec<Vec<usize>>),
    /// Not listed.
    Unlisted,
}

impl Representatives {
    /// The representatives, listed: the candidates that may be restricted have them.
    fn listed(&self) -> &[Vec<usize>] {
        match self {
            Representatives::Listed(reps) => reps,
            Representatives::Unlisted => unreachable!("only the first candidates are restricted"),
        }
    }

    /// Whether the placement on `cells` (sorted) is one of the listed representatives.
    fn holds(&self, cells: &[usize]) -> bool {
        self.listed()
            .binary_search_by(|r| r.as_slice().cmp(cells))
            .is_ok()
    }
}

/// One placement per orbit of `group` among the placements of a piece whose
/// orientations are `orients`: as bit sets where the board's box allows, else as sorted
/// cell lists (see [`Representatives`]).
fn representatives(
    group: &Group,
    locator: &grid::Locator,
    orients: &[Vec<Point>],
) -> Result<Vec<u128>, Vec<Vec<usize>>> {
    match grid::placement_bits_of(locator, orients) {
        Some(bits) => Ok(group.orbit_representative_bits(&bits)),
        None => Err(group.orbit_representatives(&grid::placement_lists_of(locator, orients))),
    }
}

/// How many [`representatives`] there are, in either form.
fn count_of(reps: &Result<Vec<u128>, Vec<Vec<usize>>>) -> usize {
    reps.as_ref().map_or_else(Vec::len, Vec::len)
}

impl Classes {
    /// The classes of `pieces` (whose orientations are `orients`) on `board`, with the
    /// piece `first` restricted if the puzzle states one.
    fn new(
        board: &Board,
        pieces: &[Piece],
        orients: &[Vec<Vec<Point>>],
        allow_leftover: bool,
        first: Option<usize>,
    ) -> Result<Classes, TilingError> {
        let refuse = |why| {
            let name = first.map_or_else(String::new, |p| pieces[p].name.clone());
            Err(TilingError::FirstPiece { name, why })
        };
        // With pieces left over, the restricted piece might be one of them.
        if allow_leftover {
            if first.is_some() {
                return refuse(
                    "pieces may be left over, and the piece placed first might be one of them",
                );
            }
            return Err(TilingError::NoSymmetryPiece);
        }
        let mut elements: Vec<(Vec<u32>, Vec<u16>)> = Vec::new();
        let set = grid::PieceSet::with_orientations(board.grid, pieces, orients);
        for s in grid::board_symmetries(board) {
            let Some(map) = set.map(s.transform) else {
                continue;
            };
            let element = (s.cell_map, map.into_iter().map(|p| p as u16).collect());
            // On thin boards two transforms can act alike (a row's half turn is its
            // mirror image): the group holds what acts, once.
            if !elements.contains(&element) {
                elements.push(element);
            }
        }
        let (perms, piece_maps): (Vec<Vec<u32>>, Vec<Vec<u16>>) = elements.into_iter().unzip();
        let group = Group::new(perms);
        let locator = grid::Locator::new(board);
        let qualifies =
            |i: usize| pieces[i].count == 1 && piece_maps.iter().all(|m| m[i] as usize == i);
        if let Some(p) = first {
            if pieces[p].count != 1 {
                return refuse("it has more than one copy");
            }
            if !qualifies(p) {
                return refuse("a symmetry of the board maps it to another piece");
            }
        }
        let mut found: Vec<_> = (0..pieces.len())
            .filter(|&i| qualifies(i))
            .map(|i| {
                // A stated first piece's alone: the others are candidates for the second
                // piece restricted, which needs no representatives.
                let reps = (first.is_none() || first == Some(i))
                    .then(|| representatives(&group, &locator, &orients[i]));
                (i, reps)
            })
            .collect();
        match first {
            // Fewest representatives first: the strongest restriction at the root.
            None => found.sort_by_key(|(i, reps)| (reps.as_ref().map_or(0, count_of), *i)),
            // The stated piece first, the others in piece order.
            Some(p) => found.sort_by_key(|&(i, _)| i != p),
        }
        if found.is_empty() {
            return Err(TilingError::NoSymmetryPiece);
        }
        let known = found
            .iter()
            .map(|(_, reps)| reps.as_ref().map(count_of))
            .collect();
        // Lists of those that may be restricted: a tenth of the meteor's setup went on
        // listing every piece's.
        let candidates = found
            .into_iter()
            .enumerate()
            .map(|(k, (i, reps))| {
                let reps = match reps {
                    _ if k >= FIRST_CANDIDATES => Representatives::Unlisted,
                    None => Representatives::Unlisted,
                    Some(Ok(mut bits)) => {
                        bits.sort_unstable_by_key(|&b| grid::list_order(b));
                        Representatives::Listed(bits.into_iter().map(grid::cells_of_bits).collect())
                    }
                    // Found in the sorted placements' order: sorted.
                    Some(Err(lists)) => Representatives::Listed(lists),
                };
                (i, reps)
            })
            .collect();
        Ok(Classes {
            group,
            piece_maps,
            candidates,
            known,
            chosen: 0,
            stated: first.is_some(),
            labels: CopyLabels::new(pieces),
            seconds: Vec::new(),
        })
    }

    /// Restricts a second piece below each of the `first` steps of `tables` whose
    /// placement symmetries other than the identity fix: the candidate (a piece every
    /// symmetry maps to itself) other than the restricted one with the most
    /// placements, as a stabilizer of order `s` keeps about one in `s` of any piece's
    /// placements and so cuts most where there are most. It keeps one placement per
    /// orbit of the placement's stabilizer (the least, by sorted cells) and none that
    /// meets it. Returns, per first step, its restriction (0: none; `k`: block
    /// `k - 1`), and the blocks: the tables' `used_slots` with the slots dropped
    /// cleared. Records what [`Classes::judge`] needs to keep one solution per class.
    fn restrict_second(
        &mut self,
        tables: &Tables,
        first: &[Step],
        (board, orients): (&Board, &[Vec<Vec<Point>>]),
    ) -> (Vec<u16>, Vec<u32>) {
        self.seconds.clear();
        let (restricted, _) = self.restricted();
        let layout = tables.layout;
        let groups = tables.used_slots.len();
        let shift = tables.shift_rows * tables.width;
        // The board cells of the placement in `slot` at window `offset`, sorted.
        let cells_into = |offset: usize, slot: usize, out: &mut Vec<usize>| {
            let mut mask = tables.masks[slot];
            while mask != 0 {
                out.push(offset * shift + mask.trailing_zeros() as usize);
                mask &= mask - 1;
            }
        };
        let counted: Vec<(usize, usize, Option<usize>)> = self
            .candidates
            .iter()
            .zip(&self.known)
            .filter(|&(&(piece, _), _)| piece != restricted)
            .map(|(&(piece, _), &known)| {
                let placements = (0..tables.offsets)
                    .flat_map(|o| (0..layout.anchors).map(move |a| (o, a)))
                    .map(|(o, a)| tables.counts[layout.group(o, a, piece)] as usize)
                    .sum();
                (placements, piece, known)
            })
            .collect();
        // The most placements; on a tie the fewest representatives, then the lowest
        // piece: the first of the tied candidates in the order the solver sorts them
        // when it chooses the first piece itself (when the puzzle states it, the others'
        // representatives are counted here, and only on a tie).
        let Some(most) = counted.iter().map(|c| c.0).max() else {
            return (Vec::new(), Vec::new());
        };
        let tied: Vec<_> = counted.iter().filter(|c| c.0 == most).collect();
        let piece = if tied.len() == 1 {
            tied[0].1
        } else {
            let locator = grid::Locator::new(board);
            let reps = |piece: usize, known: Option<usize>| {
                known.unwrap_or_else(|| {
                    count_of(&representatives(&self.group, &locator, &orients[piece]))
                })
            };
            tied.iter()
                .map(|&&(_, piece, known)| (reps(piece, known), piece))
                .min()
                .expect("a tied candidate")
                .1
        };
        // Its placements: (group, slot), and their cells, `size` apart.
        let (mut slots, mut cells) = (Vec::new(), Vec::new());
        for offset in 0..tables.offsets {
            for anchor in 0..layout.anchors {
                let group = layout.group(offset, anchor, piece);
                for i in 0..tables.counts[group] as usize {
                    cells_into(offset, layout.slot(group, i), &mut cells);
                    slots.push((group, i));
                }
            }
        }
        if slots.is_empty() {
            // No placement left after pruning: no solution places it anyway.
            return (Vec::new(), Vec::new());
        }
        let size = cells.len() / slots.len();
        let mut per_first = vec![0u16; first.len()];
        let mut blocks: Vec<u32> = Vec::new();
        let mut image = Vec::with_capacity(size);
        let mut work = 0;
        for (k, step) in first.iter().enumerate() {
            if blocks.len() / groups.max(1) >= MAX_SECOND_BLOCKS
                || blocks.len() + groups > MAX_SECOND_SLOTS
                || work > MAX_SECOND_WORK
            {
                break;
            }
            let mut r = Vec::new();
            cells_into(usize::from(step.offset), step.slot as usize, &mut r);
            let stabilizer = self.group.set_stabilizer(&r);
            if stabilizer.len() < 2 {
                continue;
            }
            let mut block = tables.used_slots.clone();
            let mut dropped = 0;
            for (&(group, i), q) in slots.iter().zip(cells.chunks_exact(size)) {
                work += stabilizer.len();
                let meets = q.iter().any(|c| r.binary_search(c).is_ok());
                if meets || !self.group.least_image(&stabilizer, q, &mut image) {
                    block[group] &= !(1u32 << i);
                    dropped += 1;
                }
            }
            if dropped == 0 {
                continue;
            }
            blocks.extend(block);
            per_first[k] = (blocks.len() / groups) as u16;
            self.seconds.push(Second {
                first: r,
                label: self.labels.first_copy[piece],
                stabilizer,
            });
        }
        self.seconds.sort_by(|a, b| a.first.cmp(&b.first));
        (per_first, blocks)
    }

    /// The restricted piece and its representatives.
    fn restricted(&self) -> (usize, &[Vec<usize>]) {
        let (piece, reps) = &self.candidates[self.chosen];
        (*piece, reps.listed())
    }

    /// The restricted piece's label in a copy-labelled tiling.
    fn label(&self) -> u16 {
        self.labels.first_copy[self.restricted().0]
    }

    /// The image of a copy-labelled tiling under symmetry `g`, its copies renumbered by
    /// their lowest cell.
    fn image(&self, g: usize, t: &Tiling) -> Tiling {
        let mut s = Judging::default();
        self.group.move_labels_into(g, t, None, &mut s.moved);
        self.renaming(&mut s);
        let Judging {
            moved,
            next,
            renamed,
            ..
        } = &mut s;
        moved
            .iter()
            .map(|&p| p.map(|old| self.rename(g, old, next, renamed)))
            .collect()
    }

    /// How the image of `t` under `g` ([`Classes::image`]) compares with `t`, the image
    /// made only as far as their first difference, in `s`'s buffers.
    fn image_cmp(&self, g: usize, t: &Tiling, s: &mut Judging) -> std::cmp::Ordering {
        self.group.move_labels_into(g, t, None, &mut s.moved);
        self.renaming(s);
        let Judging {
            moved,
            next,
            renamed,
            ..
        } = s;
        for (&p, &q) in moved.iter().zip(t) {
            let label = p.map(|old| self.rename(g, old, next, renamed));
            match label.cmp(&q) {
                std::cmp::Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        std::cmp::Ordering::Equal
    }

    /// `s`'s renaming state for an image: no copy renamed, each piece's next label its
    /// first copy's.
    fn renaming(&self, s: &mut Judging) {
        s.next.clear();
        s.next.extend_from_slice(&self.labels.first_copy);
        s.renamed.clear();
        s.renamed.resize(self.labels.owner.len(), None);
    }

    /// The label copy `old` takes in an image under `g`: the one it was given where the
    /// image met it first (its lowest cell there), or else, meeting it now, the next
    /// copy label of the piece `g` maps its piece to.
    #[inline]
    fn rename(&self, g: usize, old: u16, next: &mut [u16], renamed: &mut [Option<u16>]) -> u16 {
        let old = old as usize;
        *renamed[old].get_or_insert_with(|| {
            let piece = self.piece_maps[g][self.labels.owner[old] as usize] as usize;
            next[piece] += 1;
            next[piece] - 1
        })
    }

    /// The restricted piece and those of its representatives that a symmetry other than
    /// the identity maps onto themselves, sorted. With the piece anywhere else, only the
    /// identity keeps it where it is, so [`Classes::judge`] finds the solution the least
    /// of its class and fixed by the identity alone (its class has the group's order; a
    /// second piece is restricted only below these placements), and a count needs no
    /// tiling made at that leaf.
    fn fixed_representatives(&self) -> (usize, Vec<Vec<usize>>) {
        let (piece, reps) = self.restricted();
        let fixed = reps
            .iter()
            .filter(|r| self.group.set_stabilizer(r).len() > 1)
            .cloned()
            .collect();
        (piece, fixed)
    }

    /// For a solution with the restricted piece on a representative: whether it is the
    /// least of its images under the symmetries that keep that placement (the only
    /// images the search can also find), and how many symmetries fix it.
    fn judge(&self, t: &Tiling, s: &mut Judging) -> (bool, usize) {
        let cells_of = |label: u16, cells: &mut Vec<usize>| {
            cells.clear();
            cells.extend((0..t.len()).filter(|&c| t[c] == Some(label)));
        };
        let second = if self.seconds.is_empty() {
            None
        } else {
            cells_of(self.label(), &mut s.cells);
            self.seconds
                .binary_search_by(|second| second.first.as_slice().cmp(&s.cells))
                .ok()
                .map(|i| &self.seconds[i])
        };
        // With a second piece restricted, only the images with it on a representative
        // are searched: the symmetries that fix both placements.
        s.elements.clear();
        match second {
            Some(second) => {
                cells_of(second.label, &mut s.cells);
                if !self
                    .group
                    .least_image(&second.stabilizer, &s.cells, &mut s.image)
                {
                    return (false, 0);
                }
                for &g in &second.stabilizer {
                    self.group.image_of_set_into(g, &s.cells, &mut s.image);
                    if s.image == s.cells {
                        s.elements.push(g);
                    }
                }
            }
            None => s.elements.extend(0..self.group.order()),
        }
        let mut fixing = 0;
        let piece = Some(self.label());
        for i in 0..s.elements.len() {
            let g = s.elements[i];
            let cell_map = self.group.perm(g);
            let keeps_piece = t
                .iter()
                .enumerate()
                .all(|(c, &p)| p != piece || t[cell_map[c] as usize] == piece);
            if !keeps_piece {
                continue;
            }
            match self.image_cmp(g, t, s) {
                std::cmp::Ordering::Less => return (false, 0),
                std::cmp::Ordering::Equal => fixing += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        (true, fixing)
    }
}

/// The buffers of [`Classes::judge`] and of the tiling it judges, one set per thread
/// ([`JUDGING`]): a count with symmetry classes judges a solution at millions of
/// leaves, and made a dozen vectors at each (the one-sided pentominoes 6x15 on two
/// threads spent a quarter of their time in the allocator's lock where the allocator
/// has one, as dlmalloc does on musl).
#[derive(Default)]
struct Judging {
    /// An image's labels before renaming ([`Group::move_labels_into`]).
    moved: Tiling,
    /// Per piece, the next label of an image's renaming ([`Classes::rename`]).
    next: Vec<u16>,
    /// Per copy, the label the image gave it.
    renamed: Vec<Option<u16>>,
    /// The cells of one piece.
    cells: Vec<usize>,
    /// An image of `cells`.
    image: Vec<usize>,
    /// The symmetries that could map the solution below itself.
    elements: Vec<usize>,
    /// The solution judged, copy-labelled ([`Tilings::tiling_into`]).
    tiling: Tiling,
}

thread_local! {
    /// This thread's [`Judging`] buffers.
    static JUDGING: std::cell::RefCell<Judging> = std::cell::RefCell::default();
}

/// Each solution as a tiling labelled by the puzzle's pieces; with symmetry classes,
/// only the least of each class, reported as a class (distinct) or written out whole.
struct Tilings<'a> {
    setup: &'a Setup,
    distinct: bool,
    cells: usize,
    /// [`Classes::fixed_representatives`]: a solution needs judging only with the
    /// restricted piece on one of them.
    fixed: (usize, Vec<Vec<usize>>),
}

impl Tilings<'_> {
    /// The board a search path draws, labelled by copy (search piece index).
    fn tiling<L: Lane, const K: usize>(&self, window: &Window<L, K>, path: &[Step]) -> Tiling {
        let mut t = Vec::with_capacity(self.cells);
        self.tiling_into(window, path, &mut t, &mut Vec::new());
        t
    }

    /// [`Tilings::tiling`] into `t`, with `next` for the labels: buffers a thread keeps.
    fn tiling_into<L: Lane, const K: usize>(
        &self,
        window: &Window<L, K>,
        path: &[Step],
        t: &mut Tiling,
        next: &mut Vec<u16>,
    ) {
        t.clear();
        t.resize(self.cells, None);
        next.clear();
        next.extend_from_slice(&self.setup.labels.first_copy);
        for step in path {
            let label = &mut next[usize::from(step.piece)];
            for cell in window.step_cells(step) {
                t[cell] = Some(*label);
            }
            *label += 1;
        }
    }

    /// A copy-labelled tiling labelled by the puzzle's pieces.
    fn owned(&self, t: Tiling) -> Tiling {
        t.into_iter()
            .map(|p| p.map(|c| self.setup.labels.owner[c as usize]))
            .collect()
    }
}

impl<L: Lane, const K: usize> Leaves<L, K> for Tilings<'_> {
    type Item = Tiling;

    fn leaf(
        &self,
        window: &Window<L, K>,
        path: &[Step],
        sink: &mut Sink<'_, Tiling>,
    ) -> ControlFlow<()> {
        let Some(classes) = &self.setup.classes else {
            return sink.found(1, |items| items.push(self.owned(self.tiling(window, path))));
        };
        let (piece, fixed) = &self.fixed;
        let judged = !fixed.is_empty()
            && path
                .iter()
                .find(|step| usize::from(step.piece) == *piece)
                .is_none_or(|step| {
                    // A placement fits the window: at most 64 cells, in order.
                    let cells: ArrayVec<usize, 64> = window.step_cells(step).collect();
                    fixed.binary_search_by(|f| f.as_slice().cmp(&cells)).is_ok()
                });
        let orbit = if !judged {
            classes.group.order()
        } else {
            let (least, fixing) = JUDGING.with_borrow_mut(|s| {
                // Out of `s` while `judge` uses the rest (taking a vector moves no
                // element).
                let mut t = std::mem::take(&mut s.tiling);
                self.tiling_into(window, path, &mut t, &mut s.next);
                let judged = classes.judge(&t, s);
                s.tiling = t;
                judged
            });
            if !least {
                return ControlFlow::Continue(());
            }
            classes.group.order() / fixing
        };
        // Made again where it is kept: a count keeps none.
        let t = || self.tiling(window, path);
        if self.distinct {
            return sink.found_class(orbit as u64, || self.owned(t()));
        }
        sink.found(orbit as u64, |items| {
            let t = t();
            let mut images: Vec<Tiling> = (0..classes.group.order())
                .map(|g| classes.image(g, &t))
                .collect();
            images.sort();
            images.dedup();
            debug_assert_eq!(images.len(), orbit);
            items.extend(images.into_iter().map(|i| self.owned(i)));
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::ops::ControlFlow;

    use super::{Mode, Puzzle, Splitting, Tiling, TilingSolver};
    use crate::tests::counted;

    /// Every solution in all mode, as a set, and the nodes.
    fn all(solver: &TilingSolver) -> (BTreeSet<Tiling>, u64) {
        let mut found = BTreeSet::new();
        let summary = solver.for_each(&counted(), |t| {
            assert!(found.insert(t), "a solution twice");
            ControlFlow::Continue(())
        });
        (found, summary.nodes.expect("counted"))
    }

    /// The representatives judged are exactly those some element but the identity maps
    /// onto themselves (each image taken whole); the shipped files have boards with none
    /// and with some, and every count there is checked against its known figure in both
    /// modes (`tests/`), which a leaf left unjudged wrongly would change.
    #[test]
    fn representatives_judged_are_those_a_symmetry_fixes() {
        let (mut none, mut some) = (Vec::new(), Vec::new());
        for (name, puzzle) in crate::tests::shipped_puzzles() {
            let solver = TilingSolver::new(&puzzle, Mode::All).unwrap();
            let Some(classes) = &solver.setup.classes else {
                continue;
            };
            let (piece, reps) = classes.restricted();
            let want: Vec<Vec<usize>> = reps
                .iter()
                .filter(|r| {
                    (1..classes.group.order()).any(|g| classes.group.image_of_set(g, r) == **r)
                })
                .cloned()
                .collect();
            assert_eq!(
                classes.fixed_representatives(),
                (piece, want.clone()),
                "{name}"
            );
            if want.is_empty() {
                none.push(name);
            } else {
                some.push(name);
            }
        }
        assert!(none.iter().any(|n| n == "meteor"), "{none:?}");
        assert!(some.len() >= 2, "some: {some:?}; none: {none:?}");
    }

    /// Placements and their orbit representatives found as bit sets are those found as
    /// cell lists, on every shipped board, under the board symmetries that map each
    /// piece's placements onto themselves (as [`Classes`] asks them: its group maps its
    /// candidates to themselves).
    #[test]
    fn placements_and_orbits_as_bits_are_those_as_lists() {
        use crate::grid::{self, cells_of_bits};
        use crate::symmetry::Group;
        let mut files = 0;
        let mut moved = 0;
        for (name, puzzle) in crate::tests::shipped_puzzles() {
            let board = &puzzle.board;
            let perms: Vec<Vec<u32>> = grid::board_symmetries(board)
                .into_iter()
                .map(|s| s.cell_map)
                .collect();
            for piece in &puzzle.pieces {
                let lists = grid::placement_lists(board, piece);
                let bits = grid::placement_bits(board, piece).expect("at most 128 cells");
                let image = |perm: &[u32], set: u128| {
                    (0..128)
                        .filter(|&c| set >> c & 1 == 1)
                        .fold(0u128, |m, c| m | 1 << perm[c])
                };
                let placed: std::collections::HashSet<u128> = bits.iter().copied().collect();
                let keeping: Vec<Vec<u32>> = perms
                    .iter()
                    .filter(|perm| bits.iter().all(|&b| placed.contains(&image(perm, b))))
                    .cloned()
                    .collect();
                moved += usize::from(keeping.len() > 1);
                let group = Group::new(keeping);
                // Each placement once, in any order.
                let mut from_bits: Vec<Vec<usize>> =
                    bits.iter().map(|&b| cells_of_bits(b)).collect();
                from_bits.sort();
                assert_eq!(from_bits, lists, "{name}");
                let mut reps: Vec<Vec<usize>> = group
                    .orbit_representative_bits(&bits)
                    .into_iter()
                    .map(cells_of_bits)
                    .collect();
                reps.sort();
                let mut by_lists = group.orbit_representatives(&lists);
                by_lists.sort();
                assert_eq!(reps, by_lists, "{name}");
            }
            files += 1;
        }
        assert!(files >= 10, "only {files} files");
        assert!(moved >= 10, "only {moved} pieces with a symmetry");
    }

    /// An image compared with its tiling as far as their first difference
    /// ([`super::Classes::image_cmp`], with one set of buffers for every call, as a
    /// thread keeps them) compares as the image made whole does, for every symmetry, on
    /// the solutions of every shipped board with symmetries and one copy of each piece
    /// (whose solutions label each piece by its one copy).
    #[test]
    fn images_compare_as_far_as_needed_as_they_do_whole() {
        let mut checked = Vec::new();
        let mut s = super::Judging::default();
        for (name, puzzle) in crate::tests::shipped_puzzles() {
            let solver = TilingSolver::new(&puzzle, Mode::All).unwrap();
            let Some(classes) = &solver.setup.classes else {
                continue;
            };
            if classes.labels.owner.len() != classes.labels.first_copy.len() {
                continue;
            }
            let mut solutions = Vec::new();
            let mut options = counted();
            options.limit = Some(300);
            solver.for_each(&options, |t| {
                solutions.push(t);
                ControlFlow::Continue(())
            });
            let mut orders = [0; 3];
            for t in &solutions {
                let t: Tiling = t
                    .iter()
                    .map(|p| p.map(|p| classes.labels.first_copy[p as usize]))
                    .collect();
                for g in 0..classes.group.order() {
                    let whole = classes.image(g, &t).cmp(&t);
                    assert_eq!(classes.image_cmp(g, &t, &mut s), whole, "{name}, {g}");
                    orders[(whole as i8 + 1) as usize] += 1;
                }
            }
            assert!(orders.iter().all(|&n| n > 0), "{name}: {orders:?}");
            checked.push(name);
        }
        assert!(checked.len() >= 3, "{checked:?}");
    }

    /// The restriction of a second piece below first placements that symmetries fix:
    /// live on these files, with fewer nodes, and the same solutions as without it
    /// (on 5 x 12 with a split search, whose memoised searches north of the split
    /// place the second piece anywhere).
    #[test]
    fn a_second_piece_restricted_keeps_every_class_once() {
        for name in ["pentomino-8x8-hole", "hexiamonds-6x6", "pentomino-5x12"] {
            let path = format!("{}/data/{name}.puz", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let puzzle = Puzzle::parse(&text, &path).unwrap();
            let restricted = TilingSolver::new(&puzzle, Mode::All).unwrap();
            assert!(
                !restricted.restricted_slots.is_empty(),
                "{name}: nothing restricted"
            );
            let mut plain = TilingSolver::new(&puzzle, Mode::All).unwrap();
            // The same rows for both, so that the nodes compare: measured apart, the
            // plans may choose differently.
            let rows = restricted.split_rows().to_vec();
            let splitting = if rows.is_empty() {
                Splitting::Off
            } else {
                Splitting::Rows(rows)
            };
            plain.set_splitting(splitting).unwrap();
            plain.first_restriction.clear();
            plain.restricted_slots.clear();
            if let Some(classes) = &mut plain.setup.classes {
                classes.seconds.clear();
            }
            let (with, with_nodes) = all(&restricted);
            let (without, without_nodes) = all(&plain);
            assert_eq!(with, without, "{name}");
            assert!(with_nodes < without_nodes, "{name}: {with_nodes} nodes");
            let distinct = TilingSolver::new(&puzzle, Mode::Distinct).unwrap();
            let summary = distinct.count(&counted());
            assert_eq!(summary.total, with.len() as u64, "{name}");
        }
    }
}

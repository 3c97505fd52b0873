//! The Benchmarks Game meteor-contest puzzle: ten pentahexes on a 5 x 10 hex board.
//!
//! This module owns the puzzle-specific parts around the generic search: the tables
//! `build.rs` baked into the binary, the half-turn symmetry (each solution found is
//! reported with its rotation), the meaning of the limit `N`, and the Benchmarks Game
//! output. The search itself is the tiling window's, split at rows 3 to 7 (see
//! [`crate::meet`]), run by the [driver](crate::driver) like every other search.
//!
//! # What the limit means
//! The search visits solutions in a fixed order (lowest free cell first, pieces by
//! number, placements in table order) and finds them in pairs: a solution and its half
//! turn. [`solve`] takes pairs in that order until it holds at least `limit` solutions,
//! so the count is `limit` rounded up to even, at most 2098, and the smallest and largest
//! are taken among exactly those solutions, whatever the number of threads.
//!
//! ```
//! use polytile::{meteor, Options};
//!
//! let report = meteor::solve(&Options { limit: Some(9), ..Options::default() });
//! assert_eq!(report.summary.solutions, 10);
//! ```

use std::ops::ControlFlow;

use crate::driver::{self, Options, Sink, Summary};
use crate::grid::meteor::{HEIGHT, WIDTH};
use crate::meet::Above;
use crate::search::{Leaves, Step, Tiles};

/// The tables as `build.rs` generated them: `tables::generate::meteor_tables(true, true)`.
/// The search reads some of them; the tests compare every one with the run-time tables.
#[allow(dead_code)]
pub(crate) mod baked {
    include!(concat!(env!("OUT_DIR"), "/meteor_tables.rs"));
}

/// Cells on the board.
pub const CELLS: usize = WIDTH * HEIGHT;

/// Solutions of the full puzzle (Benchmarks Game; `docs/known-counts.md`).
pub const ALL_SOLUTIONS: u64 = 2098;

/// A solution: the digit of the piece on each cell, row by row from row 0.
pub type Solution = [u8; CELLS];

/// Where the search splits (see [`crate::meet`]): at the start of rows 3 to 7, where
/// the overhangs are few and each is met by many nodes.
const SPLITS: [usize; 5] = [3 * WIDTH, 4 * WIDTH, 5 * WIDTH, 6 * WIDTH, 7 * WIDTH];

/// Slots per table group: the 12 orientations of a free pentahex.
const SLOTS: usize = baked::SLOTS;

/// The search's view of meteor tables: placements fit 32-bit lanes.
pub(crate) type Window<'t> = crate::search::Window<'t, u32, SLOTS>;

/// The baked tables as the search reads them: a `static` of statics, built at compile
/// time.
pub(crate) static WINDOW: Window<'static> = Window {
    masks: &baked::MASKS,
    islands: crate::search::Islands::new(&baked::ISLANDS, &baked::MASKS),
    used_slots: &baked::USED_SLOTS,
    layout: crate::tables::TableLayout {
        anchors: baked::ANCHORS,
        pieces: baked::PIECES,
        slots: baked::SLOTS,
    },
    shift: (baked::SHIFT_ROWS * baked::WIDTH) as u32,
    fillable: baked::FILLABLE,
    shift_rows: baked::SHIFT_ROWS,
    bands: crate::search::Bands::new(
        [&baked::BAD_BAND_EVEN, &baked::BAD_BAND_ODD],
        baked::BAND_ROWS * baked::WIDTH,
    ),
    // The meteor's band table marks patterns (`src/tests/tables.rs` checks).
    checks: crate::search::CHECK_BAND,
    band_at: &baked::BAND_AT,
    not_cells: &baked::NOT_CELLS,
    can_fit: &baked::CAN_FIT,
    placeable_from: &baked::PLACEABLE_FROM,
    look_bits: baked::LOOK_BITS as u32,
    last_offset: baked::OFFSETS - 1,
    copies: &crate::search::Copies::NONE,
    leftover: false,
    pockets: crate::tables::pockets::Pockets::NONE,
    cover: crate::tables::cover::Cover::NONE,
    first: &[],
    first_restriction: &[],
    restricted_slots: &[],
};

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Solutions found (the limit rounded up to even, at most 2098) and the statistics.
    pub summary: Summary,
    /// The smallest of them, digit string order.
    pub smallest: Option<Solution>,
    /// The largest of them.
    pub largest: Option<Solution>,
}

/// The board drawn by the placements of `path`: with AVX-512BW (on a build for a CPU
/// that has it), each placement's digit written to all its cells by one masked move
/// from its cells as a bit set; without, cell by cell.
#[inline]
pub(crate) fn board_of(window: &Window, path: &[Step]) -> Solution {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
    return board_of_masked(window, path);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512bw")))]
    return board_of_cells(window, path);
}

/// [`board_of`] cell by cell.
// Where AVX-512BW is built for, only the tests call it.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "avx512bw"),
    allow(dead_code)
)]
pub(crate) fn board_of_cells(window: &Window, path: &[Step]) -> Solution {
    let mut board = [b'.'; CELLS];
    for step in path {
        for cell in window.step_cells(step) {
            board[cell] = b'0' + step.piece;
        }
    }
    board
}

/// [`board_of`] a placement at a time: the board's 50 cells are bytes of one 512-bit
/// register, and a placement's cells, as a bit set, the mask of a byte move.
#[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
pub(crate) fn board_of_masked(window: &Window, path: &[Step]) -> Solution {
    use std::arch::x86_64::*;
    const { assert!(CELLS <= 64) };
    let mut board = [b'.'; CELLS];
    // SAFETY: AVX-512BW is enabled at compile time (the cfg above); the store writes
    // the first `CELLS` bytes of the register to `board`, which has exactly as many.
    unsafe {
        let mut cells = _mm512_set1_epi8(b'.' as i8);
        for step in path {
            let at = u32::from(step.offset) * window.shift;
            debug_assert!(
                at < 64,
                "a meteor placement lies within the board's 50 cells"
            );
            let covered = window.step_mask(step) << (at & 63);
            let digit = _mm512_set1_epi8((b'0' + step.piece) as i8);
            cells = _mm512_mask_mov_epi8(cells, covered, digit);
        }
        _mm512_mask_storeu_epi8(board.as_mut_ptr().cast(), u64::MAX >> (64 - CELLS), cells);
    }
    board
}

/// The board turned by a half turn: cell `i` goes to cell `CELLS - 1 - i`.
pub fn half_turn(board: &Solution) -> Solution {
    let mut b = *board;
    b.reverse();
    b
}

/// Each solution as a board, with its half turn when the tables hold one placement of
/// each half-turn pair of the restricted piece.
struct Boards {
    half_turns: bool,
}

impl Leaves<u32, SLOTS> for Boards {
    type Item = Solution;

    fn leaf(
        &self,
        window: &Window,
        path: &[Step],
        sink: &mut Sink<'_, Solution>,
    ) -> ControlFlow<()> {
        let b = board_of(window, path);
        if self.half_turns {
            sink.found(2, |boards| boards.extend([b, half_turn(&b)]))
        } else {
            sink.found(1, |boards| boards.push(b))
        }
    }
}

/// Runs the split search of `window` and hands every solution (with its half turn when
/// `half_turns`) to `each`, in search order, up to the limit: see the module docs.
fn search(
    window: &Window,
    half_turns: bool,
    options: &Options,
    mut each: impl FnMut(Solution),
) -> Summary {
    let above = Above::new(window, &SPLITS).expect("meteor boards fit the split search");
    let tiles = Tiles {
        window,
        above: Some(&above),
        wide: None,
        leaves: Boards { half_turns },
    };
    let mut options = *options;
    if half_turns {
        // Pairs are never cut: a limit counts whole pairs.
        options.limit = options.limit.map(|n| n.div_ceil(2).saturating_mul(2));
    }
    driver::run(&tiles, &options, true, |board| {
        each(board);
        ControlFlow::Continue(())
    })
}

/// Solves with the baked tables; `options.limit` is the `N` of the module docs.
pub fn solve(options: &Options) -> Report {
    // Compared in place: every solution passes here, and copying each into an
    // `Option` to compare cost more than the comparison.
    let (mut smallest, mut largest) = ([u8::MAX; CELLS], [0; CELLS]);
    let summary = search(&WINDOW, true, options, |b| {
        if b < smallest {
            smallest = b;
        }
        if b > largest {
            largest = b;
        }
    });
    let found = summary.solutions > 0;
    Report {
        summary,
        smallest: found.then_some(smallest),
        largest: found.then_some(largest),
    }
}

/// Builds the meteor tables at run time, with the generator `build.rs` runs, and
/// returns their placements: what `benches/meteor.rs` times as `tables`.
#[doc(hidden)]
pub fn build_tables() -> usize {
    crate::tables::generate::meteor_tables(true, true)
        .0
        .placement_count()
}

/// All 2098 solutions in search order, from tables built at run time with or without
/// pruning and the half-turn restriction (to test that neither loses a solution).
#[cfg(test)]
pub(crate) fn all_solutions_from(tables: &crate::tables::Tables, threads: usize) -> Vec<Solution> {
    let lanes = crate::search::Lanes::new(tables).expect("meteor placements fit 32 bits");
    let window = Window::new(tables, &lanes).expect("meteor tables have 12 slots per group");
    let options = Options {
        threads,
        ..Options::default()
    };
    let mut all = Vec::new();
    search(&window, tables.restricted_piece.is_some(), &options, |b| {
        all.push(b)
    });
    all
}

/// One board in the Benchmarks Game format: each cell followed by a space, odd rows
/// indented by one space, a blank line after the board.
pub fn render_board(board: &Solution, out: &mut String) {
    for (row, cells) in board.chunks(WIDTH).enumerate() {
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
    let mut out = format!("{} solutions found\n\n", report.summary.solutions);
    for b in [&report.smallest, &report.largest].into_iter().flatten() {
        render_board(b, &mut out);
    }
    out
}

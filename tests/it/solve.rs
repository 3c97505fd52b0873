//! The general solve path (`polytile::solve`) against known counts, an independent
//! tiling verifier (`tests/common/tiling.rs`, its own square and hex geometry) and a
//! brute-force enumerator on small boards.
//!
//! Known counts (all solutions, rotations and reflections of the board counted as
//! different), as listed in `docs/known-counts.md`:
//! - 12 free pentominoes: 6x10 9,356; 5x12 4,040; 4x15 1,472; 3x20 8 (Wikipedia
//!   "Pentomino"; Polyform Puzzler); 8x8 minus the central 2x2 520 (Dana Scott, 1958;
//!   Wikipedia).
//! - 18 one-sided pentominoes on 3x30: 184 (Polyform Puzzler).
//! - 7 free tetrahexes on the 7x4 parallelogram: 18 (Polyform Puzzler).
//! - the meteor (10 pentahexes on the 5x10 hex board): 2,098 (Benchmarks Game
//!   meteor-contest reference output `2098_out`).
//! - domino tilings of 2 x n rectangles: Fibonacci numbers (1, 2, 3, 5, 8, 13); of 3x4:
//!   11; of 4x4: 36 (OEIS A000045, A001835, A004003).

use std::collections::BTreeSet;

use crate::common::tiling::{self, brute_force, verify_tiling, PieceSpec, Pt, Rng};
use crate::common::{random_board, solve, Limits, Outcome};
use polytile::grid;
use polytile::{Board, Grid, Motion, Piece, Tiling, TilingError as SolveError};

// ---------------------------------------------------------------------------------
// Puzzles in two forms: the library's and the verifier's.

/// A board and pieces, as the library takes them and as the verifier takes them.
#[derive(Clone, Debug)]
struct Puzzle {
    board: Board,
    pieces: Vec<Piece>,
    specs: Vec<PieceSpec>,
}

impl Puzzle {
    fn new(board: Board) -> Puzzle {
        Puzzle {
            board,
            pieces: Vec::new(),
            specs: Vec::new(),
        }
    }

    /// Adds a piece given by its `(row, col)` cells on the board's grid.
    fn add(&mut self, name: &str, cells: &[(usize, usize)], motion: Motion, count: u32) {
        let grid = self.board.grid;
        let lattice: Vec<_> = cells.iter().map(|&(r, c)| grid.lattice(0, r, c)).collect();
        self.pieces.push(Piece {
            name: name.into(),
            cells: grid::normalise(grid, &lattice),
            motion,
            count,
        });
        self.specs.push((cells.to_vec(), motion, count));
    }

    /// Cells of all pieces (counting copies) and of the board, counted here.
    fn areas(&self) -> (usize, usize) {
        let pieces = self
            .specs
            .iter()
            .map(|(c, _, n)| c.len() * *n as usize)
            .sum();
        (pieces, self.board.cells.iter().filter(|&&c| c).count())
    }

    /// The library's refusal of this puzzle, if it refuses it.
    fn refusal(&self, leftover: bool) -> Option<SolveError> {
        solve(&self.board, &self.pieces, leftover, Limits::default()).err()
    }

    fn run(&self, leftover: bool, limits: Limits) -> Outcome {
        solve(&self.board, &self.pieces, leftover, limits)
            .unwrap_or_else(|e| panic!("solve failed: {e}"))
    }

    fn count(&self, threads: usize) -> usize {
        self.run(
            false,
            Limits {
                threads,
                ..Limits::default()
            },
        )
        .count
    }

    fn solutions(&self, leftover: bool, limit: usize, threads: usize) -> Vec<Tiling> {
        let out = self.run(
            leftover,
            Limits {
                limit,
                keep: true,
                threads,
                stats: false,
            },
        );
        assert_eq!(out.count, out.solutions.len(), "count and kept solutions");
        out.solutions
    }

    fn verify(&self, t: &[Option<u16>], leftover: bool) -> Result<(), String> {
        let b = &self.board;
        verify_tiling(
            b.grid,
            b.width,
            b.height,
            &b.cells,
            &self.specs,
            t,
            leftover,
        )
    }

    fn verify_all(&self, solutions: &[Tiling], leftover: bool) {
        for t in solutions {
            if let Err(e) = self.verify(t, leftover) {
                panic!("invalid tiling {}: {e}", show(&self.board, t));
            }
        }
        let distinct: BTreeSet<&Tiling> = solutions.iter().collect();
        assert_eq!(distinct.len(), solutions.len(), "a tiling found twice");
    }

    fn brute_force(&self, leftover: bool) -> Vec<Tiling> {
        let b = &self.board;
        brute_force(b.grid, b.width, b.height, &b.cells, &self.specs, leftover)
    }
}

/// A tiling drawn row by row (row 0 first), pieces as letters, holes as `.`.
fn show(board: &Board, t: &Tiling) -> String {
    t.chunks(board.width)
        .map(|row| {
            row.iter()
                .map(|c| c.map_or('.', |p| (b'A' + (p % 26) as u8) as char))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The `(row, col)` cells of a drawing: rows separated by `/`, `#` for a cell.
fn drawing(text: &str) -> Vec<(usize, usize)> {
    text.split('/')
        .enumerate()
        .flat_map(|(r, line)| {
            line.chars()
                .enumerate()
                .filter(|&(_, ch)| ch == '#')
                .map(move |(c, _)| (r, c))
        })
        .collect()
}

/// `cells` mirrored left to right.
fn mirrored(cells: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let w = cells.iter().map(|&(_, c)| c).max().unwrap();
    cells.iter().map(|&(r, c)| (r, w - c)).collect()
}

fn board_with_holes(grid: Grid, width: usize, height: usize, holes: &[(usize, usize)]) -> Board {
    let mut b = Board::rectangle(grid, width, height);
    for &(r, c) in holes {
        b.cells[r * width + c] = false;
    }
    b
}

const PENTOMINOES: [(&str, &str); 12] = [
    ("F", ".##/##./.#."),
    ("I", "#####"),
    ("L", "####/#..."),
    ("N", "##../.###"),
    ("P", "##/##/#."),
    ("T", "###/.#./.#."),
    ("U", "#.#/###"),
    ("V", "#../#../###"),
    ("W", "#../##./.##"),
    ("X", ".#./###/.#."),
    ("Y", "####/.#.."),
    ("Z", "##./.#./.##"),
];

/// The pentominoes that differ from their mirror image.
const CHIRAL: [&str; 6] = ["F", "L", "N", "P", "Y", "Z"];

fn free_pentominoes(board: Board) -> Puzzle {
    let mut p = Puzzle::new(board);
    for (name, d) in PENTOMINOES {
        p.add(name, &drawing(d), Motion::Free, 1);
    }
    p
}

fn one_sided_pentominoes(board: Board) -> Puzzle {
    let mut p = Puzzle::new(board);
    for (name, d) in PENTOMINOES {
        p.add(name, &drawing(d), Motion::OneSided, 1);
        if CHIRAL.contains(&name) {
            p.add(
                &format!("{name}'"),
                &mirrored(&drawing(d)),
                Motion::OneSided,
                1,
            );
        }
    }
    p
}

fn square(width: usize, height: usize) -> Board {
    Board::rectangle(Grid::Square, width, height)
}

fn limits(threads: usize) -> Limits {
    Limits {
        threads,
        ..Limits::default()
    }
}

// ---------------------------------------------------------------------------------
// The verifier and the brute force themselves.

#[test]
fn verifier_hex_adjacency_matches_euclidean_geometry() {
    // Centres in half cell widths: x = 2 * col + row % 2, rows sqrt(3)/2 cell widths
    // apart; two hexes touch when their centres are one cell width apart.
    let (w, h) = (6, 7);
    for a in 0..w * h {
        for b in 0..w * h {
            let centre = |i: usize| ((2 * (i % w) + (i / w) % 2) as i64, (i / w) as i64);
            let ((xa, ya), (xb, yb)) = (centre(a), centre(b));
            let touch = (xa - xb).pow(2) + 3 * (ya - yb).pow(2) == 4;
            let (pa, pb) = (
                tiling::point(Grid::Hex, a / w, a % w),
                tiling::point(Grid::Hex, b / w, b % w),
            );
            assert_eq!(tiling::adjacent(Grid::Hex, pa, pb), touch, "{a} {b}");
            let sq = (a / w).abs_diff(b / w) + (a % w).abs_diff(b % w) == 1;
            let (qa, qb) = (
                tiling::point(Grid::Square, a / w, a % w),
                tiling::point(Grid::Square, b / w, b % w),
            );
            assert_eq!(tiling::adjacent(Grid::Square, qa, qb), sq, "{a} {b}");
        }
    }
}

#[test]
fn verifier_polyform_counts_are_the_known_ones() {
    // Free / one-sided / fixed polyominoes of 1..=5 cells (OEIS A000105, A000988,
    // A001168) and polyhexes (A000228, A006535, A001207).
    let square = [(1, 1, 1), (1, 1, 2), (2, 2, 6), (5, 7, 19), (12, 18, 63)];
    let hex = [(1, 1, 1), (1, 1, 3), (3, 3, 11), (7, 10, 44), (22, 33, 186)];
    for (grid, table) in [(Grid::Square, square), (Grid::Hex, hex)] {
        for (n, &(free, one_sided, fixed)) in table.iter().enumerate() {
            let size = n + 1;
            assert_eq!(tiling::polyforms(grid, size, Motion::Free).len(), free);
            let os = tiling::polyforms(grid, size, Motion::OneSided).len();
            assert_eq!(os, one_sided, "{grid:?} {size}");
            assert_eq!(tiling::polyforms(grid, size, Motion::Fixed).len(), fixed);
        }
    }
}

#[test]
fn drawn_pentominoes_are_the_12_free_and_18_one_sided() {
    let g = Grid::Square;
    let drawn: BTreeSet<Vec<Pt>> = PENTOMINOES
        .iter()
        .map(|(_, d)| tiling::canonical(g, &tiling::points(g, &drawing(d)), Motion::Free))
        .collect();
    let all: BTreeSet<Vec<Pt>> = tiling::polyforms(g, 5, Motion::Free).into_iter().collect();
    assert_eq!(drawn, all);
    let p = one_sided_pentominoes(square(3, 30));
    let one_sided: BTreeSet<Vec<Pt>> = p
        .specs
        .iter()
        .map(|(cells, m, _)| tiling::canonical(g, &tiling::points(g, cells), *m))
        .collect();
    let all: BTreeSet<Vec<Pt>> = tiling::polyforms(g, 5, Motion::OneSided)
        .into_iter()
        .collect();
    assert_eq!(p.specs.len(), 18);
    assert_eq!(one_sided, all);
}

#[test]
fn verifier_rejects_broken_tilings() {
    // Two L trominoes on a 2 x 3 board, as one copy each of two pieces and as two copies
    // of one piece.
    let l = drawing("##/#.");
    let good: Tiling = [0, 0, 1, 0, 1, 1].map(Some).to_vec();
    let mut p = Puzzle::new(square(3, 2));
    p.add("a", &l, Motion::Free, 1);
    p.add("b", &l, Motion::Free, 1);
    p.verify(&good, false).unwrap();
    let mut fixed = p.clone();
    fixed.specs[1].1 = Motion::Fixed;
    assert!(fixed.verify(&good, false).is_err(), "needs a half turn");
    fixed.specs[1].1 = Motion::OneSided;
    fixed.verify(&good, false).unwrap();
    // A mirror image is not a rotation: the S and Z tetrominoes.
    let mut s = Puzzle::new(square(3, 2));
    s.add("s", &drawing("##./.##"), Motion::OneSided, 1);
    s.verify(&[0, 0, 1, 1, 0, 0].map(Some), true).unwrap_err();
    s.verify(&[0, 0, 0, 0, 0, 1].map(Some), true).unwrap_err();
    s.verify(&[None, Some(0), Some(0), Some(0), Some(0), None], false)
        .unwrap_err();
    s.board.cells = vec![true, true, false, false, true, true];
    s.verify(&[Some(0), Some(0), None, None, Some(0), Some(0)], false)
        .unwrap();

    let mut two = Puzzle::new(square(3, 2));
    two.add("l", &l, Motion::Free, 2);
    two.verify(&[0; 6].map(Some), false).unwrap();
    let mut broken = good.clone();
    broken[2] = Some(0);
    broken[3] = Some(1);
    assert!(p.verify(&broken, false).is_err(), "shapes broken");
    assert!(p.verify(&[0; 6].map(Some), false).is_err(), "b unused");
    p.verify(&[0; 6].map(Some), true).unwrap_err();
    let mut uncovered = good.clone();
    uncovered[5] = None;
    assert!(p.verify(&uncovered, true).is_err(), "uncovered cell");
    assert!(p.verify(&good[..5], false).is_err(), "short tiling");
    let mut holey = p.clone();
    holey.board.cells[5] = false;
    assert!(holey.verify(&good, false).is_err(), "hole covered");
    assert!(p.verify(&[0, 0, 2, 0, 2, 2].map(Some), false).is_err());
    // Two copies of one piece that touch: a 2 x 2 square of dominoes is fine, three
    // cells of a domino are not.
    let mut d = Puzzle::new(square(2, 2));
    d.add("d", &[(0, 0), (0, 1)], Motion::Free, 2);
    d.verify(&[Some(0); 4], false).unwrap();
    d.board = square(3, 1);
    assert!(d.verify(&[Some(0); 3], true).is_err());
    // A hex piece is congruent only through hex motions: a straight line of three
    // hexes on rows 0..3 zig-zags in offset columns.
    let mut h = Puzzle::new(Board::rectangle(Grid::Hex, 2, 3));
    h.add("i", &[(0, 0), (0, 1)], Motion::Free, 3);
    h.verify(&[0; 6].map(Some), false).unwrap();
    let mut h3 = Puzzle::new(Board::rectangle(Grid::Hex, 1, 3));
    h3.add("i", &[(0, 0), (0, 1), (0, 2)], Motion::Free, 1);
    assert!(
        h3.verify(&[Some(0); 3], false).is_err(),
        "bent on the hex grid"
    );
    h3.specs[0].0 = vec![(0, 0), (1, 0), (2, 0)];
    h3.verify(&[Some(0); 3], false).unwrap();
}

#[test]
fn brute_force_counts_domino_tilings() {
    let domino = vec![(0, 0), (0, 1)];
    for (w, h, copies, expected) in [
        (2, 1, 1, 1),
        (2, 2, 2, 2),
        (2, 3, 3, 3),
        (2, 4, 4, 5),
        (2, 5, 5, 8),
        (2, 6, 6, 13),
        (3, 4, 6, 11),
        (4, 4, 8, 36),
    ] {
        let mut p = Puzzle::new(square(w, h));
        p.add("d", &domino, Motion::Free, copies);
        let bf = p.brute_force(false);
        assert_eq!(bf.len(), expected, "{w} x {h}");
        // ... and the solver.
        let mut p2 = p.clone();
        p2.board = square(h, w);
        assert_eq!(p.count(1), expected, "{w} x {h}");
        assert_eq!(p2.count(2), expected, "{h} x {w}");
    }
}

/// More than 32 pieces counting copies: copies of a piece are one search piece, so
/// there is no ceiling at 32 (there was one until version 0.3).
#[test]
fn many_copies_of_a_piece() {
    let domino = vec![(0, 0), (0, 1)];
    // 33 monominoes fill a 3 x 11 board one way.
    let mut p = Puzzle::new(square(3, 11));
    p.add("m", &[(0, 0)], Motion::Free, 33);
    let sols = p.solutions(false, usize::MAX, 2);
    assert_eq!(sols.len(), 1);
    p.verify_all(&sols, false);
    // Dominoes on 2 x 34 (34 copies): Fibonacci F(35) tilings (OEIS A000045), the first
    // thousand verified (a tiling names pieces, not copies, so two tilings by one piece
    // alone read the same and are not compared).
    let mut p = Puzzle::new(square(2, 34));
    p.add("d", &domino, Motion::Free, 34);
    assert_eq!(p.count(2), 9_227_465);
    let sols = p.solutions(false, 1000, 2);
    assert_eq!(sols.len(), 1000);
    for t in &sols {
        p.verify(t, false).unwrap();
    }
    // Dominoes with a tromino on a 5 x 7 board: a piece with copies next to one without,
    // against brute force.
    let mut p = Puzzle::new(square(5, 7));
    p.add("d", &domino, Motion::Free, 16);
    p.add("l", &[(0, 0), (1, 0), (0, 1)], Motion::Free, 1);
    let sols = p.solutions(false, usize::MAX, 2);
    for t in &sols {
        p.verify(t, false).unwrap();
    }
    assert_eq!(sols.len(), p.brute_force(false).len());
}

// ---------------------------------------------------------------------------------
// Known counts.

/// Counts all solutions, and verifies all of them (`verify_all`) or the first 200.
fn check_pentominoes(width: usize, height: usize, expected: usize, verify_all: bool) {
    let p = free_pentominoes(square(width, height));
    if verify_all {
        let sols = p.solutions(false, usize::MAX, 2);
        assert_eq!(sols.len(), expected, "{width} x {height}");
        p.verify_all(&sols, false);
    } else {
        assert_eq!(p.count(2), expected, "{width} x {height}");
        let sols = p.solutions(false, 200, 2);
        assert_eq!(sols.len(), 200.min(expected));
        p.verify_all(&sols, false);
    }
}

#[test]
fn pentominoes_6x10_both_ways() {
    check_pentominoes(6, 10, 9356, false);
    check_pentominoes(10, 6, 9356, false);
}

#[test]
fn pentominoes_5x12_both_ways() {
    check_pentominoes(5, 12, 4040, false);
    check_pentominoes(12, 5, 4040, false);
}

#[test]
fn pentominoes_4x15_both_ways() {
    check_pentominoes(4, 15, 1472, true);
    check_pentominoes(15, 4, 1472, true);
}

#[test]
fn pentominoes_3x20_both_ways() {
    check_pentominoes(3, 20, 8, true);
    check_pentominoes(20, 3, 8, true);
}

#[test]
fn transposed_board_gives_the_transposed_solutions() {
    let tall = free_pentominoes(square(3, 20)).solutions(false, usize::MAX, 1);
    let wide = free_pentominoes(square(20, 3)).solutions(false, usize::MAX, 1);
    let transpose = |t: &Tiling| -> Tiling { (0..60).map(|i| t[(i % 3) * 20 + i / 3]).collect() };
    let a: BTreeSet<Tiling> = tall.iter().cloned().collect();
    let b: BTreeSet<Tiling> = wide.iter().map(transpose).collect();
    assert_eq!(a, b);
}

#[test]
fn pentominoes_8x8_without_the_centre() {
    let holes = [(3, 3), (3, 4), (4, 3), (4, 4)];
    let p = free_pentominoes(board_with_holes(Grid::Square, 8, 8, &holes));
    let sols = p.solutions(false, usize::MAX, 2);
    assert_eq!(sols.len(), 520);
    p.verify_all(&sols, false);
}

#[test]
fn one_sided_pentominoes_3x30_both_ways() {
    // 90 cells: more than the 64-bit window holds, so the window moves.
    for (w, h) in [(3, 30), (30, 3)] {
        let p = one_sided_pentominoes(square(w, h));
        let sols = p.solutions(false, usize::MAX, 2);
        assert_eq!(sols.len(), 184, "{w} x {h}");
        p.verify_all(&sols, false);
    }
}

#[test]
fn tetrahexes_on_the_7x4_parallelogram() {
    let g = Grid::Hex;
    let shapes = tiling::polyforms(g, 4, Motion::Free);
    assert_eq!(shapes.len(), 7);
    // Axial q in 0..7, r in 0..4: offset rows 0 and 1 are columns 0..7, rows 2 and 3
    // columns 1..8 of an 8-wide board.
    let mut board = Board::rectangle(g, 8, 4);
    for r in 0..4 {
        for c in 0..8 {
            board.cells[r * 8 + c] = (r / 2..r / 2 + 7).contains(&c);
        }
    }
    let mut p = Puzzle::new(board);
    for (i, s) in shapes.iter().enumerate() {
        p.add(&i.to_string(), &tiling::to_cells(g, s), Motion::Free, 1);
    }
    let sols = p.solutions(false, usize::MAX, 2);
    assert_eq!(sols.len(), 18);
    p.verify_all(&sols, false);
    assert_eq!(p.count(1), 18);
}

#[test]
fn meteor_through_the_generic_path() {
    use crate::common::tiling::meteor;
    let board = grid::meteor::board();
    let pieces = grid::meteor::pieces();
    let out = solve(&board, &pieces, false, limits(2)).unwrap();
    assert_eq!(out.count as u64, meteor::ALL_SOLUTIONS);
    let kept = solve(
        &board,
        &pieces,
        false,
        Limits {
            keep: true,
            ..limits(2)
        },
    )
    .unwrap();
    assert_eq!(kept.count as u64, meteor::ALL_SOLUTIONS);
    let digits = |t: &Tiling| -> [u8; 50] {
        let v: Vec<u8> = t.iter().map(|c| b'0' + c.unwrap() as u8).collect();
        v.try_into().unwrap()
    };
    let generic: BTreeSet<[u8; 50]> = kept.solutions.iter().map(digits).collect();
    assert_eq!(generic.len() as u64, meteor::ALL_SOLUTIONS);
    assert_eq!(generic.first(), Some(&meteor::digits(meteor::SMALLEST)));
    assert_eq!(generic.last(), Some(&meteor::digits(meteor::LARGEST)));
    // (That these are the baked tables' solutions is a unit test of the library.)
    let pieces = meteor::pieces();
    for b in &generic {
        meteor::verify_with(b, &pieces).unwrap();
    }
    // And with this verifier, from the library's own description of the pieces.
    let mut p = Puzzle::new(board);
    for (i, cells) in grid::meteor::PIECE_CELLS.iter().enumerate() {
        p.add(&i.to_string(), cells, Motion::Free, 1);
    }
    p.verify_all(&kept.solutions, false);
}

// ---------------------------------------------------------------------------------
// Copies, leftovers and brute force.

#[test]
fn copies_are_interchangeable() {
    let mut p = Puzzle::new(square(2, 2));
    p.add("d", &[(0, 0), (0, 1)], Motion::Free, 2);
    assert_eq!(p.count(1), 2);
    let mut p = Puzzle::new(square(4, 2));
    p.add("d", &[(0, 0), (0, 1)], Motion::Free, 4);
    assert_eq!(p.count(1), 5);
    let sols = p.solutions(false, usize::MAX, 2);
    assert_eq!(sols.len(), 5);
    // Copies share an index, so all five tilings draw the same.
    for t in &sols {
        p.verify(t, false).unwrap();
        assert_eq!(*t, vec![Some(0); 8]);
    }
    let mut p = Puzzle::new(square(4, 2));
    p.add("d", &[(0, 0), (0, 1)], Motion::Free, 2);
    p.add("e", &[(0, 0), (0, 1)], Motion::Free, 2);
    // Each of the 5 placement sets, with 2 of its 4 dominoes called e: 5 * 6 = 30.
    assert_eq!(p.count(2), 30);
    assert_eq!(p.brute_force(false).len(), 30);
}

/// The library's solutions and the brute force's, as sorted lists (the same tiling may
/// occur more than once when copies of a piece touch).
fn compare_with_brute_force(p: &Puzzle, leftover: bool) -> Result<usize, String> {
    let mut bf = p.brute_force(leftover);
    bf.sort();
    // Areas that cannot tile are refused before anything is built; the brute force
    // must agree that there is nothing to find.
    let (pieces, board) = p.areas();
    if pieces < board || (pieces > board && !leftover) {
        let want = SolveError::Areas {
            pieces,
            board,
            leftover,
        };
        return match solve(&p.board, &p.pieces, leftover, limits(1)) {
            Err(e) if e == want && bf.is_empty() => Ok(0),
            Err(e) if e == want => Err(format!("refused, but brute force finds {}", bf.len())),
            other => Err(format!("expected {want}, got {:?}", other.map(|o| o.count))),
        };
    }
    for threads in [1, 2] {
        let out = solve(
            &p.board,
            &p.pieces,
            leftover,
            Limits {
                keep: true,
                ..limits(threads)
            },
        )
        .map_err(|e| format!("solve error {e}"))?;
        let mut lib = out.solutions;
        for t in &lib {
            p.verify(t, leftover)
                .map_err(|e| format!("invalid tiling {}: {e}", show(&p.board, t)))?;
        }
        if out.count != lib.len() {
            return Err(format!("count {} but {} kept", out.count, lib.len()));
        }
        lib.sort();
        if lib != bf {
            let extra: Vec<String> = lib
                .iter()
                .filter(|t| !bf.contains(t))
                .take(3)
                .map(|t| show(&p.board, t))
                .collect();
            let missing: Vec<String> = bf
                .iter()
                .filter(|t| !lib.contains(t))
                .take(3)
                .map(|t| show(&p.board, t))
                .collect();
            return Err(format!(
                "threads {threads}: library {} tilings, brute force {}; extra {extra:?}, missing {missing:?}",
                lib.len(),
                bf.len()
            ));
        }
    }
    Ok(bf.len())
}

/// How the piece area of a random case compares with the board's.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Area {
    Equal,
    More,
    Less,
}

/// A random board of at most 12 cells (some of them holes) and random connected pieces
/// of 1 to 4 cells with random motions and copies, whose total area is as asked.
fn random_puzzle(rng: &mut Rng, area: Area) -> Puzzle {
    let board = random_board(rng);
    let grid = board.grid;
    let n = board.cells.iter().filter(|&&c| c).count();
    let target = match area {
        Area::Equal => n,
        Area::More => n + 1 + rng.below(4),
        Area::Less if n > 1 => n - 1 - rng.below((n - 1).min(2)),
        Area::Less => return random_puzzle(rng, area),
    };
    let mut p = Puzzle::new(board);
    let mut covered = 0;
    while covered < target {
        let size = (1 + rng.below(4)).min(target - covered);
        let shape = tiling::random_shape(rng, grid, size);
        let motion = [Motion::Free, Motion::OneSided, Motion::Fixed][rng.below(3)];
        let count = (1 + rng.below(3)).min((target - covered) / size);
        covered += size * count;
        let name = p.pieces.len().to_string();
        p.add(&name, &tiling::to_cells(grid, &shape), motion, count as u32);
    }
    p
}

/// Runs `cases` random puzzles against the brute force; panics listing the failures.
fn random_against_brute_force(seed: u64, cases: usize, area: Area, leftover: bool) -> usize {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut solved = 0;
    for case in 0..cases {
        let p = random_puzzle(&mut rng, area);
        match compare_with_brute_force(&p, leftover) {
            Ok(n) => solved += usize::from(n > 0),
            Err(e) => failures.push(format!("case {case}: {p:?}\n  {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases fail:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
    solved
}

#[test]
fn random_small_puzzles_match_brute_force() {
    let solved = random_against_brute_force(0x5eed_0001, 300, Area::Equal, false);
    assert!(solved >= 50, "only {solved} cases had a tiling");
}

#[test]
fn random_small_triangle_puzzles_match_brute_force() {
    // The random cases above on the triangle grid only: more of them, all checked.
    let mut rng = Rng(0x5eed_0007);
    let (mut cases, mut solved) = (0, 0);
    while cases < 200 {
        let p = random_puzzle(&mut rng, Area::Equal);
        if p.board.grid != Grid::Triangle {
            continue;
        }
        cases += 1;
        match compare_with_brute_force(&p, false) {
            Ok(n) => solved += usize::from(n > 0),
            Err(e) => panic!("case {cases}: {p:?}\n  {e}"),
        }
    }
    assert!(solved >= 30, "only {solved} cases had a tiling");
}

#[test]
fn random_small_puzzles_with_leftover_match_brute_force() {
    let solved = random_against_brute_force(0x5eed_0002, 300, Area::More, true);
    assert!(solved >= 50, "only {solved} cases had a tiling");
}

#[test]
fn random_small_puzzles_with_leftover_allowed_but_equal_area_match_brute_force() {
    random_against_brute_force(0x5eed_0003, 200, Area::Equal, true);
}

#[test]
fn random_small_puzzles_with_too_much_area_have_no_exact_tiling() {
    random_against_brute_force(0x5eed_0004, 200, Area::More, false);
}

#[test]
fn random_small_puzzles_with_too_little_area_have_no_tiling() {
    random_against_brute_force(0x5eed_0005, 200, Area::Less, false);
}

#[test]
fn random_small_puzzles_with_too_little_area_and_leftover_have_no_tiling() {
    random_against_brute_force(0x5eed_0006, 200, Area::Less, true);
}

#[test]
fn leftover_counts() {
    // 2 x 3 with an L tromino and three dominoes to spare (one is left over), and with
    // two monominoes besides.
    let mut p = Puzzle::new(square(3, 2));
    p.add("l", &drawing("##/#."), Motion::Free, 1);
    p.add("d", &[(0, 0), (0, 1)], Motion::Free, 3);
    // The L cannot be used (3 + 2k is never 6): the 3 domino tilings, the L left over.
    assert_eq!(p.brute_force(true).len(), 3);
    compare_with_brute_force(&p, true).unwrap();
    assert_eq!(
        p.refusal(false),
        Some(SolveError::Areas {
            pieces: 9,
            board: 6,
            leftover: false
        }),
        "without leftover the areas differ"
    );
    p.add("m", &[(0, 0)], Motion::Free, 2);
    compare_with_brute_force(&p, true).unwrap();
    // All twelve pentominoes on 5 x 11 (one left over): verified.
    let p = free_pentominoes(square(5, 11));
    let out = p.run(
        true,
        Limits {
            limit: 300,
            keep: true,
            ..limits(2)
        },
    );
    assert_eq!(out.count, 300);
    p.verify_all(&out.solutions, true);
}

#[test]
fn incomplete_board_is_not_a_solution() {
    // A column of 4 cells with a hole in row 2 and two monominoes: area 2 on 3 cells, so
    // no tiling, with or without leftover; the library refuses it before searching.
    let mut p = Puzzle::new(board_with_holes(Grid::Square, 1, 4, &[(2, 0)]));
    p.add("m", &[(0, 0)], Motion::Free, 2);
    assert!(p.brute_force(false).is_empty());
    assert!(p.brute_force(true).is_empty());
    for leftover in [false, true] {
        assert_eq!(
            p.refusal(leftover),
            Some(SolveError::Areas {
                pieces: 2,
                board: 3,
                leftover
            })
        );
    }
    // With a monomino more the areas match, but a tiling that misses a cell is still
    // no tiling: the verifier and the brute force agree on the one tiling there is.
    p.add("n", &[(0, 0)], Motion::Free, 1);
    compare_with_brute_force(&p, false).unwrap();
}

#[test]
fn leftover_solutions_are_counted_once() {
    // A 1 x 2 board, a domino and an L tromino that cannot be used: one tiling. The
    // board and pieces are symmetric under the half turn, and the L has no orientation
    // that is its own half turn.
    let mut p = Puzzle::new(square(1, 2));
    p.add("d", &[(0, 0), (1, 0)], Motion::Free, 1);
    p.add("l", &drawing("##/#."), Motion::Free, 1);
    assert_eq!(p.brute_force(true).len(), 1);
    assert_eq!(p.run(true, limits(1)).count, 1);
    let sols = p.solutions(true, usize::MAX, 1);
    assert_eq!(sols, vec![vec![Some(0); 2]]);
}

#[test]
fn boards_with_more_than_64_open_cells() {
    // A column of 69 cells and 23 straight trominoes: one tiling. After the first piece
    // 66 cells are left open, more than the 64-bit window holds.
    for h in [63, 66, 69, 72] {
        for (w, h) in [(1, h), (h, 1)] {
            let mut p = Puzzle::new(square(w, h));
            p.add(
                "i",
                &[(0, 0), (0, 1), (0, 2)],
                Motion::Free,
                (w * h / 3) as u32,
            );
            let sols = p.solutions(false, usize::MAX, 2);
            assert_eq!(sols.len(), 1, "{w} x {h}");
            p.verify_all(&sols, false);
        }
    }
}

#[test]
fn errors_do_not_panic() {
    // More area than the board, no leftover: refused, naming the areas.
    let mut p = Puzzle::new(square(2, 2));
    p.add("d", &[(0, 0), (0, 1)], Motion::Free, 3);
    let more = SolveError::Areas {
        pieces: 6,
        board: 4,
        leftover: false,
    };
    assert_eq!(p.refusal(false), Some(more));
    assert!(
        p.refusal(true).is_none(),
        "with leftover 6 cells may cover 4"
    );
    // Less area than the board: refused with or without leftover.
    let mut p = Puzzle::new(square(2, 2));
    p.add("d", &[(0, 0), (0, 1)], Motion::Free, 1);
    for leftover in [false, true] {
        assert_eq!(
            p.refusal(leftover),
            Some(SolveError::Areas {
                pieces: 2,
                board: 4,
                leftover
            })
        );
    }
    // Too many different pieces: 33 monominoes with names of their own.
    let monos: Vec<Piece> = (0..33)
        .map(|i| Piece {
            name: format!("m{i}"),
            cells: vec![(0, 0, 0)],
            motion: Motion::Free,
            count: 1,
        })
        .collect();
    let r = solve(&square(3, 11), &monos, false, Limits::default());
    assert_eq!(r.unwrap_err(), SolveError::TooManyPieces(33));
    // Counts past what a tiling labels, or past the search's 64-bit counter (each
    // of five pieces with 2^13 copies needs 14 bits).
    let r = solve(&square(32, 32), &[mono(70_000)], true, Limits::default());
    assert_eq!(
        r.unwrap_err(),
        SolveError::TooManyCopies {
            copies: 70_000,
            bits: 17
        }
    );
    let five: Vec<Piece> = (0..5)
        .map(|i| Piece {
            name: format!("m{i}"),
            ..mono(1 << 13)
        })
        .collect();
    let r = solve(&square(2, 2), &five, true, Limits::default());
    assert_eq!(
        r.unwrap_err(),
        SolveError::TooManyCopies {
            copies: 5 << 13,
            bits: 70
        }
    );
    // A piece too long for the window on a wide hex board (hex boards are not
    // transposed): 20 columns leave 3 rows in 64 bits.
    let mut p = Puzzle::new(Board::rectangle(Grid::Hex, 20, 5));
    p.add(
        "i",
        &[(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)],
        Motion::Free,
        20,
    );
    assert!(matches!(
        solve(&p.board, &p.pieces, false, Limits::default()),
        Err(SolveError::Tables(_))
    ));
}

#[test]
fn no_pieces_does_not_panic() {
    // No pieces, or only pieces with no copies: nothing tiles a non-empty board. An
    // error would do as well as no solutions; a panic would not.
    let mut zero = Puzzle::new(square(2, 2));
    zero.add("m", &[(0, 0)], Motion::Free, 0);
    for pieces in [&[][..], &zero.pieces[..]] {
        for leftover in [false, true] {
            match solve(&square(2, 2), pieces, leftover, Limits::default()) {
                Ok(out) => assert_eq!(out.count, 0),
                Err(e) => eprintln!("no pieces: {e}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Limits, threads and statistics.

#[test]
fn threads_and_limits_give_the_same_solutions() {
    let p = free_pentominoes(square(6, 10));
    let one = p.solutions(false, 100, 1);
    let two = p.solutions(false, 100, 2);
    assert_eq!(one.len(), 100);
    assert_eq!(one, two);
    p.verify_all(&one, false);
    // A limit takes the first solutions of the search order.
    for (w, h) in [(3, 20), (20, 3)] {
        let p = free_pentominoes(square(w, h));
        let all = p.solutions(false, usize::MAX, 1);
        assert_eq!(all, p.solutions(false, usize::MAX, 2));
        for limit in [0, 1, 2, 3, 7, 8, 9, 1000] {
            for threads in [1, 2] {
                let some = p.solutions(false, limit, threads);
                assert_eq!(some, all[..limit.min(all.len())], "limit {limit}");
                let n = p.run(
                    false,
                    Limits {
                        limit,
                        ..limits(threads)
                    },
                );
                assert_eq!(n.count, limit.min(8), "limit {limit} threads {threads}");
            }
        }
    }
    // Same on a hex board, whose symmetry the solver may exploit.
    let shapes = tiling::polyforms(Grid::Hex, 4, Motion::Free);
    let mut p = Puzzle::new(Board::rectangle(Grid::Hex, 4, 7));
    for (i, s) in shapes.iter().enumerate() {
        p.add(
            &i.to_string(),
            &tiling::to_cells(Grid::Hex, s),
            Motion::Free,
            1,
        );
    }
    let all = p.solutions(false, usize::MAX, 1);
    p.verify_all(&all, false);
    assert_eq!(all, p.solutions(false, usize::MAX, 2));
    for limit in [1, 3, all.len() + 1] {
        assert_eq!(
            p.solutions(false, limit, 2),
            all[..limit.min(all.len())],
            "limit {limit}"
        );
    }
}

#[test]
fn stats_count_nodes() {
    let p = free_pentominoes(square(4, 15));
    let with = |threads, stats| {
        p.run(
            false,
            Limits {
                stats,
                ..limits(threads)
            },
        )
    };
    let a = with(1, true);
    assert_eq!(a.count, 1472);
    assert!(a.nodes > a.count as u64, "nodes {}", a.nodes);
    assert!(a.placements > 0);
    assert_eq!(
        with(2, true).nodes,
        a.nodes,
        "a full search visits the same nodes"
    );
    assert_eq!(with(1, false).nodes, 0);
}

#[test]
fn triangle_boards_the_window_cannot_serve_get_a_clear_error() {
    use polytile::{Mode, Puzzle as Tiles, TilingSolver};
    let bar = |pairs: i32, count: u32| Piece {
        name: "bar".into(),
        cells: (0..2 * pairs)
            .map(|c| Grid::Triangle.lattice(0, 0, c as usize))
            .collect(),
        motion: Motion::Free,
        count,
    };
    let error = |board: Board, piece: Piece| match TilingSolver::new(
        &Tiles::new("t", board, vec![piece]),
        Mode::All,
    ) {
        Ok(_) => panic!("solved"),
        Err(e) => e.to_string(),
    };
    // A 32 x 32 rhombus is 64 triangles wide either way.
    assert_eq!(
        error(Board::rectangle(Grid::Triangle, 64, 32), bar(32, 32)),
        "a board 64 cells wide does not fit the 64-bit search window (1 to 32 columns)"
    );
    // A 12 x 12 rhombus is 24 wide either way: a window of two rows, which a bar turned
    // across the rows overflows.
    assert!(error(Board::rectangle(Grid::Triangle, 24, 12), bar(12, 12))
        .contains("rows of the search window, more than 64 bits hold at this board width"),);
    // A 12 x 2 parallelogram drawn 24 wide is searched 4 wide (transposed): served, its
    // one tiling a bar along each row.
    let wide = Tiles::new(
        "t",
        Board::rectangle(Grid::Triangle, 24, 2),
        vec![bar(12, 2)],
    );
    let solver = TilingSolver::new(&wide, Mode::All).unwrap();
    assert_eq!(solver.count(&polytile::Options::default()).solutions, 1);
}

#[test]
fn hand_built_pieces_are_checked_before_anything_is_built() {
    use polytile::{Mode, Puzzle as Tiles, TilingSolver};
    let error = |grid: Grid, cells: Vec<(i32, i32)>, count: u32| {
        let piece = Piece {
            name: "a".into(),
            cells: cells.into_iter().map(|(x, y)| (x, y, 0)).collect(),
            motion: Motion::Free,
            count,
        };
        let puzzle = Tiles::new("t", Board::rectangle(grid, 2, 1), vec![piece]);
        TilingSolver::new(&puzzle, Mode::All)
            .err()
            .map(|e| e.to_string())
    };
    // The triangle grid's cells are three times triangle centroids: (0, 0) is a corner.
    assert_eq!(
        error(Grid::Triangle, vec![(1, 1), (0, 0)], 1).as_deref(),
        Some("piece 'a' lists the point (0, 0, 0), which is no cell of the triangle grid")
    );
    assert_eq!(error(Grid::Triangle, vec![(1, 1), (2, 2)], 1), None);
    assert_eq!(error(Grid::Square, vec![(0, 0), (1, 0)], 1), None);
    assert_eq!(
        error(Grid::Square, vec![(0, 0), (0, 0)], 1).as_deref(),
        Some("piece 'a' lists a cell twice")
    );
    assert_eq!(
        error(Grid::Square, vec![(0, 0), (1, 0)], 0).as_deref(),
        Some("piece 'a' has count 0; every piece needs at least one copy")
    );
}

/// `count` copies of one monomino.
fn mono(count: u32) -> Piece {
    Piece {
        name: "m".into(),
        cells: vec![(0, 0, 0)],
        motion: Motion::Free,
        count,
    }
}

//! `solve_distinct` against brute force on small random puzzles: the classes must be the
//! orbits of the solutions under the symmetries of the board and piece set.
//!
//! A solution is a set of placements `(piece, cells)`: copies of a piece share an index
//! in a `Tiling`, so two different placement sets can draw the same labelled tiling (two
//! dominoes of one piece filling a 2 x 2 square across or down). The brute force
//! (`tests/common/tiling.rs`) returns one labelled tiling per placement set; here each
//! distinct tiling is split back into every placement set that draws it
//! ([`decompositions`]), which must be as many as the brute force drew it. Orbits are
//! counted on those placement sets, under the group that `tiling::symmetries` computes
//! with the verifier's own geometry (a rotation or reflection mapping the board onto
//! itself and the piece kinds onto themselves, mirror partners relabelled; two pieces of
//! one kind are never swapped by a symmetry that keeps their kind).
//!
//! Checked: classes = orbits, total = placement sets = `solve`'s count; the
//! representatives are valid tilings whose orbits (as tilings) cover every solution and,
//! when every piece has one copy, are pairwise inequivalent; `NoSymmetryPiece` only when
//! no piece with one copy is mapped to itself by every symmetry; with a limit `N`,
//! `min(N, D)` classes, the first ones of the unlimited search, standing for the sum of
//! their orbit sizes.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::tiling::{self, PieceSpec, Rng, Symmetry};
use crate::common::{random_board, solve, solve_distinct, Distinct, Limits};
use polytile::grid;
use polytile::{Board, Grid, Motion, Piece, Puzzle, Tiling, TilingError as SolveError};

/// A placement: a piece and the sorted board cells it covers.
type Placement = (u16, Vec<usize>);
/// A solution as a sorted set of placements.
type Solution = Vec<Placement>;

// ---------------------------------------------------------------------------------
// Puzzles in the library's form and the verifier's.

#[derive(Clone, Debug)]
struct Case {
    board: Board,
    pieces: Vec<Piece>,
    specs: Vec<PieceSpec>,
}

impl Case {
    fn new(board: Board) -> Case {
        Case {
            board,
            pieces: Vec::new(),
            specs: Vec::new(),
        }
    }

    /// Adds a piece given by its `(row, col)` cells.
    fn add(&mut self, cells: &[(usize, usize)], motion: Motion, count: u32) {
        let grid = self.board.grid;
        let lattice: Vec<_> = cells.iter().map(|&(r, c)| grid.lattice(0, r, c)).collect();
        self.pieces.push(Piece {
            name: self.pieces.len().to_string(),
            cells: grid::normalise(grid, &lattice),
            motion,
            count,
        });
        self.specs.push((cells.to_vec(), motion, count));
    }

    fn area(&self) -> usize {
        self.specs.iter().map(|s| s.0.len() * s.2 as usize).sum()
    }

    fn group(&self) -> Vec<Symmetry> {
        let b = &self.board;
        tiling::symmetries(b.grid, b.width, b.height, &b.cells, &self.specs)
    }

    fn verify(&self, t: &Tiling) -> Result<(), String> {
        let b = &self.board;
        tiling::verify_tiling(b.grid, b.width, b.height, &b.cells, &self.specs, t, false)
    }

    fn brute_force(&self) -> Vec<Tiling> {
        let b = &self.board;
        tiling::brute_force(b.grid, b.width, b.height, &b.cells, &self.specs, false)
    }

    fn distinct(&self, limit: usize, threads: usize) -> Result<Distinct, SolveError> {
        let limits = Limits {
            limit,
            keep: true,
            threads,
            stats: false,
        };
        solve_distinct(&self.board, &self.pieces, false, limits)
    }

    /// Every piece has one copy: a labelled tiling is then one solution.
    fn exact(&self) -> bool {
        self.specs.iter().all(|s| s.2 == 1)
    }

    fn show(&self, t: &Tiling) -> String {
        t.chunks(self.board.width)
            .map(|row| {
                row.iter()
                    .map(|c| c.map_or('.', |p| (b'A' + (p % 26) as u8) as char))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// Every placement set drawing the labelled tiling `t`: the cells of each piece split
/// into copies of it in every possible way.
fn decompositions(case: &Case, t: &Tiling) -> Vec<Solution> {
    let b = &case.board;
    let mut out: Vec<Solution> = vec![Vec::new()];
    for (i, (shape, motion, _)) in case.specs.iter().enumerate() {
        let mine: Vec<bool> = t.iter().map(|&c| c == Some(i as u16)).collect();
        let shape = tiling::points(b.grid, shape);
        let candidates = tiling::placements(b.grid, b.width, b.height, &mine, &shape, *motion);
        let cells: BTreeSet<usize> = (0..t.len()).filter(|&c| mine[c]).collect();
        let mut ways = Vec::new();
        cover(cells, &candidates, &mut Vec::new(), &mut ways);
        out = out
            .iter()
            .flat_map(|s| {
                ways.iter().map(move |w: &Vec<Vec<usize>>| {
                    let mut s = s.clone();
                    s.extend(w.iter().map(|c| (i as u16, c.clone())));
                    s
                })
            })
            .collect();
    }
    for s in &mut out {
        s.sort();
    }
    out
}

/// Every way to split `left` into `candidates` (sorted cell lists).
fn cover(
    left: BTreeSet<usize>,
    candidates: &[Vec<usize>],
    chosen: &mut Vec<Vec<usize>>,
    out: &mut Vec<Vec<Vec<usize>>>,
) {
    let Some(&low) = left.first() else {
        out.push(chosen.clone());
        return;
    };
    for c in candidates {
        if c[0] == low && c.iter().all(|x| left.contains(x)) {
            let rest = left.iter().copied().filter(|x| !c.contains(x)).collect();
            chosen.push(c.clone());
            cover(rest, candidates, chosen, out);
            chosen.pop();
        }
    }
}

/// What the brute force and the group say about a case.
struct Expected {
    /// The brute force's tilings, sorted (one per solution).
    tilings: Vec<Tiling>,
    /// Every solution.
    solutions: BTreeSet<Solution>,
    /// The classes: each solution's least image.
    classes: BTreeSet<Solution>,
    group: Vec<Symmetry>,
    /// Pieces with one copy that every symmetry maps to itself.
    fixed_pieces: Vec<usize>,
}

fn expected(case: &Case) -> Result<Expected, String> {
    let mut tilings = case.brute_force();
    tilings.sort();
    let mut multiplicity: BTreeMap<&Tiling, usize> = BTreeMap::new();
    for t in &tilings {
        *multiplicity.entry(t).or_default() += 1;
    }
    let mut solutions = BTreeSet::new();
    for (t, &m) in &multiplicity {
        let d = decompositions(case, t);
        if d.len() != m {
            return Err(format!(
                "{} drawn {m} times by the brute force, {} placement sets",
                case.show(t),
                d.len()
            ));
        }
        solutions.extend(d);
    }
    if solutions.len() != tilings.len() {
        return Err("placement sets repeat".into());
    }
    let group = case.group();
    let classes = solutions
        .iter()
        .map(|s| group.iter().map(|g| g.placements(s)).min().unwrap())
        .collect();
    let fixed_pieces = (0..case.specs.len())
        .filter(|&i| case.specs[i].2 == 1 && group.iter().all(|g| g.pieces[i] as usize == i))
        .collect();
    Ok(Expected {
        tilings,
        solutions,
        classes,
        group,
        fixed_pieces,
    })
}

/// The orbit of a tiling under the group.
fn orbit(group: &[Symmetry], t: &Tiling) -> BTreeSet<Tiling> {
    group.iter().map(|g| g.tiling(t)).collect()
}

/// Checks one case in all mode and distinct mode (threads 1 and 2, with limits); the
/// number of classes, or `None` when the library reports no usable piece. With
/// `totals`, also the total a limited distinct solve reports.
fn check(case: &Case, totals: bool) -> Result<Option<usize>, String> {
    let e = expected(case)?;
    // All mode: the brute force's tilings.
    for threads in [1, 2] {
        let limits = Limits {
            keep: true,
            threads,
            ..Limits::default()
        };
        let out = solve(&case.board, &case.pieces, false, limits).map_err(|e| e.to_string())?;
        let mut got = out.solutions;
        got.sort();
        if out.count != e.tilings.len() || got != e.tilings {
            return Err(format!(
                "all mode, threads {threads}: count {} ({} kept), brute force {}",
                out.count,
                got.len(),
                e.tilings.len()
            ));
        }
    }
    let mut first: Option<Vec<Tiling>> = None;
    for threads in [1, 2] {
        let d = match case.distinct(usize::MAX, threads) {
            Err(SolveError::NoSymmetryPiece) if e.fixed_pieces.is_empty() => return Ok(None),
            Err(err) => {
                return Err(format!(
                    "threads {threads}: {err:?}; pieces {:?} qualify, {} symmetries",
                    e.fixed_pieces,
                    e.group.len()
                ))
            }
            Ok(d) => d,
        };
        let want = (e.classes.len(), e.solutions.len(), e.classes.len());
        if (d.classes, d.total, d.solutions.len()) != want {
            return Err(format!(
                "threads {threads}: (classes, total, kept) = {:?}, expected {want:?}; \
                 {} symmetries (library {})",
                (d.classes, d.total, d.solutions.len()),
                e.group.len(),
                d.group_order
            ));
        }
        let mut covered = BTreeSet::new();
        let mut seen = BTreeSet::new();
        for t in &d.solutions {
            case.verify(t)
                .map_err(|err| format!("invalid representative {}: {err}", case.show(t)))?;
            let o = orbit(&e.group, t);
            if case.exact() && !seen.insert(o.iter().next().unwrap().clone()) {
                return Err(format!("representative {} repeats a class", case.show(t)));
            }
            covered.extend(o);
        }
        let all: BTreeSet<Tiling> = e.tilings.iter().cloned().collect();
        if covered != all {
            return Err("the representatives' orbits are not the solutions".into());
        }
        match &first {
            None => first = Some(d.solutions),
            Some(f) if *f != d.solutions => return Err("threads change the classes".into()),
            Some(_) => {}
        }
    }
    let reps = first.unwrap();
    // Limits: the first classes of the search, standing for their orbits.
    let n = reps.len();
    for limit in [0, 1, 2, n.saturating_sub(1), n, n + 1] {
        for threads in [1, 2] {
            let d = case.distinct(limit, threads).map_err(|e| e.to_string())?;
            let take = limit.min(n);
            if d.classes != take || d.solutions[..] != reps[..take] {
                return Err(format!(
                    "limit {limit}, threads {threads}: {} classes ({} kept), expected the first {take}",
                    d.classes,
                    d.solutions.len()
                ));
            }
            if totals && case.exact() {
                let total: usize = reps[..take].iter().map(|t| orbit(&e.group, t).len()).sum();
                if d.total != total {
                    return Err(format!(
                        "limit {limit}, threads {threads}: total {} for {take} classes whose orbits hold {total}",
                        d.total
                    ));
                }
            }
        }
    }
    Ok(Some(n))
}

// ---------------------------------------------------------------------------------
// Random puzzles.

/// Random pieces of 1 to 4 cells, 1 to 3 copies, covering exactly the board. With
/// `partners`, a one-sided or fixed piece often comes with a moved copy of itself as
/// another piece (a mirror partner, say), and some pieces come twice as two pieces.
fn add_pieces(rng: &mut Rng, case: &mut Case, partners: bool) {
    let grid = case.board.grid;
    let target = case.board.cells.iter().filter(|&&c| c).count();
    while case.area() < target {
        let left = target - case.area();
        let size = (1 + rng.below(4)).min(left);
        let shape = tiling::random_shape(rng, grid, size);
        let motion = match rng.below(if partners { 4 } else { 3 }) {
            0 | 3 => Motion::Free,
            1 => Motion::OneSided,
            _ => Motion::Fixed,
        };
        let count = (1 + rng.below(3)).min(left / size);
        case.add(&tiling::to_cells(grid, &shape), motion, count as u32);
        if !partners || rng.below(2) == 0 {
            continue;
        }
        // A partner: the same shape (another piece of the same kind) or, for one-sided
        // and fixed pieces, often a moved copy (a mirror image, say); sometimes the pair
        // comes twice.
        let partner = if motion == Motion::Free || rng.below(3) == 0 {
            shape.clone()
        } else {
            let images = tiling::images(grid, &shape, Motion::Free);
            images[rng.below(images.len())].clone()
        };
        let pairs = if rng.below(3) == 0 { 2 } else { 1 };
        for pair in 0..pairs {
            for (i, s) in [&shape, &partner].into_iter().enumerate() {
                if (pair, i) != (0, 0) && case.area() + size * count <= target {
                    case.add(&tiling::to_cells(grid, s), motion, count as u32);
                }
            }
        }
    }
}

/// A board of at most 12 cells with symmetries: a square rectangle from 2 x 2 to 3 x 4,
/// a hex rectangle of even height (symmetric under the half turn) or the 7-cell hexagon,
/// a triangle rhombus (its half turn and a mirror), the 6-triangle hexagon (12
/// symmetries) or the 9-triangle triangle (6), with holes closed under one of its
/// symmetries.
fn symmetric_board(rng: &mut Rng) -> Board {
    let shapes: [(Grid, usize, usize); 16] = [
        (Grid::Square, 2, 2),
        (Grid::Square, 2, 3),
        (Grid::Square, 3, 2),
        (Grid::Square, 3, 3),
        (Grid::Square, 3, 4),
        (Grid::Square, 4, 3),
        (Grid::Hex, 2, 2),
        (Grid::Hex, 3, 2),
        (Grid::Hex, 2, 4),
        (Grid::Hex, 3, 4),
        (Grid::Hex, 6, 2),
        (Grid::Hex, 3, 3),
        (Grid::Triangle, 4, 2),
        (Grid::Triangle, 6, 2),
        (Grid::Triangle, 4, 3),
        (Grid::Triangle, 6, 3),
    ];
    let (grid, w, h) = shapes[rng.below(shapes.len())];
    let mut board = Board::rectangle(grid, w, h);
    if (grid, w, h) == (Grid::Hex, 3, 3) {
        // The hexagon: the odd-row cell (1, 1) and its six neighbours.
        board.cells[0] = false;
        board.cells[6] = false;
    }
    if (grid, w, h) == (Grid::Triangle, 4, 3) {
        // The hexagon: the six triangles around one corner, and a row of holes.
        board.cells = ".xxxxxx.....".chars().map(|c| c == 'x').collect();
    }
    if (grid, w, h) == (Grid::Triangle, 6, 3) {
        // The triangle of side 3: rows of 5, 3 and 1 triangles.
        board.cells = "xxxxx.xxx...x.....".chars().map(|c| c == 'x').collect();
    }
    let group = tiling::symmetries(grid, w, h, &board.cells, &[]);
    let s = &group[rng.below(group.len())];
    if rng.below(3) != 0 {
        let cells: Vec<usize> = (0..w * h).filter(|&c| board.cells[c]).collect();
        let mut hole = cells[rng.below(cells.len())];
        let holes = 1 + rng.below(2);
        for _ in 0..holes {
            for _ in 0..group.len() {
                board.cells[hole] = false;
                hole = s.cells[hole];
            }
            let left: Vec<usize> = (0..w * h).filter(|&c| board.cells[c]).collect();
            if left.len() <= 2 {
                break;
            }
            hole = left[rng.below(left.len())];
        }
    }
    if board.cells.iter().all(|&c| !c) {
        board.cells[0] = true;
    }
    board
}

/// Cases with more solutions are skipped (the brute force would take too long).
const MAX_SOLUTIONS: usize = 5000;

/// Runs `cases` random cases; panics listing failures. Returns (cases with a solution,
/// cases with more than one class, cases where the library has no usable piece).
fn run_random(seed: u64, cases: usize, symmetric: bool, totals: bool) -> (usize, usize, usize) {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let (mut solved, mut several, mut unusable, mut skipped) = (0, 0, 0, 0);
    for n in 0..cases {
        let mut case = Case::new(if symmetric {
            symmetric_board(&mut rng)
        } else {
            random_board(&mut rng)
        });
        add_pieces(&mut rng, &mut case, symmetric);
        // Keep the brute force small: skip the few cases with very many solutions.
        let many = Limits {
            limit: MAX_SOLUTIONS + 1,
            ..Limits::default()
        };
        if solve(&case.board, &case.pieces, false, many).map_or(0, |o| o.count) > MAX_SOLUTIONS {
            skipped += 1;
            continue;
        }
        match check(&case, totals) {
            Ok(Some(classes)) => {
                solved += usize::from(classes > 0);
                several += usize::from(classes > 1);
            }
            Ok(None) => unusable += 1,
            Err(e) => failures.push(format!("case {n}: {case:?}\n  {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases fail:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    assert!(skipped <= cases / 20, "{skipped} cases skipped");
    (solved, several, unusable)
}

#[test]
fn random_small_puzzles_classes_are_orbits() {
    let (solved, _, _) = run_random(0xd157_0001, 300, false, false);
    assert!(solved >= 40, "only {solved} cases had a solution");
}

#[test]
fn random_symmetric_puzzles_classes_are_orbits() {
    let (solved, several, unusable) = run_random(0xd157_0002, 400, true, false);
    assert!(solved >= 80, "only {solved} cases had a solution");
    assert!(several >= 30, "only {several} cases had several classes");
    assert!(
        unusable >= 10,
        "only {unusable} cases without a usable piece"
    );
}

#[test]
fn random_symmetric_puzzles_limited_totals_are_the_classes_orbits() {
    // `Distinct::total` is "the sum of their orbit sizes" for the classes returned, also
    // when a limit stops the search.
    run_random(0xd157_0003, 400, true, true);
}

// ---------------------------------------------------------------------------------
// Chosen cases.

fn square(w: usize, h: usize) -> Board {
    Board::rectangle(Grid::Square, w, h)
}

fn board_with_holes(grid: Grid, w: usize, h: usize, holes: &[usize]) -> Board {
    let mut b = Board::rectangle(grid, w, h);
    for &c in holes {
        b.cells[c] = false;
    }
    b
}

fn check_ok(case: &Case) -> Option<usize> {
    check(case, true).unwrap_or_else(|e| panic!("{case:?}\n  {e}"))
}

#[test]
fn squares_and_hex_boards_with_many_symmetries() {
    // Dominoes and a monomino... on boards with all their symmetries.
    let mut c = Case::new(square(3, 3));
    c.add(&[(0, 0)], Motion::Free, 1);
    c.add(&[(0, 0), (0, 1)], Motion::Free, 4);
    assert_eq!(c.group().len(), 8);
    check_ok(&c);
    // Two L trominoes (one piece) and a domino (free and one-sided) on 2 x 4.
    for motion in [Motion::Free, Motion::OneSided] {
        let mut c = Case::new(square(4, 2));
        c.add(&[(0, 0), (0, 1)], Motion::Free, 1);
        c.add(&[(0, 0), (1, 0), (1, 1)], motion, 2);
        check_ok(&c);
    }
    // The 7-cell hexagon (12 symmetries): a monomino and three dihexes.
    let mut hexagon = Board::rectangle(Grid::Hex, 3, 3);
    hexagon.cells[0] = false;
    hexagon.cells[6] = false;
    let mut c = Case::new(hexagon.clone());
    c.add(&[(0, 0)], Motion::Free, 1);
    c.add(&[(0, 0), (0, 1)], Motion::Free, 3);
    assert_eq!(c.group().len(), 12);
    assert!(check_ok(&c).unwrap() >= 1);
    // ... a monomino and two trihexes, one-sided and mirror partners.
    let mut c = Case::new(hexagon);
    c.add(&[(0, 0)], Motion::Free, 1);
    c.add(&[(0, 0), (0, 1), (1, 1)], Motion::OneSided, 1);
    c.add(&[(0, 0), (0, 1), (1, 0)], Motion::OneSided, 1);
    check_ok(&c);
}

#[test]
fn triangle_boards_with_many_symmetries() {
    // The 6-triangle hexagon (12 symmetries): a diamond and four single triangles, and
    // two fixed diamonds with a free one.
    let hexagon = board_with_holes(Grid::Triangle, 4, 2, &[0, 7]);
    let mut c = Case::new(hexagon.clone());
    c.add(&[(0, 0), (0, 1)], Motion::Free, 1);
    c.add(&[(0, 0)], Motion::Free, 4);
    assert_eq!(c.group().len(), 12);
    assert!(check_ok(&c).unwrap() >= 1);
    let mut c = Case::new(hexagon);
    c.add(&[(0, 0), (0, 1)], Motion::Free, 1);
    c.add(&[(0, 1), (0, 2)], Motion::Fixed, 1);
    c.add(&[(0, 0), (0, 1)], Motion::Fixed, 1);
    check_ok(&c);
    // The triangle of side 3 (6 symmetries): a triamond, a fixed single triangle (up:
    // it fits only the six up cells) and a tetriamond, in every motion.
    let triangle = board_with_holes(Grid::Triangle, 5, 3, &[8, 9, 11, 12, 13, 14]);
    for motion in [Motion::Free, Motion::OneSided, Motion::Fixed] {
        let mut c = Case::new(triangle.clone());
        c.add(&[(0, 0), (0, 1), (0, 2)], Motion::Free, 1);
        c.add(&[(0, 0)], Motion::Fixed, 2);
        c.add(&[(0, 0), (0, 1), (0, 2), (1, 0)], motion, 1);
        assert_eq!(c.group().len(), 6, "{motion:?}");
        check_ok(&c);
    }
}

#[test]
fn one_sided_mirror_partners_are_relabelled() {
    // The S and Z tetrominoes, one-sided, and two dominoes on 4 x 3: reflections map S
    // to Z, so they are symmetries only with the labels swapped.
    let mut c = Case::new(square(4, 3));
    c.add(&[(0, 1), (0, 2), (1, 0), (1, 1)], Motion::OneSided, 1);
    c.add(&[(0, 0), (0, 1), (1, 1), (1, 2)], Motion::OneSided, 1);
    c.add(&[(0, 0), (0, 1)], Motion::Free, 2);
    assert_eq!(c.group().len(), 4);
    check_ok(&c);
    // Without Z the set has only the rotations.
    let mut c = Case::new(square(4, 2));
    c.add(&[(0, 1), (0, 2), (1, 0), (1, 1)], Motion::OneSided, 1);
    c.add(&[(0, 0), (0, 1)], Motion::Free, 2);
    assert_eq!(c.group().len(), 2);
    check_ok(&c);
}

#[test]
fn two_pieces_of_one_kind_moved_to_another_kind() {
    // Fixed dominoes: two horizontal ones (two pieces of one kind) and two vertical
    // ones. A quarter turn swaps the kinds, so it maps the set onto itself as the
    // permutation H1 -> V1, H2 -> V2, V1 -> H1, V2 -> H2.
    let dominoes = |c: &mut Case| {
        c.add(&[(0, 0), (0, 1)], Motion::Fixed, 1);
        c.add(&[(0, 0), (0, 1)], Motion::Fixed, 1);
        c.add(&[(0, 0), (1, 0)], Motion::Fixed, 1);
        c.add(&[(0, 0), (1, 0)], Motion::Fixed, 1);
    };
    // On the ring around the centre of a 3 x 3 square: its two domino tilings, each
    // labelled 4 ways. No piece is fixed by every symmetry.
    let mut ring = square(3, 3);
    ring.cells[4] = false;
    let mut c = Case::new(ring);
    dominoes(&mut c);
    assert_eq!(c.group().len(), 8);
    let e = expected(&c).unwrap();
    assert_eq!(e.tilings.len(), 8);
    assert!(e.fixed_pieces.is_empty());
    assert_eq!(check_ok(&c), None);
    // With a monomino, which every symmetry fixes, on the full square: the same 8
    // solutions (the monomino in the centre), one class.
    let mut c = Case::new(square(3, 3));
    c.add(&[(0, 0)], Motion::Free, 1);
    dominoes(&mut c);
    let e = expected(&c).unwrap();
    assert_eq!((e.tilings.len(), e.classes.len(), e.group.len()), (8, 1, 8));
    assert_eq!(e.fixed_pieces, [0]);
    let all = solve(&c.board, &c.pieces, false, Limits::default()).unwrap();
    assert_eq!(all.count, 8, "solve");
    let d = solve_distinct(&c.board, &c.pieces, false, Limits::default()).unwrap();
    assert_eq!((d.classes, d.total), (1, 8), "solve_distinct");
    check_ok(&c);
}

#[test]
fn no_symmetry_piece_only_when_none_qualifies() {
    // Four dominoes of one piece on a 2 x 4: no piece with one copy.
    let mut c = Case::new(square(4, 2));
    c.add(&[(0, 0), (0, 1)], Motion::Free, 4);
    assert_eq!(check_ok(&c), None);
    // Two pieces swapped by every reflection: none is fixed by all symmetries.
    let mut c = Case::new(square(4, 2));
    c.add(&[(0, 1), (0, 2), (1, 0), (1, 1)], Motion::OneSided, 1);
    c.add(&[(0, 0), (0, 1), (1, 1), (1, 2)], Motion::OneSided, 1);
    assert!(expected(&c).unwrap().fixed_pieces.is_empty());
    assert_eq!(check_ok(&c), None);
    // The trivial group: every piece with one copy qualifies, each solution is a class.
    let mut c = Case::new(board_with_holes(Grid::Square, 3, 2, &[5]));
    c.add(&[(0, 0)], Motion::Free, 1);
    c.add(&[(0, 0), (0, 1)], Motion::Free, 2);
    assert_eq!(c.group().len(), 1);
    let n = c.brute_force().len();
    assert!(n >= 3, "{n}");
    assert_eq!(check_ok(&c), Some(n));
}

#[test]
fn limits_on_data_files() {
    for (file, classes) in [
        ("pentomino-3x20.puz", 2),
        ("tetrahex-7x4.puz", 9),
        ("pentomino-6x10.puz", 2339),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(file);
        let p = Puzzle::load(&path).unwrap();
        let run = |limit, threads| {
            let limits = Limits {
                limit,
                keep: true,
                threads,
                stats: false,
            };
            solve_distinct(&p.board, &p.pieces, false, limits).unwrap()
        };
        let all = run(usize::MAX, 1);
        assert_eq!(all.classes, classes);
        for limit in [0, 1, 2, 3, 100, classes - 1, classes, classes + 1, 3000] {
            for threads in [1, 2] {
                let d = run(limit, threads);
                let take = limit.min(classes);
                assert_eq!(d.classes, take, "{file} limit {limit}");
                assert_eq!(
                    d.solutions[..],
                    all.solutions[..take],
                    "{file} limit {limit}"
                );
                // Every class of these files has a full orbit (group order solutions).
                assert_eq!(d.total, take * all.group_order, "{file} limit {limit}");
            }
        }
    }
}

/// The piece a symmetry restricts is placed first, from the root. Where several pieces
/// qualify it is the one with the fewest representatives that the island pruning keeps
/// (the X of the 6 x 10, 7 of its 8; the O of the hexiamonds, 8 of 9; on the meteor
/// piece 8, 82 of 110, rather than piece 0, 86 of 104, which has the fewest before
/// pruning), unless the tree is large: then the one whose tree
/// measures smallest with it placed first, on the solid pentominoes the X (11
/// representatives in the 3 x 4 x 5 box) rather than the I (4, and a tree about four
/// times as large).
#[test]
fn the_piece_placed_first_is_chosen_by_measurement() {
    use crate::common::cli::stdout_of;
    for (file, piece) in [
        ("solid-pentominoes-3x4x5", 9),
        ("pentomino-6x10", 9),
        ("hexiamonds-6x6", 11),
    ] {
        let path = format!("{}/data/{file}.puz", env!("CARGO_MANIFEST_DIR"));
        let text = stdout_of(&["tables", &path]);
        assert!(
            text.contains(&format!("symmetry piece: {piece} (")) && text.contains("placed first"),
            "{file}: {text}"
        );
        // Below the X's placements that symmetries fix (10 of its 11 in the box; none
        // on 6 x 10), a second piece keeps one placement per orbit of those.
        let second = match file {
            "solid-pentominoes-3x4x5" => {
                Some("second piece: 4 (below 10 of the symmetry piece's 11 placements")
            }
            "pentomino-6x10" => None,
            _ => continue,
        };
        match second {
            Some(line) => assert!(text.contains(line), "{file}: {text}"),
            None => assert!(!text.contains("second piece"), "{file}: {text}"),
        }
    }
}

/// A restricted piece with a representative beyond the root's window is placed when
/// the lowest free cell reaches it, as the search found it before pieces were placed
/// first: a 5-cell bar on a 10 x 10 board, the representative of its vertical placements
/// through the centre reaching row 6 (cell 64 on), the rest filled with single cells.
/// Every one of its 120 placements is a solution, and the classes add up to them.
#[test]
fn a_restricted_piece_beyond_the_window_is_placed_in_turn() {
    use crate::common::cli::{stdout_of, TempFile};
    let rows = "xxxxxxxxxx\n".repeat(10);
    let text =
        format!("grid: square\n\nboard:\n{rows}\npiece bar:\nxxxxx\n\npiece dot: count 95\nx\n");
    let file = TempFile::new("distinct", "bar-10x10", "puz", text.as_bytes());
    let path = file.0.to_str().unwrap();
    let tables = stdout_of(&["tables", path]);
    assert!(
        tables.contains("placed when the lowest free cell reaches it"),
        "{tables}"
    );
    let all = stdout_of(&["solve", path, "--count", "--memo", "off"]);
    assert_eq!(all.trim(), "120 solutions");
    let distinct = stdout_of(&["solve", path, "--count", "--distinct"]);
    assert!(
        distinct.contains("(120 in all, 8 symmetries)"),
        "{distinct}"
    );
}

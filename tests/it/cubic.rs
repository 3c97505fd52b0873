//! The cubic grid: small random boxes against the brute force, distinct classes
//! against orbits computed here, the motions `free` and `mirror` in space, layers in
//! text output and pictures.
//!
//! Every check uses the verifier's own 3-D geometry (`common/tiling.rs`: its cube
//! symmetries are the orthogonal matrices of -1, 0, 1 found by search, not the
//! library's list). The known counts of the shipped cubic files are in
//! `data_files.rs`.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::Path;

use polytile::grid::Axes;
use polytile::picture::{self, shape};
use polytile::{Board, Grid, Mode, Motion, Orienting, Piece, Puzzle, Tiling, TilingSolver};

use crate::common::cli::{fails, run_ok, stdout_of, TempFile};
use crate::common::tiling::{self, BoxSpec, Pt, Rng};
use crate::common::{options, puzzle, solve, solve_distinct, Limits};

/// A random box of 4 to `most` cells with random holes (at least two cells kept),
/// and random connected pieces of `smallest` to 4 cubes (fewer for the last, if that
/// is all that is left) with random motions and copies covering it exactly: the
/// library's pieces and the verifier's.
fn random_case(rng: &mut Rng, smallest: usize, most: usize) -> (Board, Vec<Piece>, Vec<BoxSpec>) {
    let (w, h, d) = loop {
        let dims = (1 + rng.below(3), 1 + rng.below(4), 1 + rng.below(4));
        if (4..=most).contains(&(dims.0 * dims.1 * dims.2)) {
            break dims;
        }
    };
    let mut board = Board::cuboid(Grid::Cubic, w, h, d);
    for c in board.cells.iter_mut() {
        *c = rng.below(5) != 0;
    }
    board.cells[0] = true;
    board.cells[w * h * d - 1] = true;
    let n = board.cells.iter().filter(|&&c| c).count();
    let (mut pieces, mut specs) = (Vec::new(), Vec::new());
    let mut covered = 0;
    while covered < n {
        let size = (smallest + rng.below(5 - smallest)).min(n - covered);
        let shape: Vec<Pt> = tiling::random_shape(rng, Grid::Cubic, size);
        let motion = Motion::ALL[rng.below(4)];
        let count = (1 + rng.below(2)).min((n - covered) / size);
        covered += size * count;
        pieces.push(Piece {
            name: pieces.len().to_string(),
            cells: polytile::grid::normalise(Grid::Cubic, &shape),
            motion,
            count: count as u32,
        });
        specs.push((shape, motion, count as u32));
    }
    (board, pieces, specs)
}

#[test]
fn random_small_boxes_match_brute_force() {
    random_boxes_match_brute_force(0x5eed_c0be, 1, 12);
}

/// With no monocube and no dicube to fill them, lone and paired free cubes are dead:
/// the search's pocket check is on (`tables::pockets`).
#[test]
fn random_boxes_of_larger_pieces_match_brute_force() {
    random_boxes_match_brute_force(0x090c_3e75, 3, 18);
}

fn random_boxes_match_brute_force(seed: u64, smallest: usize, most: usize) {
    let mut rng = Rng(seed);
    let (mut solved, mut classes_checked) = (0, 0);
    for case in 0..250 {
        let (board, pieces, specs) = random_case(&mut rng, smallest, most);
        let dims = (board.width, board.height, board.depth);
        let mut want = tiling::brute_force_box(dims, &board.cells, &specs, false);
        want.sort();
        let limits = Limits {
            keep: true,
            ..Limits::default()
        };
        let mut got = solve(&board, &pieces, false, limits).unwrap().solutions;
        for t in &got {
            tiling::verify_box(dims, &board.cells, &specs, t, false)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {board:?} {pieces:?}"));
        }
        got.sort();
        assert_eq!(got, want, "case {case}: {board:?} {pieces:?}");
        solved += usize::from(!want.is_empty());
        // Distinct classes: with one copy of each piece a tiling is one solution, and
        // the classes are the orbits of the brute force's solutions.
        if pieces.iter().all(|p| p.count == 1) {
            if let Ok(d) = solve_distinct(&board, &pieces, false, limits) {
                let group = tiling::symmetries_box(dims, &board.cells, &specs);
                assert_eq!(
                    d.group_order,
                    group.len(),
                    "case {case}: {board:?} {pieces:?}"
                );
                let orbits: BTreeSet<Tiling> = want
                    .iter()
                    .map(|t| group.iter().map(|g| g.tiling(t)).min().unwrap())
                    .collect();
                assert_eq!(d.classes, orbits.len(), "case {case}: {board:?} {pieces:?}");
                assert_eq!(d.total, want.len(), "case {case}");
                for t in &d.solutions {
                    assert!(
                        want.contains(t),
                        "case {case}: a class outside the solutions"
                    );
                }
                classes_checked += 1;
            }
        }
    }
    assert!(solved >= 40, "only {solved} cases had a tiling");
    assert!(
        classes_checked >= 40,
        "only {classes_checked} distinct cases"
    );
}

/// The two Soma screws: mirror images, not rotations, of each other.
const SCREW_A: [Pt; 4] = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)];
const SCREW_B: [Pt; 4] = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)];

#[test]
fn free_pieces_rotate_in_space_and_mirror_pieces_reflect_too() {
    // Board: the screw B, in a 2 x 2 x 2 box; piece: the screw A.
    let mut board = Board::cuboid(Grid::Cubic, 2, 2, 2);
    for (c, cell) in board.cells.iter_mut().enumerate() {
        *cell = SCREW_B.contains(&tiling::box_point(2, 2, c));
    }
    let count = |motion: Motion| {
        let piece = Piece {
            name: "A".into(),
            cells: SCREW_A.to_vec(),
            motion,
            count: 1,
        };
        solve(&board, &[piece], false, Limits::default())
            .unwrap()
            .count
    };
    assert_eq!(count(Motion::Free), 0);
    assert_eq!(count(Motion::OneSided), 0);
    assert_eq!(count(Motion::Mirror), 1);
    // A flat piece needs no mirror: an L tetromino fills its mirror image by a turn
    // in space, which a one-sided piece on the square grid could not.
    let mirror_l = [(1, 0, 0), (1, 1, 0), (1, 2, 0), (0, 2, 0)];
    let mut flat = Board::cuboid(Grid::Cubic, 2, 3, 1);
    for (c, cell) in flat.cells.iter_mut().enumerate() {
        *cell = mirror_l.contains(&tiling::box_point(2, 3, c));
    }
    let l = Piece {
        name: "L".into(),
        cells: vec![(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 2, 0)],
        motion: Motion::Free,
        count: 1,
    };
    let found = solve(&flat, &[l], false, Limits::default()).unwrap();
    assert_eq!(found.count, 1);
}

#[test]
fn soma_distinct_classes_are_the_orbits_of_all_solutions() {
    let p = Puzzle::load(Path::new("data/soma-3x3x3.puz")).unwrap();
    let b = &p.board;
    let specs = crate::common::verifier_box_specs(&p);
    let group = tiling::symmetries_box((3, 3, 3), &b.cells, &specs);
    assert_eq!(group.len(), 48);
    let keep = Limits {
        keep: true,
        threads: 2,
        ..Limits::default()
    };
    let all = solve(b, &p.pieces, false, keep).unwrap();
    let classes: BTreeSet<Tiling> = all
        .solutions
        .iter()
        .map(|t| group.iter().map(|g| g.tiling(t)).min().unwrap())
        .collect();
    assert_eq!((all.count, classes.len()), (11_520, 240));
    // Without the mirror images the same solutions fall into twice as many classes.
    let rotations: Vec<_> = group
        .iter()
        .filter(|g| g.pieces.iter().enumerate().all(|(i, &j)| i == j as usize))
        .collect();
    assert_eq!(rotations.len(), 24);
}

#[test]
fn text_output_draws_layers_bottom_first() {
    let text = stdout_of(&["solve", "data/soma-3x3x3.puz", "--limit", "1"]);
    let lines: Vec<&str> = text.lines().collect();
    // "solution 1", 3 layers of 3 rows with a '-' between, a blank line, the count.
    assert_eq!(lines[0], "solution 1");
    assert_eq!((lines[4], lines[8]), ("-", "-"), "{text}");
    let drawn: String = [1, 2, 3, 5, 6, 7, 9, 10, 11]
        .iter()
        .map(|&i| lines[i])
        .collect();
    assert_eq!(drawn.len(), 27, "{text}");
    // Each label as often as its piece has cubes.
    for (label, cubes) in [
        ('V', 3),
        ('L', 4),
        ('T', 4),
        ('Z', 4),
        ('A', 4),
        ('B', 4),
        ('P', 4),
    ] {
        assert_eq!(drawn.matches(label).count(), cubes, "{text}");
    }
    // The drawing is a board again: parsed back, it is the cube.
    let board = format!(
        "grid: cubic\nboard:\n{}\n\npiece V: count 9\nxxx\n",
        lines[1..12].join("\n")
    )
    .replace(['V', 'L', 'T', 'Z', 'A', 'B', 'P'], "x")
    .replacen("piece x: count 9", "piece V: count 9", 1);
    let again = Puzzle::parse(&board, "again.puz").unwrap();
    assert_eq!(
        (again.board.width, again.board.height, again.board.depth),
        (3, 3, 3)
    );
}

#[test]
fn pictures_draw_each_layer_as_squares_side_by_side() {
    let p = Puzzle::load(Path::new("data/soma-3x3x3.puz")).unwrap();
    let solver = TilingSolver::new(&p, Mode::All).unwrap();
    let mut found = Vec::new();
    solver.for_each(&options(1, 1), |t| {
        found.push(t);
        ControlFlow::Continue(())
    });
    let pic = picture::tiling::tilings(&p, &found, picture::tiling::Style { labels: false });
    let raster = picture::raster(&pic.svg).expect("the picture renders");
    let centres = &pic.centres[0];
    assert_eq!(centres.len(), 27);
    // Cell i is drawn where shape::at puts it, in its piece's colour.
    let ((r0, c0), (x0, y0)) = centres[0];
    let (sx, sy) = shape::centre(Grid::Cubic, r0, c0);
    for (i, piece) in found[0].iter().enumerate() {
        let (r, c) = shape::at(&p.board, i);
        let (x, y) = shape::centre(Grid::Cubic, r, c);
        let (x, y) = (x0 - sx + x, y0 - sy + y);
        let want = picture::piece_colour(piece.unwrap().into());
        assert_eq!(
            raster.colour(x.floor() as u32, y.floor() as u32),
            want,
            "cell {i}"
        );
    }
    // Three 3 x 3 squares with one column between them: columns 0-2, 4-6, 8-10.
    let columns: BTreeSet<i32> = centres.iter().map(|c| c.0 .1).collect();
    assert_eq!(columns, BTreeSet::from([0, 1, 2, 4, 5, 6, 8, 9, 10]));
}

#[test]
fn boards_beyond_the_window_get_a_clear_error() {
    // A 9 x 9 x 2 slab of two-layer walls: a wall spans 90 cells of the linear order,
    // more than the 64-bit window holds; the error names the file.
    let text = format!(
        "grid: cubic\nboard:\n{}-\n{}\npiece I: count 9\nxxxxxxxxx\n-\nxxxxxxxxx\n",
        "xxxxxxxxx\n".repeat(9),
        "xxxxxxxxx\n".repeat(9)
    );
    let file = TempFile::new("cubic", "slab", "puz", text.as_bytes());
    let path = file.0.display().to_string();
    let err = fails(&["solve", &path, "--count"]);
    assert!(
        err.starts_with(&format!("{path}: ")) && err.contains("64"),
        "{err}"
    );
    // The same board in code: the library's error.
    let p = Puzzle::parse(&text, "slab.puz").unwrap();
    assert!(TilingSolver::new(&puzzle(&p.board, &p.pieces, false), Mode::All).is_err());
}

/// Every way of laying a box for the search (`Orienting::Axes`) gives the brute
/// force's solutions on the box as drawn: the map to the box searched and back, with
/// the pieces mapped alike (one-sided and mirror pieces among them), on random boxes
/// with holes. Distinct classes agree too.
#[test]
fn random_boxes_laid_every_way_match_brute_force() {
    let mut rng = Rng(0x0c1e_a7ed);
    let mut solved = 0;
    for case in 0..80 {
        let (board, pieces, specs) = random_case(&mut rng, 1, 12);
        let dims = (board.width, board.height, board.depth);
        let mut want = tiling::brute_force_box(dims, &board.cells, &specs, false);
        want.sort();
        let p = puzzle(&board, &pieces, false);
        let mut classes = None;
        for axes in Axes::ALL {
            let solver = TilingSolver::oriented(&p, Mode::All, Orienting::Axes(axes))
                .unwrap_or_else(|e| panic!("case {case}, {axes:?}: {e}"));
            let mut got = Vec::new();
            let _ = solver.for_each(&options(usize::MAX, 1), |t| {
                got.push(t);
                ControlFlow::Continue(())
            });
            for t in &got {
                tiling::verify_box(dims, &board.cells, &specs, t, false)
                    .unwrap_or_else(|e| panic!("case {case}, {axes:?}: {e}"));
            }
            got.sort();
            assert_eq!(got, want, "case {case}, {axes:?}: {board:?} {pieces:?}");
            if let Ok(d) = TilingSolver::oriented(&p, Mode::Distinct, Orienting::Axes(axes)) {
                let n = d.count(&options(usize::MAX, 1)).solutions;
                assert_eq!(*classes.get_or_insert(n), n, "case {case}, {axes:?}");
            }
        }
        solved += usize::from(!want.is_empty());
    }
    assert!(solved >= 15, "only {solved} cases had a tiling");
}

/// The solid pentominoes in a 2 x 3 x 10 box, laid each of the six ways: the same 96
/// solutions (12 distinct, Wikipedia "Pentomino"), on trees from 81 thousand to 26
/// million nodes; the default takes one of the smallest.
#[test]
fn solid_pentominoes_2x3x10_every_way() {
    let file = Puzzle::load(Path::new("data/solid-pentominoes-2x5x6.puz")).unwrap();
    let p = puzzle(&Board::cuboid(Grid::Cubic, 2, 3, 10), &file.pieces, false);
    let stats = polytile::Options {
        stats: true,
        ..options(usize::MAX, 2)
    };
    let mut nodes = Vec::new();
    for axes in Axes::ALL {
        let solver = TilingSolver::oriented(&p, Mode::All, Orienting::Axes(axes)).unwrap();
        let all = solver.count(&stats);
        assert_eq!(all.solutions, 96, "{axes:?}");
        nodes.push(all.nodes.unwrap());
        let distinct = TilingSolver::oriented(&p, Mode::Distinct, Orienting::Axes(axes))
            .unwrap()
            .count(&options(usize::MAX, 2));
        assert_eq!((distinct.solutions, distinct.total), (12, 96), "{axes:?}");
    }
    let chosen = TilingSolver::new(&p, Mode::All)
        .unwrap()
        .count(&stats)
        .nodes
        .unwrap();
    let least = *nodes.iter().min().unwrap();
    assert!(chosen <= least * 2, "{chosen} nodes against {nodes:?}");
}

/// A box drawn the slow way is laid the fast way, the choice reported with each
/// candidate's estimate; a cube is searched as drawn (all its ways are alike); a map
/// that is no way of laying a board is refused.
#[test]
fn the_orientation_is_chosen_by_estimate_and_reported() {
    let p = Puzzle::load(Path::new("data/solid-pentominoes-2x5x6.puz")).unwrap();
    let solver = TilingSolver::new(&p, Mode::All).unwrap();
    let o = solver.orientations().expect("a 2 x 5 x 6 box has six ways");
    assert_eq!(o.candidates.len(), 6);
    assert_eq!(o.candidates[0].size, (2, 5, 6), "the box as drawn first");
    let estimate = |k: usize| o.candidates[k].nodes.unwrap();
    assert!((0..6).all(|k| estimate(o.chosen) <= estimate(k)));
    assert_eq!(o.candidates[o.chosen].size.2, 2, "{o:?}");
    let (text, stats) = run_ok(&[
        "solve",
        "data/solid-pentominoes-2x5x6.puz",
        "--count",
        "--stats",
    ]);
    assert_eq!(text.trim(), "2112 solutions");
    let (w, h, d) = o.candidates[o.chosen].size;
    assert!(
        stats.contains(&format!("orientation: searched as {w}x{h}x{d}")),
        "{stats}"
    );
    let json = stdout_of(&[
        "solve",
        "data/solid-pentominoes-2x5x6.puz",
        "--count",
        "--format",
        "json",
    ]);
    let summary: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let size = &o.candidates[o.chosen].size;
    assert_eq!(
        summary["orientation"]["searched_as"],
        serde_json::json!([size.0, size.1, size.2])
    );
    let estimate = stdout_of(&[
        "estimate",
        "data/solid-pentominoes-2x5x6.puz",
        "--probe",
        "0",
        "--format",
        "json",
    ]);
    let estimate: serde_json::Value = serde_json::from_str(estimate.trim()).unwrap();
    assert_eq!(
        estimate["orientation"]["searched_as"],
        summary["orientation"]["searched_as"]
    );
    let soma = Puzzle::load(Path::new("data/soma-3x3x3.puz")).unwrap();
    assert!(TilingSolver::new(&soma, Mode::All)
        .unwrap()
        .orientations()
        .is_none());
    let square = Puzzle::load(Path::new("data/pentomino-6x10.puz")).unwrap();
    let err = TilingSolver::oriented(&square, Mode::All, Orienting::Axes(Axes([0, 2, 1])))
        .err()
        .expect("no layers to lay rows along");
    assert!(err.to_string().contains("square grid"), "{err}");
}

/// A box refused as drawn (a rod standing through its 24-cube layers spans 73 cells
/// of the order) is served laid another way: the same 343 solutions as the box drawn
/// the good way, on the box as drawn, each verified.
#[test]
fn a_box_too_wide_as_drawn_is_served_laid_another_way() {
    let rod: Vec<Pt> = (0..4).map(|x| (x, 0, 0)).collect();
    let rods = |(w, h, d): (usize, usize, usize)| Piece {
        name: "I".into(),
        cells: rod.clone(),
        motion: Motion::Free,
        count: (w * h * d / 4) as u32,
    };
    let wide = (8, 3, 4);
    let board = Board::cuboid(Grid::Cubic, wide.0, wide.1, wide.2);
    let p = puzzle(&board, &[rods(wide)], false);
    assert!(TilingSolver::oriented(&p, Mode::All, Orienting::Axes(Axes::SAME)).is_err());
    let solver = TilingSolver::new(&p, Mode::All).expect("served laid another way");
    let o = solver.orientations().unwrap();
    assert!(o.candidates[0].measured && o.candidates[0].nodes.is_none());
    assert_ne!(o.chosen, 0);
    let mut got = Vec::new();
    let _ = solver.for_each(&options(usize::MAX, 2), |t| {
        got.push(t);
        ControlFlow::Continue(())
    });
    let specs = [(rod.clone(), Motion::Free, 24)];
    for t in &got {
        tiling::verify_box(wide, &board.cells, &specs, t, false).unwrap();
    }
    let tall = (3, 4, 8);
    let other = puzzle(&Board::cuboid(Grid::Cubic, 3, 4, 8), &[rods(tall)], false);
    let count = TilingSolver::new(&other, Mode::All)
        .unwrap()
        .count(&options(usize::MAX, 2))
        .solutions;
    assert_eq!((got.len(), count), (343, 343));
}

//! `--split ROWS` (`Splitting::Rows`) and `--split auto` (`Splitting::Auto`, the
//! default): the split search of `src/meet/` on the general path gives the plain
//! search's solutions in the plain search's order, on every shipped file it serves and
//! on random puzzles, in both modes, on 1 and 2 threads, whatever rows are given or
//! chosen; rows it cannot serve are refused with a reason, on the library and the CLI;
//! the rows chosen by measurement are the same on every run and thread count.

use std::ops::ControlFlow;

use polytile::grid::{normalise, Board, Grid};
use polytile::{
    Mode, Motion, Options, Orienting, Piece, Puzzle, Splitting, Tiling, TilingError, TilingSolver,
};

use crate::common::cli::{fails, json_lines, number, run_ok, stdout_of};
use crate::common::tiling::{self, Rng};
use crate::common::{puzzle, random_board};

/// Every solution in order, with the summary's solutions, total and nodes.
fn run(solver: &TilingSolver, threads: usize) -> (Vec<Tiling>, u64, u64, u64) {
    let options = Options {
        threads,
        stats: true,
        ..Options::default()
    };
    let mut all = Vec::new();
    let summary = solver.for_each(&options, |t| {
        all.push(t);
        ControlFlow::Continue(())
    });
    assert!(summary.complete);
    (
        all,
        summary.solutions,
        summary.total,
        summary.nodes.unwrap(),
    )
}

/// The row sets to try on a board of up to `rows` rows: each single row from `first`
/// on, and each chain from such a row to the last.
fn row_sets(first: usize, rows: usize) -> Vec<Vec<usize>> {
    let mut sets: Vec<Vec<usize>> = (first..rows).map(|r| vec![r]).collect();
    sets.extend((first..rows.saturating_sub(1)).map(|r| (r..rows).collect()));
    sets
}

/// Compares every row set the solver accepts with the plain search; returns how many
/// were accepted.
fn compare(
    puzzle: &Puzzle,
    mode: Mode,
    (first, rows): (usize, usize),
    threads: &[usize],
) -> Result<usize, String> {
    let plain = plain_solver(puzzle, mode)?;
    let (solutions, count, total, nodes) = run(&plain, 1);
    // The default, rows chosen by measurement (none on most small puzzles).
    let auto = TilingSolver::new(puzzle, mode).map_err(|e| e.to_string())?;
    for &t in threads {
        let (got, got_count, got_total, _) = run(&auto, t);
        if got != solutions || (got_count, got_total) != (count, total) {
            return Err(format!(
                "{mode:?}, auto rows {:?}, {t} threads: {got_count} solutions (total {got_total}) against {count} ({total}), or another order",
                auto.split_rows()
            ));
        }
    }
    let mut accepted = 0;
    for set in row_sets(first, rows) {
        let mut split = TilingSolver::new(puzzle, mode).map_err(|e| e.to_string())?;
        match split.set_splitting(Splitting::Rows(set.clone())) {
            Ok(()) => accepted += 1,
            Err(TilingError::Split { .. }) => continue,
            Err(e) => return Err(format!("rows {set:?}: unexpected error {e}")),
        }
        assert_eq!(split.split_rows(), &set[..]);
        for &t in threads {
            let (got, got_count, got_total, got_nodes) = run(&split, t);
            if got != solutions || (got_count, got_total) != (count, total) {
                return Err(format!(
                    "{mode:?}, rows {set:?}, {t} threads: {got_count} solutions (total {got_total}) against {count} ({total}), or another order"
                ));
            }
            // The nodes differ (fewer where the split pays, more where the searches
            // above cost more than they save); the root at least is one.
            if got_nodes == 0 || nodes == 0 {
                return Err(format!(
                    "rows {set:?}: {got_nodes} nodes against {nodes} plain"
                ));
            }
        }
    }
    Ok(accepted)
}

/// A solver of `puzzle` that searches plainly.
fn plain_solver(puzzle: &Puzzle, mode: Mode) -> Result<TilingSolver, String> {
    let mut plain = TilingSolver::new(puzzle, mode).map_err(|e| e.to_string())?;
    plain.set_splitting(Splitting::Off).unwrap();
    Ok(plain)
}

fn shipped(name: &str) -> Puzzle {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("data/{name}.puz"));
    Puzzle::load(&path).unwrap()
}

#[test]
fn shipped_files_split_anywhere_give_the_plain_solutions_in_order() {
    // Every shipped file the split search serves whose whole run is quick (Bedlam and
    // the solid pentominoes take minutes; the others have copies, and are refused below).
    for (name, first, rows) in [
        ("meteor", 2, 10),
        ("pentomino-3x20", 2, 20),
        ("pentomino-4x15", 2, 15),
        ("pentomino-5x12", 2, 12),
        ("pentomino-6x10", 2, 10),
        ("one-sided-pentomino-3x30", 20, 30),
        ("hexiamonds-4x9", 2, 9),
        ("pentomino-8x8-hole", 2, 8),
        ("soma-3x3x3", 2, 9),
        ("tetrahex-7x4", 2, 7),
    ] {
        let puzzle = shipped(name);
        // Splits at row 1 make the searches above cover nearly the whole board with
        // every piece (minutes on the larger boards; on the 3 x 30 board, seconds from
        // row 10 down); the random puzzles cover them.
        for (mode, threads) in [(Mode::All, &[1, 2][..]), (Mode::Distinct, &[2][..])] {
            let accepted = compare(&puzzle, mode, (first, rows), threads)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                accepted >= 2,
                "{name} {mode:?}: only {accepted} row sets accepted"
            );
        }
    }
}

#[test]
fn the_meteor_file_split_as_the_binary_counts_its_2098_with_fewer_nodes() {
    let puzzle = shipped("meteor");
    let plain = plain_solver(&puzzle, Mode::All).unwrap();
    let mut split = TilingSolver::new(&puzzle, Mode::All).unwrap();
    split
        .set_splitting(Splitting::Rows(vec![3, 4, 5, 6]))
        .unwrap();
    let options = Options {
        stats: true,
        ..Options::default()
    };
    let (a, b) = (plain.count(&options), split.count(&options));
    assert_eq!((a.solutions, b.solutions), (2098, 2098));
    assert!(
        b.nodes.unwrap() * 3 < a.nodes.unwrap(),
        "split {:?} nodes against plain {:?}",
        b.nodes,
        a.nodes
    );
}

#[test]
fn the_tree_is_cut_at_the_root_when_its_children_are_enough_tasks() {
    // The meteor's root (piece 8 placed first, 82 of its placements kept) has enough
    // children to share among threads, so they are the tasks; the 6x10's (the X
    // restricted) has 7, so the cut goes a level deeper. On any thread count alike, and
    // the same solutions either way.
    for (name, tasks, solutions) in [("meteor", 82, 2098), ("pentomino-6x10", 127, 9356)] {
        let solver = TilingSolver::new(&shipped(name), Mode::All).unwrap();
        for threads in [1, 2] {
            let s = solver.count(&Options {
                threads,
                ..Options::default()
            });
            assert_eq!(
                (s.tasks, s.solutions),
                (tasks, solutions),
                "{name}, {threads} threads"
            );
        }
    }
}

/// A random connected piece of `size` cells on `grid`, with a random motion, named
/// `index`.
fn random_piece(rng: &mut Rng, grid: Grid, size: usize, index: usize) -> Piece {
    let shape = tiling::random_shape(rng, grid, size);
    let lattice: Vec<_> = tiling::to_cells(grid, &shape)
        .iter()
        .map(|&(r, c)| grid.lattice(0, r, c))
        .collect();
    Piece {
        name: index.to_string(),
        cells: normalise(grid, &lattice),
        motion: [Motion::Free, Motion::OneSided, Motion::Fixed][rng.below(3)],
        count: 1,
    }
}

#[test]
fn random_puzzles_split_anywhere_give_the_plain_solutions_in_order() {
    let mut rng = Rng(0x5eed_0a11);
    let (mut cases, mut accepted, mut with_copies) = (0, 0, 0);
    while cases < 150 {
        let board = random_board(&mut rng);
        let grid = board.grid;
        let n = board.cells.iter().filter(|&&c| c).count();
        let mut pieces: Vec<Piece> = Vec::new();
        let mut covered = 0;
        while covered < n {
            // Now and then another copy of the last piece.
            if let Some(last) = pieces.last_mut() {
                let size = last.cells.len();
                if rng.below(3) == 0 && covered + size <= n {
                    last.count += 1;
                    covered += size;
                    continue;
                }
            }
            let size = (1 + rng.below(4)).min(n - covered);
            pieces.push(random_piece(&mut rng, grid, size, pieces.len()));
            covered += size;
        }
        // Half the cases with one or two pieces more, left over.
        let leftover = rng.below(2) == 0;
        if leftover {
            for _ in 0..1 + rng.below(2) {
                let size = 1 + rng.below(4);
                pieces.push(random_piece(&mut rng, grid, size, pieces.len()));
            }
        }
        let rows = board.width.max(board.height) + 1;
        let p = puzzle(&board, &pieces, leftover);
        let copies = pieces.iter().any(|piece| piece.count > 1);
        for mode in [Mode::All, Mode::Distinct] {
            match compare(&p, mode, (1, rows), &[1, 2]) {
                Ok(k) => {
                    accepted += k;
                    with_copies += if copies { k } else { 0 };
                }
                // No symmetry piece, or a puzzle the solver refuses: nothing to split.
                Err(e) if !e.contains("rows") => {}
                Err(e) => panic!("case {cases}: {p:?}\n  {e}"),
            }
        }
        cases += 1;
    }
    assert!(accepted >= 300, "only {accepted} row sets were accepted");
    assert!(with_copies >= 50, "only {with_copies} row sets with copies");
}

#[test]
fn copies_split_give_the_plain_solutions_in_order() {
    // 14 dominoes on 4 x 7 (781 tilings), and a set with copies of two pieces.
    let dominoes = Puzzle::parse(
        "name: dominoes-4x7\ngrid: square\nboard:\nxxxx\nxxxx\nxxxx\nxxxx\nxxxx\nxxxx\nxxxx\n\npiece D: count 14\nDD\n",
        "dominoes-4x7",
    )
    .unwrap();
    let mixed = Puzzle::parse(
        "name: mixed\ngrid: square\nboard:\nxxxx\nxxxx\nxxxx\nxxxx\nxxxx\nxxxx\n\npiece L: count 2\nL.\nL.\nLL\n\npiece D: count 4\nDD\n\npiece O:\nOO\nOO\n\npiece I:\nIIII\n",
        "mixed",
    )
    .unwrap();
    for (p, rows, solutions) in [(&dominoes, 7, Some(781)), (&mixed, 6, None)] {
        let plain = plain_solver(p, Mode::All).unwrap();
        let (_, count, _, _) = run(&plain, 1);
        if let Some(known) = solutions {
            assert_eq!(count, known, "{}", p.name);
        }
        assert!(count > 0, "{}", p.name);
        let accepted = compare(p, Mode::All, (1, rows), &[1, 2]).unwrap();
        assert!(accepted >= 2 * rows - 4, "{}: {accepted} row sets", p.name);
    }
}

#[test]
fn pieces_left_over_split_give_the_plain_solutions_in_order() {
    // The 12 pentominoes on 5 x 11: one is left over in each of the 16,412 solutions.
    let mut puzzle = shipped("pentomino-5x12");
    puzzle.board.height = 11;
    puzzle.board.cells.truncate(55);
    puzzle.allow_leftover = true;
    let plain = plain_solver(&puzzle, Mode::All).unwrap();
    let (solutions, count, _, nodes) = run(&plain, 2);
    assert_eq!(count, 16_412);
    let auto = TilingSolver::new(&puzzle, Mode::All).unwrap();
    assert!(!auto.split_rows().is_empty(), "the split pays here");
    let mut splits = vec![Splitting::Auto];
    splits.extend([3, 5, 8].map(|r| Splitting::Rows((r..11).collect())));
    splits.push(Splitting::Rows(vec![4, 7]));
    for splitting in splits {
        let mut split = TilingSolver::new(&puzzle, Mode::All).unwrap();
        split.set_splitting(splitting.clone()).unwrap();
        for threads in [1, 2] {
            let (got, got_count, _, got_nodes) = run(&split, threads);
            assert_eq!(got_count, count, "{splitting:?}, {threads} threads");
            assert!(
                got == solutions,
                "{splitting:?}, {threads} threads: another order"
            );
            if splitting == Splitting::Auto {
                assert!(got_nodes * 4 < nodes, "{got_nodes} nodes against {nodes}");
            }
        }
    }
}

#[test]
fn rows_the_split_search_cannot_serve_are_refused() {
    let refuse = |name: &str, rows: Vec<usize>, why: &str| {
        let mut solver = TilingSolver::new(&shipped(name), Mode::All).unwrap();
        let e = solver
            .set_splitting(Splitting::Rows(rows.clone()))
            .unwrap_err();
        assert!(e.to_string().contains(why), "{name} {rows:?}: {e}");
        assert_eq!(
            solver.split_plan().map(|p| p.rows.clone()),
            TilingSolver::new(&shipped(name), Mode::All)
                .unwrap()
                .split_plan()
                .map(|p| p.rows.clone()),
            "a refused split is not kept: the default stays"
        );
    };
    refuse("meteor", vec![], "no rows");
    refuse("meteor", vec![0, 3], "from row 1");
    refuse("meteor", vec![4, 3], "must increase");
    refuse("meteor", vec![3, 3], "must increase");
    refuse("meteor", vec![10], "past the board");
    // Boards over 64 cells, and copies, are served.
    for (name, rows) in [
        ("one-sided-pentomino-3x30", vec![20]),
        ("hexiamonds-4x9", vec![3]),
        ("dominoes-10x10", vec![3, 4]),
    ] {
        let mut solver = TilingSolver::new(&shipped(name), Mode::All).unwrap();
        solver.set_splitting(Splitting::Rows(rows.clone())).unwrap();
        assert_eq!(solver.split_rows(), &rows[..]);
    }
    // Width 8: an overhang at row 1 reaches more than 24 cells, and is hashed.
    let mut hole = TilingSolver::new(&shipped("pentomino-8x8-hole"), Mode::All).unwrap();
    hole.set_splitting(Splitting::Rows(vec![1])).unwrap();
    assert_eq!(hole.split_rows(), &[1]);
    // The piece the symmetry restriction places first lies in the south half of the
    // 3 x 30 board: row 5's overhang reaches it (30 cells, hashed).
    let mut long = TilingSolver::new(&shipped("one-sided-pentomino-3x30"), Mode::All).unwrap();
    long.set_splitting(Splitting::Rows(vec![5])).unwrap();
    assert_eq!(long.split_rows(), &[5]);
}

#[test]
fn cli_split_rows_are_used_reported_and_checked() {
    let file = format!("{}/data/meteor.puz", env!("CARGO_MANIFEST_DIR"));
    let json = stdout_of(&[
        "solve", &file, "--count", "--split", "3,4,5,6", "--format", "json",
    ]);
    assert!(json.contains("\"solutions\":2098"), "{json}");
    assert!(json.contains("\"split\":[3,4,5,6]"), "{json}");
    let plain = stdout_of(&[
        "solve", &file, "--count", "--split", "off", "--format", "json",
    ]);
    assert!(!plain.contains("\"split"), "{plain}");
    let e = fails(&["solve", &file, "--count", "--split", "4,3"]);
    assert!(
        e.contains("meteor.puz: --split: cannot split the search before rows [4, 3]"),
        "{e}"
    );
    let e = fails(&["solve", &file, "--split", "three"]);
    assert!(e.contains("expected auto, off or rows"), "{e}");
}

#[test]
fn the_split_memo_reports_its_memory_and_a_full_one_still_counts_exactly() {
    let file = format!("{}/data/pentomino-6x10.puz", env!("CARGO_MANIFEST_DIR"));
    let run = |mib: &str| {
        let args = [
            "solve",
            &file,
            "--count",
            "--split",
            "4,5,6,7,8,9",
            "--threads",
            "1",
            "--memo-mib",
            mib,
            "--format",
            "json",
        ];
        let summary = json_lines(&stdout_of(&args)).pop().expect("a summary");
        let memo = summary["split_memo"]
            .as_object()
            .expect("split_memo")
            .clone();
        (summary, memo)
    };
    let (roomy, memo) = run("1024");
    assert_eq!(number(&roomy, "solutions"), 9356.0);
    assert_eq!(memo["full"], false, "{memo:?}");
    assert_eq!(number(&memo, "bound"), f64::from(1 << 30));
    assert!(number(&memo, "bytes") > 0.0, "{memo:?}");
    // One MiB does not hold the 6 x 10 memo (about 2.4 MiB): the overhangs met after
    // it filled are searched without it, with the same count and more nodes.
    let (tight, memo) = run("1");
    assert_eq!(number(&tight, "solutions"), 9356.0);
    assert_eq!(memo["full"], true, "{memo:?}");
    assert!(number(&memo, "bytes") <= f64::from(1 << 20), "{memo:?}");
    assert!(number(&tight, "nodes") > number(&roomy, "nodes"));
    let (_, stats) = run_ok(&[
        "solve",
        &file,
        "--count",
        "--split",
        "4,5,6,7,8,9",
        "--stats",
        "--memo-mib",
        "1",
    ]);
    assert!(
        stats.contains("split memo: 1.0 MiB of 1 MiB; full"),
        "{stats}"
    );
}

/// What the auto split chose for each quick shipped file, in both modes: the
/// solutions must be the plain search's in its order, and the rows chosen must be rows
/// `--split ROWS` accepts.
#[test]
fn auto_split_gives_the_plain_solutions_in_order_on_every_shipped_file() {
    let mut chosen = Vec::new();
    for name in [
        "meteor",
        "pentomino-3x20",
        "pentomino-4x15",
        "pentomino-5x12",
        "pentomino-6x10",
        "one-sided-pentomino-3x30",
        "hexiamonds-4x9",
        "hexiamonds-6x6",
        "pentomino-8x8-hole",
        "soma-3x3x3",
        "tetrahex-7x4",
    ] {
        let puzzle = shipped(name);
        for mode in [Mode::All, Mode::Distinct] {
            let plain = plain_solver(&puzzle, mode).unwrap();
            let (solutions, count, total, nodes) = run(&plain, 1);
            let mut auto = TilingSolver::new(&puzzle, mode).unwrap();
            auto.set_splitting(Splitting::Auto).unwrap();
            let plan = auto.split_plan().expect("auto measures").clone();
            assert_eq!(auto.split_rows(), &plan.rows[..]);
            // A file's `split:` statement is what the measurement chooses, in both
            // modes: stated so that runs skip measuring, not to choose otherwise.
            match &puzzle.split {
                Splitting::Stated(rows) => assert_eq!(rows, &plan.rows, "{name} {mode:?}"),
                Splitting::Off => assert!(plan.rows.is_empty(), "{name} {mode:?}"),
                Splitting::Auto => {}
                Splitting::Rows(_) => panic!("{name}: a file's rows are Stated"),
            }
            if !plan.rows.is_empty() {
                let mut given = TilingSolver::new(&puzzle, mode).unwrap();
                given
                    .set_splitting(Splitting::Rows(plan.rows.clone()))
                    .unwrap_or_else(|e| panic!("{name}: chose {:?}: {e}", plan.rows));
            }
            let mut auto_nodes = Vec::new();
            for threads in [1, 2] {
                let (got, got_count, got_total, got_nodes) = run(&auto, threads);
                assert!(
                    got == solutions && (got_count, got_total) == (count, total),
                    "{name} {mode:?}, rows {:?}, {threads} threads: {got_count} ({got_total}) against {count} ({total}), or another order",
                    plan.rows
                );
                auto_nodes.push(got_nodes);
            }
            assert_eq!(
                auto_nodes[0], auto_nodes[1],
                "{name}: nodes depend on threads"
            );
            if plan.rows.is_empty() {
                assert_eq!(
                    auto_nodes[0], nodes,
                    "{name} {mode:?}: no split, plain nodes"
                );
            }
            chosen.push((name, mode, plan.rows, nodes, auto_nodes[0]));
        }
    }
    // The boards where the split pays most choose one, and it saves most of the
    // nodes; the 8 x 8 board, whose overhangs are too wide below its top rows, and the
    // small trees search plainly.
    for (name, mode, rows, plain, auto) in &chosen {
        match *name {
            "meteor" | "pentomino-6x10" => assert!(
                !rows.is_empty() && auto * 2 < *plain,
                "{name} {mode:?}: rows {rows:?}, {auto} nodes against {plain}"
            ),
            "pentomino-8x8-hole" | "soma-3x3x3" | "tetrahex-7x4" => {
                assert!(rows.is_empty(), "{name} {mode:?}: rows {rows:?}")
            }
            _ => {}
        }
    }
}

#[test]
fn auto_split_is_measured_alike_on_every_solver_and_skipped_under_a_limit() {
    let puzzle = shipped("pentomino-6x10");
    let a = TilingSolver::new(&puzzle, Mode::Distinct).unwrap();
    let b = TilingSolver::new(&puzzle, Mode::Distinct).unwrap();
    assert_eq!(a.split_plan(), b.split_plan());
    let plan = a.split_plan().unwrap();
    assert!(plan.pilot_nodes > 0 && plan.plain > 0.0 && !plan.candidates.is_empty());
    for c in &plan.candidates {
        assert!(
            c.crossings >= 0.0 && c.overhangs >= 1.0 && c.below > 0.0,
            "{c:?}"
        );
    }
    // A limit: the plain search, so the first solutions cost no measurement.
    let limited = Options {
        limit: Some(10),
        threads: 1,
        stats: true,
        ..Options::default()
    };
    assert!(a.split_rows_for(&limited).is_empty());
    let plain = plain_solver(&puzzle, Mode::Distinct).unwrap();
    let (x, y) = (a.count(&limited), plain.count(&limited));
    assert_eq!((x.solutions, x.nodes), (y.solutions, y.nodes));
    // A small tree says why nothing was measured.
    let small = TilingSolver::new(&shipped("tetrahex-7x4"), Mode::All).unwrap();
    let plan = small.split_plan().unwrap();
    assert!(plan.rows.is_empty() && plan.skipped.is_some(), "{plan:?}");
    let off = plain_solver(&puzzle, Mode::All).unwrap();
    assert!(off.split_plan().is_none());
    // Rows whose overhangs pass 24 cells (8 wide, or reaching the piece placed first)
    // are named, and served when asked for.
    let hole = shipped("pentomino-8x8-hole");
    let wide = TilingSolver::new(&hole, Mode::All)
        .unwrap()
        .split_plan()
        .unwrap()
        .wide_rows
        .clone();
    assert!(!wide.is_empty());
    for row in wide {
        let mut solver = TilingSolver::new(&hole, Mode::All).unwrap();
        solver.set_splitting(Splitting::Rows(vec![row])).unwrap();
    }
    // Wide rows of a large tree are counted exactly where the walk south of them is
    // affordable; on the Bedlam cube's nearly every crossing has an overhang of its
    // own, so they are not measured, and no row is chosen.
    // (The file states `split: off`; measured here as `auto` measures.)
    let mut bedlam = TilingSolver::new(&shipped("bedlam-4x4x4"), Mode::Distinct).unwrap();
    bedlam.set_splitting(Splitting::Auto).unwrap();
    let plan = bedlam.split_plan().unwrap();
    assert!(plan.exact_nodes > 0 && plan.rows.is_empty(), "{plan:?}");
    let unmeasured: Vec<_> = plan.candidates.iter().filter(|c| !c.recurs).collect();
    assert!(!unmeasured.is_empty(), "{plan:?}");
    for c in unmeasured {
        assert!(
            c.above.is_none() && c.crossings < 4.0 * c.overhangs,
            "{c:?}"
        );
    }
}

/// The large cubic files state `split: off`, so that a run skips the measurement:
/// measured, no split pays there, in either mode, so the statement says what `auto`
/// would choose (their plain searches are too long for the test above; the plan alone
/// is measured here).
#[test]
fn files_stating_no_split_measure_none() {
    for name in [
        "solid-pentominoes-3x4x5",
        "solid-pentominoes-2x5x6",
        "bedlam-4x4x4",
    ] {
        let puzzle = shipped(name);
        assert_eq!(puzzle.split, Splitting::Off, "{name}");
        for mode in [Mode::All, Mode::Distinct] {
            let mut solver = TilingSolver::new(&puzzle, mode).unwrap();
            assert_eq!(solver.splitting(), &Splitting::Off, "{name} {mode:?}");
            assert!(solver.split_plan().is_none(), "{name}: measured though off");
            solver.set_splitting(Splitting::Auto).unwrap();
            let plan = solver.split_plan().expect("auto measures");
            assert!(
                plan.rows.is_empty(),
                "{name} {mode:?}: auto now splits before rows {:?}; update the file",
                plan.rows
            );
        }
    }
}

/// A file's `split:` rows are the solver's default: used without measuring, plain
/// under a limit (as `auto`'s own rows), overridden by `set_splitting`, checked like
/// given rows, and not applied to a board laid another way.
#[test]
fn stated_rows_are_used_without_measuring() {
    let meteor = shipped("meteor");
    assert_eq!(meteor.split, Splitting::Stated(vec![4, 5, 6, 7, 8, 9]));
    let solver = TilingSolver::new(&meteor, Mode::All).unwrap();
    assert_eq!(solver.splitting(), &meteor.split);
    assert!(solver.split_plan().is_none(), "nothing measured");
    assert_eq!(solver.split_rows(), &[4, 5, 6, 7, 8, 9]);
    let limited = Options {
        limit: Some(10),
        ..Options::default()
    };
    assert!(solver.split_rows_for(&limited).is_empty());
    let (_, count, _, nodes) = run(&solver, 2);
    let mut auto = TilingSolver::new(&meteor, Mode::All).unwrap();
    auto.set_splitting(Splitting::Auto).unwrap();
    assert_eq!(run(&auto, 2).1, count);
    assert_eq!(run(&auto, 2).3, nodes, "the same rows, the same tree");
    // Rows the split search cannot serve are refused when the solver is made.
    let mut bad = meteor.clone();
    bad.split = Splitting::Stated(vec![3, 10]);
    let e = TilingSolver::new(&bad, Mode::All)
        .err()
        .expect("row 10 is past the board");
    assert!(
        matches!(e, TilingError::Split { stated: true, .. })
            && e.to_string().contains("(the file's split: statement)"),
        "{e}"
    );
    // Laid another way, the rows are not the file's rows: measured instead.
    let five = shipped("pentomino-5x12");
    let mut stated = five.clone();
    stated.split = Splitting::Stated(vec![4, 5, 6]);
    let transposed = Orienting::Axes(polytile::grid::Axes::TRANSPOSE);
    let other = TilingSolver::oriented(&stated, Mode::All, transposed).unwrap();
    assert_eq!(other.splitting(), &Splitting::Auto);
}

/// A board searched along its short side says so, since split rows count the
/// search's rows: the 3 x 20 pentominoes drawn 20 wide are split as drawn 3 wide.
#[test]
fn a_transposed_board_is_reported_with_the_rows_split_counts() {
    let drawn = shipped("pentomino-3x20");
    assert_eq!((drawn.board.width, drawn.board.height), (3, 20));
    let mut wide = drawn.clone();
    wide.board.width = 20;
    wide.board.height = 3;
    let text = wide.to_text();
    let file = crate::common::cli::TempFile::new("split", "pentomino-20x3", "puz", text.as_bytes());
    let file = file.0.to_str().unwrap().to_string();
    let solver = TilingSolver::new(&Puzzle::load(file.as_ref()).unwrap(), Mode::All).unwrap();
    assert_eq!(solver.transposed(), Some((20, 3)));
    let (out, err) = run_ok(&["solve", &file, "--count", "--stats", "--split", "19"]);
    assert!(out.contains("8 solutions"), "{out}");
    assert!(
        err.contains("transposed: the board, 20 columns x 3 rows, is searched along its short side (3 columns x 20 rows, as --split counts them)"),
        "{err}"
    );
    let json = stdout_of(&["solve", &file, "--count", "--format", "json"]);
    assert!(json.contains("\"transposed\":[20,3]"), "{json}");
    // Drawn narrow, nothing to say.
    assert_eq!(
        TilingSolver::new(&drawn, Mode::All).unwrap().transposed(),
        None
    );
}

#[test]
fn cli_split_auto_is_the_default_and_reports_what_it_measured() {
    // The meteor file states its rows; `--split auto` measures them again.
    let file = format!("{}/data/meteor.puz", env!("CARGO_MANIFEST_DIR"));
    let json = stdout_of(&[
        "solve", &file, "--count", "--split", "auto", "--format", "json",
    ]);
    assert!(json.contains("\"solutions\":2098"), "{json}");
    assert!(
        json.contains("\"split\":[") && !json.contains("\"split\":[]"),
        "{json}"
    );
    assert!(json.contains("\"split_plan\":{"), "{json}");
    assert!(!json.contains("split_stated"), "{json}");
    let stated = stdout_of(&["solve", &file, "--count", "--format", "json"]);
    assert!(
        stated.contains("\"split_stated\":true") && !stated.contains("split_plan"),
        "{stated}"
    );
    let again = stdout_of(&[
        "solve", &file, "--count", "--split", "auto", "--format", "json",
    ]);
    let nodes = |s: &str| {
        s.split("\"nodes\":")
            .nth(1)
            .map(|t| t.split(',').next().unwrap().to_string())
    };
    assert_eq!(
        nodes(&json),
        nodes(&again),
        "the same measurement, the same run"
    );
    assert_eq!(
        nodes(&json),
        nodes(&stated),
        "the rows stated are the rows measured"
    );
    let (out, err) =
        crate::common::cli::run_ok(&["solve", &file, "--count", "--stats", "--split", "auto"]);
    assert!(out.contains("2098"), "{out}");
    assert!(err.contains("split auto: plain tree about"), "{err}");
    assert!(err.contains("from row"), "{err}");
    let (out, err) = crate::common::cli::run_ok(&["solve", &file, "--count", "--stats"]);
    assert!(out.contains("2098"), "{out}");
    assert!(
        err.contains("split: rows [4, 5, 6, 7, 8, 9], as the file states (not measured)")
            && !err.contains("split auto"),
        "{err}"
    );
    // Given rows and off override the file's.
    let off = stdout_of(&[
        "solve", &file, "--count", "--split", "off", "--format", "json",
    ]);
    assert!(
        off.contains("\"solutions\":2098") && !off.contains("\"split\""),
        "{off}"
    );
}

/// A random puzzle on a board of more than 64 cells, so searched with a moving window:
/// a rectangle of 65 to 90 cells, 2 or 3 across, on a random planar grid with a few holes, cut into
/// random connected pieces of 6 to 9 cells (a few smaller where the cut is walled in),
/// so that it has at least one solution, no two pieces alike. `None` if the cut gives
/// 32 pieces or more, or pieces that cannot be told apart.
fn random_big_puzzle(rng: &mut Rng) -> Option<Puzzle> {
    let grid = [Grid::Square, Grid::Hex, Grid::Triangle][rng.below(3)];
    // Narrow, so that the plain search is quick: 2 or 3 cells across (after the
    // transposition of wide square and triangle boards; hex boards are drawn tall).
    let (w, h) = loop {
        let (w, h) = (2 + rng.below(2), 22 + rng.below(24));
        if (65..=90).contains(&(w * h)) {
            break if grid != Grid::Hex && rng.below(2) == 0 {
                (h, w)
            } else {
                (w, h)
            };
        }
    };
    let mut board = Board::rectangle(grid, w, h);
    for c in board.cells.iter_mut() {
        *c = rng.below(20) != 0;
    }
    let point = |i: usize| tiling::point(grid, i / w, i % w);
    let mut free: Vec<bool> = board.cells.clone();
    let mut pieces = Vec::new();
    let mut images = Vec::new();
    while let Some(start) = free.iter().position(|&f| f) {
        let size = 6 + rng.below(4);
        free[start] = false;
        let mut cells = vec![start];
        while cells.len() < size {
            let grow: Vec<usize> = (0..free.len())
                .filter(|&j| {
                    free[j]
                        && cells
                            .iter()
                            .any(|&c| tiling::adjacent(grid, point(c), point(j)))
                })
                .collect();
            if grow.is_empty() {
                break;
            }
            let j = grow[rng.below(grow.len())];
            free[j] = false;
            cells.push(j);
        }
        // No two pieces that can take the same place: interchangeable pieces multiply
        // the solutions (and the search) by their permutations. A piece that would be
        // is fixed, and the cut is given up if it still is.
        let shape: Vec<_> = cells.iter().map(|&c| point(c)).collect();
        let mut motion = [Motion::Free, Motion::OneSided, Motion::Fixed][rng.below(3)];
        let clashes = |motion| {
            let mine = tiling::images(grid, &shape, motion);
            images
                .iter()
                .any(|theirs: &Vec<Vec<_>>| mine.iter().any(|m| theirs.contains(m)))
        };
        if clashes(motion) {
            motion = Motion::Fixed;
            if clashes(motion) {
                return None;
            }
        }
        images.push(tiling::images(grid, &shape, motion));
        let lattice: Vec<_> = cells
            .iter()
            .map(|&c| grid.lattice(0, c / w, c % w))
            .collect();
        pieces.push(Piece {
            name: pieces.len().to_string(),
            cells: normalise(grid, &lattice),
            motion,
            count: 1,
        });
    }
    (pieces.len() < 32).then(|| puzzle(&board, &pieces, false))
}

#[test]
fn random_puzzles_over_64_cells_split_anywhere_give_the_plain_solutions_in_order() {
    let mut rng = Rng(0xb16_b0a2d);
    let (mut cases, mut accepted) = (0, 0);
    let mut grids = std::collections::BTreeSet::new();
    while cases < 12 {
        let Some(p) = random_big_puzzle(&mut rng) else {
            continue;
        };
        // Only puzzles whose plain search is quick: every row set is searched twice
        // per mode.
        let nodes = TilingSolver::new(&p, Mode::All)
            .map(|s| {
                s.count(&Options {
                    stats: true,
                    ..Options::default()
                })
                .nodes
                .unwrap()
            })
            .unwrap_or(0);
        if nodes > 100_000 {
            continue;
        }
        let cells = p.board.cells.iter().filter(|&&c| c).count();
        let rows = p.board.width.max(p.board.height) + 1;
        let mut served = 0;
        let t0 = std::time::Instant::now();
        for mode in [Mode::All, Mode::Distinct] {
            match compare(&p, mode, (1, rows), &[1, 2]) {
                Ok(k) => served += k,
                Err(e) if !e.contains("rows") => {}
                Err(e) => panic!("case {cases}: {p:?}\n  {e}"),
            }
        }
        if served > 0 {
            grids.insert(format!("{:?}", p.board.grid));
        }
        eprintln!(
            "case {cases}: {:?} {}x{}, {cells} cells, {} pieces: {served} row sets in {:?}",
            p.board.grid,
            p.board.width,
            p.board.height,
            p.pieces.len(),
            t0.elapsed()
        );
        accepted += served;
        cases += 1;
    }
    assert_eq!(grids.len(), 3, "every planar grid served: {grids:?}");
    assert!(accepted >= 100, "only {accepted} row sets were accepted");
}

/// The plan measures within the run's memo bound and estimates the run's memo per
/// row: a row whose memo outgrows the bound is reported as such and not chosen, the
/// row chosen fits, and the run still gives every solution.
#[test]
fn the_plan_measures_within_the_memo_bound() {
    let puzzle = shipped("pentomino-6x10");
    let roomy = TilingSolver::new(&puzzle, Mode::All).unwrap();
    let plan = roomy.split_plan().expect("auto").clone();
    assert!(plan.candidates.iter().all(|c| !c.memo_full), "{plan:?}");
    let chosen = plan.chosen().expect("6 x 10 splits");
    // The estimate is of the right size: the run's memo took 1.3 MiB.
    assert!((0.25e6..4e6).contains(&chosen.memo), "{}", plan.text());
    let mut tight = TilingSolver::new(&puzzle, Mode::All).unwrap();
    let bound = 16 << 10;
    // Dropped when the bound changes: made again under the new one.
    tight.set_memo_bound(&polytile::count::MemoOptions { max_bytes: bound });
    let plan = tight.split_plan().expect("auto").clone();
    assert!(plan.candidates.iter().any(|c| c.memo_full), "{plan:?}");
    for c in &plan.candidates {
        assert!(!c.memo_full || c.above.is_none(), "{plan:?}");
    }
    if let Some(chosen) = plan.chosen() {
        assert!(!chosen.memo_full && chosen.memo <= bound as f64, "{plan:?}");
    }
    assert!(
        plan.text().contains("over the memo bound"),
        "{}",
        plan.text()
    );
    let (_, count, _, _) = run(&tight, 1);
    assert_eq!(count, 9356);
}

//! Pictures (`polytile::picture`, `--format svg|png`, `polytile animate`): every SVG
//! parses as XML and renders; rendered to pixels, the centre of every cell has the
//! colour of what covers it (its piece, its cage, its count), holes the background;
//! the same solutions give the same bytes on any thread count; bad flag combinations
//! are one-line errors; the README's pictures under `docs/pictures/` are up to date.
//!
//! Every tiling drawn is first checked by the independent verifier
//! (`common/tiling.rs`), every number solution by `common/sums.rs`; killer cages are
//! read from the data file's `cage` lines here, not from the library.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::Path;

use polytile::picture::{self, shape, Picture, Raster, BACKGROUND, PALETTE, PAPER};
use polytile::sums::{self, SumsSolver};
use polytile::{Grid, Mode, Move, Puzzle, TablesReport, Tiling, TilingSolver};

use crate::common::cli::{fails, polytile, run_ok, stdout_of, TempFile};
use crate::common::{options, sums as sums_check, tiling, verifier_specs as specs};

/// Parses `svg` as XML, checking it is an SVG document.
fn well_formed(svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
}

/// Checks and renders a picture.
fn render(pic: &Picture) -> Raster {
    well_formed(&pic.svg);
    let raster = picture::raster(&pic.svg).expect("the picture renders");
    assert_eq!((raster.width, raster.height), pic.size);
    raster
}

/// The colour of the pixel holding point `(x, y)`.
fn colour_at(raster: &Raster, (x, y): shape::Xy) -> String {
    raster.colour(x.floor() as u32, y.floor() as u32)
}

/// Whether a dark pixel (text or a line) lies within `r` pixels of `(x, y)`.
fn dark_near(raster: &Raster, (x, y): shape::Xy, r: i32) -> bool {
    (-r..=r).any(|dy| {
        (-r..=r).any(|dx| {
            let (px, py) = (
                (x.floor() as i32 + dx) as u32,
                (y.floor() as i32 + dy) as u32,
            );
            let i = 4 * (py as usize * raster.width as usize + px as usize);
            raster.rgba[i..i + 3].iter().all(|&v| v < 0x80)
        })
    })
}

/// The first `limit` solutions of a data file, each checked by the verifier.
fn tilings(file: &str, limit: u64) -> (Puzzle, Vec<Tiling>) {
    let puzzle = Puzzle::load(Path::new(file)).expect("the data file loads");
    let solver = TilingSolver::new(&puzzle, Mode::All).expect("the puzzle is solvable");
    let mut found = Vec::new();
    solver.for_each(&options(limit as usize, 1), |t| {
        found.push(t);
        ControlFlow::Continue(())
    });
    assert_eq!(found.len() as u64, limit, "{file}");
    for t in &found {
        verify(&puzzle, t).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    (puzzle, found)
}

/// The verifier's judgement of a tiling of `puzzle`.
fn verify(puzzle: &Puzzle, t: &Tiling) -> Result<(), String> {
    let b = &puzzle.board;
    tiling::verify_tiling(
        b.grid,
        b.width,
        b.height,
        &b.cells,
        &specs(puzzle),
        t,
        false,
    )
}

/// The centre of every cell `(row, col)` of a `width x height` rectangle in panel
/// `panel` of `pic`, drawn or not (holes too): the panel's offset is read off its
/// first drawn cell.
fn all_centres(
    pic: &Picture,
    panel: usize,
    grid: Grid,
    width: usize,
    height: usize,
) -> Vec<shape::Xy> {
    let ((r0, c0), (x0, y0)) = pic.centres[panel][0];
    let (sx, sy) = shape::centre(grid, r0, c0);
    (0..width * height)
        .map(|i| {
            let (x, y) = shape::centre(grid, (i / width) as i32, (i % width) as i32);
            (x0 - sx + x, y0 - sy + y)
        })
        .collect()
}

#[test]
fn every_cell_centre_has_its_piece_colour_and_holes_are_background() {
    for (file, limit) in [
        ("data/pentomino-6x10.puz", 3),
        ("data/pentomino-3x20.puz", 2),
        ("data/meteor.puz", 2),
        ("data/tetrahex-7x4.puz", 2),
        ("data/pentomino-8x8-hole.puz", 1),
        ("data/hexiamonds-6x6.puz", 2),
        ("data/hexiamonds-4x9.puz", 2),
    ] {
        let (puzzle, found) = tilings(file, limit);
        let style = picture::tiling::Style { labels: false };
        let pic = picture::tiling::tilings(&puzzle, &found, style);
        let raster = render(&pic);
        let b = &puzzle.board;
        assert_eq!(pic.centres.len(), found.len());
        for (panel, t) in found.iter().enumerate() {
            let drawn: BTreeSet<(i32, i32)> = pic.centres[panel].iter().map(|c| c.0).collect();
            let covered: BTreeSet<(i32, i32)> = (0..t.len())
                .filter(|&i| t[i].is_some())
                .map(|i| ((i / b.width) as i32, (i % b.width) as i32))
                .collect();
            assert_eq!(
                drawn, covered,
                "{file}: the cells drawn are the cells covered"
            );
            for (i, &centre) in all_centres(&pic, panel, b.grid, b.width, b.height)
                .iter()
                .enumerate()
            {
                let want = t[i].map_or(BACKGROUND, |p| picture::piece_colour(p.into()));
                assert_eq!(
                    colour_at(&raster, centre),
                    want,
                    "{file}: solution {}, cell {i} ({:?})",
                    panel + 1,
                    t[i]
                );
                // Nothing but the fill near a centre without labels.
                assert!(!dark_near(&raster, centre, 5), "{file}: cell {i}");
            }
        }
        if file.contains("hole") {
            assert!(found[0].iter().any(Option::is_none), "{file} has holes");
        }
    }
}

#[test]
fn labels_sit_on_their_pieces() {
    let (puzzle, found) = tilings("data/pentomino-6x10.puz", 1);
    let pic = picture::tiling::tilings(&puzzle, &found, picture::tiling::Style::default());
    let raster = render(&pic);
    let b = &puzzle.board;
    let centres = all_centres(&pic, 0, b.grid, b.width, b.height);
    // Each piece shows dark pixels (its letter) near the centre of some cell of its own.
    for piece in 0..puzzle.pieces.len() as u16 {
        let labelled = (0..found[0].len())
            .filter(|&i| found[0][i] == Some(piece))
            .filter(|&i| dark_near(&raster, centres[i], 4))
            .count();
        assert_eq!(
            labelled, 1,
            "piece {piece}: its label lies on one of its cells"
        );
    }
}

#[test]
fn touching_copies_of_one_piece_are_outlined_apart() {
    // Two dominoes of one kind on a 2 x 2 square: each tiling has the two copies side
    // by side, which only a thick line between them tells apart.
    let text = "grid: square\nboard:\nxx\nxx\n\npiece D: count 2\nxx\n";
    let puzzle = Puzzle::parse(text, "dominoes.puz").expect("parses");
    let t: Tiling = vec![Some(0); 4];
    let pic = picture::tiling::tilings(&puzzle, &[t], picture::tiling::Style { labels: false });
    let raster = render(&pic);
    let centres = all_centres(&pic, 0, Grid::Square, 2, 2);
    // Between the two cells of a copy: no thick line; between copies: one. Either the
    // rows or the columns are the copies; exactly one of the two middles is dark.
    let mid = |a: shape::Xy, b: shape::Xy| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let across_rows = dark_near(&raster, mid(centres[0], centres[2]), 1);
    let across_cols = dark_near(&raster, mid(centres[0], centres[1]), 1);
    assert!(across_rows != across_cols, "{across_rows} {across_cols}");
}

/// One solution of a number puzzle, checked.
fn number_solution(model: &sums::Model) -> Vec<i64> {
    let solver = SumsSolver::new(model, Mode::All).expect("solvable");
    let mut found = Vec::new();
    solver.for_each(&options(1, 1), |v| {
        found.push(v);
        ControlFlow::Continue(())
    });
    let values = found.pop().expect("a solution");
    sums_check::verify(model, &values).expect("a valid solution");
    values
}

/// The cages of a `.sum` file, read from its `cage TOTAL: r1c1 ...` lines: cell
/// indices of a 9 x 9 grid.
fn file_cages(file: &str) -> Vec<Vec<usize>> {
    std::fs::read_to_string(file)
        .expect("read")
        .lines()
        .filter_map(|l| l.strip_prefix("cage "))
        .map(|l| {
            let (_, cells) = l.split_once(':').expect("cage TOTAL: cells");
            cells
                .split_whitespace()
                .map(|name| {
                    let (r, c) = name[1..].split_once('c').expect("rRcC");
                    (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
                })
                .collect()
        })
        .collect()
}

#[test]
fn killer_cages_are_filled_so_neighbours_differ() {
    let file = "data/killer-wikipedia.sum";
    let model = sums::load(Path::new(file)).expect("loads");
    let values = number_solution(&model);
    let pic = picture::numbers::solutions(&model, &[values], false);
    let raster = render(&pic);
    let colours: BTreeMap<(i32, i32), String> = pic.centres[0]
        .iter()
        .map(|&(at, c)| (at, colour_at(&raster, c)))
        .collect();
    assert_eq!(colours.len(), 81);
    let cages = file_cages(file);
    assert_eq!(cages.iter().map(Vec::len).sum::<usize>(), 81);
    let colour = |cell: usize| &colours[&((cell / 9) as i32, (cell % 9) as i32)];
    let mut cage_of = [0; 81];
    for (k, cage) in cages.iter().enumerate() {
        for &c in cage {
            cage_of[c] = k;
            assert_eq!(colour(c), colour(cage[0]), "cage {k} is one colour");
            assert!(
                PALETTE.contains(&colour(c).as_str()),
                "cage {k}: {}",
                colour(c)
            );
        }
    }
    for a in 0..81 {
        for b in [a + 1, a + 9] {
            let touching = b < 81 && (b == a + 9 || a % 9 != 8);
            if touching && cage_of[a] != cage_of[b] {
                assert_ne!(colour(a), colour(b), "cells {a} and {b}: touching cages");
            }
        }
    }
}

#[test]
fn number_figures_show_each_value_on_its_cell() {
    let models = [
        sums::builtin::magic_hexagon(),
        sums::builtin::magic_square(4).expect("order 4"),
        sums::load(Path::new("data/send-more-money.sum")).expect("loads"),
    ];
    for model in &models {
        let values = number_solution(model);
        let bare = render(&picture::numbers::solutions(
            model,
            std::slice::from_ref(&values),
            false,
        ));
        let pic = picture::numbers::solutions(model, &[values], true);
        let raster = render(&pic);
        assert_eq!(pic.centres[0].len(), model.cells.len());
        for &(at, centre) in &pic.centres[0] {
            assert_eq!(colour_at(&bare, centre), PAPER, "{:?} {at:?}", model.name);
            assert!(!dark_near(&bare, centre, 5), "{:?} {at:?}", model.name);
            assert!(
                dark_near(&raster, centre, 4),
                "{:?} {at:?}: a value",
                model.name
            );
        }
    }
    // A cryptarithm's lines of letters (and of carries) are rows of squares.
    let money = picture::numbers::solutions(&models[2], &[number_solution(&models[2])], true);
    let centres = &money.centres[0];
    let (x0, y0) = centres[0].1;
    for (i, &(at, (x, y))) in centres.iter().take(8).enumerate() {
        assert_eq!(at, (0, i as i32), "S E N D M O R Y on line 0");
        assert_eq!((x - x0, y), (i as f64 * shape::CELL, y0));
    }
    assert!(centres[8..]
        .iter()
        .all(|&(at, (_, y))| at.0 == 1 && y == y0 + shape::CELL));
    // The hexagon is drawn as hexagons: rows of 3, 4, 5, 4, 3 cells, each row's cells
    // side by side and rows half a cell apart.
    let model = &models[0];
    let pic = picture::numbers::solutions(model, &[number_solution(model)], true);
    let mut rows: BTreeMap<i32, Vec<f64>> = BTreeMap::new();
    for &((row, _), (x, _)) in &pic.centres[0] {
        rows.entry(row).or_default().push(x);
    }
    let lengths: Vec<usize> = rows.values().map(Vec::len).collect();
    assert_eq!(lengths, [3, 4, 5, 4, 3]);
    let first: Vec<f64> = rows.values().map(|xs| xs[0]).collect();
    let step = rows[&0][1] - rows[&0][0];
    for w in first.windows(2) {
        assert!(((w[0] - w[1]).abs() - step / 2.0).abs() < 1e-6, "{first:?}");
    }
}

#[test]
fn heat_map_colours_each_cell_by_its_placements() {
    let report = TablesReport::meteor();
    let json: serde_json::Value = serde_json::from_str(&report.json()).expect("JSON");
    let per_cell = |key: &str| -> Vec<u64> {
        let mut sums = vec![0; 50];
        for piece in json["piece_info"].as_array().expect("pieces") {
            for (cell, n) in piece[key].as_array().expect("cells").iter().enumerate() {
                sums[cell] += n.as_u64().expect("a count");
            }
        }
        sums
    };
    let (before, after) = (per_cell("before"), per_cell("after"));
    assert!(
        before.iter().zip(&after).any(|(b, a)| a < b),
        "pruning removes some"
    );
    let max = before.iter().chain(&after).copied().max().expect("cells") as f64;
    let pic = report.picture();
    let raster = render(&pic);
    for (panel, counts) in [before, after].iter().enumerate() {
        let centres = all_centres(&pic, panel, Grid::Hex, 5, 10);
        for (cell, &n) in counts.iter().enumerate() {
            // Below the count written in the middle.
            let (x, y) = centres[cell];
            let want = picture::heat::scale_colour(n as f64 / max);
            assert_eq!(
                colour_at(&raster, (x, y + 9.0)),
                want,
                "panel {panel}, cell {cell}"
            );
        }
    }
}

/// Replays a movie of a board of `cells` cells: the cells of the pieces still shown at
/// its end, and its moves.
fn replay(svg: &str, cells: usize) -> (Vec<Option<u16>>, usize) {
    let doc = roxmltree::Document::parse(svg).expect("XML");
    let mut board = vec![None; cells];
    let mut moves = 0;
    for g in doc.descendants().filter(|n| n.has_attribute("data-piece")) {
        let sets: Vec<_> = g.children().filter(|n| n.has_tag_name("set")).collect();
        moves += sets.len();
        let last = sets.last().expect("a placement appears");
        if last.attribute("to") == Some("visible") {
            let piece: u16 = g.attribute("data-piece").unwrap().parse().unwrap();
            for c in g.attribute("data-cells").unwrap().split(' ') {
                let c: usize = c.parse().unwrap();
                assert_eq!(board[c], None, "cell {c} shown twice at the end");
                board[c] = Some(piece);
            }
        }
    }
    (board, moves)
}

#[test]
fn the_movie_ends_on_the_first_solution() {
    // A square board wider than tall is searched transposed; its movie is drawn on the
    // puzzle's own board all the same (two pieces of one shape under two names, so
    // that the verifier sees where each lies).
    let wide = TempFile::new(
        "pictures",
        "wide",
        "puz",
        b"grid: square\nboard:\nxxxxx\nxxxxx\n\npiece A:\nxxxx\nx...\n\npiece B:\nxxxx\nx...\n",
    );
    let wide = wide.0.to_str().expect("a UTF-8 path");
    for file in [
        "data/tetrahex-7x4.puz",
        "data/pentomino-3x20.puz",
        "data/hexiamonds-4x9.puz",
        wide,
    ] {
        let puzzle = Puzzle::load(Path::new(file)).expect("loads");
        let b = &puzzle.board;
        let solver = TilingSolver::new(&puzzle, Mode::All).expect("solvable");
        let trace = solver.trace(100_000);
        assert!(trace.solved, "{file}");
        let svg = stdout_of(&["animate", file, "--steps", "100000"]);
        let raster = picture::raster(&svg).expect("renders");
        assert!(raster.width > 0);
        let (board, moves) = replay(&svg, b.cells.len());
        assert_eq!(moves, trace.moves.len(), "{file}: one <set> per move");
        let t: Tiling = board;
        verify(&puzzle, &t).unwrap_or_else(|e| panic!("{file}: the last frame: {e}"));
        // Undoing always takes back the last piece placed.
        let mut depth = 0i32;
        for m in &trace.moves {
            depth += if matches!(m, Move::Undo) { -1 } else { 1 };
            assert!(depth >= 0);
        }
    }
    // A short movie stops after exactly N moves, without a solution.
    let (board, moves) = replay(
        &stdout_of(&["animate", "data/pentomino-3x20.puz", "--steps", "25"]),
        60,
    );
    assert_eq!(moves, 25);
    assert!(board.iter().any(Option::is_none));
}

/// `polytile ARGS` with `--threads N` added; its standard output.
fn with_threads(args: &[&str], threads: &str) -> Vec<u8> {
    let mut all = args.to_vec();
    all.extend(["--threads", threads]);
    let out = polytile(&all);
    assert!(out.status.success(), "{all:?}");
    out.stdout
}

#[test]
fn the_same_solutions_give_the_same_bytes_on_any_thread_count() {
    for args in [
        &[
            "solve",
            "data/pentomino-6x10.puz",
            "--limit",
            "12",
            "--format",
            "svg",
        ][..],
        &[
            "solve",
            "data/meteor.puz",
            "--limit",
            "5",
            "--format",
            "svg",
        ],
        &["magic-square", "4", "--limit", "9", "--format", "svg"],
        &["magic-hexagon", "--format", "png"],
    ] {
        let one = with_threads(args, "1");
        assert_eq!(with_threads(args, "2"), one, "{args:?}");
        assert_eq!(with_threads(args, "1"), one, "{args:?}");
        if args.contains(&"svg") {
            well_formed(std::str::from_utf8(&one).expect("UTF-8"));
        }
    }
}

#[test]
fn png_output_is_the_svg_rendered() {
    let out = TempFile::path("pictures", "sheet", "png");
    let svg = stdout_of(&[
        "solve",
        "data/pentomino-3x20.puz",
        "--limit",
        "3",
        "--format",
        "svg",
    ]);
    run_ok(&[
        "solve",
        "data/pentomino-3x20.puz",
        "--limit",
        "3",
        "--format",
        "png",
        "--output",
        out.to_str().unwrap(),
    ]);
    let file = TempFile(out);
    let bytes = std::fs::read(&file.0).expect("the PNG was written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let png = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("decodes");
    let raster = picture::raster(&svg).expect("renders");
    assert_eq!((png.width(), png.height()), (raster.width, raster.height));
    assert!(
        png.data() == &raster.rgba[..],
        "the PNG's pixels are the SVG's"
    );
    // To a pipe, PNG needs no --output.
    let piped = polytile(&["tables", "meteor", "--format", "png"]);
    assert!(piped.status.success() && piped.stdout.starts_with(b"\x89PNG"));
}

/// Runs `polytile ARGS` with standard output on a pseudo-terminal: its exit code and
/// standard error.
fn on_a_terminal(args: &[&str]) -> (Option<i32>, String) {
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors into the integers given; the name, terminal
    // settings and window size may be null.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty");
    // SAFETY: both descriptors were just opened and belong to nothing else.
    let (_master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_polytile"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::from(slave))
        .output()
        .expect("run polytile");
    (
        out.status.code(),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

#[test]
fn bad_flag_combinations_give_one_line_and_exit_code_2() {
    for args in [
        &["solve", "data/pentomino-3x20.puz", "--format", "png"][..],
        &["tables", "meteor", "--format", "png"],
    ] {
        let (code, err) = on_a_terminal(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("--output"), "{err}");
    }
    let missing_dir = "/nonexistent-polytile-dir/x.svg";
    let cases: [(&[&str], &str); 8] = [
        (
            &["solve", "data/pentomino-3x20.puz", "--format", "gif"],
            "gif",
        ),
        (&["magic-hexagon", "--format", "jpeg"], "jpeg"),
        (
            &["solve", "data/pentomino-3x20.puz", "--output", "x.svg"],
            "--format svg",
        ),
        (
            &[
                "solve",
                "data/pentomino-3x20.puz",
                "--count",
                "--format",
                "svg",
            ],
            "--count",
        ),
        (
            &["magic-square", "3", "--limit", "5000", "--format", "svg"],
            "--limit",
        ),
        (
            &["solve", "data/pentomino-6x10.puz", "--format", "svg"],
            "--limit",
        ),
        (&["merge", "data/meteor.puz", "--format", "svg"], "merge"),
        (
            &[
                "solve",
                "data/pentomino-3x20.puz",
                "--format",
                "svg",
                "--output",
                missing_dir,
            ],
            missing_dir,
        ),
    ];
    for (args, words) in cases {
        let line = fails(args);
        assert!(line.contains(words), "{args:?}: {line}");
    }
    assert!(fails(&["animate", "data/no-such.puz"]).contains("data/no-such.puz"));
}

// ---------------------------------------------------------------------------------
// The README's pictures.

/// The pictures the README shows: file under `docs/pictures/` and the `polytile`
/// arguments that draw it. The one list: the test below checks them and rewrites them
/// when asked (see `fresh_docs_pictures`).
const DOCS: [(&str, &[&str]); 7] = [
    (
        "pentomino-6x10.svg",
        &[
            "solve",
            "data/pentomino-6x10.puz",
            "--limit",
            "1",
            "--format",
            "svg",
        ],
    ),
    (
        "hexiamonds-6x6.svg",
        &[
            "solve",
            "data/hexiamonds-6x6.puz",
            "--limit",
            "1",
            "--format",
            "svg",
        ],
    ),
    (
        "meteor.svg",
        &[
            "solve",
            "data/meteor.puz",
            "--limit",
            "3",
            "--format",
            "svg",
        ],
    ),
    (
        "killer-wikipedia.svg",
        &["sums", "data/killer-wikipedia.sum", "--format", "svg"],
    ),
    (
        "magic-hexagon.svg",
        &["magic-hexagon", "--distinct", "--format", "svg"],
    ),
    (
        "tables-meteor.svg",
        &["tables", "meteor", "--format", "svg"],
    ),
    (
        "animate-tetrahex-7x4.svg",
        &[
            "animate",
            "data/tetrahex-7x4.puz",
            "--steps",
            "300",
            "--seconds",
            "0.15",
        ],
    ),
];

/// Fails when a picture under `docs/pictures/` is not what the command next to it in
/// [`DOCS`] draws today. With `POLYTILE_BLESS=1` it writes them instead:
///
/// ```text
/// POLYTILE_BLESS=1 cargo test --release --test it pictures::docs_pictures_are_fresh
/// ```
#[test]
fn docs_pictures_are_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures");
    let bless = std::env::var_os("POLYTILE_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (file, args) in DOCS {
        let svg = stdout_of(args);
        well_formed(&svg);
        picture::raster(&svg).expect("renders");
        let path = dir.join(file);
        if bless {
            std::fs::create_dir_all(&dir).expect("create docs/pictures");
            std::fs::write(&path, &svg).expect("write a picture");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(svg.as_str()) {
            stale.push(format!(
                "docs/pictures/{file} (polytile {})",
                args.join(" ")
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "stale pictures: {}; redraw them with POLYTILE_BLESS=1 cargo test --release --test it pictures::docs_pictures_are_fresh",
        stale.join(", ")
    );
}

//! The puzzle file format: the shipped data files, one test per error, and no panics
//! on mutated or random input.
//!
//! Known facts used: the piece sets and boards of `docs/known-counts.md`; the
//! meteor pieces are the pentahexes of the smallest Benchmarks Game solution. The
//! polyform sets are checked against an enumeration here (all connected n-cell sets,
//! up to the generator's `orientations`), not against hand-written lists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use polytile::grid::meteor::{board as meteor_board, pieces as meteor_pieces};
use polytile::grid::orientations;
use polytile::puzzle::{Puzzle, PuzzleError, PuzzleErrorKind as ErrorKind};
use polytile::{Board, Grid, Motion, Point};

fn data_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(format!("{name}.puz"))
}

fn data(name: &str) -> Puzzle {
    Puzzle::load(&data_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// The smallest orientation of a shape under `motion`: equal for congruent shapes.
fn canonical(grid: Grid, cells: &[Point], motion: Motion) -> Vec<Point> {
    orientations(grid, cells, motion)
        .into_iter()
        .min()
        .expect("a shape has an orientation")
}

/// Every connected `n`-cell shape on `grid`, up to `motion`, as canonical forms.
fn polyforms(grid: Grid, n: usize, motion: Motion) -> BTreeSet<Vec<Point>> {
    let mut shapes = BTreeSet::from([vec![grid.lattice(0, 0, 0)]]);
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for shape in &shapes {
            for &(x, y, z) in shape {
                for &(dx, dy, dz) in grid.neighbour_steps() {
                    let p = (x + dx, y + dy, z + dz);
                    if grid.drawn(p).is_some() && !shape.contains(&p) {
                        let mut grown = shape.clone();
                        grown.push(p);
                        next.insert(canonical(grid, &grown, motion));
                    }
                }
            }
        }
        shapes = next;
    }
    shapes
}

fn canonical_set(p: &Puzzle, motion: Motion) -> BTreeSet<Vec<Point>> {
    p.pieces
        .iter()
        .map(|piece| canonical(p.board.grid, &piece.cells, motion))
        .collect()
}

fn names(p: &Puzzle) -> Vec<&str> {
    p.pieces.iter().map(|piece| piece.name.as_str()).collect()
}

fn board_area(b: &Board) -> usize {
    b.cells.iter().filter(|&&c| c).count()
}

/// Checks shared by every data file: sizes, areas, counts, and that writing the
/// puzzle back as text and parsing it gives the same puzzle.
fn check_common(p: &Puzzle, name: &str, grid: Grid, width: usize, height: usize) {
    assert_eq!(p.name, name);
    assert_eq!(p.board.grid, grid);
    assert_eq!(p.board.grid, grid);
    assert_eq!((p.board.width, p.board.height), (width, height), "{name}");
    assert_eq!(p.board.cells.len(), width * height);
    assert!(!p.allow_leftover);
    let pieces: usize = p
        .pieces
        .iter()
        .map(|q| q.cells.len() * q.count as usize)
        .sum();
    assert_eq!(pieces, board_area(&p.board), "{name}: areas");
    assert!(p.pieces.iter().all(|q| q.count == 1));
    let again = Puzzle::parse(&p.to_text(), "again.puz").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&again, p, "{name}: to_text round trip");
}

#[test]
fn meteor_file_is_the_builtin_meteor() {
    let p = data("meteor");
    check_common(&p, "meteor", Grid::Hex, 5, 10);
    assert_eq!(p.board, meteor_board());
    assert_eq!(p.pieces, meteor_pieces());
    let digits: Vec<char> = ('0'..='9').collect();
    assert_eq!(p.labels(), digits);
}

const PENTOMINOES: [&str; 12] = ["F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z"];

#[test]
fn pentomino_files_hold_the_12_free_pentominoes() {
    let all = polyforms(Grid::Square, 5, Motion::Free);
    assert_eq!(all.len(), 12);
    let files = [
        ("pentomino-6x10", 6, 10),
        ("pentomino-5x12", 5, 12),
        ("pentomino-4x15", 4, 15),
        ("pentomino-3x20", 3, 20),
        ("pentomino-8x8-hole", 8, 8),
    ];
    for (name, width, height) in files {
        let p = data(name);
        check_common(&p, name, Grid::Square, width, height);
        assert_eq!(names(&p), PENTOMINOES, "{name}");
        assert!(p.pieces.iter().all(|q| q.motion == Motion::Free), "{name}");
        assert_eq!(canonical_set(&p, Motion::Free), all, "{name}");
        let labels: String = p.labels().into_iter().collect();
        assert_eq!(labels, "FILNPTUVWXYZ");
    }
    let hole = data("pentomino-8x8-hole").board;
    for row in 0..8 {
        for col in 0..8 {
            let centre = (3..5).contains(&row) && (3..5).contains(&col);
            assert_eq!(hole.cells[row * 8 + col], !centre, "({row}, {col})");
        }
    }
}

#[test]
fn one_sided_file_holds_the_18_one_sided_pentominoes() {
    let all = polyforms(Grid::Square, 5, Motion::OneSided);
    assert_eq!(all.len(), 18);
    let p = data("one-sided-pentomino-3x30");
    check_common(&p, "one-sided-pentomino-3x30", Grid::Square, 3, 30);
    assert_eq!(
        names(&p),
        [
            "F", "f", "I", "L", "l", "N", "n", "P", "p", "T", "U", "V", "W", "X", "Y", "y", "Z",
            "z"
        ]
    );
    assert!(p.pieces.iter().all(|q| q.motion == Motion::OneSided));
    assert_eq!(canonical_set(&p, Motion::OneSided), all);
    // Each small letter is the mirror image of its capital, and not the same piece.
    for small in p
        .pieces
        .iter()
        .filter(|q| q.name.chars().all(char::is_lowercase))
    {
        let capital = p
            .pieces
            .iter()
            .find(|q| q.name == small.name.to_uppercase())
            .expect("a capital for every small letter");
        let free = |q: &polytile::Piece| canonical(p.board.grid, &q.cells, Motion::Free);
        let one = |q: &polytile::Piece| canonical(p.board.grid, &q.cells, Motion::OneSided);
        assert_eq!(free(small), free(capital), "{}", small.name);
        assert_ne!(one(small), one(capital), "{}", small.name);
    }
}

/// Data file `name` on `grid`, drawn `width x height`: its pieces, named `names`, are
/// every free polyform of `size` cells once, of which there are `count`. Returns the
/// lattice points of its board.
fn free_set_file(
    name: &str,
    (grid, width, height): (Grid, usize, usize),
    (size, count): (usize, usize),
    names_are: &[&str],
) -> BTreeSet<Point> {
    let all = polyforms(grid, size, Motion::Free);
    assert_eq!(all.len(), count);
    let p = data(name);
    check_common(&p, name, grid, width, height);
    assert_eq!(names(&p), names_are);
    assert!(p.pieces.iter().all(|q| q.motion == Motion::Free));
    assert_eq!(canonical_set(&p, Motion::Free), all);
    (0..p.board.cells.len())
        .filter(|&i| p.board.has(i))
        .map(|i| p.board.point(i))
        .collect()
}

#[test]
fn tetrahex_file_holds_the_7_free_tetrahexes_on_the_parallelogram() {
    let names = ["I", "O", "Y", "C", "P", "S", "J"];
    let cells = free_set_file("tetrahex-7x4", (Grid::Hex, 8, 4), (4, 7), &names);
    // The board is the axial parallelogram q in 0..7, r in 0..4.
    let parallelogram: BTreeSet<Point> = (0..4)
        .flat_map(|r| (0..7).map(move |q| (q, r, 0)))
        .collect();
    assert_eq!(cells, parallelogram);
}

#[test]
fn hexiamond_files_hold_the_12_free_hexiamonds() {
    let names = ["I", "P", "J", "E", "V", "H", "S", "X", "C", "G", "F", "O"];
    // The boards are the parallelograms of triangles (a, b), up and down, a in 0..A
    // and b in 0..B.
    let parallelogram = |a_end: i32, b_end: i32| -> BTreeSet<Point> {
        (0..b_end)
            .flat_map(|b| {
                (0..a_end).flat_map(move |a| [(3 * a + 1, 3 * b + 1, 0), (3 * a + 2, 3 * b + 2, 0)])
            })
            .collect()
    };
    let rhombus = free_set_file("hexiamonds-6x6", (Grid::Triangle, 12, 6), (6, 12), &names);
    assert_eq!(rhombus, parallelogram(6, 6));
    let wide = free_set_file("hexiamonds-4x9", (Grid::Triangle, 18, 4), (6, 12), &names);
    assert_eq!(wide, parallelogram(9, 4));
}

#[test]
fn triangle_drawings_keep_what_a_column_means() {
    // A piece whose first cell is a down triangle (odd column) starts with a hole; the
    // same drawing from column 0 is the diamond in another orientation.
    let text = |piece: &str| format!("grid: triangle\nboard:\n.xx\n\npiece A: fixed\n{piece}\n");
    let down = Puzzle::parse(&text(".xx"), "t.puz").unwrap();
    assert_eq!(down.pieces[0].cells, vec![(2, 2, 0), (4, 1, 0)]);
    let up = Puzzle::parse(&text("xx"), "t.puz").unwrap();
    assert_eq!(up.pieces[0].cells, vec![(1, 1, 0), (2, 2, 0)]);
    // The board drops its first column, a hole, but keeps column parity: it starts with
    // the hole, so that the down triangle stays down.
    assert_eq!((down.board.width, down.board.height), (3, 1));
    assert_eq!(down.board.cells, [false, true, true]);
    assert_eq!(Puzzle::parse(&down.to_text(), "t.puz").unwrap(), down);
}

/// A lattice point in the coordinate form of `docs/puzzle-format.md`.
fn coordinates(grid: Grid, (x, y, z): Point) -> String {
    match grid {
        Grid::Square | Grid::Hex => format!("({x}, {y})"),
        Grid::Cubic => format!("({x}, {y},{z})"),
        Grid::Triangle => format!(
            "({},{},{})",
            x.div_euclid(3),
            y.div_euclid(3),
            x.rem_euclid(3) - 1
        ),
    }
}

/// `p` written with coordinate lists instead of drawings, a few cells per line, the
/// pieces moved far from the origin.
fn coordinate_text(p: &Puzzle) -> String {
    let g = p.board.grid;
    let list = |points: Vec<Point>| -> String {
        points
            .chunks(5)
            .map(|c| {
                c.iter()
                    .map(|&q| coordinates(g, q))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let board: Vec<Point> = (0..p.board.cells.len())
        .filter(|&i| p.board.has(i))
        .map(|i| p.board.point(i))
        .collect();
    let mut out = format!(
        "name: {}\ngrid: {}\nsplit: {}\nboard:\n{}\n",
        p.name,
        g.name(),
        p.split,
        list(board)
    );
    if let Some(first) = p.first {
        out.push_str(&format!("first: {}\n", p.pieces[first].name));
    }
    for piece in &p.pieces {
        let far: Vec<Point> = piece
            .cells
            .iter()
            .map(|&(x, y, z)| (x - 300, y + 900, z + 70 * i32::from(!g.is_planar())))
            .collect();
        out.push_str(&format!(
            "\npiece {}: {} count {}\n{}\n",
            piece.name,
            piece.motion.name(),
            piece.count,
            list(far)
        ));
    }
    out
}

#[test]
fn coordinates_give_the_same_puzzles_as_drawings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for entry in std::fs::read_dir(dir).expect("data/ exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "puz") {
            let p = Puzzle::load(&path).unwrap_or_else(|e| panic!("{e}"));
            let text = coordinate_text(&p);
            let again = Puzzle::parse(&text, "c.puz").unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(again, p, "{}", path.display());
        }
    }
    // Board coordinates are lattice points: the hex parallelogram q in 0..3, r in 0..2
    // is drawn with its odd row shifted, the triangle (a, b, t) is column 2a + t.
    let hex = "grid: hex\nboard:\n(0,0) (1,0) (2,0)\n(0,1) (1,1) (2,1)\n\npiece A: count 3\n(0,0) (1,0)\n";
    let p = Puzzle::parse(hex, "t.puz").unwrap();
    assert_eq!((p.board.width, p.board.height), (3, 2));
    let tri = "grid: triangle\nboard:\n(0,0,1) (1,0,0)\n\npiece A:\n(5,5,1) (6,5,0)\n";
    let p = Puzzle::parse(tri, "t.puz").unwrap();
    assert_eq!(p.board.cells, [false, true, true]);
    assert_eq!(p.pieces[0].cells, vec![(2, 2, 0), (4, 1, 0)]);
}

#[test]
fn errors_in_coordinates() {
    let board = |cells: &str| error(&format!("grid: square\nboard:\n{cells}\n\npiece A:\nx\n"));
    assert_eq!(
        board("(0,0)  (0, 0)"),
        "t.puz:3:8: this cell is listed twice in the board drawing (first at line 3, column 1); \
         expected each cell once"
    );
    assert_eq!(
        board("(0, 0, 1)"),
        "t.puz:3:1: (0, 0, 1) is no cell of the square grid; expected (x, y): column, row"
    );
    for (cells, column) in [
        ("(0,x)", 4),
        ("(0,0", 5),
        ("(1,2) x", 7),
        ("()", 2),
        ("(1,-)", 4),
        ("(1 2)", 4),
    ] {
        assert_eq!(
            board(cells),
            format!(
                "t.puz:3:{column}: malformed coordinates in the board drawing; expected cells as \
                 tuples of whole numbers separated by commas, such as (0, 0) (1, 0)"
            ),
            "{cells}"
        );
    }
    assert_eq!(
        board("(0, -1000001)"),
        "t.puz:3:5: coordinate '-1000001' is out of range; expected a whole number from \
         -1000000 to 1000000"
    );
    assert_eq!(
        board("(0, 99999999999999999999999)"),
        "t.puz:3:5: coordinate '99999999999999999999999' is out of range; expected a whole \
         number from -1000000 to 1000000"
    );
    assert_eq!(
        board("(0,0)\n  xx"),
        "t.puz:4:3: the board drawing mixes drawing lines and coordinate lines; expected one \
         or the other"
    );
    assert_eq!(
        error("grid: square\nboard:\nx\n\npiece A:\nx\n(0, 1)\n"),
        "t.puz:7:1: the drawing of piece A mixes drawing lines and coordinate lines; expected \
         one or the other"
    );
    assert_eq!(
        error("grid: triangle\nboard:\n(0, 0, 2)\n\npiece A:\nx\n"),
        "t.puz:3:1: (0, 0, 2) is no cell of the triangle grid; expected (a, b, 0) or (a, b, 1): \
         row b, column 2a or 2a + 1"
    );
    assert_eq!(
        error("grid: hex\nboard:\nxx\n\npiece A:\n(0, 0) (2, 0)\n"),
        "t.puz:6:8: piece A is not connected: this cell is not joined to the cell at line 6, \
         column 1; expected one connected shape (hex cells join across a side; odd rows (the \
         2nd, 4th, ... line of a drawing) sit half a cell east of even rows)"
    );
    // Far apart cells make a rectangle too large for a board.
    assert_eq!(
        error("grid: square\nboard:\n(0, 0) (1000000, 1000000)\n\npiece A:\nx\n"),
        "t.puz:2:1: the board is 1000001 columns by 1000001 rows; expected at most 1000000 \
         cells in its box"
    );
}

#[test]
fn every_data_file_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("data/ exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "puz") {
            let p = Puzzle::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                Some(p.name.as_str()),
                path.file_stem().and_then(|s| s.to_str())
            );
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} .puz files");
}

// ---- Parsing details ----

#[test]
fn hex_rows_are_offset_and_spaces_are_ignored() {
    // Odd rows sit half a cell east: (1, 0) touches (0, 0) and (0, 1).
    let text = "grid: hex\nboard:\n  x x\n   x x\n\npiece A: fixed\nA A\n A\n\npiece B:\n. x\n";
    let p = Puzzle::parse(text, "h.puz").unwrap();
    assert_eq!((p.board.width, p.board.height), (2, 2));
    assert_eq!(p.pieces[0].cells, vec![(0, 0, 0), (1, 0, 0), (0, 1, 0)]);
    assert_eq!(p.pieces[0].motion, Motion::Fixed);
    assert_eq!(p.pieces[1].cells, vec![(0, 0, 0)]);
}

#[test]
fn board_is_trimmed_to_its_cells_keeping_hex_row_parity() {
    let square = "grid: square\nboard:\n....\n.x..\n.xx.\n....\n\npiece A: count 3\nx\n";
    let p = Puzzle::parse(square, "s.puz").unwrap();
    assert_eq!((p.board.width, p.board.height), (2, 2));
    assert_eq!(p.board.cells, [true, false, true, true]);
    assert_eq!(p.pieces[0].count, 3);
    // On the hex grid a single leading hole row stays, so row 2 stays an even row.
    let hex = "grid: hex\nboard:\n. . .\n . . .\n. . .\n . x .\n\npiece A:\nx\n";
    let p = Puzzle::parse(hex, "h.puz").unwrap();
    assert_eq!((p.board.width, p.board.height), (1, 2));
    assert_eq!(p.board.cells, [false, true]);
}

#[test]
fn comments_settings_and_defaults() {
    let text = "\u{feff}# header\r\nname: Tiny one  # trailing comment\r\ngrid: square\r\n\
                motion: one-sided\r\nleftover: allowed\r\nboard:\r\nx.x # a comment\r\n\
                # a comment line inside a drawing is not a row\r\nxxx\r\n\r\n\
                piece L: fixed count 2\r\nxx\r\n\r\npiece I:\r\nxxx\r\n";
    let p = Puzzle::parse(text, "dir/t.puz").unwrap();
    assert_eq!(p.name, "Tiny one");
    assert!(p.allow_leftover);
    assert_eq!((p.board.width, p.board.height), (3, 2));
    assert_eq!(p.pieces[0].motion, Motion::Fixed);
    assert_eq!(p.pieces[0].count, 2);
    assert_eq!(p.pieces[1].motion, Motion::OneSided);
    // Without a name line the name is the file name without its extension.
    let p = Puzzle::parse("grid: square\nboard:\nx\n\npiece A:\nx\n", "dir/small.puz").unwrap();
    assert_eq!(p.name, "small");
    assert_eq!(p.pieces[0].motion, Motion::Free);
    assert!(!p.allow_leftover);
}

#[test]
fn labels_are_distinct_characters() {
    let text = "grid: square\nleftover: allowed\nboard:\nxxx\n\npiece Ab:\nx\n\npiece Ac:\nx\n\n\
                piece B:\nx\n\npiece C1:\nx\n";
    let p = Puzzle::parse(text, "t.puz").unwrap();
    // 'Ac' clashes with 'Ab'; 'C' is the first name of another piece, so it gets 'D'.
    assert_eq!(p.labels(), ['A', 'D', 'B', 'C']);
}

// ---- One test per error ----

/// The message of parsing `text` as `t.puz`, which must fail.
fn error(text: &str) -> String {
    match Puzzle::parse(text, "t.puz") {
        Ok(p) => panic!("parsed: {p:?}"),
        Err(e) => e.to_string(),
    }
}

/// A valid 2 x 2 board with two dominoes; line 2 is `board:`, line 6 `piece A:`, line 9
/// `piece B:`.
const GOOD: &str = "grid: square\nboard:\nxx\nxx\n\npiece A:\nxx\n\npiece B:\nxx\n";

#[test]
fn good_base_parses() {
    assert!(Puzzle::parse(GOOD, "t.puz").is_ok());
}

#[test]
fn error_not_utf8() {
    let e = Puzzle::parse_bytes(b"grid: square\nboard:\nx\xffx\n", "t.puz").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.puz:3:2: invalid UTF-8 (byte 0xFF); expected a UTF-8 text file"
    );
    assert_eq!(e.kind(), Some(&ErrorKind::NotUtf8 { byte: 0xFF }));
    // Columns count characters: 'é' is two bytes but one column.
    let e = Puzzle::parse_bytes(
        "# é\u{1F600}"
            .as_bytes()
            .iter()
            .copied()
            .chain([0x80])
            .collect::<Vec<_>>()
            .as_slice(),
        "t.puz",
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("t.puz:1:5: invalid UTF-8 (byte 0x80)"),
        "{e}"
    );
    // A byte-order mark is not a column.
    let e = Puzzle::parse_bytes(b"\xef\xbb\xbfgrid\xff", "t.puz").unwrap_err();
    assert!(e.to_string().starts_with("t.puz:1:5: "), "{e}");
    // And through `load`, naming the file.
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("not-utf8.puz");
    std::fs::write(&path, b"grid: square\n\xc3(\n").unwrap();
    let e = Puzzle::load(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2:1: invalid UTF-8 (byte 0xC3); expected a UTF-8 text file",
            path.display()
        )
    );
}

#[test]
fn error_file_not_found() {
    let e = Puzzle::load(Path::new("data/no-such-puzzle.puz")).unwrap_err();
    assert!(matches!(e, PuzzleError::Io { .. }));
    assert!(
        e.to_string()
            .starts_with("data/no-such-puzzle.puz: cannot read the puzzle file: "),
        "{e}"
    );
}

#[test]
fn error_unknown_character_in_board() {
    assert_eq!(
        error("grid: square\nboard:\nxx\nxq\n"),
        "t.puz:4:2: unknown character 'q' in the board drawing; expected a cell 'x' or 'X', \
         a hole '.', or a space"
    );
    // Control characters are escaped.
    assert!(error("grid: square\nboard:\nx\u{7}\n")
        .starts_with("t.puz:3:2: unknown character '\\u{7}'"));
}

#[test]
fn error_unknown_character_in_piece() {
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece F:\n.F\nFG\n"),
        "t.puz:7:2: unknown character 'G' in the drawing of piece F; expected a cell 'x', \
         'X' or 'F', a hole '.', or a space"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece Fo:\nFo\n"),
        "t.puz:6:1: unknown character 'F' in the drawing of piece Fo; expected a cell 'x' or \
         'X', a hole '.', or a space"
    );
}

#[test]
fn error_unknown_keyword() {
    assert_eq!(
        error("gird: square\n"),
        "t.puz:1:1: unknown keyword 'gird'; expected name, grid, leftover, motion, split, \
         first, board or piece"
    );
    assert_eq!(
        error("grid: square\n  : x\n"),
        "t.puz:2:3: expected a keyword (name, grid, leftover, motion, split, first, board or \
         piece) before ':'"
    );
}

#[test]
fn error_missing_colon_and_stray_lines() {
    assert_eq!(
        error("grid: square\nboard\nxx\n"),
        "t.puz:2:6: expected ':' after 'board'"
    );
    assert_eq!(
        error("grid: square\n  piece F one-sided\n"),
        "t.puz:2:20: expected ':' after 'piece F one-sided'"
    );
    // A blank line ends a drawing; what follows is not a statement.
    assert_eq!(
        error("grid: square\nboard:\nxx\n\nxx\n"),
        "t.puz:5:1: expected a line 'KEYWORD: ...' (name, grid, leftover, motion, split, \
         first, board or piece); a drawing must follow its 'board:' or 'piece NAME:' line with no \
         blank line between"
    );
}

#[test]
fn error_unknown_grid() {
    assert_eq!(
        error("grid: hexagon\n"),
        "t.puz:1:7: unknown grid 'hexagon'; expected square, hex, triangle or cubic"
    );
    assert_eq!(
        error("grid:\n"),
        "t.puz:1:6: missing value after 'grid:'; expected square, hex, triangle or cubic"
    );
    assert_eq!(
        error("grid: hex square\n"),
        "t.puz:1:11: unexpected 'square'; expected the end of the line"
    );
    assert_eq!(
        error("grid hex: square\n"),
        "t.puz:1:6: unexpected 'hex'; expected ':' right after the keyword"
    );
}

#[test]
fn errors_of_layers_and_cubic_cells() {
    // A layer separator needs the cubic grid, wherever the grid line is.
    assert_eq!(
        error("board:\nxx\n  --\nxx\n\npiece A: count 2\nxx\n\ngrid: square\n"),
        "t.puz:3:3: a layer separator (a line of '-') in a drawing on the square grid; \
         expected drawing lines of one layer ('grid: cubic' has layers)"
    );
    assert_eq!(
        error("grid: hex\nboard:\nxx\n\npiece A:\nx\n-\nx\n"),
        "t.puz:7:1: a layer separator (a line of '-') in a drawing on the hex grid; \
         expected drawing lines of one layer ('grid: cubic' has layers)"
    );
    // Cubes join across faces only: the same row and column of the next layer.
    assert_eq!(
        error("grid: cubic\nboard:\nxx\n-\nxx\n\npiece A: count 2\nx.\n-\n.x\n"),
        "t.puz:10:2: piece A is not connected: this cell is not joined to the cell at line 8, \
         column 1; expected one connected shape (cubes join across a face: beside each other \
         in a layer, or at the same row and column of the layers before and after (layers \
         are separated by a line of '-'))"
    );
    assert_eq!(
        error("grid: cubic\nboard:\n(0, 0, 0) (1, 0)\n\npiece A:\nxx\n"),
        "t.puz:3:11: (1, 0) is no cell of the cubic grid; expected (x, y, z): column, row, layer"
    );
    assert_eq!(
        error("grid: cubic\nboard:\n(0, 0, 0)\n(0,0,1000) (1000,1000, 0)\n\npiece A:\nx\n"),
        "t.puz:2:1: the board is 1001 columns by 1001 rows by 1001 layers; expected at most \
         1000000 cells in its box"
    );
    // A piece named '-' draws a row of three cells with its own name.
    let p = Puzzle::parse("grid: cubic\nboard:\nxxx\n\npiece -:\n---\n", "t.puz").unwrap();
    assert_eq!(p.pieces[0].cells, vec![(0, 0, 0), (1, 0, 0), (2, 0, 0)]);
}

#[test]
fn error_unknown_motion() {
    assert_eq!(
        error("grid: square\nmotion: mirrored\n"),
        "t.puz:2:9: unknown motion 'mirrored'; expected free, one-sided, fixed or mirror"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece F: onesided\nxx\n"),
        "t.puz:5:10: unknown piece option 'onesided'; expected a motion (free, one-sided, \
         fixed or mirror) or 'count N'"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece F: free fixed\nxx\n"),
        "t.puz:5:15: the motion of piece F is given twice; expected at most one of free, \
         one-sided, fixed or mirror"
    );
}

#[test]
fn error_unknown_leftover() {
    assert_eq!(
        error("leftover: yes\n"),
        "t.puz:1:11: unknown leftover setting 'yes'; expected allowed or forbidden"
    );
}

#[test]
fn split_statement_values_and_errors() {
    use polytile::Splitting;
    let body = "grid: square\nboard:\nxx\n\npiece I:\nxx\n";
    let split = |value: &str| Puzzle::parse(&format!("split: {value}\n{body}"), "t.puz");
    assert_eq!(Puzzle::parse(body, "t.puz").unwrap().split, Splitting::Auto);
    assert_eq!(split("auto").unwrap().split, Splitting::Auto);
    assert_eq!(split("off").unwrap().split, Splitting::Off);
    for rows in ["1", "1,2", " 1 , 2 "] {
        let p = split(rows).unwrap();
        let want: Vec<usize> = rows.split(',').map(|r| r.trim().parse().unwrap()).collect();
        assert_eq!(p.split, Splitting::Stated(want), "{rows}");
        // Written back as it was read.
        assert_eq!(Puzzle::parse(&p.to_text(), "t.puz").unwrap(), p);
    }
    for (value, column) in [
        ("2,1", 8),
        ("0,1", 8),
        ("1,1", 8),
        ("+1", 8),
        ("1,", 8),
        ("Auto", 8),
        ("1 2", 8),
    ] {
        assert_eq!(
            split(value).unwrap_err().to_string(),
            format!(
                "t.puz:1:{column}: bad split setting '{value}'; expected auto, off, or rows \
                 increasing from 1 separated by commas, such as 4,5,6"
            )
        );
    }
    assert_eq!(
        split("").unwrap_err().to_string(),
        "t.puz:1:7: missing value after 'split:'; expected auto, off or rows such as 3,4,5"
    );
    assert_eq!(
        Puzzle::parse(&format!("split: off\n{body}split: 1\n"), "t.puz")
            .unwrap_err()
            .to_string(),
        "t.puz:8:1: duplicate 'split:' line (the first is on line 1); expected one"
    );
}

#[test]
fn first_statement_values_and_errors() {
    let body = "grid: square\nboard:\nxxx\nxxx\n\npiece I:\nxx\n\npiece D: count 2\nx\nx\n";
    let first = |value: &str| Puzzle::parse(&format!("first: {value}\n{body}"), "t.puz");
    assert_eq!(Puzzle::parse(body, "t.puz").unwrap().first, None);
    let p = first("I").unwrap();
    assert_eq!(p.first, Some(0));
    // Written back as it was read, and after the pieces as well as before them.
    assert_eq!(Puzzle::parse(&p.to_text(), "t.puz").unwrap(), p);
    assert_eq!(
        Puzzle::parse(&format!("{body}\nfirst: I\n"), "t.puz").unwrap(),
        p
    );
    assert_eq!(
        first("J").unwrap_err().to_string(),
        "t.puz:1:8: 'first: J' names no piece of the file; expected the name of a piece"
    );
    assert_eq!(
        first("D").unwrap_err().to_string(),
        "t.puz:1:8: 'first: D' names a piece with 2 copies; expected a piece with one copy \
         (the search keeps one placement per orbit of the piece placed first)"
    );
    assert_eq!(
        first("").unwrap_err().to_string(),
        "t.puz:1:7: missing value after 'first:'; expected the name of a piece"
    );
    assert_eq!(
        first("I D").unwrap_err().to_string(),
        "t.puz:1:10: unexpected 'D'; expected the end of the line (one piece name)"
    );
    assert_eq!(
        Puzzle::parse(&format!("first: I\n{body}first: I\n"), "t.puz")
            .unwrap_err()
            .to_string(),
        "t.puz:13:1: duplicate 'first:' line (the first is on line 1); expected one"
    );
    let leftover =
        "first: A\ngrid: square\nleftover: allowed\nboard:\nxx\n\npiece A:\nxx\n\npiece B:\nx\n";
    assert_eq!(
        Puzzle::parse(leftover, "t.puz").unwrap_err().to_string(),
        "t.puz:1:8: 'first: A' with 'leftover: allowed'; expected no 'first:' line (the \
         piece placed first might be one left over)"
    );
}

#[test]
fn error_malformed_count() {
    let header = "grid: square\nboard:\nxx\n\n";
    for (count, column) in [
        ("two", 16),
        ("0", 16),
        ("-1", 16),
        ("+2", 16),
        ("4294967296", 16),
    ] {
        assert_eq!(
            error(&format!("{header}piece F: count {count}\nxx\n")),
            format!(
                "t.puz:5:{column}: malformed count '{count}'; expected a whole number from 1 \
                 to 4294967295"
            )
        );
    }
    assert_eq!(
        error(&format!("{header}piece F: fixed count\nxx\n")),
        "t.puz:5:21: missing count after 'count'; expected a whole number from 1 to 4294967295"
    );
    assert_eq!(
        error(&format!("{header}piece F: count 1 count 1\nxx\n")),
        "t.puz:5:18: the count of piece F is given twice; expected at most one 'count N'"
    );
}

#[test]
fn error_piece_not_connected() {
    assert_eq!(
        error("grid: square\nboard:\nxxx\n\npiece A:\nx.x\n"),
        "t.puz:6:3: piece A is not connected: this cell is not joined to the cell at line 6, \
         column 1; expected one connected shape (square cells join across an edge)"
    );
    // Diagonal squares do not touch.
    assert!(error("grid: square\nboard:\nxx\n\npiece A:\nx.\n.x\n").starts_with(
        "t.puz:7:2: piece A is not connected: this cell is not joined to the cell at line 6, column 1"
    ));
    // On the hex grid (1, 1) touches (0, 1) and (0, 2) but not (0, 0).
    let hex = "grid: hex\nboard:\nx x\n x x\n\npiece A:\nx .\n . x\n";
    assert_eq!(
        error(hex),
        "t.puz:8:4: piece A is not connected: this cell is not joined to the cell at line 7, \
         column 1; expected one connected shape (hex cells join across a side; odd rows (the \
         2nd, 4th, ... line of a drawing) sit half a cell east of even rows)"
    );
    let joined = "grid: hex\nboard:\nx x\n\npiece A:\n. x\n x\n";
    assert!(Puzzle::parse(joined, "t.puz").is_ok());
    // On the triangle grid (1, 0), pointing up, touches (0, 1) above it but not (0, 0),
    // and (0, 1) touches no cell of the row below but (1, 0).
    let triangle = "grid: triangle\nboard:\nxxxx\n\npiece A:\nx\nx\n";
    assert_eq!(
        error(triangle),
        "t.puz:7:1: piece A is not connected: this cell is not joined to the cell at line 6, \
         column 1; expected one connected shape (triangles join across a side: in a row, each \
         touches the cells beside it; an even column (pointing down) also touches the odd \
         column after it in the row above, an odd column (pointing up) the even column before \
         it in the row below)"
    );
    let joined = "grid: triangle\nboard:\nxx\n\npiece A:\n.x\nx\n";
    assert!(Puzzle::parse(joined, "t.puz").is_ok());
    assert!(error("grid: triangle\nboard:\nxxxx\n\npiece A:\nx\n.x\n").starts_with(
        "t.puz:7:2: piece A is not connected: this cell is not joined to the cell at line 6, column 1"
    ));
}

#[test]
fn error_areas_differ() {
    assert_eq!(
        error("grid: square\nboard:\nxxx\n\npiece A:\nxx\n\npiece B:\nxx\n"),
        "t.puz:2:1: the pieces cover 4 cells but the board has 3; expected equal areas (or \
         'leftover: allowed' if pieces may be left over)"
    );
    assert_eq!(
        error("grid: square\nboard:\nxxx\n\npiece A: count 1\nxx\n"),
        "t.puz:2:1: the pieces cover 2 cells but the board has 3; expected equal areas (or \
         'leftover: allowed' if pieces may be left over)"
    );
    // Leftovers may exceed the board, never fall short of it.
    let over = "grid: square\nleftover: allowed\nboard:\nxxx\n\npiece A: count 2\nxx\n";
    assert!(Puzzle::parse(over, "t.puz").unwrap().allow_leftover);
    assert_eq!(
        error("grid: square\nleftover: allowed\nboard:\nxxx\n\npiece A:\nxx\n"),
        "t.puz:3:1: the pieces cover 2 cells but the board has 3; expected at least as many \
         piece cells as board cells"
    );
}

#[test]
fn error_empty_board() {
    assert_eq!(
        error("grid: square\nboard:\n\npiece A:\nx\n"),
        "t.puz:2:1: empty board drawing; expected drawing lines right after this line"
    );
    assert_eq!(
        error("grid: square\n board:\npiece A:\nx\n"),
        "t.puz:2:2: empty board drawing; expected drawing lines right after this line"
    );
}

#[test]
fn error_board_without_cells() {
    assert_eq!(
        error("grid: square\nboard:\n. .\n...\n\npiece A:\nx\n"),
        "t.puz:2:1: the board drawing has no cells; expected at least one cell 'x' or 'X'"
    );
}

#[test]
fn error_duplicate_piece_name() {
    assert_eq!(
        error(&GOOD.replace("piece B", "piece A")),
        "t.puz:9:7: duplicate piece name 'A' (the first piece A is on line 6); expected \
         unique names"
    );
}

#[test]
fn error_piece_larger_than_board() {
    assert_eq!(
        error("grid: square\nleftover: allowed\nboard:\nxx\n\npiece A:\nx\n\npiece L:\nxx\nx.\n"),
        "t.puz:9:7: piece L has 3 cells but the board has only 2; expected pieces that fit"
    );
}

#[test]
fn error_empty_piece() {
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece A:\n\npiece B:\nxx\n"),
        "t.puz:5:1: empty drawing of piece A; expected drawing lines right after this line"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece A:\n..\n"),
        "t.puz:5:1: the drawing of piece A has no cells; expected at least one cell 'x', 'X' \
         or 'A'"
    );
}

#[test]
fn error_missing_board_grid_or_pieces() {
    assert_eq!(
        error("grid: square\n\npiece A:\nxx\n"),
        "t.puz:5:1: missing board; expected a 'board:' line followed by its drawing"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx"),
        "t.puz:3:3: no pieces; expected at least one 'piece NAME:' line followed by its drawing"
    );
    assert_eq!(
        error("board:\nxx\n\npiece A:\nxx\n"),
        "t.puz:6:1: missing 'grid:' line; expected 'grid: square', 'grid: hex', 'grid: \
         triangle' or 'grid: cubic'"
    );
    assert_eq!(
        error(""),
        "t.puz:1:1: missing 'grid:' line; expected 'grid: square', 'grid: hex', 'grid: \
         triangle' or 'grid: cubic'"
    );
}

#[test]
fn error_duplicate_setting() {
    assert_eq!(
        error("grid: square\nname: a\n\nname: b\n"),
        "t.puz:4:1: duplicate 'name:' line (the first is on line 2); expected one"
    );
    assert_eq!(
        error(&format!("{GOOD}\nboard:\nxx\n")),
        "t.puz:12:1: duplicate 'board:' line (the first is on line 2); expected one"
    );
    assert_eq!(
        error("name:   \n"),
        "t.puz:1:6: missing value after 'name:'; expected a puzzle name"
    );
}

#[test]
fn error_bad_piece_names() {
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece :\nxx\n"),
        "t.puz:5:7: missing piece name after 'piece'; expected 'piece NAME:'"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece a.b:\nxx\n"),
        "t.puz:5:7: piece name 'a.b' contains '.'; expected a name without '.', ':', '#' or \
         spaces"
    );
    assert_eq!(
        error("grid: square\nboard:\nxx\n\npiece big L:\nxx\n"),
        "t.puz:5:11: unexpected 'L'; expected ':' after the piece name (a name has no spaces)"
    );
    assert_eq!(
        error("grid: square\nboard: xx\n"),
        "t.puz:2:8: unexpected 'xx'; expected the end of the line (the drawing starts on the \
         next line)"
    );
}

// ---- No panics ----

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Parses `text`; it may fail, but with a positioned message, and a success must be a
/// puzzle that keeps the documented invariants. Returns whether it parsed.
fn parse_checked(text: &str) -> bool {
    match Puzzle::parse(text, "t.puz") {
        Ok(p) => {
            assert!(!p.pieces.is_empty());
            assert_eq!(p.board.cells.len(), p.board.width * p.board.height);
            let area = board_area(&p.board);
            assert!(area > 0);
            let total: u64 = p
                .pieces
                .iter()
                .map(|q| q.cells.len() as u64 * q.count as u64)
                .sum();
            assert!(total == area as u64 || (p.allow_leftover && total > area as u64));
            assert!(p
                .pieces
                .iter()
                .all(|q| !q.cells.is_empty() && q.cells.len() <= area));
            assert_eq!(p.labels().len(), p.pieces.len());
            let again = Puzzle::parse(&p.to_text(), "t.puz").unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(again, p);
            true
        }
        Err(e) => {
            let (line, column) = e.position().expect("a parse error has a position");
            assert!(line >= 1 && column >= 1);
            assert!(
                e.to_string()
                    .starts_with(&format!("t.puz:{line}:{column}: ")),
                "{e}"
            );
            false
        }
    }
}

#[test]
fn no_panics_on_mutated_or_random_input() {
    let seeds = [
        GOOD.to_string(),
        std::fs::read_to_string(data_path("tetrahex-7x4")).unwrap(),
        std::fs::read_to_string(data_path("meteor")).unwrap(),
        "grid: hex\nleftover: allowed\nmotion: fixed\nboard:\n. x x\n x x\n\npiece A: count 3\n\
         A\n\npiece B: one-sided\n. B\n B B\n"
            .to_string(),
    ];
    let pieces: [&str; 24] = [
        "x",
        "X",
        ".",
        " ",
        "\t",
        "\n",
        "\r",
        "#",
        ":",
        "é",
        "\u{feff}",
        "0",
        "A",
        "piece ",
        "board:\n",
        "grid: ",
        "hex",
        "square",
        "count ",
        "7",
        "one-sided",
        "leftover: ",
        "allowed",
        "\n\n",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut cases, mut parsed) = (0, 0);
    for seed in &seeds {
        for _ in 0..600 {
            let mut chars: Vec<String> = seed.chars().map(String::from).collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len() + 1);
                match rng.below(5) {
                    0 | 1 if at < chars.len() => chars[at] = pieces[rng.below(pieces.len())].into(),
                    2 if at < chars.len() => {
                        chars.remove(at);
                    }
                    3 => chars.truncate(at),
                    _ => chars.insert(at, pieces[rng.below(pieces.len())].into()),
                }
            }
            if parse_checked(&chars.concat()) {
                parsed += 1;
            }
            cases += 1;
        }
    }
    for _ in 0..500 {
        let len = rng.below(120);
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.below(3) {
                0 => rng.next() as u8,
                _ => b"xX.# :\n0apiecegridhexboard"[rng.below(26)],
            })
            .collect();
        match Puzzle::parse_bytes(&bytes, "t.puz") {
            Ok(_) => {}
            Err(e) => assert!(e.to_string().starts_with("t.puz:"), "{e}"),
        }
        if let Ok(text) = std::str::from_utf8(&bytes) {
            parse_checked(text);
        }
        cases += 1;
    }
    assert_eq!(cases, 4 * 600 + 500);
    // Both outcomes are exercised.
    eprintln!("{parsed} of {cases} inputs parsed");
    assert!(
        parsed > 100 && parsed < 4 * 600,
        "{parsed} of {cases} inputs parsed"
    );
}

//! The `.sum` parser: a whole file to the expected model, the meaning of each
//! statement, one test per error (line, column and message), and no panics on mutated
//! or random input.

use std::path::Path;

use polytile::sums::{
    load, parse, Equation, Layout, Model, Order, SumsError, SymmetryBreak, MAX_VALUES,
};
use polytile::sums::{CellSource, SumsErrorKind as ErrorKind};

fn ok(text: &str) -> Model {
    parse(text, "t.sum").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn fail(text: &str) -> SumsError {
    match parse(text, "t.sum") {
        Ok(m) => panic!("parsed: {m:?}\n{text}"),
        Err(e) => e,
    }
}

/// The message of parsing `text` as `t.sum`, which must fail.
fn error(text: &str) -> String {
    fail(text).to_string()
}

fn kind(text: &str) -> ErrorKind {
    fail(text).kind().expect("a parse error").clone()
}

fn eq(terms: &[(usize, i64)], target: i64) -> Equation {
    Equation {
        terms: terms.to_vec(),
        target,
    }
}

/// The magic hexagon with three of its lines; line 3 is `cells:`.
const HEXAGON: &str = "\
# The order-3 magic hexagon.
name:   magic hexagon of order 3   # trailing comment
values: 1..19
cells:
    a b c
   d e f g
  h i j k l
   m n o p
    q r s

distinct: all
a + b + c = 38
c + f + j + n + q = 38
h+m+q=38
symmetry 12: a < c, a < h, a < l, a < q, a < s, c < h
";

#[test]
fn magic_hexagon_parses_to_the_expected_model() {
    let m = ok(HEXAGON);
    assert_eq!(m.name.as_deref(), Some("magic hexagon of order 3"));
    assert_eq!(m.values, (1..=19).collect::<Vec<i64>>());
    let names: Vec<String> = ('a'..='s').map(String::from).collect();
    assert_eq!(m.cells, names);
    let rows: [&[usize]; 5] = [
        &[4, 6, 8],
        &[3, 5, 7, 9],
        &[2, 4, 6, 8, 10],
        &[3, 5, 7, 9],
        &[4, 6, 8],
    ];
    let positions: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(r, cols)| cols.iter().map(move |&c| (r, c)))
        .collect();
    assert_eq!(m.layout, Layout::Drawing(positions));
    assert_eq!(m.domains, vec![(1 << 19) - 1; 19]);
    assert_eq!(m.groups, vec![(0..19).collect::<Vec<_>>()]);
    let cell = |name: &str| m.cell(name).unwrap();
    assert_eq!(
        m.equations,
        vec![
            eq(&[(0, 1), (1, 1), (2, 1)], 38),
            eq(&[(2, 1), (5, 1), (9, 1), (13, 1), (16, 1)], 38),
            eq(&[(cell("h"), 1), (cell("m"), 1), (cell("q"), 1)], 38),
        ]
    );
    assert!(m.less.is_empty());
    let (a, c, h, l, q, s) = (
        cell("a"),
        cell("c"),
        cell("h"),
        cell("l"),
        cell("q"),
        cell("s"),
    );
    assert_eq!(
        m.symmetry,
        Some(SymmetryBreak {
            group_order: 12,
            less: vec![(a, c), (a, h), (a, l), (a, q), (a, s), (c, h)],
        })
    );
    assert_eq!(m.order, Order::Smallest);
}

#[test]
fn every_data_file_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sum") {
            load(&path).unwrap_or_else(|e| panic!("{e}"));
            files += 1;
        }
    }
    assert!(files > 0);
}

#[test]
fn drawing_positions_count_characters_of_the_raw_line() {
    // The first row may stand on the `cells:` line; a tab is one column; a comment line
    // inside the drawing is skipped and is no drawing line.
    let m = ok("values: 1 2\ncells: a\tb # top\n# note\n  c\n\tdd_1  e2\n\nb < c\n");
    assert_eq!(m.cells, ["a", "b", "c", "dd_1", "e2"]);
    assert_eq!(
        m.layout,
        Layout::Drawing(vec![(0, 7), (0, 9), (1, 2), (2, 1), (2, 7)])
    );
    assert_eq!(m.less, [(1, 2)]);
    // Without a row on its own line the drawing starts on the next line.
    let m = ok("cells:\r\n x\r\ny z\r\nvalues: 0..1\r\n");
    assert_eq!(m.layout, Layout::Drawing(vec![(0, 1), (1, 0), (1, 2)]));
    // A byte-order mark is not a column.
    let m = ok("\u{feff}cells: p q\nvalues: 3");
    assert_eq!(m.layout, Layout::Drawing(vec![(0, 7), (0, 9)]));
    assert_eq!(m.name, None);
}

#[test]
fn a_drawing_ends_at_a_blank_line_or_a_statement() {
    let m = ok("values: 1..3\ncells:\na b\ndistinct: a b\n");
    assert_eq!(m.cells, ["a", "b"]);
    assert_eq!(m.groups, [vec![0, 1]]);
    let m = ok("values: 1..3\ncells:\na b\nb > a\n");
    assert_eq!(m.less, [(0, 1)]);
    assert_eq!(
        error("values: 1..3\ncells:\na b\n\nc d\n"),
        "t.sum:5:1: 'c' starts neither a statement nor a constraint; expected 'KEYWORD: \
         ...' or a constraint with '=', '<' or '>'"
    );
    // Without the blank line, `c d` is a drawing row.
    assert_eq!(
        ok("values: 1..3\ncells:\na b\nc d\n").cells,
        ["a", "b", "c", "d"]
    );
}

#[test]
fn value_sets_are_sorted_and_deduplicated() {
    let m = ok("values: 8, 1..3 2,-3..-2 ,  0\ncells: a\n");
    assert_eq!(m.values, [-3, -2, 0, 1, 2, 3, 8]);
    assert_eq!(m.domains, [0b111_1111]);
    // 64 values fill the whole mask.
    let m = ok("values: -32..31\ncells: a\n");
    assert_eq!(m.values.len(), MAX_VALUES);
    assert_eq!(m.domains, [u64::MAX]);
    let m = ok("values: -2147483648 2147483647 -2147483648..-2147483647\ncells: a\n");
    assert_eq!(m.values, [-2147483648, -2147483647, 2147483647]);
}

#[test]
fn grid_boxes_and_distinct_rows_columns_boxes() {
    let text = "grid: 9 x 9\nboxes: 3x3\nvalues: 1..9\ndistinct: rows\ndistinct: columns\n\
                distinct: boxes\n";
    let m = ok(text);
    assert_eq!(m.cells.len(), 81);
    assert_eq!(
        (m.cells[0].as_str(), m.cells[80].as_str()),
        ("r1c1", "r9c9")
    );
    assert_eq!(m.cells[10], "r2c2");
    assert_eq!(
        m.layout,
        Layout::Grid {
            rows: 9,
            columns: 9,
            boxes: Some((3, 3))
        }
    );
    assert_eq!(m.groups.len(), 27);
    assert_eq!(m.groups[0], (0..9).collect::<Vec<_>>());
    assert_eq!(m.groups[9], (0..9).map(|r| r * 9).collect::<Vec<_>>());
    assert_eq!(m.groups[18], [0, 1, 2, 9, 10, 11, 18, 19, 20]);
    assert_eq!(m.groups[19], [3, 4, 5, 12, 13, 14, 21, 22, 23]);
    assert_eq!(m.groups[26], [60, 61, 62, 69, 70, 71, 78, 79, 80]);
    // `boxes:` may follow `grid:` and even `distinct: boxes`; keywords may share a line.
    let other = ok("values: 1..9\ngrid: 9x9\ndistinct: rows, columns boxes\nboxes: 3 x 3\n");
    assert_eq!(other.groups, m.groups);
    assert_eq!(other.layout, m.layout);
    // Boxes of one cell and single-cell rows constrain nothing.
    let m = ok("values: 1..2\ngrid: 1 X 2\nboxes: 1 x 1\ndistinct: rows columns boxes\n");
    assert_eq!(m.groups, [vec![0, 1]]);
    let m = ok("values: 1..6\ngrid: 2 x 6\nboxes: 2 x 3\ndistinct: boxes\n");
    assert_eq!(m.groups, [vec![0, 1, 2, 6, 7, 8], vec![3, 4, 5, 9, 10, 11]]);
    let m = ok("values: 1\ngrid: 2 x 2\n");
    assert_eq!(
        m.layout,
        Layout::Grid {
            rows: 2,
            columns: 2,
            boxes: None
        }
    );
}

#[test]
fn distinct_groups_keep_list_order_and_drop_single_cells() {
    let m = ok("values: 1..4\ncells: a b c d\ndistinct: d, b a\ndistinct: c\ndistinct: all\n");
    assert_eq!(m.groups, [vec![3, 1, 0], vec![0, 1, 2, 3]]);
    let m = ok("values: 1..4\ncells: a\ndistinct: all\n");
    assert!(m.groups.is_empty());
}

#[test]
fn cages_add_a_group_and_an_equation() {
    let m = ok("values: 1..9\ngrid: 3 x 3\ncage 15: r1c3 r1c1, r1c2\ncage -2: r3c3\n");
    assert_eq!(m.groups, [vec![2, 0, 1]]);
    assert_eq!(
        m.equations,
        [eq(&[(0, 1), (1, 1), (2, 1)], 15), eq(&[(8, 1)], -2)]
    );
}

#[test]
fn domains_intersect_and_may_become_empty() {
    let text = "values: 1 2 4 8\ncells: a b c\ndomain 2, 8: a b\ndomain 1..2: b\n\
                domain 4: c\ndomain 8: c\n";
    let m = ok(text);
    assert_eq!(m.domains, [0b1010, 0b0010, 0]);
    // `domain` may come before `values:`.
    let m = ok("cells: a b\ndomain 5: b\nvalues: 5..6\n");
    assert_eq!(m.domains, [0b11, 0b01]);
}

#[test]
fn equations_are_normalised() {
    let text = "values: 0..9\ncells: D E Y c1 x y\n\
                D + E = Y + 10*c1\n\
                x + x = 4\n\
                3 + x - 2 = 7 - -2 * y + x + x\n\
                -x = -5\n\
                y - 3*x + 2*y = 0 - y\n";
    let m = ok(text);
    assert_eq!(
        m.equations,
        [
            eq(&[(0, 1), (1, 1), (2, -1), (3, -10)], 0),
            eq(&[(4, 2)], 4),
            eq(&[(4, -1), (5, -2)], 6),
            eq(&[(4, -1)], -5),
            eq(&[(4, -3), (5, 4)], 0),
        ]
    );
    let m = ok("values: 0\ncells: a b\nb + 2147483647 * a = -2147483648\n");
    assert_eq!(m.equations, [eq(&[(0, 2147483647), (1, 1)], -2147483648)]);
}

#[test]
fn order_constraints_and_chains() {
    let m = ok("values: 1..4\ncells: a b c d\na < b\nc > b\na < b < c > d\n");
    assert_eq!(m.less, [(0, 1), (1, 2), (0, 1), (1, 2), (3, 2)]);
    let m = ok("values: 1..4\ncells: a b c\nsymmetry 6: a < b < c, c > a\n");
    assert_eq!(
        m.symmetry,
        Some(SymmetryBreak {
            group_order: 6,
            less: vec![(0, 1), (1, 2), (0, 2)],
        })
    );
    // A group of order 1 with no constraint is symmetry-breaking that does nothing.
    let m = ok("values: 1\ncells: a\nsymmetry 1:\n");
    assert_eq!(
        m.symmetry,
        Some(SymmetryBreak {
            group_order: 1,
            less: vec![],
        })
    );
}

#[test]
fn search_orders() {
    let base = "values: 1..3\ncells: a b c\n";
    assert_eq!(ok(base).order, Order::Smallest);
    assert_eq!(
        ok(&format!("{base}order: smallest\n")).order,
        Order::Smallest
    );
    assert_eq!(ok(&format!("{base}order: static\n")).order, Order::Planned);
    assert_eq!(
        ok(&format!("{base}order: c, a b\n")).order,
        Order::Static(vec![2, 0, 1])
    );
    // `order:` may come before the cells when it names none.
    assert_eq!(
        ok("order: static\nvalues: 1\ncells: x y\n").order,
        Order::Planned
    );
    // Keywords other than all/rows/columns/boxes may name cells.
    let m = ok("values: 1..2\ncells: static name\norder: name static\nstatic < name\n");
    assert_eq!(m.order, Order::Static(vec![1, 0]));
    assert_eq!(m.less, [(0, 1)]);
}

// ---- One test per error ----

/// A valid base: `values:` on line 1, `cells: a b c` on line 2.
const BASE: &str = "values: 1..9\ncells: a b c\n";

/// `BASE` followed by `line` (line 3).
fn after(line: &str) -> String {
    format!("{BASE}{line}\n")
}

#[test]
fn good_base_parses() {
    ok(BASE);
}

#[test]
fn error_display_and_accessors() {
    let e = fail(&after("a + q = 3"));
    assert_eq!(
        e.to_string(),
        "t.sum:3:5: unknown cell 'q' (the cells are named in the cells: drawing)"
    );
    assert_eq!(e.position(), Some((3, 5)));
    assert_eq!(
        e.kind(),
        Some(&ErrorKind::UnknownCell {
            name: "q".into(),
            cells: CellSource::Drawing
        })
    );
    assert_eq!(
        error("values: 1\ngrid: 2 x 3\nr1c4 = 1\n"),
        "t.sum:3:1: unknown cell 'r1c4' (the grid's cells are r1c1 .. r2c3)"
    );
    // Columns count characters, not bytes.
    assert_eq!(
        error("values: 1\ncells: é\n"),
        "t.sum:2:8: 'é' is not a cell name; expected a letter followed by letters, digits \
         or '_'"
    );
}

#[test]
fn error_not_utf8_and_missing_file() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("not-utf8.sum");
    std::fs::write(&path, b"values: 1\n# \xc3\xa9\xff\n").unwrap();
    let e = load(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2:4: invalid UTF-8 (byte 0xFF); expected a UTF-8 text file",
            path.display()
        )
    );
    assert_eq!(e.kind(), Some(&ErrorKind::NotUtf8 { byte: 0xFF }));
    let path = dir.join("good.sum");
    std::fs::write(&path, BASE).unwrap();
    assert_eq!(load(&path).unwrap(), ok(BASE));

    let e = load(Path::new("data/no-such-file.sum")).unwrap_err();
    assert!(matches!(e, SumsError::Io { .. }));
    assert_eq!(e.kind(), None);
    assert_eq!(e.position(), None);
    assert!(
        e.to_string()
            .starts_with("data/no-such-file.sum: cannot read the sums file: "),
        "{e}"
    );
}

#[test]
fn error_unknown_statement() {
    assert_eq!(
        error(&after("  distinc: a b")),
        "t.sum:3:3: unknown statement 'distinc'; expected a keyword (name, values, cells, \
         grid, boxes, distinct, domain, cage, symmetry, generator or order) before ':'"
    );
    assert_eq!(
        error(&after(" : a b")),
        "t.sum:3:2: nothing before ':'; expected a keyword (name, values, cells, grid, \
         boxes, distinct, domain, cage, symmetry, generator or order)"
    );
    assert_eq!(
        error(&format!("{BASE}\na b c")),
        "t.sum:4:1: 'a' starts neither a statement nor a constraint; expected 'KEYWORD: \
         ...' or a constraint with '=', '<' or '>'"
    );
    assert_eq!(
        error(&format!("{BASE}\ncage 15 a b")),
        "t.sum:4:5: missing ':' after 'cage'; expected 'cage: ...' (a line without ':' is \
         a constraint with '=', '<' or '>')"
    );
    assert_eq!(
        kind(&after("symmetry 2 a < b")),
        ErrorKind::MissingColon {
            keyword: "symmetry".into()
        }
    );
    assert_eq!(
        error(&after("values 1..3 = 2")).split(": ").nth(1),
        Some("missing ':' after 'values'; expected 'values")
    );
    assert_eq!(
        error(&after("distinct all: a")),
        "t.sum:3:10: unexpected 'all'; expected ':' right after the keyword"
    );
}

#[test]
fn error_cell_names() {
    assert_eq!(
        error("values: 1\ncells: a 1b\n"),
        "t.sum:2:10: '1b' is not a cell name; expected a letter followed by letters, digits \
         or '_'"
    );
    assert_eq!(
        error("values: 1\ncells: a\n  b _c\n"),
        "t.sum:3:5: '_c' is not a cell name; expected a letter followed by letters, digits \
         or '_'"
    );
    assert_eq!(
        error("values: 1\ncells:\n a rows\n"),
        "t.sum:3:4: 'rows' cannot name a cell (all, rows, columns and boxes are reserved \
         for 'distinct:'); expected a cell name"
    );
    assert_eq!(
        error(&after("all + a = 3")),
        "t.sum:3:1: 'all' cannot name a cell (all, rows, columns and boxes are reserved for \
         'distinct:'); expected a cell name"
    );
    assert_eq!(
        error("values: 1\ncells: a b\n   c a\n"),
        "t.sum:3:6: cell 'a' is drawn twice (first at line 2, column 8); expected each name \
         once"
    );
    assert_eq!(
        error("values: 1\ncells:\n\na b\n"),
        "t.sum:2:1: the cells: drawing has no cells; expected cell names after 'cells:' or \
         on the lines right below it"
    );
    assert_eq!(kind("values: 1\ncells:   # none"), ErrorKind::EmptyDrawing);
    assert_eq!(
        error("values: 1\ncells: a\ndistinct: a b\n"),
        "t.sum:3:13: unknown cell 'b' (the cells are named in the cells: drawing)"
    );
}

#[test]
fn error_cells_used_before_defined() {
    let message = "cell names are used before the cells: drawing; expected 'cells:' or 'grid:' \
                   above this line";
    assert_eq!(
        error("values: 1..3\na < b\ncells: a b\n"),
        format!("t.sum:2:1: {message}")
    );
    for (line, column) in [
        ("distinct: all", 11),
        ("distinct: rows", 11),
        ("cage 3: a b", 9),
        ("domain 1: b", 11),
        ("symmetry 2: a < b", 13),
        ("order: b a", 8),
        ("2*a = 3", 3),
    ] {
        let e = fail(&format!("values: 1..3\n{line}\ncells: a b\n"));
        assert_eq!(
            e.to_string(),
            format!("t.sum:2:{column}: {message}"),
            "{line}"
        );
    }
}

#[test]
fn error_lists() {
    assert_eq!(
        error(&after("distinct: a b, a")),
        "t.sum:3:16: cell 'a' is listed twice (first at column 11); expected each cell once"
    );
    assert_eq!(
        error(&after("cage 7: b b")),
        "t.sum:3:11: cell 'b' is listed twice (first at column 9); expected each cell once"
    );
    assert_eq!(
        error(&after("distinct:  ")),
        "t.sum:3:10: no cell names after 'distinct:'; expected at least one"
    );
    assert_eq!(
        error(&after("cage -4: ,")),
        "t.sum:3:9: no cell names after 'cage -4:'; expected at least one"
    );
    assert_eq!(
        kind(&after("domain 1:")),
        ErrorKind::EmptyList {
            keyword: "domain SPEC:".into()
        }
    );
    assert_eq!(
        error(&after("distinct: a rows")),
        "t.sum:3:13: 'rows' mixes cell names with all, rows, columns or boxes; expected \
         either cell names only or those keywords only"
    );
    assert_eq!(
        kind(&after("distinct: all b")),
        ErrorKind::MixedDistinct { word: "b".into() }
    );
    assert_eq!(
        error(&after("distinct: a b+c")),
        "t.sum:3:13: 'b+c' is not a cell name; expected a letter followed by letters, \
         digits or '_'"
    );
}

#[test]
fn error_rows_columns_boxes_without_grid() {
    let what = "needs 'grid:'; the cells come from a cells: drawing, which has no rows, \
                columns or boxes";
    assert_eq!(
        error(&after("distinct: rows")),
        format!("t.sum:3:11: 'distinct: rows' {what}")
    );
    assert_eq!(
        error(&after("distinct: all columns")),
        format!("t.sum:3:15: 'distinct: columns' {what}")
    );
    assert_eq!(
        error(&after("distinct: boxes")),
        format!("t.sum:3:11: 'distinct: boxes' {what}")
    );
    assert_eq!(
        error(&format!("boxes: 3 x 3\n{BASE}")),
        format!("t.sum:1:1: 'boxes:' {what}")
    );
    assert_eq!(
        error("values: 1..9\ngrid: 9 x 9\n distinct: rows boxes\n"),
        "t.sum:3:17: 'distinct: boxes' needs the box size; expected a 'boxes: HEIGHT x \
         WIDTH' line"
    );
}

#[test]
fn error_grid_and_boxes_sizes() {
    assert_eq!(
        error("values: 1\ngrid:  9 by 9\n"),
        "t.sum:2:8: malformed size '9 by 9' after 'grid:'; expected 'ROWS x COLUMNS', as in \
         'grid: 9 x 9'"
    );
    assert_eq!(
        error("values: 1\ngrid:\n"),
        "t.sum:2:6: missing value after 'grid:'; expected 'ROWS x COLUMNS', as in 'grid: 9 \
         x 9'"
    );
    for bad in ["9", "x9", "9x", "-3 x 3", "9 x 9 x 9", "3 x 3 x"] {
        assert!(
            matches!(
                kind(&format!("values: 1\ngrid: {bad}\n")),
                ErrorKind::BadSize { .. }
            ),
            "{bad}"
        );
    }
    assert_eq!(
        error("values: 1\ngrid: 33 x 1\n"),
        "t.sum:2:7: size '33 x 1' after 'grid:' is out of range; expected 1 to 32 each way"
    );
    for bad in ["0 x 3", "3x0", "99999999999999999999999 x 2"] {
        assert!(
            matches!(
                kind(&format!("values: 1\ngrid: {bad}\n")),
                ErrorKind::SizeOutOfRange { .. }
            ),
            "{bad}"
        );
    }
    assert_eq!(
        error("values: 1\nboxes: 3\n"),
        "t.sum:2:8: malformed size '3' after 'boxes:'; expected 'HEIGHT x WIDTH', as in \
         'boxes: 3 x 3'"
    );
    assert_eq!(
        error("values: 1\nboxes:  4 x 3\ngrid: 9 x 9\n"),
        "t.sum:2:9: boxes of 4 x 3 do not tile the 9 x 9 grid; expected a height dividing \
         9 and a width dividing 9"
    );
}

#[test]
fn error_values() {
    assert_eq!(
        error("values: 1..5 7..70\ncells: a\n"),
        "t.sum:1:9: the value set has 69 values; expected at most 64 (a cell's domain is \
         one 64-bit mask)"
    );
    assert_eq!(
        kind("values: 0..2147483647\ncells: a\n"),
        ErrorKind::TooManyValues { count: 2147483648 }
    );
    assert_eq!(
        kind("values: -2147483648..2147483647, 5..7\ncells: a\n"),
        ErrorKind::TooManyValues { count: 1 << 32 }
    );
    // Overlaps count once.
    ok("values: 1..64 3..60 64\ncells: a\n");
    assert_eq!(
        error("values: 1 5..3\ncells: a\n"),
        "t.sum:1:11: empty range 5..3; expected lo..hi with lo <= hi"
    );
    assert_eq!(
        error("values: 2147483648\ncells: a\n"),
        "t.sum:1:9: integer 2147483648 does not fit in 32 bits; expected -2147483648 to \
         2147483647"
    );
    assert_eq!(
        kind("values: -99999999999999999999999\n"),
        ErrorKind::IntegerOutOfRange {
            text: "-99999999999999999999999".into()
        }
    );
    assert_eq!(
        error("values: 1-3\ncells: a\n"),
        "t.sum:1:10: unexpected '-'; expected a space or ',' between values (a range is \
         lo..hi)"
    );
    assert_eq!(
        error("values: 1..\ncells: a\n"),
        "t.sum:1:12: the line ends too early; expected an integer after '..'"
    );
    assert_eq!(
        error("values: 1 x\ncells: a\n"),
        "t.sum:1:11: unexpected 'x'; expected an integer or a range lo..hi"
    );
    assert_eq!(
        error("values: 1...3\n"),
        "t.sum:1:12: unexpected '.'; expected an integer after '..'"
    );
    assert_eq!(
        error("values:   # none\ncells: a\n"),
        "t.sum:1:8: missing value after 'values:'; expected integers or ranges, as in \
         'values: 1..9'"
    );
}

#[test]
fn error_value_not_in_value_set() {
    assert_eq!(
        error("values: 1..4 6 8..9\ncells: a\ndomain 4, 5: a\n"),
        "t.sum:3:11: value 5 is not in the value set (1..4 6 8 9); expected values of \
         'values:'"
    );
    assert_eq!(
        kind("values: 1..9\ncells: a\ndomain 0..2000000000: a\n"),
        ErrorKind::ValueNotInSet {
            value: 0,
            set: "1..9".into()
        }
    );
    assert_eq!(
        kind("values: 1..9\ncells: a\ndomain 9..2000000000: a\n"),
        ErrorKind::ValueNotInSet {
            value: 10,
            set: "1..9".into()
        }
    );
    assert_eq!(
        error(&after("domain: a")),
        "t.sum:3:7: missing argument after 'domain'; expected a value set before ':', as in \
         'domain 1..3: a b'"
    );
    assert_eq!(
        error(&after("domain 3..1: a")),
        "t.sum:3:8: empty range 3..1; expected lo..hi with lo <= hi"
    );
}

#[test]
fn error_malformed_expressions() {
    let cases = [
        (
            "a + = 3",
            5,
            "unexpected '='; expected a term: an integer, a cell name or INTEGER * NAME",
        ),
        (
            "a + b =",
            8,
            "the line ends too early; expected a term: an integer, a cell name or INTEGER * NAME",
        ),
        (
            "a = b = c",
            7,
            "unexpected '='; expected '+', '-' or the end of the line (an equation has one '=')",
        ),
        (
            "3a = 1",
            2,
            "unexpected 'a'; expected '*' between the coefficient and the cell name, as in 3*x",
        ),
        (
            "a*3 = 1",
            2,
            "unexpected '*'; expected the coefficient before the cell name, as in 3*x",
        ),
        (
            "3 * 4 = a",
            5,
            "unexpected '4'; expected a cell name after '*' (a term is INTEGER * NAME)",
        ),
        ("a b = 1", 3, "unexpected 'b'; expected '+', '-' or '='"),
        (
            "a + b < c = 1",
            7,
            "unexpected '<'; expected '+', '-' or '='",
        ),
        (
            "a = --3",
            6,
            "unexpected '-'; expected a term: an integer, a cell name or INTEGER * NAME",
        ),
        (
            "a = b ? 2",
            7,
            "unexpected '?'; expected '+', '-' or the end of the line (an equation has one '=')",
        ),
        (
            "a = 3000000000",
            5,
            "integer 3000000000 does not fit in 32 bits; expected -2147483648 to 2147483647",
        ),
        (
            "a = - 2147483649",
            5,
            "integer -2147483649 does not fit in 32 bits; expected -2147483648 to 2147483647",
        ),
    ];
    for (line, column, message) in cases {
        assert_eq!(
            error(&after(line)),
            format!("t.sum:3:{column}: {message}"),
            "{line}"
        );
    }
}

#[test]
fn error_equations_without_cells() {
    assert_eq!(
        error(&after("  3 + 4 = 7")),
        "t.sum:3:3: the equation has no cell; expected at least one cell name"
    );
    let cancel = "the cells of the equation cancel out (every coefficient sums to 0); expected \
                  at least one cell with a non-zero coefficient";
    assert_eq!(error(&after("a = a")), format!("t.sum:3:1: {cancel}"));
    assert_eq!(
        error(&after("2*a + b - 3 = a + a + b")),
        format!("t.sum:3:1: {cancel}")
    );
    assert_eq!(kind(&after("0*a = 0")), ErrorKind::EquationCancels);
}

#[test]
fn error_order_constraints() {
    assert_eq!(
        error(&after("a < a")),
        "t.sum:3:5: cell 'a' is compared with itself; expected two different cells"
    );
    assert_eq!(
        error(&after("a < b > b")),
        "t.sum:3:9: cell 'b' is compared with itself; expected two different cells"
    );
    assert_eq!(
        error(&after("a < 5")),
        "t.sum:3:5: unexpected '5'; expected a cell name (an order constraint compares two \
         cells)"
    );
    assert_eq!(
        error(&after("a + b < c")),
        "t.sum:3:3: unexpected '+'; expected '<' or '>' (an order constraint compares two \
         single cells)"
    );
    assert_eq!(
        error(&after("a < b,")),
        "t.sum:3:6: unexpected ','; expected '<', '>' or the end of the line"
    );
    assert_eq!(
        error(&after("a <")),
        "t.sum:3:4: the line ends too early; expected a cell name (an order constraint \
         compares two cells)"
    );
}

#[test]
fn generators_parse_to_permutations_with_the_complement() {
    let m =
        ok("values: 1..4\ncells: a b c d\ngenerator: (a b c)\ngenerator: (a)(b d) complement\n");
    assert_eq!(m.generators.len(), 2);
    assert_eq!(m.generators[0].image, [1, 2, 0, 3]);
    assert!(!m.generators[0].complement);
    assert_eq!(m.generators[1].image, [0, 3, 2, 1]);
    assert!(m.generators[1].complement);
    // Parentheses may stick to names or stand alone.
    let spaced = ok("values: 1..4\ncells: a b c d\ngenerator: ( a b c )\n");
    assert_eq!(spaced.generators[0].image, [1, 2, 0, 3]);
    assert_eq!(
        error("values: 1..4\ncells: a b\n\ngenerator: (a 3)\n"),
        "t.sum:4:15: '3' is not a cell name; expected a letter followed by letters, digits or '_'"
    );
    assert_eq!(
        kind("values: 1..4\ncells: a b\n\ngenerator: (a b) (b)\n"),
        ErrorKind::CellTwiceInGenerator { name: "b".into() }
    );
    assert_eq!(
        error("values: 1..4\ncells: a b\n\ngenerator: ((a b)\n"),
        "t.sum:4:13: unexpected '('; expected a cell name or ')' closing the cycle"
    );
    assert_eq!(
        error("values: 1 2 5\ncells: a b\n\ngenerator: complement\n"),
        "t.sum:4:12: 'complement' maps v to 6 - v, which does not map the value set 1 2 5 onto \
         itself; expected values symmetric about their middle"
    );
}

#[test]
fn error_symmetry() {
    assert_eq!(
        error(&after("symmetry 0: a < b")),
        "t.sum:3:10: symmetry group order 0; expected a whole number of at least 1 (1: no \
         symmetry)"
    );
    assert_eq!(
        kind(&after("symmetry -2:")),
        ErrorKind::GroupOrder { value: -2 }
    );
    assert_eq!(
        error(&after("symmetry: a < b")),
        "t.sum:3:9: missing argument after 'symmetry'; expected the group order before ':', \
         as in 'symmetry 8: a < b'"
    );
    assert_eq!(
        error(&after("symmetry 2 4: a < b")),
        "t.sum:3:12: unexpected '4'; expected ':' after the group order"
    );
    assert_eq!(
        error(&after("symmetry 2: a < b,")),
        "t.sum:3:19: the line ends too early; expected a cell name (an order constraint \
         compares two cells)"
    );
    assert_eq!(
        error(&after("symmetry 2: a < b c < a")),
        "t.sum:3:19: unexpected 'c'; expected '<', '>', ',' or the end of the line"
    );
    assert_eq!(
        error(&after("symmetry 2: a, b")),
        "t.sum:3:14: unexpected ','; expected '<' or '>' (an order constraint compares two \
         single cells)"
    );
    assert_eq!(
        error(&after("symmetry 2: a < b\nsymmetry 3:")),
        "t.sum:4:1: duplicate 'symmetry' statement (the first is on line 3); expected at \
         most one"
    );
}

#[test]
fn error_cage_total() {
    assert_eq!(
        error(&after("cage: a b")),
        "t.sum:3:5: missing argument after 'cage'; expected a total before ':', as in 'cage \
         15: a b c'"
    );
    assert_eq!(
        error(&after("cage x: a b")),
        "t.sum:3:6: unexpected 'x'; expected a total (an integer), as in 'cage 15: a b c'"
    );
    assert_eq!(
        error(&after("cage 1 2: a b")),
        "t.sum:3:8: unexpected '2'; expected ':' after the total"
    );
}

#[test]
fn error_duplicate_statements() {
    assert_eq!(
        error("values: 1\ncells: a\n values: 2\n"),
        "t.sum:3:2: duplicate 'values:' statement (the first is on line 1); expected at most \
         one"
    );
    assert_eq!(
        error("values: 1\ncells: a\n\ncells: b\n"),
        "t.sum:4:1: duplicate 'cells:' statement (the first is on line 2); expected at most \
         one"
    );
    assert_eq!(
        error("values: 1\ngrid: 1 x 1\ngrid: 1 x 1\n"),
        "t.sum:3:1: duplicate 'grid:' statement (the first is on line 2); expected at most \
         one"
    );
    assert_eq!(
        error("values: 1\ngrid: 1 x 1\ncells: a\n"),
        "t.sum:3:1: 'cells:' after 'grid:' on line 2; expected either a cells: drawing or a \
         grid, not both"
    );
    assert_eq!(
        kind("values: 1\ncells: a\ngrid: 1 x 1\n"),
        ErrorKind::CellsAndGrid {
            keyword: "grid:",
            first: "cells:",
            first_line: 2
        }
    );
    for (keyword, line) in [
        ("name:", "name: x"),
        ("boxes:", "boxes: 1 x 1"),
        ("order:", "order: static"),
    ] {
        assert_eq!(
            kind(&format!("{BASE}{line}\n{line}\n")),
            ErrorKind::Duplicate {
                keyword,
                first_line: 3
            }
        );
    }
}

#[test]
fn error_missing_values_or_cells() {
    assert_eq!(
        error("cells: a\n\na < b # no b\n"),
        "t.sum:3:5: unknown cell 'b' (the cells are named in the cells: drawing)"
    );
    assert_eq!(
        error("cells: a\n"),
        "t.sum:2:1: missing 'values:'; expected a value set such as 'values: 1..9'"
    );
    assert_eq!(
        error("values: 1..9\n# nothing else"),
        "t.sum:2:15: missing 'cells:' or 'grid:'; expected a cells: drawing or a line such \
         as 'grid: 9 x 9'"
    );
    assert_eq!(kind(""), ErrorKind::MissingValues);
    assert_eq!(fail("").position(), Some((1, 1)));
    assert_eq!(
        error(&after("name:  ")),
        "t.sum:3:6: missing value after 'name:'; expected a title"
    );
}

#[test]
fn error_order_not_a_permutation() {
    assert_eq!(
        error(&after("order: c a")),
        "t.sum:3:8: 'order:' lists 2 of the 3 cells ('b' is missing); expected every cell \
         exactly once"
    );
    assert_eq!(
        error(&after("order: c a c b")),
        "t.sum:3:12: cell 'c' is listed twice (first at column 8); expected each cell once"
    );
    assert_eq!(
        error(&after("order: static a b c")),
        "t.sum:3:15: unexpected 'a'; expected the end of the line after 'order: static'"
    );
    assert_eq!(
        error(&after("order:")),
        "t.sum:3:7: missing value after 'order:'; expected smallest, static or every cell \
         name in search order"
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

/// Parses `text`; it may fail, but at a position inside the text, and a success must
/// keep the model's documented invariants. Returns whether it parsed.
fn parse_checked(text: &str) -> bool {
    match parse(text, "t.sum") {
        Ok(m) => {
            let n = m.cells.len();
            assert!(n > 0);
            assert!(!m.values.is_empty() && m.values.len() <= MAX_VALUES);
            assert!(m.values.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(m.domains.len(), n);
            let full = if m.values.len() == 64 {
                u64::MAX
            } else {
                (1 << m.values.len()) - 1
            };
            assert!(m.domains.iter().all(|&d| d & !full == 0));
            for g in &m.groups {
                assert!(g.len() >= 2 && g.iter().all(|&c| c < n));
                let mut s = g.clone();
                s.sort_unstable();
                s.dedup();
                assert_eq!(s.len(), g.len());
            }
            for e in &m.equations {
                assert!(!e.terms.is_empty());
                assert!(e.terms.windows(2).all(|w| w[0].0 < w[1].0));
                assert!(e.terms.iter().all(|&(c, k)| c < n && k != 0));
            }
            let pairs = m.less.iter().chain(m.symmetry.iter().flat_map(|s| &s.less));
            for &(a, b) in pairs {
                assert!(a < n && b < n && a != b);
            }
            assert!(m.symmetry.as_ref().is_none_or(|s| s.group_order >= 1));
            if let Order::Static(order) = &m.order {
                let mut s = order.clone();
                s.sort_unstable();
                assert_eq!(s, (0..n).collect::<Vec<_>>());
            }
            match &m.layout {
                Layout::Drawing(p) => assert_eq!(p.len(), n),
                Layout::Grid { rows, columns, .. } => assert_eq!(rows * columns, n),
            }
            true
        }
        Err(e) => {
            let (line, column) = e.position().expect("a parse error has a position");
            let lines = text.split('\n').count();
            assert!(line >= 1 && line <= lines + 1, "{e}\n{text}");
            assert!(column >= 1, "{e}");
            let message = e.to_string();
            assert!(
                message.starts_with(&format!("t.sum:{line}:{column}: ")),
                "{message}"
            );
            assert!(!message.contains('\n'), "{message}");
            false
        }
    }
}

#[test]
fn no_panics_on_mutated_or_random_input() {
    let seeds = [
        HEXAGON.to_string(),
        "grid: 4 x 4\nboxes: 2 x 2\nvalues: 1..4\ndistinct: rows columns boxes\n\
         cage 3: r1c1 r1c2\ndomain 1 2: r4c4\norder: static\n"
            .to_string(),
        "name: SEND\nvalues: 0..9\ncells:\nS E N D M O R Y\nc4 c3 c2 c1\n\n\
         distinct: S E N D M O R Y\ndomain 1..9: S M\ndomain 0..1: c1 c2 c3 c4\n\
         D + E = Y + 10*c1\nN + R + c1 = E + 10*c2\nc4 = M\na < b\n"
            .replace("a < b", "S > M")
            .to_string(),
        "values: -3..3, 7\ncells: x y\n z\n\n-2*x + 3 = y - -1\nx < y < z\n\
         symmetry 2: x < z\norder: z y x\n"
            .to_string(),
    ];
    let pieces: [&str; 30] = [
        "a",
        "b",
        "r1c1",
        " ",
        "\t",
        "\n",
        "\r",
        "#",
        ":",
        "é",
        "\u{feff}",
        "0",
        "-",
        "+",
        "*",
        "=",
        "<",
        ">",
        ",",
        "..",
        "9999999999999",
        "cells:",
        "values: ",
        "distinct: ",
        "rows",
        "boxes",
        "cage 3: ",
        "domain 1..2: ",
        "symmetry 0: ",
        "\n\n",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut cases, mut parsed) = (0, 0);
    for seed in &seeds {
        assert!(parse_checked(seed), "{seed}");
        for _ in 0..700 {
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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("random.sum");
    for i in 0..500 {
        let len = rng.below(120);
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.below(3) {
                0 => rng.next() as u8,
                _ => b"ab1-+*=<> ,.:#\nvaluescellsgrid"[rng.below(30)],
            })
            .collect();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            parse_checked(text);
        } else if i % 10 == 0 {
            // Invalid UTF-8 only goes through `load`; a few cases are enough.
            std::fs::write(&path, &bytes).unwrap();
            let e = load(&path).unwrap_err();
            assert!(matches!(e.kind(), Some(ErrorKind::NotUtf8 { .. })), "{e}");
        }
        cases += 1;
    }
    // Long lines and huge numbers.
    let long = format!("values: 1\ncells: {}\n", "a".repeat(100_000));
    assert!(parse_checked(&long));
    let many = (0..20_000)
        .map(|i| format!("x{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(parse_checked(&format!(
        "values: 1..2\ncells: {many}\ndistinct: all\n"
    )));
    assert!(!parse_checked(&format!(
        "values: 1\ncells: a\na = {}\n",
        "9".repeat(50_000)
    )));
    assert!(!parse_checked(&format!(
        "values: 1\ncells: a\na = {}\n",
        "a + ".repeat(50_000)
    )));
    assert_eq!(cases, 4 * 700 + 500);
    // Both outcomes are exercised.
    eprintln!("{parsed} of {cases} inputs parsed");
    assert!(parsed > 100 && parsed < cases - 100, "{parsed} of {cases}");
}

//! The tables report: what `polytile tables` prints about the placement tables of
//! the meteor or of any puzzle file, as text or JSON.
//!
//! For each piece: its orientations, the placements per anchor cell before and after
//! island pruning, and every mask (placement and islands) per window position and
//! anchor; for the whole puzzle, the totals with and without pruning and the symmetry
//! restriction. The tables described are exactly those a run builds (for the meteor,
//! those `build.rs` baked in).
//!
//! ```
//! let report = polytile::TablesReport::meteor();
//! assert!(report.text().contains("half-turn piece: 8"));
//! let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
//! assert_eq!(json["pieces"], 10);
//! ```

use std::fmt::Write as _;

use serde::Serialize;

use crate::driver::Mode;
use crate::grid::{meteor, Board, Grid, Piece, Point};
use crate::picture::{self, Picture};
use crate::puzzle::Puzzle;
use crate::tables::generate::meteor_tables;
use crate::tables::{Census, Tables, LAYOUT_DESCRIPTION};
use crate::tiling::{Setup, TilingError};

/// Everything the tables report says about one puzzle.
pub struct TablesReport {
    name: String,
    grid: Grid,
    /// The board as searched (transposed when `transposed`).
    board: Board,
    /// The pieces as the search sees them: one per copy.
    pieces: Vec<Piece>,
    /// The tables a run searches (pruned, restricted), with their census.
    tables: Tables,
    census: Census,
    /// The placement lists of `tables`, in table order.
    groups: Vec<Group>,
    /// The placement lists of the same tables without island pruning.
    unpruned: Vec<Group>,
    /// Total placements without the symmetry restriction, unpruned and pruned.
    unrestricted: (usize, usize),
    restriction: Restriction,
    /// The second piece restricted below the first placements some symmetries fix,
    /// below how many of them, of how many first placements.
    second: Option<(usize, usize, usize)>,
    /// The puzzle's `(width, height)` when the search fills it transposed.
    transposed: Option<(usize, usize)>,
    /// The puzzle's box `(width, height, depth)` when the search lays it along other
    /// edges (the cubic grid).
    reoriented: Option<(usize, usize, usize)>,
}

/// How the tables restrict one piece to break a symmetry.
#[derive(Clone, Copy)]
enum Restriction {
    /// The meteor's: one placement of each half-turn pair.
    HalfTurn,
    /// One placement per orbit of the board's symmetries the pieces allow.
    Symmetry(usize),
}

impl Restriction {
    /// The word the report uses for it.
    fn word(self) -> &'static str {
        match self {
            Restriction::HalfTurn => "half-turn",
            Restriction::Symmetry(_) => "symmetry",
        }
    }
}

/// The placements of one piece anchored on one window cell at one window offset.
struct Group {
    offset: usize,
    anchor: usize,
    piece: usize,
    entries: Vec<Entry>,
}

/// One placement and where the tables keep it.
struct Entry {
    /// Index into the tables' mask arrays.
    index: usize,
    mask: u64,
    islands: u64,
    orientation: u8,
}

/// The placement lists of `t` in table order.
fn groups_of(t: &Tables) -> Vec<Group> {
    t.groups()
        .map(|g| {
            let (offset, anchor, piece) = t.layout.place(g);
            Group {
                offset,
                anchor,
                piece,
                entries: t
                    .group_entries(g)
                    .enumerate()
                    .map(|(i, (p, orientation))| Entry {
                        index: t.layout.slot(g, i),
                        mask: p.mask,
                        islands: p.islands,
                        orientation,
                    })
                    .collect(),
            }
        })
        .collect()
}

fn placement_count(groups: &[Group]) -> usize {
    groups.iter().map(|g| g.entries.len()).sum()
}

impl TablesReport {
    /// The meteor's tables, as `build.rs` baked them.
    pub fn meteor() -> TablesReport {
        let (tables, census) = meteor_tables(true, true);
        TablesReport {
            name: "meteor".to_string(),
            grid: meteor::board().grid,
            board: meteor::board(),
            pieces: meteor::pieces(),
            groups: groups_of(&tables),
            unpruned: groups_of(&meteor_tables(false, true).0),
            unrestricted: (
                meteor_tables(false, false).0.placement_count(),
                meteor_tables(true, false).0.placement_count(),
            ),
            tables,
            census,
            restriction: Restriction::HalfTurn,
            second: None,
            transposed: None,
            reoriented: None,
        }
    }

    /// The tables a run of `puzzle` in `mode` builds.
    pub fn for_puzzle(puzzle: &Puzzle, mode: Mode) -> Result<TablesReport, TilingError> {
        let mut setup = Setup::new(puzzle, mode, crate::tiling::Orienting::Auto)?;
        let (tables, census) = setup.run_tables()?;
        let second = setup.second_piece(&tables);
        Ok(TablesReport {
            name: puzzle.name.clone(),
            grid: setup.board.grid,
            board: setup.board.clone(),
            pieces: setup.pieces.clone(),
            groups: groups_of(&tables),
            unpruned: groups_of(&setup.tables(false, true)?.0),
            unrestricted: (
                setup.tables(false, false)?.0.placement_count(),
                setup.tables(true, false)?.0.placement_count(),
            ),
            tables,
            census,
            restriction: Restriction::Symmetry(setup.symmetries().unwrap_or(1)),
            second,
            transposed: setup.transposed(),
            reoriented: setup.reoriented_box(),
        })
    }

    /// The report as text.
    pub fn text(&self) -> String {
        tables_text(self)
    }

    /// The report as one JSON document (masks as `"0x..."` hex strings), with a final
    /// newline.
    pub fn json(&self) -> String {
        let mut s =
            serde_json::to_string(&tables_json(self)).expect("the tables document serialises");
        s.push('\n');
        s
    }

    /// The board as searched, each cell coloured by the placements of every piece
    /// anchored there before and after island pruning (a heat map,
    /// [`picture::heat`]).
    pub fn picture(&self) -> Picture {
        let c = &self.census;
        let per_cell = |counts: &[Vec<u32>]| -> Vec<u32> {
            (0..self.cells())
                .map(|cell| counts.iter().map(|piece| piece[cell]).sum())
                .collect()
        };
        picture::heat::placements(&self.board, &per_cell(&c.before), &per_cell(&c.after))
    }

    fn cells(&self) -> usize {
        self.tables.width * self.tables.height
    }

    /// Which orientations of `piece` the tables use, read off the tables themselves.
    fn allowed(&self, piece: usize) -> Vec<bool> {
        let t = &self.tables;
        let mut used = vec![false; self.census.orientations[piece].len()];
        for g in (piece..t.counts.len()).step_by(t.layout.pieces) {
            for i in 0..t.counts[g] as usize {
                used[t.orientation_of[g * t.layout.slots + i] as usize] = true;
            }
        }
        used
    }

    /// Placements of `piece` per orientation in `groups`.
    fn per_orientation(&self, groups: &[Group], piece: usize) -> Vec<u32> {
        let mut n = vec![0; self.census.orientations[piece].len()];
        for e in groups
            .iter()
            .filter(|g| g.piece == piece)
            .flat_map(|g| &g.entries)
        {
            n[e.orientation as usize] += 1;
        }
        n
    }
}

/// A lattice point as the report writes it: `[x, y]` on planar grids, `[x, y, z]` on
/// the cubic grid.
fn coordinates(grid: Grid, (x, y, z): Point) -> Vec<i32> {
    if grid.is_planar() {
        vec![x, y]
    } else {
        vec![x, y, z]
    }
}

fn hex64(m: u64) -> String {
    format!("{m:#018x}")
}

fn bits(set: u64) -> Vec<u32> {
    (0..64).filter(|i| set >> i & 1 != 0).collect()
}

/// A shape drawn in ASCII with `mark` on its cells, row 0 (south) on top as the
/// Benchmarks Game prints boards; two characters per cell, on the hex grid each row
/// half a cell east of the one above it; one character per triangle; the layers of a
/// cubic shape side by side, bottom layer first.
fn draw_shape(grid: Grid, cells: &[Point], mark: char) -> Vec<String> {
    let layered: Vec<(i32, i32, i32)> = cells.iter().filter_map(|&p| grid.drawn(p)).collect();
    let in_layer = |(_, row, col): (i32, i32, i32)| match grid {
        // Triangles alternate, so they draw one character each.
        Grid::Triangle => col,
        Grid::Square | Grid::Hex | Grid::Cubic => 2 * col + i32::from(grid.shifted_row(row)),
    };
    let low = layered.iter().map(|&d| in_layer(d)).min().unwrap_or(0);
    let span = layered
        .iter()
        .map(|&d| in_layer(d) - low)
        .max()
        .unwrap_or(0)
        + 3;
    let first = layered.iter().map(|d| d.0).min().unwrap_or(0);
    let drawn: Vec<(i32, i32)> = layered
        .iter()
        .map(|&d| (d.1, in_layer(d) + (d.0 - first) * span))
        .collect();
    let column = |(_, col): (i32, i32)| col;
    let left = drawn.iter().map(|&d| column(d)).min().unwrap_or(0);
    let top = drawn.iter().map(|d| d.0).min().unwrap_or(0);
    let bottom = drawn.iter().map(|d| d.0).max().unwrap_or(0);
    (top..=bottom)
        .map(|row| {
            let mut cols: Vec<usize> = drawn
                .iter()
                .filter(|d| d.0 == row)
                .map(|&d| (column(d) - left) as usize)
                .collect();
            cols.sort_unstable();
            let mut line = String::new();
            for c in cols {
                while line.len() < c {
                    line.push(' ');
                }
                line.push(mark);
            }
            line
        })
        .collect()
}

/// Text blocks side by side, `gap` spaces apart, wrapped to `width` columns.
fn side_by_side(blocks: &[Vec<String>], gap: usize, width: usize, out: &mut String) {
    let mut start = 0;
    while start < blocks.len() {
        let mut end = start;
        let mut used = 0;
        while end < blocks.len() {
            let w = blocks[end].iter().map(String::len).max().unwrap_or(0);
            if end > start && used + gap + w > width {
                break;
            }
            used += if end > start { gap } else { 0 } + w;
            end += 1;
        }
        let widths: Vec<usize> = blocks[start..end]
            .iter()
            .map(|b| b.iter().map(String::len).max().unwrap_or(0))
            .collect();
        let height = blocks[start..end].iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for (b, w) in blocks[start..end].iter().zip(&widths) {
                let cell = b.get(row).map_or("", String::as_str);
                let _ = write!(line, "{cell:<w$}{:gap$}", "");
            }
            out.push_str("  ");
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
        start = end;
    }
}

/// `text` broken into lines of at most `width` columns at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split_whitespace() {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

fn heading(out: &mut String, title: &str, underline: char) {
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "{}",
        underline.to_string().repeat(title.chars().count())
    );
}

fn tables_text(r: &TablesReport) -> String {
    let t = &r.tables;
    let c = &r.census;
    let mut out = String::new();
    let total_before: u32 = c.before.iter().flatten().sum();
    let total_after: u32 = c.after.iter().flatten().sum();

    heading(&mut out, &format!("polytile tables {}", r.name), '=');
    out.push('\n');
    heading(&mut out, "Board and window", '-');
    let layers = if r.board.depth > 1 {
        format!(
            " ({} layers of {} rows, the bottom layer first)",
            r.board.depth, r.board.height
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "grid: {}, {} columns x {} rows{layers} = {} cells; row 0 is the south edge, printed first",
        r.grid.name(),
        t.width,
        t.height,
        r.cells()
    );
    let _ = writeln!(
        out,
        "window: 64 bits, moves {} rows ({} cells) at a time; {} offsets x {} anchors x {} pieces = {} placement lists",
        t.shift_rows,
        t.shift_rows * t.width,
        t.offsets,
        t.layout.anchors,
        t.layout.pieces,
        t.offsets * t.layout.anchors * t.layout.pieces
    );
    let _ = writeln!(
        out,
        "fillable free-cell counts: {} = {:?}",
        hex64(t.fillable),
        bits(t.fillable)
    );
    if let Some((width, height)) = r.transposed {
        let _ = writeln!(
            out,
            "transposed: the puzzle's board is {width} columns x {height} rows; the search fills it along its short side"
        );
    }
    if let Some((width, height, depth)) = r.reoriented {
        let _ = writeln!(
            out,
            "reoriented: the puzzle's box is {width} columns x {height} rows x {depth} layers; the search lays it as {} x {} x {}, the way whose tree is estimated smallest",
            r.board.width, r.board.height, r.board.depth
        );
    }
    let word = r.restriction.word();
    match (t.restricted_piece, r.restriction) {
        (Some(p), Restriction::HalfTurn) => {
            let _ = writeln!(
                out,
                "{word} piece: {p} (keeps one of each half-turn pair; each solution found stands for two)"
            );
        }
        (Some(p), Restriction::Symmetry(n)) => {
            let when = if crate::search::first_steps(t).is_empty() {
                "placed when the lowest free cell reaches it"
            } else {
                "placed first, from the root"
            };
            let _ = writeln!(
                out,
                "{word} piece: {p} (keeps one placement per orbit of the board's {n} symmetries, {when}; each solution found stands for its class)"
            );
        }
        (None, _) => {
            let _ = writeln!(out, "{word} piece: none");
        }
    }
    if let Some((piece, below, of)) = r.second {
        let _ = writeln!(
            out,
            "second piece: {piece} (below {below} of the {word} piece's {of} placements, those some symmetries fix, keeps one placement per orbit of those symmetries)"
        );
    }
    out.push('\n');

    heading(&mut out, "Placement totals", '-');
    let _ = writeln!(out, "                          unpruned    pruned");
    let _ = writeln!(
        out,
        "all orientations          {:>8}  {:>8}",
        r.unrestricted.0, r.unrestricted.1
    );
    let _ = writeln!(
        out,
        "{:<26}{:>8}  {:>8}   <- these tables",
        format!("{word} restricted"),
        total_before,
        total_after
    );
    out.push('\n');
    let _ = writeln!(out, "piece  orientations  before  after  pruned");
    for p in 0..t.layout.pieces {
        let before: u32 = c.before[p].iter().sum();
        let after: u32 = c.after[p].iter().sum();
        let used = r.allowed(p).iter().filter(|&&a| a).count();
        let orients = c.orientations[p].len();
        let o = if used == orients {
            orients.to_string()
        } else {
            format!("{used} of {orients}")
        };
        let _ = writeln!(
            out,
            "{p:>5}  {o:>12}  {before:>6}  {after:>5}  {:>6}{}",
            before - after,
            if t.restricted_piece == Some(p) {
                format!("   {word} piece")
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(
        out,
        "total  {:>12}  {total_before:>6}  {total_after:>5}  {:>6}",
        "",
        total_before - total_after
    );
    out.push('\n');

    heading(&mut out, "Pieces", '-');
    let _ = writeln!(
        out,
        "Orientations are lattice points (x, y) (axial on the hex grid: x = col - floor(row / 2);\n\
         three times the centroid on the triangle grid), normalised so the first cell in row\n\
         order is (0, 0) ((1, 1) or (2, 2) on the triangle grid), drawn with row 0 on top.\n\
         Counts are placements per orientation before/after pruning; 'unused' marks an\n\
         orientation the {word} restriction drops. Per cell: placements anchored there,\n\
         before/after pruning, laid out like the board.\n"
    );
    for p in 0..t.layout.pieces {
        let allowed = r.allowed(p);
        let before_o = r.per_orientation(&r.unpruned, p);
        let after_o = r.per_orientation(&r.groups, p);
        let orients = &c.orientations[p];
        let mark = char::from_digit(p as u32 % 36, 36).unwrap_or('#');
        let title = format!(
            "piece {p} ({}): {} orientations{}",
            r.pieces[p].name,
            orients.len(),
            if t.restricted_piece == Some(p) {
                format!(
                    ", {} used ({word} piece)",
                    allowed.iter().filter(|&&a| a).count()
                )
            } else {
                String::new()
            }
        );
        heading(&mut out, &title, '~');
        for (i, o) in orients.iter().enumerate() {
            let pts: Vec<String> = o
                .iter()
                .map(|&p| {
                    let c = coordinates(r.grid, p);
                    let c: Vec<String> = c.iter().map(i32::to_string).collect();
                    format!("({})", c.join(","))
                })
                .collect();
            let _ = writeln!(
                out,
                "  #{i:<2} {}  {}",
                pts.join(" "),
                if allowed[i] {
                    format!("{}/{}", before_o[i], after_o[i])
                } else {
                    "unused".to_string()
                }
            );
        }
        out.push('\n');
        let blocks: Vec<Vec<String>> = orients
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let mut b = vec![if allowed[i] {
                    format!("#{i}")
                } else {
                    format!("#{i} unused")
                }];
                b.extend(draw_shape(r.grid, o, mark));
                b
            })
            .collect();
        side_by_side(&blocks, 3, 88, &mut out);
        census_board(r, p, &mut out);
        let before: u32 = c.before[p].iter().sum();
        let after: u32 = c.after[p].iter().sum();
        let _ = writeln!(
            out,
            "  total: {before} before, {after} after pruning ({} pruned)\n",
            before - after
        );
    }

    heading(&mut out, "Masks", '-');
    let _ = writeln!(
        out,
        "Bit i of a mask is window cell i; at offset o it is board cell {} * o + i.\n\
         'islands': cells cut off by the placement and every cell below its anchor.\n\
         {}\n",
        t.shift_rows * t.width,
        wrap(&format!("Layout: {LAYOUT_DESCRIPTION}."), 88)
    );
    for (k, groups) in r.groups.chunks(t.layout.pieces).enumerate() {
        let (offset, anchor) = (k / t.layout.anchors, k % t.layout.anchors);
        let n = placement_count(groups);
        let _ = writeln!(
            out,
            "offset {offset}, anchor {anchor} (board cell {}): {n} placements",
            offset * t.shift_rows * t.width + anchor
        );
        if n > 0 {
            let _ = writeln!(out, "   piece  orient   index  mask                islands");
        }
        for g in groups {
            for e in &g.entries {
                let _ = writeln!(
                    out,
                    "  {:>6}  {:>6}  {:>6}  {}  {}",
                    g.piece,
                    e.orientation,
                    e.index,
                    hex64(e.mask),
                    hex64(e.islands)
                );
            }
        }
    }
    out
}

/// Placements of `piece` per anchor cell, before/after pruning, drawn like the board.
fn census_board(r: &TablesReport, piece: usize, out: &mut String) {
    let t = &r.tables;
    let c = &r.census;
    let entries: Vec<String> = (0..r.cells())
        .map(|cell| format!("{}/{}", c.before[piece][cell], c.after[piece][cell]))
        .collect();
    let w = entries.iter().map(String::len).max().unwrap_or(1).max(3) + 1;
    let w = w + w % 2;
    for row in 0..t.height {
        let mut line = String::from("  ");
        if r.grid.shifted_row(row as i32) {
            line.push_str(&" ".repeat(w / 2));
        }
        for col in 0..t.width {
            let _ = write!(line, "{:>w$}", entries[row * t.width + col]);
        }
        let _ = writeln!(out, "{}   row {row}", line.trim_end());
    }
}

// JSON: the same information, one compact document.

#[derive(Serialize)]
struct JsonTables<'a> {
    puzzle: &'a str,
    /// How masks are encoded.
    mask_encoding: &'static str,
    grid: &'static str,
    width: usize,
    height: usize,
    shift_rows: usize,
    offsets: usize,
    anchors: usize,
    pieces: usize,
    fillable: String,
    fillable_sizes: Vec<u32>,
    /// The puzzle's `[width, height]` when the search fills its board transposed.
    #[serde(skip_serializing_if = "Option::is_none")]
    transposed: Option<(usize, usize)>,
    /// The puzzle's box `[width, height, depth]` when the search lays it along other
    /// edges.
    #[serde(skip_serializing_if = "Option::is_none")]
    reoriented: Option<(usize, usize, usize)>,
    /// The piece kept to one placement per orbit of a symmetry group, if any.
    restricted_piece: Option<usize>,
    /// `half-turn` (the meteor's) or `symmetry`.
    restriction: &'static str,
    /// The piece kept to one placement per orbit of the symmetries that fix a kept
    /// placement of the restricted piece, below such placements, if any.
    second_piece: Option<usize>,
    /// Below how many of the restricted piece's kept placements.
    second_below: usize,
    /// The order of the group the restriction breaks.
    symmetries: usize,
    totals: JsonTotals,
    piece_info: Vec<JsonPiece>,
    /// How the tables lay placements out.
    layout: &'static str,
    slots: usize,
    /// Placements per group.
    counts: Vec<u8>,
    placements: Vec<JsonPlacement>,
}

#[derive(Serialize)]
struct JsonTotals {
    unrestricted_unpruned: usize,
    unrestricted_pruned: usize,
    before_pruning: u32,
    after_pruning: u32,
}

#[derive(Serialize)]
struct JsonPiece {
    piece: usize,
    name: String,
    restricted: bool,
    orientations: Vec<JsonOrientation>,
    /// Per board cell: placements anchored there before pruning.
    before: Vec<u32>,
    /// Per board cell: after pruning.
    after: Vec<u32>,
    total_before: u32,
    total_after: u32,
}

#[derive(Serialize)]
struct JsonOrientation {
    index: usize,
    /// Lattice points `[x, y]` (`[x, y, z]` on the cubic grid).
    cells: Vec<Vec<i32>>,
    used: bool,
    placements_before: u32,
    placements_after: u32,
}

#[derive(Serialize)]
struct JsonPlacement {
    index: usize,
    offset: usize,
    anchor: usize,
    cell: usize,
    piece: usize,
    orientation: u8,
    mask: String,
    islands: String,
}

fn tables_json(r: &TablesReport) -> JsonTables<'_> {
    let t = &r.tables;
    let c = &r.census;
    let piece_info = (0..t.layout.pieces)
        .map(|p| {
            let allowed = r.allowed(p);
            let before_o = r.per_orientation(&r.unpruned, p);
            let after_o = r.per_orientation(&r.groups, p);
            JsonPiece {
                piece: p,
                name: r.pieces[p].name.clone(),
                restricted: t.restricted_piece == Some(p),
                orientations: c.orientations[p]
                    .iter()
                    .enumerate()
                    .map(|(i, o)| JsonOrientation {
                        index: i,
                        cells: o.iter().map(|&p| coordinates(r.grid, p)).collect(),
                        used: allowed[i],
                        placements_before: before_o[i],
                        placements_after: after_o[i],
                    })
                    .collect(),
                before: c.before[p].clone(),
                after: c.after[p].clone(),
                total_before: c.before[p].iter().sum(),
                total_after: c.after[p].iter().sum(),
            }
        })
        .collect();
    let placements = r
        .groups
        .iter()
        .flat_map(|g| {
            g.entries.iter().map(move |e| JsonPlacement {
                index: e.index,
                offset: g.offset,
                anchor: g.anchor,
                cell: g.offset * t.shift_rows * t.width + g.anchor,
                piece: g.piece,
                orientation: e.orientation,
                mask: hex64(e.mask),
                islands: hex64(e.islands),
            })
        })
        .collect();
    JsonTables {
        puzzle: &r.name,
        mask_encoding: "0x-prefixed 16-digit hex strings; bit i is window cell i, board cell offset * shift_rows * width + i",
        grid: r.grid.name(),
        width: t.width,
        height: t.height,
        shift_rows: t.shift_rows,
        offsets: t.offsets,
        anchors: t.layout.anchors,
        pieces: t.layout.pieces,
        fillable: hex64(t.fillable),
        fillable_sizes: bits(t.fillable),
        transposed: r.transposed,
        reoriented: r.reoriented,
        restricted_piece: t.restricted_piece,
        restriction: r.restriction.word(),
        second_piece: r.second.map(|s| s.0),
        second_below: r.second.map_or(0, |s| s.1),
        symmetries: match r.restriction {
            Restriction::HalfTurn => 2,
            Restriction::Symmetry(n) => n,
        },
        totals: JsonTotals {
            unrestricted_unpruned: r.unrestricted.0,
            unrestricted_pruned: r.unrestricted.1,
            before_pruning: c.before.iter().flatten().sum(),
            after_pruning: c.after.iter().flatten().sum(),
        },
        piece_info,
        layout: LAYOUT_DESCRIPTION,
        slots: t.layout.slots,
        counts: t.counts.clone(),
        placements,
    }
}

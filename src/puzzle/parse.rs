//! The line parser: statements, drawings, and the checks that need the whole file.
//!
//! One pass over the lines collects statements and raw drawings (rows of cell/hole
//! marks with their file positions); [`Parser::finish`] then needs the grid to turn
//! drawings into a [`Board`] and [`Piece`]s and to check connectivity and areas.

use std::collections::HashMap;

use super::error::{Drawing, PuzzleError, PuzzleErrorKind};
use super::{Puzzle, MAX_BOARD_CELLS};
use crate::grid::{normalise, Board, Grid, Motion, Piece, Point};
use crate::tiling::{rows_in_order, Splitting};

/// A position in the file; both count from 1, the column in characters.
#[derive(Clone, Copy, Debug)]
struct Pos {
    line: usize,
    column: usize,
}

/// One line of a drawing or of a coordinate list.
enum Row {
    /// The line, and its drawn marks in order (`true` = cell), each with its column.
    Marks(usize, Vec<(bool, usize)>),
    /// Cells as coordinate tuples, each with the position of its `(`.
    Coords(Vec<(Vec<i32>, Pos)>),
    /// A line of `-` between two layers of a cubic drawing, at its first `-`.
    Layer(Pos),
}

impl Row {
    fn has_cells(&self) -> bool {
        match self {
            Row::Marks(_, marks) => marks.iter().any(|m| m.0),
            Row::Coords(cells) => !cells.is_empty(),
            Row::Layer(_) => false,
        }
    }
}

/// The largest magnitude of a coordinate: far beyond any board
/// ([`MAX_BOARD_CELLS`]), small enough that no lattice arithmetic overflows.
pub(super) const MAX_COORDINATE: i32 = 1_000_000;

struct BoardDecl {
    header: Pos,
    rows: Vec<Row>,
}

struct PieceDecl {
    name: String,
    header: Pos,
    name_pos: Pos,
    motion: Option<Motion>,
    count: Option<u32>,
    rows: Vec<Row>,
}

/// The drawing that the next drawing line belongs to.
enum Open {
    Board,
    Piece(usize),
}

/// A setting given once, with the line that gave it.
type Setting<T> = Option<(T, usize)>;

struct Parser<'a> {
    file: &'a str,
    name: Setting<String>,
    grid: Setting<Grid>,
    leftover: Setting<bool>,
    motion: Setting<Motion>,
    split: Setting<Splitting>,
    /// `first:`: the piece's name and where it stands.
    first: Option<(String, Pos)>,
    board: Option<BoardDecl>,
    pieces: Vec<PieceDecl>,
    open: Option<Open>,
}

/// Parses a whole file's text; see the module docs of [`super`] for the format.
pub(super) fn parse(text: &str, file: &str) -> Result<Puzzle, PuzzleError> {
    let mut p = Parser {
        file,
        name: None,
        grid: None,
        leftover: None,
        motion: None,
        split: None,
        first: None,
        board: None,
        pieces: Vec::new(),
        open: None,
    };
    let mut end = Pos { line: 1, column: 1 };
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let raw = if i == 0 {
            raw.strip_prefix('\u{feff}').unwrap_or(raw)
        } else {
            raw
        };
        end = Pos {
            line,
            column: raw.chars().count() + 1,
        };
        let content = raw.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            // A comment line is ignored everywhere; a blank line ends a drawing.
            if !raw.contains('#') {
                p.close()?;
            }
            continue;
        }
        if p.open.is_some() && !content.contains(':') {
            p.drawing_line(line, content)?;
            continue;
        }
        p.close()?;
        p.statement(line, content)?;
    }
    p.close()?;
    p.finish(end)
}

/// Whitespace-separated words of `text` with their columns; `text` starts at column
/// `start`.
fn words(text: &str, start: usize) -> Vec<(&str, usize)> {
    crate::text::words(text, start, char::is_whitespace)
}

fn parse_grid(word: &str) -> Result<Grid, PuzzleErrorKind> {
    Grid::from_name(word).ok_or_else(|| PuzzleErrorKind::UnknownGrid { word: word.into() })
}

fn parse_motion(word: &str) -> Option<Motion> {
    Motion::from_name(word)
}

fn parse_leftover(word: &str) -> Result<bool, PuzzleErrorKind> {
    match word {
        "allowed" => Ok(true),
        "forbidden" => Ok(false),
        _ => Err(PuzzleErrorKind::UnknownLeftover { word: word.into() }),
    }
}

fn parse_count(text: &str) -> Result<u32, PuzzleErrorKind> {
    match text.parse::<u32>() {
        Ok(n) if n > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(PuzzleErrorKind::BadCount { text: text.into() }),
    }
}

const KEYWORDS: [&str; 8] = [
    "name", "grid", "leftover", "motion", "split", "first", "board", "piece",
];

/// `split:`'s value: `auto`, `off`, or rows in the split search's order
/// ([`rows_in_order`]), as [`Splitting::Stated`].
fn parse_split(text: &str) -> Result<Splitting, PuzzleErrorKind> {
    let bad = || PuzzleErrorKind::BadSplit {
        text: text.trim().into(),
    };
    match text.parse::<Splitting>().map_err(|_| bad())? {
        Splitting::Rows(rows) if rows_in_order(&rows) => Ok(Splitting::Stated(rows)),
        Splitting::Rows(_) => Err(bad()),
        other => Ok(other),
    }
}

impl Parser<'_> {
    fn error(&self, pos: Pos, kind: PuzzleErrorKind) -> PuzzleError {
        PuzzleError::Parse {
            file: self.file.to_string(),
            line: pos.line,
            column: pos.column,
            kind,
        }
    }

    fn at(&self, line: usize, column: usize, kind: PuzzleErrorKind) -> PuzzleError {
        self.error(Pos { line, column }, kind)
    }

    /// One line of the open drawing.
    fn drawing_line(&mut self, line: usize, content: &str) -> Result<(), PuzzleError> {
        let (drawing, own): (Drawing, Option<char>) = match self.open {
            Some(Open::Piece(i)) => {
                let name = &self.pieces[i].name;
                let mut chars = name.chars();
                let own = match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c),
                    _ => None,
                };
                (Drawing::Piece(name.clone()), own)
            }
            _ => (Drawing::Board, None),
        };
        let rows = match self.open {
            Some(Open::Piece(i)) => &self.pieces[i].rows,
            _ => match &self.board {
                Some(b) => &b.rows,
                None => return Ok(()),
            },
        };
        let coords = content.trim_start().starts_with('(');
        if let Some(first) = rows.first() {
            if coords != matches!(first, Row::Coords(_)) {
                let column = content.chars().take_while(|c| c.is_whitespace()).count() + 1;
                return Err(self.at(line, column, PuzzleErrorKind::MixedForms { drawing }));
            }
        }
        let trimmed = content.trim();
        let layer = !coords && own != Some('-') && trimmed.chars().all(|c| c == '-');
        let row = if layer {
            let column = content.chars().take_while(|c| c.is_whitespace()).count() + 1;
            Row::Layer(Pos { line, column })
        } else if coords {
            Row::Coords(self.coordinate_line(line, content, &drawing)?)
        } else {
            Row::Marks(line, self.marks(line, content, drawing, own)?)
        };
        match self.open {
            Some(Open::Piece(i)) => self.pieces[i].rows.push(row),
            _ => {
                if let Some(board) = &mut self.board {
                    board.rows.push(row);
                }
            }
        }
        Ok(())
    }

    /// The marks of a drawing line.
    fn marks(
        &self,
        line: usize,
        content: &str,
        drawing: Drawing,
        own: Option<char>,
    ) -> Result<Vec<(bool, usize)>, PuzzleError> {
        let mut marks = Vec::new();
        for (column, ch) in (1..).zip(content.chars()) {
            match ch {
                '.' => marks.push((false, column)),
                'x' | 'X' => marks.push((true, column)),
                c if Some(c) == own => marks.push((true, column)),
                c if c.is_whitespace() => {}
                c => {
                    return Err(self.at(
                        line,
                        column,
                        PuzzleErrorKind::UnknownCharacter { ch: c, drawing },
                    ))
                }
            }
        }
        Ok(marks)
    }

    /// The tuples of a coordinate line: `(x, y)` or `(a, b, t)`, whole numbers,
    /// separated by whitespace; the grid checks their meaning later.
    fn coordinate_line(
        &self,
        line: usize,
        content: &str,
        drawing: &Drawing,
    ) -> Result<Vec<(Vec<i32>, Pos)>, PuzzleError> {
        let chars: Vec<(usize, char)> = (1..).zip(content.chars()).collect();
        let bad = |column: usize| {
            let kind = PuzzleErrorKind::BadCoordinates {
                drawing: drawing.clone(),
            };
            self.at(line, column, kind)
        };
        let end = content.chars().count() + 1;
        let at = |i: usize| chars.get(i).map_or((end, '\n'), |&c| c);
        let skip = |mut i: usize| {
            while at(i).1 != '\n' && at(i).1.is_whitespace() {
                i += 1;
            }
            i
        };
        let mut cells = Vec::new();
        let mut i = skip(0);
        while i < chars.len() {
            let (open, ch) = at(i);
            if ch != '(' {
                return Err(bad(open));
            }
            let mut values = Vec::new();
            i += 1;
            loop {
                i = skip(i);
                let (start, _) = at(i);
                let mut j = i;
                if matches!(at(j).1, '-' | '+') {
                    j += 1;
                }
                while at(j).1.is_ascii_digit() {
                    j += 1;
                }
                let text: String = chars[i.min(chars.len())..j.min(chars.len())]
                    .iter()
                    .map(|c| c.1)
                    .collect();
                let sign = usize::from(text.starts_with(['-', '+']));
                if text.len() == sign {
                    return Err(bad(start));
                }
                // Digits only: a number too long for i64 is out of range, not malformed.
                let value = text.parse::<i64>().unwrap_or(i64::MAX);
                if value.unsigned_abs() > MAX_COORDINATE.unsigned_abs().into() {
                    let kind = PuzzleErrorKind::CoordinateRange { text };
                    return Err(self.at(line, start, kind));
                }
                values.push(value as i32);
                i = skip(j);
                match at(i).1 {
                    ',' => i += 1,
                    ')' => break,
                    _ => return Err(bad(at(i).0)),
                }
            }
            cells.push((values, Pos { line, column: open }));
            i = skip(i + 1);
        }
        Ok(cells)
    }

    /// Ends the open drawing, if any, checking it is not empty.
    fn close(&mut self) -> Result<(), PuzzleError> {
        let (header, rows, drawing) = match self.open.take() {
            None => return Ok(()),
            Some(Open::Board) => match &self.board {
                Some(b) => (b.header, &b.rows, Drawing::Board),
                None => return Ok(()),
            },
            Some(Open::Piece(i)) => {
                let p = &self.pieces[i];
                (p.header, &p.rows, Drawing::Piece(p.name.clone()))
            }
        };
        if rows.is_empty() {
            return Err(self.error(header, PuzzleErrorKind::EmptyDrawing { drawing }));
        }
        if !rows.iter().any(Row::has_cells) {
            return Err(self.error(header, PuzzleErrorKind::NoCells { drawing }));
        }
        Ok(())
    }

    /// A line outside drawings: `KEYWORD: value` or `piece NAME: options`.
    fn statement(&mut self, line: usize, content: &str) -> Result<(), PuzzleError> {
        let Some((head, value)) = content.split_once(':') else {
            let first = words(content, 1);
            if first.first().is_some_and(|(w, _)| KEYWORDS.contains(w)) {
                let text = content.trim_end();
                let column = text.chars().count() + 1;
                let text = text.trim_start().to_string();
                return Err(self.at(line, column, PuzzleErrorKind::MissingColon { text }));
            }
            let column = first.first().map_or(1, |w| w.1);
            return Err(self.at(line, column, PuzzleErrorKind::StrayLine));
        };
        let colon = head.chars().count() + 1;
        let head_words = words(head, 1);
        let value_words = words(value, colon + 1);
        let Some(&(keyword, kw_column)) = head_words.first() else {
            return Err(self.at(line, colon, PuzzleErrorKind::MissingKeyword));
        };
        let here = Pos {
            line,
            column: kw_column,
        };
        if keyword == "piece" {
            return self.piece_header(here, colon, &head_words[1..], &value_words);
        }
        if !KEYWORDS.contains(&keyword) {
            let word = keyword.to_string();
            return Err(self.error(here, PuzzleErrorKind::UnknownKeyword { word }));
        }
        if let Some(&(word, column)) = head_words.get(1) {
            let expected = "':' right after the keyword";
            let word = word.to_string();
            return Err(self.at(line, column, PuzzleErrorKind::Unexpected { word, expected }));
        }
        let first_line = match keyword {
            "name" => self.name.as_ref().map(|s| s.1),
            "grid" => self.grid.map(|s| s.1),
            "leftover" => self.leftover.map(|s| s.1),
            "motion" => self.motion.map(|s| s.1),
            "split" => self.split.as_ref().map(|s| s.1),
            "first" => self.first.as_ref().map(|f| f.1.line),
            _ => self.board.as_ref().map(|b| b.header.line),
        };
        if let Some(first_line) = first_line {
            let keyword = keyword.to_string();
            return Err(self.error(
                here,
                PuzzleErrorKind::Duplicate {
                    keyword,
                    first_line,
                },
            ));
        }
        if keyword == "name" {
            let name = value.trim();
            if name.is_empty() {
                let kind = PuzzleErrorKind::MissingValue {
                    keyword: keyword.into(),
                    expected: "a puzzle name",
                };
                return Err(self.at(line, colon + 1, kind));
            }
            self.name = Some((name.to_string(), line));
            return Ok(());
        }
        if keyword == "split" {
            let Some(&(_, column)) = value_words.first() else {
                let kind = PuzzleErrorKind::MissingValue {
                    keyword: keyword.into(),
                    expected: "auto, off or rows such as 3,4,5",
                };
                return Err(self.at(line, colon + 1, kind));
            };
            let split = parse_split(value).map_err(|kind| self.at(line, column, kind))?;
            self.split = Some((split, line));
            return Ok(());
        }
        if keyword == "first" {
            let Some(&(name, column)) = value_words.first() else {
                let kind = PuzzleErrorKind::MissingValue {
                    keyword: keyword.into(),
                    expected: "the name of a piece",
                };
                return Err(self.at(line, colon + 1, kind));
            };
            if let Some(&(word, column)) = value_words.get(1) {
                let kind = PuzzleErrorKind::Unexpected {
                    word: word.into(),
                    expected: "the end of the line (one piece name)",
                };
                return Err(self.at(line, column, kind));
            }
            self.first = Some((name.to_string(), Pos { line, column }));
            return Ok(());
        }
        if keyword == "board" {
            if let Some(&(word, column)) = value_words.first() {
                let kind = PuzzleErrorKind::Unexpected {
                    word: word.into(),
                    expected: "the end of the line (the drawing starts on the next line)",
                };
                return Err(self.at(line, column, kind));
            }
            self.board = Some(BoardDecl {
                header: here,
                rows: Vec::new(),
            });
            self.open = Some(Open::Board);
            return Ok(());
        }
        let expected = match keyword {
            "grid" => "square, hex, triangle or cubic",
            "leftover" => "allowed or forbidden",
            _ => "free, one-sided, fixed or mirror",
        };
        let Some(&(word, column)) = value_words.first() else {
            let kind = PuzzleErrorKind::MissingValue {
                keyword: keyword.into(),
                expected,
            };
            return Err(self.at(line, colon + 1, kind));
        };
        if let Some(&(extra, column)) = value_words.get(1) {
            let kind = PuzzleErrorKind::Unexpected {
                word: extra.into(),
                expected: "the end of the line",
            };
            return Err(self.at(line, column, kind));
        }
        let at = |kind| self.at(line, column, kind);
        match keyword {
            "grid" => {
                let grid = parse_grid(word).map_err(at)?;
                self.grid = Some((grid, line));
            }
            "leftover" => {
                let leftover = parse_leftover(word).map_err(at)?;
                self.leftover = Some((leftover, line));
            }
            _ => {
                let motion = parse_motion(word)
                    .ok_or_else(|| at(PuzzleErrorKind::UnknownMotion { word: word.into() }))?;
                self.motion = Some((motion, line));
            }
        }
        Ok(())
    }

    /// `piece NAME: [MOTION] [count N]`.
    fn piece_header(
        &mut self,
        header: Pos,
        colon: usize,
        names: &[(&str, usize)],
        options: &[(&str, usize)],
    ) -> Result<(), PuzzleError> {
        let line = header.line;
        let Some(&(name, name_column)) = names.first() else {
            return Err(self.at(line, colon, PuzzleErrorKind::MissingName));
        };
        if let Some(&(word, column)) = names.get(1) {
            let kind = PuzzleErrorKind::Unexpected {
                word: word.into(),
                expected: "':' after the piece name (a name has no spaces)",
            };
            return Err(self.at(line, column, kind));
        }
        let name_pos = Pos {
            line,
            column: name_column,
        };
        if name.contains('.') {
            let kind = PuzzleErrorKind::BadName { name: name.into() };
            return Err(self.error(name_pos, kind));
        }
        if let Some(first) = self.pieces.iter().find(|p| p.name == name) {
            let kind = PuzzleErrorKind::DuplicateName {
                name: name.into(),
                first_line: first.header.line,
            };
            return Err(self.error(name_pos, kind));
        }
        let mut motion = None;
        let mut count = None;
        let mut i = 0;
        while i < options.len() {
            let (word, column) = options[i];
            i += 1;
            if let Some(m) = parse_motion(word) {
                if motion.is_some() {
                    let kind = PuzzleErrorKind::DuplicateMotion { name: name.into() };
                    return Err(self.at(line, column, kind));
                }
                motion = Some(m);
            } else if word == "count" {
                if count.is_some() {
                    let kind = PuzzleErrorKind::DuplicateCount { name: name.into() };
                    return Err(self.at(line, column, kind));
                }
                let Some(&(n, n_column)) = options.get(i) else {
                    let column = column + word.chars().count();
                    return Err(self.at(line, column, PuzzleErrorKind::MissingCount));
                };
                i += 1;
                count = Some(parse_count(n).map_err(|k| self.at(line, n_column, k))?);
            } else {
                let kind = PuzzleErrorKind::UnknownPieceOption { word: word.into() };
                return Err(self.at(line, column, kind));
            }
        }
        self.pieces.push(PieceDecl {
            name: name.into(),
            header,
            name_pos,
            motion,
            count,
            rows: Vec::new(),
        });
        self.open = Some(Open::Piece(self.pieces.len() - 1));
        Ok(())
    }

    /// The checks that need the whole file, and the conversion to a [`Puzzle`].
    fn finish(self, end: Pos) -> Result<Puzzle, PuzzleError> {
        let Some((grid, _)) = self.grid else {
            return Err(self.error(end, PuzzleErrorKind::MissingGrid));
        };
        let Some(board_decl) = &self.board else {
            return Err(self.error(end, PuzzleErrorKind::MissingBoard));
        };
        if self.pieces.is_empty() {
            return Err(self.error(end, PuzzleErrorKind::NoPieces));
        }
        let board = self.board(grid, board_decl)?;
        let area = board.cells.iter().filter(|&&c| c).count();
        let default_motion = self.motion.map_or(Motion::Free, |m| m.0);
        let mut pieces = Vec::with_capacity(self.pieces.len());
        let mut total: u64 = 0;
        for decl in &self.pieces {
            let cells = self.piece_cells(grid, decl)?;
            if cells.len() > area {
                let kind = PuzzleErrorKind::PieceTooLarge {
                    name: decl.name.clone(),
                    cells: cells.len(),
                    board: area,
                };
                return Err(self.error(decl.name_pos, kind));
            }
            let count = decl.count.unwrap_or(1);
            total = total.saturating_add((cells.len() as u64).saturating_mul(count as u64));
            pieces.push(Piece {
                name: decl.name.clone(),
                cells: normalise(grid, &cells),
                motion: decl.motion.unwrap_or(default_motion),
                count,
            });
        }
        let allow_leftover = self.leftover.is_some_and(|l| l.0);
        let board_area = area as u64;
        if total < board_area || (total > board_area && !allow_leftover) {
            let kind = if allow_leftover {
                PuzzleErrorKind::TooFewPieceCells {
                    pieces: total,
                    board: area,
                }
            } else {
                PuzzleErrorKind::AreaMismatch {
                    pieces: total,
                    board: area,
                }
            };
            return Err(self.error(board_decl.header, kind));
        }
        let first = match &self.first {
            None => None,
            Some((name, pos)) => Some(self.first_piece(name, *pos, &pieces, allow_leftover)?),
        };
        let name = match &self.name {
            Some((name, _)) => name.clone(),
            None => default_name(self.file),
        };
        Ok(Puzzle {
            name,
            board,
            pieces,
            allow_leftover,
            split: self.split.as_ref().map_or(Splitting::Auto, |s| s.0.clone()),
            first,
        })
    }

    /// The piece `first:` names (at `pos`), which must be one of `pieces` with one copy,
    /// on a puzzle that leaves no piece over (the board's symmetries are checked by the
    /// solver).
    fn first_piece(
        &self,
        name: &str,
        pos: Pos,
        pieces: &[Piece],
        allow_leftover: bool,
    ) -> Result<usize, PuzzleError> {
        let Some(index) = pieces.iter().position(|p| p.name == name) else {
            let kind = PuzzleErrorKind::UnknownFirstPiece { name: name.into() };
            return Err(self.error(pos, kind));
        };
        if pieces[index].count != 1 {
            let kind = PuzzleErrorKind::FirstPieceCopies {
                name: name.into(),
                count: pieces[index].count,
            };
            return Err(self.error(pos, kind));
        }
        if allow_leftover {
            let kind = PuzzleErrorKind::FirstWithLeftover { name: name.into() };
            return Err(self.error(pos, kind));
        }
        Ok(index)
    }

    /// The lattice points of a drawing or coordinate list, each with its position in
    /// the file: drawn cells in order, coordinates as given (each cell at most once).
    fn points(
        &self,
        grid: Grid,
        rows: &[Row],
        drawing: &Drawing,
    ) -> Result<Vec<(Point, Pos)>, PuzzleError> {
        let mut points = Vec::new();
        let mut seen: HashMap<Point, Pos> = HashMap::new();
        // Drawn rows count from 0 in each layer.
        let (mut layer, mut r) = (0, 0);
        for row in rows {
            match row {
                Row::Layer(pos) => {
                    if grid.is_planar() {
                        return Err(self.error(*pos, PuzzleErrorKind::PlanarLayers { grid }));
                    }
                    (layer, r) = (layer + 1, 0);
                }
                Row::Marks(line, marks) => {
                    let line = *line;
                    for (c, &(cell, column)) in marks.iter().enumerate() {
                        if cell {
                            points.push((grid.lattice(layer, r, c), Pos { line, column }));
                        }
                    }
                    r += 1;
                }
                Row::Coords(cells) => {
                    for (values, pos) in cells {
                        let Some(p) = grid.coordinate_cell(values) else {
                            let kind = PuzzleErrorKind::BadCell {
                                values: values.clone(),
                                grid,
                            };
                            return Err(self.error(*pos, kind));
                        };
                        if let Some(first) = seen.insert(p, *pos) {
                            let kind = PuzzleErrorKind::RepeatedCell {
                                drawing: drawing.clone(),
                                first_line: first.line,
                                first_column: first.column,
                            };
                            return Err(self.error(*pos, kind));
                        }
                        points.push((p, *pos));
                    }
                }
            }
        }
        Ok(points)
    }

    /// The board: the smallest box holding every cell. On the hex grid it starts
    /// on an even row, on the triangle grid on an even column, so that rows and
    /// columns keep what their parity means.
    fn board(&self, grid: Grid, decl: &BoardDecl) -> Result<Board, PuzzleError> {
        let cells: Vec<(i64, i64, i64)> = self
            .points(grid, &decl.rows, &Drawing::Board)?
            .into_iter()
            .filter_map(|(p, _)| grid.drawn(p))
            .map(|(l, r, c)| (i64::from(l), i64::from(r), i64::from(c)))
            .collect();
        let Some(frame) = grid.frame(cells.iter().copied()) else {
            // `close` rejects a board without cells; this keeps `finish` total anyway.
            let kind = PuzzleErrorKind::NoCells {
                drawing: Drawing::Board,
            };
            return Err(self.error(decl.header, kind));
        };
        if frame.volume() > MAX_BOARD_CELLS {
            let kind = PuzzleErrorKind::BoardTooLarge {
                width: frame.width,
                height: frame.height,
                depth: frame.depth,
            };
            return Err(self.error(decl.header, kind));
        }
        Ok(Board::in_frame(grid, frame, &cells).0)
    }

    /// The lattice points of a piece, checked to be connected.
    fn piece_cells(&self, grid: Grid, decl: &PieceDecl) -> Result<Vec<Point>, PuzzleError> {
        let drawing = Drawing::Piece(decl.name.clone());
        let points = self.points(grid, &decl.rows, &drawing)?;
        let Some(&(_, first)) = points.first() else {
            // `close` rejects a piece without cells; this keeps `finish` total anyway.
            let drawing = Drawing::Piece(decl.name.clone());
            return Err(self.error(decl.header, PuzzleErrorKind::NoCells { drawing }));
        };
        let index: HashMap<Point, usize> =
            points.iter().enumerate().map(|(i, p)| (p.0, i)).collect();
        let mut seen = vec![false; points.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            let (x, y, z) = points[i].0;
            for &(dx, dy, dz) in grid.neighbour_steps() {
                if let Some(&j) = index.get(&(x + dx, y + dy, z + dz)) {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        if let Some(apart) = seen.iter().position(|&s| !s) {
            let kind = PuzzleErrorKind::NotConnected {
                name: decl.name.clone(),
                grid,
                other_line: first.line,
                other_column: first.column,
            };
            return Err(self.error(points[apart].1, kind));
        }
        Ok(points.into_iter().map(|p| p.0).collect())
    }
}

/// The puzzle name when the file gives none: the file name without directory and
/// extension.
fn default_name(file: &str) -> String {
    std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "puzzle".to_string())
}

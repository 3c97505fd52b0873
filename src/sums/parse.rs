//! The `.sum` parser (`docs/sums-format.md`): statements, the `cells:` drawing,
//! equations and order constraints, and the checks that need the whole file.
//!
//! One pass over the lines resolves cell names as soon as they are used (so the cells
//! must be defined first) and keeps for the end what needs the whole file: domains
//! need the value set, `distinct: boxes` the `boxes:` line, and both may come later.
//!
//! Choices the format leaves open:
//! - A `cells:` drawing also ends at a line holding `:`, `=`, `<` or `>`, which is read
//!   as a statement; a comment-only line inside a drawing is skipped and does not count
//!   as a drawing line.
//! - Names are ASCII: a letter, then letters, digits or `_`.
//! - Lists of names are separated by spaces or commas. `distinct:` takes either names
//!   or any of `all`, `rows`, `columns`, `boxes` (`distinct: rows columns boxes`).
//! - Order constraints may be chained: `a < b < c` adds `a < b` and `b < c`; `a < b > c`
//!   adds `a < b` and `c < b`. The same holds inside a `symmetry` list.
//! - A term may carry a unary minus (`a + -3 = b`, `-x + y = 1`).
//! - Every list of names (`distinct`, `cage`, `domain`, `order`) rejects a cell listed
//!   twice.
//! - `order: smallest` and `order: static` are the modes even if a cell has that name
//!   (with one word, a list of names would only fit a one-cell model, where all orders
//!   are the same).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use super::error::{CellSource, SumsError, SumsErrorKind};
use super::model::{Equation, Generator, Layout, Model, Order, SymmetryBreak, MAX_VALUES};
use crate::text::words;
use crate::text::ReadError;

/// Words that `distinct:` gives a meaning, so no cell may be called that.
const RESERVED: [&str; 4] = ["all", "rows", "columns", "boxes"];

/// Statement keywords; a keyword line without ':' gets a "missing ':'" message.
const KEYWORDS: [&str; 11] = [
    "name",
    "values",
    "cells",
    "grid",
    "boxes",
    "distinct",
    "domain",
    "cage",
    "symmetry",
    "generator",
    "order",
];

/// The largest grid (and box) side.
const MAX_SIDE: usize = 32;

/// A position in the file; both count from 1, the column in characters.
#[derive(Clone, Copy, Debug)]
struct Pos {
    line: usize,
    column: usize,
}

/// A problem inside the current line: its column and what.
type Fail = (usize, SumsErrorKind);

/// Parses the text of a `.sum` file; `file` names it in error messages.
pub fn parse(text: &str, file: &str) -> Result<Model, SumsError> {
    let mut p = Parser::new(file);
    let mut end = Pos { line: 1, column: 1 };
    for (i, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let raw = if i == 0 {
            raw.strip_prefix('\u{feff}').unwrap_or(raw)
        } else {
            raw
        };
        p.line = i + 1;
        end = Pos {
            line: p.line,
            column: raw.chars().count() + 1,
        };
        let content = raw.split('#').next().unwrap_or("");
        p.read_line(raw, content)?;
    }
    p.close()?;
    p.finish(end)
}

/// Parses the bytes of a `.sum` file, which must be UTF-8; `file` names it in error
/// messages (a bad byte is reported at its line and column).
pub fn parse_bytes(bytes: &[u8], file: &str) -> Result<Model, SumsError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text, file),
        Err(e) => {
            let (line, column, byte) = crate::text::utf8_error_at(bytes, &e);
            Err(SumsError::Parse {
                file: file.to_string(),
                line,
                column,
                kind: SumsErrorKind::NotUtf8 { byte },
            })
        }
    }
}

/// Reads and parses a `.sum` file of at most [`crate::text::MAX_FILE_BYTES`]. Errors
/// name the file as `path` is written.
pub fn load(path: &Path) -> Result<Model, SumsError> {
    let bytes = crate::text::read_bounded(path).map_err(|e| match e {
        ReadError::Io(source) => SumsError::Io {
            path: path.to_path_buf(),
            source,
        },
        ReadError::TooLarge => SumsError::TooLarge {
            path: path.to_path_buf(),
        },
    })?;
    parse_bytes(&bytes, &path.display().to_string())
}

// ---- Words and tokens ----

fn list_separator(ch: char) -> bool {
    ch.is_whitespace() || ch == ','
}

fn is_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Name(&'a str),
    /// Digits only; a sign is a separate [`Tok::Minus`].
    Int(&'a str),
    Plus,
    Minus,
    Star,
    Eq,
    Lt,
    Gt,
    Comma,
    DotDot,
    Other(char),
}

impl Tok<'_> {
    fn text(&self) -> String {
        match self {
            Tok::Name(s) | Tok::Int(s) => s.to_string(),
            Tok::Plus => "+".into(),
            Tok::Minus => "-".into(),
            Tok::Star => "*".into(),
            Tok::Eq => "=".into(),
            Tok::Lt => "<".into(),
            Tok::Gt => ">".into(),
            Tok::Comma => ",".into(),
            Tok::DotDot => "..".into(),
            Tok::Other(c) => c.to_string(),
        }
    }
}

/// A token with its column and the column just after it.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    column: usize,
    end: usize,
}

/// The tokens of `text`, which starts at column `start`. Never fails: a character that
/// is no token becomes [`Tok::Other`], for the parser to report with what it expected.
fn lex(text: &str, start: usize) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut column = start;
    while let Some((i, ch)) = chars.next() {
        let first = column;
        column += 1;
        let tok = if ch.is_whitespace() {
            continue;
        } else if ch.is_ascii_alphanumeric() {
            let name = ch.is_ascii_alphabetic();
            let mut j = i + 1;
            while let Some(&(k, c)) = chars.peek() {
                let more = if name {
                    c.is_ascii_alphanumeric() || c == '_'
                } else {
                    c.is_ascii_digit()
                };
                if !more {
                    break;
                }
                chars.next();
                column += 1;
                j = k + c.len_utf8();
            }
            if name {
                Tok::Name(&text[i..j])
            } else {
                Tok::Int(&text[i..j])
            }
        } else {
            match ch {
                '+' => Tok::Plus,
                '-' => Tok::Minus,
                '*' => Tok::Star,
                '=' => Tok::Eq,
                '<' => Tok::Lt,
                '>' => Tok::Gt,
                ',' => Tok::Comma,
                '.' if chars.peek().is_some_and(|&(_, c)| c == '.') => {
                    chars.next();
                    column += 1;
                    Tok::DotDot
                }
                c => Tok::Other(c),
            }
        };
        out.push(Token {
            tok,
            column: first,
            end: column,
        });
    }
    out
}

/// Reads tokens one by one; `end` is the column just after the last token, where a
/// line that ends too early is reported.
struct Cursor<'t, 'a> {
    toks: &'t [Token<'a>],
    i: usize,
    end: usize,
}

impl<'t, 'a> Cursor<'t, 'a> {
    fn new(toks: &'t [Token<'a>], start: usize) -> Self {
        let end = toks.last().map_or(start, |t| t.end);
        Cursor { toks, i: 0, end }
    }

    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.i).map(|t| t.tok)
    }

    fn column(&self) -> usize {
        self.toks.get(self.i).map_or(self.end, |t| t.column)
    }

    fn bump(&mut self) {
        self.i = (self.i + 1).min(self.toks.len());
    }

    fn eat(&mut self, tok: Tok) -> bool {
        let hit = self.peek() == Some(tok);
        if hit {
            self.bump();
        }
        hit
    }

    /// Whether the next token is glued to the previous one (no space between).
    fn glued(&self) -> bool {
        match (
            self.i.checked_sub(1).and_then(|p| self.toks.get(p)),
            self.toks.get(self.i),
        ) {
            (Some(prev), Some(next)) => prev.end == next.column,
            _ => false,
        }
    }

    /// The error for the next token (or the end of the line) when `expected` was.
    fn unexpected(&self, expected: &'static str) -> Fail {
        match self.toks.get(self.i) {
            Some(t) => (
                t.column,
                SumsErrorKind::Unexpected {
                    found: t.tok.text(),
                    expected,
                },
            ),
            None => (self.end, SumsErrorKind::UnexpectedEnd { expected }),
        }
    }
}

/// The value of an integer literal with an optional minus, if it fits in 32 bits.
fn int_value(digits: &str, negative: bool) -> Option<i64> {
    let n = i64::try_from(digits.parse::<u64>().ok()?).ok()?;
    let value = if negative { -n } else { n };
    (i64::from(i32::MIN)..=i64::from(i32::MAX))
        .contains(&value)
        .then_some(value)
}

fn out_of_range(column: usize, digits: &str, negative: bool) -> Fail {
    let sign = if negative { "-" } else { "" };
    let text = format!("{sign}{digits}");
    (column, SumsErrorKind::IntegerOutOfRange { text })
}

/// An integer, optionally negative.
fn int(cur: &mut Cursor, expected: &'static str) -> Result<i64, Fail> {
    let column = cur.column();
    let negative = cur.eat(Tok::Minus);
    let Some(Tok::Int(digits)) = cur.peek() else {
        return Err(cur.unexpected(expected));
    };
    cur.bump();
    int_value(digits, negative).ok_or_else(|| out_of_range(column, digits, negative))
}

/// One item of a value set: `lo..hi`, or a single value with `lo == hi`.
#[derive(Clone, Copy, Debug)]
struct SpecItem {
    lo: i64,
    hi: i64,
    column: usize,
}

/// A value set: integers and ranges separated by spaces or commas. May be empty.
fn spec(toks: &[Token], start: usize) -> Result<Vec<SpecItem>, Fail> {
    let mut cur = Cursor::new(toks, start);
    let mut items = Vec::new();
    let mut separated = true;
    while cur.peek().is_some() {
        if cur.eat(Tok::Comma) {
            separated = true;
            continue;
        }
        if !separated {
            // `1-3` would otherwise read as 1 and -3.
            return Err(cur.unexpected("a space or ',' between values (a range is lo..hi)"));
        }
        let column = cur.column();
        let lo = int(&mut cur, "an integer or a range lo..hi")?;
        let hi = if cur.eat(Tok::DotDot) {
            int(&mut cur, "an integer after '..'")?
        } else {
            lo
        };
        if lo > hi {
            return Err((column, SumsErrorKind::EmptyRange { lo, hi }));
        }
        items.push(SpecItem { lo, hi, column });
        separated = !cur.glued();
    }
    Ok(items)
}

/// How many distinct values the items cover; ranges may be huge, so they are merged
/// rather than listed.
fn distinct_count(items: &[SpecItem]) -> u64 {
    let mut ranges: Vec<(i64, i64)> = items.iter().map(|s| (s.lo, s.hi)).collect();
    ranges.sort_unstable();
    let mut count: u64 = 0;
    let mut covered_to: Option<i64> = None;
    for (lo, hi) in ranges {
        let lo = covered_to.map_or(lo, |c| lo.max(c + 1));
        if lo <= hi {
            // Both fit in 32 bits, so the difference fits in 64.
            count += (hi - lo + 1) as u64;
        }
        covered_to = Some(covered_to.map_or(hi, |c| c.max(hi)));
    }
    count
}

/// The value set in a short form for messages: runs of three or more as `lo..hi`.
fn describe(values: &[i64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", values[i], values[j]));
        } else {
            parts.extend(values[i..=j].iter().map(|v| v.to_string()));
        }
        i = j + 1;
    }
    parts.join(" ")
}

// ---- The parser ----

/// Where the cells came from.
#[derive(Clone, Copy, Debug)]
enum Source {
    Drawing {
        line: usize,
    },
    Grid {
        rows: usize,
        columns: usize,
        line: usize,
    },
}

impl Source {
    fn describe(&self) -> CellSource {
        match *self {
            Source::Drawing { .. } => CellSource::Drawing,
            Source::Grid { rows, columns, .. } => CellSource::Grid { rows, columns },
        }
    }
}

/// A distinct group as stated; box groups wait for the `boxes:` line.
enum Group {
    Cells(Vec<usize>),
    Boxes(Pos),
}

struct DomainDecl {
    line: usize,
    items: Vec<SpecItem>,
    cells: Vec<usize>,
}

enum OrderDecl {
    Smallest,
    Static,
    Cells(Vec<usize>),
}

struct Boxes {
    height: usize,
    width: usize,
    keyword: Pos,
    value: Pos,
}

/// A setting given once, with the line that gave it.
type Setting<T> = Option<(T, usize)>;

struct Parser<'a> {
    file: &'a str,
    /// The line being read.
    line: usize,
    name: Setting<String>,
    values: Setting<Vec<i64>>,
    source: Option<Source>,
    cells: Vec<String>,
    index: HashMap<String, usize>,
    /// Drawing positions of the cells, and where each name stands in the file.
    positions: Vec<(usize, usize)>,
    drawn_at: Vec<Pos>,
    /// The open `cells:` drawing: its header and how many rows it has so far.
    drawing: Option<(Pos, usize)>,
    boxes: Option<Boxes>,
    groups: Vec<Group>,
    domains: Vec<DomainDecl>,
    equations: Vec<Equation>,
    less: Vec<(usize, usize)>,
    symmetry: Setting<SymmetryBreak>,
    /// `generator:` lines: each generator and where its text starts.
    generators: Vec<(Generator, Pos)>,
    order: Setting<OrderDecl>,
}

impl<'a> Parser<'a> {
    fn new(file: &'a str) -> Self {
        Parser {
            file,
            line: 1,
            name: None,
            values: None,
            source: None,
            cells: Vec::new(),
            index: HashMap::new(),
            positions: Vec::new(),
            drawn_at: Vec::new(),
            drawing: None,
            boxes: None,
            groups: Vec::new(),
            domains: Vec::new(),
            equations: Vec::new(),
            less: Vec::new(),
            symmetry: None,
            generators: Vec::new(),
            order: None,
        }
    }

    fn error(&self, pos: Pos, kind: SumsErrorKind) -> SumsError {
        SumsError::Parse {
            file: self.file.to_string(),
            line: pos.line,
            column: pos.column,
            kind,
        }
    }

    /// An error on the current line.
    fn fail(&self, (column, kind): Fail) -> SumsError {
        let line = self.line;
        self.error(Pos { line, column }, kind)
    }

    fn read_line(&mut self, raw: &str, content: &str) -> Result<(), SumsError> {
        if content.trim().is_empty() {
            // A comment line is ignored everywhere; a blank line ends a drawing.
            if !raw.contains('#') {
                self.close()?;
            }
            return Ok(());
        }
        if self.drawing.is_some() {
            if !content.contains([':', '=', '<', '>']) {
                return self.drawing_row(content, 1).map_err(|f| self.fail(f));
            }
            self.close()?;
        }
        self.statement(content)
    }

    /// Ends the open drawing, if any, checking it has cells.
    fn close(&mut self) -> Result<(), SumsError> {
        match self.drawing.take() {
            Some((header, 0)) => Err(self.error(header, SumsErrorKind::EmptyDrawing)),
            _ => Ok(()),
        }
    }

    /// One row of the `cells:` drawing; `text` starts at column `start`.
    fn drawing_row(&mut self, text: &str, start: usize) -> Result<(), Fail> {
        let Some((_, row)) = self.drawing else {
            return Ok(());
        };
        let row_words = words(text, start, char::is_whitespace);
        if row_words.is_empty() {
            return Ok(());
        }
        for (word, column) in row_words {
            if !is_name(word) {
                return Err((column, SumsErrorKind::BadName { word: word.into() }));
            }
            if RESERVED.contains(&word) {
                return Err((column, SumsErrorKind::ReservedName { word: word.into() }));
            }
            if let Some(&first) = self.index.get(word) {
                let at = self.drawn_at[first];
                let kind = SumsErrorKind::DuplicateCell {
                    name: word.into(),
                    first_line: at.line,
                    first_column: at.column,
                };
                return Err((column, kind));
            }
            self.add_cell(word.to_string());
            self.positions.push((row, column - 1));
            self.drawn_at.push(Pos {
                line: self.line,
                column,
            });
        }
        self.drawing = self.drawing.map(|(header, rows)| (header, rows + 1));
        Ok(())
    }

    fn add_cell(&mut self, name: String) {
        self.index.insert(name.clone(), self.cells.len());
        self.cells.push(name);
    }

    /// A line outside the drawing: `KEYWORD: ...`, `KEYWORD ARG: ...` or a constraint.
    fn statement(&mut self, content: &str) -> Result<(), SumsError> {
        let Some((head, value)) = content.split_once(':') else {
            return self.constraint(content);
        };
        let colon = head.chars().count() + 1;
        let head_words = words(head, 1, char::is_whitespace);
        let Some(&(keyword, kw_column)) = head_words.first() else {
            return Err(self.fail((colon, SumsErrorKind::MissingKeyword)));
        };
        let at = Pos {
            line: self.line,
            column: kw_column,
        };
        let value_column = colon + 1;
        match keyword {
            "name" | "values" | "cells" | "grid" | "boxes" | "distinct" | "order" | "generator" => {
                if let Some(&(word, column)) = head_words.get(1) {
                    let kind = SumsErrorKind::Unexpected {
                        found: word.into(),
                        expected: "':' right after the keyword",
                    };
                    return Err(self.fail((column, kind)));
                }
            }
            "cage" | "domain" | "symmetry" => {}
            _ => {
                let kind = SumsErrorKind::UnknownStatement {
                    word: keyword.into(),
                };
                return Err(self.error(at, kind));
            }
        }
        // The keyword is ASCII and the first word of `head`.
        let skipped = head.len() - head.trim_start().len();
        let arg = &head[skipped + keyword.len()..];
        let arg_column = kw_column + keyword.len();
        let r = match keyword {
            "name" => self.name(at, value, value_column),
            "values" => self.values(at, value, value_column),
            "cells" => self.cells_header(at, value, value_column),
            "grid" => self.grid(at, value, value_column),
            "boxes" => self.boxes(at, value, value_column),
            "distinct" => self.distinct(value, value_column),
            "order" => self.order(at, value, value_column),
            "cage" => self.cage(arg, arg_column, value, value_column),
            "domain" => self.domain(arg, arg_column, value, value_column),
            "generator" => self.generator(value, value_column),
            _ => self.symmetry(at, arg, arg_column, value, value_column),
        };
        r.map_err(|f| self.fail(f))
    }

    /// `Duplicate` if a setting was given before.
    fn once<T>(setting: &Setting<T>, keyword: &'static str, column: usize) -> Result<(), Fail> {
        match setting {
            Some((_, first_line)) => Err((
                column,
                SumsErrorKind::Duplicate {
                    keyword,
                    first_line: *first_line,
                },
            )),
            None => Ok(()),
        }
    }

    fn name(&mut self, at: Pos, value: &str, value_column: usize) -> Result<(), Fail> {
        Self::once(&self.name, "name:", at.column)?;
        let name = value.trim();
        if name.is_empty() {
            let kind = SumsErrorKind::MissingValue {
                keyword: "name:",
                expected: "a title",
            };
            return Err((value_column, kind));
        }
        self.name = Some((name.to_string(), at.line));
        Ok(())
    }

    fn values(&mut self, at: Pos, value: &str, value_column: usize) -> Result<(), Fail> {
        Self::once(&self.values, "values:", at.column)?;
        let toks = lex(value, value_column);
        let items = spec(&toks, value_column)?;
        let Some(first) = items.first() else {
            let kind = SumsErrorKind::MissingValue {
                keyword: "values:",
                expected: "integers or ranges, as in 'values: 1..9'",
            };
            return Err((value_column, kind));
        };
        let count = distinct_count(&items);
        if count > MAX_VALUES as u64 {
            return Err((first.column, SumsErrorKind::TooManyValues { count }));
        }
        // Each range is at most MAX_VALUES long now.
        let set: BTreeSet<i64> = items.iter().flat_map(|s| s.lo..=s.hi).collect();
        self.values = Some((set.into_iter().collect(), at.line));
        Ok(())
    }

    /// Rejects a second definition of the cells.
    fn cells_once(&self, keyword: &'static str, column: usize) -> Result<(), Fail> {
        let (first, first_line) = match self.source {
            None => return Ok(()),
            Some(Source::Drawing { line }) => ("cells:", line),
            Some(Source::Grid { line, .. }) => ("grid:", line),
        };
        let kind = if first == keyword {
            SumsErrorKind::Duplicate {
                keyword,
                first_line,
            }
        } else {
            SumsErrorKind::CellsAndGrid {
                keyword,
                first,
                first_line,
            }
        };
        Err((column, kind))
    }

    fn cells_header(&mut self, at: Pos, value: &str, value_column: usize) -> Result<(), Fail> {
        self.cells_once("cells:", at.column)?;
        self.source = Some(Source::Drawing { line: at.line });
        self.drawing = Some((at, 0));
        self.drawing_row(value, value_column)
    }

    fn grid(&mut self, at: Pos, value: &str, value_column: usize) -> Result<(), Fail> {
        self.cells_once("grid:", at.column)?;
        let (rows, columns) = size(
            value,
            value_column,
            "grid:",
            "'ROWS x COLUMNS', as in 'grid: 9 x 9'",
        )?;
        self.source = Some(Source::Grid {
            rows,
            columns,
            line: at.line,
        });
        for r in 1..=rows {
            for c in 1..=columns {
                self.add_cell(format!("r{r}c{c}"));
            }
        }
        Ok(())
    }

    fn boxes(&mut self, at: Pos, value: &str, value_column: usize) -> Result<(), Fail> {
        if let Some(first) = &self.boxes {
            let kind = SumsErrorKind::Duplicate {
                keyword: "boxes:",
                first_line: first.keyword.line,
            };
            return Err((at.column, kind));
        }
        let (height, width) = size(
            value,
            value_column,
            "boxes:",
            "'HEIGHT x WIDTH', as in 'boxes: 3 x 3'",
        )?;
        let skipped = value.chars().take_while(|c| c.is_whitespace()).count();
        self.boxes = Some(Boxes {
            height,
            width,
            keyword: at,
            value: Pos {
                line: at.line,
                column: value_column + skipped,
            },
        });
        Ok(())
    }

    /// The cell called `name`, which stands at `column`.
    fn cell(&self, name: &str, column: usize) -> Result<usize, Fail> {
        if RESERVED.contains(&name) {
            return Err((column, SumsErrorKind::ReservedName { word: name.into() }));
        }
        let Some(source) = &self.source else {
            return Err((column, SumsErrorKind::CellsNotDefined));
        };
        self.index.get(name).copied().ok_or_else(|| {
            let kind = SumsErrorKind::UnknownCell {
                name: name.into(),
                cells: source.describe(),
            };
            (column, kind)
        })
    }

    /// A list of cell names, each at most once; `keyword` names the statement when
    /// the list is empty.
    fn names(
        &self,
        list: &[(&str, usize)],
        keyword: &str,
        value_column: usize,
    ) -> Result<Vec<usize>, Fail> {
        if list.is_empty() {
            let keyword = keyword.to_string();
            return Err((value_column, SumsErrorKind::EmptyList { keyword }));
        }
        let mut cells = Vec::with_capacity(list.len());
        let mut seen: HashMap<usize, usize> = HashMap::new();
        for &(word, column) in list {
            if !is_name(word) {
                return Err((column, SumsErrorKind::BadName { word: word.into() }));
            }
            let cell = self.cell(word, column)?;
            if let Some(&first_column) = seen.get(&cell) {
                let kind = SumsErrorKind::DuplicateInList {
                    name: word.into(),
                    first_column,
                };
                return Err((column, kind));
            }
            seen.insert(cell, column);
            cells.push(cell);
        }
        Ok(cells)
    }

    /// Adds a distinct group; a group of one cell constrains nothing.
    fn add_group(&mut self, cells: Vec<usize>) {
        if cells.len() >= 2 {
            self.groups.push(Group::Cells(cells));
        }
    }

    fn distinct(&mut self, value: &str, value_column: usize) -> Result<(), Fail> {
        let list = words(value, value_column, list_separator);
        let Some(&(first, _)) = list.first() else {
            let keyword = "distinct:".to_string();
            return Err((value_column, SumsErrorKind::EmptyList { keyword }));
        };
        let keywords = RESERVED.contains(&first);
        if let Some(&(word, column)) = list.iter().find(|(w, _)| RESERVED.contains(w) != keywords) {
            return Err((column, SumsErrorKind::MixedDistinct { word: word.into() }));
        }
        if !keywords {
            let cells = self.names(&list, "distinct:", value_column)?;
            self.add_group(cells);
            return Ok(());
        }
        for &(word, column) in &list {
            let (rows, columns) = match self.source {
                None => return Err((column, SumsErrorKind::CellsNotDefined)),
                _ if word == "all" => {
                    self.add_group((0..self.cells.len()).collect());
                    continue;
                }
                Some(Source::Drawing { .. }) => {
                    let what = match word {
                        "rows" => "'distinct: rows'",
                        "columns" => "'distinct: columns'",
                        _ => "'distinct: boxes'",
                    };
                    return Err((column, SumsErrorKind::NeedsGrid { what }));
                }
                Some(Source::Grid { rows, columns, .. }) => (rows, columns),
            };
            match word {
                "rows" => {
                    for r in 0..rows {
                        self.add_group((0..columns).map(|c| r * columns + c).collect());
                    }
                }
                "columns" => {
                    for c in 0..columns {
                        self.add_group((0..rows).map(|r| r * columns + c).collect());
                    }
                }
                _ => {
                    let line = self.line;
                    self.groups.push(Group::Boxes(Pos { line, column }));
                }
            }
        }
        Ok(())
    }

    fn cage(
        &mut self,
        arg: &str,
        arg_column: usize,
        value: &str,
        value_column: usize,
    ) -> Result<(), Fail> {
        let toks = lex(arg, arg_column);
        if toks.is_empty() {
            let kind = SumsErrorKind::MissingArgument {
                keyword: "cage",
                expected: "a total before ':', as in 'cage 15: a b c'",
            };
            return Err((arg_column, kind));
        }
        let mut cur = Cursor::new(&toks, arg_column);
        let total = int(&mut cur, "a total (an integer), as in 'cage 15: a b c'")?;
        if cur.peek().is_some() {
            return Err(cur.unexpected("':' after the total"));
        }
        let list = words(value, value_column, list_separator);
        let cells = self.names(&list, &format!("cage {total}:"), value_column)?;
        let mut terms: Vec<(usize, i64)> = cells.iter().map(|&c| (c, 1)).collect();
        terms.sort_unstable();
        self.add_group(cells);
        self.equations.push(Equation {
            terms,
            target: total,
        });
        Ok(())
    }

    fn domain(
        &mut self,
        arg: &str,
        arg_column: usize,
        value: &str,
        value_column: usize,
    ) -> Result<(), Fail> {
        let toks = lex(arg, arg_column);
        let items = spec(&toks, arg_column)?;
        if items.is_empty() {
            let kind = SumsErrorKind::MissingArgument {
                keyword: "domain",
                expected: "a value set before ':', as in 'domain 1..3: a b'",
            };
            return Err((arg_column, kind));
        }
        let list = words(value, value_column, list_separator);
        let cells = self.names(&list, "domain SPEC:", value_column)?;
        self.domains.push(DomainDecl {
            line: self.line,
            items,
            cells,
        });
        Ok(())
    }

    /// `generator: (a b c) (d e) complement`: disjoint cycles of cells (each cell
    /// goes to the next in its cycle, the last to the first; cells not named stay),
    /// then optionally `complement`.
    fn generator(&mut self, value: &str, value_column: usize) -> Result<(), Fail> {
        if let Some((_, line)) = &self.symmetry {
            return Err((
                value_column - 1,
                SumsErrorKind::TwoGroups { other_line: *line },
            ));
        }
        const EXPECTED: &str = "cycles of cells in parentheses, as in '(a b c) (d e)', then \
             optionally 'complement'";
        const NEXT: &str = "'(' starting a cycle, 'complement' or the end of the line";
        let mut tokens: Vec<(&str, usize)> = Vec::new();
        for (word, column) in words(value, value_column, list_separator) {
            // Parentheses stand alone or stick to names: "(a", "b)", "(a)(b".
            let mut rest = word;
            let mut at = column;
            while !rest.is_empty() {
                let cut = match rest.find(['(', ')']) {
                    Some(0) => 1,
                    Some(i) => i,
                    None => rest.len(),
                };
                tokens.push((&rest[..cut], at));
                at += rest[..cut].chars().count();
                rest = &rest[cut..];
            }
        }
        if tokens.is_empty() {
            let kind = SumsErrorKind::MissingValue {
                keyword: "generator:",
                expected: EXPECTED,
            };
            return Err((value_column, kind));
        }
        let n = self.cells.len();
        let mut image: Vec<usize> = (0..n).collect();
        let mut named = vec![false; n];
        let mut complement = false;
        let mut i = 0;
        while i < tokens.len() {
            let (token, column) = tokens[i];
            if complement {
                let kind = SumsErrorKind::Unexpected {
                    found: token.into(),
                    expected: "the end of the line after 'complement'",
                };
                return Err((column, kind));
            }
            if token == "complement" {
                complement = true;
                i += 1;
                continue;
            }
            if token != "(" {
                let kind = SumsErrorKind::Unexpected {
                    found: token.into(),
                    expected: NEXT,
                };
                return Err((column, kind));
            }
            i += 1;
            let mut cycle = Vec::new();
            loop {
                let Some(&(token, column)) = tokens.get(i) else {
                    let kind = SumsErrorKind::UnexpectedEnd {
                        expected: "a cell name or ')' closing the cycle",
                    };
                    return Err((value_column + value.chars().count(), kind));
                };
                i += 1;
                if token == ")" {
                    break;
                }
                if token == "(" {
                    let kind = SumsErrorKind::Unexpected {
                        found: token.into(),
                        expected: "a cell name or ')' closing the cycle",
                    };
                    return Err((column, kind));
                }
                if !is_name(token) {
                    return Err((column, SumsErrorKind::BadName { word: token.into() }));
                }
                let cell = self.cell(token, column)?;
                if std::mem::replace(&mut named[cell], true) {
                    let kind = SumsErrorKind::CellTwiceInGenerator { name: token.into() };
                    return Err((column, kind));
                }
                cycle.push(cell);
            }
            for (k, &c) in cycle.iter().enumerate() {
                image[c] = cycle[(k + 1) % cycle.len()];
            }
        }
        let at = Pos {
            line: self.line,
            column: tokens[0].1,
        };
        self.generators.push((Generator { image, complement }, at));
        Ok(())
    }

    fn symmetry(
        &mut self,
        at: Pos,
        arg: &str,
        arg_column: usize,
        value: &str,
        value_column: usize,
    ) -> Result<(), Fail> {
        Self::once(&self.symmetry, "symmetry", at.column)?;
        if let Some((_, pos)) = self.generators.first() {
            return Err((
                at.column,
                SumsErrorKind::TwoGroups {
                    other_line: pos.line,
                },
            ));
        }
        let toks = lex(arg, arg_column);
        if toks.is_empty() {
            let kind = SumsErrorKind::MissingArgument {
                keyword: "symmetry",
                expected: "the group order before ':', as in 'symmetry 8: a < b'",
            };
            return Err((arg_column, kind));
        }
        let mut cur = Cursor::new(&toks, arg_column);
        let column = cur.column();
        let order = int(
            &mut cur,
            "the group order (a whole number), as in 'symmetry 8:'",
        )?;
        if cur.peek().is_some() {
            return Err(cur.unexpected("':' after the group order"));
        }
        let group_order = u64::try_from(order)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or((column, SumsErrorKind::GroupOrder { value: order }))?;
        let toks = lex(value, value_column);
        let mut cur = Cursor::new(&toks, value_column);
        let mut less = Vec::new();
        if cur.peek().is_some() {
            loop {
                self.chain(&mut cur, &mut less)?;
                if cur.eat(Tok::Comma) {
                    continue;
                }
                if cur.peek().is_some() {
                    return Err(cur.unexpected("'<', '>', ',' or the end of the line"));
                }
                break;
            }
        }
        self.symmetry = Some((SymmetryBreak { group_order, less }, at.line));
        Ok(())
    }

    fn order(&mut self, at: Pos, value: &str, value_column: usize) -> Result<(), Fail> {
        Self::once(&self.order, "order:", at.column)?;
        let list = words(value, value_column, list_separator);
        let decl = match list.as_slice() {
            [] => {
                let kind = SumsErrorKind::MissingValue {
                    keyword: "order:",
                    expected: "smallest, static or every cell name in search order",
                };
                return Err((value_column, kind));
            }
            [("smallest", _)] => OrderDecl::Smallest,
            [("static", _)] => OrderDecl::Static,
            [(mode @ ("smallest" | "static"), _), (word, column), ..]
                if !self.index.contains_key(*mode) =>
            {
                let expected = if *mode == "smallest" {
                    "the end of the line after 'order: smallest'"
                } else {
                    "the end of the line after 'order: static'"
                };
                let found = word.to_string();
                return Err((*column, SumsErrorKind::Unexpected { found, expected }));
            }
            _ => {
                let cells = self.names(&list, "order:", value_column)?;
                if cells.len() < self.cells.len() {
                    let mut listed = vec![false; self.cells.len()];
                    for &c in &cells {
                        listed[c] = true;
                    }
                    let missing = listed
                        .iter()
                        .position(|&l| !l)
                        .map_or_else(String::new, |c| self.cells[c].clone());
                    let kind = SumsErrorKind::NotAPermutation {
                        listed: cells.len(),
                        cells: self.cells.len(),
                        missing,
                    };
                    return Err((list[0].1, kind));
                }
                OrderDecl::Cells(cells)
            }
        };
        self.order = Some((decl, at.line));
        Ok(())
    }

    /// A line without ':': an equation, or order constraints.
    fn constraint(&mut self, content: &str) -> Result<(), SumsError> {
        let toks = lex(content, 1);
        let has = |tok: Tok| toks.iter().any(|t| t.tok == tok);
        let mut cur = Cursor::new(&toks, 1);
        let result = if has(Tok::Eq) {
            self.equation(&mut cur).map(|e| self.equations.push(e))
        } else if has(Tok::Lt) || has(Tok::Gt) {
            let mut less = Vec::new();
            self.chain(&mut cur, &mut less).and_then(|()| {
                if cur.peek().is_some() {
                    return Err(cur.unexpected("'<', '>' or the end of the line"));
                }
                self.less.extend(less);
                Ok(())
            })
        } else {
            let first = words(content, 1, char::is_whitespace);
            let (word, column) = first.first().copied().unwrap_or((content, 1));
            Err((column, SumsErrorKind::NotAStatement { word: word.into() }))
        };
        result.map_err(|fail| {
            // `cage 15 a b c` and the like: a keyword line that forgot its ':'. Keywords
            // may name cells, so only when the line is no valid constraint.
            let first = words(content, 1, char::is_whitespace);
            match first.first() {
                Some(&(word, column))
                    if KEYWORDS.contains(&word) && !self.index.contains_key(word) =>
                {
                    let kind = SumsErrorKind::MissingColon {
                        keyword: word.into(),
                    };
                    self.fail((column + word.len(), kind))
                }
                _ => self.fail(fail),
            }
        })
    }

    /// `EXPR = EXPR`, with the cells moved left and the constants right.
    fn equation(&self, cur: &mut Cursor) -> Result<Equation, Fail> {
        let first = cur.column();
        let mut coefficients: BTreeMap<usize, i64> = BTreeMap::new();
        let mut target: i64 = 0;
        let mut any_cell = false;
        for side in [1i64, -1] {
            let mut sign = 1i64;
            loop {
                let column = cur.column();
                let (cell, n) = self.term(cur)?;
                let overflow = || (column, SumsErrorKind::Overflow);
                // A term is at most 2^31 in size, so this product cannot overflow.
                let n = side * sign * n;
                match cell {
                    Some(cell) => {
                        any_cell = true;
                        let c = coefficients.entry(cell).or_insert(0);
                        *c = c.checked_add(n).ok_or_else(overflow)?;
                    }
                    None => target = target.checked_sub(n).ok_or_else(overflow)?,
                }
                sign = match cur.peek() {
                    Some(Tok::Plus) => 1,
                    Some(Tok::Minus) => -1,
                    _ => break,
                };
                cur.bump();
            }
            if side == 1 && !cur.eat(Tok::Eq) {
                return Err(cur.unexpected("'+', '-' or '='"));
            }
        }
        if cur.peek().is_some() {
            return Err(cur.unexpected("'+', '-' or the end of the line (an equation has one '=')"));
        }
        if !any_cell {
            return Err((first, SumsErrorKind::EquationWithoutCells));
        }
        let terms: Vec<(usize, i64)> = coefficients.into_iter().filter(|t| t.1 != 0).collect();
        if terms.is_empty() {
            return Err((first, SumsErrorKind::EquationCancels));
        }
        Ok(Equation { terms, target })
    }

    /// A term: `[-] INTEGER`, `[-] NAME` or `[-] INTEGER * NAME`, as (cell, coefficient)
    /// or (None, constant).
    fn term(&self, cur: &mut Cursor) -> Result<(Option<usize>, i64), Fail> {
        let column = cur.column();
        let negative = cur.eat(Tok::Minus);
        match cur.peek() {
            Some(Tok::Int(digits)) => {
                cur.bump();
                let n = int_value(digits, negative)
                    .ok_or_else(|| out_of_range(column, digits, negative))?;
                if cur.eat(Tok::Star) {
                    let Some(Tok::Name(name)) = cur.peek() else {
                        return Err(
                            cur.unexpected("a cell name after '*' (a term is INTEGER * NAME)")
                        );
                    };
                    let cell = self.cell(name, cur.column())?;
                    cur.bump();
                    return Ok((Some(cell), n));
                }
                if let Some(Tok::Name(_)) = cur.peek() {
                    return Err(
                        cur.unexpected("'*' between the coefficient and the cell name, as in 3*x")
                    );
                }
                Ok((None, n))
            }
            Some(Tok::Name(name)) => {
                let cell = self.cell(name, cur.column())?;
                cur.bump();
                if cur.peek() == Some(Tok::Star) {
                    return Err(cur.unexpected("the coefficient before the cell name, as in 3*x"));
                }
                Ok((Some(cell), if negative { -1 } else { 1 }))
            }
            _ => Err(cur.unexpected("a term: an integer, a cell name or INTEGER * NAME")),
        }
    }

    /// `A < B`, `A > B`, chained (`a < b < c`); pushes `(smaller, larger)` pairs. Stops
    /// before the first token that is not `<` or `>` after a name.
    fn chain(&self, cur: &mut Cursor, less: &mut Vec<(usize, usize)>) -> Result<(), Fail> {
        const CELL: &str = "a cell name (an order constraint compares two cells)";
        let mut a = self.order_cell(cur, CELL)?;
        let mut any = false;
        loop {
            let is_less = match cur.peek() {
                Some(Tok::Lt) => true,
                Some(Tok::Gt) => false,
                _ if any => return Ok(()),
                _ => {
                    return Err(cur
                        .unexpected("'<' or '>' (an order constraint compares two single cells)"))
                }
            };
            cur.bump();
            let column = cur.column();
            let b = self.order_cell(cur, CELL)?;
            if a == b {
                let name = self.cells[a].clone();
                return Err((column, SumsErrorKind::SelfOrder { name }));
            }
            less.push(if is_less { (a, b) } else { (b, a) });
            a = b;
            any = true;
        }
    }

    fn order_cell(&self, cur: &mut Cursor, expected: &'static str) -> Result<usize, Fail> {
        let Some(Tok::Name(name)) = cur.peek() else {
            return Err(cur.unexpected(expected));
        };
        let cell = self.cell(name, cur.column())?;
        cur.bump();
        Ok(cell)
    }

    /// The checks that need the whole file, and the [`Model`].
    fn finish(self, end: Pos) -> Result<Model, SumsError> {
        let Some((values, _)) = &self.values else {
            return Err(self.error(end, SumsErrorKind::MissingValues));
        };
        let Some(source) = self.source else {
            return Err(self.error(end, SumsErrorKind::MissingCells));
        };
        let n = self.cells.len();
        let layout = match source {
            Source::Drawing { .. } => {
                if let Some(boxes) = &self.boxes {
                    let what = "'boxes:'";
                    return Err(self.error(boxes.keyword, SumsErrorKind::NeedsGrid { what }));
                }
                Layout::Drawing(self.positions.clone())
            }
            Source::Grid { rows, columns, .. } => {
                if let Some(b) = &self.boxes {
                    if rows % b.height != 0 || columns % b.width != 0 {
                        let kind = SumsErrorKind::BoxesDoNotDivide {
                            height: b.height,
                            width: b.width,
                            rows,
                            columns,
                        };
                        return Err(self.error(b.value, kind));
                    }
                }
                Layout::Grid {
                    rows,
                    columns,
                    boxes: self.boxes.as_ref().map(|b| (b.height, b.width)),
                }
            }
        };
        let mut groups = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            match group {
                Group::Cells(cells) => groups.push(cells.clone()),
                Group::Boxes(pos) => {
                    let (Some(b), Layout::Grid { rows, columns, .. }) = (&self.boxes, &layout)
                    else {
                        return Err(self.error(*pos, SumsErrorKind::MissingBoxes));
                    };
                    for top in (0..*rows).step_by(b.height) {
                        for left in (0..*columns).step_by(b.width) {
                            let cells: Vec<usize> = (top..top + b.height)
                                .flat_map(|r| (left..left + b.width).map(move |c| r * columns + c))
                                .collect();
                            if cells.len() >= 2 {
                                groups.push(cells);
                            }
                        }
                    }
                }
            }
        }
        let full = if values.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << values.len()) - 1
        };
        let mut domains = vec![full; n];
        for decl in &self.domains {
            let mut mask = 0u64;
            for item in &decl.items {
                // Stops at the first value outside the set, so a huge range costs at
                // most MAX_VALUES + 1 steps.
                for value in item.lo..=item.hi {
                    let Ok(bit) = values.binary_search(&value) else {
                        let kind = SumsErrorKind::ValueNotInSet {
                            value,
                            set: describe(values),
                        };
                        let pos = Pos {
                            line: decl.line,
                            column: item.column,
                        };
                        return Err(self.error(pos, kind));
                    };
                    mask |= 1 << bit;
                }
            }
            for &cell in &decl.cells {
                domains[cell] &= mask;
            }
        }
        let order = match &self.order {
            None | Some((OrderDecl::Smallest, _)) => Order::Smallest,
            Some((OrderDecl::Static, _)) => Order::Planned,
            Some((OrderDecl::Cells(cells), _)) => Order::Static(cells.clone()),
        };
        let symmetric = values.iter().zip(values.iter().rev()).all(|(a, b)| {
            i128::from(*a) + i128::from(*b)
                == i128::from(values[0]) + i128::from(values[values.len() - 1])
        });
        for (generator, pos) in &self.generators {
            if generator.complement && !symmetric {
                let kind = SumsErrorKind::NoComplement {
                    sum: values.first().map_or(0, |&v| i128::from(v))
                        + values.last().map_or(0, |&v| i128::from(v)),
                    set: describe(values),
                };
                return Err(self.error(*pos, kind));
            }
        }
        let (file, generators) = (self.file, self.generators);
        let model = Model {
            name: self.name.map(|n| n.0),
            values: values.clone(),
            cells: self.cells,
            layout,
            domains,
            groups,
            equations: self.equations,
            less: self.less,
            symmetry: self.symmetry.map(|s| s.0),
            generators: generators.iter().map(|g| g.0.clone()).collect(),
            order,
        };
        for (generator, pos) in &generators {
            if !super::automorphisms::maps_onto_itself(&model, generator) {
                return Err(SumsError::Parse {
                    file: file.to_string(),
                    line: pos.line,
                    column: pos.column,
                    kind: SumsErrorKind::NotASymmetry,
                });
            }
        }
        Ok(model)
    }
}

/// `R x C` (or `RxC`), each from 1 to [`MAX_SIDE`].
fn size(
    value: &str,
    value_column: usize,
    keyword: &'static str,
    expected: &'static str,
) -> Result<(usize, usize), Fail> {
    let text = value.trim();
    if text.is_empty() {
        return Err((
            value_column,
            SumsErrorKind::MissingValue { keyword, expected },
        ));
    }
    let column = value_column + value.chars().take_while(|c| c.is_whitespace()).count();
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some((r, c)) = compact
        .split_once(['x', 'X'])
        .filter(|(r, c)| digits(r) && digits(c))
    else {
        let text = text.to_string();
        return Err((
            column,
            SumsErrorKind::BadSize {
                keyword,
                text,
                expected,
            },
        ));
    };
    let side = |s: &str| {
        s.parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_SIDE).contains(n))
    };
    match (side(r), side(c)) {
        (Some(r), Some(c)) => Ok((r, c)),
        _ => {
            let text = text.to_string();
            Err((column, SumsErrorKind::SizeOutOfRange { keyword, text }))
        }
    }
}

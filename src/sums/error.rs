//! Errors of the `.sum` parser: where (file, line, column) and what ([`SumsErrorKind`]).
//!
//! Every message says what was found and what was expected, so that a person can fix
//! the file without reading the format reference (`docs/sums-format.md`).

use std::path::PathBuf;

use super::model::MAX_VALUES;

/// The statement keywords, for messages.
const KEYWORDS: &str =
    "name, values, cells, grid, boxes, distinct, domain, cage, symmetry, generator or order";

/// Why a `.sum` file could not be read or parsed.
///
/// `Display` gives one line, `FILE:LINE:COLUMN: message` (or `FILE: message` for I/O
/// errors). Lines and columns count from 1; a column counts characters, a tab is one.
#[derive(Debug, thiserror::Error)]
pub enum SumsError {
    /// The file could not be read.
    #[error("{}: cannot read the sums file: {source}", path.display())]
    Io {
        /// The file, as given.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is larger than any sums file read.
    #[error("{}: the file is larger than {} MiB; a sums file is read only up to that size", path.display(), crate::text::MAX_FILE_BYTES >> 20)]
    TooLarge {
        /// The file, as given.
        path: PathBuf,
    },
    /// The text is not a valid model; `line` and `column` point at the culprit.
    #[error("{file}:{line}:{column}: {kind}")]
    Parse {
        /// The file, as given (or a label for text not read from a file).
        file: String,
        /// The line, from 1.
        line: usize,
        /// The column in characters, from 1.
        column: usize,
        /// What is wrong there.
        kind: SumsErrorKind,
    },
}

impl SumsError {
    /// What went wrong, for a parse error.
    pub fn kind(&self) -> Option<&SumsErrorKind> {
        match self {
            SumsError::Io { .. } | SumsError::TooLarge { .. } => None,
            SumsError::Parse { kind, .. } => Some(kind),
        }
    }

    /// `(line, column)` of a parse error, both counted from 1.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            SumsError::Io { .. } | SumsError::TooLarge { .. } => None,
            SumsError::Parse { line, column, .. } => Some((*line, *column)),
        }
    }
}

/// Where the cells of a model come from, so that an unknown name can say what the
/// known names look like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellSource {
    /// The `cells:` drawing.
    Drawing,
    /// A `grid: R x C` line.
    Grid {
        /// Rows of the grid.
        rows: usize,
        /// Columns of the grid.
        columns: usize,
    },
}

impl std::fmt::Display for CellSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellSource::Drawing => write!(f, "the cells are named in the cells: drawing"),
            CellSource::Grid { rows, columns } => {
                write!(f, "the grid's cells are r1c1 .. r{rows}c{columns}")
            }
        }
    }
}

/// What is wrong at a position of a `.sum` file.
///
/// Words quoted from the file are escaped (`'\u{7}'`), so a message stays on one line.
// Each variant's `#[error]` message is its documentation: what was found and what
// was expected. Repeating it in a doc comment would only let the two drift apart.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SumsErrorKind {
    #[error("invalid UTF-8 (byte 0x{byte:02X}); expected a UTF-8 text file")]
    NotUtf8 { byte: u8 },

    #[error(
        "unknown statement '{}'; expected a keyword ({KEYWORDS}) before ':'",
        .word.escape_debug()
    )]
    UnknownStatement { word: String },

    #[error("nothing before ':'; expected a keyword ({KEYWORDS})")]
    MissingKeyword,

    #[error(
        "missing ':' after '{keyword}'; expected '{keyword}: ...' (a line without ':' is a \
         constraint with '=', '<' or '>')"
    )]
    MissingColon { keyword: String },

    #[error(
        "'{}' starts neither a statement nor a constraint; expected 'KEYWORD: ...' or a \
         constraint with '=', '<' or '>'",
        .word.escape_debug()
    )]
    NotAStatement { word: String },

    #[error("unexpected '{}'; expected {expected}", .found.escape_debug())]
    Unexpected {
        found: String,
        expected: &'static str,
    },

    #[error("the line ends too early; expected {expected}")]
    UnexpectedEnd { expected: &'static str },

    #[error("missing value after '{keyword}'; expected {expected}")]
    MissingValue {
        keyword: &'static str,
        expected: &'static str,
    },

    #[error("missing argument after '{keyword}'; expected {expected}")]
    MissingArgument {
        keyword: &'static str,
        expected: &'static str,
    },

    #[error(
        "'{}' is not a cell name; expected a letter followed by letters, digits or '_'",
        .word.escape_debug()
    )]
    BadName { word: String },

    #[error(
        "'{word}' cannot name a cell (all, rows, columns and boxes are reserved for \
         'distinct:'); expected a cell name"
    )]
    ReservedName { word: String },

    #[error(
        "cell '{name}' is drawn twice (first at line {first_line}, column {first_column}); \
         expected each name once"
    )]
    DuplicateCell {
        name: String,
        first_line: usize,
        first_column: usize,
    },

    #[error(
        "the cells: drawing has no cells; expected cell names after 'cells:' or on the \
         lines right below it"
    )]
    EmptyDrawing,

    #[error("unknown cell '{name}' ({cells})")]
    UnknownCell { name: String, cells: CellSource },

    #[error(
        "cell names are used before the cells: drawing; expected 'cells:' or 'grid:' \
         above this line"
    )]
    CellsNotDefined,

    #[error(
        "cell '{name}' is listed twice (first at column {first_column}); expected each \
         cell once"
    )]
    DuplicateInList { name: String, first_column: usize },

    #[error("no cell names after '{keyword}'; expected at least one")]
    EmptyList { keyword: String },

    #[error(
        "'{}' mixes cell names with all, rows, columns or boxes; expected either cell \
         names only or those keywords only",
        .word.escape_debug()
    )]
    MixedDistinct { word: String },

    #[error(
        "{what} needs 'grid:'; the cells come from a cells: drawing, which has no rows, \
         columns or boxes"
    )]
    NeedsGrid { what: &'static str },

    #[error("'distinct: boxes' needs the box size; expected a 'boxes: HEIGHT x WIDTH' line")]
    MissingBoxes,

    #[error("value {value} is not in the value set ({set}); expected values of 'values:'")]
    ValueNotInSet { value: i64, set: String },

    #[error(
        "the value set has {count} values; expected at most {MAX_VALUES} (a cell's domain \
         is one 64-bit mask)"
    )]
    TooManyValues { count: u64 },

    #[error("empty range {lo}..{hi}; expected lo..hi with lo <= hi")]
    EmptyRange { lo: i64, hi: i64 },

    #[error(
        "integer {} does not fit in 32 bits; expected -2147483648 to 2147483647",
        .text.escape_debug()
    )]
    IntegerOutOfRange { text: String },

    #[error(
        "the equation's numbers overflow 64-bit arithmetic; expected smaller coefficients \
         and constants"
    )]
    Overflow,

    #[error("the equation has no cell; expected at least one cell name")]
    EquationWithoutCells,

    #[error(
        "the cells of the equation cancel out (every coefficient sums to 0); expected at \
         least one cell with a non-zero coefficient"
    )]
    EquationCancels,

    #[error("cell '{name}' is compared with itself; expected two different cells")]
    SelfOrder { name: String },

    #[error(
        "malformed size '{}' after '{keyword}'; expected {expected}",
        .text.escape_debug()
    )]
    BadSize {
        keyword: &'static str,
        text: String,
        expected: &'static str,
    },

    #[error(
        "size '{}' after '{keyword}' is out of range; expected 1 to 32 each way",
        .text.escape_debug()
    )]
    SizeOutOfRange { keyword: &'static str, text: String },

    #[error(
        "boxes of {height} x {width} do not tile the {rows} x {columns} grid; expected a \
         height dividing {rows} and a width dividing {columns}"
    )]
    BoxesDoNotDivide {
        height: usize,
        width: usize,
        rows: usize,
        columns: usize,
    },

    #[error(
        "symmetry group order {value}; expected a whole number of at least 1 (1: no symmetry)"
    )]
    GroupOrder { value: i64 },

    #[error("cell '{name}' appears twice in one generator; expected each cell at most once")]
    CellTwiceInGenerator { name: String },

    #[error(
        "'complement' maps v to {sum} - v, which does not map the value set {set} onto \
         itself; expected values symmetric about their middle"
    )]
    NoComplement { sum: i128, set: String },

    #[error(
        "this generator does not map the model onto itself (an equation, distinct group, \
         order constraint or domain has no image among the model's); expected a symmetry"
    )]
    NotASymmetry,

    #[error(
        "'generator:' and 'symmetry N:' both declare the group (the other is on line \
         {other_line}); expected one of them"
    )]
    TwoGroups { other_line: usize },

    #[error(
        "duplicate '{keyword}' statement (the first is on line {first_line}); expected at \
         most one"
    )]
    Duplicate {
        keyword: &'static str,
        first_line: usize,
    },

    #[error(
        "'{keyword}' after '{first}' on line {first_line}; expected either a cells: drawing \
         or a grid, not both"
    )]
    CellsAndGrid {
        keyword: &'static str,
        first: &'static str,
        first_line: usize,
    },

    #[error("missing 'values:'; expected a value set such as 'values: 1..9'")]
    MissingValues,

    #[error(
        "missing 'cells:' or 'grid:'; expected a cells: drawing or a line such as 'grid: 9 x 9'"
    )]
    MissingCells,

    #[error(
        "'order:' lists {listed} of the {cells} cells ('{missing}' is missing); expected \
         every cell exactly once"
    )]
    NotAPermutation {
        listed: usize,
        cells: usize,
        missing: String,
    },
}

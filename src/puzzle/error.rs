//! Errors of the puzzle parser: where (file, line, column) and what ([`PuzzleErrorKind`]).
//!
//! Every message says what was found and what was expected, so that a person can fix
//! the file without reading the format reference.

use std::path::PathBuf;

use crate::grid::Grid;

/// Why a puzzle file could not be read or parsed.
///
/// `Display` gives one line, `FILE:LINE:COLUMN: message` (or `FILE: message` for I/O
/// errors). Lines and columns count from 1; a column counts characters, a tab is one.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    /// The file could not be read.
    #[error("{}: cannot read the puzzle file: {source}", path.display())]
    Io {
        /// The file, as given.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is larger than any puzzle file read.
    #[error("{}: the file is larger than {} MiB; a puzzle file is read only up to that size", path.display(), crate::text::MAX_FILE_BYTES >> 20)]
    TooLarge {
        /// The file, as given.
        path: PathBuf,
    },
    /// The text is not a valid puzzle; `line` and `column` point at the culprit.
    #[error("{file}:{line}:{column}: {kind}")]
    Parse {
        /// The file, as given (or a label for text not read from a file).
        file: String,
        /// The line, from 1.
        line: usize,
        /// The column in characters, from 1.
        column: usize,
        /// What is wrong there.
        kind: PuzzleErrorKind,
    },
}

impl PuzzleError {
    /// What went wrong, for a parse error.
    pub fn kind(&self) -> Option<&PuzzleErrorKind> {
        match self {
            PuzzleError::Io { .. } | PuzzleError::TooLarge { .. } => None,
            PuzzleError::Parse { kind, .. } => Some(kind),
        }
    }

    /// `(line, column)` of a parse error, both counted from 1.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            PuzzleError::Io { .. } | PuzzleError::TooLarge { .. } => None,
            PuzzleError::Parse { line, column, .. } => Some((*line, *column)),
        }
    }
}

/// Which drawing a character or a problem belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// The board.
    Board,
    /// A piece, by name.
    Piece(String),
}

impl Drawing {
    /// The characters that mark a cell in this drawing, for messages.
    fn cells(&self) -> String {
        match self {
            Drawing::Piece(name) if name.chars().count() == 1 && name != "x" && name != "X" => {
                format!("'x', 'X' or '{name}'")
            }
            _ => "'x' or 'X'".to_string(),
        }
    }
}

impl std::fmt::Display for Drawing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drawing::Board => write!(f, "board drawing"),
            Drawing::Piece(name) => write!(f, "drawing of piece {name}"),
        }
    }
}

fn grid_hint(grid: &Grid) -> &'static str {
    match grid {
        Grid::Square => "square cells join across an edge",
        Grid::Hex => {
            "hex cells join across a side; odd rows (the 2nd, 4th, ... line of a drawing) \
             sit half a cell east of even rows"
        }
        Grid::Triangle => {
            "triangles join across a side: in a row, each touches the cells beside it; \
             an even column (pointing down) also touches the odd column after it in the \
             row above, an odd column (pointing up) the even column before it in the row \
             below"
        }
        Grid::Cubic => {
            "cubes join across a face: beside each other in a layer, or at the same row \
             and column of the layers before and after (layers are separated by a line \
             of '-')"
        }
    }
}

/// How a cell of `grid` is written as coordinates, for messages.
fn coordinate_form(grid: &Grid) -> &'static str {
    match grid {
        Grid::Square => "(x, y): column, row",
        Grid::Hex => "(q, r): axial, the row r and q = column - floor(r / 2)",
        Grid::Triangle => "(a, b, 0) or (a, b, 1): row b, column 2a or 2a + 1",
        Grid::Cubic => "(x, y, z): column, row, layer",
    }
}

/// What is wrong at a position of a puzzle file.
// Each variant's `#[error]` message is its documentation: what was found and what
// was expected. Repeating it in a doc comment would only let the two drift apart.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleErrorKind {
    #[error("invalid UTF-8 (byte 0x{byte:02X}); expected a UTF-8 text file")]
    NotUtf8 { byte: u8 },

    #[error(
        "unknown character {ch:?} in the {drawing}; expected a cell {}, a hole '.', or a space",
        .drawing.cells()
    )]
    UnknownCharacter { ch: char, drawing: Drawing },

    #[error("the {drawing} mixes drawing lines and coordinate lines; expected one or the other")]
    MixedForms { drawing: Drawing },

    #[error(
        "malformed coordinates in the {drawing}; expected cells as tuples of whole numbers \
         separated by commas, such as (0, 0) (1, 0)"
    )]
    BadCoordinates { drawing: Drawing },

    #[error(
        "coordinate '{text}' is out of range; expected a whole number from -{max} to {max}",
        max = super::parse::MAX_COORDINATE
    )]
    CoordinateRange { text: String },

    #[error(
        "({}) is no cell of the {} grid; expected {}",
        .values.iter().map(i32::to_string).collect::<Vec<_>>().join(", "),
        .grid.name(),
        coordinate_form(.grid)
    )]
    BadCell { values: Vec<i32>, grid: Grid },

    #[error(
        "this cell is listed twice in the {drawing} (first at line {first_line}, column \
         {first_column}); expected each cell once"
    )]
    RepeatedCell {
        drawing: Drawing,
        first_line: usize,
        first_column: usize,
    },

    #[error(
        "unknown keyword '{word}'; expected name, grid, leftover, motion, split, first, board \
         or piece"
    )]
    UnknownKeyword { word: String },

    #[error(
        "expected a keyword (name, grid, leftover, motion, split, first, board or piece) \
         before ':'"
    )]
    MissingKeyword,

    #[error("expected ':' after '{text}'")]
    MissingColon { text: String },

    #[error(
        "expected a line 'KEYWORD: ...' (name, grid, leftover, motion, split, first, board \
         or piece); a drawing must follow its 'board:' or 'piece NAME:' line with no blank \
         line between"
    )]
    StrayLine,

    #[error("unknown grid '{word}'; expected square, hex, triangle or cubic")]
    UnknownGrid { word: String },

    #[error(
        "a layer separator (a line of '-') in a drawing on the {} grid; expected drawing \
         lines of one layer ('grid: cubic' has layers)",
        .grid.name()
    )]
    PlanarLayers { grid: Grid },

    #[error("unknown motion '{word}'; expected free, one-sided, fixed or mirror")]
    UnknownMotion { word: String },

    #[error("unknown leftover setting '{word}'; expected allowed or forbidden")]
    UnknownLeftover { word: String },

    #[error(
        "bad split setting '{text}'; expected auto, off, or rows increasing from 1 \
         separated by commas, such as 4,5,6"
    )]
    BadSplit { text: String },

    #[error(
        "unknown piece option '{word}'; expected a motion (free, one-sided, fixed or \
         mirror) or 'count N'"
    )]
    UnknownPieceOption { word: String },

    #[error("the motion of piece {name} is given twice; expected at most one of free, one-sided, fixed or mirror")]
    DuplicateMotion { name: String },

    #[error("the count of piece {name} is given twice; expected at most one 'count N'")]
    DuplicateCount { name: String },

    #[error(
        "missing count after 'count'; expected a whole number from 1 to {}",
        u32::MAX
    )]
    MissingCount,

    #[error(
        "malformed count '{text}'; expected a whole number from 1 to {}",
        u32::MAX
    )]
    BadCount { text: String },

    #[error("missing value after '{keyword}:'; expected {expected}")]
    MissingValue {
        keyword: String,
        expected: &'static str,
    },

    #[error("unexpected '{word}'; expected {expected}")]
    Unexpected {
        word: String,
        expected: &'static str,
    },

    #[error("'first: {name}' names no piece of the file; expected the name of a piece")]
    UnknownFirstPiece { name: String },

    #[error(
        "'first: {name}' names a piece with {count} copies; expected a piece with one copy \
         (the search keeps one placement per orbit of the piece placed first)"
    )]
    FirstPieceCopies { name: String, count: u32 },

    #[error(
        "'first: {name}' with 'leftover: allowed'; expected no 'first:' line (the piece \
         placed first might be one left over)"
    )]
    FirstWithLeftover { name: String },

    #[error("duplicate '{keyword}:' line (the first is on line {first_line}); expected one")]
    Duplicate { keyword: String, first_line: usize },

    #[error("missing piece name after 'piece'; expected 'piece NAME:'")]
    MissingName,

    #[error("piece name '{name}' contains '.'; expected a name without '.', ':', '#' or spaces")]
    BadName { name: String },

    #[error(
        "duplicate piece name '{name}' (the first piece {name} is on line {first_line}); \
         expected unique names"
    )]
    DuplicateName { name: String, first_line: usize },

    #[error("empty {drawing}; expected drawing lines right after this line")]
    EmptyDrawing { drawing: Drawing },

    #[error("the {drawing} has no cells; expected at least one cell {}", .drawing.cells())]
    NoCells { drawing: Drawing },

    #[error(
        "the board is {width} columns by {height} rows{}; expected at most {} cells in its \
         box",
        if *.depth > 1 { format!(" by {depth} layers") } else { String::new() },
        super::MAX_BOARD_CELLS
    )]
    BoardTooLarge {
        width: usize,
        height: usize,
        depth: usize,
    },

    #[error(
        "piece {name} is not connected: this cell is not joined to the cell at line \
         {other_line}, column {other_column}; expected one connected shape ({})",
        grid_hint(.grid)
    )]
    NotConnected {
        name: String,
        grid: Grid,
        other_line: usize,
        other_column: usize,
    },

    #[error(
        "missing 'grid:' line; expected 'grid: square', 'grid: hex', 'grid: triangle' or \
         'grid: cubic'"
    )]
    MissingGrid,

    #[error("missing board; expected a 'board:' line followed by its drawing")]
    MissingBoard,

    #[error("no pieces; expected at least one 'piece NAME:' line followed by its drawing")]
    NoPieces,

    #[error(
        "piece {name} has {cells} cells but the board has only {board}; expected pieces that fit"
    )]
    PieceTooLarge {
        name: String,
        cells: usize,
        board: usize,
    },

    #[error(
        "the pieces cover {pieces} cells but the board has {board}; expected equal areas \
         (or 'leftover: allowed' if pieces may be left over)"
    )]
    AreaMismatch { pieces: u64, board: usize },

    #[error(
        "the pieces cover {pieces} cells but the board has {board}; expected at least as \
         many piece cells as board cells"
    )]
    TooFewPieceCells { pieces: u64, board: usize },
}

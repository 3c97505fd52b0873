//! Puzzle files: a text format a person writes by hand, its parser, and its errors.
//!
//! This module owns the format (`docs/puzzle-format.md` is the full reference) and
//! turns a file into a [`Puzzle`]: a grid, a [`Board`] and a list of [`Piece`]s in the
//! generator's types. It knows nothing of tables or the search, except to carry two
//! hints a file may give it: the rows its search splits before (`split:`, a
//! [`Splitting`] the solver takes as its default) and the piece it places first
//! (`first:`).
//!
//! ```text
//! # Comments start with '#'.
//! name: pentomino-3x20       # optional; default: the file name without extension
//! grid: square               # square, hex, triangle or cubic
//! leftover: forbidden        # optional; 'allowed' lets pieces cover more than the board
//! motion: free               # optional default for pieces: free, one-sided, fixed, mirror
//! split: auto                # optional: auto, off, or rows such as 4,5,6 (no measuring)
//! first: P                   # optional: the piece restricted by symmetry, placed first
//!
//! board:                     # the drawing follows, up to a blank line
//! xxx
//! xxx
//!
//! piece P: one-sided count 2 # name, then optional motion and 'count N'
//! xx
//! x.
//! ```
//!
//! In drawings `x` or `X` is a cell, `.` a hole, and whitespace is ignored: each
//! non-blank character is one column. A piece drawing may also use the piece's name as
//! its cell character when the name is one character long.
//!
//! Drawings are read as rows of columns, the first drawn line being row 0. On the hex
//! grid odd rows are shifted half a cell east. On the cubic grid a line of `-` starts
//! the next layer, on top of the one before (layer 0, drawn first, is the bottom), and
//! rows count from 0 again in each layer. `(row, col)` of layer `layer` becomes the
//! lattice point [`Grid::lattice`]`(layer, row, col)`, exactly as the engine numbers
//! board cells.
//!
//! ```
//! let text = "grid: square\nboard:\nxxx\nxxx\n\npiece L:\nxx\nx.\n\npiece I: fixed\nxxx\n";
//! let puzzle = polytile::Puzzle::parse(text, "tiny.puz").unwrap();
//! assert_eq!(puzzle.name, "tiny");
//! assert_eq!((puzzle.board.width, puzzle.board.height), (3, 2));
//! assert_eq!(puzzle.pieces[0].cells, vec![(0, 0, 0), (1, 0, 0), (0, 1, 0)]);
//!
//! let err = polytile::Puzzle::parse("grid: hexagon\n", "bad.puz").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "bad.puz:1:7: unknown grid 'hexagon'; expected square, hex, triangle or cubic"
//! );
//! ```

mod error;
mod parse;

use std::path::Path;

pub use error::{Drawing, PuzzleError, PuzzleErrorKind};

use crate::grid::{Board, Grid, Motion, Piece};
use crate::text::ReadError;
use crate::tiling::Splitting;

/// The largest board rectangle (width times height, holes included) the parser accepts.
pub const MAX_BOARD_CELLS: usize = 1_000_000;

/// A tiling puzzle: pieces to place on a board.
///
/// What the parser guarantees: the board has at least one cell; every piece has a
/// unique name without whitespace, `.`, `:` or `#`, at least one cell, at most as many
/// cells as the board, is connected, has `count >= 1`, and its cells are
/// [`normalise`](crate::grid::normalise)d lattice points; the pieces' total area (cells
/// times count) equals the board's, or exceeds it when `allow_leftover`. A puzzle built
/// in code is checked by [`crate::TilingSolver::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name: the file's `name:`, or the file name without extension.
    pub name: String,
    /// The board: the smallest rectangle holding the drawn cells (on the hex grid it
    /// starts on an even drawn row), row 0 = the first drawn line.
    pub board: Board,
    /// In file order.
    pub pieces: Vec<Piece>,
    /// Whether the pieces may cover more cells than the board has (some are left over).
    pub allow_leftover: bool,
    /// Where the search splits unless told otherwise: the file's `split:` statement
    /// (`auto`, `off`, or rows as [`Splitting::Stated`]); [`Splitting::Auto`] without
    /// one.
    pub split: Splitting,
    /// The piece (by index) the file's `first:` statement says the search restricts by
    /// the board's symmetries and places first, rather than the solver choosing it.
    pub first: Option<usize>,
}

impl Puzzle {
    /// A puzzle of `pieces` on `board` that uses every piece.
    pub fn new(name: &str, board: Board, pieces: Vec<Piece>) -> Puzzle {
        Puzzle {
            name: name.to_string(),
            board,
            pieces,
            allow_leftover: false,
            split: Splitting::Auto,
            first: None,
        }
    }

    /// Parses the text of a puzzle file; `file` names it in error messages.
    pub fn parse(text: &str, file: &str) -> Result<Puzzle, PuzzleError> {
        parse::parse(text, file)
    }

    /// Parses the bytes of a puzzle file, which must be UTF-8; `file` names it in
    /// error messages (a bad byte is reported at its line and column).
    pub fn parse_bytes(bytes: &[u8], file: &str) -> Result<Puzzle, PuzzleError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Puzzle::parse(text, file),
            Err(e) => {
                let (line, column, byte) = crate::text::utf8_error_at(bytes, &e);
                Err(PuzzleError::Parse {
                    file: file.to_string(),
                    line,
                    column,
                    kind: PuzzleErrorKind::NotUtf8 { byte },
                })
            }
        }
    }

    /// Reads and parses a puzzle file of at most [`crate::text::MAX_FILE_BYTES`].
    /// Errors name the file as `path` is written.
    pub fn load(path: &Path) -> Result<Puzzle, PuzzleError> {
        let bytes = crate::text::read_bounded(path).map_err(|e| match e {
            ReadError::Io(source) => PuzzleError::Io {
                path: path.to_path_buf(),
                source,
            },
            ReadError::TooLarge => PuzzleError::TooLarge {
                path: path.to_path_buf(),
            },
        })?;
        Puzzle::parse_bytes(&bytes, &path.display().to_string())
    }

    /// One distinct character per piece, for drawing solutions as text: the first
    /// character of the piece's name, unless an earlier piece already has it; then the
    /// first of `A..Z`, `a..z`, `0..9` that is neither a label nor the first character
    /// of any name. All copies of a piece (`count > 1`) share its label.
    pub fn labels(&self) -> Vec<char> {
        let firsts: Vec<Option<char>> = self.pieces.iter().map(|p| p.name.chars().next()).collect();
        let mut labels: Vec<Option<char>> = vec![None; self.pieces.len()];
        for (i, &f) in firsts.iter().enumerate() {
            if f.is_some() && !labels.contains(&f) {
                labels[i] = f;
            }
        }
        let mut spare = ('A'..='Z')
            .chain('a'..='z')
            .chain('0'..='9')
            .chain((0xC0..0x2FF).filter_map(char::from_u32));
        for i in 0..labels.len() {
            if labels[i].is_none() {
                labels[i] = spare
                    .by_ref()
                    .find(|c| !labels.contains(&Some(*c)) && !firsts.contains(&Some(*c)));
            }
        }
        labels.into_iter().map(|l| l.unwrap_or('?')).collect()
    }

    /// The puzzle in the file format; parsing it gives back an equal puzzle (for any
    /// puzzle [`parse`] returned). Pieces are drawn with `x`, hex rows with a space
    /// between cells and odd rows indented by one.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let grid = self.board.grid;
        out.push_str(&format!("name: {}\ngrid: {}\n", self.name, grid.name()));
        if self.allow_leftover {
            out.push_str("leftover: allowed\n");
        }
        if self.split != Splitting::Auto {
            out.push_str(&format!("split: {}\n", self.split));
        }
        if let Some(first) = self.first {
            out.push_str(&format!("first: {}\n", self.pieces[first].name));
        }
        out.push_str("\nboard:\n");
        let width = self.board.width.max(1);
        let layers: Vec<Vec<Vec<bool>>> = self
            .board
            .cells
            .chunks(width * self.board.height.max(1))
            .map(|layer| layer.chunks(width).map(<[bool]>::to_vec).collect())
            .collect();
        draw(&mut out, grid, &layers);
        for piece in &self.pieces {
            out.push_str(&format!("\npiece {}:", piece.name));
            if piece.motion != Motion::Free {
                out.push_str(&format!(" {}", piece.motion.name()));
            }
            if piece.count != 1 {
                out.push_str(&format!(" count {}", piece.count));
            }
            out.push('\n');
            draw(&mut out, grid, &piece_layers(grid, piece));
        }
        out
    }
}

/// A piece's cells as drawing layers of rows, from an even row (hex) and an even
/// column (triangle), as the parser reads a piece drawing.
fn piece_layers(grid: Grid, piece: &Piece) -> Vec<Vec<Vec<bool>>> {
    let cells: Vec<(i32, i32, i32)> = piece.cells.iter().filter_map(|&p| grid.drawn(p)).collect();
    let low = |f: fn(&(i32, i32, i32)) -> i32| cells.iter().map(f).min().unwrap_or(0);
    let (first, top, left) = (low(|c| c.0), low(|c| c.1), low(|c| c.2));
    let top = top - top.rem_euclid(2);
    let left = match grid {
        Grid::Triangle => left - left.rem_euclid(2),
        Grid::Square | Grid::Hex | Grid::Cubic => left,
    };
    let size = |f: fn(&(i32, i32, i32)) -> i32, from: i32| {
        cells.iter().map(|c| f(c) - from + 1).max().unwrap_or(0) as usize
    };
    let (depth, height, width) = (
        size(|c| c.0, first),
        size(|c| c.1, top),
        size(|c| c.2, left),
    );
    let mut layers = vec![vec![vec![false; width]; height]; depth];
    for (l, r, c) in cells {
        layers[(l - first) as usize][(r - top) as usize][(c - left) as usize] = true;
    }
    layers
}

/// Layers of rows as drawing lines, layers separated by a line `-`.
fn draw(out: &mut String, grid: Grid, layers: &[Vec<Vec<bool>>]) {
    for (l, rows) in layers.iter().enumerate() {
        if l > 0 {
            out.push_str("-\n");
        }
        draw_layer(out, grid, rows);
    }
}

fn draw_layer(out: &mut String, grid: Grid, rows: &[Vec<bool>]) {
    for (r, row) in rows.iter().enumerate() {
        let marks = row.iter().map(|&c| if c { 'x' } else { '.' });
        let line: String = match grid {
            Grid::Square | Grid::Triangle | Grid::Cubic => marks.collect(),
            Grid::Hex => {
                let indent = if r % 2 == 1 { " " } else { "" };
                let cells: Vec<String> = marks.map(String::from).collect();
                format!("{indent}{}", cells.join(" "))
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
}

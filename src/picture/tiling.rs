//! Tilings drawn: each board cell filled with its piece's colour, thick lines between
//! pieces and on the board's edge, thin ones inside a piece, holes left blank, and the
//! piece's label on the cell nearest its middle. Several solutions make a sheet, each
//! titled with its number.
//!
//! ```
//! use polytile::{picture, Puzzle};
//!
//! let text = "grid: square\nboard:\nxxx\nxxx\n\npiece A:\nxx\nx.\n\npiece B:\nxx\nx.\n";
//! let puzzle = Puzzle::parse(text, "tiny.puz")?;
//! let tiling = vec![Some(0), Some(0), Some(1), Some(0), Some(1), Some(1)];
//! let pic = picture::tiling::tilings(&puzzle, &[tiling], picture::tiling::Style::default());
//! assert!(pic.svg.starts_with("<svg"));
//! assert_eq!(pic.centres[0].len(), 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;

use super::shape::{self, Xy};
use super::{finish, piece_colour, sheet, Anchor, Cell, Panel, Picture, Text, INK};
use crate::grid::{orientations, Board};
use crate::puzzle::Puzzle;
use crate::tiling::Tiling;

/// What a tiling picture shows besides the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Each piece's label (`Puzzle::labels`) on it.
    pub labels: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style { labels: true }
    }
}

/// Label size, in pixels of a capital letter.
const LABEL: f64 = 13.0;

/// The tilings of `puzzle` (each as [`Tiling`]: a piece index per board cell, `None`
/// for holes) on one sheet, titled `solution 1`, `solution 2`, ... when there are
/// several.
pub fn tilings(puzzle: &Puzzle, tilings: &[Tiling], style: Style) -> Picture {
    let labels = puzzle.labels();
    let panels: Vec<Panel> = tilings
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut panel = panel(puzzle, t, style, &labels);
            if tilings.len() > 1 {
                panel.title = Some(format!("solution {}", i + 1));
            }
            panel
        })
        .collect();
    finish(sheet(&panels, (0.0, 0.0)).0)
}

/// One tiling as a panel.
fn panel(puzzle: &Puzzle, tiling: &Tiling, style: Style, labels: &[char]) -> Panel {
    let board = &puzzle.board;
    let grid = board.grid;
    let copies = copies(puzzle, tiling);
    let mut cells = Vec::new();
    // The piece of each cell pushed, as the label needs it.
    let mut pieces = Vec::new();
    for (i, (&piece, &copy)) in tiling.iter().zip(&copies).enumerate() {
        let Some(piece) = piece else { continue };
        pieces.push(piece);
        cells.push(Cell {
            at: shape::at(board, i),
            fill: piece_colour(piece.into()).to_string(),
            region: copy,
            cage: None,
        });
    }
    let mut texts = Vec::new();
    if style.labels {
        let regions: BTreeSet<usize> = cells.iter().map(|c| c.region).collect();
        for region in regions {
            let members: Vec<(&Cell, u16)> = cells
                .iter()
                .zip(&pieces)
                .filter(|(c, _)| c.region == region)
                .map(|(c, &p)| (c, p))
                .collect();
            let centres: Vec<Xy> = members
                .iter()
                .map(|(c, _)| shape::centre(grid, c.at.0, c.at.1))
                .collect();
            let n = centres.len() as f64;
            let mid = centres
                .iter()
                .fold((0.0, 0.0), |(x, y), c| (x + c.0 / n, y + c.1 / n));
            let dist = |c: &Xy| (c.0 - mid.0).powi(2) + (c.1 - mid.1).powi(2);
            let best = centres
                .iter()
                .min_by(|a, b| dist(a).total_cmp(&dist(b)))
                .expect("a region has cells");
            if let Some(&label) = labels.get(usize::from(members[0].1)) {
                texts.push(Text {
                    text: label.to_string(),
                    at: *best,
                    size: LABEL,
                    anchor: Anchor::Centre,
                    colour: INK,
                    backdrop: None,
                });
            }
        }
    }
    Panel {
        grid,
        cells,
        texts,
        title: None,
    }
}

/// A region number per cell: the copy of its piece that covers it. A tiling names
/// pieces, not copies, so touching copies of one piece are told apart here by tiling
/// each connected patch of a piece with that piece's shape again (lowest cell first,
/// as the search does); a patch that cannot be split stays one region.
fn copies(puzzle: &Puzzle, tiling: &Tiling) -> Vec<usize> {
    let board = &puzzle.board;
    let mut region = vec![usize::MAX; tiling.len()];
    let mut next = 0;
    for start in 0..tiling.len() {
        let Some(piece) = tiling[start] else { continue };
        if region[start] != usize::MAX {
            continue;
        }
        // The connected patch of this piece around `start`.
        let mut patch = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(c) = todo.pop() {
            for n in board.neighbours(c) {
                if tiling[n] == Some(piece) && patch.insert(n) {
                    todo.push(n);
                }
            }
        }
        let spec = &puzzle.pieces[usize::from(piece)];
        let shapes = orientations(board.grid, &spec.cells, spec.motion);
        let parts = if patch.len() > spec.cells.len() {
            split(board, &shapes, patch.clone()).unwrap_or_else(|| vec![patch])
        } else {
            vec![patch]
        };
        for part in parts {
            for c in part {
                region[c] = next;
            }
            next += 1;
        }
    }
    region
}

/// `patch` cut into placements of one of `shapes`, lowest cell first; `None` if it
/// cannot be.
fn split(
    board: &Board,
    shapes: &[Vec<crate::Point>],
    patch: BTreeSet<usize>,
) -> Option<Vec<BTreeSet<usize>>> {
    let Some(&low) = patch.first() else {
        return Some(Vec::new());
    };
    for shape in shapes {
        let Some(cells) = board.cells_at(shape, low) else {
            continue;
        };
        if !cells.iter().all(|c| patch.contains(c)) {
            continue;
        }
        let rest: BTreeSet<usize> = patch
            .difference(&cells.iter().copied().collect())
            .copied()
            .collect();
        if let Some(mut parts) = split(board, shapes, rest) {
            parts.insert(0, cells.into_iter().collect());
            return Some(parts);
        }
    }
    None
}

//! The search as a movie: an animated SVG of a [`Trace`], each piece appearing when the
//! search places it and vanishing when it takes it back, ending on the last frame (the
//! first solution, when the trace reached one).
//!
//! The animation is SMIL (`<set>` of `visibility` at a time), which browsers play
//! without scripts; a still renderer (resvg) shows the empty board. Each placement is
//! one group carrying `data-piece` and `data-cells` (the puzzle's piece index and board
//! cells), so the movie can be checked, or replayed, from the file alone.

use std::fmt::Write as _;

use super::{finish, num, piece_colour, shape, sheet, Cell, Panel, Picture, MARGIN, PAPER};
use crate::puzzle::Puzzle;
use crate::tiling::{Move, Trace};

/// The movie of `trace` on `puzzle`'s board, `seconds` per move.
pub fn movie(puzzle: &Puzzle, trace: &Trace, seconds: f64) -> Picture {
    let board = &puzzle.board;
    let at = |i: usize| shape::at(board, i);
    let empty = Panel {
        grid: board.grid,
        cells: board
            .cell_list()
            .into_iter()
            .map(|i| Cell {
                at: at(i),
                fill: PAPER.to_string(),
                region: 0,
                cage: None,
            })
            .collect(),
        texts: Vec::new(),
        title: None,
    };
    let (mut picture, _) = sheet(std::slice::from_ref(&empty), (0.0, 0.0));
    // Each placement: its piece, its cells, the move it came at and the move that took
    // it back, if any.
    let mut placed: Vec<(u16, &[usize], usize, Option<usize>)> = Vec::new();
    let mut stack = Vec::new();
    for (t, m) in trace.moves.iter().enumerate() {
        match m {
            Move::Place { piece, cells } => {
                stack.push(placed.len());
                placed.push((*piece, cells, t + 1, None));
            }
            Move::Undo => {
                if let Some(i) = stack.pop() {
                    placed[i].3 = Some(t + 1);
                }
            }
        }
    }
    let time = |t: usize| num(t as f64 * seconds);
    for (piece, cells, on, off) in placed {
        let list: Vec<String> = cells.iter().map(usize::to_string).collect();
        let _ = writeln!(
            picture.svg,
            "<g visibility=\"hidden\" data-piece=\"{piece}\" data-cells=\"{}\">",
            list.join(" ")
        );
        let _ = writeln!(
            picture.svg,
            "<set attributeName=\"visibility\" to=\"visible\" begin=\"{}s\" fill=\"freeze\"/>",
            time(on)
        );
        if let Some(off) = off {
            let _ = writeln!(
                picture.svg,
                "<set attributeName=\"visibility\" to=\"hidden\" begin=\"{}s\" fill=\"freeze\"/>",
                time(off)
            );
        }
        let shape = Panel {
            grid: board.grid,
            cells: cells
                .iter()
                .map(|&i| Cell {
                    at: at(i),
                    fill: piece_colour(piece.into()).to_string(),
                    region: 0,
                    cage: None,
                })
                .collect(),
            texts: Vec::new(),
            title: None,
        };
        shape.svg((MARGIN, MARGIN), &mut picture.svg);
        picture.svg.push_str("</g>\n");
    }
    finish(picture)
}

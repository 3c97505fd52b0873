//! Number puzzles drawn: each cell with its value, on the figure's own shape. A grid
//! (`grid: R x C`) is drawn as squares, thick lines around its boxes; a free drawing
//! (`cells:`) as hexagons when its rows sit half a cell apart (the magic hexagon), as
//! squares otherwise. Killer cages are filled (neighbouring cages in different colours
//! of the piece palette), outlined by a dashed line inside them, with their total in the
//! corner of their first cell.
//!
//! A model has no cages of its own, only equations; a grid's equation is drawn as a
//! cage when all its coefficients are 1, its cells are connected and are not a whole
//! row or column, and no two such equations share a cell (so a magic square's lines are
//! never cages).
//!
//! ```
//! use polytile::{picture, sums};
//!
//! let model = sums::builtin::magic_square(3).unwrap();
//! let pic = picture::numbers::solutions(&model, &[vec![2, 7, 6, 9, 5, 1, 4, 3, 8]], true);
//! assert_eq!(pic.centres[0].len(), 9);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use super::shape::{Xy, CELL};
use super::{finish, shape, sheet, Anchor, Cell, Panel, Picture, Text, INK, PALETTE, PAPER};
use crate::grid::Grid;
use crate::sums::{Layout, Model};

/// Value size, in pixels of a digit.
const VALUE: f64 = 12.0;
/// Cage total size.
const TOTAL: f64 = 6.5;

/// The solutions of `model` (values in `model.cells` order) on one sheet, titled by
/// number when there are several; `values` false leaves the cells empty (the figure
/// and its cages only).
pub fn solutions(model: &Model, solutions: &[Vec<i64>], values: bool) -> Picture {
    let (grid, at) = places(model);
    let cages = cages(model, &at);
    let panels: Vec<Panel> = solutions
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let mut p = panel(model, grid, &at, &cages, v, values);
            if solutions.len() > 1 {
                p.title = Some(format!("solution {}", i + 1));
            }
            p
        })
        .collect();
    finish(sheet(&panels, (0.0, 0.0)).0)
}

/// The grid a model is drawn on and each cell's drawn `(row, col)` on it.
fn places(model: &Model) -> (Grid, Vec<(i32, i32)>) {
    match &model.layout {
        Layout::Grid { columns, .. } => (
            Grid::Square,
            (0..model.cells.len())
                .map(|i| ((i / columns) as i32, (i % columns) as i32))
                .collect(),
        ),
        Layout::Drawing(positions) => drawing(positions),
    }
}

/// The cells of a free drawing on the hex grid when it has several lines, every line's
/// names sit a whole number of half pitches from the left and alternate lines are half
/// a pitch apart; otherwise on squares, one per name, in its line.
fn drawing(positions: &[(usize, usize)]) -> (Grid, Vec<(i32, i32)>) {
    let margin = positions.iter().map(|p| p.1).min().unwrap_or(0);
    let mut by_line: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(line, column) in positions {
        by_line.entry(line).or_default().push(column - margin);
    }
    let pitch = by_line
        .values()
        .flat_map(|cols| {
            let mut cols = cols.clone();
            cols.sort_unstable();
            cols.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>()
        })
        .min()
        .unwrap_or(2)
        .max(1);
    let half = pitch / 2;
    let lines = by_line.len();
    if lines > 1 && pitch % 2 == 0 && positions.iter().all(|p| (p.1 - margin) % half == 0) {
        let u = |p: &(usize, usize)| (p.1 - margin) / half;
        for shift in [0, 1] {
            if positions.iter().all(|p| (u(p) + shift) % 2 == p.0 % 2) {
                let at = positions
                    .iter()
                    .map(|p| (p.0 as i32, ((u(p) + shift - p.0 % 2) / 2) as i32))
                    .collect();
                return (Grid::Hex, at);
            }
        }
    }
    let at = positions
        .iter()
        .map(|p| {
            let rank = by_line[&p.0].iter().filter(|&&c| c < p.1 - margin).count();
            (p.0 as i32, rank as i32)
        })
        .collect();
    (Grid::Square, at)
}

/// The equations drawn as cages (see the module docs): `(total, cells)`.
fn cages(model: &Model, at: &[(i32, i32)]) -> Vec<(i64, Vec<usize>)> {
    let Layout::Grid { rows, columns, .. } = model.layout else {
        return Vec::new();
    };
    let mut cages: Vec<(i64, Vec<usize>)> = Vec::new();
    let mut used = BTreeSet::new();
    for e in &model.equations {
        if e.terms.iter().any(|&(_, k)| k != 1) {
            continue;
        }
        let cells: Vec<usize> = e.terms.iter().map(|&(c, _)| c).collect();
        let line = |f: fn((i32, i32)) -> i32, len: usize| {
            cells.len() == len && cells.iter().all(|&c| f(at[c]) == f(at[cells[0]]))
        };
        if line(|p| p.0, columns) || line(|p| p.1, rows) || !connected(&cells, at) {
            continue;
        }
        if cells.iter().any(|c| !used.insert(*c)) {
            return Vec::new();
        }
        cages.push((e.target, cells));
    }
    cages
}

/// Whether cells of a square grid are connected through their sides.
fn connected(cells: &[usize], at: &[(i32, i32)]) -> bool {
    let mut reached = vec![false; cells.len()];
    let mut todo = vec![0];
    reached[0] = true;
    while let Some(i) = todo.pop() {
        for j in 0..cells.len() {
            let (a, b) = (at[cells[i]], at[cells[j]]);
            if !reached[j] && (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1 {
                reached[j] = true;
                todo.push(j);
            }
        }
    }
    reached.iter().all(|&r| r)
}

/// One solution as a panel.
fn panel(
    model: &Model,
    grid: Grid,
    at: &[(i32, i32)],
    cages: &[(i64, Vec<usize>)],
    values: &[i64],
    show: bool,
) -> Panel {
    let boxes = match model.layout {
        Layout::Grid { boxes, .. } => boxes,
        Layout::Drawing(_) => None,
    };
    let mut cage_of = vec![None; at.len()];
    for (k, (_, cells)) in cages.iter().enumerate() {
        for &c in cells {
            cage_of[c] = Some(k);
        }
    }
    let colours = cage_colours(cages, at);
    let cells = at
        .iter()
        .enumerate()
        .map(|(i, &(row, col))| Cell {
            at: (row, col),
            fill: cage_of[i].map_or(PAPER, |k| colours[k]).to_string(),
            region: boxes.map_or(0, |(h, w)| {
                (row as usize / h.max(1)) * 1000 + col as usize / w.max(1)
            }),
            cage: cage_of[i],
        })
        .collect();
    let mut texts = Vec::new();
    if show {
        for (i, &(row, col)) in at.iter().enumerate() {
            if let Some(v) = values.get(i) {
                texts.push(Text {
                    text: v.to_string(),
                    at: shape::centre(grid, row, col),
                    size: VALUE,
                    anchor: Anchor::Centre,
                    colour: INK,
                    backdrop: None,
                });
            }
        }
    }
    for (total, cells) in cages {
        let first = cells
            .iter()
            .copied()
            .min_by_key(|&c| at[c])
            .expect("a cage has cells");
        let (row, col) = at[first];
        let corner: Xy = shape::outline(grid, row, col)[0];
        texts.push(Text {
            text: total.to_string(),
            at: (corner.0 + CELL * 0.08, corner.1 + CELL * 0.08),
            size: TOTAL,
            anchor: Anchor::TopLeft,
            colour: INK,
            backdrop: cage_of[first].map(|k| colours[k].to_string()),
        });
    }
    Panel {
        grid,
        cells,
        texts,
        title: None,
    }
}

/// A colour per cage from the palette, the first one no touching earlier cage has
/// (cages in equation order).
fn cage_colours(cages: &[(i64, Vec<usize>)], at: &[(i32, i32)]) -> Vec<&'static str> {
    let mut colours: Vec<&'static str> = Vec::new();
    for (k, (_, cells)) in cages.iter().enumerate() {
        let touching = |other: &[usize]| {
            cells.iter().any(|&a| {
                other.iter().any(|&b| {
                    let (p, q) = (at[a], at[b]);
                    (p.0 - q.0).abs() + (p.1 - q.1).abs() == 1
                })
            })
        };
        let taken: Vec<&str> = (0..k)
            .filter(|&j| touching(&cages[j].1))
            .map(|j| colours[j])
            .collect();
        let colour = PALETTE
            .iter()
            .copied()
            .find(|c| !taken.contains(c))
            .unwrap_or(PALETTE[k % PALETTE.len()]);
        colours.push(colour);
    }
    colours
}

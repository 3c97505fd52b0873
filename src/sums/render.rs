//! Solutions of number puzzles drawn in the figure's shape: grids as grids (with box
//! separators), free drawings with each cell name replaced by its value.

use super::model::{Layout, Model};

/// The rows of text that draw `values` (one per cell, in `model.cells` order; a cell
/// without a value is drawn blank).
pub fn rows(model: &Model, values: &[i64]) -> Vec<String> {
    // One width for every value of the model, so all solutions line up alike.
    let width = model
        .values
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1);
    match &model.layout {
        Layout::Grid {
            rows,
            columns,
            boxes,
        } => grid(values, *rows, *columns, *boxes, width),
        Layout::Drawing(positions) => drawing(positions, values, width),
    }
}

fn grid(
    values: &[i64],
    rows: usize,
    columns: usize,
    boxes: Option<(usize, usize)>,
    width: usize,
) -> Vec<String> {
    let (box_rows, box_columns) = boxes.unwrap_or((rows, columns));
    let (box_rows, box_columns) = (box_rows.max(1), box_columns.max(1));
    let mut out = Vec::new();
    for r in 0..rows {
        if r > 0 && r % box_rows == 0 {
            let block = "-".repeat((width + 1) * box_columns - 1);
            let line = vec![block; columns.div_ceil(box_columns)];
            out.push(line.join("-+-"));
        }
        let mut line = String::new();
        for c in 0..columns {
            if c > 0 {
                line.push_str(if c % box_columns == 0 { " | " } else { " " });
            }
            let value = values.get(r * columns + c);
            line.push_str(&format!(
                "{:>width$}",
                value.map_or(String::new(), i64::to_string)
            ));
        }
        out.push(line);
    }
    out
}

/// Each name's drawn column is scaled so that values wider than the names still fit,
/// keeping half-cell offsets (hexagonal figures) on whole columns.
fn drawing(positions: &[(usize, usize)], values: &[i64], width: usize) -> Vec<String> {
    let lines = positions.iter().map(|p| p.0 + 1).max().unwrap_or(0);
    // The drawing's left margin (indentation, or `cells:` on the same line) is not
    // part of the figure.
    let margin = positions.iter().map(|p| p.1).min().unwrap_or(0);
    let mut by_line: Vec<Vec<(usize, i64)>> = vec![Vec::new(); lines];
    for (&(line, column), &v) in positions.iter().zip(values) {
        by_line[line].push((column - margin, v));
    }
    // The pitch of the drawing: the least distance between two names on a line.
    let pitch = by_line
        .iter()
        .flat_map(|l| l.windows(2).map(|w| w[1].0 - w[0].0))
        .min()
        .unwrap_or(2)
        .max(1);
    let mut scaled = pitch.max(width + 1);
    if pitch % 2 == 0 && scaled % 2 == 1 {
        scaled += 1;
    }
    by_line
        .iter()
        .map(|cells| {
            let mut line = String::new();
            for &(column, v) in cells {
                let at = (column * scaled + pitch / 2) / pitch;
                let text = format!("{v:>width$}");
                let pad = at.saturating_sub(line.len());
                line.push_str(&" ".repeat(pad.max(usize::from(!line.is_empty()))));
                line.push_str(&text);
            }
            line
        })
        .collect()
}

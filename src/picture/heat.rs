//! The placement tables as a picture: the board twice, each cell coloured by how many
//! placements are anchored there, before and after island pruning, on one colour scale
//! so that what pruning removes shows at a glance; the counts are written in the cells
//! and a legend gives the scale.
//!
//! The scale is Paul Tol's sequential "YlOrBr" (pale yellow to dark brown), whose
//! lightness falls steadily, so it reads the same with any colour vision and in grey.

use std::fmt::Write as _;

use super::shape::CELL;
use super::{finish, font, num, sheet, Anchor, Cell, Panel, Picture, Text, INK};
use crate::grid::Board;

/// Tol's YlOrBr, light to dark.
const SCALE: [(u8, u8, u8); 9] = [
    (0xFF, 0xFF, 0xE5),
    (0xFF, 0xF7, 0xBC),
    (0xFE, 0xE3, 0x91),
    (0xFE, 0xC4, 0x4F),
    (0xFB, 0x9A, 0x29),
    (0xEC, 0x70, 0x14),
    (0xCC, 0x4C, 0x02),
    (0x99, 0x34, 0x04),
    (0x66, 0x25, 0x06),
];

/// Where `t` (0 to 1) falls on the scale, as `#RRGGBB`.
pub fn scale_colour(t: f64) -> String {
    let t = t.clamp(0.0, 1.0) * (SCALE.len() - 1) as f64;
    let i = (t.floor() as usize).min(SCALE.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (SCALE[i], SCALE[i + 1]);
    format!(
        "#{:02X}{:02X}{:02X}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Text on a cell of scale position `t`: light on the dark end.
fn ink_on(t: f64) -> &'static str {
    if t > 0.6 {
        "#FFFFFF"
    } else {
        INK
    }
}

/// The heat map of `board` with `before[cell]` and `after[cell]` placements anchored on
/// each cell (row-major, holes ignored).
pub fn placements(board: &Board, before: &[u32], after: &[u32]) -> Picture {
    let max = before
        .iter()
        .chain(after)
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let total = |v: &[u32]| v.iter().map(|&n| u64::from(n)).sum::<u64>();
    let panel = |counts: &[u32], title: String| {
        let mut cells = Vec::new();
        let mut texts = Vec::new();
        for (i, &n) in counts.iter().enumerate() {
            if !board.has(i) {
                continue;
            }
            let at = super::shape::at(board, i);
            let t = f64::from(n) / f64::from(max);
            cells.push(Cell {
                at,
                fill: scale_colour(t),
                region: 0,
                cage: None,
            });
            texts.push(Text {
                text: n.to_string(),
                at: super::shape::centre(board.grid, at.0, at.1),
                size: 7.0,
                anchor: Anchor::Centre,
                colour: ink_on(t),
                backdrop: None,
            });
        }
        Panel {
            grid: board.grid,
            cells,
            texts,
            title: Some(title),
        }
    };
    let panels = [
        panel(before, format!("before pruning: {}", total(before))),
        panel(after, format!("after pruning: {}", total(after))),
    ];
    let legend = (SCALE.len() as f64 * CELL * 0.75, 34.0);
    let (mut picture, (x, y)) = sheet(&panels, legend);
    let swatch = CELL * 0.75;
    for i in 0..SCALE.len() {
        let t = i as f64 / (SCALE.len() - 1) as f64;
        let _ = writeln!(
            picture.svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"{}\"/>",
            num(x + i as f64 * swatch),
            num(y),
            num(swatch),
            scale_colour(t)
        );
    }
    let labels = [
        ("0".to_string(), x),
        (
            max.to_string(),
            x + legend.0 - 4.0 * max.to_string().len() as f64,
        ),
        (
            "placements anchored per cell".to_string(),
            x + legend.0 / 2.0 - 60.0,
        ),
    ];
    for (i, (text, lx)) in labels.iter().enumerate() {
        let top = if i < 2 { y + 16.0 } else { y + 27.0 };
        let d = font::text_path(text, 7.0, (*lx, top), Anchor::TopLeft);
        let _ = writeln!(picture.svg, "<path fill=\"{INK}\" d=\"{d}\"/>");
    }
    finish(picture)
}

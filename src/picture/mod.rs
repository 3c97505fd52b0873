//! Pictures: solutions, tables and the search drawn as SVG, and rendered to PNG.
//!
//! This module owns everything drawn: the shape of a cell on each grid
//! ([`shape`](self::shape), the one place a new grid adds code), text as paths from a
//! bundled font (`font`), the palettes, the panels that every picture is made of (cells
//! filled, lines between them thin or thick, text) laid out on a sheet, and the PNG
//! rendering (resvg). One file per kind of figure builds the panels: [`tiling`] for
//! tilings, [`numbers`] for number puzzles, [`heat`] for the tables' placements per cell,
//! [`movie`] for the search as an animated SVG.
//!
//! Pictures are deterministic: the same input gives the same bytes (coordinates are
//! written with two decimals, nothing is ordered by a hash), so a picture of a solution
//! does not depend on the run or its threads.
//!
//! Row 0 is drawn on top, as the text output prints it.

mod font;
pub mod heat;
pub mod movie;
pub mod numbers;
pub mod shape;
pub mod tiling;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::grid::Grid;
pub use font::Anchor;
use shape::Xy;

/// The fill of each piece: Paul Tol's "light" qualitative scheme, made to fill cells
/// that carry dark labels and chosen to stay distinct for colour-blind readers
/// (deuteranopia and protanopia). Piece `i` takes colour `i % 9`, in every solution;
/// sets of more than nine pieces repeat colours, and the thick outlines and labels tell
/// such pieces apart.
pub const PALETTE: [&str; 9] = [
    "#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99", "#BBCC33", "#AAAA00",
    "#DDDDDD",
];

/// The page behind everything, and the colour of holes.
pub const BACKGROUND: &str = "#FFFFFF";
/// Lines and text.
pub const INK: &str = "#222222";
/// The fill of number cells outside any cage.
pub const PAPER: &str = "#F7F7F7";

/// The colour of piece `piece`.
pub fn piece_colour(piece: usize) -> &'static str {
    PALETTE[piece % PALETTE.len()]
}

/// Line widths: inside a piece (or box), and between pieces and on the edge.
const THIN: f64 = 0.75;
const THICK: f64 = 3.0;
/// Space around the sheet and between panels.
const MARGIN: f64 = 12.0;
const GAP: f64 = 20.0;
/// Height of a panel's title.
const TITLE: f64 = 14.0;
/// The most solutions the CLI draws on one sheet: beyond it a sheet is too large to
/// look at, or to render (see [`RenderError::Size`]).
pub const MAX_PANELS: usize = 1000;

/// A number as an SVG coordinate: at most two decimals, no trailing zeros, no `-0`.
pub(crate) fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A picture: the SVG, its size in pixels, and where the centre of each cell lies (per
/// panel, the drawn `(row, col)` of each cell with its centre), for callers that mark
/// or check cells.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The SVG document, ending with a newline.
    pub svg: String,
    /// Width and height in pixels (the PNG's size).
    pub size: (u32, u32),
    /// Per panel, in order: each cell's drawn `(row, col)` and its centre.
    pub centres: Vec<Vec<((i32, i32), Xy)>>,
}

/// One cell of a panel.
#[derive(Clone, Debug)]
pub(crate) struct Cell {
    /// Its drawn row and column.
    pub at: (i32, i32),
    /// Its fill.
    pub fill: String,
    /// Cells of one region (a piece, a box) are parted by thin lines, of different
    /// regions by thick ones.
    pub region: usize,
    /// Cells of one cage are outlined together by a dashed line inside them.
    pub cage: Option<usize>,
}

/// Text in a panel, in the panel's coordinates.
#[derive(Clone, Debug)]
pub(crate) struct Text {
    pub text: String,
    pub at: Xy,
    pub size: f64,
    pub anchor: Anchor,
    pub colour: &'static str,
    /// A fill behind the text (a cage total over the cage's dashed line).
    pub backdrop: Option<String>,
}

/// One figure: cells on a grid and text; drawn on a sheet with an optional title.
#[derive(Clone, Debug)]
pub(crate) struct Panel {
    pub grid: Grid,
    pub cells: Vec<Cell>,
    pub texts: Vec<Text>,
    pub title: Option<String>,
}

impl Panel {
    /// The panel's extent: the largest x and y of its cells.
    fn size(&self) -> Xy {
        self.cells
            .iter()
            .flat_map(|c| shape::outline(self.grid, c.at.0, c.at.1))
            .fold((0.0, 0.0), |(w, h), (x, y)| {
                (f64::max(w, x), f64::max(h, y))
            })
    }

    fn centres(&self, (ox, oy): Xy) -> Vec<((i32, i32), Xy)> {
        self.cells
            .iter()
            .map(|c| {
                let (x, y) = shape::centre(self.grid, c.at.0, c.at.1);
                (c.at, (ox + x, oy + y))
            })
            .collect()
    }

    /// The panel's SVG, moved to `(ox, oy)`.
    fn svg(&self, (ox, oy): Xy, out: &mut String) {
        let _ = writeln!(out, "<g transform=\"translate({} {})\">", num(ox), num(oy));
        // Fills, one path per colour in order of first use.
        let mut fills: Vec<(&str, String)> = Vec::new();
        for c in &self.cells {
            let d = polygon(&shape::outline(self.grid, c.at.0, c.at.1));
            match fills.iter_mut().find(|(f, _)| *f == c.fill) {
                Some((_, path)) => path.push_str(&d),
                None => fills.push((&c.fill, d)),
            }
        }
        for (fill, d) in &fills {
            let _ = writeln!(out, "<path fill=\"{fill}\" d=\"{d}\"/>");
        }
        // Cells by their centres: the cell across a side is found where its centre lies.
        let index: BTreeMap<(i64, i64), usize> = self
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| (shape::key(shape::centre(self.grid, c.at.0, c.at.1)), i))
            .collect();
        let (mut thin, mut thick, mut cages) = (String::new(), String::new(), String::new());
        for (i, c) in self.cells.iter().enumerate() {
            let corners = shape::outline(self.grid, c.at.0, c.at.1);
            let across: Vec<Option<(usize, &Cell)>> = shape::across(self.grid, c.at.0, c.at.1)
                .into_iter()
                .map(|p| index.get(&shape::key(p)).map(|&j| (j, &self.cells[j])))
                .collect();
            let n = corners.len();
            for k in 0..n {
                let (a, b) = (corners[k], corners[(k + 1) % n]);
                let other = across[k].map(|(_, o)| o);
                // Each side once: from the earlier cell, or from the only one.
                if across[k].is_none_or(|(j, _)| j > i) {
                    let side = format!("M{} {}L{} {}", num(a.0), num(a.1), num(b.0), num(b.1));
                    match other {
                        Some(o) if o.region == c.region => thin.push_str(&side),
                        _ => thick.push_str(&side),
                    }
                }
                if c.cage.is_some() && other.is_none_or(|o| o.cage != c.cage) {
                    cage_side(&corners, k, &across, c.cage, &mut cages);
                }
            }
        }
        let stroke = |out: &mut String, d: &str, width: f64, extra: &str| {
            if !d.is_empty() {
                let _ = writeln!(
                    out,
                    "<path fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linecap=\"round\"{extra} d=\"{d}\"/>",
                    num(width)
                );
            }
        };
        stroke(out, &thin, THIN, "");
        stroke(out, &cages, 1.25, " stroke-dasharray=\"3 2\"");
        stroke(out, &thick, THICK, "");
        for t in &self.texts {
            if let (Some(fill), Anchor::TopLeft) = (&t.backdrop, t.anchor) {
                let pad = t.size * 0.25;
                let _ = writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
                    num(t.at.0 - pad),
                    num(t.at.1 - pad),
                    num(font::text_width(&t.text, t.size) + 2.0 * pad),
                    num(t.size + 2.0 * pad)
                );
            }
            let d = font::text_path(&t.text, t.size, t.at, t.anchor);
            if !d.is_empty() {
                let _ = writeln!(out, "<path fill=\"{}\" d=\"{d}\"/>", t.colour);
            }
        }
        out.push_str("</g>\n");
    }
}

/// How far inside its cells a cage's dashed outline runs.
const CAGE_INSET: f64 = 4.0;

/// The dashed cage line along side `k` of a cell, moved inside the cell; at each end it
/// reaches the neighbouring side when the cell across that side is in the same cage,
/// so the line runs on into the next cell.
fn cage_side(
    corners: &[Xy],
    k: usize,
    across: &[Option<(usize, &Cell)>],
    cage: Option<usize>,
    out: &mut String,
) {
    let n = corners.len();
    let (a, b) = (corners[k], corners[(k + 1) % n]);
    let (cx, cy) = corners.iter().fold((0.0, 0.0), |(x, y), p| {
        (x + p.0 / n as f64, y + p.1 / n as f64)
    });
    // The unit normal of the side, pointing in.
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (mut nx, mut ny) = (-dy / len, dx / len);
    if nx * (cx - a.0) + ny * (cy - a.1) < 0.0 {
        (nx, ny) = (-nx, -ny);
    }
    let same = |j: usize| across[j].is_some_and(|(_, o)| o.cage == cage);
    let inset = CAGE_INSET;
    let along = |p: Xy, t: f64| (p.0 + dx / len * t, p.1 + dy / len * t);
    let start = if same((k + n - 1) % n) {
        a
    } else {
        along(a, inset)
    };
    let end = if same((k + 1) % n) {
        b
    } else {
        along(b, -inset)
    };
    let (s, e) = (
        (start.0 + nx * inset, start.1 + ny * inset),
        (end.0 + nx * inset, end.1 + ny * inset),
    );
    let _ = write!(out, "M{} {}L{} {}", num(s.0), num(s.1), num(e.0), num(e.1));
}

/// A closed polygon as path data.
fn polygon(corners: &[Xy]) -> String {
    let mut d = String::new();
    for (i, &(x, y)) in corners.iter().enumerate() {
        let _ = write!(d, "{}{} {}", if i == 0 { 'M' } else { 'L' }, num(x), num(y));
    }
    d.push('Z');
    d
}

/// Panels laid out in rows on one sheet (all in cells of the largest panel's size, as
/// close to 4:3 as whole columns allow), with `below` pixels left free under them;
/// returns the picture without its closing tag, and where the free space starts.
pub(crate) fn sheet(panels: &[Panel], below: Xy) -> (Picture, Xy) {
    let titled = panels.iter().any(|p| p.title.is_some());
    let (w, h) = panels
        .iter()
        .map(Panel::size)
        .fold((0.0, 0.0), |(w, h), (x, y)| {
            (f64::max(w, x), f64::max(h, y))
        });
    let slot_h = h + if titled { TITLE + 6.0 } else { 0.0 };
    let n = panels.len().max(1);
    let columns = (1..=n)
        .min_by(|&a, &b| {
            let aspect = |c: usize| {
                let rows = n.div_ceil(c) as f64;
                let ratio = (c as f64 * (w + GAP)) / (rows * (slot_h + GAP));
                (ratio.ln() - (4.0f64 / 3.0).ln()).abs()
            };
            aspect(a).total_cmp(&aspect(b))
        })
        .unwrap_or(1);
    let rows = n.div_ceil(columns);
    let grid_w = columns as f64 * w + (columns - 1) as f64 * GAP;
    let grid_h = rows as f64 * slot_h + (rows - 1) as f64 * GAP;
    let width = (2.0 * MARGIN + f64::max(grid_w, below.0)).ceil();
    let height = (2.0 * MARGIN + grid_h + if below.1 > 0.0 { GAP + below.1 } else { 0.0 }).ceil();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"
    );
    let _ = writeln!(
        svg,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"{BACKGROUND}\"/>"
    );
    let mut centres = Vec::new();
    for (i, p) in panels.iter().enumerate() {
        let (r, c) = (i / columns, i % columns);
        let x = MARGIN + c as f64 * (w + GAP);
        let mut y = MARGIN + r as f64 * (slot_h + GAP);
        if titled {
            if let Some(title) = &p.title {
                let d = font::text_path(title, TITLE * 0.65, (x, y), Anchor::TopLeft);
                let _ = writeln!(svg, "<path fill=\"{INK}\" d=\"{d}\"/>");
            }
            y += TITLE + 6.0;
        }
        p.svg((x, y), &mut svg);
        centres.push(p.centres((x, y)));
    }
    let free = (MARGIN, MARGIN + grid_h + GAP);
    let picture = Picture {
        svg,
        size: (width as u32, height as u32),
        centres,
    };
    (picture, free)
}

/// Closes a picture that [`sheet`] began.
pub(crate) fn finish(mut picture: Picture) -> Picture {
    picture.svg.push_str("</svg>\n");
    picture
}

/// Why an SVG could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The SVG did not parse.
    #[error("the picture is not valid SVG: {0}")]
    Svg(String),
    /// Its size is zero or too large for one image.
    #[error("the picture is {0} x {1} pixels; a PNG here is at most 16,384 on a side")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("cannot encode the PNG: {0}")]
    Png(String),
}

/// The largest side of a rendered picture.
const MAX_SIDE: u32 = 16_384;

/// Pixels of a rendered picture: `rgba` row by row, 4 bytes a pixel (premultiplied alpha;
/// every picture here has an opaque background).
#[derive(Clone, Debug)]
pub struct Raster {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA bytes.
    pub rgba: Vec<u8>,
}

impl Raster {
    /// The colour at pixel `(x, y)` as `#RRGGBB`.
    pub fn colour(&self, x: u32, y: u32) -> String {
        let i = 4 * (y as usize * self.width as usize + x as usize);
        let p = &self.rgba[i..i + 3];
        format!("#{:02X}{:02X}{:02X}", p[0], p[1], p[2])
    }
}

fn pixmap(svg: &str) -> Result<resvg::tiny_skia::Pixmap, RenderError> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(RenderError::Size(w, h));
    }
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RenderError::Size(w, h))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Renders an SVG to pixels, one pixel per SVG unit.
pub fn raster(svg: &str) -> Result<Raster, RenderError> {
    let p = pixmap(svg)?;
    Ok(Raster {
        width: p.width(),
        height: p.height(),
        rgba: p.data().to_vec(),
    })
}

/// Renders an SVG to a PNG file's bytes, one pixel per SVG unit.
pub fn png(svg: &str) -> Result<Vec<u8>, RenderError> {
    pixmap(svg)?
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}

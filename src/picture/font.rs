//! Text as paths: piece labels and numbers are drawn from the glyph outlines of a
//! bundled font, so an SVG shows the same letters in every browser and the PNG renderer
//! needs no fonts at all (none from the system, none loaded at run time).
//!
//! The font is DejaVu Sans Bold cut down to printable ASCII
//! (`assets/fonts/`, with its licence and the command that cut it). A character it
//! lacks is drawn as `?`.

use std::fmt::Write as _;

use once_cell::sync::Lazy;

use super::num;

static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-ascii.ttf");

static FACE: Lazy<ttf_parser::Face<'static>> =
    Lazy::new(|| ttf_parser::Face::parse(FONT_BYTES, 0).expect("the bundled font parses"));

/// How text sits on the point it is drawn at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Centred on the point, both ways (capital letters and digits).
    Centre,
    /// Its top left corner on the point.
    TopLeft,
}

/// Writes the outline of a glyph as SVG path data, scaled and moved.
struct PathData<'a> {
    out: &'a mut String,
    scale: f64,
    x: f64,
    y: f64,
}

impl PathData<'_> {
    fn point(&self, x: f32, y: f32) -> String {
        // Font units grow north; the picture's y grows south.
        format!(
            "{} {}",
            num(self.x + f64::from(x) * self.scale),
            num(self.y - f64::from(y) * self.scale)
        )
    }
}

impl ttf_parser::OutlineBuilder for PathData<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let p = self.point(x, y);
        let _ = write!(self.out, "M{p}");
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let p = self.point(x, y);
        let _ = write!(self.out, "L{p}");
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let (a, b) = (self.point(x1, y1), self.point(x, y));
        let _ = write!(self.out, "Q{a} {b}");
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (a, b, c) = (self.point(x1, y1), self.point(x2, y2), self.point(x, y));
        let _ = write!(self.out, "C{a} {b} {c}");
    }
    fn close(&mut self) {
        self.out.push('Z');
    }
}

/// The glyph index of `c`, or of `?` when the font lacks it.
fn glyph(face: &ttf_parser::Face<'_>, c: char) -> ttf_parser::GlyphId {
    face.glyph_index(c)
        .or_else(|| face.glyph_index('?'))
        .expect("the bundled font has '?'")
}

/// Pixels per font unit for capitals `size` pixels tall.
fn scale(face: &ttf_parser::Face<'_>, size: f64) -> f64 {
    size / f64::from(face.capital_height().unwrap_or(1400))
}

/// The width of `text` with capitals `size` pixels tall.
pub fn text_width(text: &str, size: f64) -> f64 {
    let face = &*FACE;
    let scale = scale(face, size);
    text.chars()
        .map(|c| f64::from(face.glyph_hor_advance(glyph(face, c)).unwrap_or(0)) * scale)
        .sum()
}

/// The path data of `text` with capitals `size` pixels tall, placed by `anchor` on
/// `(x, y)`; empty for empty text.
pub fn text_path(text: &str, size: f64, (x, y): (f64, f64), anchor: Anchor) -> String {
    let face = &*FACE;
    let scale = scale(face, size);
    let width = text_width(text, size);
    let (mut pen, baseline) = match anchor {
        Anchor::Centre => (x - width / 2.0, y + size / 2.0),
        Anchor::TopLeft => (x, y + size),
    };
    let mut out = String::new();
    for c in text.chars() {
        let g = glyph(face, c);
        let mut data = PathData {
            out: &mut out,
            scale,
            x: pen,
            y: baseline,
        };
        let _ = face.outline_glyph(g, &mut data);
        pen += f64::from(face.glyph_hor_advance(g).unwrap_or(0)) * scale;
    }
    out
}

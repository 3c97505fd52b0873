//! Where a drawn cell `(row, col)` lies in a picture: its outline and centre, one
//! function per grid, and where the cell across each side of the outline lies. A new
//! grid needs only its arm in [`outline`] (and, if it has layers, in [`at`]).

use crate::grid::{Board, Grid};

/// A point of the picture, in pixels (x east, y south).
pub type Xy = (f64, f64);

/// The side of a square cell, and the distance between hex rows' centres over 1.5.
pub const CELL: f64 = 32.0;

/// The circumradius of a hexagon: its area is close to a square cell's, and two
/// hexagons in a row are `2 * HEX_APOTHEM` apart.
const R: f64 = CELL * 0.6;
const HEX_APOTHEM: f64 = R * 0.866_025_403_784_438_6;

/// The side of a triangle: its area is close to a square cell's.
const TRIANGLE: f64 = CELL * 1.5;
const TRIANGLE_HEIGHT: f64 = TRIANGLE * 0.866_025_403_784_438_6;

/// Where board cell `cell` is drawn, as the `(row, col)` of [`outline`]: its own row
/// and column on planar grids; on the cubic grid its layer's square grid, the layers
/// side by side from the bottom one, one empty column between two.
pub fn at(board: &Board, cell: usize) -> (i32, i32) {
    let (layer, row, col) = board.drawn(cell);
    (row as i32, (layer * (board.width + 1) + col) as i32)
}

/// The corners of drawn cell `(row, col)`, in order around the cell, row 0 on top as
/// the text output prints it. Hexagons stand on a corner, odd rows half a cell east.
/// Layers of cubes are drawn as squares ([`at`]).
pub fn outline(grid: Grid, row: i32, col: i32) -> Vec<Xy> {
    match grid {
        Grid::Square | Grid::Cubic => {
            let (x, y) = (f64::from(col) * CELL, f64::from(row) * CELL);
            vec![(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)]
        }
        Grid::Hex => {
            let shift = if grid.shifted_row(row) { 1.0 } else { 0.0 };
            let cx = HEX_APOTHEM * (2.0 * f64::from(col) + 1.0 + shift);
            let cy = R + 1.5 * R * f64::from(row);
            // From the top corner, clockwise (y grows south).
            [(0.0, -R), (HEX_APOTHEM, -R / 2.0), (HEX_APOTHEM, R / 2.0)]
                .into_iter()
                .chain([(0.0, R), (-HEX_APOTHEM, R / 2.0), (-HEX_APOTHEM, -R / 2.0)])
                .map(|(dx, dy)| (cx + dx, cy + dy))
                .collect()
        }
        Grid::Triangle => {
            // Drawn cell (row, col) is triangle (col / 2, row) of the lattice, pointing
            // towards the next row for even columns (`crate::grid`'s triangle file);
            // lattice vertex (a, b) lies at x = (a + b / 2) * side, y = b * height, so
            // each row sits half a triangle east of the one above, as on paper.
            let (a, b) = (f64::from(col.div_euclid(2)), f64::from(row));
            let vertex = |a: f64, b: f64| ((a + b / 2.0) * TRIANGLE, b * TRIANGLE_HEIGHT);
            if col.rem_euclid(2) == 0 {
                vec![vertex(a, b), vertex(a + 1.0, b), vertex(a, b + 1.0)]
            } else {
                vec![
                    vertex(a + 1.0, b),
                    vertex(a + 1.0, b + 1.0),
                    vertex(a, b + 1.0),
                ]
            }
        }
    }
}

/// The centre of a cell: the mean of its corners (every cell shape here is regular).
pub fn centre(grid: Grid, row: i32, col: i32) -> Xy {
    let corners = outline(grid, row, col);
    let n = corners.len() as f64;
    let (sx, sy) = corners
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x, sy + y));
    (sx / n, sy / n)
}

/// For each side `k` of [`outline`] (corner `k` to corner `k + 1`), where the centre of
/// the cell across it lies: this centre mirrored in the side's midpoint. Every grid
/// here tiles the plane with regular cells, so the cell across a side is its mirror
/// image; a figure finds its cells by their centres ([`key`]), without asking the grid
/// how drawn cells map to lattice points.
pub fn across(grid: Grid, row: i32, col: i32) -> Vec<Xy> {
    let corners = outline(grid, row, col);
    let (cx, cy) = centre(grid, row, col);
    (0..corners.len())
        .map(|k| {
            let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
            (a.0 + b.0 - cx, a.1 + b.1 - cy)
        })
        .collect()
}

/// A point rounded to hundredths of a pixel, to find a cell by its centre.
pub fn key((x, y): Xy) -> (i64, i64) {
    ((x * 100.0).round() as i64, (y * 100.0).round() as i64)
}

//! The band table: which patterns of a few consecutive rows hold a closed region that
//! the pieces cannot tile, so that the search rejects such a board with one look-up.
//!
//! A band is closed on every side but its last row only on planar grids: on the cubic
//! grid a cell also touches the cell one layer north, beyond the band, so no region
//! of a band is known to be closed and the table marks nothing.

use std::collections::HashMap;

use crate::grid::{Board, Grid, Locator, Piece, Point};

use super::fill::{fillable_sizes, Tiler, TILE_CHECK_CELLS};

/// Rows in the band that [`band_tables`] judges: as many as keep the table at 2^16
/// entries or fewer, at most 3.
pub fn band_rows(width: usize) -> usize {
    (16 / width).clamp(1, 3)
}

/// The band tables of both parities: bit `pattern` of table `parity` is set when
/// `pattern`, the cells of `band_rows` consecutive board rows (bit `row * width + col`,
/// 1 = filled) whose first row has parity `parity` and with every row south of them
/// filled, holds a free region that does not reach the band's last row and that the
/// pieces cannot tile (by size, and for regions of at most [`TILE_CHECK_CELLS`] cells
/// by an exact search). Such a region is closed on every side, so no board containing
/// that band can be completed. On the cubic grid no pattern is marked (see the module
/// docs). `orients[piece]` are the piece's orientations ([`crate::grid::orientations`]),
/// which the caller has.
pub fn band_tables(
    grid: Grid,
    width: usize,
    pieces: &[Piece],
    orients: &[Vec<Vec<Point>>],
) -> [Vec<u64>; 2] {
    let rows = band_rows(width);
    let empty = || vec![0u64; (1usize << (rows * width)).div_ceil(64)];
    if !grid.is_planar() {
        return [empty(), empty()];
    }
    let sizes: Vec<usize> = pieces
        .iter()
        .flat_map(|p| std::iter::repeat_n(p.cells.len(), p.count as usize))
        .collect();
    // Both parities on one board a row taller than the band, the even band its first
    // rows and the odd band its last: one tiler, and one verdict per region.
    let board = Board::rectangle(grid, width, rows + 1);
    let board = Locator::new(&board);
    let mut judge = Judge {
        fillable: fillable_sizes(&sizes),
        available: pieces.iter().map(|p| p.count).collect(),
        verdicts: HashMap::new(),
        // A band of at most 16 cells (or one row of at most 32) and a row more: within
        // a word.
        tiler: Tiler::new(&board, orients).expect("a band fits a word"),
    };
    let even = band_table(&board, rows, 0, &mut judge);
    // A square's neighbours and the placements over it do not change with its row's
    // parity: the odd band's table is the even one's.
    let odd = match grid {
        Grid::Square => even.clone(),
        _ => band_table(&board, rows, 1, &mut judge),
    };
    [even, odd]
}

/// What judges a closed region of a band: the sizes the pieces fill, and exact tilings
/// of the small ones, each region judged once.
struct Judge {
    fillable: u64,
    available: Vec<u32>,
    /// Per region (as cells of the taller board), whether the pieces tile it.
    verdicts: HashMap<u64, bool>,
    tiler: Tiler<u64>,
}

impl Judge {
    /// Whether the pieces cannot fill `region`, cells of the taller board.
    fn dead(&mut self, region: u64) -> bool {
        let size = region.count_ones() as usize;
        self.fillable >> size & 1 == 0
            || (size <= TILE_CHECK_CELLS
                && !*self
                    .verdicts
                    .entry(region)
                    .or_insert_with(|| self.tiler.tileable(region, &mut self.available)))
    }
}

/// The band table of `parity` ([`band_tables`]), its band the rows from `parity` on of
/// `board`, a rectangle `rows + 1` rows tall.
fn band_table(board: &Locator, rows: usize, parity: usize, judge: &mut Judge) -> Vec<u64> {
    let width = board.board.width;
    let bits = rows * width;
    let mut table = vec![0u64; (1usize << bits).div_ceil(64)];
    let base = parity * width;
    let neighbours: Vec<u64> = (0..bits)
        .map(|i| {
            board
                .neighbours(base + i)
                .filter(|&n| (base..base + bits).contains(&n))
                .fold(0u64, |m, n| m | 1 << (n - base))
        })
        .collect();
    // A closed region lies in the rows below the band's last one, so judge those rows'
    // patterns alone: for each, the regions of its free cells that the pieces cannot
    // fill, each with the last-row cells adjacent to it. Such a region is closed, and the
    // band dead, exactly when all of those are filled; a region with a free neighbour
    // there joins a region that reaches the last row. This floods 2^(bits - width)
    // patterns rather than 2^bits.
    let low_bits = bits - width;
    let low_all = (1u64 << low_bits) - 1;
    // Rows of at most 6 cells: per set of last-row cells, its supersets as bits.
    let supersets: Option<Vec<u64>> = (width <= 6).then(|| {
        (0..1u64 << width)
            .map(|needed| {
                (0..1u64 << width)
                    .filter(|&last| last & needed == needed)
                    .fold(0, |m, last| m | 1 << last)
            })
            .collect()
    });
    let mut dead_unless: Vec<u64> = Vec::new();
    // With `supersets`, the last rows each low pattern leaves dead, as bits of a word,
    // 64 low patterns at a time: transposed, they are the table's words (one per last
    // row), laid down a word at a time rather than a bit at a time.
    let mut block = [0u64; 64];
    for low in 0u64..1 << low_bits {
        dead_unless.clear();
        let mut free = !low & low_all;
        while free != 0 {
            // Grow the region of the lowest free cell to a fixed point.
            let mut region = free & free.wrapping_neg();
            let mut frontier = region;
            let mut touches = 0;
            while frontier != 0 {
                let mut grown = 0;
                let mut f = frontier;
                while f != 0 {
                    grown |= neighbours[f.trailing_zeros() as usize];
                    f &= f - 1;
                }
                touches |= grown;
                frontier = grown & free & !region;
                region |= frontier;
            }
            free &= !region;
            if judge.dead(region << base) {
                dead_unless.push(touches >> low_bits);
            }
        }
        // Every last row holding one of them filled: its supersets (trying all 2^width
        // last rows per region cost more than the floods).
        if let Some(supersets) = &supersets {
            // Up to 6 cells a row, the last rows are bits of one word: the union of
            // every region's supersets.
            block[(low & 63) as usize] = dead_unless
                .iter()
                .fold(0u64, |u, &n| u | supersets[n as usize]);
            if low & 63 == 63 || low == low_all {
                let start = low & !63;
                transpose(&mut block);
                for (last, &lows) in block.iter().enumerate().take(1 << width) {
                    // A multiple of 64 when the block is full; else `lows` holds
                    // `2^low_bits` bits, which divides 64.
                    let at = (last as u64) << low_bits | start;
                    table[(at >> 6) as usize] |= lows << (at & 63);
                }
                block = [0; 64];
            }
            continue;
        }
        let last_all = (1u64 << width) - 1;
        for &needed in &dead_unless {
            let rest = last_all & !needed;
            let mut more = rest;
            loop {
                let pattern = low | (needed | more) << low_bits;
                table[(pattern >> 6) as usize] |= 1 << (pattern & 63);
                if more == 0 {
                    break;
                }
                more = (more - 1) & rest;
            }
        }
    }
    table
}

/// Transposes a 64 x 64 matrix of bits in place: bit `c` of `rows[r]` becomes bit `r`
/// of `rows[c]`. Blocks of half the size swap across the diagonal, then quarters
/// within them, and so on down to single bits (Warren, "Hacker's Delight", 7-3).
fn transpose(rows: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((rows[k] >> j) ^ rows[k + j]) & m;
            rows[k] ^= t << j;
            rows[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[cfg(test)]
mod tests {
    use super::transpose;

    #[test]
    fn transposing_moves_bit_c_of_row_r_to_bit_r_of_row_c() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20 {
            let rows: [u64; 64] = std::array::from_fn(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            });
            let mut t = rows;
            transpose(&mut t);
            for (r, row) in rows.iter().enumerate() {
                for (c, column) in t.iter().enumerate() {
                    assert_eq!(column >> r & 1, row >> c & 1, "row {r}, column {c}");
                }
            }
            transpose(&mut t);
            assert_eq!(t, rows);
        }
    }
}

//! The band table: which patterns of a few consecutive rows hold a closed region that
//! the pieces cannot tile, so that the search rejects such a board with one look-up.
//!
//! A band is closed on every side but its last row only on planar grids: on the cubic
//! grid a cell also touches the cell one layer north, beyond the band, so no region
//! of a band is known to be closed and the table marks nothing.

use std::collections::HashMap;

use crate::grid::{Board, Grid, Locator, Motion, Piece, Point};

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
/// docs). `orients[piece]` are the piece's orientations under its motion
/// ([`crate::grid::orientations`]), which the caller has.
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
    let even = Needs::of(&board, rows, 0, &mut judge);
    let odd = match grid {
        // A square's neighbours and the placements over it do not change with its row's
        // parity: the odd band's table is the even one's.
        Grid::Square => None,
        // Turned over east to west (column `c` to `width - 1 - c`), a band of the hex
        // grid has its other rows shifted: the odd band is the even one's mirror image,
        // cells, neighbours and all. Pieces that may be turned over (all but one-sided
        // and fixed ones) tile a region exactly when they tile its mirror image.
        Grid::Hex
            if pieces
                .iter()
                .all(|p| matches!(p.motion, Motion::Free | Motion::Mirror)) =>
        {
            Some(even.mirrored())
        }
        _ => Some(Needs::of(&board, rows, 1, &mut judge)),
    };
    let even = even.table();
    let odd = odd.map_or_else(|| even.clone(), |odd| odd.table());
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

/// One parity's dead bands as the rows below the last one leave them: per pattern of
/// those rows (its *low* pattern), the sets of last-row cells that, all filled, close a
/// region the pieces cannot fill. A band is dead exactly when its last row holds one of
/// its low pattern's sets. A closed region lies in the rows below the last one, so
/// only those rows' patterns are flooded: 2^(bits - width) patterns rather than 2^bits.
struct Needs {
    width: usize,
    rows: usize,
    /// Where each low pattern's sets start in `sets`; one entry more than patterns.
    starts: Vec<u32>,
    /// Sets of last-row cells (bit `col`).
    sets: Vec<u64>,
}

impl Needs {
    /// The needs of the band of `parity`, its rows those from `parity` on of `board`, a
    /// rectangle `rows + 1` rows tall: for each low pattern, the regions of its free
    /// cells that the pieces cannot fill, each with the last-row cells adjacent to it
    /// (a region with a free neighbour there joins a region that reaches the last row).
    fn of(board: &Locator, rows: usize, parity: usize, judge: &mut Judge) -> Needs {
        let width = board.board.width;
        let bits = rows * width;
        let base = parity * width;
        let neighbours: Vec<u64> = (0..bits)
            .map(|i| {
                board
                    .neighbours(base + i)
                    .filter(|&n| (base..base + bits).contains(&n))
                    .fold(0u64, |m, n| m | 1 << (n - base))
            })
            .collect();
        let low_bits = bits - width;
        let low_all = (1u64 << low_bits) - 1;
        let mut needs = Needs {
            width,
            rows,
            starts: Vec::with_capacity((1 << low_bits) + 1),
            sets: Vec::new(),
        };
        for low in 0u64..1 << low_bits {
            needs.starts.push(needs.sets.len() as u32);
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
                    needs.sets.push(touches >> low_bits);
                }
            }
        }
        needs.starts.push(needs.sets.len() as u32);
        needs
    }

    /// The sets of low pattern `low`.
    fn of_low(&self, low: usize) -> &[u64] {
        &self.sets[self.starts[low] as usize..self.starts[low + 1] as usize]
    }

    /// The needs of the band turned over east to west (see [`band_tables`]): a low
    /// pattern's sets are the mirror images of its own mirror image's.
    fn mirrored(&self) -> Needs {
        let (width, rows) = (self.width, self.rows);
        // Each of `rows` rows of `cells` reversed.
        let mirror = |cells: u64, rows: usize| {
            (0..rows).fold(0, |m, r| {
                let row = cells >> (r * width) & ((1 << width) - 1);
                m | (row.reverse_bits() >> (64 - width)) << (r * width)
            })
        };
        let lows = self.starts.len() - 1;
        let mut mirrored = Needs {
            width,
            rows,
            starts: Vec::with_capacity(lows + 1),
            sets: Vec::with_capacity(self.sets.len()),
        };
        for low in 0..lows as u64 {
            mirrored.starts.push(mirrored.sets.len() as u32);
            let own = self.of_low(mirror(low, rows - 1) as usize);
            mirrored.sets.extend(own.iter().map(|&set| mirror(set, 1)));
        }
        mirrored.starts.push(mirrored.sets.len() as u32);
        mirrored
    }

    /// The band table: bit `low | last << low_bits` set when the last row `last` holds
    /// one of the sets of low pattern `low`.
    fn table(&self) -> Vec<u64> {
        let (width, bits) = (self.width, self.rows * self.width);
        let low_bits = bits - width;
        let mut table = vec![0u64; (1usize << bits).div_ceil(64)];
        if width > SUPERSET_WIDTH {
            // Every last row holding a set: its supersets, one bit at a time.
            let last_all = (1u64 << width) - 1;
            for low in 0..self.starts.len() - 1 {
                for &needed in self.of_low(low) {
                    let rest = last_all & !needed;
                    let mut more = rest;
                    loop {
                        let pattern = low as u64 | (needed | more) << low_bits;
                        table[(pattern >> 6) as usize] |= 1 << (pattern & 63);
                        if more == 0 {
                            break;
                        }
                        more = (more - 1) & rest;
                    }
                }
            }
            return table;
        }
        // Up to 8 cells a row, the last rows a low pattern leaves dead are the union of
        // its sets' supersets, a few words of bits (one per 64 last rows). Taken 64 low
        // patterns at a time and transposed, they are the table's words (one per last
        // row), laid down a word at a time rather than a bit at a time (trying all
        // 2^width last rows per set cost more than the floods).
        let lasts = 1usize << width;
        let chunks = lasts.div_ceil(64);
        let supersets = supersets(width);
        let mut block = [[0u64; 64]; (1 << SUPERSET_WIDTH) / 64];
        let low_all = (1usize << low_bits) - 1;
        for low in 0..=low_all {
            for (k, words) in block.iter_mut().enumerate().take(chunks) {
                words[low & 63] = self
                    .of_low(low)
                    .iter()
                    .fold(0, |u, &n| u | supersets[n as usize * chunks + k]);
            }
            if low & 63 == 63 || low == low_all {
                let start = low & !63;
                for (k, words) in block.iter_mut().enumerate().take(chunks) {
                    transpose(words);
                    for (j, &lows) in words.iter().enumerate().take(lasts - 64 * k) {
                        // A multiple of 64 when the block is full; else `lows` holds
                        // `2^low_bits` bits, which divides 64.
                        let at = (64 * k + j) << low_bits | start;
                        table[at >> 6] |= lows << (at & 63);
                    }
                    *words = [0; 64];
                }
            }
        }
        table
    }
}

/// The widest row whose last rows [`Needs::table`] takes as words of bits: 2^8 last rows,
/// four words.
const SUPERSET_WIDTH: usize = 8;

/// Per set of cells of a row `width` cells wide (at most [`SUPERSET_WIDTH`]), its
/// supersets as bits (bit `last` for each row `last` holding it), `2^width / 64` words
/// each (at least one), low words first.
fn supersets(width: usize) -> Vec<u64> {
    let lasts = 1usize << width;
    let chunks = lasts.div_ceil(64);
    // Per cell and word, the rows holding the cell.
    let holding: Vec<u64> = (0..width)
        .flat_map(|c| {
            (0..chunks).map(move |k| {
                (0..64.min(lasts)).fold(0u64, |m, j| m | (((64 * k + j) >> c & 1) as u64) << j)
            })
        })
        .collect();
    let mut sets = vec![0u64; lasts * chunks];
    // The empty set: every row.
    sets[..chunks].fill(u64::MAX >> (64 - lasts.min(64)));
    for needed in 1..lasts {
        // The rows holding the set less its lowest cell that hold that cell too.
        let (rest, c) = (needed & (needed - 1), needed.trailing_zeros() as usize);
        for k in 0..chunks {
            sets[needed * chunks + k] = sets[rest * chunks + k] & holding[c * chunks + k];
        }
    }
    sets
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

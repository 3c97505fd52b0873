//! The cover check against its definition, cell by cell: on random boxes of the cubic
//! grid (holes included, one window or several) with random pieces, random fillings
//! of each window position and random sets of unused pieces, [`Cover::dead`] is true
//! exactly when one of the free cells in the [`SPAN`] window bits from the lowest free
//! one has exactly one free neighbour (a neighbour north of the window counting as
//! free, and then not judged), every table placement covering it lies inside the
//! window, and no table placement of an unused piece covers it and only free cells.
//! Some pieces are in two parts, which files refuse, so that a placement may cover a
//! cell and none of its neighbours. And a child judged by its parent
//! ([`Cover::dead_child`], from the parent's counts and what [`Pockets::single_after`]
//! finds) is judged as [`Cover::dead`] judges it.

use super::tiling::{self, Pt, Rng};
use crate::grid::{normalise, Board, Grid, Motion, Piece};
use crate::tables::cover::{Cover, SPAN};
use crate::tables::generate::generate;
use crate::tables::pockets::{Delta, Pockets};
use crate::tables::Tables;

/// Every placement of the tables: its piece and its board cells.
fn placements(t: &Tables) -> Vec<(usize, Vec<usize>)> {
    let shift = t.shift_rows * t.width;
    let mut out = Vec::new();
    for g in t.groups() {
        let (offset, _, piece) = t.layout.place(g);
        for i in 0..usize::from(t.counts[g]) {
            let mask = t.masks[t.layout.slot(g, i)];
            let cells = (0..64)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| offset * shift + b)
                .collect();
            out.push((piece, cells));
        }
    }
    out
}

/// The definition, for window `window` (set = filled) at cell `base`.
fn dead_by_definition(
    board: &Board,
    all: &[(usize, Vec<usize>)],
    base: usize,
    window: u64,
    unused: u32,
) -> bool {
    let inside = |c: usize| c >= base && c - base < 64;
    let free = |c: usize| c >= base && (c - base >= 64 || window >> (c - base) & 1 == 0);
    let lowest = (!window).trailing_zeros() as usize;
    let lead: Vec<usize> = (lowest..64.min(lowest + SPAN as usize))
        .filter(|&b| window >> b & 1 == 0)
        .map(|b| base + b)
        .collect();
    lead.into_iter().any(|cell| {
        let free_neighbours: Vec<usize> = board.neighbours(cell).filter(|&n| free(n)).collect();
        if free_neighbours.len() != 1 || !inside(free_neighbours[0]) {
            return false;
        }
        let covering: Vec<&(usize, Vec<usize>)> = all
            .iter()
            .filter(|(_, cells)| cells.contains(&cell) && cells[0] >= base)
            .collect();
        if covering
            .iter()
            .any(|(_, cells)| !cells.iter().all(|&c| inside(c)))
        {
            return false;
        }
        !covering
            .iter()
            .any(|(piece, cells)| unused >> piece & 1 == 1 && cells.iter().all(|&c| free(c)))
    })
}

#[test]
fn the_cover_check_is_its_definition() {
    let mut rng = Rng(0x00c0_7e5a);
    let mut seen = [0usize; 2];
    let mut children = 0;
    for case in 0..120 {
        let (w, h, d) = (2 + rng.below(3), 2 + rng.below(4), 2 + rng.below(10));
        let mut board = Board::cuboid(Grid::Cubic, w, h, d);
        for c in board.cells.iter_mut() {
            *c = rng.below(8) != 0;
        }
        let pieces: Vec<Piece> = (0..2 + rng.below(6))
            .map(|k| {
                let size = 3 + rng.below(3);
                let mut shape: Vec<Pt> = tiling::random_shape(&mut rng, Grid::Cubic, size);
                if rng.below(4) == 0 {
                    // A piece in two parts (the generator takes one; files do not), so
                    // that a cell of a placement may have no neighbour in it.
                    shape.push((0, 0, -2));
                }
                Piece {
                    name: k.to_string(),
                    cells: normalise(Grid::Cubic, &shape),
                    motion: Motion::ALL[rng.below(4)],
                    count: 1,
                }
            })
            .collect();
        let Ok((t, _)) = generate(&board, &pieces, None, true) else {
            continue;
        };
        let cover = Cover::new(&t.cover);
        let pockets = Pockets::new(&t.pockets);
        assert!(cover.on() && pockets.on(), "case {case}");
        let all = placements(&t);
        let shift = t.shift_rows * t.width;
        for offset in 0..t.offsets {
            for _ in 0..30 {
                let density = rng.below(5);
                let mut window = t.not_cells[offset];
                for bit in 0..64 {
                    if rng.below(6) < density {
                        window |= 1 << bit;
                    }
                }
                if window == u64::MAX {
                    continue;
                }
                let unused = rng.below(1 << pieces.len()) as u32;
                let counts = pockets.counts(window, offset);
                let got = cover.dead(window, offset, unused, &pockets, &counts);
                let want = dead_by_definition(&board, &all, offset * shift, window, unused);
                assert_eq!(
                    got, want,
                    "case {case}: {w}x{h}x{d} offset {offset} window {window:#x} unused {unused:#b}"
                );
                seen[usize::from(want)] += 1;
                // A parent of this window: some of its free cells free again.
                let placed = window & !t.not_cells[offset] & rng.below(1 << 40) as u64;
                let parent = window & !placed;
                let parent_counts = pockets.counts(parent, offset);
                let delta = Delta::of(&board, shift, offset, placed);
                if let Some(single) = pockets.single_after(&parent_counts, parent, placed, &delta) {
                    let by_parent = cover.dead_child(
                        window,
                        offset,
                        unused,
                        &pockets,
                        &parent_counts.has,
                        single,
                    );
                    assert_eq!(by_parent, got, "case {case}: parent {parent:#x}");
                    children += 1;
                }
            }
        }
    }
    assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
    assert!(children > 1000, "{children}");
}

#[test]
fn the_cover_check_is_off_without_the_pocket_check() {
    assert!(!Cover::NONE.on());
    // Pieces of one and two cubes: no pockets are dead, and the check is off.
    let board = Board::cuboid(Grid::Cubic, 2, 2, 2);
    let pieces = [1, 2].map(|n| Piece {
        name: n.to_string(),
        cells: normalise(
            Grid::Cubic,
            &tiling::random_shape(&mut Rng(1), Grid::Cubic, n),
        ),
        motion: Motion::ALL[0],
        count: 1,
    });
    let (t, _) = generate(&board, &pieces, None, true).expect("tables");
    assert!(!Cover::new(&t.cover).on());
    // Planar boards have neither.
    let square = Board::cuboid(Grid::Square, 4, 4, 1);
    let domino = Piece {
        cells: normalise(
            Grid::Square,
            &tiling::random_shape(&mut Rng(1), Grid::Square, 2),
        ),
        ..pieces[1].clone()
    };
    let (t, _) = generate(&square, &[domino], None, true).expect("tables");
    assert!(!Cover::new(&t.cover).on());
}

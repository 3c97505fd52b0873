//! The meteor placement tables: the copy `build.rs` baked into the binary against the
//! run-time generator, and both against an independent enumeration of placements
//! (the tests' verifier, `tests/it/common/tiling.rs`, with its own hex geometry).
//!
//! Known facts used: the board is 5 x 10 and the ten pieces are the pentahexes of the
//! smallest Benchmarks Game solution (`docs/known-counts.md`).

use std::collections::{BTreeMap, BTreeSet};

use super::tiling::meteor::{self as verify, point_of};
use super::tiling::{self, adjacent, images, Pt};
use crate::grid::{Grid, Motion};
use crate::meteor::{baked, WINDOW};
use crate::search::{Lane, Lanes};
use crate::tables::generate::meteor_tables;
use crate::tables::{Placement, Tables};

/// The verifier's canonical form of a free pentahex.
fn canonical(shape: &[Pt]) -> Vec<Pt> {
    tiling::canonical(Grid::Hex, shape, Motion::Free)
}

/// Every placement of `shape` on the whole meteor board, as sorted board cells,
/// enumerated by the verifier.
fn placements_on_board(shape: &[Pt]) -> BTreeSet<Vec<usize>> {
    let cells = [true; verify::CELLS];
    tiling::placements(
        Grid::Hex,
        verify::WIDTH,
        verify::HEIGHT,
        &cells,
        shape,
        Motion::Free,
    )
    .into_iter()
    .collect()
}

/// One table group: the placements of `piece` anchored at window bit `anchor` with the
/// window at `offset`, each with its orientation index.
struct Group {
    offset: usize,
    anchor: usize,
    piece: usize,
    placements: Vec<(Placement, u8)>,
}

/// Every group of the tables, in table order. The only code here that knows the layout
/// of [`Tables`] (besides the layout checks in `layout_of_the_tables`).
fn groups(t: &Tables) -> Vec<Group> {
    let mut out = Vec::new();
    for g in t.groups() {
        let (offset, anchor, piece) = t.layout.place(g);
        assert_eq!(t.layout.group(offset, anchor, piece), g);
        let placements = t.group_entries(g).collect();
        {
            {
                out.push(Group {
                    offset,
                    anchor,
                    piece,
                    placements,
                });
            }
        }
    }
    out
}

/// Number of placements in the tables.
fn placement_count(t: &Tables) -> usize {
    groups(t).iter().map(|g| g.placements.len()).sum()
}

/// Absolute board cells of window mask `mask` at window position `offset`.
fn cells(t: &Tables, offset: usize, mask: u64) -> Vec<usize> {
    let base = offset * t.shift_rows * t.width;
    (0..64)
        .filter(|b| mask >> b & 1 != 0)
        .map(|b| base + b)
        .collect()
}

/// Per piece, the set of placements (sorted absolute cells) the tables hold.
fn placement_sets(t: &Tables) -> Vec<BTreeSet<Vec<usize>>> {
    let mut out = vec![BTreeSet::new(); t.layout.pieces];
    for g in groups(t) {
        for (p, _) in &g.placements {
            out[g.piece].insert(cells(t, g.offset, p.mask));
        }
    }
    out
}

fn all_options() -> Vec<(bool, bool, Tables)> {
    let mut out = Vec::new();
    for prune in [true, false] {
        for half in [true, false] {
            out.push((prune, half, meteor_tables(prune, half).0));
        }
    }
    out
}

fn bytes<T: bytemuck::Pod>(xs: &[T]) -> &[u8] {
    bytemuck::cast_slice(xs)
}

/// `xs` narrowed element by element to the lane type of `_baked`.
fn narrow_like<L: Lane>(_baked: &[L], xs: &[u64]) -> Vec<L> {
    xs.iter().map(|&x| L::from_board(x)).collect()
}

/// The run-time lanes the search would build from `t`, in the lane type of `_baked`.
fn lanes_like<L: Lane>(_baked: &[L], t: &Tables) -> Lanes<L> {
    Lanes::new(t).expect("meteor placements fit the baked lane type")
}

/// The placements of baked tables in table order, read from the baked arrays alone.
fn baked_placements<L: Lane>(masks: &[L], islands: &[L]) -> Vec<Placement> {
    let mut out = Vec::new();
    for (g, &n) in baked::COUNTS.iter().enumerate() {
        for i in g * baked::SLOTS..g * baked::SLOTS + n as usize {
            out.push(Placement {
                mask: masks[i].widen(),
                islands: islands[i].widen(),
            });
        }
    }
    out
}

#[test]
fn baked_tables_equal_the_run_time_tables_byte_for_byte() {
    let (t, _) = meteor_tables(true, true);
    assert_eq!(baked::WIDTH, t.width);
    assert_eq!(baked::HEIGHT, t.height);
    assert_eq!(baked::SHIFT_ROWS, t.shift_rows);
    assert_eq!(baked::OFFSETS, t.offsets);
    assert_eq!(baked::ANCHORS, t.layout.anchors);
    assert_eq!(baked::PIECES, t.layout.pieces);
    assert_eq!(baked::FILLABLE, t.fillable);
    assert_eq!(Some(baked::HALF_TURN_PIECE), t.restricted_piece);
    assert_eq!(baked::SLOTS, t.layout.slots);
    assert_eq!(baked::BAND_ROWS, t.band_rows);
    // The baked masks are narrowed to the search's lane type (every placement fits it);
    // compare them with the run-time tables narrowed the same way, and, widened, with
    // the run-time placements.
    let masks = narrow_like(baked::MASKS.as_flattened(), &t.masks);
    let islands = narrow_like(baked::ISLANDS.as_flattened(), &t.islands);
    for (i, (&m, &x)) in masks.iter().zip(&islands).enumerate() {
        if i % t.layout.slots < t.counts[i / t.layout.slots] as usize {
            assert_eq!(
                (m.widen(), x.widen()),
                (t.masks[i], t.islands[i]),
                "slot {i}"
            );
        }
    }
    let baked_placements =
        baked_placements(baked::MASKS.as_flattened(), baked::ISLANDS.as_flattened());
    let run_placements: Vec<Placement> = groups(&t)
        .into_iter()
        .flat_map(|g| g.placements.into_iter().map(|(p, _)| p))
        .collect();
    let arrays: [(&str, &[u8], &[u8]); 9] = [
        ("COUNTS", &baked::COUNTS, &t.counts),
        (
            "USED_SLOTS",
            bytes(&baked::USED_SLOTS),
            bytes(&t.used_slots),
        ),
        ("MASKS", bytes(baked::MASKS.as_flattened()), bytes(&masks)),
        (
            "ISLANDS",
            bytes(baked::ISLANDS.as_flattened()),
            bytes(&islands),
        ),
        ("ORIENTATION_OF", &baked::ORIENTATION_OF, &t.orientation_of),
        (
            "BAD_BAND_EVEN",
            bytes(&baked::BAD_BAND_EVEN),
            bytes(&t.bad_band[0]),
        ),
        (
            "BAD_BAND_ODD",
            bytes(&baked::BAD_BAND_ODD),
            bytes(&t.bad_band[1]),
        ),
        ("NOT_CELLS", bytes(&baked::NOT_CELLS), bytes(&t.not_cells)),
        ("BAND_AT", &baked::BAND_AT, &t.band_at),
    ];
    assert!(baked_placements == run_placements, "the placements differ");
    for (name, b, r) in arrays {
        assert_eq!(b.len(), r.len(), "{name}: lengths differ");
        assert!(b == r, "{name} differs");
    }
    // The lanes a run-time search builds hold the same placements (their empty slots,
    // masked off by USED_SLOTS, may hold anything).
    let lanes = lanes_like(baked::MASKS.as_flattened(), &t);
    for (g, &n) in t.counts.iter().enumerate() {
        let used = g * t.layout.slots..g * t.layout.slots + n as usize;
        assert!(
            lanes.masks[used.clone()] == baked::MASKS.as_flattened()[used.clone()],
            "group {g}"
        );
        assert!(
            lanes.islands[used.clone()] == baked::ISLANDS.as_flattened()[used],
            "group {g}"
        );
    }

    // And the search reads exactly these.
    let w = &WINDOW;
    assert!(std::ptr::eq(
        bytes(w.masks),
        bytes(baked::MASKS.as_flattened())
    ));
    assert!(std::ptr::eq(
        bytes(w.islands.groups()),
        bytes(baked::ISLANDS.as_flattened())
    ));
    assert!(std::ptr::eq(w.used_slots, &baked::USED_SLOTS[..]));
    assert!(std::ptr::eq(w.not_cells, &baked::NOT_CELLS[..]));
    assert!(std::ptr::eq(w.bands.tables()[0], &baked::BAD_BAND_EVEN[..]));
    assert!(std::ptr::eq(w.bands.tables()[1], &baked::BAD_BAND_ODD[..]));
    assert!(std::ptr::eq(w.band_at, &baked::BAND_AT));
    assert_eq!(w.layout.anchors, t.layout.anchors);
    assert_eq!(w.layout.pieces, t.layout.pieces);
    assert_eq!(w.shift as usize, t.shift_rows * t.width);
    assert_eq!(w.shift_rows, t.shift_rows);
    assert!(std::ptr::eq(w.can_fit, &baked::CAN_FIT[..]));
    assert!(std::ptr::eq(w.placeable_from, &baked::PLACEABLE_FROM[..]));
    assert_eq!(w.can_fit, &t.can_fit[..]);
    assert_eq!(w.placeable_from, &t.placeable_from[..]);
    assert_eq!(w.look_bits as usize, t.look_bits);
    assert_eq!(w.last_offset, t.offsets - 1);
    assert_eq!(w.fillable, t.fillable);
    assert_eq!(w.bands.mask(), (1u64 << (t.band_rows * t.width)) - 1);
    // The baked window checks bands, as one built at run time from these tables would.
    assert!(t.bad_band.iter().flatten().any(|&x| x != 0));
    assert_eq!(w.checks, crate::search::CHECK_BAND);
}

/// The look-ahead table against its definition: bit `piece` of
/// `can_fit[cell << look_bits | pattern]` is set exactly when some placement of the
/// piece anchored at `cell` is clear of the pattern laid on the cells past the anchor.
#[test]
fn can_fit_is_its_definition() {
    for (prune, half, t) in all_options() {
        let shift = t.layout.anchors;
        let cells = t.can_fit.len() >> t.look_bits;
        assert_eq!(cells, t.placeable_from.len());
        for cell in 0..cells {
            let (offset, anchor) = (cell / shift, cell % shift);
            for pattern in 0u64..1 << t.look_bits {
                let filled = pattern.checked_shl(anchor as u32 + 1).unwrap_or(0);
                let want = (0..t.layout.pieces)
                    .filter(|&piece| {
                        let g = t.layout.group(offset, anchor, piece);
                        t.group_entries(g).any(|(p, _)| p.mask & filled == 0)
                    })
                    .fold(0u32, |m, piece| m | 1 << piece);
                assert_eq!(
                    t.can_fit[cell << t.look_bits | pattern as usize],
                    want,
                    "prune {prune}, half turn {half}: cell {cell}, pattern {pattern:#b}"
                );
            }
        }
    }
}

#[test]
fn layout_of_the_tables() {
    for (prune, half, t) in all_options() {
        let ctx = format!("prune {prune}, half turn {half}");
        let n = t.offsets * t.layout.anchors * t.layout.pieces;
        assert_eq!(t.counts.len(), n, "{ctx}");
        assert_eq!(t.used_slots.len(), n, "{ctx}");
        for v in [t.masks.len(), t.islands.len(), t.orientation_of.len()] {
            assert_eq!(v, n * t.layout.slots, "{ctx}");
        }
        assert_eq!(t.layout.slots % 4, 0, "{ctx}");
        assert!(
            t.layout.slots >= 12 && t.layout.slots <= 32,
            "{ctx}: {} slots",
            t.layout.slots
        );
        for g in 0..n {
            let c = t.counts[g] as usize;
            assert!(c <= t.layout.slots, "{ctx}: group {g}");
            assert_eq!(t.used_slots[g] as u64, (1u64 << c) - 1, "{ctx}: group {g}");
            let pad = &t.masks[g * t.layout.slots + c..(g + 1) * t.layout.slots];
            assert!(pad.iter().all(|&m| m == u64::MAX), "{ctx}: group {g}");
        }
        assert_eq!(t.placement_count(), placement_count(&t), "{ctx}");
        // Where a band starts for each window bit: its row's first bit, and the row's
        // parity at offset 0 in bit 7.
        for (bit, &at) in t.band_at.iter().enumerate() {
            let row = bit / t.width;
            let want = (row * t.width) as u8 | ((row % 2) as u8) << 7;
            assert_eq!(at, want, "{ctx}: band_at[{bit}]");
        }
        // Window bits that are not board cells: those north of the 50 cells.
        assert_eq!(t.not_cells.len(), t.offsets, "{ctx}");
        for (offset, &m) in t.not_cells.iter().enumerate() {
            let base = offset * t.shift_rows * t.width;
            let want = (0..64)
                .filter(|b| base + b >= verify::CELLS)
                .fold(0u64, |m, b| m | 1 << b);
            assert_eq!(m, want, "{ctx}: offset {offset}");
        }
    }
}

#[test]
fn shape_of_the_tables() {
    for (prune, half, t) in all_options() {
        let ctx = format!("prune {prune}, half turn {half}");
        assert_eq!((t.width, t.height, t.layout.pieces), (5, 10, 10), "{ctx}");
        // Offsets cover the board; anchors are the first shift_rows rows of the window.
        assert_eq!(t.layout.anchors, t.shift_rows * t.width, "{ctx}");
        assert!(t.offsets * t.shift_rows >= t.height, "{ctx}");
        // Ten pentahexes fill any multiple of 5 cells up to 50.
        let fillable = (0..=10).fold(0u64, |m, k| m | 1 << (5 * k));
        assert_eq!(t.fillable, fillable, "{ctx}");
    }
}

#[test]
fn every_placement_is_its_piece_anchored_at_its_slot() {
    let shapes = verify::shapes();
    for (prune, half, t) in all_options() {
        let ctx = format!("prune {prune}, half turn {half}");
        let (_, census) = meteor_tables(prune, half);
        for g in groups(&t) {
            let (offset, anchor, piece) = (g.offset, g.anchor, g.piece);
            let mut seen = BTreeSet::new();
            for (i, &(p, o)) in g.placements.iter().enumerate() {
                let at = format!("{ctx}: offset {offset}, anchor {anchor}, piece {piece}, #{i}");
                assert_eq!(p.mask.count_ones(), 5, "{at}");
                assert_eq!(p.mask.trailing_zeros() as usize, anchor, "{at}");
                let below = (1u64 << anchor) - 1;
                assert_eq!(p.mask & below, 0, "{at}");
                assert_eq!(p.islands & p.mask, 0, "{at}: islands overlap the piece");
                assert_eq!(p.islands & below, 0, "{at}: islands below the anchor");
                if !prune {
                    assert_eq!(p.islands, 0, "{at}: islands without pruning");
                }
                let abs = cells(&t, offset, p.mask | p.islands);
                assert!(
                    abs.iter().all(|&c| c < verify::CELLS),
                    "{at}: off the board"
                );
                let shape: Vec<Pt> = cells(&t, offset, p.mask)
                    .into_iter()
                    .map(point_of)
                    .collect();
                assert_eq!(canonical(&shape), shapes[piece], "{at}: not piece {piece}");
                assert!(seen.insert(p.mask), "{at}: duplicate");
                let orient = &census.orientations[piece];
                assert!((o as usize) < orient.len(), "{at}: orientation {o}");
            }
        }
    }
}

#[test]
fn unpruned_tables_hold_every_placement_once() {
    // Independently enumerated: every orientation of every piece at every position.
    let (t, _) = meteor_tables(false, false);
    let got = placement_sets(&t);
    let total: usize = got.iter().map(BTreeSet::len).sum();
    assert_eq!(total, placement_count(&t), "a placement is stored twice");
    for (piece, shape) in verify::shapes().iter().enumerate() {
        assert!(got[piece] == placements_on_board(shape), "piece {piece}");
    }
}

#[test]
fn orientation_counts_match_an_independent_count() {
    let (t, census) = meteor_tables(false, false);
    for (piece, shape) in verify::shapes().iter().enumerate() {
        let n = images(Grid::Hex, shape, Motion::Free).len();
        assert_eq!(census.orientations[piece].len(), n, "piece {piece}");
        assert!(
            n <= t.layout.slots,
            "piece {piece}: {n} orientations, {} slots",
            t.layout.slots
        );
    }
}

#[test]
fn pruning_strictly_reduces_the_placements() {
    for half in [true, false] {
        let (pruned, census) = meteor_tables(true, half);
        let (full, _) = meteor_tables(false, half);
        let (kept_n, all_n) = (placement_count(&pruned), placement_count(&full));
        assert!(
            kept_n < all_n,
            "half turn {half}: {kept_n} pruned vs {all_n} unpruned"
        );
        let kept = placement_sets(&pruned);
        let all = placement_sets(&full);
        for piece in 0..full.layout.pieces {
            assert!(kept[piece].is_subset(&all[piece]), "piece {piece}");
        }
        // The census agrees with the tables.
        let before: u32 = census.before.iter().flatten().sum();
        let after: u32 = census.after.iter().flatten().sum();
        assert_eq!(before as usize, all_n, "half turn {half}");
        assert_eq!(after as usize, kept_n, "half turn {half}");
    }
}

/// Per piece, the orientations the tables use.
fn used_orientations(t: &Tables) -> Vec<BTreeSet<u8>> {
    let mut out = vec![BTreeSet::new(); t.layout.pieces];
    for g in groups(t) {
        out[g.piece].extend(g.placements.iter().map(|&(_, o)| o));
    }
    out
}

#[test]
fn the_half_turn_restriction_keeps_one_placement_of_each_pair() {
    let (all, census) = meteor_tables(false, false);
    let (half, _) = meteor_tables(false, true);
    assert_eq!(all.restricted_piece, None);
    let h = half.restricted_piece.expect("a piece is restricted");
    assert_eq!(h, baked::HALF_TURN_PIECE);

    // Orientations: every piece keeps all of them (the restriction is by placement).
    let all_used = used_orientations(&all);
    let half_used = used_orientations(&half);
    for piece in 0..all.layout.pieces {
        let orients = census.orientations[piece].len();
        assert_eq!(all_used[piece].len(), orients, "piece {piece}");
        if piece != h {
            assert_eq!(half_used[piece], all_used[piece], "piece {piece}");
        }
    }

    // Placements: the restricted piece keeps exactly one of each half-turn pair, the
    // others keep all of theirs.
    let all_sets = placement_sets(&all);
    let half_sets = placement_sets(&half);
    let turn = |cells: &Vec<usize>| -> Vec<usize> {
        let mut v: Vec<usize> = cells.iter().map(|&c| verify::CELLS - 1 - c).collect();
        v.sort_unstable();
        v
    };
    for piece in 0..all.layout.pieces {
        if piece != h {
            assert!(half_sets[piece] == all_sets[piece], "piece {piece}");
            continue;
        }
        assert_eq!(half_sets[h].len() * 2, all_sets[h].len());
        let turned: BTreeSet<Vec<usize>> = half_sets[h].iter().map(turn).collect();
        assert!(turned.is_disjoint(&half_sets[h]));
        let union: BTreeSet<Vec<usize>> = turned.union(&half_sets[h]).cloned().collect();
        assert!(union == all_sets[h]);
    }

    // The orientation indices name the same orientations with and without the
    // restriction: a placement has the same orientation index in both tables.
    let mut index: BTreeMap<(usize, u64), u8> = BTreeMap::new();
    for g in groups(&all) {
        if g.piece == h {
            for (p, o) in g.placements {
                index.insert((g.offset, p.mask), o);
            }
        }
    }
    for g in groups(&half) {
        if g.piece == h {
            for (p, o) in g.placements {
                assert_eq!(index.get(&(g.offset, p.mask)), Some(&o));
            }
        }
    }
}

/// The region of `free` (band bits) holding its lowest bit, grown cell by cell.
fn flood(neighbours: &[u64], free: u64) -> u64 {
    let mut region = free & free.wrapping_neg();
    loop {
        let grown = (0..neighbours.len())
            .filter(|&i| region >> i & 1 == 1)
            .fold(region, |m, i| m | neighbours[i])
            & free;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// Judges band patterns independently: the band is rows `parity..parity + rows` of
/// the real board, in this crate's own hex geometry.
struct BandJudge {
    rows: usize,
    /// Per band bit, the band bits adjacent to it.
    neighbours: Vec<u64>,
    /// Per piece, its placements inside the band, as band bits.
    placements: Vec<Vec<u64>>,
    /// Regions already judged: whether the pieces can tile them.
    tileable: std::cell::RefCell<std::collections::HashMap<u64, bool>>,
}

impl BandJudge {
    fn new(parity: usize, rows: usize) -> BandJudge {
        let w = verify::WIDTH;
        assert!(parity + rows <= verify::HEIGHT, "a {rows}-row band");
        let base = parity * w;
        let bits = rows * w;
        let neighbours = (0..bits)
            .map(|i| {
                (0..bits)
                    .filter(|&j| adjacent(Grid::Hex, point_of(base + i), point_of(base + j)))
                    .fold(0u64, |m, j| m | 1 << j)
            })
            .collect();
        let placements = verify::shapes()
            .iter()
            .map(|shape| {
                placements_on_board(shape)
                    .into_iter()
                    .filter(|cells| cells.iter().all(|&c| c >= base && c < base + bits))
                    .map(|cells| cells.iter().fold(0u64, |m, &c| m | 1 << (c - base)))
                    .collect()
            })
            .collect();
        BandJudge {
            rows,
            neighbours,
            placements,
            tileable: Default::default(),
        }
    }

    /// Whether the pieces in `unused` (one bit per piece) can tile `region` exactly.
    fn tile(&self, region: u64, unused: u32) -> bool {
        if region == 0 {
            return true;
        }
        let low = region & region.wrapping_neg();
        (0..self.placements.len()).any(|piece| {
            unused >> piece & 1 != 0
                && self.placements[piece].iter().any(|&m| {
                    m & low != 0
                        && m & !region == 0
                        && self.tile(region & !m, unused & !(1 << piece))
                })
        })
    }

    /// Whether `pattern` (1 = filled) cannot be completed with every row south of the
    /// band filled: some free region stays off the band's last row (so it is closed on
    /// every side) and the ten pieces cannot tile it.
    fn dead(&self, pattern: u64) -> bool {
        let w = verify::WIDTH;
        let bits = self.rows * w;
        let last_row = ((1u64 << w) - 1) << ((self.rows - 1) * w);
        let mut free = !pattern & ((1u64 << bits) - 1);
        while free != 0 {
            let region = flood(&self.neighbours, free);
            free &= !region;
            if region & last_row != 0 {
                continue;
            }
            if !region.count_ones().is_multiple_of(5) {
                return true;
            }
            let known = self.tileable.borrow().get(&region).copied();
            let tileable = known.unwrap_or_else(|| {
                let t = self.tile(region, (1 << self.placements.len()) - 1);
                self.tileable.borrow_mut().insert(region, t);
                t
            });
            if !tileable {
                return true;
            }
        }
        false
    }
}

#[test]
fn band_tables_flag_only_dead_bands() {
    let (t, _) = meteor_tables(true, true);
    let bits = t.band_rows * t.width;
    assert!(bits < 64, "{bits} bits per band");
    for parity in 0..2 {
        let judge = BandJudge::new(parity, t.band_rows);
        let table = &t.bad_band[parity];
        assert_eq!(
            table.len(),
            (1usize << bits).div_ceil(64),
            "parity {parity}"
        );
        let mut flagged = 0;
        for (word, &w) in table.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let pattern = (word * 64) as u64 + u64::from(w.trailing_zeros());
                w &= w - 1;
                flagged += 1;
                assert!(
                    judge.dead(pattern),
                    "parity {parity}: pattern {pattern:#b} flagged but can be completed"
                );
            }
        }
        let all = (1u64 << bits) - 1;
        // A single free cell walled in on the band's first row is dead, and so is a free
        // first row (no meteor piece is a straight line); an empty or a full band is
        // not, nor is a free first row with a piece's cells free above it.
        assert!(judge.dead(all & !1), "parity {parity}");
        assert!(judge.dead(all & !0b11111), "parity {parity}");
        assert!(!judge.dead(0) && !judge.dead(all), "parity {parity}");
        let piece = judge.placements[0][0];
        assert!(!judge.dead(all & !piece), "parity {parity}: {piece:#b}");
        let flag = |p: u64| table[(p >> 6) as usize] >> (p & 63) & 1 != 0;
        assert!(
            flag(all & !1),
            "parity {parity}: one walled-in cell not flagged"
        );
        assert!(flagged > 0, "parity {parity}: nothing flagged");
    }
}

/// The band check's unchecked read ([`crate::search::Bands::alive`]) is the table's
/// bit, for every pattern of both parities, bits beyond the band ignored; and a band
/// table without a bit for every pattern, or islands for fewer groups than the masks,
/// are refused rather than read past.
#[test]
fn bands_and_islands_refuse_short_tables_and_read_every_pattern() {
    use crate::search::Bands;
    let (t, _) = meteor_tables(true, true);
    let bits = t.band_rows * t.width;
    let bands = Bands::new([&t.bad_band[0], &t.bad_band[1]], bits);
    for parity in 0..2 {
        let table = &t.bad_band[parity];
        for pattern in 0..1u64 << bits {
            let dead = table[(pattern >> 6) as usize] >> (pattern & 63) & 1;
            // A parity with other bits set, and cells past the band, change nothing.
            let beyond = pattern | 0b1011 << bits;
            assert_eq!(
                bands.alive(parity + 2, beyond),
                1 - dead,
                "{parity} {pattern:#b}"
            );
        }
    }
    let short = &t.bad_band[0][..t.bad_band[0].len() - 1];
    for tables in [[short, &t.bad_band[1][..]], [&t.bad_band[0][..], short]] {
        let made = std::panic::catch_unwind(|| Bands::new(tables, bits));
        assert!(made.is_err(), "a table one word short is refused");
    }
    // Islands for fewer groups than the masks are refused too (the island check reads
    // them where the masks were read, unchecked).
    let masks = [[0u32; 2]; 3];
    let made = std::panic::catch_unwind(|| crate::search::Islands::new(&masks[..2], &masks));
    assert!(made.is_err(), "islands for fewer groups are refused");
    assert_eq!(
        crate::search::Islands::new(&masks, &masks).groups().len(),
        3
    );
    // Fewer than 64 patterns: one word serves.
    let one = [0b10u64];
    let small = Bands::new([&one, &one], 2);
    assert_eq!([0, 1, 2, 3].map(|p| small.alive(0, p)), [1, 0, 1, 1]);
}

/// The band table as first written: every pattern of the whole band flooded on its own.
/// The table builder judges the rows below the last row alone; this is what it must
/// agree with.
fn band_table_pattern_by_pattern(
    grid: Grid,
    width: usize,
    parity: usize,
    pieces: &[crate::grid::Piece],
) -> Vec<u64> {
    use crate::grid::{orientations, Board, Locator};
    use crate::tables::band::band_rows;
    use crate::tables::fill::{fillable_sizes, tileable, TILE_CHECK_CELLS};
    let rows = band_rows(width);
    let bits = rows * width;
    let mut table = vec![0u64; (1usize << bits).div_ceil(64)];
    if !grid.is_planar() {
        return table;
    }
    let sizes: Vec<usize> = pieces
        .iter()
        .flat_map(|p| std::iter::repeat_n(p.cells.len(), p.count as usize))
        .collect();
    let fillable = fillable_sizes(&sizes);
    let orients: Vec<_> = pieces
        .iter()
        .map(|p| orientations(grid, &p.cells, p.motion))
        .collect();
    let mut available: Vec<u32> = pieces.iter().map(|p| p.count).collect();
    let mut verdicts = std::collections::HashMap::new();
    let board = Board::rectangle(grid, width, rows + parity);
    let board = Locator::new(&board);
    let base = parity * width;
    let neighbours: Vec<u64> = (0..bits)
        .map(|i| {
            board
                .neighbours(base + i)
                .filter(|&n| n >= base)
                .fold(0u64, |m, n| m | 1 << (n - base))
        })
        .collect();
    let all = (1u64 << bits) - 1;
    let last_row = all & !((1u64 << ((rows - 1) * width)) - 1);
    for pattern in 0u64..1 << bits {
        let mut free = !pattern & all;
        while free != 0 {
            let region = flood(&neighbours, free);
            free &= !region;
            if region & last_row != 0 {
                continue;
            }
            let size = region.count_ones() as usize;
            let mut tiles = || {
                *verdicts.entry(region).or_insert_with(|| {
                    let cells: Vec<usize> = (0..bits)
                        .filter(|&i| region >> i & 1 == 1)
                        .map(|i| base + i)
                        .collect();
                    tileable(&board, &cells, &orients, &mut available)
                })
            };
            if fillable >> size & 1 == 0 || (size <= TILE_CHECK_CELLS && !tiles()) {
                table[(pattern >> 6) as usize] |= 1 << (pattern & 63);
                break;
            }
        }
    }
    table
}

#[test]
fn band_tables_match_a_pattern_by_pattern_build() {
    use crate::puzzle::Puzzle;
    use crate::tables::band::band_tables;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for file in [
        "meteor.puz",
        "pentomino-6x10.puz",
        "pentomino-8x8-hole.puz",
        "hexiamonds-4x9.puz",
        "tetrahex-7x4.puz",
        "dominoes-10x10.puz",
    ] {
        let puzzle = Puzzle::load(&dir.join(file)).unwrap();
        let one_sided: Vec<_> = puzzle
            .pieces
            .iter()
            .map(|p| crate::grid::Piece {
                motion: crate::grid::Motion::OneSided,
                ..p.clone()
            })
            .collect();
        // As the file has them, and one-sided: on the hex grid the odd band's table is
        // the even one's mirror image only for pieces that may be turned over.
        for (motion, pieces) in [("as drawn", &puzzle.pieces), ("one-sided", &one_sided)] {
            let grid = puzzle.board.grid;
            let orients: Vec<_> = pieces
                .iter()
                .map(|p| crate::grid::orientations(grid, &p.cells, p.motion))
                .collect();
            let mut flagged = 0;
            // Up to 8 cells a row the table is laid down a word at a time, past it a bit
            // at a time.
            for width in 1..=9 {
                let tables = band_tables(grid, width, pieces, &orients);
                for (parity, table) in tables.into_iter().enumerate() {
                    assert_eq!(
                        table,
                        band_table_pattern_by_pattern(grid, width, parity, pieces),
                        "{file} ({motion}): width {width}, parity {parity}"
                    );
                    flagged += table.iter().map(|w| w.count_ones()).sum::<u32>();
                }
            }
            assert!(
                flagged > 0,
                "{file} ({motion}): no band flagged at any width"
            );
        }
    }
}

/// The bit-set tiler of table building decides exactly as the cell-list one, on random
/// sets of cells of small boards of every planar grid.
#[test]
fn the_bit_tiler_agrees_with_the_list_tiler() {
    use crate::grid::{orientations, Board, Locator};
    use crate::puzzle::Puzzle;
    use crate::tables::fill::{tileable, Tiler};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut next = super::xorshift(0x9e37_79b9_7f4a_7c15);
    for file in [
        "pentomino-6x10.puz",
        "tetrahex-7x4.puz",
        "hexiamonds-4x9.puz",
        "meteor.puz",
    ] {
        let puzzle = Puzzle::load(&dir.join(file)).unwrap();
        let grid = puzzle.board.grid;
        let orients: Vec<_> = puzzle
            .pieces
            .iter()
            .map(|p| orientations(grid, &p.cells, p.motion))
            .collect();
        let board = Board::rectangle(grid, 6, 5);
        let board = Locator::new(&board);
        let tiler: Tiler<u64> = Tiler::new(&board, &orients).unwrap();
        let (mut yes, mut no) = (0, 0);
        for _ in 0..400 {
            // About 12 cells of the 30: small enough for the list tiler's search.
            let region = next() & next() & ((1 << 30) - 1);
            let cells: Vec<usize> = (0..30).filter(|&c| region >> c & 1 == 1).collect();
            let mut available: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
            let by_lists = tileable(&board, &cells, &orients, &mut available);
            let by_bits = tiler.tileable(region, &mut available);
            assert_eq!(by_bits, by_lists, "{file}: cells {cells:?}");
            if by_lists {
                yes += 1;
            } else {
                no += 1;
            }
        }
        // Random sets are rarely tileable: add unions of placements, which often are.
        for _ in 0..200 {
            let mut region = 0u64;
            let mut cells = Vec::new();
            for _ in 0..3 {
                let piece = next() as usize % orients.len();
                let shape = &orients[piece][next() as usize % orients[piece].len()];
                if board.cells_into(shape, next() as usize % 30, &mut cells) {
                    region |= cells.iter().fold(0u64, |m, &c| m | 1 << c);
                }
            }
            let cells: Vec<usize> = (0..30).filter(|&c| region >> c & 1 == 1).collect();
            let mut available: Vec<u32> = puzzle.pieces.iter().map(|p| p.count).collect();
            let by_lists = tileable(&board, &cells, &orients, &mut available);
            assert_eq!(
                tiler.tileable(region, &mut available),
                by_lists,
                "{file}: cells {cells:?}"
            );
            if by_lists {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 20 && no > 20, "{file}: {yes} tileable, {no} not");
    }
}

/// `Locator::fitting` (every anchor at once, by shifts of the board's box) finds the
/// placements `Locator::cells_into` finds cell by cell, with the same cells in the same
/// order: on every shipped board laid every way the search may lay it, and on random
/// boards with holes on every grid.
#[test]
fn fitting_finds_the_placements_of_cells_into() {
    use crate::grid::{orientations, Axes, Board, Locator, Piece};
    let mut next = super::xorshift(0x2545_f491_4f6c_dd1d);
    let check = |board: &Board, pieces: &[Piece], what: &str| -> usize {
        let locator = Locator::new(board);
        let (mut by_cells, mut by_fitting) = (Vec::new(), Vec::new());
        let mut served = 0;
        for piece in pieces {
            for shape in orientations(board.grid, &piece.cells, piece.motion) {
                let Some(fitting) = locator.fitting(&shape) else {
                    continue;
                };
                served += 1;
                for cell in 0..board.cells.len() {
                    let lies = board.has(cell) && locator.cells_into(&shape, cell, &mut by_cells);
                    assert_eq!(
                        fitting.anchors >> cell & 1 == 1,
                        lies,
                        "{what}: {shape:?} at {cell}"
                    );
                    if lies {
                        fitting.cells_into(&locator, cell, &mut by_fitting);
                        assert_eq!(by_fitting, by_cells, "{what}: {shape:?} at {cell}");
                    }
                }
            }
        }
        served
    };
    let mut served = 0;
    let shipped = super::shipped_puzzles();
    for (name, puzzle) in &shipped {
        for axes in Axes::ALL {
            let (board, _) = puzzle.board.mapped(axes);
            let pieces: Vec<Piece> = puzzle
                .pieces
                .iter()
                .map(|p| Piece {
                    cells: p.cells.iter().map(|&q| axes.apply(q)).collect(),
                    ..p.clone()
                })
                .collect();
            served += check(&board, &pieces, &format!("{name} {axes:?}"));
        }
    }
    // Random boards with holes, on every grid, with each file's pieces of that grid.
    for (name, puzzle) in &shipped {
        for _ in 0..6 {
            let most = if puzzle.board.grid.is_planar() { 8 } else { 4 };
            let board = super::board_with_holes(puzzle.board.grid, &mut next, most, 5);
            served += check(&board, &puzzle.pieces, &format!("{name} random"));
        }
    }
    assert!(served > 1000, "only {served} shapes served by bit sets");
}

//! The search over the smallest domain, with propagation to a fixpoint on masks: the
//! search for puzzles like killer sudoku, where no static order is good.
//!
//! A `(cell, value)` choice is an exact-cover option covering the cell and, within each
//! distinct group of the cell, the value; a state is one domain mask per cell. The
//! states of a branch live in one preallocated stack, and propagation uses a few
//! preallocated work lists: no allocation per node.
//!
//! Before the search, equations the model implies are added (the "innies and outies"
//! of killer sudoku). A full group (as many cells as values, so it uses each value
//! once) sums to a known total, and so does a region of up to `MAX_REGION_GROUPS`
//! disjoint full groups that equations join. Subtracting disjoint equations with
//! coefficients 1 that lie inside the region (or also those mostly inside, or all that
//! meet it) leaves `+1` on the region's cells they do not cover and `-1` on their cells
//! outside it; those of at most `MAX_DERIVED_CELLS` cells are kept. A full group's own
//! sum is dropped: what it could tell, the group's hidden singles tell.
//!
//! Propagation, until nothing changes:
//! - a cell whose domain became one value removes that value from every cell that
//!   shares a group with it (one AND each, over a precomputed set of peers);
//! - a full group places a value that only one cell can still take, and a value that
//!   two or three cells can take leaves every cell outside the group that sees them
//!   all ("pointing"); counting is bit-sliced over the cells' masks;
//! - an equation with coefficients 1 over pairwise distinct cells has its value sets
//!   that reach the total precomputed (at most `MAX_COMBOS`; per value, one bit per
//!   set holding it). It keeps the sets that hold its placed values, no value its free
//!   cells lost, and a value of each free cell; narrows each free cell to the values
//!   of the kept sets; and a value in every kept set goes to the one free cell that
//!   can take it, or, if two or three can, leaves the cells that see them all;
//! - such an equation with more value sets narrows its free cells to what the sums of
//!   the `k` smallest and largest values still possible allow (k lowest and highest
//!   bits of the union of the free cells' domains, no sorting);
//! - any other equation narrows each free cell to the values its bounds allow; it is
//!   looked at again only when a least or greatest value of one of its cells changed;
//! - `a < b` keeps `a` below the largest value of `b` and `b` above the smallest of `a`.
//!
//! The search branches on a cell with the smallest domain; among those, on the one in
//! the most constraints.

use std::collections::BTreeSet;

use super::model::Model;
use super::solve::{bit_range, Found, Prepared, Search, Values};

/// Equations whose value sets are enumerated have at most this many (8 words of one
/// bit per set); beyond, checking them at each step costs more than bounds save.
const MAX_COMBOS: usize = 512;

/// Implied equations are kept up to this many cells: larger ones prune little and
/// cost time at every step.
const MAX_DERIVED_CELLS: usize = 4;

/// Regions for implied equations are unions of at most this many full groups.
const MAX_REGION_GROUPS: usize = 4;

/// At most this many regions are tried, so that models with many groups stay quick
/// to prepare.
const MAX_REGIONS: usize = 4096;

/// A value that at most this many cells of a group or equation can take is removed
/// from the cells that see them all.
const POINTING: u32 = 3;

/// An equation, compiled: a range of `Engine::terms`.
#[derive(Clone, Copy, Debug)]
struct Equation {
    start: u32,
    end: u32,
    target: i64,
    kind: Kind,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Any coefficients: bounds of each term.
    Linear,
    /// Coefficients 1 and -1, sums that fit an `i64`: bounds of each term, cheaper.
    Unit,
    /// Coefficients all 1 and cells pairwise distinct: bounds come from the `k`
    /// smallest and largest values still available.
    Bounds,
    /// As `Bounds`, with the `sets` value sets that reach the total: one bit per set,
    /// `w = ceil(sets / 64)` words per value bit, at `Engine::combos[index..][..64 *
    /// w]`; the equation's cells are `Engine::cell_sets[cells..][..words]`.
    Combos { sets: u32, index: u32, cells: u32 },
}

/// The model compiled into flat arrays for the search.
pub(super) struct Engine {
    cells: usize,
    /// `u64` words in a set of cells.
    words: usize,
    values: Values,
    initial: Vec<u64>,
    group_cells: Vec<u32>,
    /// Per group: range in `group_cells`, and its cells as a set at `cell_sets[..]`.
    groups: Vec<(u32, u32, u32)>,
    /// Per group: the values it must use all of (as many as it has cells), or 0.
    group_full: Vec<u64>,
    terms: Vec<(u32, i64)>,
    equations: Vec<Equation>,
    /// Per `Combos` equation, which value sets hold each value.
    combos: Vec<u64>,
    /// Sets of cells, `words` each: per cell its peers (the cells sharing a group with
    /// it), then the cells of each group and of each `Combos` equation.
    cell_sets: Vec<u64>,
    less: Vec<(u32, u32)>,
    /// Per cell: range in `links` of the full groups, equations and order constraints
    /// it takes part in.
    cell_links: Vec<(u32, u32)>,
    links: Vec<Link>,
    /// Per cell: `u16::MAX` minus its number of links, the tie-break of `choose`.
    rank: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
enum Link {
    /// A full group.
    Group(u32),
    /// An equation that any change of its cells may narrow.
    Equation(u32),
    /// An equation that only the least and greatest values of its cells narrow.
    Sum(u32),
    Less(u32),
}

/// Work lists of one thread's propagation, allocated once.
struct Scratch {
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Per queued cell: its least or greatest value went since it was queued.
    bounds_changed: Vec<bool>,
    dirty_equations: Vec<u32>,
    equation_dirty: Vec<bool>,
    dirty_groups: Vec<u32>,
    group_dirty: Vec<bool>,
    /// Domains of the current branch, one row of `cells` masks per depth.
    stack: Vec<u64>,
    /// A set of cells.
    set: Vec<u64>,
}

impl Scratch {
    fn new(engine: &Engine) -> Scratch {
        Scratch {
            queue: Vec::with_capacity(engine.cells),
            queued: vec![false; engine.cells],
            bounds_changed: vec![false; engine.cells],
            dirty_equations: Vec::with_capacity(engine.equations.len()),
            equation_dirty: vec![false; engine.equations.len()],
            dirty_groups: Vec::with_capacity(engine.groups.len()),
            group_dirty: vec![false; engine.groups.len()],
            stack: vec![0; engine.cells * (engine.cells + 2)],
            set: vec![0; engine.words],
        }
    }

    /// Empties the work lists after a contradiction.
    fn clear(&mut self) {
        for c in self.queue.drain(..) {
            self.queued[c as usize] = false;
            self.bounds_changed[c as usize] = false;
        }
        for e in self.dirty_equations.drain(..) {
            self.equation_dirty[e as usize] = false;
        }
        for g in self.dirty_groups.drain(..) {
            self.group_dirty[g as usize] = false;
        }
    }

    /// Queues `cell`, whose domain went from `old` (nonempty) to `new`.
    #[inline]
    fn push_cell(&mut self, cell: usize, old: u64, new: u64) {
        let ends = (old & old.wrapping_neg()) | (1u64 << 63 >> old.leading_zeros());
        if old & !new & ends != 0 {
            self.bounds_changed[cell] = true;
        }
        if !self.queued[cell] {
            self.queued[cell] = true;
            self.queue.push(cell as u32);
        }
    }
}

fn set_bit(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

fn has_bit(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 != 0
}

fn disjoint(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

/// The sum of the values of the bits of `mask`.
fn total(values: &Values, mut mask: u64) -> i128 {
    let mut sum = 0;
    while mask != 0 {
        sum += values.list[mask.trailing_zeros() as usize] as i128;
        mask &= mask - 1;
    }
    sum
}

/// The value sets of `k` distinct values among the bits of `union` that sum to
/// `target`, or `None` if there are more than [`MAX_COMBOS`] (or finding them takes
/// too long).
fn combinations(values: &Values, union: u64, k: usize, target: i64) -> Option<Vec<u64>> {
    struct Walk {
        bits: Vec<(u64, i128)>,
        out: Vec<u64>,
        /// Steps left: with values that are not consecutive, a total between the
        /// least and the most may still be out of reach, and the walk would not end.
        budget: u32,
    }
    // Values ascend with the bits: the `k` next values are the least a choice can add,
    // the `k` last the most. False when out of sets or steps.
    fn walk(w: &mut Walk, from: usize, k: usize, target: i128, mask: u64) -> bool {
        if w.budget == 0 {
            return false;
        }
        w.budget -= 1;
        if k == 0 {
            if target == 0 {
                if w.out.len() == MAX_COMBOS {
                    return false;
                }
                w.out.push(mask);
            }
            return true;
        }
        let bits = &w.bits[from..];
        if bits.len() < k {
            return true;
        }
        let least: i128 = bits[..k].iter().map(|b| b.1).sum();
        let most: i128 = bits[bits.len() - k..].iter().map(|b| b.1).sum();
        if least > target || most < target {
            return true;
        }
        let (bit, value) = bits[0];
        walk(w, from + 1, k - 1, target - value, mask | bit) && walk(w, from + 1, k, target, mask)
    }
    let mut bits = Vec::new();
    let mut m = union;
    while m != 0 {
        let b = m.trailing_zeros();
        bits.push((1u64 << b, values.list[b as usize] as i128));
        m &= m - 1;
    }
    let mut w = Walk {
        bits,
        out: Vec::new(),
        budget: 64 * MAX_COMBOS as u32 * 4,
    };
    walk(&mut w, 0, k, target as i128, 0).then_some(w.out)
}

/// Equations the model implies: for a region made of disjoint full groups, whose
/// total is known, subtract disjoint equations with coefficients 1 that lie inside it,
/// or that have more cells inside than out, or that meet it at all; what remains is
/// `+1` on the region's uncovered cells and `-1` on the subtracted equations' cells
/// outside it. Only those of at most [`MAX_DERIVED_CELLS`] cells, and not already in
/// the model, are returned.
fn derived(words: usize, values: &Values, prepared: &Prepared) -> Vec<(Vec<(usize, i64)>, i64)> {
    let set_of = |cells: &[usize]| {
        let mut s = vec![0u64; words];
        for &c in cells {
            set_bit(&mut s, c);
        }
        s
    };
    // Full groups: cells (as a set), how many, total.
    let mut full: Vec<(Vec<u64>, u32, i128)> = Vec::new();
    for (cells, &mask) in prepared.groups.iter().zip(&prepared.group_full) {
        if mask != 0 {
            full.push((set_of(cells), cells.len() as u32, total(values, mask)));
        }
    }
    // Equations with coefficients 1 other than the full groups' own sums ("units"):
    // cells (as a set), how many, target.
    let mut units: Vec<(Vec<u64>, u32, i128)> = Vec::new();
    for (terms, target) in &prepared.equations {
        if terms.iter().all(|t| t.1 == 1) {
            let cells: Vec<usize> = terms.iter().map(|t| t.0).collect();
            let s = set_of(&cells);
            if !full.iter().any(|f| f.0 == s) && !units.iter().any(|u| u.0 == s) {
                units.push((s, cells.len() as u32, *target as i128));
            }
        }
    }
    let mut out: Vec<(Vec<(usize, i64)>, i64)> = Vec::new();
    if full.is_empty() || units.is_empty() {
        return out;
    }
    // Per full group, the units that meet it and in how many cells: the groups of a
    // region are disjoint, so a unit's cells inside the region add up.
    let touching: Vec<Vec<(usize, u32)>> = full
        .iter()
        .map(|(g, _, _)| {
            let meet = |(u, (s, _, _)): (usize, &(Vec<u64>, u32, i128))| {
                let n: u32 = s.iter().zip(g).map(|(a, b)| (a & b).count_ones()).sum();
                (n > 0).then_some((u, n))
            };
            units.iter().enumerate().filter_map(meet).collect()
        })
        .collect();
    // Regions grow one group at a time, each new group sharing a unit with the others:
    // the equation of two parts that no unit joins is the sum of theirs, on more cells.
    let mut unit_groups: Vec<Vec<usize>> = vec![Vec::new(); units.len()];
    for (g, list) in touching.iter().enumerate() {
        for &(u, _) in list {
            unit_groups[u].push(g);
        }
    }
    // A region is a set of full groups, one bit each; with more groups than bits, only
    // single groups are tried.
    let depths = if full.len() <= 128 {
        MAX_REGION_GROUPS
    } else {
        1
    };
    let groups_bits = full.len().min(128);
    // Per group: the groups that share a unit with it, and those that share a cell.
    let mut neighbours = vec![0u128; groups_bits];
    let mut overlapping = vec![0u128; groups_bits];
    for list in &unit_groups {
        let mask = list
            .iter()
            .filter(|&&g| g < 128)
            .fold(0u128, |m, &g| m | 1 << g);
        for &g in list.iter().filter(|&&g| g < 128) {
            neighbours[g] |= mask;
        }
    }
    for g in 0..groups_bits {
        for h in 0..groups_bits {
            if !disjoint(&full[g].0, &full[h].0) {
                overlapping[g] |= 1 << h;
            }
        }
    }
    let members = |key: u128, list: &mut Vec<usize>| {
        list.clear();
        let mut m = key;
        while m != 0 {
            list.push(m.trailing_zeros() as usize);
            m &= m - 1;
        }
    };
    let mut seen: BTreeSet<(Vec<(usize, i64)>, i64)> = BTreeSet::new();
    let mut level: Vec<u128> = (0..groups_bits).map(|g| 1 << g).collect();
    let mut tried = 0;
    let mut inside = vec![0u32; units.len()];
    let mut met: Vec<usize> = Vec::new();
    let mut groups: Vec<usize> = Vec::new();
    let mut region = vec![0u64; words];
    let mut chosen = vec![0u64; words];
    for depth in 1..=depths {
        if depth > 1 {
            let mut next = Vec::new();
            for &old in &level {
                members(old, &mut groups);
                let near = groups.iter().fold(0, |m, &g| m | neighbours[g]);
                let far = groups.iter().fold(0, |m, &g| m | overlapping[g]);
                let mut grow = near & !far;
                while grow != 0 {
                    next.push(old | 1 << grow.trailing_zeros());
                    grow &= grow - 1;
                }
            }
            next.sort_unstable();
            next.dedup();
            level = next;
        }
        level.truncate(MAX_REGIONS.saturating_sub(tried));
        tried += level.len();
        for &region_key in &level {
            members(region_key, &mut groups);
            region.fill(0);
            let (mut size, mut region_total) = (0u32, 0i128);
            met.clear();
            for &g in &groups {
                region.iter_mut().zip(&full[g].0).for_each(|(r, f)| *r |= f);
                size += full[g].1;
                region_total += full[g].2;
                for &(u, n) in &touching[g] {
                    if inside[u] == 0 {
                        met.push(u);
                    }
                    inside[u] += n;
                }
            }
            met.sort_unstable();
            // Taking the units with more cells inside than out leaves the fewest cells
            // (when they are disjoint): if that is too many, so are the other choices.
            let fewest = met.iter().fold(size as i64, |acc, &u| {
                let (n, i) = (units[u].1 as i64, inside[u] as i64);
                acc + (n - 2 * i).min(0)
            });
            let choices = if fewest > MAX_DERIVED_CELLS as i64 {
                0
            } else {
                3
            };
            for choice in 0..choices {
                chosen.fill(0);
                let (mut cells, mut target) = (size, region_total);
                for &u in &met {
                    let (set, n, t) = &units[u];
                    let i = inside[u];
                    let take = match choice {
                        0 => i == *n,
                        1 => 2 * i > *n,
                        _ => true,
                    };
                    if take && disjoint(&chosen, set) {
                        chosen.iter_mut().zip(set).for_each(|(a, b)| *a |= b);
                        // `i` cells leave the region's part, `n - i` join outside.
                        cells = cells + n - 2 * i;
                        target -= t;
                    }
                }
                let Ok(target) = i64::try_from(target) else {
                    continue;
                };
                if cells == 0 || cells as usize > MAX_DERIVED_CELLS {
                    continue;
                }
                let mut terms = Vec::with_capacity(cells as usize);
                for (w, (&r, &c)) in region.iter().zip(&chosen).enumerate() {
                    let mut m = r ^ c;
                    while m != 0 {
                        let b = m.trailing_zeros() as usize;
                        m &= m - 1;
                        terms.push((w * 64 + b, if r >> b & 1 != 0 { 1 } else { -1 }));
                    }
                }
                let stated = prepared
                    .equations
                    .iter()
                    .any(|(t, v)| *v == target && *t == terms);
                let e = (terms, target);
                if !stated && seen.insert(e.clone()) {
                    out.push(e);
                }
            }
            for &u in &met {
                inside[u] = 0;
            }
        }
    }
    out
}

impl Engine {
    pub(super) fn new(model: &Model, prepared: &Prepared) -> Engine {
        let n = model.cells.len();
        let words = n.div_ceil(64).max(1);
        let values = Values::new(&model.values);
        let initial: Vec<u64> = model.domains.iter().map(|&d| d & values.all).collect();
        let mut cell_sets = vec![0u64; n * words];
        for cells in &prepared.groups {
            for &a in cells {
                for &b in cells {
                    if a != b {
                        set_bit(&mut cell_sets[a * words..(a + 1) * words], b);
                    }
                }
            }
        }
        let peers = cell_sets.clone();
        let mut group_cells = Vec::new();
        let mut groups = Vec::new();
        for cells in &prepared.groups {
            let start = group_cells.len() as u32;
            group_cells.extend(cells.iter().map(|&c| c as u32));
            let set = cell_sets.len();
            cell_sets.resize(set + words, 0);
            for &c in cells {
                set_bit(&mut cell_sets[set..], c);
            }
            groups.push((start, group_cells.len() as u32, set as u32));
        }
        let distinct = |cells: &[usize]| {
            cells.iter().enumerate().all(|(i, &a)| {
                cells[i + 1..]
                    .iter()
                    .all(|&b| has_bit(&peers[a * words..(a + 1) * words], b))
            })
        };
        // A full group's own sum: hidden singles and pointing do all it could.
        let own_sum = |ts: &[(usize, i64)], target: i64| {
            let mut cells: Vec<usize> = ts.iter().map(|t| t.0).collect();
            cells.sort_unstable();
            ts.iter().all(|t| t.1 == 1)
                && prepared
                    .groups
                    .iter()
                    .zip(&prepared.group_full)
                    .any(|(g, &full)| {
                        full != 0 && *g == cells && total(&values, full) == target as i128
                    })
        };
        // Sums of values and targets this small cannot overflow an i64.
        let biggest = values
            .list
            .iter()
            .map(|v| v.unsigned_abs())
            .max()
            .unwrap_or(0) as u128;
        let small = |len: usize, target: i64| {
            biggest * len as u128 + target.unsigned_abs() as u128 <= (i64::MAX / 2) as u128
        };
        let mut terms = Vec::new();
        let mut equations = Vec::new();
        let mut combos: Vec<u64> = Vec::new();
        let extra = derived(words, &values, prepared);
        for (ts, target) in prepared.equations.iter().chain(&extra) {
            if own_sum(ts, *target) {
                continue;
            }
            let start = terms.len() as u32;
            terms.extend(ts.iter().map(|&(c, a)| (c as u32, a)));
            let cells: Vec<usize> = ts.iter().map(|t| t.0).collect();
            let kind = if ts.iter().all(|t| t.1 == 1) && cells.len() >= 2 && distinct(&cells) {
                let union = cells.iter().fold(0, |u, &c| u | initial[c]);
                match combinations(&values, union, cells.len(), *target) {
                    Some(list) => {
                        let w = list.len().div_ceil(64);
                        let index = combos.len();
                        combos.resize(index + 64 * w, 0);
                        for (i, &combo) in list.iter().enumerate() {
                            let mut b = combo;
                            while b != 0 {
                                let v = b.trailing_zeros() as usize;
                                b &= b - 1;
                                combos[index + v * w + i / 64] |= 1 << (i % 64);
                            }
                        }
                        let set = cell_sets.len();
                        cell_sets.resize(set + words, 0);
                        for &c in &cells {
                            set_bit(&mut cell_sets[set..], c);
                        }
                        Kind::Combos {
                            sets: list.len() as u32,
                            index: index as u32,
                            cells: set as u32,
                        }
                    }
                    None => Kind::Bounds,
                }
            } else if ts.iter().all(|t| t.1.abs() == 1) && small(ts.len(), *target) {
                Kind::Unit
            } else {
                Kind::Linear
            };
            equations.push(Equation {
                start,
                end: terms.len() as u32,
                target: *target,
                kind,
            });
        }
        let less: Vec<(u32, u32)> = prepared
            .less
            .iter()
            .map(|&(a, b)| (a as u32, b as u32))
            .collect();

        let mut per_cell: Vec<Vec<Link>> = vec![Vec::new(); n];
        for (g, &(s, e, _)) in groups.iter().enumerate() {
            if prepared.group_full[g] != 0 {
                for &c in &group_cells[s as usize..e as usize] {
                    per_cell[c as usize].push(Link::Group(g as u32));
                }
            }
        }
        for (i, eq) in equations.iter().enumerate() {
            for &(c, _) in &terms[eq.start as usize..eq.end as usize] {
                per_cell[c as usize].push(match eq.kind {
                    Kind::Linear | Kind::Unit => Link::Sum(i as u32),
                    Kind::Bounds | Kind::Combos { .. } => Link::Equation(i as u32),
                });
            }
        }
        for (i, &(a, b)) in less.iter().enumerate() {
            per_cell[a as usize].push(Link::Less(i as u32));
            per_cell[b as usize].push(Link::Less(i as u32));
        }
        let rank = per_cell
            .iter()
            .map(|l| u16::MAX as u32 - l.len().min(u16::MAX as usize) as u32)
            .collect();
        let mut links = Vec::new();
        let mut cell_links = Vec::with_capacity(n);
        for l in per_cell {
            let start = links.len() as u32;
            links.extend(l);
            cell_links.push((start, links.len() as u32));
        }
        Engine {
            cells: n,
            words,
            values,
            initial,
            group_cells,
            groups,
            group_full: prepared.group_full.clone(),
            terms,
            equations,
            combos,
            cell_sets,
            less,
            cell_links,
            links,
            rank,
        }
    }

    /// Narrows `cell` to `keep`; false if that leaves nothing.
    #[inline]
    fn narrow(&self, domains: &mut [u64], cell: usize, keep: u64, s: &mut Scratch) -> bool {
        let d = domains[cell];
        let nd = d & keep;
        if nd != d {
            if nd == 0 {
                return false;
            }
            domains[cell] = nd;
            s.push_cell(cell, d, nd);
        }
        true
    }

    /// Places `bit` in `cell`, which can take it.
    #[inline]
    fn place(&self, domains: &mut [u64], cell: usize, bit: u64, s: &mut Scratch) {
        let d = domains[cell];
        if d != bit {
            domains[cell] = bit;
            s.push_cell(cell, d, bit);
        }
    }

    /// Removes `bit` from every cell of `set`; false if that empties one.
    fn remove_from_set(&self, domains: &mut [u64], set: &[u64], bit: u64, s: &mut Scratch) -> bool {
        for (w, &word) in set.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let p = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if !self.narrow(domains, p, !bit, s) {
                    return false;
                }
            }
        }
        true
    }

    #[inline]
    fn peers(&self, cell: usize) -> &[u64] {
        &self.cell_sets[cell * self.words..(cell + 1) * self.words]
    }

    /// `bit` must go to one of the cells of `candidates` that can take it, so it
    /// leaves every cell that sees all those, except the cells of the set at
    /// `cell_sets[keep..]`. False if no candidate can take it or a cell is emptied.
    fn point(
        &self,
        domains: &mut [u64],
        candidates: &[u32],
        keep: usize,
        bit: u64,
        s: &mut Scratch,
    ) -> bool {
        let mut common = std::mem::take(&mut s.set);
        for (i, m) in common.iter_mut().enumerate() {
            *m = !self.cell_sets[keep + i];
        }
        let mut any = false;
        for &c in candidates {
            if domains[c as usize] & bit != 0 {
                any = true;
                let peers = self.peers(c as usize);
                common.iter_mut().zip(peers).for_each(|(m, p)| *m &= p);
            }
        }
        let ok = any && self.remove_from_set(domains, &common, bit, s);
        s.set = common;
        ok
    }

    /// Propagates until nothing changes, starting from the cells in the queue and the
    /// dirty equations and groups. False on a contradiction (work lists cleared).
    fn propagate(&self, domains: &mut [u64], s: &mut Scratch) -> bool {
        let ok = self.propagate_inner(domains, s);
        if !ok {
            s.clear();
        }
        ok
    }

    fn propagate_inner(&self, domains: &mut [u64], s: &mut Scratch) -> bool {
        loop {
            // Cheapest first: peers of placed cells, then equations, then groups, whose
            // hidden singles are most often found by then.
            if let Some(c) = s.queue.pop() {
                let c = c as usize;
                s.queued[c] = false;
                let bounds_changed = std::mem::take(&mut s.bounds_changed[c]);
                let d = domains[c];
                if d & (d - 1) == 0 && !self.remove_from_set(domains, self.peers(c), d, s) {
                    return false;
                }
                let (start, end) = self.cell_links[c];
                for &link in &self.links[start as usize..end as usize] {
                    match link {
                        Link::Group(g) => {
                            if !s.group_dirty[g as usize] {
                                s.group_dirty[g as usize] = true;
                                s.dirty_groups.push(g);
                            }
                        }
                        Link::Sum(_) | Link::Less(_) if !bounds_changed => {}
                        Link::Equation(e) | Link::Sum(e) => {
                            if !s.equation_dirty[e as usize] {
                                s.equation_dirty[e as usize] = true;
                                s.dirty_equations.push(e);
                            }
                        }
                        Link::Less(i) => {
                            let (a, b) = self.less[i as usize];
                            let (a, b) = (a as usize, b as usize);
                            // b above a's least value, a below b's greatest.
                            let above = !bit_range(0, domains[a].trailing_zeros() as usize);
                            let below_bit = 63 - domains[b].leading_zeros() as usize;
                            let below = if below_bit == 0 {
                                0
                            } else {
                                bit_range(0, below_bit - 1)
                            };
                            if !self.narrow(domains, b, above, s)
                                || !self.narrow(domains, a, below, s)
                            {
                                return false;
                            }
                        }
                    }
                }
                continue;
            }
            if let Some(e) = s.dirty_equations.pop() {
                s.equation_dirty[e as usize] = false;
                if !self.equation(domains, e as usize, s) {
                    return false;
                }
                continue;
            }
            if let Some(g) = s.dirty_groups.pop() {
                s.group_dirty[g as usize] = false;
                if !self.full_group(domains, g as usize, s) {
                    return false;
                }
                continue;
            }
            return true;
        }
    }

    /// A full group needs every one of its values: one that only one cell can take
    /// goes there; one that two or three cells can take leaves the cells outside the
    /// group that see them all.
    fn full_group(&self, domains: &mut [u64], g: usize, s: &mut Scratch) -> bool {
        let (gs, ge, set) = self.groups[g];
        let cells = &self.group_cells[gs as usize..ge as usize];
        // Bit-sliced counts: values in at least one, two, three, four cells.
        let (mut one, mut two, mut three, mut four) = (0u64, 0u64, 0u64, 0u64);
        for &c in cells {
            let d = domains[c as usize];
            four |= three & d;
            three |= two & d;
            two |= one & d;
            one |= d;
        }
        let need = self.group_full[g];
        if one & need != need {
            return false;
        }
        let mut only = one & !two;
        while only != 0 {
            let bit = only & only.wrapping_neg();
            only &= only - 1;
            if let Some(&c) = cells.iter().find(|&&c| domains[c as usize] & bit != 0) {
                self.place(domains, c as usize, bit, s);
            }
        }
        // Values in two or three cells: the counts above stop at four.
        const _: () = assert!(POINTING == 3);
        let mut few = two & !four;
        while few != 0 {
            let bit = few & few.wrapping_neg();
            few &= few - 1;
            // (Placing the singles above may have taken the value from its cells.)
            if !self.point(domains, cells, set as usize, bit, s) {
                return false;
            }
        }
        true
    }

    fn equation(&self, domains: &mut [u64], e: usize, s: &mut Scratch) -> bool {
        let eq = self.equations[e];
        let terms = &self.terms[eq.start as usize..eq.end as usize];
        match eq.kind {
            Kind::Linear => self.linear(domains, terms, eq.target, s),
            Kind::Unit => self.unit(domains, terms, eq.target, s),
            Kind::Bounds => self.distinct_sum(domains, terms, eq.target, s),
            Kind::Combos { sets, index, cells } => {
                let (sets, index, cells) = (sets as usize, index as usize, cells as usize);
                match sets.div_ceil(64) {
                    // No value set reaches the total.
                    0 => false,
                    1 => self.combos::<1>(domains, terms, sets, index, cells, s),
                    2 => self.combos::<2>(domains, terms, sets, index, cells, s),
                    3 => self.combos::<3>(domains, terms, sets, index, cells, s),
                    4 => self.combos::<4>(domains, terms, sets, index, cells, s),
                    5 => self.combos::<5>(domains, terms, sets, index, cells, s),
                    6 => self.combos::<6>(domains, terms, sets, index, cells, s),
                    7 => self.combos::<7>(domains, terms, sets, index, cells, s),
                    _ => self.combos::<8>(domains, terms, sets, index, cells, s),
                }
            }
        }
    }

    /// Coefficients 1, pairwise distinct cells, `sets` value sets reaching the total
    /// (`W` words of one bit per set for each value, at `combos[index..]`): a set is
    /// kept if it holds every placed value, no value its free cells all lost, and a
    /// value of each free cell's domain. Each free cell is narrowed to the kept sets'
    /// values; a value in all of them must be in a free cell that can take it.
    fn combos<const W: usize>(
        &self,
        domains: &mut [u64],
        terms: &[(u32, i64)],
        sets: usize,
        index: usize,
        cells: usize,
        s: &mut Scratch,
    ) -> bool {
        let mut placed = 0u64;
        let mut union = 0u64;
        let mut free = [0u32; 64];
        let mut k = 0;
        for &(c, _) in terms {
            let d = domains[c as usize];
            if d & (d - 1) == 0 {
                if placed & d != 0 {
                    return false;
                }
                placed |= d;
            } else {
                union |= d;
                free[k] = c;
                k += 1;
            }
        }
        let free = &free[..k];
        let holding = |v: u32| -> &[u64; W] {
            self.combos[index + v as usize * W..][..W]
                .try_into()
                .expect("W words")
        };
        let mut kept = [u64::MAX; W];
        if sets % 64 != 0 {
            kept[W - 1] = (1 << (sets % 64)) - 1;
        }
        let mut m = placed;
        while m != 0 {
            let h = holding(m.trailing_zeros());
            m &= m - 1;
            kept.iter_mut().zip(h).for_each(|(x, h)| *x &= h);
        }
        let mut m = self.values.all & !(union | placed);
        while m != 0 {
            let h = holding(m.trailing_zeros());
            m &= m - 1;
            kept.iter_mut().zip(h).for_each(|(x, h)| *x &= !h);
        }
        for &c in free {
            let mut meets = [0u64; W];
            let mut m = domains[c as usize];
            while m != 0 {
                let h = holding(m.trailing_zeros());
                m &= m - 1;
                meets.iter_mut().zip(h).for_each(|(x, h)| *x |= h);
            }
            kept.iter_mut().zip(&meets).for_each(|(x, h)| *x &= h);
        }
        if kept.iter().all(|&x| x == 0) {
            return false;
        }
        if k == 0 {
            return true;
        }
        let (mut allowed, mut required) = (0u64, 0u64);
        let mut m = union & !placed;
        while m != 0 {
            let bit = m & m.wrapping_neg();
            let h = holding(m.trailing_zeros());
            m &= m - 1;
            let (mut some, mut missing) = (0u64, 0u64);
            for i in 0..W {
                some |= kept[i] & h[i];
                missing |= kept[i] & !h[i];
            }
            if some != 0 {
                allowed |= bit;
                if missing == 0 {
                    required |= bit;
                }
            }
        }
        for &c in free {
            if !self.narrow(domains, c as usize, allowed, s) {
                return false;
            }
        }
        while required != 0 {
            let bit = required & required.wrapping_neg();
            required &= required - 1;
            let mut holders = 0;
            let mut last = 0;
            for &c in free {
                if domains[c as usize] & bit != 0 {
                    holders += 1;
                    last = c as usize;
                }
            }
            match holders {
                0 => return false,
                1 => self.place(domains, last, bit, s),
                // Two or three cells: the value leaves the cells that see them all.
                h if h <= POINTING && !self.point(domains, free, cells, bit, s) => return false,
                _ => {}
            }
        }
        true
    }

    /// Coefficients 1 and -1: as [`Engine::linear`], in `i64`.
    fn unit(
        &self,
        domains: &mut [u64],
        terms: &[(u32, i64)],
        target: i64,
        s: &mut Scratch,
    ) -> bool {
        let (mut lo, mut hi, mut widest) = (0i64, 0i64, 0i64);
        for &(c, a) in terms {
            let d = domains[c as usize];
            let (min, max) = (self.values.min(d), self.values.max(d));
            if a > 0 {
                lo += min;
                hi += max;
            } else {
                lo -= max;
                hi -= min;
            }
            widest = widest.max(max - min);
        }
        if target < lo || target > hi {
            return false;
        }
        // A term narrows only if its own range is wider than the slack on a side.
        if target - lo >= widest && hi - target >= widest {
            return true;
        }
        for &(c, a) in terms {
            let d = domains[c as usize];
            if d & (d - 1) == 0 {
                continue;
            }
            let (min, max) = (self.values.min(d), self.values.max(d));
            let keep = if a > 0 {
                self.values.range(target - (hi - max), target - (lo - min))
            } else {
                // -v lies in [target - (hi + min), target - (lo + max)].
                self.values.range(lo + max - target, hi + min - target)
            };
            if !self.narrow(domains, c as usize, keep, s) {
                return false;
            }
        }
        true
    }

    /// Distinct cells, coefficients 1: the free cells take distinct values from the
    /// union of their domains, so their total lies between the sums of its `k`
    /// smallest and `k` largest values; a value `v` of one free cell is possible only
    /// if the other `k - 1` can make up the rest.
    fn distinct_sum(
        &self,
        domains: &mut [u64],
        terms: &[(u32, i64)],
        target: i64,
        s: &mut Scratch,
    ) -> bool {
        let mut fixed = 0i64;
        let mut union = 0u64;
        let mut free = 0u32;
        for &(c, _) in terms {
            let d = domains[c as usize];
            if d & (d - 1) == 0 {
                fixed += self.values.min(d);
            } else {
                union |= d;
                free += 1;
            }
        }
        let rest = target - fixed;
        if free == 0 {
            return rest == 0;
        }
        if union.count_ones() < free {
            return false;
        }
        // The k - 1 smallest values (mask and sum), then the k-th; the same from the top.
        let (low, low_sum, above_low) = self.values.lowest(union, free - 1);
        let kth_low = self.values.min(above_low);
        let (high, high_sum, below_high) = self.values.highest(union, free - 1);
        let kth_high = self.values.max(below_high);
        if low_sum + kth_low > rest || high_sum + kth_high < rest {
            return false;
        }
        let keep = (low | self.values.range(i64::MIN, rest - low_sum))
            & (high | self.values.range(rest - high_sum, i64::MAX));
        if keep & union == union {
            return true;
        }
        for &(c, _) in terms {
            let d = domains[c as usize];
            if d & (d - 1) != 0 && !self.narrow(domains, c as usize, keep, s) {
                return false;
            }
        }
        true
    }

    /// Any coefficients: each term lies between its least and greatest contribution,
    /// and each free cell's contribution must fit what the others can make up.
    fn linear(
        &self,
        domains: &mut [u64],
        terms: &[(u32, i64)],
        target: i64,
        s: &mut Scratch,
    ) -> bool {
        let (mut lo, mut hi) = (0i128, 0i128);
        for &(c, a) in terms {
            let (l, h) = self.values.contribution(domains[c as usize], a);
            lo += l;
            hi += h;
        }
        let t = target as i128;
        if t < lo || t > hi {
            return false;
        }
        if lo == hi {
            return true;
        }
        for &(c, a) in terms {
            let d = domains[c as usize];
            if d & (d - 1) == 0 {
                continue;
            }
            let (l, h) = self.values.contribution(d, a);
            // a * v must lie in [t - (hi - h), t - (lo - l)].
            let keep = self.values.multiples(a, t - (hi - h), t - (lo - l));
            if !self.narrow(domains, c as usize, keep, s) {
                return false;
            }
        }
        true
    }

    /// The root state, propagated; `None` if the model has no solution.
    fn root(&self, s: &mut Scratch) -> Option<Vec<u64>> {
        let mut domains = self.initial.clone();
        if domains.contains(&0) {
            return None;
        }
        for c in 0..self.cells {
            s.push_cell(c, !0, 0);
        }
        for g in 0..self.groups.len() {
            if self.group_full[g] != 0 {
                s.group_dirty[g] = true;
                s.dirty_groups.push(g as u32);
            }
        }
        for e in 0..self.equations.len() {
            s.equation_dirty[e] = true;
            s.dirty_equations.push(e as u32);
        }
        self.propagate(&mut domains, s).then_some(domains)
    }

    /// The cell to branch on, or `None` when every cell has one value: the smallest
    /// domain, then the most constraints, then the first.
    #[inline]
    fn choose(&self, domains: &[u64]) -> Option<usize> {
        let mut best = None;
        let mut best_key = u32::MAX;
        for (c, &d) in domains.iter().enumerate() {
            let size = d.count_ones();
            let key = size << 16 | self.rank[c];
            if size > 1 && key < best_key {
                best = Some(c);
                best_key = key;
            }
        }
        best
    }

    /// Each child of `parent` that survives propagation, in value order, written to
    /// `child` and passed to `f`; stops when `f` returns false. Returns the values
    /// tried and whether `f` asked to stop.
    #[inline]
    fn children(
        &self,
        parent: &[u64],
        cell: usize,
        child: &mut [u64],
        s: &mut Scratch,
        mut f: impl FnMut(&mut [u64], &mut Scratch) -> bool,
    ) -> (u64, bool) {
        let mut candidates = parent[cell];
        let mut tried = 0;
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            tried += 1;
            child.copy_from_slice(parent);
            child[cell] = bit;
            s.push_cell(cell, parent[cell], bit);
            if self.propagate(child, s) && !f(child, s) {
                return (tried, true);
            }
        }
        (tried, false)
    }

    /// Cuts the tree into at least `target` subtrees (fewer if it is smaller), in
    /// search order, by expanding whole levels; returns them and the nodes spent.
    fn levels(&self, target: usize, s: &mut Scratch) -> (Vec<Vec<u64>>, u64) {
        let Some(root) = self.root(s) else {
            return (Vec::new(), 0);
        };
        let mut level = vec![root];
        let mut nodes = 0;
        let mut child = vec![0; self.cells];
        while level.len() < target {
            let mut next = Vec::new();
            let mut grew = false;
            for state in level {
                match self.choose(&state) {
                    None => next.push(state),
                    Some(cell) => {
                        grew = true;
                        let (tried, _) = self.children(&state, cell, &mut child, s, |c, _| {
                            next.push(c.to_vec());
                            true
                        });
                        nodes += tried;
                    }
                }
            }
            level = next;
            if !grew {
                break;
            }
        }
        (level, nodes)
    }

    /// Searches the subtree of `start`; returns the nodes visited.
    fn subtree(&self, start: &[u64], s: &mut Scratch, found: &mut Found) -> u64 {
        let n = self.cells;
        let mut stack = std::mem::take(&mut s.stack);
        stack[..n].copy_from_slice(start);
        let mut nodes = 0;
        self.dfs(&mut stack, 0, s, found, &mut nodes);
        s.stack = stack;
        nodes
    }

    /// False when the collector asked to stop.
    fn dfs(
        &self,
        stack: &mut [u64],
        depth: usize,
        s: &mut Scratch,
        found: &mut Found,
        nodes: &mut u64,
    ) -> bool {
        let n = self.cells;
        let parent = &stack[depth * n..(depth + 1) * n];
        let Some(cell) = self.choose(parent) else {
            let values = &self.values;
            return found.solution(|| parent.iter().map(|&d| values.min(d)).collect());
        };
        let domain = parent[cell];
        let mut candidates = domain;
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            *nodes += 1;
            let (above, below) = stack.split_at_mut((depth + 1) * n);
            let child = &mut below[..n];
            child.copy_from_slice(&above[depth * n..]);
            child[cell] = bit;
            s.push_cell(cell, domain, bit);
            if self.propagate(child, s) && !self.dfs(stack, depth + 1, s, found, nodes) {
                return false;
            }
        }
        true
    }
}

impl Search for Engine {
    type Task = Vec<u64>;

    fn frontier(&self, target: usize) -> (Vec<Vec<u64>>, u64) {
        self.levels(target, &mut Scratch::new(self))
    }

    fn run_task(&self, task: &Vec<u64>, found: &mut Found) -> u64 {
        self.subtree(task, &mut Scratch::new(self), found)
    }
}

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
use std::ops::ControlFlow;

use super::model::Model;
use super::prepare::{bit_range, Prepared, Values};
use super::solve::Expand;
use crate::driver::{Search, Sink, Split};

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

/// Implied equations are derived for models of at most this many cells (a killer
/// sudoku has 81).
const MAX_DERIVED_MODEL: usize = 4096;

/// Peers are also kept as bit sets for models of at most this many cells: 2 MiB at
/// most, where lists alone would cost the pointing rule a few times more.
const MAX_DENSE_CELLS: usize = 4096;

/// A value that at most this many cells of a group or equation can take is removed
/// from the cells that see them all.
const POINTING: u32 = 3;

/// An equation, compiled: a range of `Engine::terms`.
#[derive(Clone, Copy, Debug)]
struct Compiled {
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
    /// w]`; the equation's cells, sorted, are `Engine::sets[cells..]`, one per term.
    Combos { sets: u32, index: u32, cells: u32 },
}

/// The model compiled into flat arrays for the search.
pub(super) struct Engine {
    cells: usize,
    values: Values,
    initial: Vec<u64>,
    /// The cells of each group, sorted.
    group_cells: Vec<u32>,
    /// Per group: its range in `group_cells`.
    groups: Vec<(u32, u32)>,
    /// Per group: the values it must use all of (as many as it has cells), or 0.
    group_full: Vec<u64>,
    terms: Vec<(u32, i64)>,
    equations: Vec<Compiled>,
    /// Per `Combos` equation, which value sets hold each value.
    combos: Vec<u64>,
    /// Per cell, its peers (the cells sharing a group with it), sorted: a range of
    /// `peers` at `peer_ranges[cell]`. Lists, not bit sets, so that memory grows with
    /// the groups' sizes rather than with the square of the cells.
    peers: Vec<u32>,
    peer_ranges: Vec<(u32, u32)>,
    /// The same as bit sets of `words` words per cell, for models of at most
    /// [`MAX_DENSE_CELLS`] cells (empty beyond): the pointing rule intersects peer
    /// sets, which bit sets do in a few instructions.
    dense_peers: Vec<u64>,
    words: usize,
    /// The cells of each `Combos` equation, sorted.
    sets: Vec<u32>,
    less: Vec<(u32, u32)>,
    /// Per cell: range in `links` of the full groups, equations and order constraints
    /// it takes part in.
    cell_links: Vec<(u32, u32)>,
    links: Vec<Link>,
    /// Per cell: `u16::MAX` minus its number of links, the tie-break of `choose`.
    rank: Vec<u32>,
    /// What a solution found stands for (see `super::solve::report`).
    expand: Expand,
    /// The domains at the root, propagated; `None` if propagation empties one.
    root: Option<Vec<u64>>,
}

/// A subtree: the choices `(cell, value bit)` that lead to its root from the root of
/// the tree. (A path, not the root's domains: a task then costs memory for its depth,
/// not for the model's cells.)
type Choices = Vec<(u32, u64)>;

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

/// One thread's working space, allocated once: the work lists of propagation, and the
/// domains of the node being searched with the trail that restores its ancestors'.
///
/// The search keeps one row of domains and, per node it enters, the domains that
/// changed since (the *trail*), to restore on the way back: memory grows with the
/// changes along one branch (at most cells x values), not with cells x depth.
pub(super) struct WorkLists {
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Per queued cell: its least or greatest value went since it was queued.
    bounds_changed: Vec<bool>,
    dirty_equations: Vec<u32>,
    equation_dirty: Vec<bool>,
    dirty_groups: Vec<u32>,
    group_dirty: Vec<bool>,
    /// The domains of the node being searched.
    domains: Vec<u64>,
    /// `(cell, domain before)` for each domain changed since a node was entered, the
    /// latest last; each node's entries are popped when the search leaves it.
    trail: Vec<(u32, u64)>,
    /// Per cell: the number of the node that last put it on the trail.
    saved: Vec<u32>,
    /// The number of the node being searched; 0 while nothing is trailed (the root,
    /// the cut into tasks, which copy their domains instead).
    node: u32,
    /// Cells, for [`Engine::point`].
    common: Vec<u32>,
    /// A bit set of cells, for [`Engine::point`] on small models.
    set: Vec<u64>,
    /// Per cell, a mark of [`Engine::point`]'s: a cell is marked `round + k` once it
    /// is a peer of the first `k` candidates, `round` when it is kept.
    mark: Vec<u32>,
    round: u32,
}

impl WorkLists {
    fn new(engine: &Engine) -> WorkLists {
        WorkLists {
            queue: Vec::with_capacity(engine.cells),
            queued: vec![false; engine.cells],
            bounds_changed: vec![false; engine.cells],
            dirty_equations: Vec::with_capacity(engine.equations.len()),
            equation_dirty: vec![false; engine.equations.len()],
            dirty_groups: Vec::with_capacity(engine.groups.len()),
            group_dirty: vec![false; engine.groups.len()],
            domains: vec![0; engine.cells],
            trail: Vec::new(),
            saved: vec![0; engine.cells],
            node: 0,
            common: Vec::new(),
            set: vec![0; engine.words],
            mark: vec![0; engine.cells],
            round: 0,
        }
    }

    /// Marks for one call of [`Engine::point`]: `round ..= round + span`, none of them
    /// on a cell yet.
    #[inline]
    fn next_round(&mut self, span: u32) -> u32 {
        let next = self.round.checked_add(span + 1);
        match next.and_then(|r| r.checked_add(span + 1).map(|_| r)) {
            Some(r) => self.round = r,
            None => {
                self.mark.fill(0);
                self.round = 1;
            }
        }
        self.round
    }

    /// Enters a new node: changes from now on are trailed under a new number.
    #[inline]
    fn enter(&mut self) {
        self.node = self.node.wrapping_add(1);
        if self.node == 0 {
            // Numbers wrapped: forget which cells the numbers of long ago saved (they
            // only stop a node saving a cell twice).
            self.saved.fill(0);
            self.node = 1;
        }
    }

    /// Restores the domains trailed since the trail was `mark` long.
    #[inline]
    fn undo(&mut self, domains: &mut [u64], mark: usize) {
        for (cell, old) in self.trail.drain(mark..).rev() {
            domains[cell as usize] = old;
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

    /// Queues `cell`, whose domain went from `old` (nonempty) to `new`, and puts it on
    /// the trail if this node has not yet.
    #[inline(always)]
    fn push_cell(&mut self, cell: usize, old: u64, new: u64) {
        if self.node != 0 && self.saved[cell] != self.node {
            self.saved[cell] = self.node;
            self.trail.push((cell as u32, old));
        }
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

fn disjoint(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

/// Per cell, the cells that share a group with it, sorted: as lists (`peers`, a range
/// per cell), and as bit sets of `words` words per cell for models of at most
/// [`MAX_DENSE_CELLS`] cells (empty beyond).
fn peer_sets(
    n: usize,
    words: usize,
    groups: &[Vec<usize>],
) -> (Vec<u32>, Vec<(u32, u32)>, Vec<u64>) {
    let mut peers = Vec::new();
    let mut ranges = Vec::with_capacity(n);
    if n <= MAX_DENSE_CELLS {
        let mut dense = vec![0u64; n * words];
        for cells in groups {
            for &a in cells {
                for &b in cells {
                    if a != b {
                        set_bit(&mut dense[a * words..(a + 1) * words], b);
                    }
                }
            }
        }
        // The lists, read off the bit sets in order.
        for set in dense.chunks(words) {
            let start = peers.len() as u32;
            for (i, &word) in set.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    peers.push((i * 64) as u32 + m.trailing_zeros());
                    m &= m - 1;
                }
            }
            ranges.push((start, peers.len() as u32));
        }
        return (peers, ranges, dense);
    }
    let mut of_cell: Vec<Vec<u32>> = vec![Vec::new(); n];
    for cells in groups {
        for &a in cells {
            of_cell[a].extend(cells.iter().filter(|&&b| b != a).map(|&b| b as u32));
        }
    }
    for mut list in of_cell {
        list.sort_unstable();
        list.dedup();
        let start = peers.len() as u32;
        peers.extend(list);
        ranges.push((start, peers.len() as u32));
    }
    (peers, ranges, Vec::new())
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
fn derived(cells: usize, values: &Values, prepared: &Prepared) -> Vec<(Vec<(usize, i64)>, i64)> {
    // Regions are bit sets of the cells: past a size, their memory and time would grow
    // with the square of the model, for equations that help only small grids.
    if cells > MAX_DERIVED_MODEL {
        return Vec::new();
    }
    let words = cells.div_ceil(64).max(1);
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
    /// Compiles `model` with its constraints as [`Prepared`] gives them; each solution
    /// found stands for what `expand` says.
    pub(super) fn new(model: &Model, prepared: &Prepared, expand: Expand) -> Engine {
        let n = model.cells.len();
        let values = Values::new(&model.values);
        let initial: Vec<u64> = model.domains.iter().map(|&d| d & values.all).collect();
        let mut group_cells = Vec::new();
        let mut groups = Vec::new();
        for cells in &prepared.groups {
            let start = group_cells.len() as u32;
            // Prepared keeps a group's cells sorted.
            group_cells.extend(cells.iter().map(|&c| c as u32));
            groups.push((start, group_cells.len() as u32));
        }
        let words = n.div_ceil(64).max(1);
        let (peers, peer_ranges, dense_peers) = peer_sets(n, words, &prepared.groups);
        let peers_of = |c: usize| {
            let (a, b) = peer_ranges[c];
            &peers[a as usize..b as usize]
        };
        let distinct = |cells: &[usize]| {
            cells.iter().enumerate().all(|(i, &a)| {
                cells[i + 1..]
                    .iter()
                    .all(|&b| peers_of(a).binary_search(&(b as u32)).is_ok())
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
        let mut sets: Vec<u32> = Vec::new();
        let extra = derived(n, &values, prepared);
        for (ts, target) in prepared.equations.iter().chain(&extra) {
            if own_sum(ts, *target) {
                continue;
            }
            let start = terms.len() as u32;
            terms.extend(ts.iter().map(|&(c, a)| (c as u32, a)));
            let cells: Vec<usize> = ts.iter().map(|t| t.0).collect();
            // (More than 64 distinct cells cannot take distinct values: the bounds say so.)
            let kind = if ts.iter().all(|t| t.1 == 1)
                && (2..=64).contains(&cells.len())
                && distinct(&cells)
            {
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
                        let set = sets.len();
                        let mut sorted = cells.clone();
                        sorted.sort_unstable();
                        sets.extend(sorted.iter().map(|&c| c as u32));
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
            equations.push(Compiled {
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
        for (g, &(s, e)) in groups.iter().enumerate() {
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
        let mut engine = Engine {
            cells: n,
            values,
            initial,
            group_cells,
            groups,
            group_full: prepared.group_full.clone(),
            terms,
            equations,
            combos,
            peers,
            peer_ranges,
            dense_peers,
            words,
            sets,
            less,
            cell_links,
            links,
            rank,
            expand,
            root: None,
        };
        engine.root = engine.root(&mut WorkLists::new(&engine));
        engine
    }

    /// Narrows `cell` to `keep`; false if that leaves nothing.
    #[inline]
    fn narrow(&self, domains: &mut [u64], cell: usize, keep: u64, s: &mut WorkLists) -> bool {
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
    fn place(&self, domains: &mut [u64], cell: usize, bit: u64, s: &mut WorkLists) {
        let d = domains[cell];
        if d != bit {
            domains[cell] = bit;
            s.push_cell(cell, d, bit);
        }
    }

    /// Removes `bit` from every cell of `cells`, in order; false if that empties one.
    fn remove_from(&self, domains: &mut [u64], cells: &[u32], bit: u64, s: &mut WorkLists) -> bool {
        cells
            .iter()
            .all(|&c| self.narrow(domains, c as usize, !bit, s))
    }

    /// The cells sharing a group with `cell`, sorted.
    #[inline]
    fn peers(&self, cell: usize) -> &[u32] {
        let (a, b) = self.peer_ranges[cell];
        &self.peers[a as usize..b as usize]
    }

    /// `bit` must go to one of the cells of `candidates` that can take it, so it
    /// leaves every cell that sees all those, except the cells of `keep` (sorted).
    /// False if no candidate can take it or a cell is emptied.
    fn point(
        &self,
        domains: &mut [u64],
        candidates: &[u32],
        keep: &[u32],
        bit: u64,
        s: &mut WorkLists,
    ) -> bool {
        if !self.dense_peers.is_empty() {
            return self.point_dense(domains, candidates, keep, bit, s);
        }
        let round = s.next_round(candidates.len() as u32);
        let mut first: Option<u32> = None;
        let mut seen = 0;
        for &c in candidates {
            if domains[c as usize] & bit == 0 {
                continue;
            }
            let peers = self.peers(c as usize);
            if first.is_none() {
                first = Some(c);
                for &p in peers {
                    s.mark[p as usize] = round + 1;
                }
                for &k in keep {
                    s.mark[k as usize] = round;
                }
            } else {
                for &p in peers {
                    if s.mark[p as usize] == round + seen {
                        s.mark[p as usize] = round + seen + 1;
                    }
                }
            }
            seen += 1;
        }
        let Some(first) = first else {
            return false;
        };
        let mut common = std::mem::take(&mut s.common);
        common.clear();
        common.extend(
            self.peers(first as usize)
                .iter()
                .filter(|&&p| s.mark[p as usize] == round + seen),
        );
        let ok = self.remove_from(domains, &common, bit, s);
        s.common = common;
        ok
    }

    /// [`Engine::point`] with the peers as bit sets.
    fn point_dense(
        &self,
        domains: &mut [u64],
        candidates: &[u32],
        keep: &[u32],
        bit: u64,
        s: &mut WorkLists,
    ) -> bool {
        let w = self.words;
        let mut common = std::mem::take(&mut s.set);
        common.fill(u64::MAX);
        let mut any = false;
        for &c in candidates {
            if domains[c as usize] & bit != 0 {
                any = true;
                let peers = &self.dense_peers[c as usize * w..(c as usize + 1) * w];
                common.iter_mut().zip(peers).for_each(|(m, p)| *m &= p);
            }
        }
        for &k in keep {
            common[k as usize / 64] &= !(1 << (k % 64));
        }
        let mut ok = any;
        'cells: for (i, &word) in common.iter().enumerate() {
            let mut m = word;
            while ok && m != 0 {
                let p = i * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if !self.narrow(domains, p, !bit, s) {
                    ok = false;
                    break 'cells;
                }
            }
        }
        s.set = common;
        ok
    }

    /// Propagates until nothing changes, starting from the cells in the queue and the
    /// dirty equations and groups. False on a contradiction (work lists cleared).
    fn propagate(&self, domains: &mut [u64], s: &mut WorkLists) -> bool {
        let ok = self.propagate_inner(domains, s);
        if !ok {
            s.clear();
        }
        ok
    }

    fn propagate_inner(&self, domains: &mut [u64], s: &mut WorkLists) -> bool {
        loop {
            // Cheapest first: peers of placed cells, then equations, then groups, whose
            // hidden singles are most often found by then.
            if let Some(c) = s.queue.pop() {
                let c = c as usize;
                s.queued[c] = false;
                let bounds_changed = std::mem::take(&mut s.bounds_changed[c]);
                let d = domains[c];
                if d & (d - 1) == 0 && !self.remove_from(domains, self.peers(c), d, s) {
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
    fn full_group(&self, domains: &mut [u64], g: usize, s: &mut WorkLists) -> bool {
        let (gs, ge) = self.groups[g];
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
            if !self.point(domains, cells, cells, bit, s) {
                return false;
            }
        }
        true
    }

    fn equation(&self, domains: &mut [u64], e: usize, s: &mut WorkLists) -> bool {
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
        s: &mut WorkLists,
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
        if !sets.is_multiple_of(64) {
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
                h if h <= POINTING
                    && !self.point(domains, free, &self.sets[cells..][..terms.len()], bit, s) =>
                {
                    return false
                }
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
        s: &mut WorkLists,
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
        s: &mut WorkLists,
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
        s: &mut WorkLists,
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
    fn root(&self, s: &mut WorkLists) -> Option<Vec<u64>> {
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

    /// Sets `domains` (the root's) to the node the choices lead to, which propagation
    /// reaches without a contradiction (the cut found it so); nothing is trailed.
    fn replay(&self, choices: &[(u32, u64)], domains: &mut [u64], s: &mut WorkLists) {
        for &(cell, bit) in choices {
            let old = domains[cell as usize];
            domains[cell as usize] = bit;
            s.push_cell(cell as usize, old, bit);
            let ok = self.propagate(domains, s);
            debug_assert!(ok, "a task's path propagates as it did when cut");
        }
        // The search never returns above the task's root: forget how to.
        s.trail.clear();
    }

    /// Cuts the tree as `split` says, in search order, by expanding whole levels;
    /// returns the subtrees and the values tried.
    fn levels(&self, split: Split, s: &mut WorkLists) -> (Vec<Choices>, u64) {
        let Some(root) = &self.root else {
            return (Vec::new(), 0);
        };
        let mut level: Vec<Choices> = vec![Vec::new()];
        let mut tried = 0;
        let mut depth = 0;
        let mut domains = root.clone();
        while level.len() < split.tasks && depth < split.depth {
            depth += 1;
            let mut next = Vec::new();
            let mut grew = false;
            for path in level {
                match self.expand(root, &path, &mut domains, s, &mut next) {
                    Some(entered) => {
                        grew = true;
                        tried += entered;
                    }
                    None => next.push(path),
                }
            }
            level = next;
            if !grew {
                break;
            }
        }
        (level, tried)
    }

    /// Appends the children of the node `path` leads to (the values of its chosen
    /// cell that propagate without a contradiction) to `out`, in search order, and
    /// returns the values tried; `None` for a solution. `domains` is scratch space.
    fn expand(
        &self,
        root: &[u64],
        path: &Choices,
        domains: &mut [u64],
        s: &mut WorkLists,
        out: &mut Vec<Choices>,
    ) -> Option<u64> {
        s.enter();
        domains.copy_from_slice(root);
        self.replay(path, domains, s);
        let cell = self.choose(domains)?;
        let domain = domains[cell];
        let mut candidates = domain;
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            let (mark, alive) = self.enter_child(domains, s, cell, domain, bit);
            if alive {
                let mut child = path.clone();
                child.push((cell as u32, bit));
                out.push(child);
            }
            s.undo(domains, mark);
        }
        Some(u64::from(domain.count_ones()))
    }

    /// Enters the child that gives `cell` (whose domain is `domain`) the value `bit`:
    /// the trail mark to undo it to, and whether it propagates without a
    /// contradiction.
    #[inline(always)]
    fn enter_child(
        &self,
        domains: &mut [u64],
        s: &mut WorkLists,
        cell: usize,
        domain: u64,
        bit: u64,
    ) -> (usize, bool) {
        let mark = s.trail.len();
        s.enter();
        domains[cell] = bit;
        s.push_cell(cell, domain, bit);
        (mark, self.propagate(domains, s))
    }

    /// Searches the subtree the choices lead to, its root included; returns the nodes
    /// visited.
    fn subtree(
        &self,
        choices: &[(u32, u64)],
        s: &mut WorkLists,
        sink: &mut Sink<'_, Vec<i64>>,
    ) -> u64 {
        let Some(root) = &self.root else {
            return 0;
        };
        let mut domains = std::mem::take(&mut s.domains);
        domains.copy_from_slice(root);
        s.enter();
        self.replay(choices, &mut domains, s);
        let mut nodes = 1;
        let _ = self.dfs(&mut domains, s, sink, &mut nodes);
        s.domains = domains;
        nodes
    }

    /// Searches below the node whose domains are `domains`, leaving them as found.
    /// `Break` when the sink asked to stop.
    fn dfs(
        &self,
        domains: &mut [u64],
        s: &mut WorkLists,
        sink: &mut Sink<'_, Vec<i64>>,
        nodes: &mut u64,
    ) -> ControlFlow<()> {
        let Some(cell) = self.choose(domains) else {
            let values = &self.values;
            return super::solve::report(
                sink,
                &self.expand,
                || domains.iter().map(|&d| values.min(d)).collect(),
                |cell| domains[cell].trailing_zeros(),
            );
        };
        let domain = domains[cell];
        let mut candidates = domain;
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            *nodes += 1;
            let (mark, alive) = self.enter_child(domains, s, cell, domain, bit);
            let flow = if alive {
                self.dfs(domains, s, sink, nodes)
            } else {
                ControlFlow::Continue(())
            };
            s.undo(domains, mark);
            flow?;
        }
        ControlFlow::Continue(())
    }
}

impl Search for Engine {
    /// The choices that lead to the task's root.
    type Task = Choices;
    type Worker = WorkLists;
    type Item = Vec<i64>;

    fn split_for(&self, threads: usize) -> Split {
        super::solve::split_for(threads)
    }

    /// One level per cell.
    fn depth(&self) -> usize {
        self.cells
    }

    fn split(&self, split: Split) -> (Vec<Choices>, u64) {
        let (tasks, tried) = self.levels(split, &mut WorkLists::new(self));
        // The root, and every value tried, less the tasks' roots (each task counts
        // its own).
        let above = 1 + tried - tasks.len() as u64;
        (tasks, above)
    }

    fn worker(&self) -> WorkLists {
        WorkLists::new(self)
    }

    fn children(&self, lists: &mut WorkLists, task: &Choices, out: &mut Vec<Choices>) -> u64 {
        let Some(root) = &self.root else {
            return 0;
        };
        let mut domains = std::mem::take(&mut lists.domains);
        let entered = self.expand(root, task, &mut domains, lists, out);
        lists.domains = domains;
        entered.unwrap_or(0)
    }

    fn run(&self, lists: &mut WorkLists, task: &Choices, sink: &mut Sink<'_, Vec<i64>>) {
        let nodes = self.subtree(task, lists, sink);
        sink.nodes += nodes;
    }
}

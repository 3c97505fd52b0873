//! The search for number puzzles: domains as 64-bit masks, propagation on masks,
//! depth-first search over the cell with the smallest domain (or a static order).
//!
//! A `(cell, value)` choice is an exact-cover option covering the cell and, within each
//! distinct group of the cell, the value; a state is one domain mask per cell. The
//! search owns nothing else: no per-node allocation, the states of a branch live in one
//! preallocated stack, and propagation uses a few preallocated work lists.
//!
//! Propagation, until nothing changes:
//! - a cell whose domain became one value removes that value from every other cell of
//!   its groups (one AND each);
//! - a group with as many cells as values (every value must appear) places a value that
//!   only one cell can still take; counting is bit-sliced over the cells' masks;
//! - an equation narrows each free cell to the values its bounds allow; when all its
//!   cells are distinct and its coefficients 1, the bounds are the sums of the `k`
//!   smallest and largest values still possible (k lowest and highest bits of the union
//!   of the free cells' domains, no sorting);
//! - `a < b` keeps `a` below the largest value of `b` and `b` above the smallest of `a`.
//!
//! The implied sum of a group that must use all its values (`1 + ... + 9 = 45` for a
//! sudoku row) is added as an equation, which lets cages and lines interact.

use super::model::{Model, Order};
use crate::parallel;
pub use crate::solve::Limits;

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found; in distinct mode, classes of symmetric solutions.
    pub count: usize,
    /// When `keep` was set, the value of each cell (in `Model::cells` order) of each
    /// solution, in search order.
    pub solutions: Vec<Vec<i64>>,
    /// Search nodes (values tried), when `stats` was set.
    pub nodes: u64,
    /// Solutions each class stands for: the model's symmetry group order in distinct
    /// mode, 1 otherwise.
    pub group_order: u64,
}

impl Outcome {
    /// All solutions the classes found stand for.
    pub fn total(&self) -> u64 {
        self.count as u64 * self.group_order
    }
}

/// Tasks the search tree is cut into, independent of the thread count so that node
/// counts are too.
const TARGET_TASKS: usize = 256;

/// Finds the solutions of `model`; with `distinct`, one per class of the model's
/// symmetry (its `symmetry` order constraints are added).
pub fn solve(model: &Model, distinct: bool, limits: Limits) -> Outcome {
    let symmetry = model.symmetry.as_ref().filter(|_| distinct);
    let group_order = symmetry.map_or(1, |s| s.group_order);
    let extra_less = symmetry.map_or(&[][..], |s| &s.less[..]);
    let engine = Engine::new(model, extra_less);
    let limit = limits.limit;
    let mut outcome = Outcome {
        count: 0,
        solutions: Vec::new(),
        nodes: 0,
        group_order,
    };
    if limit == 0 {
        return outcome;
    }
    let mut scratch = Scratch::new(&engine);
    let (tasks, above) = engine.frontier(&mut scratch);
    outcome.nodes = above;
    let results = parallel::run_tasks(
        tasks.len(),
        limits.threads.max(1),
        limit,
        |t| {
            let mut scratch = Scratch::new(&engine);
            let mut found = Found {
                count: 0,
                limit,
                keep: limits.keep,
                solutions: Vec::new(),
                engine: &engine,
            };
            let nodes = engine.run(&tasks[t], &mut scratch, &mut found);
            (found.count, found.solutions, nodes)
        },
        |r| r.0,
    );
    for (count, solutions, nodes) in results.into_iter().flatten() {
        if outcome.count >= limit {
            break;
        }
        outcome.nodes += nodes;
        let take = count.min(limit - outcome.count);
        outcome.count += take;
        outcome.solutions.extend(
            solutions
                .into_iter()
                .take(if limits.keep { take } else { 0 }),
        );
    }
    outcome
}

/// Collects the solutions of one task.
struct Found<'e> {
    count: usize,
    limit: usize,
    keep: bool,
    solutions: Vec<Vec<i64>>,
    engine: &'e Engine,
}

impl Found<'_> {
    /// Records a solution; false once the limit is reached.
    fn solution(&mut self, domains: &[u64]) -> bool {
        self.count += 1;
        if self.keep {
            let values = &self.engine.values;
            let row = domains
                .iter()
                .map(|d| values[d.trailing_zeros() as usize])
                .collect();
            self.solutions.push(row);
        }
        self.count < self.limit
    }
}

/// An equation, compiled: a range of `Engine::terms`.
#[derive(Clone, Copy, Debug)]
struct Equation {
    start: u32,
    end: u32,
    target: i64,
    /// Coefficients all 1 and cells pairwise distinct: bounds come from the `k`
    /// smallest and largest values still available.
    distinct_unit: bool,
}

/// The model compiled into flat arrays for the search.
struct Engine {
    cells: usize,
    values: Vec<i64>,
    /// `Some(v0)` when the values are `v0, v0 + 1, ...`: a value's bit is arithmetic.
    base: Option<i64>,
    initial: Vec<u64>,
    group_cells: Vec<u32>,
    /// Per group: range in `group_cells`.
    groups: Vec<(u32, u32)>,
    /// Per group: the values it must use all of (as many as it has cells), or 0.
    group_full: Vec<u64>,
    terms: Vec<(u32, i64)>,
    equations: Vec<Equation>,
    less: Vec<(u32, u32)>,
    /// Per cell: range in `links` of the groups, equations and order constraints it
    /// takes part in.
    cell_links: Vec<(u32, u32)>,
    links: Vec<Link>,
    /// The first free cell in this order is branched on; `None`: smallest domain.
    order: Option<Vec<u32>>,
}

#[derive(Clone, Copy, Debug)]
enum Link {
    Group(u32),
    Equation(u32),
    Less(u32),
}

/// Work lists of one thread's propagation, allocated once.
struct Scratch {
    queue: Vec<u32>,
    queued: Vec<bool>,
    dirty_equations: Vec<u32>,
    equation_dirty: Vec<bool>,
    dirty_groups: Vec<u32>,
    group_dirty: Vec<bool>,
    /// Domains of the current branch, one row of `cells` masks per depth.
    stack: Vec<u64>,
}

impl Scratch {
    fn new(engine: &Engine) -> Scratch {
        Scratch {
            queue: Vec::with_capacity(engine.cells),
            queued: vec![false; engine.cells],
            dirty_equations: Vec::with_capacity(engine.equations.len()),
            equation_dirty: vec![false; engine.equations.len()],
            dirty_groups: Vec::with_capacity(engine.groups.len()),
            group_dirty: vec![false; engine.groups.len()],
            stack: vec![0; engine.cells * (engine.cells + 2)],
        }
    }

    /// Empties the work lists after a contradiction.
    fn clear(&mut self) {
        for c in self.queue.drain(..) {
            self.queued[c as usize] = false;
        }
        for e in self.dirty_equations.drain(..) {
            self.equation_dirty[e as usize] = false;
        }
        for g in self.dirty_groups.drain(..) {
            self.group_dirty[g as usize] = false;
        }
    }

    fn push_cell(&mut self, cell: usize) {
        if !self.queued[cell] {
            self.queued[cell] = true;
            self.queue.push(cell as u32);
        }
    }
}

/// Bits `lo..=hi` (empty when `lo > hi`).
fn bit_range(lo: usize, hi: usize) -> u64 {
    if lo > hi {
        0
    } else {
        (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
    }
}

impl Engine {
    fn new(model: &Model, extra_less: &[(usize, usize)]) -> Engine {
        let n = model.cells.len();
        let values = model.values.clone();
        let base = values
            .first()
            .copied()
            .filter(|&v0| values.iter().enumerate().all(|(i, &v)| v == v0 + i as i64));
        let all_values =
            bit_range(0, values.len().saturating_sub(1)) * u64::from(!values.is_empty());
        let initial: Vec<u64> = model.domains.iter().map(|&d| d & all_values).collect();

        let mut group_cells = Vec::new();
        let mut groups = Vec::new();
        let mut group_full = Vec::new();
        let mut group_sets: Vec<Vec<usize>> = Vec::new();
        for g in &model.groups {
            let mut cells: Vec<usize> = g.clone();
            cells.sort_unstable();
            cells.dedup();
            if cells.len() < 2 || group_sets.contains(&cells) {
                continue;
            }
            let start = group_cells.len() as u32;
            group_cells.extend(cells.iter().map(|&c| c as u32));
            groups.push((start, group_cells.len() as u32));
            let union = cells.iter().fold(0, |u, &c| u | initial[c]);
            let full = if union.count_ones() as usize == cells.len() {
                union
            } else {
                0
            };
            group_full.push(full);
            group_sets.push(cells);
        }

        let mut equations_src: Vec<(Vec<(usize, i64)>, i64)> = model
            .equations
            .iter()
            .map(|e| (e.terms.clone(), e.target))
            .collect();
        // A group that must use exactly its values sums to their total: an implied
        // equation that joins the group's cages and lines.
        for (g, cells) in group_sets.iter().enumerate() {
            if group_full[g] != 0 {
                let mut total = 0;
                let mut m = group_full[g];
                while m != 0 {
                    total += values[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                let terms: Vec<(usize, i64)> = cells.iter().map(|&c| (c, 1)).collect();
                if !equations_src
                    .iter()
                    .any(|(t, v)| *t == terms && *v == total)
                {
                    equations_src.push((terms, total));
                }
            }
        }
        let in_one_group = |cells: &[usize]| {
            group_sets
                .iter()
                .any(|g| cells.iter().all(|c| g.binary_search(c).is_ok()))
        };
        let mut terms = Vec::new();
        let mut equations = Vec::new();
        for (ts, target) in &equations_src {
            let start = terms.len() as u32;
            terms.extend(ts.iter().map(|&(c, a)| (c as u32, a)));
            let cells: Vec<usize> = ts.iter().map(|t| t.0).collect();
            let distinct_unit =
                ts.iter().all(|t| t.1 == 1) && (cells.len() < 2 || in_one_group(&cells));
            equations.push(Equation {
                start,
                end: terms.len() as u32,
                target: *target,
                distinct_unit,
            });
        }

        let less: Vec<(u32, u32)> = model
            .less
            .iter()
            .chain(extra_less)
            .map(|&(a, b)| (a as u32, b as u32))
            .collect();

        let mut per_cell: Vec<Vec<Link>> = vec![Vec::new(); n];
        for (g, &(s, e)) in groups.iter().enumerate() {
            for &c in &group_cells[s as usize..e as usize] {
                per_cell[c as usize].push(Link::Group(g as u32));
            }
        }
        for (i, eq) in equations.iter().enumerate() {
            for &(c, _) in &terms[eq.start as usize..eq.end as usize] {
                per_cell[c as usize].push(Link::Equation(i as u32));
            }
        }
        for (i, &(a, b)) in less.iter().enumerate() {
            per_cell[a as usize].push(Link::Less(i as u32));
            per_cell[b as usize].push(Link::Less(i as u32));
        }
        let mut links = Vec::new();
        let mut cell_links = Vec::with_capacity(n);
        for l in per_cell {
            let start = links.len() as u32;
            links.extend(l);
            cell_links.push((start, links.len() as u32));
        }
        let order = match &model.order {
            Order::Smallest => None,
            Order::Static(cells) => Some(cells.iter().map(|&c| c as u32).collect()),
        };
        Engine {
            cells: n,
            values,
            base,
            initial,
            group_cells,
            groups,
            group_full,
            terms,
            equations,
            less,
            cell_links,
            links,
            order,
        }
    }

    /// The bits of the values in `lo..=hi`.
    fn value_range(&self, lo: i64, hi: i64) -> u64 {
        let n = self.values.len();
        if lo > hi || n == 0 {
            return 0;
        }
        let (first, last) = match self.base {
            Some(v0) => {
                if hi < v0 || lo > v0 + n as i64 - 1 {
                    return 0;
                }
                let last_value = v0 + n as i64 - 1;
                let first = if lo <= v0 { 0 } else { (lo - v0) as usize };
                let last = if hi >= last_value {
                    n - 1
                } else {
                    (hi - v0) as usize
                };
                (first, last)
            }
            None => {
                let first = self.values.partition_point(|&v| v < lo);
                let end = self.values.partition_point(|&v| v <= hi);
                if end == 0 {
                    return 0;
                }
                (first, end - 1)
            }
        };
        bit_range(first, last)
    }

    fn min_value(&self, d: u64) -> i64 {
        self.values[d.trailing_zeros() as usize]
    }

    fn max_value(&self, d: u64) -> i64 {
        self.values[63 - d.leading_zeros() as usize]
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
            s.push_cell(cell);
        }
        true
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
            if let Some(c) = s.queue.pop() {
                let c = c as usize;
                s.queued[c] = false;
                let d = domains[c];
                let single = d & (d - 1) == 0;
                let (start, end) = self.cell_links[c];
                for &link in &self.links[start as usize..end as usize] {
                    match link {
                        Link::Group(g) => {
                            if single {
                                let (gs, ge) = self.groups[g as usize];
                                for &p in &self.group_cells[gs as usize..ge as usize] {
                                    if p as usize != c && !self.narrow(domains, p as usize, !d, s) {
                                        return false;
                                    }
                                }
                            }
                            if self.group_full[g as usize] != 0 && !s.group_dirty[g as usize] {
                                s.group_dirty[g as usize] = true;
                                s.dirty_groups.push(g);
                            }
                        }
                        Link::Equation(e) => {
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
                if !self.hidden_singles(domains, g as usize, s) {
                    return false;
                }
                continue;
            }
            return true;
        }
    }

    /// A value of a full group that only one cell can take goes to that cell.
    fn hidden_singles(&self, domains: &mut [u64], g: usize, s: &mut Scratch) -> bool {
        let (gs, ge) = self.groups[g];
        let cells = &self.group_cells[gs as usize..ge as usize];
        let (mut once, mut twice) = (0u64, 0u64);
        for &c in cells {
            let d = domains[c as usize];
            twice |= once & d;
            once |= d;
        }
        let need = self.group_full[g];
        if once & need != need {
            return false;
        }
        let mut only = once & !twice;
        while only != 0 {
            let bit = only & only.wrapping_neg();
            only &= only - 1;
            for &c in cells {
                let d = domains[c as usize];
                if d & bit != 0 {
                    if d != bit {
                        domains[c as usize] = bit;
                        s.push_cell(c as usize);
                    }
                    break;
                }
            }
        }
        true
    }

    fn equation(&self, domains: &mut [u64], e: usize, s: &mut Scratch) -> bool {
        let eq = self.equations[e];
        let terms = &self.terms[eq.start as usize..eq.end as usize];
        if eq.distinct_unit {
            self.distinct_sum(domains, terms, eq.target, s)
        } else {
            self.linear(domains, terms, eq.target, s)
        }
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
                fixed += self.min_value(d);
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
        // The k - 1 smallest values (mask and sum), then the k-th.
        let (mut low, mut low_sum, mut m) = (0u64, 0i64, union);
        for _ in 1..free {
            let bit = m & m.wrapping_neg();
            low |= bit;
            low_sum += self.values[bit.trailing_zeros() as usize];
            m &= m - 1;
        }
        let kth_low = self.min_value(m);
        let (mut high, mut high_sum, mut m) = (0u64, 0i64, union);
        for _ in 1..free {
            let top = 63 - m.leading_zeros();
            high |= 1 << top;
            high_sum += self.values[top as usize];
            m &= !(1 << top);
        }
        let kth_high = self.max_value(m);
        if low_sum + kth_low > rest || high_sum + kth_high < rest {
            return false;
        }
        let keep = (low | self.value_range(i64::MIN, rest - low_sum))
            & (high | self.value_range(rest - high_sum, i64::MAX));
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
            let (l, h) = self.contribution(domains[c as usize], a);
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
            let (l, h) = self.contribution(d, a);
            // a * v must lie in [t - (hi - h), t - (lo - l)].
            let (min_av, max_av) = (t - (hi - h), t - (lo - l));
            let a = a as i128;
            let (vlo, vhi) = if a > 0 {
                (div_ceil(min_av, a), div_floor(max_av, a))
            } else {
                (div_ceil(max_av, a), div_floor(min_av, a))
            };
            let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
            if !self.narrow(
                domains,
                c as usize,
                self.value_range(clamp(vlo), clamp(vhi)),
                s,
            ) {
                return false;
            }
        }
        true
    }

    fn contribution(&self, d: u64, a: i64) -> (i128, i128) {
        let (vmin, vmax) = (self.min_value(d) as i128, self.max_value(d) as i128);
        let a = a as i128;
        if a > 0 {
            (a * vmin, a * vmax)
        } else {
            (a * vmax, a * vmin)
        }
    }

    /// The root state, propagated; `None` if the model has no solution.
    fn root(&self, s: &mut Scratch) -> Option<Vec<u64>> {
        let mut domains = self.initial.clone();
        if domains.contains(&0) {
            return None;
        }
        for c in 0..self.cells {
            s.push_cell(c);
        }
        for g in 0..self.groups.len() {
            if self.group_full[g] != 0 {
                s.group_dirty[g] = true;
                s.dirty_groups.push(g as u32);
            }
        }
        self.propagate(&mut domains, s).then_some(domains)
    }

    /// The cell to branch on, or `None` when every cell has one value.
    #[inline]
    fn choose(&self, domains: &[u64]) -> Option<usize> {
        match &self.order {
            Some(order) => order
                .iter()
                .map(|&c| c as usize)
                .find(|&c| domains[c] & (domains[c] - 1) != 0),
            None => {
                let mut best = None;
                let mut best_size = u32::MAX;
                for (c, &d) in domains.iter().enumerate() {
                    let size = d.count_ones();
                    if size > 1 && size < best_size {
                        best = Some(c);
                        best_size = size;
                        if size == 2 {
                            break;
                        }
                    }
                }
                best
            }
        }
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
            s.push_cell(cell);
            if self.propagate(child, s) && !f(child, s) {
                return (tried, true);
            }
        }
        (tried, false)
    }

    /// Cuts the tree into at least [`TARGET_TASKS`] subtrees (fewer if it is smaller),
    /// in search order, by expanding whole levels; returns them and the nodes spent.
    fn frontier(&self, s: &mut Scratch) -> (Vec<Vec<u64>>, u64) {
        let Some(root) = self.root(s) else {
            return (Vec::new(), 0);
        };
        let mut level = vec![root];
        let mut nodes = 0;
        let mut child = vec![0; self.cells];
        while level.len() < TARGET_TASKS {
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
    fn run(&self, start: &[u64], s: &mut Scratch, found: &mut Found) -> u64 {
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
            return found.solution(parent);
        };
        let mut candidates = parent[cell];
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            *nodes += 1;
            let (above, below) = stack.split_at_mut((depth + 1) * n);
            let child = &mut below[..n];
            child.copy_from_slice(&above[depth * n..]);
            child[cell] = bit;
            s.push_cell(cell);
            if self.propagate(child, s) && !self.dfs(stack, depth + 1, s, found, nodes) {
                return false;
            }
        }
        true
    }
}

fn div_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

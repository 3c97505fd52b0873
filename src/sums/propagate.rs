//! The search over the smallest domain, with propagation to a fixpoint on masks: the
//! search for puzzles like killer sudoku, where no static order is good.
//!
//! A `(cell, value)` choice is an exact-cover option covering the cell and, within each
//! distinct group of the cell, the value; a state is one domain mask per cell. The
//! states of a branch live in one preallocated stack, and propagation uses a few
//! preallocated work lists: no allocation per node.
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

use super::model::Model;
use super::solve::{bit_range, Found, Prepared, Search, Values, TARGET_TASKS};

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
pub(super) struct Engine {
    cells: usize,
    values: Values,
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

impl Engine {
    pub(super) fn new(model: &Model, prepared: &Prepared) -> Engine {
        let n = model.cells.len();
        let values = Values::new(&model.values);
        let initial: Vec<u64> = model.domains.iter().map(|&d| d & values.all).collect();
        let mut group_cells = Vec::new();
        let mut groups = Vec::new();
        for cells in &prepared.groups {
            let start = group_cells.len() as u32;
            group_cells.extend(cells.iter().map(|&c| c as u32));
            groups.push((start, group_cells.len() as u32));
        }
        let in_one_group = |cells: &[usize]| {
            prepared
                .groups
                .iter()
                .any(|g| cells.iter().all(|c| g.binary_search(c).is_ok()))
        };
        let mut terms = Vec::new();
        let mut equations = Vec::new();
        for (ts, target) in &prepared.equations {
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
        let less: Vec<(u32, u32)> = prepared
            .less
            .iter()
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
        Engine {
            cells: n,
            values,
            initial,
            group_cells,
            groups,
            group_full: prepared.group_full.clone(),
            terms,
            equations,
            less,
            cell_links,
            links,
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
        // The k - 1 smallest values (mask and sum), then the k-th.
        let (mut low, mut low_sum, mut m) = (0u64, 0i64, union);
        for _ in 1..free {
            let bit = m & m.wrapping_neg();
            low |= bit;
            low_sum += self.values.list[bit.trailing_zeros() as usize];
            m &= m - 1;
        }
        let kth_low = self.values.min(m);
        let (mut high, mut high_sum, mut m) = (0u64, 0i64, union);
        for _ in 1..free {
            let top = 63 - m.leading_zeros();
            high |= 1 << top;
            high_sum += self.values.list[top as usize];
            m &= !(1 << top);
        }
        let kth_high = self.values.max(m);
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
    fn levels(&self, s: &mut Scratch) -> (Vec<Vec<u64>>, u64) {
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

impl Search for Engine {
    type Task = Vec<u64>;

    fn frontier(&self) -> (Vec<Vec<u64>>, u64) {
        self.levels(&mut Scratch::new(self))
    }

    fn run_task(&self, task: &Vec<u64>, found: &mut Found) -> u64 {
        self.subtree(task, &mut Scratch::new(self), found)
    }
}

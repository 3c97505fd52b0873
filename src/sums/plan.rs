//! The static-order search: with the order of the cells fixed in advance, which cells
//! of each equation are still free at each step is known before the search starts, so
//! the model compiles into one table row per step (the cell, its groups, the equations
//! it takes part in with how many of their cells come later, the order constraints it
//! closes), the way the tiling tables fix every placement per anchor cell.
//!
//! A step's candidates are the cell's domain, ANDed with the free values of its
//! groups, then narrowed by each equation through it: when the cell is the last of the
//! equation its value is forced (one bit), otherwise the value must leave a total the
//! later cells can still reach. For a distinct equation with coefficients 1 those
//! totals lie between the sums of the `r` smallest and `r` largest values still free
//! (found by clearing low and high bits, no sorting). The state is a free-values mask
//! per group and a partial sum per equation, changed in place and restored on the way
//! back: no copying, no allocation.

use std::ops::ControlFlow;

use super::model::Model;
use super::prepare::{bit_range, Prepared, Values};
use super::solve::Expand;
use crate::driver::{Search, Sink, Split};

mod baked;
mod indexed;

use baked::Baked;
use indexed::Indexed;

/// What the depth-first search needs of a compiled model: a state that steps change
/// in place and restore, and the candidates of a step in a state. [`Plan`] serves
/// every model; [`Indexed`] serves magic figures faster.
trait Kernel {
    type State;
    /// The root's state.
    fn state(&self) -> Self::State;
    /// The values (bits) step `depth` may take in `st`.
    fn candidates(&self, depth: usize, st: &Self::State) -> u64;
    /// Sets step `depth` to `bit`.
    fn apply(&self, depth: usize, bit: u32, st: &mut Self::State);
    /// Undoes [`Kernel::apply`].
    fn undo(&self, depth: usize, bit: u32, st: &mut Self::State);
    /// The bit step `depth` was set to.
    fn chosen(st: &Self::State, depth: usize) -> u32;
    /// The candidates of step `depth` not tried yet.
    fn untried(st: &mut Self::State, depth: usize) -> &mut u64;
}

/// How an equation narrows the candidates of the step that sets one of its cells.
#[derive(Clone, Copy, Debug)]
struct Check {
    equation: u32,
    coefficient: i64,
    /// Cells of the equation set after this step.
    later: u32,
    kind: CheckKind,
}

#[derive(Clone, Copy, Debug)]
enum CheckKind {
    /// The cell is the equation's last: its value is forced.
    Last,
    /// The same with coefficient 1 and values `v0 + i`: bit `rest - v0`.
    LastIndex { v0: i64 },
    /// Coefficients 1, all cells in `group`, values `v0 + i`, one later cell: the exact
    /// partners of [`partners`], with `k = rest - 2 v0`; `reversed` is the later
    /// cell's domain with its bits reversed.
    Partner { group: u32, reversed: u64, v0: i64 },
    /// The same with two later cells: [`pair_check`], with `k = rest - 3 v0`;
    /// `union` is the union of their domains, `reversed` the same reversed.
    Pair {
        group: u32,
        union: u64,
        reversed: u64,
        v0: i64,
    },
    /// The same with more later cells: [`distinct_allowed_from`], with the rest less
    /// `(later + 1) v0`.
    Spread { group: u32, union: u64, bias: i64 },
    /// Coefficients 1, all cells in `group`; `union` is the union of the later cells'
    /// domains (values in any order).
    Distinct { group: u32, union: u64 },
    /// Anything else: bounds from the later cells' domains, `later_cells` is a range
    /// of `Plan::later_cells`.
    Bounds { start: u32, end: u32 },
}

/// How an order constraint with an earlier step bounds a step's value index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// Less than the earlier step's.
    Below,
    /// Greater than the earlier step's.
    Above,
    /// At most this less the earlier step's (`Prepared::index_sums`).
    SumAtMost(u32),
    /// `SumAtMost(most)` while step `step` holds index `index`, else no bound.
    SumAtMostWhen { most: u32, step: u32, index: u32 },
}

impl Bound {
    /// The value indices allowed when the earlier step took index `earlier`, and step
    /// `s` index `chosen(s)`.
    #[inline(always)]
    fn allowed(self, earlier: usize, chosen: impl Fn(usize) -> u32) -> u64 {
        match self {
            Bound::Above => !bit_range(0, earlier),
            Bound::Below if earlier == 0 => 0,
            Bound::Below => bit_range(0, earlier - 1),
            Bound::SumAtMostWhen { step, index, .. } if chosen(step as usize) != index => u64::MAX,
            Bound::SumAtMost(most) | Bound::SumAtMostWhen { most, .. } => {
                bits_to(i64::from(most) - earlier as i64)
            }
        }
    }
}

/// One step of the order.
#[derive(Clone, Debug)]
struct PlanStep {
    cell: u32,
    domain: u64,
    groups: (u32, u32),
    checks: (u32, u32),
    /// Order constraints with the other cell set earlier: `(earlier step, this cell is
    /// the greater)`.
    order: (u32, u32),
    /// The cell's equation terms, a range of `Plan::step_terms`.
    terms: (u32, u32),
}

/// A model compiled for a static order.
pub(super) struct Plan {
    values: Values,
    cells: usize,
    steps: Vec<PlanStep>,
    step_groups: Vec<u32>,
    checks: Vec<Check>,
    /// `(cell, coefficient, groups range)` of later cells for `Bounds` checks.
    later_cells: Vec<(u32, i64, (u32, u32))>,
    group_list: Vec<u32>,
    step_order: Vec<(u32, Bound)>,
    targets: Vec<i64>,
    groups: usize,
    domains: Vec<u64>,
    /// Equation terms per cell: `(equation, coefficient)`, range per step.
    step_terms: Vec<(u32, i64)>,
    /// Whether there is one group and every cell is in it (magic figures): the steps
    /// then use `free[0]` without walking their group lists.
    one_group: bool,
    /// What a solution found stands for (see `super::solve::report`).
    expand: Expand,
    /// The step that sets each cell.
    position: Vec<u32>,
    /// The same plan compiled for magic figures, when the model is one.
    indexed: Option<Indexed>,
    /// The same steps baked into the binary, when they are a shipped model's.
    baked: Option<Baked>,
}

/// The mutable state of a branch.
struct State {
    free: Vec<u64>,
    /// `free` with the bits reversed (bit `63 - i` for value `i`), kept alongside so
    /// that the partner checks mirror a mask by one shift.
    reversed: Vec<u64>,
    /// Per equation: the target less the contributions of the cells set so far.
    rest: Vec<i64>,
    /// The bit chosen at each step.
    chosen: Vec<u8>,
    /// The candidates of each step not tried yet, for the depth-first loop.
    untried: Vec<u64>,
}

impl Plan {
    /// Compiles `model` for the order `order` (a permutation of the cells), with its
    /// constraints as [`Prepared`] gives them; each solution found stands for its
    /// as `expand` says.
    pub(super) fn new(model: &Model, order: &[usize], prepared: &Prepared, expand: Expand) -> Plan {
        let equations = &prepared.equations;
        let (groups, less) = (&prepared.groups, &prepared.less);
        let n = model.cells.len();
        let values = Values::new(&model.values);
        let domains: Vec<u64> = model.domains.iter().map(|&d| d & values.all).collect();
        let mut position = vec![0usize; n];
        for (i, &c) in order.iter().enumerate() {
            position[c] = i;
        }
        let mut cell_groups = Vec::with_capacity(n);
        let mut group_list = Vec::new();
        for c in 0..n {
            let start = group_list.len() as u32;
            for (g, cells) in groups.iter().enumerate() {
                if cells.contains(&c) {
                    group_list.push(g as u32);
                }
            }
            cell_groups.push((start, group_list.len() as u32));
        }
        let mut steps = Vec::with_capacity(n);
        let mut step_groups = Vec::new();
        let mut checks = Vec::new();
        let mut later_cells = Vec::new();
        let mut step_order = Vec::new();
        let mut step_terms = Vec::new();
        for (i, &c) in order.iter().enumerate() {
            let gs = step_groups.len() as u32;
            let (a, b) = cell_groups[c];
            step_groups.extend_from_slice(&group_list[a as usize..b as usize]);
            let cs = checks.len() as u32;
            let ts = step_terms.len() as u32;
            for (e, (terms, _)) in equations.iter().enumerate() {
                let Some(&(_, coefficient)) = terms.iter().find(|t| t.0 == c) else {
                    continue;
                };
                step_terms.push((e as u32, coefficient));
                let later: Vec<(usize, i64)> = terms
                    .iter()
                    .copied()
                    .filter(|&(d, _)| position[d] > i)
                    .collect();
                let v0 = values.base();
                let kind = if later.is_empty() {
                    match v0 {
                        Some(v0) if coefficient == 1 => CheckKind::LastIndex { v0 },
                        _ => CheckKind::Last,
                    }
                } else {
                    let cells: Vec<usize> = terms.iter().map(|t| t.0).collect();
                    let common = groups
                        .iter()
                        .position(|g| cells.iter().all(|x| g.contains(x)));
                    match common {
                        Some(group) if terms.iter().all(|t| t.1 == 1) => {
                            let group = group as u32;
                            let union = later.iter().fold(0, |u, &(d, _)| u | domains[d]);
                            match (v0, later.len()) {
                                (Some(v0), 1) => CheckKind::Partner {
                                    group,
                                    reversed: union.reverse_bits(),
                                    v0,
                                },
                                (Some(v0), 2) => CheckKind::Pair {
                                    group,
                                    union,
                                    reversed: union.reverse_bits(),
                                    v0,
                                },
                                (Some(v0), k) => CheckKind::Spread {
                                    group,
                                    union,
                                    bias: v0 * (k as i64 + 1),
                                },
                                (None, _) => CheckKind::Distinct { group, union },
                            }
                        }
                        _ => {
                            let start = later_cells.len() as u32;
                            later_cells
                                .extend(later.iter().map(|&(d, a)| (d as u32, a, cell_groups[d])));
                            CheckKind::Bounds {
                                start,
                                end: later_cells.len() as u32,
                            }
                        }
                    }
                };
                checks.push(Check {
                    equation: e as u32,
                    coefficient,
                    later: later.len() as u32,
                    kind,
                });
            }
            // Cheapest and most selective first: a forced value, then an exact partner,
            // then bounds over more cells; the loop stops once nothing is left.
            checks[cs as usize..].sort_by_key(|c: &Check| c.later);
            let os = step_order.len() as u32;
            for &(x, y) in less {
                if x == c && position[y] < i {
                    step_order.push((position[y] as u32, Bound::Below));
                } else if y == c && position[x] < i {
                    step_order.push((position[x] as u32, Bound::Above));
                }
            }
            for sum in &prepared.index_sums {
                // A bound whose condition is met only after this step bounds nothing.
                let bound = match sum.when {
                    None => Bound::SumAtMost(sum.most),
                    Some((cell, index)) if position[cell] < i => Bound::SumAtMostWhen {
                        most: sum.most,
                        step: position[cell] as u32,
                        index,
                    },
                    Some(_) => continue,
                };
                if sum.a == c && position[sum.b] < i {
                    step_order.push((position[sum.b] as u32, bound));
                } else if sum.b == c && position[sum.a] < i {
                    step_order.push((position[sum.a] as u32, bound));
                }
            }
            steps.push(PlanStep {
                cell: c as u32,
                domain: domains[c],
                groups: (gs, step_groups.len() as u32),
                checks: (cs, checks.len() as u32),
                order: (os, step_order.len() as u32),
                terms: (ts, step_terms.len() as u32),
            });
        }
        let mut plan = Plan {
            values,
            cells: n,
            steps,
            step_groups,
            checks,
            later_cells,
            group_list,
            step_order,
            targets: equations.iter().map(|e| e.1).collect(),
            groups: groups.len(),
            one_group: groups.len() == 1 && groups[0].len() == n,
            domains,
            step_terms,
            expand,
            position: position.iter().map(|&p| p as u32).collect(),
            indexed: None,
            baked: None,
        };
        plan.indexed = Indexed::new(&plan);
        plan.baked = (plan.indexed.as_ref())
            .and_then(|indexed| Baked::find(indexed, plan.cells, plan.targets.len()));
        plan
    }

    fn cells(&self) -> usize {
        self.cells
    }

    /// The values a check allows for its step's cell.
    #[inline(always)]
    fn check(&self, check: &Check, cand: u64, st: &State) -> u64 {
        let rest = st.rest[check.equation as usize];
        let a = check.coefficient;
        match check.kind {
            CheckKind::LastIndex { v0 } => bit_at(rest - v0),
            CheckKind::Partner {
                group,
                reversed,
                v0,
            } => partners(st.reversed[group as usize] & reversed, rest - 2 * v0),
            CheckKind::Pair {
                group,
                union,
                reversed,
                v0,
            } => {
                let g = group as usize;
                pair_check(
                    cand,
                    st.free[g] & union,
                    st.reversed[g] & reversed,
                    rest - 3 * v0,
                )
            }
            CheckKind::Spread { group, union, bias } => {
                distinct_allowed_from(st.free[group as usize] & union, check.later, rest - bias)
            }
            CheckKind::Last => {
                if rest % a != 0 {
                    return 0;
                }
                self.values.bit_of(rest / a)
            }
            CheckKind::Distinct { group, union } => {
                let avail = st.free[group as usize] & union;
                self.distinct_allowed(avail, check.later, rest)
            }
            CheckKind::Bounds { start, end } => {
                let (mut lo, mut hi) = (0i128, 0i128);
                for &(cell, coefficient, (gs, ge)) in
                    &self.later_cells[start as usize..end as usize]
                {
                    let mut d = self.domains[cell as usize];
                    for &g in &self.group_list[gs as usize..ge as usize] {
                        d &= st.free[g as usize];
                    }
                    if d == 0 {
                        return 0;
                    }
                    let (l, h) = self.values.contribution(d, coefficient);
                    lo += l;
                    hi += h;
                }
                // a * v must lie in [rest - hi, rest - lo].
                self.values
                    .multiples(a, rest as i128 - hi, rest as i128 - lo)
            }
        }
    }

    /// Values `v` such that `later` distinct values of `avail` other than `v` can sum
    /// to `rest - v`, as far as the bounds tell: the `later` smallest (`low`, summing to
    /// `low_sum`) and largest. For `v` outside `low` the others' least total is
    /// `low_sum`; for `v` inside it is `low_sum - v + next` with `next` the
    /// (`later` + 1)-th smallest, so those are possible together or not at all.
    #[inline(always)]
    fn distinct_allowed(&self, avail: u64, later: u32, rest: i64) -> u64 {
        if avail.count_ones() < later {
            return 0;
        }
        let (low, low_sum, above_low) = self.values.lowest(avail, later);
        let low_ok = above_low != 0 && low_sum + self.values.min(above_low) <= rest;
        let (high, high_sum, below_high) = self.values.highest(avail, later);
        let high_ok = below_high != 0 && high_sum + self.values.max(below_high) >= rest;
        let below = self.values.range(i64::MIN, rest - low_sum) & !low;
        let above = self.values.range(rest - high_sum, i64::MAX) & !high;
        (below | if low_ok { low } else { 0 }) & (above | if high_ok { high } else { 0 })
    }

    /// Appends the children of the node `prefix` leads to, in search order, to `out`;
    /// returns how many. `state` is the root's, and is left so.
    fn expand(&self, prefix: &[u8], state: &mut State, out: &mut Vec<Vec<u8>>) -> u64 {
        let depth = prefix.len();
        if depth == self.cells {
            return 0;
        }
        replay(self, prefix, state);
        let mut cand = self.candidates(depth, state);
        let children = cand.count_ones();
        while cand != 0 {
            let mut child = prefix.to_vec();
            child.push(cand.trailing_zeros() as u8);
            out.push(child);
            cand &= cand - 1;
        }
        unwind(self, prefix, state);
        u64::from(children)
    }

    /// The values of a complete branch of `kernel`'s search, per cell.
    fn solution<K: Kernel>(&self, st: &K::State) -> Vec<i64> {
        let mut out = vec![0; self.cells];
        for (depth, step) in self.steps.iter().enumerate() {
            out[step.cell as usize] = self.values.list[K::chosen(st, depth) as usize];
        }
        out
    }

    /// Which of the static-order searches runs (`SumsSolver::search_kind`).
    pub(super) fn kind(&self) -> String {
        match (self.baked, &self.indexed) {
            (Some(baked), _) => format!("baked from {}", baked.model().file),
            (None, Some(_)) => "static order, magic figure".into(),
            (None, None) => "static order".into(),
        }
    }

    /// The search below `task` with `kernel`.
    fn run_with<K: Kernel>(&self, kernel: &K, task: &[u8], sink: &mut Sink<'_, Vec<i64>>) {
        let mut state = kernel.state();
        replay(kernel, task, &mut state);
        // The task's root.
        let mut nodes = 1;
        let _ = dfs(
            kernel,
            self.cells,
            task.len(),
            &mut state,
            &mut nodes,
            &mut self.leaf::<K>(sink),
        );
        sink.nodes += nodes;
    }

    /// [`Plan::run_with`] by the baked search `baked` of the same steps as `indexed`
    /// (for a task it enters at, [`Baked::enters_at`]).
    fn run_baked(
        &self,
        indexed: &Indexed,
        baked: Baked,
        task: &[u8],
        sink: &mut Sink<'_, Vec<i64>>,
    ) {
        let mut state = indexed.state();
        replay(indexed, task, &mut state);
        let mut nodes = 1;
        let _ = baked.search(
            task.len(),
            &mut state,
            &mut nodes,
            &mut self.leaf::<Indexed>(sink),
        );
        sink.nodes += nodes;
    }

    /// What a kernel's search does with each solution: reports it to `sink`.
    fn leaf<'a, 's: 'a, K: Kernel>(
        &'a self,
        sink: &'a mut Sink<'s, Vec<i64>>,
    ) -> impl FnMut(&K::State) -> ControlFlow<()> + use<'a, 's, K> {
        move |st| {
            super::solve::report(
                sink,
                &self.expand,
                || self.solution::<K>(st),
                |cell| K::chosen(st, self.position[cell] as usize),
            )
        }
    }
}

impl Kernel for Plan {
    type State = State;

    fn state(&self) -> State {
        State {
            free: vec![self.values.all; self.groups],
            reversed: vec![self.values.all.reverse_bits(); self.groups],
            rest: self.targets.clone(),
            chosen: vec![0; self.cells],
            untried: vec![0; self.cells],
        }
    }

    #[inline(always)]
    fn candidates(&self, depth: usize, st: &State) -> u64 {
        let step = &self.steps[depth];
        let mut cand = step.domain;
        if self.one_group {
            cand &= st.free[0];
        } else {
            for &g in &self.step_groups[step.groups.0 as usize..step.groups.1 as usize] {
                cand &= st.free[g as usize];
            }
        }
        for &(earlier, bound) in &self.step_order[step.order.0 as usize..step.order.1 as usize] {
            cand &= bound.allowed(st.chosen[earlier as usize].into(), |s| st.chosen[s].into());
        }
        for check in &self.checks[step.checks.0 as usize..step.checks.1 as usize] {
            if cand == 0 {
                break;
            }
            cand &= self.check(check, cand, st);
        }
        cand
    }

    #[inline(always)]
    fn apply(&self, depth: usize, bit: u32, st: &mut State) {
        let step = &self.steps[depth];
        let mask = 1u64 << bit;
        let mirrored = (1u64 << 63) >> bit;
        if self.one_group {
            st.free[0] &= !mask;
            st.reversed[0] &= !mirrored;
        } else {
            for &g in &self.step_groups[step.groups.0 as usize..step.groups.1 as usize] {
                st.free[g as usize] &= !mask;
                st.reversed[g as usize] &= !mirrored;
            }
        }
        let v = self.values.list[bit as usize];
        let (ts, te) = step.terms;
        for &(e, a) in &self.step_terms[ts as usize..te as usize] {
            st.rest[e as usize] -= a * v;
        }
        st.chosen[depth] = bit as u8;
    }

    #[inline(always)]
    fn undo(&self, depth: usize, bit: u32, st: &mut State) {
        let step = &self.steps[depth];
        let mask = 1u64 << bit;
        let mirrored = (1u64 << 63) >> bit;
        if self.one_group {
            st.free[0] |= mask;
            st.reversed[0] |= mirrored;
        } else {
            for &g in &self.step_groups[step.groups.0 as usize..step.groups.1 as usize] {
                st.free[g as usize] |= mask;
                st.reversed[g as usize] |= mirrored;
            }
        }
        let v = self.values.list[bit as usize];
        let (ts, te) = step.terms;
        for &(e, a) in &self.step_terms[ts as usize..te as usize] {
            st.rest[e as usize] += a * v;
        }
    }

    fn chosen(st: &State, depth: usize) -> u32 {
        st.chosen[depth].into()
    }

    fn untried(st: &mut State, depth: usize) -> &mut u64 {
        &mut st.untried[depth]
    }
}

/// Applies the bits of `prefix` to the first steps.
fn replay<K: Kernel>(kernel: &K, prefix: &[u8], st: &mut K::State) {
    for (depth, &bit) in prefix.iter().enumerate() {
        kernel.apply(depth, bit.into(), st);
    }
}

/// Undoes [`replay`].
fn unwind<K: Kernel>(kernel: &K, prefix: &[u8], st: &mut K::State) {
    for (depth, &bit) in prefix.iter().enumerate().rev() {
        kernel.undo(depth, bit.into(), st);
    }
}

/// Depth-first search of `cells` steps below `start`; `leaf` gets each solution.
/// `Break` when stopped. A loop over an explicit stack of untried candidates rather
/// than a call per node: no frame to set up and tear down at every node.
fn dfs<K: Kernel>(
    kernel: &K,
    cells: usize,
    start: usize,
    st: &mut K::State,
    nodes: &mut u64,
    leaf: &mut impl FnMut(&K::State) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if start == cells {
        return leaf(st);
    }
    let last = cells - 1;
    let mut depth = start;
    let mut cand = kernel.candidates(depth, st);
    loop {
        if cand == 0 {
            if depth == start {
                return ControlFlow::Continue(());
            }
            depth -= 1;
            kernel.undo(depth, K::chosen(st, depth), st);
            cand = *K::untried(st, depth);
            continue;
        }
        let bit = cand.trailing_zeros();
        cand &= cand - 1;
        *nodes += 1;
        kernel.apply(depth, bit, st);
        if depth == last {
            let flow = leaf(st);
            kernel.undo(depth, bit, st);
            if flow.is_break() {
                for d in (start..depth).rev() {
                    kernel.undo(d, K::chosen(st, d), st);
                }
                return flow;
            }
            continue;
        }
        *K::untried(st, depth) = cand;
        depth += 1;
        cand = kernel.candidates(depth, st);
    }
}

/// The candidates `cand` (bits `i`) for which two distinct values of `avail` other
/// than `i` make up the rest: `j + k = k_total - i`. A step's candidates are mostly
/// down to a bit or two when its pair check comes (forced values and exact partners
/// go first), so one [`partners`] test per candidate costs less than
/// [`pair_partners`], which sums every pair of `avail`; it is exact, too. `reversed`
/// is `avail` with its bits reversed.
#[inline]
fn pair_check(cand: u64, avail: u64, reversed: u64, k_total: i64) -> u64 {
    if cand.count_ones() > 3 {
        return pair_partners(avail, k_total);
    }
    let mut kept = 0;
    let mut m = cand;
    while m != 0 {
        let i = m.trailing_zeros();
        m &= m - 1;
        let others = avail & !(1u64 << i);
        let others_reversed = reversed & !((1u64 << 63) >> i);
        if partners(others_reversed, k_total - i64::from(i)) & others != 0 {
            kept |= 1 << i;
        }
    }
    kept
}

/// The bits `i` of values for which two other distinct available values make up the
/// rest: `j + k = k_total - i` with `j < k` in `avail` (either may equal `i`; that only
/// keeps a value the bounds would also keep).
#[inline]
fn pair_partners(avail: u64, k_total: i64) -> u64 {
    // Two distinct partner indices sum to at most 62 + 63, and the value's index is at
    // most 63; beyond, or below zero, nothing makes up the rest.
    const MOST: i64 = (62 + 63) + 63;
    if !(0..=MOST).contains(&k_total) {
        return 0;
    }
    let mut sums = 0u128;
    let mut m = avail;
    while m != 0 {
        let j = m.trailing_zeros();
        m &= m - 1;
        sums |= (m as u128) << j;
    }
    // Bit s of sums: two values with indices summing to s. Want bit k_total - i.
    let reversed = sums.reverse_bits(); // bit s at 127 - s
    let mirrored = if k_total <= 127 {
        reversed >> (127 - k_total)
    } else {
        reversed << (k_total - 127)
    };
    mirrored as u64
}

impl Search for Plan {
    /// The bits chosen at the first steps.
    type Task = Vec<u8>;
    type Worker = ();
    type Item = Vec<i64>;

    fn split_for(&self, threads: usize) -> Split {
        super::solve::split_for(threads)
    }

    /// One level per cell.
    fn depth(&self) -> usize {
        self.cells
    }

    fn split(&self, split: Split) -> (Vec<Vec<u8>>, u64) {
        let mut level: Vec<Vec<u8>> = vec![Vec::new()];
        let mut nodes = 0;
        let mut state = Kernel::state(self);
        let mut depth = 0;
        while level.len() < split.tasks && depth < self.cells().min(split.depth) {
            let mut next = Vec::new();
            for prefix in &level {
                nodes += self.expand(prefix, &mut state, &mut next);
            }
            level = next;
            depth += 1;
        }
        // The root, and every node expanded, less the tasks' roots (each task counts
        // its own).
        let above = 1 + nodes - level.len() as u64;
        (level, above)
    }

    fn worker(&self) {}

    fn children(&self, _: &mut (), task: &Vec<u8>, out: &mut Vec<Vec<u8>>) -> u64 {
        self.expand(task, &mut Kernel::state(self), out)
    }

    fn run(&self, _: &mut (), task: &Vec<u8>, sink: &mut Sink<'_, Vec<i64>>) {
        match (&self.indexed, self.baked) {
            (Some(indexed), Some(baked)) if baked.enters_at(task.len()) => {
                self.run_baked(indexed, baked, task, sink);
            }
            (Some(indexed), _) => self.run_with(indexed, task, sink),
            (None, _) => self.run_with(self, task, sink),
        }
    }
}

/// Bit `i`, or 0 when `i` is not in `0..64`.
#[inline]
fn bit_at(i: i64) -> u64 {
    if (0..64).contains(&i) {
        1 << i
    } else {
        0
    }
}

/// Bits `0..=i` (none when `i < 0`).
#[inline]
fn bits_to(i: i64) -> u64 {
    if i < 0 {
        0
    } else if i >= 63 {
        u64::MAX
    } else {
        (2u64 << i) - 1
    }
}

/// [`Plan::distinct_allowed`] for the values `v0 + i`, on bit indices alone: `rest`
/// is the equation's remainder less `(later + 1) * v0`, so that sums of `later + 1`
/// values become sums of their indices.
#[inline]
fn distinct_allowed_from(avail: u64, later: u32, rest: i64) -> u64 {
    let (mut m, mut low_sum) = (avail, 0i64);
    for _ in 0..later {
        low_sum += i64::from(m.trailing_zeros());
        m &= m.wrapping_sub(1);
    }
    if m == 0 {
        return 0; // fewer than later + 1 values: the step's own value and the others
    }
    let low = avail ^ m;
    let low_ok = low_sum + i64::from(m.trailing_zeros()) <= rest;
    let (mut m, mut high_sum) = (avail, 0i64);
    for _ in 0..later {
        let top = 63 - m.leading_zeros();
        high_sum += i64::from(top);
        m ^= 1 << top;
    }
    let high = avail ^ m;
    let high_ok = high_sum + i64::from(63 - m.leading_zeros()) >= rest;
    let below = bits_to(rest - low_sum) & !low;
    let above = !bits_to(rest - high_sum - 1) & !high;
    (below | if low_ok { low } else { 0 }) & (above | if high_ok { high } else { 0 })
}

/// The bits `i` such that bit `k - i` of `avail` is set and differs from `i`, given
/// `reversed`, `avail` with its bits reversed (bit `j` at `63 - j`): with values
/// `v0 + i`, the values `v` whose partner `rest - v` (with `k = rest - 2 v0`) is still
/// available, exactly, by one shift.
#[inline]
fn partners(reversed: u64, k: i64) -> u64 {
    // Two bit indices sum to at most 63 + 63.
    const MOST: i64 = 63 + 63;
    if !(0..=MOST).contains(&k) {
        return 0;
    }
    let mirrored = if k <= 63 {
        reversed >> (63 - k)
    } else {
        reversed << (k - 63)
    };
    // `i = k / 2` would be its own partner (only when `k` is even; `k / 2 <= 63`).
    let itself = u64::from(k & 1 == 0) << (k >> 1);
    mirrored & !itself
}

/// The static order `order: static` asks for, derived from the equations: a cell that
/// an equation forces (its last free cell) comes first; otherwise the cell that leaves
/// the most equations one cell short (so that their last cell is forced next), then the
/// cell in the most equations, then the smallest domain, then drawing order. Lines get
/// closed as early as possible, which is where the checks prune.
pub(super) fn planned_order(domains: &[u64], equations: &[(Vec<(usize, i64)>, i64)]) -> Vec<usize> {
    let n = domains.len();
    let mut free: Vec<usize> = equations.iter().map(|e| e.0.len()).collect();
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, (terms, _)) in equations.iter().enumerate() {
        for &(c, _) in terms {
            of_cell[c].push(e);
        }
    }
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for _ in 0..n {
        let best = (0..n)
            .filter(|&c| !placed[c])
            .max_by_key(|&c| {
                let forced = of_cell[c].iter().any(|&e| free[e] == 1);
                let near = of_cell[c].iter().filter(|&&e| free[e] == 2).count();
                (
                    forced,
                    near,
                    of_cell[c].len(),
                    std::cmp::Reverse(domains[c].count_ones()),
                    std::cmp::Reverse(c),
                )
            })
            .expect("a cell is left");
        placed[best] = true;
        for &e in &of_cell[best] {
            free[e] -= 1;
        }
        order.push(best);
    }
    order
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::{dfs, pair_check, partners, Kernel, Plan};
    use crate::sums::{parse, SumsSolver};
    use crate::Mode;

    /// Every solution `kernel` finds from the root, in order, and its nodes.
    fn search<K: Kernel>(plan: &Plan, kernel: &K) -> (Vec<Vec<i64>>, u64) {
        let (mut found, mut nodes) = (Vec::new(), 0);
        let mut state = kernel.state();
        let _ = dfs(kernel, plan.cells, 0, &mut state, &mut nodes, &mut |st| {
            found.push(plan.solution::<K>(st));
            ControlFlow::Continue(())
        });
        (found, nodes)
    }

    /// The plan of `text` in `mode`, and whether it was compiled for magic figures.
    fn compare(text: &str, mode: Mode) -> (usize, bool) {
        let model = parse(text, "test.sum").expect("a valid model");
        let solver = SumsSolver::new(&model, mode).expect("a solvable model");
        let plan = solver.plan().expect("a static order");
        let general = search(plan, plan);
        let Some(indexed) = &plan.indexed else {
            return (general.0.len(), false);
        };
        assert_eq!(search(plan, indexed), general, "{text}");
        (general.0.len(), true)
    }

    /// The kernel for magic figures finds what the general one finds, in the same
    /// order and with the same nodes: the shipped figures (with their symmetries'
    /// order constraints and the complement's bound on the centre) and random models
    /// of sums over distinct consecutive values, with more checks per cell than a
    /// square has. A coefficient other than 1 leaves the model to the general kernel.
    #[test]
    fn the_kernel_for_magic_figures_agrees_with_the_general_one() {
        for file in [
            "magic-square-3.sum",
            "magic-square-4.sum",
            "magic-hexagon.sum",
        ] {
            let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a shipped file");
            for mode in [Mode::All, Mode::Distinct] {
                let (found, indexed) = compare(&text, mode);
                assert!(indexed && found > 0, "{file}");
            }
        }
        let mut rng = fastrand::Rng::with_seed(5);
        let (mut served, mut solutions) = (0, 0);
        for _ in 0..300 {
            let n = rng.usize(4..=9);
            let values = n + rng.usize(0..4);
            // Values from a random first one, negative included.
            let first = rng.i64(-6..=6);
            let last = first + values as i64 - 1;
            let mut perm: Vec<i64> = (first..=last).collect();
            rng.shuffle(&mut perm);
            let names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
            let mut text = format!(
                "name: random\nvalues: {first}..{last}\ncells:\n{}\n\ndistinct: all\n",
                names.join(" ")
            );
            let unit = rng.u32(0..8) != 0;
            for _ in 0..rng.usize(2..=n + 2) {
                let k = rng.usize(2..=n.min(5));
                let mut cells: Vec<usize> = (0..n).collect();
                rng.shuffle(&mut cells);
                let cells = &cells[..k];
                let a = if unit { 1 } else { rng.i64(2..=3) };
                let total: i64 =
                    cells.iter().map(|&c| perm[c]).sum::<i64>() + (a - 1) * perm[cells[0]];
                let terms: Vec<String> = cells
                    .iter()
                    .enumerate()
                    .map(|(j, &c)| {
                        if j == 0 && a != 1 {
                            format!("{a}*{}", names[c])
                        } else {
                            names[c].clone()
                        }
                    })
                    .collect();
                text += &format!("{} = {total}\n", terms.join(" + "));
            }
            text += "order: static\n";
            let (found, indexed) = compare(&text, Mode::All);
            // Unit sums may imply equations with other coefficients (differences):
            // those models go to the general kernel too.
            assert!(unit || !indexed, "{text}");
            served += usize::from(indexed);
            solutions += found;
        }
        assert!(served > 100 && solutions > 300, "{served} {solutions}");
    }

    /// `partners` against its definition: bit `i` when bit `k - i` of `avail` is set
    /// and `k - i` is not `i`.
    #[test]
    fn partners_are_the_other_bits_summing_to_k() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..2000 {
            let avail = rng.u64(..) >> rng.u32(0..64);
            let k = rng.i64(-3..130);
            let want = (0..64i64)
                .filter(|&i| {
                    let j = k - i;
                    (0..64).contains(&j) && j != i && avail >> j & 1 == 1
                })
                .fold(0u64, |m, i| m | 1 << i);
            assert_eq!(partners(avail.reverse_bits(), k), want, "{avail:#x} {k}");
        }
    }

    /// `pair_check` against its definition: the candidates `i` with two distinct
    /// values `j`, `k` of `avail`, both other than `i`, and `i + j + k` the total.
    #[test]
    fn pair_check_keeps_exactly_the_candidates_with_two_partners() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            let avail = rng.u64(..) & 0xffff;
            let cand = avail & rng.u64(..);
            let total = rng.i64(-2..50);
            let mut want = 0u64;
            for i in 0..16i64 {
                let found = (0..16).any(|j| {
                    (j + 1..16).any(|k| {
                        j != i
                            && k != i
                            && avail >> j & 1 == 1
                            && avail >> k & 1 == 1
                            && i + j + k == total
                    })
                });
                if cand >> i & 1 == 1 && found {
                    want |= 1 << i;
                }
            }
            let got = pair_check(cand, avail, avail.reverse_bits(), total);
            if cand.count_ones() <= 3 {
                assert_eq!(got, want, "cand {cand:#x} avail {avail:#x} total {total}");
            } else {
                // Many candidates: the pair sums of `avail`, which may use `i` itself.
                assert_eq!(
                    got & want,
                    want,
                    "cand {cand:#x} avail {avail:#x} total {total}"
                );
            }
        }
    }
}

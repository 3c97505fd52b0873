//! Solving a number puzzle: the constraints made ready ([`Prepared`]), the search the
//! model's order asks for (static: [`super::plan`]; smallest domain:
//! [`super::propagate`]), tasks on threads, solutions merged in search order.
//!
//! In all mode, a model whose solutions use distinct values is searched one solution
//! per class of its automorphisms ([`super::symmetry`]), each class written out whole.
//!
//! The implied sum of a group that must use all its values (`1 + ... + 9 = 45` for a
//! sudoku row) is added as an equation, which lets cages and lines interact.

use super::model::{Model, Order};
use super::plan::{planned_order, Plan};
use super::propagate::Engine;
use super::symmetry::{self, Perm};
use crate::parallel::{self, Task};
pub use crate::solve::Limits;

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found; in distinct mode, classes of symmetric solutions.
    pub count: usize,
    /// When `keep` was set, the value of each cell (in `Model::cells` order) of each
    /// solution, in search order; with automorphisms, each class found is followed by
    /// its images.
    pub solutions: Vec<Vec<i64>>,
    /// Search nodes (values tried), when `stats` was set.
    pub nodes: u64,
    /// Solutions each class stands for: the model's symmetry group order in distinct
    /// mode, 1 otherwise.
    pub group_order: u64,
    /// In all mode, the automorphisms of the model the search used: it found one
    /// solution per class and wrote out its images (1 when it searched them all).
    pub automorphisms: usize,
}

impl Outcome {
    /// All solutions the classes found stand for.
    pub fn total(&self) -> u64 {
        self.count as u64 * self.group_order
    }
}

/// Tasks the search tree is cut into on several threads.
const TARGET_TASKS: usize = 256;

/// Finds the solutions of `model`; with `distinct`, one per class of the model's
/// symmetry (its `symmetry` order constraints are added).
pub fn solve(model: &Model, distinct: bool, limits: Limits) -> Outcome {
    let symmetry = model.symmetry.as_ref().filter(|_| distinct);
    let group_order = symmetry.map_or(1, |s| s.group_order);
    let extra_less = symmetry.map_or(&[][..], |s| &s.less[..]);
    let values = Values::new(&model.values);
    let mut prepared = Prepared::new(model, &values, extra_less);
    let mut outcome = Outcome {
        count: 0,
        solutions: Vec::new(),
        nodes: 0,
        group_order,
        automorphisms: 1,
    };
    if limits.limit == 0 {
        return outcome;
    }
    let order = match &model.order {
        Order::Smallest => None,
        Order::Static(order) => Some(order.clone()),
        Order::Planned => Some(planned_order(
            &model.domains,
            &prepared.equations[..prepared.stated],
        )),
    };
    // All solutions of a model whose solutions take distinct values: one per class of
    // its automorphisms, then each class's images.
    let images = if distinct || !symmetry::injective(model.cells.len(), &prepared) {
        None
    } else {
        symmetry::automorphisms(model, &prepared).filter(|g| g.len() > 1)
    };
    if let Some(group) = &images {
        let sequence: Vec<usize> = order
            .clone()
            .unwrap_or_else(|| (0..model.cells.len()).collect());
        let mut less = symmetry::breaking_constraints(group, &sequence);
        // The file's own symmetry constraints, when they are exactly Puget's for this
        // group along some sequence (so just as exact), encode its author's choice of
        // cells; for the magic hexagon they prune a third more.
        if let Some(stated) = model.symmetry.as_ref() {
            let mut firsts: Vec<usize> = Vec::new();
            for &(a, _) in &stated.less {
                if !firsts.contains(&a) {
                    firsts.push(a);
                }
            }
            let rest = sequence.iter().copied().filter(|c| !firsts.contains(c));
            let along: Vec<usize> = firsts.iter().copied().chain(rest).collect();
            let theirs = symmetry::breaking_constraints(group, &along);
            let as_set =
                |v: &[(usize, usize)]| v.iter().copied().collect::<std::collections::BTreeSet<_>>();
            if as_set(&theirs) == as_set(&stated.less) {
                less = theirs;
            }
        }
        prepared.less.extend(less);
    }
    outcome.automorphisms = images.as_ref().map_or(1, Vec::len);
    let images = images.as_deref();
    let (count, solutions, nodes) = match &order {
        None => run(&Engine::new(model, &prepared), limits, images),
        Some(order) => run(&Plan::new(model, order, &prepared), limits, images),
    };
    outcome.count = count;
    outcome.solutions = solutions;
    outcome.nodes = nodes;
    outcome
}

/// What both searches offer the task runner.
pub(super) trait Search: Sync {
    /// A subtree, as the search describes it.
    type Task: Send + Sync;
    /// The tree cut into at least `target` subtrees (fewer if it is smaller), in
    /// search order, and the nodes spent cutting it (the nodes above the cut).
    fn frontier(&self, target: usize) -> (Vec<Self::Task>, u64);
    /// Searches one subtree; returns its nodes.
    fn run_task(&self, task: &Self::Task, found: &mut Found) -> u64;
}

/// Runs the tasks of `search` on the threads and merges them in task order.
fn run(
    search: &impl Search,
    limits: Limits,
    images: Option<&[Perm]>,
) -> (usize, Vec<Vec<i64>>, u64) {
    let limit = limits.limit;
    // The cut changes nothing but the work split: the tree and its nodes are the same.
    let target = if limits.threads <= 1 { 1 } else { TARGET_TASKS };
    let (tasks, mut nodes) = search.frontier(target);
    let results = parallel::run_tasks(
        tasks.len(),
        limits.threads.max(1),
        limit,
        |task| {
            let mut found = Found {
                count: 0,
                limit,
                task,
                keep: limits.keep,
                solutions: Vec::new(),
                images,
            };
            let nodes = search.run_task(&tasks[task.index], &mut found);
            (found.count, found.solutions, nodes)
        },
        |r| r.0,
    );
    let (mut count, mut solutions) = (0, Vec::new());
    for (n, found, task_nodes) in results.into_iter().flatten() {
        if count >= limit {
            break;
        }
        nodes += task_nodes;
        let take = n.min(limit - count);
        count += take;
        solutions.extend(found.into_iter().take(if limits.keep { take } else { 0 }));
    }
    (count, solutions, nodes)
}

/// Collects the solutions of one task.
pub(super) struct Found<'g> {
    count: usize,
    limit: usize,
    /// Its task: the search stops once the task is abandoned (see `parallel`).
    task: Task<'g>,
    keep: bool,
    solutions: Vec<Vec<i64>>,
    /// When the search keeps one solution per class: the automorphisms (identity
    /// first) whose images are the class.
    images: Option<&'g [Perm]>,
}

impl Found<'_> {
    /// Records a solution, whose values `values` gives if they are kept (and, with
    /// `images`, its class); false once the limit is reached or the task abandoned.
    #[inline]
    pub(super) fn solution(&mut self, values: impl FnOnce() -> Vec<i64>) -> bool {
        match self.images {
            None => {
                self.count += 1;
                if self.keep {
                    self.solutions.push(values());
                }
            }
            Some(group) => {
                self.count += group.len();
                if self.keep {
                    let values = values();
                    for g in group {
                        let mut image = vec![0; values.len()];
                        for (c, &v) in values.iter().enumerate() {
                            image[g[c] as usize] = v;
                        }
                        self.solutions.push(image);
                    }
                }
            }
        }
        self.count < self.limit && !self.task.abandoned()
    }
}

/// Bits `lo..=hi` (empty when `lo > hi`).
pub(super) fn bit_range(lo: usize, hi: usize) -> u64 {
    if lo > hi {
        0
    } else {
        (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
    }
}

/// The value set: bit `i` of a domain stands for `list[i]` (ascending).
pub(super) struct Values {
    pub(super) list: Vec<i64>,
    /// `Some(v0)` when the values are `v0, v0 + 1, ...`: a value's bit is arithmetic.
    base: Option<i64>,
    /// Every value's bit.
    pub(super) all: u64,
}

impl Values {
    pub(super) fn new(list: &[i64]) -> Values {
        let base = list
            .first()
            .copied()
            .filter(|&v0| list.iter().enumerate().all(|(i, &v)| v == v0 + i as i64));
        let all = if list.is_empty() {
            0
        } else {
            bit_range(0, list.len() - 1)
        };
        Values {
            list: list.to_vec(),
            base,
            all,
        }
    }

    /// `Some(v0)` when the values are `v0, v0 + 1, ...`.
    #[inline]
    pub(super) fn base(&self) -> Option<i64> {
        self.base
    }

    /// The bits of the values in `lo..=hi`.
    pub(super) fn range(&self, lo: i64, hi: i64) -> u64 {
        let n = self.list.len();
        if lo > hi || n == 0 {
            return 0;
        }
        let (first, last) = match self.base {
            Some(v0) => {
                let last_value = v0 + n as i64 - 1;
                if hi < v0 || lo > last_value {
                    return 0;
                }
                let first = if lo <= v0 { 0 } else { (lo - v0) as usize };
                let last = if hi >= last_value {
                    n - 1
                } else {
                    (hi - v0) as usize
                };
                (first, last)
            }
            None => {
                let first = self.list.partition_point(|&v| v < lo);
                let end = self.list.partition_point(|&v| v <= hi);
                if end == 0 {
                    return 0;
                }
                (first, end - 1)
            }
        };
        bit_range(first, last)
    }

    /// The bit of value `v`, or 0 if it is not in the set.
    #[inline]
    pub(super) fn bit_of(&self, v: i64) -> u64 {
        self.range(v, v)
    }

    /// The bits of the values `v` with `a * v` in `lo..=hi` (`a` nonzero).
    pub(super) fn multiples(&self, a: i64, lo: i128, hi: i128) -> u64 {
        let a = a as i128;
        let (vlo, vhi) = if a > 0 {
            (div_ceil(lo, a), div_floor(hi, a))
        } else {
            (div_ceil(hi, a), div_floor(lo, a))
        };
        let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        self.range(clamp(vlo), clamp(vhi))
    }

    #[inline]
    pub(super) fn min(&self, d: u64) -> i64 {
        self.list[d.trailing_zeros() as usize]
    }

    #[inline]
    pub(super) fn max(&self, d: u64) -> i64 {
        self.list[63 - d.leading_zeros() as usize]
    }

    /// The `k` smallest values of `mask` (`k` at most its bit count): their bits, their
    /// sum, and the bits left.
    #[inline]
    pub(super) fn lowest(&self, mask: u64, k: u32) -> (u64, i64, u64) {
        let (mut m, mut sum) = (mask, 0);
        for _ in 0..k {
            sum += self.list[m.trailing_zeros() as usize];
            m &= m.wrapping_sub(1);
        }
        (mask ^ m, sum, m)
    }

    /// The `k` largest values of `mask` (`k` at most its bit count): their bits, their
    /// sum, and the bits left.
    #[inline]
    pub(super) fn highest(&self, mask: u64, k: u32) -> (u64, i64, u64) {
        let (mut m, mut sum) = (mask, 0);
        for _ in 0..k {
            let top = 63 - m.leading_zeros();
            sum += self.list[top as usize];
            m ^= 1 << top;
        }
        (mask ^ m, sum, m)
    }

    /// The least and greatest of `a * v` over the values `v` of the nonempty `d`.
    #[inline]
    pub(super) fn contribution(&self, d: u64, a: i64) -> (i128, i128) {
        let (vmin, vmax) = (self.min(d) as i128, self.max(d) as i128);
        let a = a as i128;
        if a > 0 {
            (a * vmin, a * vmax)
        } else {
            (a * vmax, a * vmin)
        }
    }
}

/// The constraints of a model made ready for either search: groups sorted,
/// deduplicated and of two cells or more; the implied sum of every group that must use
/// all of its values added as an equation; symmetry-breaking order constraints added.
pub(super) struct Prepared {
    pub(super) groups: Vec<Vec<usize>>,
    /// Per group: the values it must use all of (as many as it has cells), or 0.
    pub(super) group_full: Vec<u64>,
    pub(super) equations: Vec<(Vec<(usize, i64)>, i64)>,
    /// `equations[..stated]` are the model's own, the rest implied.
    pub(super) stated: usize,
    pub(super) less: Vec<(usize, usize)>,
}

impl Prepared {
    pub(super) fn new(model: &Model, values: &Values, extra_less: &[(usize, usize)]) -> Prepared {
        let initial: Vec<u64> = model.domains.iter().map(|&d| d & values.all).collect();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut group_full = Vec::new();
        for g in &model.groups {
            let mut cells: Vec<usize> = g.clone();
            cells.sort_unstable();
            cells.dedup();
            if cells.len() < 2 || groups.contains(&cells) {
                continue;
            }
            let union = cells.iter().fold(0, |u, &c| u | initial[c]);
            let full = if union.count_ones() as usize == cells.len() {
                union
            } else {
                0
            };
            group_full.push(full);
            groups.push(cells);
        }
        let mut equations: Vec<(Vec<(usize, i64)>, i64)> = model
            .equations
            .iter()
            .map(|e| (e.terms.clone(), e.target))
            .collect();
        let stated = equations.len();
        // A group that must use exactly its values sums to their total: an implied
        // equation that joins the group's cages and lines.
        for (cells, &full) in groups.iter().zip(&group_full) {
            if full != 0 {
                let mut total = 0;
                let mut m = full;
                while m != 0 {
                    total += values.list[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                let terms: Vec<(usize, i64)> = cells.iter().map(|&c| (c, 1)).collect();
                if !equations.iter().any(|(t, v)| *t == terms && *v == total) {
                    equations.push((terms, total));
                }
            }
        }
        let less = model.less.iter().chain(extra_less).copied().collect();
        Prepared {
            groups,
            group_full,
            equations,
            stated,
            less,
        }
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

//! Solving a number puzzle: the model checked and made ready ([`super::prepare`]), the
//! search the model's order asks for (static: [`super::plan`]; smallest domain:
//! [`super::propagate`]), run by the [driver](crate::driver).
//!
//! A model whose solutions use distinct values is searched one solution per class of
//! its automorphisms G ([`super::automorphisms`]). [`Mode::All`] writes each class out
//! whole. [`Mode::Distinct`] reports the class, or, when the file states a group by
//! its `symmetry` constraints, the class's members that satisfy them ([`Selection`]);
//! other models in distinct mode are searched with the file's constraints added, which
//! keep one solution per class, each standing for the group order the file states.
//!
//! ```
//! use polytile::sums::{builtin, SumsSolver};
//! use polytile::{Mode, Options};
//!
//! let square = builtin::magic_square(3).unwrap();
//! let all = SumsSolver::new(&square, Mode::All).unwrap();
//! assert_eq!(all.count(&Options::default()).solutions, 8);
//!
//! let distinct = SumsSolver::new(&square, Mode::Distinct).unwrap();
//! let mut found = Vec::new();
//! let summary = distinct.for_each(&Options::default(), |values| {
//!     found.push(values);
//!     std::ops::ControlFlow::Continue(())
//! });
//! assert_eq!((summary.solutions, summary.total), (1, 8));
//! assert_eq!(found[0].iter().sum::<i64>(), 45);
//! ```

use std::ops::ControlFlow;

use super::automorphisms::{automorphisms, injective};
use super::model::{Model, ModelError, Order};
use super::plan::{planned_order, Plan};
use super::prepare::{Prepared, Values};
use super::propagate::Engine;
use crate::driver::{self, Mode, Options, Progress, Search, Sink, Split, Summary};
use crate::estimate::{self, Estimate, EstimateOptions};
use crate::symmetry::Group;

/// Tasks the search tree is cut into on several threads.
const TARGET_TASKS: usize = 256;

/// How the number searches cut their trees: into [`TARGET_TASKS`] on several threads,
/// not at all on one (the nodes are the same; the cut only costs).
pub(super) fn split_for(threads: usize) -> Split {
    Split {
        depth: usize::MAX,
        tasks: if threads > 1 { TARGET_TASKS } else { 1 },
    }
}

/// What one solution found stands for.
pub(super) enum Expand {
    /// Itself alone.
    Itself,
    /// Its class under these automorphisms, written out whole (all mode).
    Images(Group),
    /// The images under the automorphisms that satisfy the file's symmetry
    /// constraints: one per class of the file's group (distinct mode).
    Selected(Selection),
}

/// The automorphisms `G` of a model whose solutions take distinct values, and the
/// order constraints of the group `H` its file states: each `G`-class of solutions
/// holds `|G| / |H|` `H`-classes, and exactly one member of each satisfies the
/// constraints. So one solution per `G`-class, found with `G`'s own (stronger)
/// constraints, gives the file's distinct solutions by trying its `|G|` images.
pub(super) struct Selection {
    group: Group,
    /// Per element `g`, per constraint `(a, b)`: the cells whose values the image
    /// puts at `a` and `b` (the preimages), so that the image satisfies the
    /// constraint when the value at the first is less.
    preimages: Vec<(u32, u32)>,
    constraints: usize,
}

impl Selection {
    /// The selection of `group` by the stated constraints `less` of a group of order
    /// `stated`, if they select `|G| / stated` images of every labelling tried:
    /// pseudo-random injective labellings, enough that constraints which are not one
    /// per class of a subgroup of that order show it.
    pub(super) fn new(group: &Group, less: &[(usize, usize)], stated: u64) -> Option<Selection> {
        let order = group.order() as u64;
        if less.is_empty() || stated == 0 || order % stated != 0 {
            return None;
        }
        let cells = group.perm(0).len();
        let mut preimages = Vec::with_capacity(group.order() * less.len());
        for g in 0..group.order() {
            let mut inverse = vec![0u32; cells];
            for (c, &to) in group.perm(g).iter().enumerate() {
                inverse[to as usize] = c as u32;
            }
            preimages.extend(less.iter().map(|&(a, b)| (inverse[a], inverse[b])));
        }
        let selection = Selection {
            group: group.clone(),
            preimages,
            constraints: less.len(),
        };
        let mut rng = fastrand::Rng::with_seed(0x5e1ec7);
        let mut labels: Vec<u32> = (0..cells as u32).collect();
        let consistent = (0..64).all(|_| {
            rng.shuffle(&mut labels);
            selection.count(|c| labels[c]) * stated == order
        });
        consistent.then_some(selection)
    }

    /// How many images of the solution whose cell `c` holds the `index(c)`-th value
    /// satisfy the constraints.
    #[inline]
    fn count(&self, index: impl Fn(usize) -> u32) -> u64 {
        self.preimages
            .chunks_exact(self.constraints)
            .filter(|pairs| {
                pairs
                    .iter()
                    .all(|&(a, b)| index(a as usize) < index(b as usize))
            })
            .count() as u64
    }

    /// The images of `values` that satisfy the constraints, in element order.
    fn selected<'a>(&'a self, values: &'a [i64]) -> impl Iterator<Item = Vec<i64>> + 'a {
        self.preimages
            .chunks_exact(self.constraints)
            .enumerate()
            .filter(|(_, pairs)| {
                pairs
                    .iter()
                    .all(|&(a, b)| values[a as usize] < values[b as usize])
            })
            .map(|(g, _)| self.group.move_labels(g, values, 0))
    }
}

/// Reports one solution to `sink` as `expand` says: `values` gives its values if they
/// are kept, `index(c)` the rank of cell `c`'s value among the model's values.
#[inline]
pub(super) fn report(
    sink: &mut Sink<'_, Vec<i64>>,
    expand: &Expand,
    values: impl FnOnce() -> Vec<i64>,
    index: impl Fn(usize) -> u32,
) -> ControlFlow<()> {
    match expand {
        Expand::Itself => sink.found(1, |out| out.push(values())),
        Expand::Images(group) => sink.found(group.order() as u64, |out| {
            let values = values();
            out.extend((0..group.order()).map(|g| group.move_labels(g, &values, 0)));
        }),
        Expand::Selected(selection) => sink.found(selection.count(index), |out| {
            out.extend(selection.selected(&values()));
        }),
    }
}

/// A number puzzle made ready to solve: checked, its constraints compiled for the
/// search its order asks for.
///
/// Solving does not change it, so one solver can run any number of times.
pub struct SumsSolver {
    kernel: Kernel,
    /// In distinct mode, the solutions each class stands for; 1 otherwise.
    group_order: u64,
    automorphisms: usize,
}

/// The compiled search.
enum Kernel {
    Plan(Plan),
    Engine(Engine),
    /// Some distinct group has more cells than values: no solution.
    Unsatisfiable,
}

impl SumsSolver {
    /// Checks `model` and compiles it for `mode`.
    pub fn new(model: &Model, mode: Mode) -> Result<SumsSolver, ModelError> {
        model.check()?;
        let declared = model.symmetry.as_ref().filter(|_| mode == Mode::Distinct);
        let values = Values::new(&model.values);
        let mut prepared = Prepared::new(model, &values, &[]);
        if prepared.pigeonholed(model, &values) {
            return Ok(SumsSolver {
                kernel: Kernel::Unsatisfiable,
                group_order: declared.map_or(1, |s| s.group_order),
                automorphisms: 1,
            });
        }
        let order = match &model.order {
            Order::Smallest => None,
            Order::Static(order) => Some(order.clone()),
            Order::Planned => Some(planned_order(&model.domains, &prepared.equations)),
        };
        // A model whose solutions take distinct values is searched one solution per
        // class of its automorphisms G. All mode writes each class out; distinct mode
        // keeps the class (G is the group) or, when the file states a group by its
        // order constraints, the class's members that satisfy them, provided they
        // pick one per class of a group of the stated order. Otherwise distinct mode
        // searches with the file's constraints.
        let group = if injective(model.cells.len(), &prepared) {
            automorphisms(model, &prepared).filter(|g| g.order() > 1)
        } else {
            None
        };
        let (expand, group_order, classes) = match (mode, group, declared) {
            (Mode::All, Some(g), _) => (Expand::Images(g.clone()), 1, Some(g)),
            (Mode::Distinct, Some(g), None) => (Expand::Itself, g.order() as u64, Some(g)),
            (Mode::Distinct, Some(g), Some(stated)) => {
                match Selection::new(&g, &stated.less, stated.group_order) {
                    Some(selection) => (Expand::Selected(selection), stated.group_order, Some(g)),
                    None => {
                        prepared = Prepared::new(model, &values, &stated.less);
                        (Expand::Itself, stated.group_order, None)
                    }
                }
            }
            (Mode::Distinct, None, Some(stated)) => {
                prepared = Prepared::new(model, &values, &stated.less);
                (Expand::Itself, stated.group_order, None)
            }
            (_, None, _) => (Expand::Itself, 1, None),
        };
        if let Some(group) = &classes {
            let sequence: Vec<usize> = order
                .clone()
                .unwrap_or_else(|| (0..model.cells.len()).collect());
            let mut less = group.breaking_constraints(&sequence);
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
                let theirs = group.breaking_constraints(&along);
                let as_set = |v: &[(usize, usize)]| {
                    v.iter().copied().collect::<std::collections::BTreeSet<_>>()
                };
                if as_set(&theirs) == as_set(&stated.less) {
                    less = theirs;
                }
            }
            prepared.less.extend(less);
        }
        let automorphisms = classes.as_ref().map_or(1, Group::order);
        let kernel = match &order {
            None => Kernel::Engine(Engine::new(model, &prepared, expand)),
            Some(order) => Kernel::Plan(Plan::new(model, order, &prepared, expand)),
        };
        Ok(SumsSolver {
            kernel,
            group_order,
            automorphisms,
        })
    }

    /// The automorphisms of the model the search uses: it finds one solution per class
    /// (1 when it searches them all), and all mode writes out its images.
    pub fn automorphisms(&self) -> usize {
        self.automorphisms
    }

    /// The solutions each solution found stands for: in [`Mode::Distinct`], the order
    /// of the symmetry group the file states, or without one, of the automorphisms;
    /// 1 otherwise.
    pub fn symmetries(&self) -> u64 {
        self.group_order
    }

    /// Counts the solutions, without making them.
    pub fn count(&self, options: &Options) -> Summary {
        self.run(options, false, |_| ControlFlow::Continue(()), &mut |_| {})
    }

    /// [`SumsSolver::count`], telling `observe` where the run stands after each task,
    /// on the calling thread (for progress displays and checkpoints).
    pub fn count_observed(&self, options: &Options, observe: &mut dyn FnMut(&Progress)) -> Summary {
        self.run(options, false, |_| ControlFlow::Continue(()), observe)
    }

    /// [`SumsSolver::for_each`], telling `observe` where the run stands after each
    /// task, once the task's solutions are handed over.
    pub fn for_each_observed(
        &self,
        options: &Options,
        each: impl FnMut(Vec<i64>) -> ControlFlow<()>,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        self.run(options, true, each, observe)
    }

    /// Hands each solution (the value of each cell, in the model's cell order) to
    /// `each`, in search order, on the calling thread, as the search's tasks finish;
    /// `Break` from `each` stops the search. With automorphisms, each class found is
    /// followed by its images.
    pub fn for_each(
        &self,
        options: &Options,
        each: impl FnMut(Vec<i64>) -> ControlFlow<()>,
    ) -> Summary {
        self.run(options, true, each, &mut |_| {})
    }

    /// Knuth's estimate of the search [`SumsSolver::count`] runs: its nodes and
    /// solutions, with their spread, and the node rate (see [`crate::estimate`]).
    pub fn estimate(&self, options: &EstimateOptions) -> Estimate {
        let estimate = match &self.kernel {
            Kernel::Plan(plan) => estimate::estimate(plan, options),
            Kernel::Engine(engine) => estimate::estimate(engine, options),
            Kernel::Unsatisfiable => estimate::estimate(&Unsatisfiable, options),
        };
        estimate.scale_total(self.group_order)
    }

    /// [`crate::estimate::exhaust`] of the search [`SumsSolver::count`] runs (the
    /// total as a run reports it).
    #[cfg(test)]
    pub(crate) fn exhaust(&self) -> (u64, u64, u64) {
        let (nodes, solutions, _) = match &self.kernel {
            Kernel::Plan(plan) => estimate::exhaust(plan),
            Kernel::Engine(engine) => estimate::exhaust(engine),
            Kernel::Unsatisfiable => estimate::exhaust(&Unsatisfiable),
        };
        (nodes, solutions, solutions * self.group_order)
    }

    fn run(
        &self,
        options: &Options,
        keep: bool,
        each: impl FnMut(Vec<i64>) -> ControlFlow<()>,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        // Each solution found stands for `group_order` (in distinct mode).
        let order = self.group_order;
        let observe = &mut |p: &Progress| {
            observe(&Progress {
                total: p.solutions * order,
                ..*p
            })
        };
        let mut summary = match &self.kernel {
            Kernel::Plan(plan) => driver::run_observed(plan, options, keep, each, observe),
            Kernel::Engine(engine) => driver::run_observed(engine, options, keep, each, observe),
            Kernel::Unsatisfiable => {
                driver::run_observed(&Unsatisfiable, options, keep, each, observe)
            }
        };
        summary.total = summary.solutions * self.group_order;
        summary
    }
}

/// The search of a model with no solution: the root, found dead.
struct Unsatisfiable;

impl Search for Unsatisfiable {
    type Task = ();
    type Worker = ();
    type Item = Vec<i64>;

    fn split_for(&self, threads: usize) -> Split {
        split_for(threads)
    }

    fn split(&self, _split: Split) -> (Vec<()>, u64) {
        (Vec::new(), 1)
    }

    fn worker(&self) {}

    fn children(&self, _: &mut (), _: &(), _: &mut Vec<()>) -> u64 {
        0
    }

    fn run(&self, _: &mut (), _: &(), _: &mut Sink<'_, Vec<i64>>) {}
}

#[cfg(test)]
mod tests {
    use super::{automorphisms, Selection, SumsSolver};
    use crate::sums::builtin::magic_square;
    use crate::sums::prepare::{Prepared, Values};
    use crate::tests::counted;
    use crate::Mode;

    #[test]
    fn stated_constraints_are_used_only_when_they_pick_one_per_class() {
        let model = magic_square(3).unwrap();
        let prepared = Prepared::new(&model, &Values::new(&model.values), &[]);
        let group = automorphisms(&model, &prepared).unwrap();
        assert_eq!(group.order(), 8);
        let stated = model.symmetry.as_ref().unwrap();
        assert!(Selection::new(&group, &stated.less, 8).is_some());
        // One constraint between two corners a reflection exchanges: one of each
        // pair of images, a class of 2, not of 8.
        let one = &stated.less[..1];
        assert!(Selection::new(&group, one, 2).is_some());
        assert!(Selection::new(&group, one, 8).is_none());
        assert!(Selection::new(&group, &stated.less, 3).is_none());
    }

    #[test]
    fn distinct_mode_searches_the_tree_of_all_mode() {
        for n in [3, 4] {
            let model = magic_square(n).unwrap();
            let all = SumsSolver::new(&model, Mode::All)
                .unwrap()
                .count(&counted());
            let distinct = SumsSolver::new(&model, Mode::Distinct).unwrap();
            let found = distinct.count(&counted());
            assert_eq!(found.nodes, all.nodes, "order {n}");
            assert_eq!(found.total, all.total);
            assert_eq!(found.solutions * 8, all.total);
            assert_eq!(distinct.symmetries(), 8);
        }
    }

    #[test]
    fn distinct_without_a_stated_group_uses_the_automorphisms() {
        let mut model = magic_square(3).unwrap();
        model.symmetry = None;
        let solver = SumsSolver::new(&model, Mode::Distinct).unwrap();
        let found = solver.count(&counted());
        assert_eq!((found.solutions, found.total), (1, 8));
        assert_eq!((solver.symmetries(), solver.automorphisms()), (8, 8));
    }
}

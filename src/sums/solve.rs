//! Solving a number puzzle: the model checked and made ready ([`super::prepare`]), the
//! search the model's order asks for (static: [`super::plan`]; smallest domain:
//! [`super::propagate`]), run by the [driver](crate::driver).
//!
//! In [`Mode::All`], a model whose solutions use distinct values is searched one
//! solution per class of its automorphisms ([`super::automorphisms`]), each class
//! written out whole. In [`Mode::Distinct`], the file's `symmetry` constraints keep one
//! solution per class, each standing for the group order the file states.
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

/// Reports one solution to `sink`, whose values `values` gives if they are kept; with
/// `images`, the solution stands for its class, written out whole.
#[inline]
pub(super) fn report(
    sink: &mut Sink<'_, Vec<i64>>,
    images: Option<&Group>,
    values: impl FnOnce() -> Vec<i64>,
) -> ControlFlow<()> {
    match images {
        None => sink.found(1, |out| out.push(values())),
        Some(group) => sink.found(group.order() as u64, |out| {
            let values = values();
            out.extend((0..group.order()).map(|g| group.move_labels(g, &values, 0)));
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
        let symmetry = model.symmetry.as_ref().filter(|_| mode == Mode::Distinct);
        let group_order = symmetry.map_or(1, |s| s.group_order);
        let extra_less = symmetry.map_or(&[][..], |s| &s.less[..]);
        let values = Values::new(&model.values);
        let mut prepared = Prepared::new(model, &values, extra_less);
        if prepared.pigeonholed(model, &values) {
            return Ok(SumsSolver {
                kernel: Kernel::Unsatisfiable,
                group_order,
                automorphisms: 1,
            });
        }
        let order = match &model.order {
            Order::Smallest => None,
            Order::Static(order) => Some(order.clone()),
            Order::Planned => Some(planned_order(&model.domains, &prepared.equations)),
        };
        // All solutions of a model whose solutions take distinct values: one per class
        // of its automorphisms, then each class's images.
        let images = if mode == Mode::Distinct || !injective(model.cells.len(), &prepared) {
            None
        } else {
            automorphisms(model, &prepared).filter(|g| g.order() > 1)
        };
        if let Some(group) = &images {
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
        let automorphisms = images.as_ref().map_or(1, Group::order);
        let kernel = match &order {
            None => Kernel::Engine(Engine::new(model, &prepared, images)),
            Some(order) => Kernel::Plan(Plan::new(model, order, &prepared, images)),
        };
        Ok(SumsSolver {
            kernel,
            group_order,
            automorphisms,
        })
    }

    /// In [`Mode::All`], the automorphisms of the model the search uses: it finds one
    /// solution per class and writes out its images (1 when it searches them all).
    pub fn automorphisms(&self) -> usize {
        self.automorphisms
    }

    /// The solutions each solution found stands for: in [`Mode::Distinct`], the order
    /// of the symmetry group the file states; 1 otherwise.
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

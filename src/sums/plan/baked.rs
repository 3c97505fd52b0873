//! Shipped magic figures baked into the binary: the steps their models compile to
//! ([`Indexed`]) as static tables, and a search specialised to them, one function per
//! step, so that the compiler folds every read of a step (its domain, which
//! equations it checks and how, which remainders it changes) into the code. The
//! interpreter that [`Indexed`] runs reads the same tables at run time, in loops
//! whose lengths change from step to step.
//!
//! The tables are generated from the data files by a test
//! (`the_baked_models_are_the_plans_of_their_files`, which rewrites `models.rs` when
//! `POLYTILE_BLESS=1` is set and otherwise checks it), and a model is searched by
//! them only when its own compiled steps are exactly the baked ones
//! ([`Baked::find`]): a file that differs from the shipped one, in its order,
//! equations or symmetries, runs on [`Indexed`], slower but the same.
//!
//! Each baked search starts at any of its first [`Model::entries`] steps; a task
//! rooted deeper (a tree cut into very many shards) runs on [`Indexed`]. The
//! steps from there on, where nearly all the nodes are, are compiled as one function.

use std::ops::ControlFlow;

use super::indexed::{self, Free, IndexCheck, IndexState, IndexStep, Indexed};
use super::Bound;

/// A baked model's tables, as [`Indexed`] holds them.
pub(in crate::sums) struct Model {
    /// The data file it was generated from, relative to the crate root.
    pub(in crate::sums) file: &'static str,
    pub(in crate::sums) steps: &'static [IndexStep],
    pub(in crate::sums) targets: &'static [i64],
    pub(in crate::sums) all: u64,
    /// Tasks rooted at these first steps start the baked search.
    pub(in crate::sums) entries: usize,
}

/// The steps baked as separate functions (tasks may start at each); the others are
/// compiled into the last of them.
#[cfg(test)]
fn entries(cells: usize) -> usize {
    // The tree's first levels hold a small share of the nodes, and tasks are cut
    // there: whole levels until there are enough of them.
    (cells * 2).div_ceil(5)
}

/// One step of a baked search: the candidates of `step` (the step at `depth`), each
/// set in turn with the search below it run by `next`. The same nodes, in the same
/// order, as [`super::dfs`] over [`Indexed`]. The free values (`free`) go down as
/// an argument, in registers, rather than set and restored in `st` at every
/// node as the interpreter does.
#[inline(always)]
fn level<F, N>(
    step: &IndexStep,
    depth: usize,
    st: &mut IndexState,
    free: Free,
    nodes: &mut u64,
    leaf: &mut F,
    next: N,
) -> ControlFlow<()>
where
    F: FnMut(&IndexState) -> ControlFlow<()>,
    N: Fn(&mut IndexState, Free, &mut u64, &mut F) -> ControlFlow<()>,
{
    let mut cand = indexed::candidates_in(step, free, st);
    if step.ends[0] > 0 {
        // A forced cell has one candidate at most. Its value is read from the
        // remainder that forces it (`indexed::forced_bit`), so that the steps below
        // start on it while the checks of this one are still being worked out
        // (the branch on them is predicted): in this search a node waits on its
        // parent's value far more than on its own instructions.
        if cand == 0 {
            return ControlFlow::Continue(());
        }
        let bit = indexed::forced_bit(step, st);
        return child(step, depth, bit, st, free, nodes, leaf, &next);
    }
    while cand != 0 {
        let bit = cand.trailing_zeros();
        cand &= cand - 1;
        child(step, depth, bit, st, free, nodes, leaf, &next)?;
    }
    ControlFlow::Continue(())
}

/// `step` (the step at `depth`) set to bit `bit`, and the search below it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn child<F, N>(
    step: &IndexStep,
    depth: usize,
    bit: u32,
    st: &mut IndexState,
    free: Free,
    nodes: &mut u64,
    leaf: &mut F,
    next: &N,
) -> ControlFlow<()>
where
    F: FnMut(&IndexState) -> ControlFlow<()>,
    N: Fn(&mut IndexState, Free, &mut u64, &mut F) -> ControlFlow<()>,
{
    *nodes += 1;
    indexed::set(step, depth, bit, st);
    let flow = next(st, free.without(bit), nodes, leaf);
    indexed::unset(step, bit, st);
    flow
}

/// Below the last step: a solution.
#[inline(always)]
fn last<F>(st: &mut IndexState, _free: Free, _nodes: &mut u64, leaf: &mut F) -> ControlFlow<()>
where
    F: FnMut(&IndexState) -> ControlFlow<()>,
{
    leaf(st)
}

/// The functions of a baked search, one per step: `depth => name, next;` with the
/// step's inlining attribute.
macro_rules! levels {
    ($steps:ident; $($(#[$attr:meta])* $depth:literal => $name:ident, $next:ident;)*) => {$(
        $(#[$attr])*
        fn $name<F>(st: &mut IndexState, free: Free, nodes: &mut u64, leaf: &mut F) -> ControlFlow<()>
        where
            F: FnMut(&IndexState) -> ControlFlow<()>,
        {
            level(&$steps[$depth], $depth, st, free, nodes, leaf, $next::<F>)
        }
    )*};
}

/// The entry of a baked search: the function of the step a task starts at, for
/// `start` below [`Model::entries`].
macro_rules! entries {
    ($($depth:literal => $name:ident),*) => {
        #[inline]
        pub(super) fn search<F>(
            start: usize,
            st: &mut IndexState,
            nodes: &mut u64,
            leaf: &mut F,
        ) -> ControlFlow<()>
        where
            F: FnMut(&IndexState) -> ControlFlow<()>,
        {
            let free = st.free();
            match start {
                $($depth => $name(st, free, nodes, leaf),)*
                _ => unreachable!("tasks rooted below the entries run on the interpreter"),
            }
        }
    };
}

include!("models.rs");

impl Baked {
    /// The baked model whose tables are exactly `indexed`'s for a model of `cells`
    /// cells and `equations` equations, if any.
    pub(in crate::sums) fn find(
        indexed: &Indexed,
        cells: usize,
        equations: usize,
    ) -> Option<Baked> {
        Baked::EVERY.into_iter().find(|b| {
            let m = b.model();
            m.steps.len() == cells
                && m.targets.len() == equations
                && m.all == indexed.all
                && indexed.steps[..cells] == *m.steps
                && indexed.targets[..equations] == *m.targets
        })
    }

    /// Whether a task rooted at step `start` starts the baked search.
    pub(in crate::sums) fn enters_at(self, start: usize) -> bool {
        start < self.model().entries
    }
}

/// `models.rs` for the models of `plans` (variant name, module name, data file, its
/// compiled steps, cells and equations).
#[cfg(test)]
fn emit(plans: &[(&str, &str, &str, &Indexed, usize, usize)]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// @generated by `POLYTILE_BLESS=1 cargo test --release --lib baked` from the data\n\
         // files named below (`src/sums/plan/baked.rs`); the test checks it. Do not edit."
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "/// The baked models.");
    let _ = writeln!(s, "#[derive(Clone, Copy, Debug, PartialEq, Eq)]");
    let _ = writeln!(s, "pub(in crate::sums) enum Baked {{");
    for (variant, _, file, ..) in plans {
        let _ = writeln!(s, "    /// `{file}`.");
        let _ = writeln!(s, "    {variant},");
    }
    let _ = writeln!(s, "}}\n");
    let _ = writeln!(s, "impl Baked {{");
    let _ = writeln!(s, "    /// Every baked model.");
    let _ = write!(
        s,
        "    pub(in crate::sums) const EVERY: [Baked; {}] = [",
        plans.len()
    );
    for (variant, ..) in plans {
        let _ = write!(s, "Baked::{variant}, ");
    }
    let _ = writeln!(s, "];\n");
    let _ = writeln!(s, "    /// Its tables.");
    let _ = writeln!(
        s,
        "    pub(in crate::sums) fn model(self) -> &'static Model {{"
    );
    let _ = writeln!(s, "        match self {{");
    for (variant, module, ..) in plans {
        let _ = writeln!(s, "            Baked::{variant} => &{module}::MODEL,");
    }
    let _ = writeln!(s, "        }}\n    }}\n");
    let _ = writeln!(
        s,
        "    /// The search below a task rooted at step `start` ([`Baked::enters_at`])."
    );
    let _ = writeln!(s, "    #[inline]");
    let _ = writeln!(
        s,
        "    pub(in crate::sums) fn search<F: FnMut(&IndexState) -> ControlFlow<()>>(\n\
         \x20       self,\n        start: usize,\n        st: &mut IndexState,\n\
         \x20       nodes: &mut u64,\n        leaf: &mut F,\n    ) -> ControlFlow<()> {{"
    );
    let _ = writeln!(s, "        match self {{");
    for (variant, module, ..) in plans {
        let _ = writeln!(
            s,
            "            Baked::{variant} => {module}::search(start, st, nodes, leaf),"
        );
    }
    let _ = writeln!(s, "        }}\n    }}\n}}");
    for (_, module, file, ix, cells, equations) in plans {
        let entries = entries(*cells);
        let _ = writeln!(s);
        let _ = writeln!(s, "/// `{file}`, baked.");
        let _ = writeln!(s, "mod {module} {{");
        let _ = writeln!(s, "    use super::*;\n");
        let _ = writeln!(s, "    pub(super) static MODEL: Model = Model {{");
        let _ = writeln!(s, "        file: {file:?},");
        let _ = writeln!(s, "        steps: &STEPS,");
        let _ = writeln!(s, "        targets: &{:?},", &ix.targets[..*equations]);
        let _ = writeln!(s, "        all: {:#x},", ix.all);
        let _ = writeln!(s, "        entries: {entries},");
        let _ = writeln!(s, "    }};\n");
        let _ = writeln!(s, "    static STEPS: [IndexStep; {cells}] = [");
        for step in &ix.steps[..*cells] {
            let _ = writeln!(s, "        {},", step_literal(step));
        }
        let _ = writeln!(s, "    ];\n");
        let _ = writeln!(s, "    levels! {{");
        let _ = writeln!(s, "        STEPS;");
        for depth in 0..*cells {
            // The entries and the step below them stay functions of their own; the
            // rest are compiled into that one.
            let inline = if depth <= entries { "never" } else { "always" };
            let next = if depth + 1 == *cells {
                "last".to_string()
            } else {
                format!("n{}", depth + 1)
            };
            let _ = writeln!(
                s,
                "        #[inline({inline})] {depth} => n{depth}, {next};"
            );
        }
        let _ = writeln!(s, "    }}\n");
        let list: Vec<String> = (0..entries).map(|d| format!("{d} => n{d}")).collect();
        let _ = writeln!(s, "    entries!({});", list.join(", "));
        let _ = writeln!(s, "}}");
    }
    s
}

/// `step` as a Rust expression.
#[cfg(test)]
fn step_literal(step: &IndexStep) -> String {
    let checks: Vec<String> = step
        .checks
        .iter()
        .map(|c: &IndexCheck| {
            format!(
                "IndexCheck {{ equation: {}, later: {}, domains: {:#x}, reversed: {:#x} }}",
                c.equation, c.later, c.domains, c.reversed
            )
        })
        .collect();
    let bounds: Vec<String> = step
        .bounds
        .iter()
        .map(|(earlier, bound)| {
            let bound = match bound {
                Bound::Below => "Bound::Below".to_string(),
                Bound::Above => "Bound::Above".to_string(),
                Bound::SumAtMost(most) => format!("Bound::SumAtMost({most})"),
                Bound::SumAtMostWhen { most, step, index } => {
                    format!("Bound::SumAtMostWhen {{ most: {most}, step: {step}, index: {index} }}")
                }
            };
            format!("({earlier}, {bound})")
        })
        .collect();
    format!(
        "IndexStep {{ domain: {:#x}, checks: [{}], ends: {:?}, terms: {:?}, n_terms: {}, \
         bounds: [{}], n_bounds: {} }}",
        step.domain,
        checks.join(", "),
        step.ends,
        step.terms,
        step.n_terms,
        bounds.join(", "),
        step.n_bounds
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sums::parse::parse;
    use crate::sums::SumsSolver;
    use crate::Mode;

    /// The models baked: variant, module, data file.
    const BAKED: [(&str, &str, &str); 3] = [
        ("MagicHexagon", "magic_hexagon", "data/magic-hexagon.sum"),
        ("MagicSquare4", "magic_square_4", "data/magic-square-4.sum"),
        ("MagicSquare5", "magic_square_5", "data/magic-square-5.sum"),
    ];

    /// `models.rs` is what its files compile to today (with `POLYTILE_BLESS=1`, it
    /// is written so), and each file's solver, in both modes, searches by its tables.
    #[test]
    fn the_baked_models_are_the_plans_of_their_files() {
        let mut solvers = Vec::new();
        for (_, _, file) in BAKED {
            let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a shipped file");
            let model = parse(&text, file).expect("a valid model");
            solvers.push(SumsSolver::new(&model, Mode::All).expect("a solvable model"));
        }
        let plans: Vec<_> = BAKED
            .iter()
            .zip(&solvers)
            .map(|(&(variant, module, file), solver)| {
                let plan = solver.plan().expect("a static order");
                let indexed = plan.indexed.as_ref().expect("a magic figure");
                (
                    variant,
                    module,
                    file,
                    indexed,
                    plan.cells,
                    plan.targets.len(),
                )
            })
            .collect();
        let text = emit(&plans);
        let path = format!("{}/src/sums/plan/models.rs", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("POLYTILE_BLESS").is_some() {
            // The binary under test has the tables before: the next run checks these.
            std::fs::write(&path, &text).expect("models.rs written");
            return;
        }
        assert!(
            text == include_str!("models.rs"),
            "src/sums/plan/models.rs is stale: run `POLYTILE_BLESS=1 cargo test --release \
             --lib baked` and commit it"
        );
        for (k, (_, _, file)) in BAKED.iter().enumerate() {
            let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a shipped file");
            let model = parse(&text, file).expect("a valid model");
            for mode in [Mode::All, Mode::Distinct] {
                let solver = SumsSolver::new(&model, mode).expect("a solvable model");
                let plan = solver.plan().expect("a static order");
                assert_eq!(plan.baked, Some(Baked::EVERY[k]), "{file} {mode:?}");
                assert_eq!(Baked::EVERY[k].model().file, *file);
            }
        }
    }

    /// Every solution, in order, and the nodes of the search below the node `prefix`
    /// leads to, by the interpreter over `indexed` or by `baked`.
    fn below(
        plan: &super::super::Plan,
        indexed: &Indexed,
        baked: Option<Baked>,
        prefix: &[u8],
    ) -> (Vec<Vec<i64>>, u64) {
        let mut st = super::super::Kernel::state(indexed);
        super::super::replay(indexed, prefix, &mut st);
        let (mut found, mut nodes) = (Vec::new(), 0);
        let mut leaf = |st: &IndexState| {
            found.push(plan.solution::<Indexed>(st));
            ControlFlow::Continue(())
        };
        let _ = match baked {
            Some(baked) => baked.search(prefix.len(), &mut st, &mut nodes, &mut leaf),
            None => super::super::dfs(
                indexed,
                plan.cells,
                prefix.len(),
                &mut st,
                &mut nodes,
                &mut leaf,
            ),
        };
        (found, nodes)
    }

    /// The baked searches find what the interpreter finds below the same nodes, in the
    /// same order, with the same node counts: below the node at every entry step on
    /// the path to the first solution, so the whole trees of the hexagon and the 4 x 4
    /// square (the 5 x 5's from its eighth step down). A task rooted below the entries
    /// is not theirs.
    #[test]
    fn the_baked_searches_agree_with_the_interpreter() {
        for (k, (_, _, file)) in BAKED.iter().enumerate() {
            let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a shipped file");
            let model = parse(&text, file).expect("a valid model");
            let solver = SumsSolver::new(&model, Mode::All).expect("a solvable model");
            let plan = solver.plan().expect("a static order");
            let indexed = plan.indexed.as_ref().expect("a magic figure");
            let baked = plan.baked.expect("baked");
            assert_eq!(baked, Baked::EVERY[k]);
            let entries = baked.model().entries;
            assert!(baked.enters_at(entries - 1) && !baked.enters_at(entries));
            // The first solution's path: every node on it has a solution below.
            let mut path = Vec::new();
            let mut st = super::super::Kernel::state(indexed);
            let _ = super::super::dfs(indexed, plan.cells, 0, &mut st, &mut 0, &mut |st| {
                path = (0..plan.cells)
                    .map(|d| <Indexed as super::super::Kernel>::chosen(st, d) as u8)
                    .collect();
                ControlFlow::Break(())
            });
            let mut compared = 0;
            for depth in 0..entries {
                // The 5 x 5's tree from its eighth step down: about a million nodes.
                if plan.cells == 25 && depth < 7 {
                    continue;
                }
                let prefix = &path[..depth];
                let want = below(plan, indexed, None, prefix);
                assert!(!want.0.is_empty(), "{file} {prefix:?}");
                assert_eq!(
                    below(plan, indexed, Some(baked), prefix),
                    want,
                    "{file} {prefix:?}"
                );
                compared += 1;
            }
            assert!(compared >= 3, "{file}: {compared}");
        }
    }
}

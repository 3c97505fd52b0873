//! The static-order search compiled for magic figures: one `distinct` group holding
//! every cell, the values `v0, v0 + 1, ...` (at most 64 of them), and every equation a
//! plain sum of its cells. There each equation's remainder is kept as the sum of the
//! value *indices* its free cells must take, so that setting a cell to bit `i`
//! subtracts `i` and every check reads its remainder as is (a forced cell is bit
//! `rest`, two cells' partners are one shift), and a step's checks are stored by kind
//! within the step. Against [`Plan`]'s general tables this takes no multiplication, no
//! value lookup, no bounds check on the state (fixed arrays indexed by `u8` and by
//! depth modulo 64) and no jump on a check's kind.

use super::{bit_at, distinct_allowed_from, pair_check, partners, Bound, CheckKind, Kernel, Plan};

/// Most equations through one cell the compiled steps hold; a model with more is
/// searched by [`Plan`] itself.
const MOST_CHECKS: usize = 8;
/// Most order constraints with earlier cells one step holds.
const MOST_BOUNDS: usize = 8;
/// The equations are numbered by one byte.
const MOST_EQUATIONS: usize = 256;
/// Steps: one per cell, as many as the values at most.
const STEPS: usize = 64;

/// An equation's check at a step, read by its kind's code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct IndexCheck {
    pub(super) equation: u8,
    /// Cells of the equation set after this step (spreads).
    pub(super) later: u8,
    /// Partners: the later cell's domain, reversed. Pairs and spreads: the union of
    /// the later cells' domains.
    pub(super) domains: u64,
    /// Pairs: `domains` reversed.
    pub(super) reversed: u64,
}

/// One step: its domain, its checks by kind, the equations its cell is in, and the
/// order constraints with earlier steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IndexStep {
    pub(super) domain: u64,
    /// Forced values (the cell is the equation's last), then partners (one later
    /// cell), pairs (two), spreads (more): `ends[k]` is where kind `k`'s run ends.
    pub(super) checks: [IndexCheck; MOST_CHECKS],
    pub(super) ends: [u8; 4],
    /// The equations through the cell: `terms[..n_terms]`.
    pub(super) terms: [u8; MOST_CHECKS],
    pub(super) n_terms: u8,
    pub(super) bounds: [(u8, Bound); MOST_BOUNDS],
    pub(super) n_bounds: u8,
}

impl Default for IndexStep {
    fn default() -> IndexStep {
        IndexStep {
            domain: 0,
            checks: [IndexCheck::default(); MOST_CHECKS],
            ends: [0; 4],
            terms: [0; MOST_CHECKS],
            n_terms: 0,
            bounds: [(0, Bound::Above); MOST_BOUNDS],
            n_bounds: 0,
        }
    }
}

/// [`Plan`] compiled for magic figures (see the module docs).
pub(in crate::sums) struct Indexed {
    pub(super) steps: Box<[IndexStep; STEPS]>,
    /// Per equation, the sum of the indices of its cells' values.
    pub(super) targets: Box<[i64; MOST_EQUATIONS]>,
    pub(super) all: u64,
}

/// The state of a branch: free values (and reversed, as [`Plan`] keeps them), the
/// index sums left per equation, and per step the bit chosen and those not tried.
pub(in crate::sums) struct IndexState {
    free: Free,
    rest: [i64; MOST_EQUATIONS],
    chosen: [u8; STEPS],
    untried: [u64; STEPS],
}

/// The free values of a branch, and the same bits reversed: kept in [`IndexState`],
/// and carried down from step to step by the baked searches.
#[derive(Clone, Copy)]
pub(super) struct Free {
    values: u64,
    reversed: u64,
}

impl Free {
    /// Every value of `all` free.
    fn all(all: u64) -> Free {
        Free {
            values: all,
            reversed: all.reverse_bits(),
        }
    }

    /// Without the value of bit `bit`.
    #[inline(always)]
    pub(super) fn without(self, bit: u32) -> Free {
        Free {
            values: self.values & !(1u64 << bit),
            reversed: self.reversed & !((1u64 << 63) >> bit),
        }
    }

    /// With the value of bit `bit` (undoes [`Free::without`]).
    #[inline(always)]
    fn with(self, bit: u32) -> Free {
        Free {
            values: self.values | 1u64 << bit,
            reversed: self.reversed | (1u64 << 63) >> bit,
        }
    }
}

impl IndexState {
    /// The free values.
    pub(super) fn free(&self) -> Free {
        self.free
    }
}

impl Indexed {
    /// `plan` compiled for magic figures, if its model is one (see the module docs)
    /// and its steps fit the fixed tables.
    pub(in crate::sums) fn new(plan: &Plan) -> Option<Indexed> {
        let v0 = plan.values.base()?;
        if !plan.one_group || plan.cells > STEPS || plan.targets.len() > MOST_EQUATIONS {
            return None;
        }
        let mut steps = Box::new([IndexStep::default(); STEPS]);
        let mut cells_of = vec![0i64; plan.targets.len()];
        let terms_of =
            |step: &super::PlanStep| &plan.step_terms[step.terms.0 as usize..step.terms.1 as usize];
        // The step that sets each equation's last cell: no check reads the
        // equation's remainder from there on, so that step need not take its value
        // from it (nor give it back).
        let mut last = vec![0usize; plan.targets.len()];
        for (at, step) in plan.steps.iter().enumerate() {
            for &(e, _) in terms_of(step) {
                last[e as usize] = at;
            }
        }
        for (at, (step, out)) in plan.steps.iter().zip(steps.iter_mut()).enumerate() {
            out.domain = step.domain;
            let terms = terms_of(step);
            if terms.len() > MOST_CHECKS || terms.iter().any(|&(_, a)| a != 1) {
                return None;
            }
            let mut n_terms = 0;
            for &(e, _) in terms {
                cells_of[e as usize] += 1;
                if last[e as usize] != at {
                    out.terms[n_terms] = e as u8;
                    n_terms += 1;
                }
            }
            out.n_terms = n_terms as u8;
            let order = &plan.step_order[step.order.0 as usize..step.order.1 as usize];
            if order.len() > MOST_BOUNDS {
                return None;
            }
            for (slot, &(earlier, bound)) in out.bounds.iter_mut().zip(order) {
                *slot = (earlier as u8, bound);
            }
            out.n_bounds = order.len() as u8;
            let mut by_kind: [Vec<IndexCheck>; 4] = Default::default();
            for check in &plan.checks[step.checks.0 as usize..step.checks.1 as usize] {
                let equation = check.equation as u8;
                let (kind, domains, reversed) = match check.kind {
                    CheckKind::LastIndex { .. } => (0, 0, 0),
                    CheckKind::Partner { reversed, .. } => (1, reversed, 0),
                    CheckKind::Pair {
                        union, reversed, ..
                    } => (2, union, reversed),
                    CheckKind::Spread { union, .. } => (3, union, 0),
                    _ => return None,
                };
                by_kind[kind].push(IndexCheck {
                    equation,
                    later: check.later as u8,
                    domains,
                    reversed,
                });
            }
            let mut at = 0;
            for (kind, checks) in by_kind.iter().enumerate() {
                if at + checks.len() > MOST_CHECKS {
                    return None;
                }
                out.checks[at..at + checks.len()].copy_from_slice(checks);
                at += checks.len();
                out.ends[kind] = at as u8;
            }
        }
        let mut targets = Box::new([0i64; MOST_EQUATIONS]);
        for (e, (&target, &cells)) in plan.targets.iter().zip(&cells_of).enumerate() {
            targets[e] = target - cells * v0;
        }
        Some(Indexed {
            steps,
            targets,
            all: plan.values.all,
        })
    }
}

impl Kernel for Indexed {
    type State = IndexState;

    fn state(&self) -> IndexState {
        IndexState {
            free: Free::all(self.all),
            rest: *self.targets,
            chosen: [0; STEPS],
            untried: [0; STEPS],
        }
    }

    #[inline(always)]
    fn candidates(&self, depth: usize, st: &IndexState) -> u64 {
        candidates(&self.steps[depth % STEPS], st)
    }

    #[inline(always)]
    fn apply(&self, depth: usize, bit: u32, st: &mut IndexState) {
        apply(&self.steps[depth % STEPS], depth, bit, st);
    }

    #[inline(always)]
    fn undo(&self, depth: usize, bit: u32, st: &mut IndexState) {
        undo(&self.steps[depth % STEPS], bit, st);
    }

    fn chosen(st: &IndexState, depth: usize) -> u32 {
        st.chosen[depth % STEPS].into()
    }

    fn untried(st: &mut IndexState, depth: usize) -> &mut u64 {
        &mut st.untried[depth % STEPS]
    }
}

/// The values (bits) `step` may take in `st`: [`Kernel::candidates`] of both
/// [`Indexed`] and the baked searches ([`super::baked`]), where `step` is a constant
/// and the compiler folds every read of it.
#[inline(always)]
pub(super) fn candidates(step: &IndexStep, st: &IndexState) -> u64 {
    candidates_in(step, st.free(), st)
}

/// [`candidates`] with the free values `free` rather than `st`'s: the baked searches
/// carry them from step to step in registers.
#[inline(always)]
pub(super) fn candidates_in(step: &IndexStep, free: Free, st: &IndexState) -> u64 {
    let Free {
        values: free,
        reversed,
    } = free;
    let mut cand = step.domain & free;
    for &(earlier, bound) in &step.bounds[..step.n_bounds.into()] {
        let chosen = |s: usize| u32::from(st.chosen[s % STEPS]);
        cand &= bound.allowed(chosen(earlier.into()) as usize, chosen);
    }
    let [forced, partnered, paired, spread] = step.ends.map(usize::from);
    let rest = |c: &IndexCheck| st.rest[usize::from(c.equation)];
    for c in &step.checks[..forced] {
        cand &= bit_at(rest(c));
    }
    for c in &step.checks[forced..partnered] {
        cand &= partners(reversed & c.domains, rest(c));
    }
    for c in &step.checks[partnered..paired] {
        if forced > 0 {
            // One candidate at most, the forced value: one partner test, no loop
            // and no branch, on the value [`forced_bit`] reads (when that is out of
            // range, `cand` is empty already).
            let i = forced_bit(step, st);
            let others = free & c.domains & !(1u64 << i);
            let others_reversed = reversed & c.reversed & !((1u64 << 63) >> i);
            let paired = partners(others_reversed, rest(c) - i64::from(i)) & others != 0;
            cand &= u64::from(paired).wrapping_neg();
        } else {
            if cand == 0 {
                return 0;
            }
            cand &= pair_check(cand, free & c.domains, reversed & c.reversed, rest(c));
        }
    }
    for c in &step.checks[paired..spread] {
        if cand == 0 {
            return 0;
        }
        cand &= distinct_allowed_from(free & c.domains, c.later.into(), rest(c));
    }
    cand
}

/// The bit of a forced step's value, read from the remainder of the equation that
/// forces it (its first check's): the one candidate, when [`candidates`] has one.
/// Read this way rather than from the candidates, the work that follows need not
/// wait for the step's checks.
#[inline(always)]
pub(super) fn forced_bit(step: &IndexStep, st: &IndexState) -> u32 {
    (st.rest[usize::from(step.checks[0].equation)] as u32) & 63
}

/// Sets `step`, the step at `depth`, to `bit` ([`Kernel::apply`]).
#[inline(always)]
pub(super) fn apply(step: &IndexStep, depth: usize, bit: u32, st: &mut IndexState) {
    st.free = st.free.without(bit);
    set(step, depth, bit, st);
}

/// [`apply`] but for the free values, which the baked searches carry themselves.
#[inline(always)]
pub(super) fn set(step: &IndexStep, depth: usize, bit: u32, st: &mut IndexState) {
    for &e in &step.terms[..step.n_terms.into()] {
        st.rest[usize::from(e)] -= i64::from(bit);
    }
    st.chosen[depth % STEPS] = bit as u8;
}

/// Undoes [`apply`].
#[inline(always)]
pub(super) fn undo(step: &IndexStep, bit: u32, st: &mut IndexState) {
    st.free = st.free.with(bit);
    unset(step, bit, st);
}

/// Undoes [`set`].
#[inline(always)]
pub(super) fn unset(step: &IndexStep, bit: u32, st: &mut IndexState) {
    for &e in &step.terms[..step.n_terms.into()] {
        st.rest[usize::from(e)] += i64::from(bit);
    }
}

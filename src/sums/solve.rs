//! Solving a number puzzle: the model checked and made ready ([`super::prepare`], with
//! the equations it implies, [`super::implied`]), the
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

use super::automorphisms::{automorphisms, injective, maps_onto_itself, MAX_GROUP};
use super::implied::implied;
use super::model::{Model, ModelError, Order, SymmetryBreak};
use super::plan::{planned_order, Plan};
use super::prepare::{IndexSum, Prepared, Values};
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
    /// Itself alone (all mode).
    Itself,
    /// A class of this many solutions, itself its representative (distinct mode with
    /// the file's constraints added to the search).
    Class(u64),
    /// Its class under the automorphisms, written out whole (all mode).
    Images(Classes),
    /// Its class under the automorphisms (distinct mode without a stated group).
    Classes(Classes),
    /// The images under the automorphisms that satisfy the file's symmetry
    /// constraints: one per class of the file's group (distinct mode).
    Selected(Selection),
    /// The classes of the group the file declares by generators (distinct mode).
    Declared(Declared),
}

/// One solution per class of the automorphisms `G` of a model whose solutions take
/// distinct values, and the size of each class.
///
/// The elements `G0` that move cells only act freely on such solutions, and Puget's
/// constraints (added to the search) keep one of each `G0`-class. When `G` also
/// holds the complement `t` (`G = G0 ∪ t G0`, as every element that moves values
/// moves them the same way), the `G`-class of `s` is `G0 s ∪ G0 t s`: two
/// `G0`-classes, or one when `t s` is in `G0 s` (an associative square is its own
/// complement turned half round). Of the two representatives the search keeps one:
/// take the `G0`-orbit `O` of cells of the first cell Puget's constraints make least
/// (or a cell every element fixes, the 5x5 centre), when `t` maps `O` onto itself; the
/// sum `f` of the value indices of the least and greatest values on `O` is the same
/// for every member of a `G0`-class, and `f' = 2 (k - 1) - f` for the other class (`k`
/// values). The class with `f < k - 1` is kept; when `f = k - 1` for both (a centre
/// holding the middle value), the same on a second orbit, the tie's (the first
/// Puget cell's, when `O` is a centre); when that ties too, the representative less
/// cell by cell. The class's size is `|G|`, or `|G| / 2` when the
/// two representatives are the same solution (orbit-stabilizer: the stabilizer has two
/// elements then, one otherwise). So the search may drop every solution with
/// `f > k - 1`: a centre is given only the values `v <= t(v)`, and the static search
/// bounds the first cell's index plus each other cell's of `O` by `k - 1`, and of the
/// tie's orbit while the centre holds the middle value; about half the tree (the 5x5
/// squares with 13 at the centre were searched twice before the tie: 3.5% of the
/// nodes).
pub(super) struct Classes {
    group: Group,
    cells: usize,
    /// The model's values, to write images out.
    values: Vec<i64>,
    /// The value map `t` of the elements that move values, on value indices (empty
    /// when none does).
    complement: Vec<u32>,
    /// For each element that moves values, the preimage of each cell, `cells` apart.
    preimages: Vec<u32>,
    /// The same for every element.
    every_preimage: Vec<u32>,
    /// `G0`'s Puget constraints.
    puget: Vec<(u32, u32)>,
    /// The orbit `O` (its least cell first) that compares the two classes, when `G`
    /// moves values.
    orbit: Vec<u32>,
    /// When `O` is a centre, the orbit of Puget's first cell (its least first), which
    /// compares the two classes in the same way when the centre holds the middle
    /// value (`f = k - 1` on `O`); empty when `t` does not map it onto itself.
    tie: Vec<u32>,
    /// Per element, whether it moves values (by `complement`): asked at every
    /// solution found, where `Group::label_perm` would scan the map each time.
    moves: Vec<bool>,
}

impl Classes {
    /// The classes of `group`, searched with `puget` (`G0`'s Puget constraints).
    pub(super) fn new(group: Group, values: &[i64], puget: &[(usize, usize)]) -> Classes {
        let cells = group.perm(0).len();
        let mut complement = Vec::new();
        let mut preimages = Vec::new();
        let mut every_preimage = Vec::new();
        let mut moving = None;
        for g in 0..group.order() {
            let inverse = inverse(group.perm(g));
            if let Some(map) = group.label_perm(g) {
                complement = map.clone();
                preimages.extend_from_slice(&inverse);
                moving.get_or_insert(g);
            }
            every_preimage.extend(inverse);
        }
        let centre =
            (0..cells).find(|&c| (0..group.order()).all(|g| group.perm(g)[c] as usize == c));
        // The orbit of Puget's first cell (the least of it), if `t` maps it onto itself.
        let first_orbit = |t: usize| -> Vec<u32> {
            let Some(&(first, _)) = puget.first() else {
                return Vec::new();
            };
            let orbit: Vec<u32> = std::iter::once(first)
                .chain(puget.iter().filter(|p| p.0 == first).map(|p| p.1))
                .map(|c| c as u32)
                .collect();
            let image = group.perm(t);
            let closed = orbit.iter().all(|&c| orbit.contains(&image[c as usize]));
            if closed {
                orbit
            } else {
                Vec::new()
            }
        };
        let (orbit, tie): (Vec<u32>, Vec<u32>) = match (moving, centre) {
            (None, _) => (Vec::new(), Vec::new()),
            (Some(t), Some(c)) => (vec![c as u32], first_orbit(t)),
            (Some(t), None) => (first_orbit(t), Vec::new()),
        };
        Classes {
            cells,
            values: values.to_vec(),
            complement,
            preimages,
            every_preimage,
            puget: puget.iter().map(|&(a, b)| (a as u32, b as u32)).collect(),
            orbit,
            tie,
            moves: (0..group.order())
                .map(|g| group.label_perm(g).is_some())
                .collect(),
            group,
        }
    }

    /// The values a centre (a cell every element fixes) may take in the search (bit
    /// `i` for the `i`-th value): those no greater than their complement.
    pub(super) fn centre_domain(&self) -> Option<(usize, u64)> {
        let &[c] = self.orbit.as_slice() else {
            return None;
        };
        let keep = (0..self.complement.len())
            .filter(|&i| i as u32 <= self.complement[i])
            .fold(0u64, |m, i| m | 1 << i);
        Some((c as usize, keep))
    }

    /// The bounds the static search may add: the value indices of the orbit's first
    /// cell and of each other sum to at most `k - 1`; the same on the tie's orbit while
    /// the centre holds the middle value.
    pub(super) fn index_sums(&self) -> Vec<IndexSum> {
        let most = self.complement.len().saturating_sub(1) as u32;
        let mut out = Vec::new();
        let mut sums = |orbit: &[u32], when: Option<(usize, u32)>| {
            let first = orbit.first().copied().unwrap_or(0) as usize;
            out.extend(orbit.iter().skip(1).map(|&x| IndexSum {
                a: first,
                b: x as usize,
                most,
                when,
            }));
        };
        sums(&self.orbit, None);
        // The middle value is its own complement (an odd number of values).
        let middle = (0..self.complement.len() as u32).find(|&i| self.complement[i as usize] == i);
        if let (&[centre], Some(middle)) = (self.orbit.as_slice(), middle) {
            sums(&self.tie, Some((centre as usize, middle)));
        }
        out
    }

    /// The size of the class of the solution whose cell `c` holds the `index(c)`-th
    /// value, or `None` when the search finds its class from the other representative.
    #[inline]
    fn size(&self, index: &impl Fn(usize) -> u32) -> Option<u64> {
        let order = self.group.order() as u64;
        if self.complement.is_empty() {
            return Some(order);
        }
        for orbit in [&self.orbit, &self.tie] {
            let Some(&first) = orbit.first() else {
                break;
            };
            let least = index(first as usize);
            let most = orbit
                .iter()
                .map(|&x| index(x as usize))
                .max()
                .unwrap_or(least);
            let middle = self.complement.len() as u32 - 1;
            match (least + most).cmp(&middle) {
                std::cmp::Ordering::Less => return Some(order),
                std::cmp::Ordering::Greater => return None,
                std::cmp::Ordering::Equal => {}
            }
        }
        let t = &self.complement;
        // The representative of `G0 t s`: the one image under the elements that move
        // values that satisfies Puget's constraints.
        for pre in self.preimages.chunks_exact(self.cells) {
            let at = |x: u32| t[index(pre[x as usize] as usize) as usize];
            if !self.puget.iter().all(|&(a, b)| at(a) < at(b)) {
                continue;
            }
            for x in 0..self.cells as u32 {
                let (mine, theirs) = (index(x as usize), at(x));
                if mine != theirs {
                    return (mine < theirs).then_some(order);
                }
            }
            return Some(order / 2);
        }
        unreachable!("Puget's constraints keep one image of every class")
    }

    /// The value index of every cell of a solution (`index(c)` for cell `c`), read
    /// once: the classes' checks read each cell again and again, and `index` goes
    /// through the search's state. Every cell takes a different value of at most 64,
    /// so at most 64 cells.
    #[inline]
    fn read(&self, index: &impl Fn(usize) -> u32) -> [u8; 64] {
        let mut read = [0u8; 64];
        for (c, slot) in read.iter_mut().enumerate().take(self.cells) {
            *slot = index(c) as u8;
        }
        read
    }

    /// The value map of element `g` on value indices, if it moves values.
    #[inline]
    fn value_map(&self, g: usize) -> Option<&[u32]> {
        self.moves[g].then_some(self.complement.as_slice())
    }

    /// The value index at cell `c` of the image under element `g` of the solution
    /// whose cell `x` holds the `index(x)`-th value.
    #[inline]
    fn image_index(&self, g: usize, index: &impl Fn(usize) -> u32, c: usize) -> u32 {
        let i = index(self.every_preimage[g * self.cells + c] as usize);
        match self.value_map(g) {
            Some(t) => t[i as usize],
            None => i,
        }
    }

    /// Whether every element of `other` is an element of this group.
    fn contains(&self, other: &Group) -> bool {
        (0..other.order()).all(|h| {
            (0..self.group.order()).any(|g| {
                self.group.perm(g) == other.perm(h)
                    && self.group.label_perm(g) == other.label_perm(h)
            })
        })
    }

    /// The image of the solution (value indices `index`) under element `g`.
    fn image(&self, g: usize, index: &impl Fn(usize) -> u32) -> Vec<i64> {
        let indices: Vec<u32> = (0..self.cells).map(index).collect();
        let moved = self.group.move_indices(g, &indices);
        moved.iter().map(|&i| self.values[i as usize]).collect()
    }

    /// The elements whose images are the class of a solution whose class has `size`
    /// members, each once: all of them, or when two elements give each image, those
    /// that move cells only.
    fn spanning(&self, size: u64) -> impl Iterator<Item = usize> + '_ {
        let all = size == self.group.order() as u64;
        (0..self.group.order()).filter(move |&g| all || !self.moves[g])
    }
}

/// Puget's constraints for the elements of `group` that move cells only, along
/// `sequence`; or, when the file's own symmetry constraints are exactly Puget's for
/// those elements along some sequence (so just as exact), the file's, which encode its
/// author's choice of cells (for the magic hexagon they prune a third more).
fn puget(model: &Model, group: &Group, sequence: &[usize]) -> Vec<(usize, usize)> {
    let less = group.breaking_constraints(sequence);
    let Some(stated) = model.symmetry.as_ref() else {
        return less;
    };
    let theirs = group.breaking_constraints(&along(&stated.less, sequence));
    let as_set =
        |v: &[(usize, usize)]| v.iter().copied().collect::<std::collections::BTreeSet<_>>();
    if as_set(&theirs) == as_set(&stated.less) {
        theirs
    } else {
        less
    }
}

/// `sequence` with the first cells of the constraints `less` (`(a, b)`: `a` less than
/// `b`) moved to its front, in the order they first appear: the sequence along which
/// constraints stated as Puget's would have been found.
fn along(less: &[(usize, usize)], sequence: &[usize]) -> Vec<usize> {
    let mut firsts: Vec<usize> = Vec::new();
    for &(a, _) in less {
        if !firsts.contains(&a) {
            firsts.push(a);
        }
    }
    let rest = sequence.iter().copied().filter(|c| !firsts.contains(c));
    firsts.iter().copied().chain(rest).collect()
}

/// The preimage of each index under `perm`.
fn inverse(perm: &[u32]) -> Vec<u32> {
    let mut inverse = vec![0u32; perm.len()];
    for (c, &to) in perm.iter().enumerate() {
        inverse[to as usize] = c as u32;
    }
    inverse
}

/// The classes of the automorphisms `G` of a model whose solutions take distinct
/// values, and the order constraints of the group `H` its file states: each `G`-class
/// of solutions holds `|G s| / |H|` `H`-classes, and exactly one member of each
/// satisfies the constraints. So one solution per `G`-class, found with `G`'s own
/// (stronger) constraints, gives the file's distinct solutions by trying its images.
pub(super) struct Selection {
    classes: Classes,
    /// Per element `g`, per constraint `(a, b)`: the cells `(p, q)` of the solution
    /// whose values the image puts at `a` and `b`, ordered so that the image
    /// satisfies the constraint when the value at `p` is less than the value at `q`
    /// (the complement reverses the order of the values, so under it the preimages
    /// are swapped).
    ordered: Vec<(u8, u8)>,
    constraints: usize,
    /// The order of `H`: each of its classes has this many solutions.
    stated: u64,
    /// Whether the constraints are proved to be Puget's for a subgroup `H` of `G`
    /// ([`Group::states_a_subgroup`]): then every class of `G` with `m` members holds
    /// exactly `m / |H|` of `H`, and a count need not try the images.
    counts: bool,
}

impl Selection {
    /// The selection by the stated constraints `less` of a group of order `stated`,
    /// if they select `|G| / stated` images of every labelling tried: pseudo-random
    /// injective labellings, enough that constraints which are not one per class of a
    /// subgroup of that order show it.
    pub(super) fn new(classes: Classes, less: &[(usize, usize)], stated: u64) -> Option<Selection> {
        let elements = classes.group.order();
        let order = elements as u64;
        // Classes serve models whose cells all take different values, of at most 64
        // (so at most 64 cells, as `Classes::read` holds them), and the only value map
        // the automorphisms search is the complement, the reversal of the values.
        let reverses = classes.complement.windows(2).all(|w| w[0] > w[1]);
        if less.is_empty()
            || stated == 0
            || !order.is_multiple_of(stated)
            || !reverses
            || classes.cells > 64
        {
            return None;
        }
        let mut ordered = Vec::with_capacity(elements * less.len());
        for g in 0..elements {
            let inverse = inverse(classes.group.perm(g));
            ordered.extend(less.iter().map(|&(a, b)| {
                let (p, q) = (inverse[a] as u8, inverse[b] as u8);
                if classes.moves[g] {
                    (q, p)
                } else {
                    (p, q)
                }
            }));
        }
        let cells: Vec<usize> = (0..classes.cells).collect();
        let counts = classes
            .group
            .states_a_subgroup(less, &along(less, &cells), stated as usize);
        let selection = Selection {
            ordered,
            constraints: less.len(),
            stated,
            counts,
            classes,
        };
        let mut rng = fastrand::Rng::with_seed(0x5e1ec7);
        let cells = selection.classes.cells;
        let mut labels: Vec<u32> = (0..selection.classes.values.len().max(cells) as u32).collect();
        let consistent = (0..64).all(|_| {
            rng.shuffle(&mut labels);
            let above = above(&selection.classes.read(&|c| labels[c]), cells);
            (selection.ordered.chunks_exact(selection.constraints))
                .filter(|pairs| satisfied(pairs, &above))
                .count() as u64
                * stated
                == order
        });
        consistent.then_some(selection)
    }

    /// Reports the classes of the stated group in the class of the solution whose
    /// cell `c` holds the `index(c)`-th value: its images that satisfy the constraints.
    #[inline]
    fn report(
        &self,
        sink: &mut Sink<'_, Vec<i64>>,
        index: impl Fn(usize) -> u32,
    ) -> ControlFlow<()> {
        let classes = &self.classes;
        if self.counts && !sink.keeps() {
            let Some(size) = classes.size(&index) else {
                return ControlFlow::Continue(());
            };
            return sink.found_classes(size / self.stated, self.stated);
        }
        // Every element reads cells again: the solution read once, and for each cell
        // the cells with greater values, so that each constraint is one bit.
        let read = classes.read(&index);
        let index = |c: usize| u32::from(read[c]);
        let Some(size) = classes.size(&index) else {
            return ControlFlow::Continue(());
        };
        let above = above(&read, classes.cells);
        for g in classes.spanning(size) {
            let pairs = &self.ordered[g * self.constraints..(g + 1) * self.constraints];
            if satisfied(pairs, &above) {
                sink.found_class(self.stated, || classes.image(g, &index))?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Whether an image satisfies the constraints whose cells of the solution are
/// `pairs` ([`Selection::ordered`]), the solution's values ordered as `above` says.
#[inline]
fn satisfied(pairs: &[(u8, u8)], above: &[u64; 64]) -> bool {
    pairs
        .iter()
        .all(|&(p, q)| above[usize::from(p)] >> q & 1 != 0)
}

/// Per cell of a solution whose first `cells` cells hold the distinct value indices
/// `read`, the cells whose values are greater, as bits.
#[inline]
fn above(read: &[u8; 64], cells: usize) -> [u64; 64] {
    let mut cell_of = [u8::MAX; 64];
    for (c, &i) in read.iter().enumerate().take(cells) {
        cell_of[usize::from(i)] = c as u8;
    }
    let (mut above, mut seen) = ([0u64; 64], 0u64);
    for &c in cell_of.iter().rev().filter(|&&c| c != u8::MAX) {
        above[usize::from(c)] = seen;
        seen |= 1 << c;
    }
    above
}

/// The group `H` a file declares by generators. The search finds one solution per
/// class of the automorphisms `G` when `H` is a subgroup of `G` (each `G`-class is a
/// union of `H`-classes: its members are tried), and every solution otherwise. A
/// member `x` is reported when it is the least of its `H`-orbit (comparing value
/// indices cell by cell), as a class of `|H| / |stabilizer of x in H|` solutions.
pub(super) struct Declared {
    classes: Option<Classes>,
    cells: usize,
    /// `H`'s elements: the preimage of each cell, `cells` apart.
    preimages: Vec<u32>,
    /// Per element, whether it complements the values, and the complement of value
    /// indices.
    complements: Vec<bool>,
    complement: Vec<u32>,
    order: u64,
}

impl Declared {
    /// The classes of `h`, searched through `classes` when `h` is a subgroup of its
    /// group, from every solution otherwise; `values` is the number of values.
    pub(super) fn new(classes: Option<Classes>, h: &Group, values: usize) -> Declared {
        let cells = h.perm(0).len();
        let classes = classes.filter(|c| c.contains(h));
        let mut preimages = Vec::with_capacity(h.order() * cells);
        for g in 0..h.order() {
            preimages.extend(inverse(h.perm(g)));
        }
        Declared {
            classes,
            cells,
            preimages,
            complements: (0..h.order()).map(|g| h.label_perm(g).is_some()).collect(),
            complement: (0..values as u32).rev().collect(),
            order: h.order() as u64,
        }
    }

    /// Whether the search finds one solution per class of the automorphisms.
    pub(super) fn uses_classes(&self) -> bool {
        self.classes.is_some()
    }

    /// The size of the `H`-class of the labelling `x` (value index per cell) if `x`
    /// is the least of it, else `None`.
    #[inline]
    fn size(&self, x: &impl Fn(usize) -> u32) -> Option<u64> {
        let mut fixing = 0;
        for (pre, &complements) in self
            .preimages
            .chunks_exact(self.cells)
            .zip(&self.complements)
        {
            let moved = |c: usize| {
                let i = x(pre[c] as usize);
                if complements {
                    self.complement[i as usize]
                } else {
                    i
                }
            };
            match (0..self.cells)
                .map(|c| moved(c).cmp(&x(c)))
                .find(|o| o.is_ne())
            {
                Some(std::cmp::Ordering::Less) => return None,
                Some(_) => {}
                None => fixing += 1,
            }
        }
        Some(self.order / fixing)
    }

    /// Reports the `H`-classes of the solution found.
    #[inline]
    fn report(
        &self,
        sink: &mut Sink<'_, Vec<i64>>,
        values: impl FnOnce() -> Vec<i64>,
        index: impl Fn(usize) -> u32,
    ) -> ControlFlow<()> {
        let Some(classes) = &self.classes else {
            return match self.size(&index) {
                Some(size) => sink.found_class(size, values),
                None => ControlFlow::Continue(()),
            };
        };
        let Some(size) = classes.size(&index) else {
            return ControlFlow::Continue(());
        };
        for g in classes.spanning(size) {
            if let Some(size) = self.size(&|c| classes.image_index(g, &index, c)) {
                sink.found_class(size, || classes.image(g, &index))?;
            }
        }
        ControlFlow::Continue(())
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
        Expand::Class(size) => sink.found_class(*size, values),
        Expand::Images(classes) => match classes.size(&index) {
            None => ControlFlow::Continue(()),
            Some(size) => sink.found(size, |out| {
                out.extend(classes.spanning(size).map(|g| classes.image(g, &index)));
            }),
        },
        Expand::Classes(classes) => match classes.size(&index) {
            None => ControlFlow::Continue(()),
            Some(size) => sink.found_class(size, values),
        },
        Expand::Declared(declared) => declared.report(sink, values, index),
        Expand::Selected(selection) => selection.report(sink, index),
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
        // The equations the model's imply, checked like its own, and lines for the
        // planned order. The automorphisms and Puget's constraints come from the
        // model's (the implied ones are the same under every automorphism).
        let implied = implied(model.cells.len(), &prepared.equations);
        let order = match &model.order {
            Order::Smallest => None,
            Order::Static(order) => Some(order.clone()),
            Order::Planned => {
                let lines = [prepared.equations.as_slice(), &implied].concat();
                Some(planned_order(&model.domains, &lines))
            }
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
        let sequence: Vec<usize> = order
            .clone()
            .unwrap_or_else(|| (0..model.cells.len()).collect());
        let classes = group.map(|group| {
            let puget = puget(model, &group, &sequence);
            prepared.less.extend(&puget);
            Classes::new(group, &model.values, &puget)
        });
        let automorphisms = classes.as_ref().map_or(1, |c| c.group.order());
        let mut restricted = None;
        if let Some((cell, keep)) = classes.as_ref().and_then(Classes::centre_domain) {
            let mut model = model.clone();
            model.domains[cell] &= keep;
            restricted = Some(model);
        }
        if let Some(classes) = &classes {
            prepared.index_sums = classes.index_sums();
        }
        let generated = match &model.generators {
            generators if generators.is_empty() || mode != Mode::Distinct => None,
            generators => {
                let generators: Vec<_> = generators
                    .iter()
                    .map(|g| {
                        let cells = g.image.iter().map(|&c| c as u32).collect();
                        let k = model.values.len() as u32;
                        (cells, g.complement.then(|| (0..k).rev().collect()))
                    })
                    .collect();
                let cells = model.cells.len();
                let h = Group::generated(cells, model.values.len(), &generators, MAX_GROUP)
                    .ok_or(ModelError::GroupTooLarge(MAX_GROUP))?;
                Some(h)
            }
        };
        if let Some(i) = (0..model.generators.len())
            .find(|&i| mode == Mode::Distinct && !maps_onto_itself(model, &model.generators[i]))
        {
            return Err(ModelError::NotASymmetry(i));
        }
        let stated_only = |prepared: &mut Prepared, stated: &SymmetryBreak| {
            *prepared = Prepared::new(model, &values, &stated.less);
            (Expand::Class(stated.group_order), stated.group_order)
        };
        let (expand, group_order) = match (mode, classes, declared) {
            (Mode::Distinct, classes, _) if generated.is_some() => {
                let h = generated.as_ref().expect("a declared group");
                let declared = Declared::new(classes, h, model.values.len());
                if !declared.uses_classes() {
                    prepared = Prepared::new(model, &values, &[]);
                    restricted = None;
                }
                (Expand::Declared(declared), h.order() as u64)
            }
            (Mode::All, Some(classes), _) => (Expand::Images(classes), 1),
            (Mode::All, None, _) => (Expand::Itself, 1),
            (Mode::Distinct, Some(classes), None) => {
                let order = classes.group.order() as u64;
                (Expand::Classes(classes), order)
            }
            (Mode::Distinct, Some(classes), Some(stated)) => {
                match Selection::new(classes, &stated.less, stated.group_order) {
                    Some(selection) => (Expand::Selected(selection), stated.group_order),
                    None => {
                        restricted = None;
                        stated_only(&mut prepared, stated)
                    }
                }
            }
            (Mode::Distinct, None, Some(stated)) => stated_only(&mut prepared, stated),
            (Mode::Distinct, None, None) => (Expand::Class(1), 1),
        };
        let automorphisms = match &expand {
            Expand::Class(_) => 1,
            Expand::Declared(declared) if !declared.uses_classes() => 1,
            _ => automorphisms,
        };
        prepared.equations.extend(implied);
        let model = restricted.as_ref().unwrap_or(model);
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

    /// The compiled static-order plan, if the model's order is static.
    #[cfg(test)]
    pub(super) fn plan(&self) -> Option<&Plan> {
        match &self.kernel {
            Kernel::Plan(plan) => Some(plan),
            _ => None,
        }
    }

    /// Which search runs the model: `baked from FILE` (a shipped model's steps baked
    /// into the binary, `src/sums/plan/baked.rs`), `static order, magic figure` (the
    /// steps compiled for magic figures), `static order`, or `smallest domain`
    /// (`order: smallest`).
    pub fn search_kind(&self) -> String {
        match &self.kernel {
            Kernel::Plan(plan) => plan.kind(),
            Kernel::Engine(_) => "smallest domain".into(),
            Kernel::Unsatisfiable => "none (unsatisfiable)".into(),
        }
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
        match &self.kernel {
            Kernel::Plan(plan) => estimate::estimate(plan, options),
            Kernel::Engine(engine) => estimate::estimate(engine, options),
            Kernel::Unsatisfiable => estimate::estimate(&Unsatisfiable, options),
        }
    }

    /// [`crate::estimate::exhaust`] of the search [`SumsSolver::count`] runs (the
    /// total as a run reports it).
    #[cfg(test)]
    pub(crate) fn exhaust(&self) -> (u64, u64, u64) {
        match &self.kernel {
            Kernel::Plan(plan) => estimate::exhaust(plan),
            Kernel::Engine(engine) => estimate::exhaust(engine),
            Kernel::Unsatisfiable => estimate::exhaust(&Unsatisfiable),
        }
    }

    fn run(
        &self,
        options: &Options,
        keep: bool,
        each: impl FnMut(Vec<i64>) -> ControlFlow<()>,
        observe: &mut dyn FnMut(&Progress),
    ) -> Summary {
        match &self.kernel {
            Kernel::Plan(plan) => driver::run_observed(plan, options, keep, each, observe),
            Kernel::Engine(engine) => driver::run_observed(engine, options, keep, each, observe),
            Kernel::Unsatisfiable => {
                driver::run_observed(&Unsatisfiable, options, keep, each, observe)
            }
        }
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
    use std::collections::BTreeSet;

    use super::{automorphisms, Classes, Selection, SumsSolver};
    use crate::sums::builtin::magic_square;
    use crate::sums::prepare::{Prepared, Values};
    use crate::tests::counted;
    use crate::Mode;

    #[test]
    fn stated_constraints_are_used_only_when_they_pick_one_per_class() {
        let model = magic_square(3).unwrap();
        let prepared = Prepared::new(&model, &Values::new(&model.values), &[]);
        let group = automorphisms(&model, &prepared).unwrap();
        // The square's 8, each alone and with the complement.
        assert_eq!(group.order(), 16);
        assert_eq!(group.cell_subgroup().order(), 8);
        let classes = || Classes::new(group.clone(), &model.values, &[]);
        let stated = model.symmetry.as_ref().unwrap();
        let counts = |s: Option<Selection>| s.expect("a selection").counts;
        assert!(counts(Selection::new(classes(), &stated.less, 8)));
        // One constraint between two corners a reflection exchanges: one of each
        // pair of images, a class of 2, not of 8.
        let one = &stated.less[..1];
        assert!(counts(Selection::new(classes(), one, 2)));
        assert!(Selection::new(classes(), one, 8).is_none());
        assert!(Selection::new(classes(), &stated.less, 3).is_none());
    }

    /// Every injective labelling of the 3 x 3 square's cells by its nine values, magic
    /// or not, with the square's group of 16 (the complement among them): in each
    /// orbit exactly one member satisfies Puget's constraints and is kept, standing
    /// for the whole orbit, and it satisfies every bound the static search adds. The
    /// centre is fixed by every element, so a ninth of the labellings (centre 5) are
    /// compared by the corners' orbit, and a few of those cell by cell.
    #[test]
    fn each_orbit_of_labellings_keeps_one_member_of_its_size() {
        let model = magic_square(3).unwrap();
        let prepared = Prepared::new(&model, &Values::new(&model.values), &[]);
        let group = automorphisms(&model, &prepared).unwrap();
        let sequence: Vec<usize> = (0..9).collect();
        let puget = super::puget(&model, &group, &sequence);
        let classes = Classes::new(group.clone(), &model.values, &puget);
        assert_eq!((classes.orbit.len(), classes.tie.len()), (1, 4));
        let sums = classes.index_sums();
        assert!(sums.iter().all(|s| s.when == Some((4, 4))) && sums.len() == 3);
        // Per orbit (named by its least member): members kept, and their sizes.
        let mut kept: std::collections::BTreeMap<Vec<u32>, (u64, u64)> = Default::default();
        let mut labels: Vec<u32> = (0..9).collect();
        let mut each = |x: &[u32]| {
            let images = (0..group.order()).map(|g| group.move_indices(g, x));
            let (least, size) = (
                images.clone().min().unwrap(),
                images.collect::<BTreeSet<_>>().len(),
            );
            let entry = kept.entry(least).or_insert((0, size as u64));
            let index = |c: usize| x[c];
            if puget.iter().all(|&(a, b)| x[a] < x[b]) {
                if let Some(class) = classes.size(&index) {
                    entry.0 += 1;
                    assert_eq!(class, entry.1, "{x:?}");
                    for s in &sums {
                        let when = s.when.is_none_or(|(c, i)| x[c] == i);
                        assert!(!when || x[s.a] + x[s.b] <= s.most, "{x:?} pruned by {s:?}");
                    }
                }
            }
        };
        permutations(&mut labels, 0, &mut each);
        assert_eq!(kept.values().map(|k| k.1).sum::<u64>(), 362_880);
        assert!(kept.values().all(|k| k.0 == 1));
    }

    /// Calls `f` with every ordering of `items[k..]` after `items[..k]`.
    fn permutations(items: &mut [u32], k: usize, f: &mut impl FnMut(&[u32])) {
        if k == items.len() {
            return f(items);
        }
        for i in k..items.len() {
            items.swap(k, i);
            permutations(items, k + 1, f);
            items.swap(k, i);
        }
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
            assert_eq!(found.total, all.total);
            assert_eq!(distinct.symmetries(), 8);
        }
    }

    #[test]
    fn distinct_without_a_stated_group_uses_the_automorphisms() {
        let mut model = magic_square(3).unwrap();
        model.symmetry = None;
        let solver = SumsSolver::new(&model, Mode::Distinct).unwrap();
        let found = solver.count(&counted());
        // The Lo Shu is its own complement turned half round: one class of 8 under
        // the 16 automorphisms.
        assert_eq!((found.solutions, found.total), (1, 8));
        assert_eq!((solver.symmetries(), solver.automorphisms()), (16, 16));
    }
}

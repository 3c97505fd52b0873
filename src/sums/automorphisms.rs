//! The symmetries of a number model, found from its constraints: the group that
//! `super::solve` uses, through the shared engine of [`crate::symmetry`], to search one
//! solution per class and write each class out.
//!
//! An automorphism is a permutation of the cells that maps the model onto itself:
//! every cell to one with the same domain, every equation to an equation with the same
//! coefficients and target, every distinct group to a group, every order constraint
//! to one. It maps solutions to solutions. They are found by backtracking over cell
//! images, cells in an order where each shares a constraint with an earlier one, and
//! each constraint checked as soon as all its cells have images.
//!
//! When every solution takes pairwise distinct values (one distinct group holds every
//! cell), a solution and its images are all different, and the order constraints of
//! Puget ([`Group::breaking_constraints`]) keep exactly one solution of each class.
//! The search with those constraints finds one solution per class; each stands for
//! `|G|` solutions, its images.

use std::collections::HashSet;

use super::model::Model;
use super::prepare::Prepared;
use crate::symmetry::{Group, Perm};

/// Backtracking steps allowed to find the automorphisms; past it the model is solved
/// without them (it only costs speed).
const BUDGET: u64 = 200_000;

/// Groups larger than this are not used (the images of each class are written out).
const MAX_GROUP: usize = 1 << 12;

/// The automorphism group of the model (identity first), or `None` when the search for
/// it ran out of budget or found a group too large to use.
pub(super) fn automorphisms(model: &Model, prepared: &Prepared) -> Option<Group> {
    let n = model.cells.len();
    let equations: HashSet<(Vec<(usize, i64)>, i64)> = prepared
        .equations
        .iter()
        .map(|(terms, target)| (sorted(terms.clone()), *target))
        .collect();
    let groups: HashSet<Vec<usize>> = prepared.groups.iter().cloned().collect();
    let less: HashSet<(usize, usize)> = model.less.iter().copied().collect();

    // Cells that no automorphism can exchange differ in this signature: domain, order
    // constraints as smaller and as greater, and the sorted kinds of constraints.
    let mut signature: Vec<(u64, usize, usize, Vec<[i64; 4]>)> = (0..n)
        .map(|c| (model.domains[c], 0, 0, Vec::new()))
        .collect();
    for (terms, target) in &equations {
        for &(c, a) in terms {
            signature[c].3.push([1, terms.len() as i64, a, *target]);
        }
    }
    for g in &groups {
        for &c in g {
            signature[c].3.push([2, g.len() as i64, 0, 0]);
        }
    }
    for &(a, b) in &less {
        signature[a].1 += 1;
        signature[b].2 += 1;
    }
    for s in &mut signature {
        s.3.sort_unstable();
    }

    // Two cells and their images share the same constraints: checked for each new
    // image against every earlier one, which prunes long before an equation closes.
    // The digest of a multiset is the wrapping sum of its members' digests.
    let mut pair = vec![0u64; n * n];
    for (terms, target) in &equations {
        for &(a, ca) in terms {
            for &(b, cb) in terms {
                if a != b {
                    let d = digest(&[1, terms.len() as i64, ca, cb, *target]);
                    pair[a * n + b] = pair[a * n + b].wrapping_add(d);
                }
            }
        }
    }
    for g in &groups {
        let d = digest(&[2, g.len() as i64]);
        for &a in g {
            for &b in g {
                if a != b {
                    pair[a * n + b] = pair[a * n + b].wrapping_add(d);
                }
            }
        }
    }
    for &(a, b) in &less {
        pair[a * n + b] = pair[a * n + b].wrapping_add(digest(&[3, 1]));
        pair[b * n + a] = pair[b * n + a].wrapping_add(digest(&[3, -1]));
    }
    // A cell's row of shared-constraint digests, as a multiset, is kept by every
    // automorphism too: cells whose rows differ are never tried for each other.
    let rows: Vec<Vec<u64>> = (0..n)
        .map(|c| {
            let mut row = pair[c * n..(c + 1) * n].to_vec();
            row.sort_unstable();
            row
        })
        .collect();
    let class: Vec<usize> = (0..n)
        .map(|c| {
            (0..n)
                .position(|d| signature[d] == signature[c] && rows[d] == rows[c])
                .unwrap_or(c)
        })
        .collect();

    // Cells in an order where each meets an earlier one in some constraint.
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut link = |cells: &[usize]| {
        for &a in cells {
            for &b in cells {
                if a != b {
                    neighbours[a].push(b);
                }
            }
        }
    };
    for (terms, _) in &equations {
        link(&terms.iter().map(|t| t.0).collect::<Vec<_>>());
    }
    for g in &groups {
        link(g);
    }
    for &(a, b) in &less {
        link(&[a, b]);
    }
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            order.push(c);
            for &d in &neighbours[c] {
                if !seen[d] {
                    seen[d] = true;
                    queue.push_back(d);
                }
            }
        }
    }
    let mut position = vec![0; n];
    for (i, &c) in order.iter().enumerate() {
        position[c] = i;
    }
    // The constraints to check once the cell at each position has its image.
    let mut closing: Vec<Vec<Closing>> = vec![Vec::new(); n];
    for (terms, target) in &equations {
        let last = terms.iter().map(|t| position[t.0]).max().unwrap_or(0);
        closing[last].push(Closing::Equation(terms.clone(), *target));
    }
    for g in &groups {
        let last = g.iter().map(|&c| position[c]).max().unwrap_or(0);
        closing[last].push(Closing::Group(g.clone()));
    }
    for &(a, b) in &less {
        closing[position[a].max(position[b])].push(Closing::Less(a, b));
    }

    let mut search = Automorphisms {
        cells: n,
        pair: &pair,
        order: &order,
        class: &class,
        closing: &closing,
        equations: &equations,
        groups: &groups,
        less: &less,
        image: vec![u32::MAX; n],
        used: vec![false; n],
        found: Vec::new(),
        steps: 0,
    };
    if !search.extend(0) {
        return None;
    }
    let mut found = search.found;
    // Identity first: it is the least permutation in the order found.
    found.sort();
    (found.len() <= MAX_GROUP).then(|| Group::new(found))
}

/// A well-mixed 64-bit digest of a few integers (splitmix64 steps).
fn digest(fields: &[i64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &f in fields {
        h = (h ^ f as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 31;
        h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 29;
    }
    h
}

fn sorted(mut terms: Vec<(usize, i64)>) -> Vec<(usize, i64)> {
    terms.sort_unstable();
    terms
}

#[derive(Clone, Debug)]
enum Closing {
    Equation(Vec<(usize, i64)>, i64),
    Group(Vec<usize>),
    Less(usize, usize),
}

struct Automorphisms<'a> {
    cells: usize,
    /// A digest of the constraints cells `a` and `b` share, at `a * cells + b`.
    pair: &'a [u64],
    order: &'a [usize],
    /// Cells with the same class may be exchanged (the least cell of the class).
    class: &'a [usize],
    closing: &'a [Vec<Closing>],
    equations: &'a HashSet<(Vec<(usize, i64)>, i64)>,
    groups: &'a HashSet<Vec<usize>>,
    less: &'a HashSet<(usize, usize)>,
    image: Vec<u32>,
    used: Vec<bool>,
    found: Vec<Perm>,
    steps: u64,
}

impl Automorphisms<'_> {
    /// Gives images to the cells from position `at` on; false when out of budget or
    /// past the largest group used.
    fn extend(&mut self, at: usize) -> bool {
        if at == self.order.len() {
            self.found.push(self.image.clone());
            return self.found.len() <= MAX_GROUP;
        }
        let c = self.order[at];
        for d in 0..self.order.len() {
            if self.used[d] || self.class[d] != self.class[c] {
                continue;
            }
            self.steps += 1;
            if self.steps > BUDGET {
                return false;
            }
            let n = self.cells;
            let consistent = self.order[..at].iter().all(|&a| {
                let b = self.image[a] as usize;
                self.pair[a * n + c] == self.pair[b * n + d]
                    && self.pair[c * n + a] == self.pair[d * n + b]
            });
            if !consistent {
                continue;
            }
            self.image[c] = d as u32;
            self.used[d] = true;
            if self.closes(at) && !self.extend(at + 1) {
                return false;
            }
            self.used[d] = false;
            self.image[c] = u32::MAX;
        }
        true
    }

    /// Whether the constraints completed at position `at` map onto constraints.
    fn closes(&self, at: usize) -> bool {
        let img = |c: usize| self.image[c] as usize;
        self.closing[at].iter().all(|closing| match closing {
            Closing::Equation(terms, target) => {
                let mapped = sorted(terms.iter().map(|&(c, a)| (img(c), a)).collect());
                self.equations.contains(&(mapped, *target))
            }
            Closing::Group(cells) => {
                let mut mapped: Vec<usize> = cells.iter().map(|&c| img(c)).collect();
                mapped.sort_unstable();
                self.groups.contains(&mapped)
            }
            Closing::Less(a, b) => self.less.contains(&(img(*a), img(*b))),
        })
    }
}

/// Whether every solution takes pairwise distinct values: one group holds every cell.
pub(super) fn injective(cells: usize, prepared: &Prepared) -> bool {
    prepared.groups.iter().any(|g| g.len() == cells)
}

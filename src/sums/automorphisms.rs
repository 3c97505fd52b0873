//! The symmetries of a number model, found from its constraints: the group that
//! `super::solve` uses, through the shared engine of [`crate::symmetry`], to search one
//! solution per class and write each class out.
//!
//! An automorphism is a permutation `p` of the cells with a map `f` of the values,
//! sending a solution `s` to `t` with `t[p[c]] = f(s[c])`, that maps the model onto
//! itself. The value maps searched are the affine ones `v -> a v + b` that map the
//! value set onto itself: a finite set admits only `a = 1, b = 0` (the identity) and,
//! when the set is symmetric about its middle, `a = -1, b = min + max` (the
//! complement, `v -> n² + 1 - v` for a magic square). With `f` fixed, `p` must send
//! every cell to one whose domain is `f` of its domain, every equation
//! `sum k_c x_c = S` to an equation of the model with the same coefficients on the
//! image cells and the target `a S + b sum k_c`, every distinct group to a group, and
//! every order constraint `x < y` to one (`p(x) < p(y)`, or `p(y) < p(x)` when `a` is
//! -1). Not searched: equations that match only after scaling (`2x = 2y` for
//! `x = y`), value maps that are not affine (relabellings of a cryptarithm's digits),
//! and maps between the cells of models with more than [`BUDGET`] backtracking steps.
//! The pairs are found by backtracking over cell images for each value map, cells in
//! an order where each shares a constraint with an earlier one, and each constraint
//! checked as soon as all its cells have images.
//!
//! When every solution takes pairwise distinct values (one distinct group holds every
//! cell), the elements that move cells only act freely, and the order constraints of
//! Puget ([`Group::breaking_constraints`]) keep exactly one solution of each of their
//! classes; the complement, when there is one, pairs those classes (see
//! `super::solve::Classes`).

// Setup only (never in a search): Fx hashing, as the sets are keyed by small integers.
use rustc_hash::FxHashSet as HashSet;

use super::model::{Generator, Model};
use super::prepare::Prepared;
use crate::symmetry::{Group, Perm};

/// Backtracking steps allowed to find the automorphisms; past it the model is solved
/// without them (it only costs speed).
const BUDGET: u64 = 200_000;

/// Groups larger than this are not used (the images of each class are written out).
pub(super) const MAX_GROUP: usize = 1 << 12;

/// The constraints of a model, or of its image under a value map, in the forms the
/// search compares.
struct Structure {
    equations: HashSet<(Vec<(usize, i64)>, i64)>,
    groups: HashSet<Vec<usize>>,
    less: HashSet<(usize, usize)>,
    /// Per cell: domain, order constraints as smaller and as greater, and the sorted
    /// kinds of its constraints; a map sends a cell only to one of equal signature.
    signature: Vec<(u64, usize, usize, Vec<[i64; 4]>)>,
    /// A digest of the constraints cells `a` and `b` share, at `a * cells + b`; the
    /// digest of a multiset is the wrapping sum of its members' digests.
    pair: Vec<u64>,
    /// Each cell's row of `pair`, sorted: a multiset every map keeps too.
    rows: Vec<Vec<u64>>,
}

impl Structure {
    fn new(
        domains: &[u64],
        equations: HashSet<(Vec<(usize, i64)>, i64)>,
        groups: HashSet<Vec<usize>>,
        less: HashSet<(usize, usize)>,
    ) -> Structure {
        let n = domains.len();
        let mut signature: Vec<(u64, usize, usize, Vec<[i64; 4]>)> =
            domains.iter().map(|&d| (d, 0, 0, Vec::new())).collect();
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
        let rows = (0..n)
            .map(|c| {
                let mut row = pair[c * n..(c + 1) * n].to_vec();
                row.sort_unstable();
                row
            })
            .collect();
        Structure {
            equations,
            groups,
            less,
            signature,
            pair,
            rows,
        }
    }
}

/// The value maps searched, as permutations of value indices: the identity, and the
/// complement when the value set is symmetric about its middle.
fn value_maps(values: &[i64]) -> Vec<Vec<u32>> {
    let k = values.len();
    let identity: Vec<u32> = (0..k as u32).collect();
    let symmetric = k > 1
        && (0..k).all(|i| {
            i128::from(values[i]) + i128::from(values[k - 1 - i])
                == i128::from(values[0]) + i128::from(values[k - 1])
        });
    let mut maps = vec![identity];
    if symmetric {
        maps.push((0..k as u32).rev().collect());
    }
    maps
}

/// The automorphism group of the model (identity first): cell permutations, with the
/// complement of the values where it maps the model onto itself. `None` when the
/// search ran out of budget or found a group too large to use.
pub(super) fn automorphisms(model: &Model, prepared: &Prepared) -> Option<Group> {
    let n = model.cells.len();
    let k = model.values.len();
    let all = if k == 0 { 0 } else { u64::MAX >> (64 - k) };
    let domains: Vec<u64> = model.domains.iter().map(|&d| d & all).collect();
    let equations: HashSet<(Vec<(usize, i64)>, i64)> = prepared
        .equations
        .iter()
        .map(|(terms, target)| (sorted(terms.clone()), *target))
        .collect();
    let groups: HashSet<Vec<usize>> = prepared.groups.iter().cloned().collect();
    let less: HashSet<(usize, usize)> = model.less.iter().copied().collect();
    let target = Structure::new(&domains, equations.clone(), groups.clone(), less.clone());

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

    let mut perms = Vec::new();
    let mut labels = Vec::new();
    let mut steps = 0;
    for map in value_maps(&model.values) {
        let reverses = map.first().is_some_and(|&m| m != 0);
        // The model's constraints as the value map sends them, on the same cells: a
        // cell permutation that maps these onto the model's makes an automorphism.
        let source = if reverses {
            let (lo, hi) = (model.values[0], model.values[k - 1]);
            let image = |d: u64| {
                (0..k)
                    .filter(|&i| d >> i & 1 == 1)
                    .fold(0u64, |m, i| m | 1 << map[i])
            };
            Structure::new(
                &domains.iter().map(|&d| image(d)).collect::<Vec<_>>(),
                equations
                    .iter()
                    .map(|(terms, target)| {
                        let sum: i64 = terms.iter().map(|t| t.1).sum();
                        (terms.clone(), (lo + hi) * sum - target)
                    })
                    .collect(),
                groups.clone(),
                less.iter().map(|&(a, b)| (b, a)).collect(),
            )
        } else {
            Structure::new(&domains, equations.clone(), groups.clone(), less.clone())
        };
        let candidates: Vec<Vec<usize>> = (0..n)
            .map(|c| {
                (0..n)
                    .filter(|&d| {
                        source.signature[c] == target.signature[d]
                            && source.rows[c] == target.rows[d]
                    })
                    .collect()
            })
            .collect();
        // The constraints to check once the cell at each position has its image.
        let mut closing: Vec<Vec<Closing>> = vec![Vec::new(); n];
        for (terms, target) in &source.equations {
            let last = terms.iter().map(|t| position[t.0]).max().unwrap_or(0);
            closing[last].push(Closing::Equation(terms.clone(), *target));
        }
        for g in &source.groups {
            let last = g.iter().map(|&c| position[c]).max().unwrap_or(0);
            closing[last].push(Closing::Group(g.clone()));
        }
        for &(a, b) in &source.less {
            closing[position[a].max(position[b])].push(Closing::Less(a, b));
        }
        let mut search = Automorphisms {
            cells: n,
            source: &source,
            target: &target,
            order: &order,
            candidates: &candidates,
            closing: &closing,
            image: vec![u32::MAX; n],
            used: vec![false; n],
            found: Vec::new(),
            steps,
            terms: Vec::new(),
            cells_scratch: Vec::new(),
        };
        if !search.extend(0) {
            return None;
        }
        steps = search.steps;
        labels.extend(std::iter::repeat_n(map, search.found.len()));
        perms.extend(search.found);
    }
    if perms.len() > MAX_GROUP {
        return None;
    }
    // Identity first: it is the least permutation found with the identity value map.
    let mut elements: Vec<(Perm, Perm)> = perms.into_iter().zip(labels).collect();
    elements.sort_by(|x, y| (&x.1, &x.0).cmp(&(&y.1, &y.0)));
    let (perms, labels) = elements.into_iter().unzip();
    Some(Group::with_labels(perms, labels))
}

/// Whether `generator` maps the model onto itself: every domain, equation (its target
/// mapped with the values), distinct group and order constraint onto one of the
/// model's, as the automorphisms found here do.
pub(super) fn maps_onto_itself(model: &Model, generator: &Generator) -> bool {
    let k = model.values.len();
    let image = &generator.image;
    let (sum, map): (i64, Vec<u32>) = match (generator.complement, model.values.first()) {
        (true, Some(&lo)) => (lo + model.values[k - 1], (0..k as u32).rev().collect()),
        _ => (0, (0..k as u32).collect()),
    };
    let all = if k == 0 { 0 } else { u64::MAX >> (64 - k) };
    let domains_map = (0..model.cells.len()).all(|c| {
        let d = model.domains[c] & all;
        let moved = (0..k)
            .filter(|&i| d >> i & 1 == 1)
            .fold(0u64, |m, i| m | 1 << map[i]);
        moved == model.domains[image[c]] & all
    });
    let equations: HashSet<(Vec<(usize, i64)>, i64)> = model
        .equations
        .iter()
        .map(|e| (sorted(e.terms.clone()), e.target))
        .collect();
    let equations_map = model.equations.iter().all(|e| {
        let terms = sorted(e.terms.iter().map(|&(c, a)| (image[c], a)).collect());
        let target = if generator.complement {
            sum * e.terms.iter().map(|t| t.1).sum::<i64>() - e.target
        } else {
            e.target
        };
        equations.contains(&(terms, target))
    });
    let set = |g: &Vec<usize>| {
        let mut g = g.clone();
        g.sort_unstable();
        g.dedup();
        g
    };
    let groups: HashSet<Vec<usize>> = model.groups.iter().map(set).collect();
    let groups_map = model
        .groups
        .iter()
        .all(|g| groups.contains(&set(&g.iter().map(|&c| image[c]).collect())));
    let less: HashSet<(usize, usize)> = model.less.iter().copied().collect();
    let less_map = model.less.iter().all(|&(a, b)| {
        let (x, y) = (image[a], image[b]);
        less.contains(&if generator.complement { (y, x) } else { (x, y) })
    });
    domains_map && equations_map && groups_map && less_map
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
    /// The model's constraints as the value map sends them.
    source: &'a Structure,
    /// The model's.
    target: &'a Structure,
    order: &'a [usize],
    /// The cells each cell may be sent to (equal signatures and rows).
    candidates: &'a [Vec<usize>],
    closing: &'a [Vec<Closing>],
    image: Vec<u32>,
    used: Vec<bool>,
    found: Vec<Perm>,
    steps: u64,
    /// Scratch for [`Automorphisms::closes`]: an equation's and a group's images.
    terms: Vec<(usize, i64)>,
    cells_scratch: Vec<usize>,
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
        for &d in &self.candidates[c] {
            if self.used[d] {
                continue;
            }
            self.steps += 1;
            if self.steps > BUDGET {
                return false;
            }
            let n = self.cells;
            let (source, target) = (&self.source.pair, &self.target.pair);
            let consistent = self.order[..at].iter().all(|&a| {
                let b = self.image[a] as usize;
                source[a * n + c] == target[b * n + d] && source[c * n + a] == target[d * n + b]
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
    fn closes(&mut self, at: usize) -> bool {
        let image = &self.image;
        let img = |c: usize| image[c] as usize;
        for closing in &self.closing[at] {
            let maps = match closing {
                Closing::Equation(terms, target) => {
                    let mut mapped = std::mem::take(&mut self.terms);
                    mapped.clear();
                    mapped.extend(terms.iter().map(|&(c, a)| (img(c), a)));
                    mapped.sort_unstable();
                    let key = (mapped, *target);
                    let found = self.target.equations.contains(&key);
                    self.terms = key.0;
                    found
                }
                Closing::Group(cells) => {
                    let mapped = &mut self.cells_scratch;
                    mapped.clear();
                    mapped.extend(cells.iter().map(|&c| img(c)));
                    mapped.sort_unstable();
                    self.target.groups.contains(mapped)
                }
                Closing::Less(a, b) => self.target.less.contains(&(img(*a), img(*b))),
            };
            if !maps {
                return false;
            }
        }
        true
    }
}

/// Whether every solution takes pairwise distinct values: one group holds every cell.
pub(super) fn injective(cells: usize, prepared: &Prepared) -> bool {
    prepared.groups.iter().any(|g| g.len() == cells)
}

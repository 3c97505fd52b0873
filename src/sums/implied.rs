//! Equations the model's equations imply: sets `S` of a few cells whose sum every
//! solution of the equations fixes, `sum of x_c over S = t`, that are not already
//! equations of the model. The searches check them like the model's own, so a line of
//! cells the model never names prunes as soon as its cells are set (the four corners
//! of a 4x4 magic square sum to 34, so do its four centre cells; the centre of a 3x3
//! one is 5).
//!
//! `S` is implied exactly when its indicator vector lies in the row space of the
//! equations' coefficients, that is, when it is orthogonal to every vector of their
//! null space; the total is then the sum over `S` of any rational solution of the
//! equations. Each cell gets the vector of its entries in a basis of the null space
//! (integers), and the sets of at most as many cells as the longest equation (one
//! fewer when the equations differ in length) are
//! enumerated with their running sum of those vectors, first projected to one
//! wrapping 64-bit number (a zero projection is then checked exactly). Only models
//! with at most [`MAX_CELLS`] cells and at most [`MAX_SETS`] such sets are searched
//! (the cost is setup, and it grows as a binomial), and at most [`MAX_FOUND`]
//! equations kept. Setup only: allocation is fine here. The 5x5 magic square has no
//! implied set of 5 cells or fewer; the 4x4 has four (40,223 nodes to 9,2xx), the
//! magic hexagon three of 4 cells.

/// Models with more cells are not searched for implied equations.
const MAX_CELLS: usize = 40;

/// Models with more candidate sets are not searched.
const MAX_SETS: u64 = 100_000;

/// An equation as `Prepared` holds it: `(cell, coefficient)` terms and the target.
type Linear = (Vec<(usize, i64)>, i64);

/// At most this many implied equations are kept (each costs a check per step).
const MAX_FOUND: usize = 64;

/// A rational number, reduced, with a positive denominator; `None` from any operation
/// that overflows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Q {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Q {
    const ZERO: Q = Q { num: 0, den: 1 };

    fn new(num: i128, den: i128) -> Option<Q> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Some(Q {
            num: sign * (num / g),
            den: sign * (den / g),
        })
    }

    fn add(self, o: Q) -> Option<Q> {
        let num = self
            .num
            .checked_mul(o.den)?
            .checked_add(o.num.checked_mul(self.den)?)?;
        Q::new(num, self.den.checked_mul(o.den)?)
    }
}

/// The sets of at most as many cells as the longest of `equations` (over `cells`
/// cells; one fewer unless all are as long) whose sum the equations fix, each once, with that sum, as equations with
/// coefficients 1; none already among `equations`. Empty when the model is too large
/// to search, the arithmetic overflows, or the equations have no rational solution.
pub(super) fn implied(cells: usize, equations: &[Linear]) -> Vec<Linear> {
    let longest = equations.iter().map(|e| e.0.len()).max().unwrap_or(0);
    let shortest = equations.iter().map(|e| e.0.len()).min().unwrap_or(0);
    // Sets as long as the longest equation only when every equation is that long: a
    // long set is checked only once all its cells are set, and on the magic hexagon
    // (lines of 3, 4 and 5) its five 5-cell sets made the order worse (11,420 nodes
    // to 136,529) where its three 4-cell sets help.
    let most = if shortest == longest {
        longest
    } else {
        longest - 1
    };
    if cells == 0 || cells > MAX_CELLS || most == 0 || sets_up_to(cells, most) > MAX_SETS {
        return Vec::new();
    }
    solve(cells, equations, most).unwrap_or_default()
}

/// How many sets of 1 to `most` cells of `n` there are (saturating).
fn sets_up_to(n: usize, most: usize) -> u64 {
    let (mut total, mut term) = (0u64, 1u64);
    for k in 1..=most.min(n) {
        // C(n, k) = C(n, k - 1) (n - k + 1) / k, exact at each step.
        term = term.saturating_mul((n - k + 1) as u64) / k as u64;
        total = total.saturating_add(term);
    }
    total
}

fn solve(n: usize, equations: &[Linear], longest: usize) -> Option<Vec<Linear>> {
    // The augmented matrix, in integers, reduced without fractions: each pivot alone
    // in its column, each row divided by the gcd of its entries.
    let mut rows: Vec<Vec<i128>> = equations
        .iter()
        .map(|(terms, target)| {
            let mut row = vec![0i128; n + 1];
            for &(c, a) in terms {
                row[c] += i128::from(a);
            }
            row[n] = (*target).into();
            row
        })
        .collect();
    let mut pivots = Vec::new();
    for col in 0..n {
        let r = pivots.len();
        let Some(p) = (r..rows.len()).find(|&i| rows[i][col] != 0) else {
            continue;
        };
        rows.swap(r, p);
        let pivot_row = rows[r].clone();
        let pivot = pivot_row[col];
        for (i, row) in rows.iter_mut().enumerate() {
            let f = row[col];
            if i == r || f == 0 {
                continue;
            }
            let mut largest = 0;
            for x in 0..=n {
                row[x] = row[x]
                    .checked_mul(pivot)?
                    .checked_sub(pivot_row[x].checked_mul(f)?)?;
                largest = largest.max(row[x].abs());
            }
            // Entries grow by a factor of the pivot at each step: divide out the
            // row's gcd once they are large (the gcds, on i128, cost more than the
            // elimination).
            if largest > 1 << 24 {
                let g = row.iter().fold(0, |g, &v| gcd(g, v));
                if g > 1 {
                    row.iter_mut().for_each(|v| *v /= g);
                }
            }
        }
        pivots.push(col);
    }
    // A row 0 = nonzero: no rational solution (the search finds none either).
    if rows[pivots.len()..].iter().any(|row| row[n] != 0) {
        return None;
    }
    // A rational solution: free cells 0, each pivot cell its row's target over its
    // pivot.
    let mut particular = vec![Q::ZERO; n];
    for (r, &col) in pivots.iter().enumerate() {
        particular[col] = Q::new(rows[r][n], rows[r][col])?;
    }
    // A basis of the null space, one vector per free cell f, in integers: f gets the
    // least common multiple d of the pivots, each pivot cell -d / pivot times its
    // row's entry in column f.
    let free: Vec<usize> = (0..n).filter(|c| !pivots.contains(c)).collect();
    let mut basis: Vec<Vec<i128>> = Vec::with_capacity(free.len());
    for &f in &free {
        let mut d = 1i128;
        for (r, &col) in pivots.iter().enumerate() {
            if rows[r][f] != 0 {
                let p = rows[r][col].abs();
                d = (d / gcd(d, p)).checked_mul(p)?;
            }
        }
        let mut v = vec![0i128; n];
        v[f] = d;
        for (r, &col) in pivots.iter().enumerate() {
            v[col] = -(rows[r][f].checked_mul(d / rows[r][col])?);
        }
        basis.push(v);
    }
    // One projection per cell: a fixed odd combination of its basis entries, wrapping.
    let mut projection = vec![0u64; n];
    let mut weight = 0x9e37_79b9_7f4a_7c15u64;
    for v in &basis {
        for (c, &x) in v.iter().enumerate() {
            projection[c] = projection[c].wrapping_add((x as u64).wrapping_mul(weight));
        }
        weight = weight.wrapping_mul(0xbf58_476d_1ce4_e5b9) | 1;
    }
    let existing: Vec<Vec<usize>> = equations
        .iter()
        .filter(|(terms, _)| terms.iter().all(|t| t.1 == 1))
        .map(|(terms, _)| {
            let mut cells: Vec<usize> = terms.iter().map(|t| t.0).collect();
            cells.sort_unstable();
            cells
        })
        .collect();
    let mut found = Vec::new();
    let mut set = Vec::with_capacity(longest);
    let mut sets = Enumeration {
        n,
        longest,
        projection: &projection,
        basis: &basis,
        particular: &particular,
        existing: &existing,
        found: &mut found,
        overflow: false,
    };
    sets.extend(0, 0, &mut set);
    (!sets.overflow).then_some(found)
}

/// The depth-first enumeration of the sets, in increasing cell order.
struct Enumeration<'a> {
    n: usize,
    longest: usize,
    projection: &'a [u64],
    basis: &'a [Vec<i128>],
    particular: &'a [Q],
    existing: &'a [Vec<usize>],
    found: &'a mut Vec<Linear>,
    overflow: bool,
}

impl Enumeration<'_> {
    fn extend(&mut self, from: usize, sum: u64, set: &mut Vec<usize>) {
        for c in from..self.n {
            let sum = sum.wrapping_add(self.projection[c]);
            set.push(c);
            if sum == 0 {
                self.check(set);
            }
            if set.len() < self.longest {
                self.extend(c + 1, sum, set);
            }
            set.pop();
        }
    }

    /// Records `set` if it is orthogonal to the null space exactly, its total an
    /// integer, and not an equation of the model.
    fn check(&mut self, set: &[usize]) {
        let orthogonal = self
            .basis
            .iter()
            .all(|v| set.iter().map(|&c| v[c]).sum::<i128>() == 0);
        // A cell the equations fix makes a set implied with any other implied set:
        // it stands alone (the 3x3 centre), not in every such union.
        let fixed = |c: usize| self.basis.iter().all(|v| v[c] == 0);
        if !orthogonal
            || (set.len() > 1 && set.iter().any(|&c| fixed(c)))
            || self.existing.iter().any(|e| e == set)
            || self.found.len() >= MAX_FOUND
        {
            return;
        }
        let mut total = Q::ZERO;
        for &c in set {
            match total.add(self.particular[c]) {
                Some(t) => total = t,
                None => {
                    self.overflow = true;
                    return;
                }
            }
        }
        // A fractional total: no integer solution has it; leave it to the search.
        if total.den != 1 || i64::try_from(total.num).is_err() {
            return;
        }
        let terms = set.iter().map(|&c| (c, 1)).collect();
        self.found.push((terms, total.num as i64));
    }
}

#[cfg(test)]
mod tests {
    use super::{implied, Linear};
    use crate::sums::builtin::magic_square;

    fn equations(n: usize) -> (usize, Vec<Linear>) {
        let model = magic_square(n).unwrap();
        let eqs = model
            .equations
            .iter()
            .map(|e| (e.terms.clone(), e.target))
            .collect();
        (model.cells.len(), eqs)
    }

    /// The implied equations of the order-`n` magic square: cell sets and sums, sorted.
    fn implied_sets(n: usize) -> Vec<(Vec<usize>, i64)> {
        let (cells, eqs) = equations(n);
        let mut got: Vec<(Vec<usize>, i64)> = implied(cells, &eqs)
            .into_iter()
            .map(|(t, s)| (t.into_iter().map(|x| x.0).collect(), s))
            .collect();
        got.sort();
        got
    }

    #[test]
    fn the_3x3_square_fixes_its_centre_and_opposite_pairs() {
        let got = implied_sets(3);
        // Cells row by row: the centre is 4.
        let want = vec![
            (vec![0, 8], 10),
            (vec![1, 7], 10),
            (vec![2, 6], 10),
            (vec![3, 5], 10),
            (vec![4], 5),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn the_4x4_square_fixes_corners_centre_and_the_middles_of_edges() {
        let got = implied_sets(4);
        let want = vec![
            (vec![0, 3, 12, 15], 34),
            (vec![1, 2, 13, 14], 34),
            (vec![4, 7, 8, 11], 34),
            (vec![5, 6, 9, 10], 34),
        ];
        assert_eq!(got, want);
    }

    /// On random small systems, every implied equation holds for every solution in a
    /// box (brute force), and is not one of the system's.
    #[test]
    fn implied_equations_hold_for_every_solution() {
        let mut rng = fastrand::Rng::with_seed(14);
        let mut seen = 0;
        for _ in 0..300 {
            let cells = rng.usize(2..6);
            let mut eqs: Vec<Linear> = Vec::new();
            for _ in 0..rng.usize(1..4) {
                let mut terms = Vec::new();
                for c in 0..cells {
                    let a = rng.i64(-2..3);
                    if a != 0 && rng.bool() {
                        terms.push((c, a));
                    }
                }
                if terms.is_empty() {
                    terms.push((rng.usize(..cells), 1));
                }
                eqs.push((terms, rng.i64(-3..8)));
            }
            let found = implied(cells, &eqs);
            seen += found.len();
            let mut x = vec![0i64; cells];
            let values = 5i64.pow(cells as u32);
            for code in 0..values {
                let mut k = code;
                for v in x.iter_mut() {
                    *v = k % 5 - 1;
                    k /= 5;
                }
                let holds = |(terms, target): &Linear| {
                    terms.iter().map(|&(c, a)| a * x[c]).sum::<i64>() == *target
                };
                if eqs.iter().all(holds) {
                    assert!(found.iter().all(holds), "{eqs:?} {found:?} at {x:?}");
                }
            }
            for f in &found {
                assert!(!eqs.contains(f));
            }
        }
        assert!(seen > 0, "some random system implies an equation");
    }
}

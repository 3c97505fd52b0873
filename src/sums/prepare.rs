//! What both number searches start from: the value set as bits ([`Values`]) and the
//! model's constraints made ready ([`Prepared`]).
//!
//! A domain is one `u64`: bit `i` stands for the `i`-th smallest value of the model.

use super::model::Model;

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
/// deduplicated and of two cells or more, each with the values it must use all of;
/// symmetry-breaking order constraints added to the model's.
pub(super) struct Prepared {
    pub(super) groups: Vec<Vec<usize>>,
    /// Per group: the values it must use all of (as many as it has cells), or 0.
    pub(super) group_full: Vec<u64>,
    /// The model's equations.
    pub(super) equations: Vec<(Vec<(usize, i64)>, i64)>,
    pub(super) less: Vec<(usize, usize)>,
    /// Bounds on the sums of two cells' value indices. Symmetry breaking only
    /// (`super::solve::Classes`); the static search prunes with them, the propagating
    /// search may ignore them.
    pub(super) index_sums: Vec<IndexSum>,
}

/// The value indices of cells `a` and `b` sum to at most `most`; with `when`, only
/// while cell `when.0` holds the `when.1`-th value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IndexSum {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) most: u32,
    pub(super) when: Option<(usize, u32)>,
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
        Prepared {
            groups,
            group_full,
            equations: model
                .equations
                .iter()
                .map(|e| (e.terms.clone(), e.target))
                .collect(),
            less: model.less.iter().chain(extra_less).copied().collect(),
            index_sums: Vec::new(),
        }
    }

    /// Whether some group has more cells than values to give them: then the model has
    /// no solution (and nothing need be built to say so).
    pub(super) fn pigeonholed(&self, model: &Model, values: &Values) -> bool {
        self.groups.iter().any(|cells| {
            let union = cells
                .iter()
                .fold(0, |u, &c| u | (model.domains[c] & values.all));
            (union.count_ones() as usize) < cells.len()
        })
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

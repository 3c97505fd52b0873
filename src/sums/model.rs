//! The model of a number puzzle: cells with value domains, distinct groups, linear
//! equations and order constraints. The parser builds it, the built-in puzzles build
//! it, the search compiles it; nothing here knows how it is solved.

/// The most values a model may have: a domain is one `u64`, bit `i` standing for the
/// `i`-th smallest value.
pub const MAX_VALUES: usize = 64;

/// A number puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Title, if the file gives one.
    pub name: Option<String>,
    /// The value set, strictly ascending, at most [`MAX_VALUES`] long.
    pub values: Vec<i64>,
    /// Cell names, in drawing order (row by row, left to right).
    pub cells: Vec<String>,
    /// How solutions are drawn.
    pub layout: Layout,
    /// The initial domain of each cell: bit `i` set if the cell may take `values[i]`.
    pub domains: Vec<u64>,
    /// Groups of cells that take pairwise distinct values; each has at least two cells,
    /// all different.
    pub groups: Vec<Vec<usize>>,
    /// Linear equations.
    pub equations: Vec<Equation>,
    /// Order constraints `(a, b)`: the value of cell `a` is less than that of cell `b`.
    pub less: Vec<(usize, usize)>,
    /// Symmetry-breaking constraints, applied only when solving up to symmetry.
    pub symmetry: Option<SymmetryBreak>,
    /// Generators of the group whose classes distinct mode counts, when the file
    /// declares one (`generator:` lines); empty otherwise. Each must map the model
    /// onto itself. They take precedence over [`Model::symmetry`].
    pub generators: Vec<Generator>,
    /// How the search picks the next cell.
    pub order: Order,
}

/// `sum of coefficient * value(cell) == target`, each cell once, no zero coefficient,
/// at least one term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equation {
    /// `(cell, coefficient)` pairs.
    pub terms: Vec<(usize, i64)>,
    /// The right-hand side.
    pub target: i64,
}

/// The symmetry group of a figure and the order constraints that keep one solution of
/// each class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryBreak {
    /// The order of the group: each class has this many solutions.
    pub group_order: u64,
    /// `(a, b)`: value of `a` less than value of `b`.
    pub less: Vec<(usize, usize)>,
}

/// A symmetry of a model: a permutation of the cells, possibly with the complement of
/// the values. It sends a solution `s` to `t` with `t[image[c]] = f(s[c])`, `f` the
/// identity or, with `complement`, `v -> min + max - v` (the value set must be
/// symmetric about its middle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// The image of each cell.
    pub image: Vec<usize>,
    /// Whether the values are complemented.
    pub complement: bool,
}

/// How the search picks the next cell to branch on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// The free cell with the fewest candidate values; ties go to the earlier cell.
    Smallest,
    /// A static order the solver derives from the equations (see
    /// `docs/sums-format.md`).
    Planned,
    /// The first free cell in this order (a permutation of all cells).
    Static(Vec<usize>),
}

/// Where each cell is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A free drawing: `(line, column)` of each cell's name in the `cells:` block, both
    /// counted from 0 (line 0 is the first line of the drawing).
    Drawing(Vec<(usize, usize)>),
    /// An R x C grid, cells row-major; `boxes` is the box size `(height, width)`.
    Grid {
        /// Rows of the grid.
        rows: usize,
        /// Columns of the grid.
        columns: usize,
        /// Box size `(height, width)`, when boxes are drawn.
        boxes: Option<(usize, usize)>,
    },
}

impl Model {
    /// The value of bit `bit` of a domain.
    pub fn value(&self, bit: u32) -> i64 {
        self.values[bit as usize]
    }

    /// The cell called `name`.
    pub fn cell(&self, name: &str) -> Option<usize> {
        self.cells.iter().position(|c| c == name)
    }
}

/// Why a model cannot be solved as given: something a hand-built [`Model`] may get
/// wrong that the parser never does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// More values than a domain's 64 bits.
    #[error("{0} values; a model has at most {MAX_VALUES}")]
    TooManyValues(usize),
    /// Values not strictly ascending.
    #[error("the values are not strictly ascending")]
    ValuesNotAscending,
    /// A list that must have one entry per cell does not.
    #[error("{what} has {len} entries for {cells} cells")]
    PerCell {
        /// The list.
        what: &'static str,
        /// Its entries.
        len: usize,
        /// Cells of the model.
        cells: usize,
    },
    /// A constraint names a cell the model does not have.
    #[error("{what} names cell {cell}, but the model has {cells} cells")]
    NoSuchCell {
        /// The kind of constraint.
        what: &'static str,
        /// The index.
        cell: usize,
        /// Cells of the model.
        cells: usize,
    },
    /// An equation without terms, with a zero coefficient, or naming a cell twice.
    #[error("equation {0} has no terms, a zero coefficient, or a cell twice")]
    BadEquation(usize),
    /// An equation whose partial sums could overflow 64-bit arithmetic.
    #[error(
        "equation {0} could overflow 64-bit arithmetic (its coefficients times the \
         largest value, plus its target, must stay below 2^62)"
    )]
    Overflow(usize),
    /// A static order that is not a permutation of the cells.
    #[error("the search order does not list every cell exactly once")]
    BadOrder,
    /// A symmetry declared with group order 0.
    #[error("the symmetry group order is 0; expected at least 1")]
    BadGroupOrder,
    /// A generator that is not a permutation of the cells, or complements a value set
    /// that is not symmetric.
    #[error(
        "generator {0} is not a permutation of the cells, or complements values not \
         symmetric about their middle"
    )]
    BadGenerator(usize),
    /// A generator that does not map the model onto itself.
    #[error("generator {0} does not map the model's constraints onto themselves")]
    NotASymmetry(usize),
    /// Generators of a group too large to use.
    #[error("the generators make a group of more than {0} elements")]
    GroupTooLarge(usize),
    /// Boxes of a grid layout with no rows or columns.
    #[error("grid boxes must be at least 1 x 1")]
    EmptyBoxes,
    /// A grid layout whose size is not the number of cells.
    #[error("a {rows} x {columns} grid does not hold {cells} cells")]
    BadGrid {
        /// Grid rows.
        rows: usize,
        /// Grid columns.
        columns: usize,
        /// Cells of the model.
        cells: usize,
    },
}

impl Model {
    /// Checks what the solvers rely on; the parser's models always pass.
    pub fn check(&self) -> Result<(), ModelError> {
        let n = self.cells.len();
        if self.values.len() > MAX_VALUES {
            return Err(ModelError::TooManyValues(self.values.len()));
        }
        if self.values.windows(2).any(|w| w[0] >= w[1]) {
            return Err(ModelError::ValuesNotAscending);
        }
        if self.domains.len() != n {
            return Err(ModelError::PerCell {
                what: "the domain list",
                len: self.domains.len(),
                cells: n,
            });
        }
        let cell = |what: &'static str, c: usize| {
            if c < n {
                Ok(())
            } else {
                Err(ModelError::NoSuchCell {
                    what,
                    cell: c,
                    cells: n,
                })
            }
        };
        for g in &self.groups {
            g.iter().try_for_each(|&c| cell("a distinct group", c))?;
        }
        let largest = self
            .values
            .iter()
            .map(|v| i128::from(v.unsigned_abs()))
            .max()
            .unwrap_or(0);
        for (i, e) in self.equations.iter().enumerate() {
            let mut cells: Vec<usize> = e.terms.iter().map(|t| t.0).collect();
            cells.sort_unstable();
            if e.terms.is_empty()
                || e.terms.iter().any(|t| t.1 == 0)
                || cells.windows(2).any(|w| w[0] == w[1])
            {
                return Err(ModelError::BadEquation(i));
            }
            cells.iter().try_for_each(|&c| cell("an equation", c))?;
            let reach: i128 = e
                .terms
                .iter()
                .map(|t| i128::from(t.1.unsigned_abs()) * largest)
                .sum::<i128>()
                + i128::from(e.target.unsigned_abs());
            if reach >= 1 << 62 {
                return Err(ModelError::Overflow(i));
            }
        }
        let less = self
            .less
            .iter()
            .chain(self.symmetry.iter().flat_map(|s| &s.less));
        for &(a, b) in less {
            cell("an order constraint", a)?;
            cell("an order constraint", b)?;
        }
        if self.symmetry.as_ref().is_some_and(|s| s.group_order == 0) {
            return Err(ModelError::BadGroupOrder);
        }
        let symmetric = |v: &[i64]| {
            v.iter().zip(v.iter().rev()).all(|(a, b)| {
                i128::from(*a) + i128::from(*b) == i128::from(v[0]) + i128::from(v[v.len() - 1])
            })
        };
        for (i, g) in self.generators.iter().enumerate() {
            let mut seen = vec![false; n];
            let permutes = g.image.len() == n
                && g.image
                    .iter()
                    .all(|&c| c < n && !std::mem::replace(&mut seen[c], true));
            if !permutes || (g.complement && !symmetric(&self.values)) {
                return Err(ModelError::BadGenerator(i));
            }
        }
        if let Order::Static(order) = &self.order {
            let mut seen = vec![false; n];
            if order.len() != n
                || order
                    .iter()
                    .any(|&c| c >= n || std::mem::replace(&mut seen[c], true))
            {
                return Err(ModelError::BadOrder);
            }
        }
        match &self.layout {
            Layout::Grid {
                boxes: Some((r, c)),
                ..
            } if *r == 0 || *c == 0 => Err(ModelError::EmptyBoxes),
            Layout::Grid { rows, columns, .. } if rows.checked_mul(*columns) != Some(n) => {
                Err(ModelError::BadGrid {
                    rows: *rows,
                    columns: *columns,
                    cells: n,
                })
            }
            Layout::Drawing(positions) if positions.len() != n => Err(ModelError::PerCell {
                what: "the drawing",
                len: positions.len(),
                cells: n,
            }),
            _ => Ok(()),
        }
    }
}

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
    /// How the search picks the next cell.
    pub order: Order,
}

/// `sum of coefficient * value(cell) == target`, each cell once, no zero coefficient,
/// at least one term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equation {
    pub terms: Vec<(usize, i64)>,
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
        rows: usize,
        columns: usize,
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

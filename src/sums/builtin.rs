//! Built-in number puzzles, written in the `.sum` format and parsed like any file, so
//! `polytile magic-square 4` and `data/magic-square-4.sum` are the same model.

use super::model::Model;
use super::parse::parse;

/// The order-3 magic hexagon: 1..19 in a hexagon of 19 cells, each of its 15 lines
/// sums to 38; symmetry group of order 12.
///
/// ```
/// use polytile::{Mode, Options, SumsSolver};
///
/// let hexagon = polytile::sums::builtin::magic_hexagon();
/// let solver = SumsSolver::new(&hexagon, Mode::Distinct).unwrap();
/// let summary = solver.count(&Options::default());
/// assert_eq!((summary.solutions, summary.total), (1, 12));
/// ```
pub fn magic_hexagon() -> Model {
    parse(&magic_hexagon_text(), "<magic-hexagon>").expect("the built-in magic hexagon parses")
}

/// The `.sum` text of [`magic_hexagon`]: `data/magic-hexagon.sum`, compiled in, so
/// the built-in puzzle and the file are one model with one search order.
pub fn magic_hexagon_text() -> String {
    include_str!("../../data/magic-hexagon.sum").to_string()
}

/// A magic square order whose values do not fit one 64-bit domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "magic square order {0} is not supported (expected 1 to 8: the n² values must fit one 64-bit domain)"
)]
pub struct UnsupportedOrder(pub usize);

/// The magic square of order `n` (1 to 8): 1..n² in an n x n grid, rows, columns and
/// both diagonals summing to n(n² + 1)/2; symmetry group of order 8.
///
/// ```
/// let square = polytile::sums::builtin::magic_square(4).unwrap();
/// assert_eq!(square.cells.len(), 16);
/// assert!(polytile::sums::builtin::magic_square(9).is_err());
/// ```
pub fn magic_square(n: usize) -> Result<Model, UnsupportedOrder> {
    let text = magic_square_text(n)?;
    Ok(parse(&text, &format!("<magic-square {n}>")).expect("the built-in magic squares parse"))
}

/// The `.sum` text of [`magic_square`].
pub fn magic_square_text(n: usize) -> Result<String, UnsupportedOrder> {
    if !(1..=8).contains(&n) {
        return Err(UnsupportedOrder(n));
    }
    let sum = n * (n * n + 1) / 2;
    let cell = |r: usize, c: usize| format!("r{}c{}", r + 1, c + 1);
    let mut text = format!(
        "name: magic-square-{n}\nvalues: 1..{}\ngrid: {n} x {n}\ndistinct: all\n",
        n * n
    );
    let mut line = |cells: Vec<String>| {
        text.push_str(&cells.join(" + "));
        text.push_str(&format!(" = {sum}\n"));
    };
    for r in 0..n {
        line((0..n).map(|c| cell(r, c)).collect());
    }
    for c in 0..n {
        line((0..n).map(|r| cell(r, c)).collect());
    }
    line((0..n).map(|i| cell(i, i)).collect());
    line((0..n).map(|i| cell(i, n - 1 - i)).collect());
    if n > 1 {
        // The least corner goes top left (fixes the rotation); the top-right corner
        // below the bottom-left one picks one of the two mirror images.
        let (a, b, c, d) = (
            cell(0, 0),
            cell(0, n - 1),
            cell(n - 1, 0),
            cell(n - 1, n - 1),
        );
        text.push_str(&format!(
            "symmetry 8: {a} < {b}, {a} < {c}, {a} < {d}, {b} < {c}\n"
        ));
    }
    // As the data files ask: the order derived from the lines costs tens of
    // nanoseconds a node, the smallest domain first hundreds (docs/sums-format.md).
    text.push_str("order: static\n");
    Ok(text)
}

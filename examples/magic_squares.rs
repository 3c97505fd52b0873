//! Count magic squares of order N (default 4) with the built-in model: all of them,
//! and up to the square's 8 rotations and reflections. Order 5 has 2,202,441,792
//! (takes minutes); order 4 has 7,040.
//!
//! ```sh
//! cargo run --release --example magic_squares -- 4
//! ```

use polytile::sums::builtin::magic_square;
use polytile::{Mode, Options, SumsSolver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let order: usize = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 4,
    };
    let model = magic_square(order)?;
    let options = Options {
        threads: polytile::default_threads(),
        stats: true,
        ..Options::default()
    };
    let all = SumsSolver::new(&model, Mode::All)?.count(&options);
    let distinct = SumsSolver::new(&model, Mode::Distinct)?.count(&options);
    println!(
        "order {order}: {} magic squares, {} up to symmetry ({} nodes)",
        all.solutions,
        distinct.solutions,
        all.nodes.unwrap_or(0)
    );
    Ok(())
}

//! Any bytes given to the puzzle parser: an error with a position inside the text and a
//! one-line message, or a puzzle that keeps the parser's promises and survives being
//! written out and read back.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "errors.rs"]
mod errors;
use polytile::Puzzle;

fuzz_target!(|data: &[u8]| {
    match Puzzle::parse_bytes(data, "fuzz.puz") {
        Err(e) => errors::check(&e.to_string(), e.position(), data),
        Ok(puzzle) => {
            let area = puzzle.board.cells.iter().filter(|&&c| c).count();
            assert!(area >= 1);
            let total: u64 = puzzle
                .pieces
                .iter()
                .map(|p| p.cells.len() as u64 * u64::from(p.count))
                .sum();
            assert!(total == area as u64 || (puzzle.allow_leftover && total > area as u64));
            for p in &puzzle.pieces {
                assert!(!p.cells.is_empty() && p.cells.len() <= area && p.count >= 1);
            }
            let text = puzzle.to_text();
            let again = Puzzle::parse(&text, "again.puz")
                .unwrap_or_else(|e| panic!("written puzzle does not parse: {e}\n{text}"));
            assert_eq!(again.board, puzzle.board, "{text}");
            assert_eq!(again.pieces, puzzle.pieces, "{text}");
            assert_eq!(again.allow_leftover, puzzle.allow_leftover, "{text}");
        }
    }
});

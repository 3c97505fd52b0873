//! Shared by the integration tests: the known meteor facts, the Benchmarks Game output
//! parser and an independent verifier ([`verify`]).
//!
//! Known facts: the Benchmarks Game meteor-contest reference output (`2098_out`) and
//! `../shared/known-counts.md`: 2098 solutions, 1049 up to the half turn, the smallest
//! and largest solutions below.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

pub mod cli;
pub mod sums;
pub mod tiling;
pub mod verify;

use std::path::PathBuf;

/// Solutions of the full puzzle (Benchmarks Game meteor-contest reference output).
pub const ALL_SOLUTIONS: usize = 2098;

/// The smallest solution (Benchmarks Game; `../shared/known-counts.md`).
pub const SMALLEST: &str = "00001222012661126155865558633348893448934747977799";

/// The largest solution (Benchmarks Game; `../shared/known-counts.md`).
pub const LARGEST: &str = "99998966856688568255777257472014220144031400311333";

/// A board from its 50-digit string.
pub fn board(s: &str) -> [u8; verify::CELLS] {
    s.as_bytes()
        .try_into()
        .expect("a board string has 50 cells")
}

/// Where the Benchmarks Game reference output lives, next to the repository.
pub fn reference_output_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/meteor/2098_out")
}

/// The Benchmarks Game reference output, when this machine has it.
pub fn reference_output() -> Option<Vec<u8>> {
    std::fs::read(reference_output_path()).ok()
}

/// The Benchmarks Game output the full run must print, built from the known facts.
pub fn expected_full_output() -> String {
    let mut out = format!("{ALL_SOLUTIONS} solutions found\n\n");
    for b in [SMALLEST, LARGEST] {
        for (row, cells) in b.as_bytes().chunks(verify::WIDTH).enumerate() {
            if row % 2 == 1 {
                out.push(' ');
            }
            for &c in cells {
                out.push(c as char);
                out.push(' ');
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Parses meteor output, checking every formatting rule: `<count> solutions found`, a
/// blank line, then boards of 10 lines (each cell followed by one space, odd rows
/// indented by one space) each followed by a blank line, and nothing else.
pub fn parse_output(text: &str) -> Result<(usize, Vec<[u8; verify::CELLS]>), String> {
    let body = text
        .strip_suffix('\n')
        .ok_or("output does not end with a newline")?;
    let lines: Vec<&str> = body.split('\n').collect();
    let count: usize = lines[0]
        .strip_suffix(" solutions found")
        .ok_or_else(|| format!("bad count line {:?}", lines[0]))?
        .parse()
        .map_err(|e| format!("bad count in {:?}: {e}", lines[0]))?;
    if lines.get(1) != Some(&"") {
        return Err("no blank line after the count".into());
    }
    let rest = &lines[2..];
    let board_lines = verify::HEIGHT + 1;
    if rest.len() % board_lines != 0 {
        return Err(format!("{} lines after the count line", rest.len()));
    }
    let mut boards = Vec::new();
    for chunk in rest.chunks(board_lines) {
        let mut b = Vec::with_capacity(verify::CELLS);
        for (row, line) in chunk[..verify::HEIGHT].iter().enumerate() {
            let cells = if row % 2 == 1 {
                line.strip_prefix(' ')
                    .ok_or_else(|| format!("odd row {row} not indented: {line:?}"))?
            } else {
                line
            };
            let bytes = cells.as_bytes();
            if bytes.len() != 2 * verify::WIDTH
                || bytes
                    .chunks(2)
                    .any(|p| !p[0].is_ascii_digit() || p[1] != b' ')
            {
                return Err(format!("bad row {row}: {line:?}"));
            }
            b.extend(bytes.iter().step_by(2));
        }
        if !chunk[verify::HEIGHT].is_empty() {
            return Err("no blank line after a board".into());
        }
        boards.push(b.try_into().unwrap());
    }
    Ok((count, boards))
}

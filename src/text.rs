//! Small text helpers shared by the two file parsers (`puzzle` and `sums`): reading a
//! file with a size bound, words with their columns, and where invalid UTF-8 starts.
//! Columns count characters from 1.

use std::io::Read as _;
use std::path::Path;

/// The largest input file read, in bytes (16 MiB): far beyond any puzzle a person
/// writes, and small enough that a wrong file (a device, an archive) is refused at
/// once instead of being read into memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum ReadError {
    Io(std::io::Error),
    TooLarge,
}

/// The bytes of the file at `path`, if it holds at most [`MAX_FILE_BYTES`]; reading
/// stops one byte past the bound.
pub(crate) fn read_bounded(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

/// Words of `text` split at characters where `sep` holds, each with its column; `text`
/// starts at column `start`.
pub(crate) fn words(text: &str, start: usize, sep: fn(char) -> bool) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut word: Option<(usize, usize)> = None;
    for (column, (i, ch)) in (start..).zip(text.char_indices()) {
        if sep(ch) {
            if let Some((b, c)) = word.take() {
                out.push((&text[b..i], c));
            }
        } else if word.is_none() {
            word = Some((i, column));
        }
    }
    if let Some((b, c)) = word {
        out.push((&text[b..], c));
    }
    out
}

/// Where the first invalid byte of `bytes` is: `(line, column, byte)`, the column
/// counted in characters of the valid part of its line (after a byte-order mark at the
/// start of the file, which the parsers skip).
pub(crate) fn utf8_error_at(bytes: &[u8], error: &std::str::Utf8Error) -> (usize, usize, u8) {
    let good = &bytes[..error.valid_up_to()];
    let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    // `good` is valid UTF-8, so this slice of it is too.
    let line = std::str::from_utf8(&good[line_start..]).unwrap_or("");
    let line = if line_start == 0 {
        line.strip_prefix('\u{feff}').unwrap_or(line)
    } else {
        line
    };
    let line_number = good.iter().filter(|&&b| b == b'\n').count() + 1;
    let byte = bytes.get(error.valid_up_to()).copied().unwrap_or(0);
    (line_number, line.chars().count() + 1, byte)
}

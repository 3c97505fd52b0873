//! What both parser targets require of a parse error.

/// A parse error of `data`: one line, with a line and column that lie in the text
/// (a line may be the one just past the last, for what is missing at the end).
pub fn check(message: &str, position: Option<(usize, usize)>, data: &[u8]) {
    assert!(!message.contains('\n'), "{message:?}");
    let (line, column) = position.expect("parse errors have a position");
    assert!(line >= 1 && column >= 1, "{message}");
    assert!(line <= data.split(|&b| b == b'\n').count() + 1, "{message}");
}

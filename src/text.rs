//! Positions in text: a byte offset as the line and column an author sees.

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The start of the character at byte `offset` (the offset itself on a boundary).
pub fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters() {
        assert_eq!(line_column("ab\n분산x", 0), (1, 1));
        assert_eq!(line_column("ab\n분산x", 3), (2, 1));
        assert_eq!(line_column("ab\n분산x", 9), (2, 3));
        assert_eq!(line_column("ab\n분산x", 4), (2, 1), "inside a character: its start");
        assert_eq!(line_column("ab", 99), (1, 3));
    }
}

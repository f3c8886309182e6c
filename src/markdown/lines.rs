//! Byte offsets in a body → lines and columns of the file it came from.
//!
//! The table of line starts is built on first use (an export without source
//! lines and without problems never builds it) and searched by bisection, so a
//! long post costs one pass over its bytes, not one per block.

use crate::text::floor_char_boundary;

pub(super) struct LineIndex<'a> {
    text: &'a str,
    first_line: usize,
    starts: Option<Vec<usize>>,
    /// The last column asked for, as (line start, offset, column): the next
    /// one on the same line is counted from there, so many problems on one
    /// huge line do not count its characters again and again.
    last_column: (usize, usize, usize),
}

impl<'a> LineIndex<'a> {
    /// `first_line` is the file line where `text` starts; 0 means 1.
    pub(super) fn new(text: &'a str, first_line: usize) -> Self {
        Self { text, first_line: first_line.max(1), starts: None, last_column: (usize::MAX, 0, 0) }
    }

    /// The file line (1-based) holding byte `offset` of the text.
    pub(super) fn line(&mut self, offset: usize) -> usize {
        self.first_line + self.line_index(offset).0
    }

    /// The file line and the 1-based character column of byte `offset`.
    pub(super) fn line_column(&mut self, offset: usize) -> (usize, usize) {
        let (index, start) = self.line_index(offset);
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()).max(start));
        let (cached_start, cached_offset, cached_column) = self.last_column;
        let column = if cached_start == start && cached_offset <= offset {
            cached_column + self.text[cached_offset..offset].chars().count()
        } else {
            1 + self.text[start..offset].chars().count()
        };
        self.last_column = (start, offset, column);
        (self.first_line + index, column)
    }

    /// (0-based line index, byte offset where that line starts).
    fn line_index(&mut self, offset: usize) -> (usize, usize) {
        let text = self.text;
        let starts = self.starts.get_or_insert_with(|| {
            let mut starts = Vec::with_capacity(text.len() / 32 + 1);
            starts.push(0);
            // `match_indices` of a char finds it with memchr, many bytes at a time.
            starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
            starts
        });
        // `starts[0] == 0 <= offset`, so the partition point is at least 1.
        let index = starts.partition_point(|&start| start <= offset) - 1;
        (index, starts[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_from_first_line() {
        let mut lines = LineIndex::new("a\nbc\n\nd", 5);
        assert_eq!(lines.line(0), 5);
        assert_eq!(lines.line(1), 5); // the newline belongs to its line
        assert_eq!(lines.line(2), 6);
        assert_eq!(lines.line(5), 7);
        assert_eq!(lines.line(6), 8);
        assert_eq!(lines.line(100), 8);
        assert_eq!(LineIndex::new("x", 0).line(0), 1);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "한글 [x](y)\n가 [z](w)";
        let mut lines = LineIndex::new(text, 1);
        let first = text.find('[').unwrap();
        assert_eq!(lines.line_column(first), (1, 4));
        let second = text.rfind('[').unwrap();
        assert_eq!(lines.line_column(second), (2, 3));
        // Asking again, and going backwards on a line, gives the same answers.
        assert_eq!(lines.line_column(first), (1, 4));
        assert_eq!(lines.line_column(first + 1), (1, 5));
        assert_eq!(lines.line_column(0), (1, 1));
    }
}

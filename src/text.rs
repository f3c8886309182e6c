//! Positions in text: a byte offset as the line and column an author sees;
//! the order of paths, as lists of files show them; and percent-escapes
//! read back (`%EB%B6%84` → `분`).

use std::cmp::Ordering;
use std::path::Path;

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

/// The order of two relative paths folder by folder (`a/b.md` before
/// `a-b.md`), as `Path` orders them, but byte by byte with the separator
/// first: the same order for a blog's paths, without taking them apart, which
/// counts when thousands are sorted.
pub fn path_order(a: &Path, b: &Path) -> Ordering {
    let (a, b) = (a.as_os_str().as_encoded_bytes(), b.as_os_str().as_encoded_bytes());
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(at) if a[at] == b'/' => Ordering::Less,
        Some(at) if b[at] == b'/' => Ordering::Greater,
        Some(at) => a[at].cmp(&b[at]),
        None => a.len().cmp(&b.len()),
    }
}

/// `%EB%B6%84` → `분`; malformed escapes are left as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: &u8| (*b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (bytes.get(i + 1).and_then(hex), bytes.get(i + 2).and_then(hex))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_order_folder_by_folder() {
        let mut paths: Vec<&Path> = ["a-b.md", "a/b.md", "a.md", "a", "b/c/d.md", "b/c.md", "분산.md", "A.md"]
            .into_iter()
            .map(Path::new)
            .collect();
        let mut by_path = paths.clone();
        by_path.sort();
        paths.sort_by(|a, b| path_order(a, b));
        assert_eq!(paths, by_path);
    }

    #[test]
    fn lines_and_columns_count_characters() {
        assert_eq!(line_column("ab\n분산x", 0), (1, 1));
        assert_eq!(line_column("ab\n분산x", 3), (2, 1));
        assert_eq!(line_column("ab\n분산x", 9), (2, 3));
        assert_eq!(line_column("ab\n분산x", 4), (2, 1), "inside a character: its start");
        assert_eq!(line_column("ab", 99), (1, 3));
    }
}

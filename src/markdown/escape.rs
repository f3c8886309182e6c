//! Escaping for the HTML writer: pulldown-cmark-escape, plus the one thing it
//! leaves alone that HTML5 forbids: NUL characters, which pulldown-cmark passes
//! through from the source. They become U+FFFD, as a browser would show them.

use std::borrow::Cow;

use pulldown_cmark_escape::{escape_href, escape_html, escape_html_body_text};

const REPLACEMENT: &str = "\u{FFFD}";

/// Text between tags (`<`, `>`, `&` escaped).
pub(super) fn text(out: &mut String, s: &str) {
    each_part(out, s, |out, part| {
        let _ = escape_html_body_text(out, part);
    });
}

/// A double-quoted attribute value (quotes escaped too).
pub(super) fn attr(out: &mut String, s: &str) {
    each_part(out, s, |out, part| {
        let _ = escape_html(out, part);
    });
}

/// A URL in `href`/`src`: unsafe bytes percent-encoded (NUL becomes `%00`).
pub(super) fn href(out: &mut String, s: &str) {
    let _ = escape_href(out, s);
}

/// Raw HTML from the post, passed through as the author wrote it.
pub(super) fn raw(out: &mut String, s: &str) {
    each_part(out, s, |out, part| out.push_str(part));
}

/// `s` with NUL replaced, borrowed when there is none (the usual case).
pub(super) fn without_nul(s: &str) -> Cow<'_, str> {
    if s.as_bytes().contains(&0) { Cow::Owned(s.replace('\0', REPLACEMENT)) } else { Cow::Borrowed(s) }
}

fn each_part(out: &mut String, s: &str, mut write: impl FnMut(&mut String, &str)) {
    if !s.as_bytes().contains(&0) {
        write(out, s);
        return;
    }
    let mut parts = s.split('\0');
    if let Some(first) = parts.next() {
        write(out, first);
    }
    for part in parts {
        out.push_str(REPLACEMENT);
        write(out, part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_becomes_replacement_character() {
        let mut out = String::new();
        text(&mut out, "a\0<b>\0");
        assert_eq!(out, "a\u{FFFD}&lt;b&gt;\u{FFFD}");
        out.clear();
        attr(&mut out, "\"x\"\0");
        assert_eq!(out, "&quot;x&quot;\u{FFFD}");
        out.clear();
        href(&mut out, "a b\0");
        assert_eq!(out, "a%20b%00");
    }
}

//! Writing YAML values as text that reads back as exactly the same value, and
//! finding where a one-line value ends (so a comment after it can be kept).

use super::PostDate;

/// How a scalar is quoted. Edits keep the style a field (or list) already had
/// when the new value can be written that way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    Plain,
    Single,
    Double,
}

impl Quote {
    /// The style of an existing value, from its first character.
    pub fn of(value: &str) -> Quote {
        match value.chars().next() {
            Some('\'') => Quote::Single,
            Some('"') => Quote::Double,
            _ => Quote::Plain,
        }
    }
}

/// Where the scalar is written: flow lists (`[a, b]`) reserve `,[]{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    Block,
    Flow,
}

/// `text` as a YAML scalar in the `preferred` style, falling back to double
/// quotes (which can write any string) when that style cannot hold it.
pub(crate) fn scalar(text: &str, preferred: Quote, context: Context) -> String {
    match preferred {
        Quote::Plain if is_safe_plain(text, context) => text.to_string(),
        Quote::Single if text.chars().all(|c| is_printable(c) && c != '\n' && c != '\r') => {
            format!("'{}'", text.replace('\'', "''"))
        }
        _ => double_quoted(text),
    }
}

/// A date in the given style; unquoted it still reads as text (`2026-07-17`),
/// which is what Hugo, Jekyll and the starter write.
pub(crate) fn date(date: &PostDate, quote: Quote) -> String {
    let text = date.to_string();
    match quote {
        Quote::Plain => text,
        Quote::Single => format!("'{text}'"),
        Quote::Double => format!("\"{text}\""),
    }
}

/// `[a, b]`, or `[ a, b ]` when the list was written with inner spaces.
pub(crate) fn flow_list(items: &[String], quote: Quote, padded: bool) -> String {
    if items.is_empty() {
        return "[]".to_string();
    }
    let items: Vec<String> = items.iter().map(|item| scalar(item, quote, Context::Flow)).collect();
    let pad = if padded { " " } else { "" };
    format!("[{pad}{}{pad}]", items.join(", "))
}

/// Plain (unquoted) only where no YAML reader could take it for anything but
/// this exact text: it starts with a letter, has no `: ` or ` #`, is not a
/// word YAML reads as a boolean or null, and has no edge whitespace.
fn is_safe_plain(text: &str, context: Context) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let last = text.chars().last().unwrap_or(first);
    let reserved = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf", "infinity"];
    (first.is_alphabetic() || first == '_')
        && !last.is_whitespace()
        && text.chars().all(|c| is_printable(c) && c != '\t')
        && !text.contains(": ")
        && !text.ends_with(':')
        && !text.contains(" #")
        && !reserved.iter().any(|word| text.eq_ignore_ascii_case(word))
        && (context == Context::Block || !text.contains([',', '[', ']', '{', '}', ':']))
}

/// Characters YAML lets stand for themselves in a one-line scalar. Line
/// separators that YAML 1.1 readers break lines at are escaped too.
fn is_printable(c: char) -> bool {
    !(c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}')) || c == '\t'
}

/// Double quotes can write any string: everything unprintable is escaped.
pub(crate) fn double_quoted(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c if !is_printable(c) => quoted.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The byte length of the value at the start of `value` (one line), so that
/// what follows it (` # comment`) can be told apart; `None` when it does not
/// end on this line (an unclosed quote or bracket).
pub(crate) fn token_len(value: &str) -> Option<usize> {
    let mut chars = value.char_indices().peekable();
    match value.chars().next()? {
        '"' => {
            chars.next();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => return Some(at + 1),
                    _ => {}
                }
            }
            None
        }
        '\'' => {
            chars.next();
            while let Some((at, c)) = chars.next() {
                if c == '\'' {
                    if chars.peek().is_some_and(|&(_, next)| next == '\'') {
                        chars.next();
                    } else {
                        return Some(at + 1);
                    }
                }
            }
            None
        }
        '[' | '{' => flow_len(value),
        _ => {
            // A plain scalar (or a block scalar header) ends where a comment starts.
            let end = value.find(" #").or_else(|| value.find("\t#")).unwrap_or(value.len());
            Some(value[..end].trim_end().len())
        }
    }
}

fn flow_len(value: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    let mut chars = value.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match quote {
            Some('"') if c == '\\' => {
                chars.next();
            }
            Some('\'') if c == '\'' && chars.peek().is_some_and(|&(_, next)| next == '\'') => {
                chars.next();
            }
            Some(open) if c == open => quote = None,
            Some(_) => {}
            // Quotes open a scalar only at its start, after `[`, `{`, `,`, `:` or a space.
            None if (c == '"' || c == '\'') && matches!(previous, '[' | '{' | ',' | ':' | ' ' | '\t') => {
                quote = Some(c)
            }
            None if c == '[' || c == '{' => depth += 1,
            None if c == ']' || c == '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            None if c == '#' && matches!(previous, ' ' | '\t') => return None,
            None => {}
        }
        previous = c;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_only_when_safe() {
        for text in
            ["Hello", "분산 학습", "C# tips", "it's fine", "https://example.com/a", "a - b", "Rust 2024", "say \"hi\""]
        {
            assert_eq!(scalar(text, Quote::Plain, Context::Block), text, "{text:?}");
        }
        for (text, written) in [
            ("", "\"\""),
            ("a: b", "\"a: b\""),
            ("a #b", "\"a #b\""),
            ("yes", "\"yes\""),
            ("Null", "\"Null\""),
            ("2026", "\"2026\""),
            ("- item", "\"- item\""),
            (" lead", "\" lead\""),
            ("trail ", "\"trail \""),
            ("*bold*", "\"*bold*\""),
            ("a\nb", "\"a\\nb\""),
            ("\"hi\" she said", "\"\\\"hi\\\" she said\""),
            ("back\\slash", "back\\slash"),
        ] {
            assert_eq!(scalar(text, Quote::Plain, Context::Block), written, "{text:?}");
        }
        assert_eq!(scalar("a, b", Quote::Plain, Context::Flow), "\"a, b\"");
        assert_eq!(scalar("a, b", Quote::Plain, Context::Block), "a, b");
    }

    #[test]
    fn keeps_single_quotes_when_it_can() {
        assert_eq!(scalar("it's", Quote::Single, Context::Flow), "'it''s'");
        assert_eq!(scalar("two\nlines", Quote::Single, Context::Flow), "\"two\\nlines\"");
    }

    #[test]
    fn escapes_what_is_not_printable() {
        assert_eq!(double_quoted("\u{7}\u{2028}\u{feff}é"), "\"\\u0007\\u2028\\uFEFFé\"");
    }

    #[test]
    fn writes_lists_and_dates() {
        let items = vec!["rust".to_string(), "a, b".to_string()];
        assert_eq!(flow_list(&items, Quote::Plain, false), "[rust, \"a, b\"]");
        assert_eq!(flow_list(&items, Quote::Single, true), "[ 'rust', 'a, b' ]");
        assert_eq!(flow_list(&[], Quote::Plain, false), "[]");
        let day = PostDate::parse("2026-07-17").unwrap();
        assert_eq!(date(&day, Quote::Plain), "2026-07-17");
        assert_eq!(date(&day, Quote::Single), "'2026-07-17'");
    }

    #[test]
    fn finds_where_a_value_ends() {
        assert_eq!(token_len("Hello world # note"), Some(11));
        assert_eq!(token_len("\"a # b\" # note"), Some(7));
        assert_eq!(token_len("\"a \\\" b\""), Some(8));
        assert_eq!(token_len("'it''s' # x"), Some(7));
        assert_eq!(token_len("[a, \"b]\", [c]] # x"), Some(14));
        assert_eq!(token_len("[a,"), None);
        assert_eq!(token_len("\"open"), None);
        assert_eq!(token_len("C#"), Some(2));
    }
}

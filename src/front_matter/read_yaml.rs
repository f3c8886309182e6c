//! Reading YAML front matter into its top-level fields, in file order, each
//! with the line its key is on; YAML errors become problems at file lines.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_saphyr::{Error, MessageFormatter, Spanned, UserMessageFormatter};

use super::fields::RawField;
use crate::diagnostics::Problem;

/// Reads `text`, whose first line is line `first_line` of the file. A key
/// given twice is an error: what edits the front matter must know which one
/// it changes.
pub(crate) fn read(text: &str, first_line: usize) -> Result<Vec<RawField>, Problem> {
    let fields = read_all(text, first_line)?;
    for (n, field) in fields.iter().enumerate() {
        if let Some(again) = fields[n + 1..].iter().find(|other| other.key == field.key) {
            return Err(Problem::error(
                again.line,
                again.column,
                format!("`{}` is given twice (first on line {})", field.key, field.line),
            )
            .with_hint(format!("keep one `{}` and delete the other", field.key)));
        }
    }
    Ok(fields)
}

/// [`read`] as the tools read a post or their settings: a key given twice
/// takes its last value, as Ruby's YAML (Jekyll) and the other tools' YAML
/// libraries do for a mapping, with a warning at the first of them.
pub(crate) fn read_lenient(text: &str, first_line: usize) -> Result<(Vec<RawField>, Vec<Problem>), Problem> {
    let mut problems = Vec::new();
    let mut fields: Vec<RawField> = Vec::new();
    for field in read_all(text, first_line)? {
        match fields.iter_mut().find(|kept| kept.key == field.key) {
            Some(kept) => {
                let message =
                    format!("`{}` is given twice (first on line {}); the last one is used", field.key, kept.line);
                let hint = format!("keep one `{}` and delete the other", field.key);
                problems.push(Problem::warning(field.line, field.column, message).with_hint(hint));
                kept.value = field.value;
            }
            None => fields.push(field),
        }
    }
    Ok((fields, problems))
}

fn read_all(text: &str, first_line: usize) -> Result<Vec<RawField>, Problem> {
    match serde_saphyr::from_str_with_options::<Root>(text, options()) {
        Ok(Root::Fields(fields)) => {
            let lines = TextLines::of(text);
            Ok(fields
                .into_iter()
                .map(|(key, value)| {
                    let (line, column) = lines.at(key.referenced.line(), key.referenced.column().max(1) as usize);
                    RawField { line: file_line(line, first_line), column, key: key.value, value }
                })
                .collect())
        }
        Ok(Root::Other(what)) => {
            Err(Problem::error(first_line, 1, format!("front matter must be `key: value` fields, not {what}"))
                .with_hint("write one field per line, such as `title: My post`"))
        }
        Err(error) => Err(problem(&error, text, first_line)),
    }
}

/// Limits for a few dozen fields: generous for any real post, and small enough
/// that a hostile file (an alias "billion laughs", deep nesting, a flood of
/// nodes) is refused after a few thousand steps instead of eating memory.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: 32,
            max_documents: 1,
            max_nodes: 100_000,
            max_events: 200_000,
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_total_scalar_bytes: 16 * 1024 * 1024,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 10_000,
            max_replay_stack_depth: 16,
        },
        // Keep values as the author wrote them where YAML would otherwise guess:
        // `0755` and `1_000` stay text, `.nan` stays text instead of failing.
        leading_zero_numbers_as_strings: true,
        underscored_numbers_as_strings: true,
        non_finite_float_policy: serde_saphyr::NonFiniteFloatPolicy::AsString,
        // Every entry reaches `Root`, a key given twice too: `read` and
        // `read_lenient` say what becomes of it.
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::PassThrough,
        // A key spelled `null` or `~` is still a key.
        null_as_string: true,
        // Problems carry their own line and hint; no rendered snippet needed.
        with_snippet: false,
    }
}

fn file_line(line: usize, first_line: usize) -> usize {
    line.max(1).saturating_add(first_line - 1)
}

/// The parser's lines in terms of the text's own. YAML also ends a line at a
/// lone `\r`, which `split`, the editor and every other line Hanji reports do
/// not; without this a problem or key after one points past the end of the file.
struct TextLines {
    /// For each parser line (0-based), its 1-based line in the text and how
    /// many characters come before it on that line. `None` when the text has
    /// no lone `\r` (the usual case): the lines agree.
    starts: Option<Vec<(usize, usize)>>,
}

impl TextLines {
    fn of(text: &str) -> TextLines {
        let bytes = text.as_bytes();
        let lone_cr = |at: usize| bytes[at] == b'\r' && bytes.get(at + 1) != Some(&b'\n');
        if !(0..bytes.len()).any(lone_cr) {
            return TextLines { starts: None };
        }
        let mut starts = vec![(1, 0)];
        let (mut line, mut column) = (1, 0);
        for (at, c) in text.char_indices() {
            column += 1;
            if c == '\n' {
                (line, column) = (line + 1, 0);
                starts.push((line, 0));
            } else if c == '\r' && lone_cr(at) {
                starts.push((line, column));
            }
        }
        TextLines { starts: Some(starts) }
    }

    /// The text's line and column for the parser's 1-based `line` and `column`.
    fn at(&self, line: u64, column: usize) -> (usize, usize) {
        let line = usize::try_from(line).unwrap_or(usize::MAX).max(1);
        match &self.starts {
            None => (line, column),
            Some(starts) => {
                let (line, before) = starts.get(line - 1).or(starts.last()).copied().unwrap_or((1, 0));
                (line, before + column)
            }
        }
    }
}

/// The parser's 1-based `line` of `text` (lines end at `\n`, `\r\n` or a lone `\r`).
fn parser_line(text: &str, line: usize) -> &str {
    text.split('\n')
        .flat_map(|line| line.strip_suffix('\r').unwrap_or(line).split('\r'))
        .nth(line.saturating_sub(1))
        .unwrap_or("")
}

enum Root {
    Fields(Vec<(Spanned<String>, Value)>),
    /// What the document is instead of a mapping ("a list", "a single value").
    Other(&'static str),
}

impl<'de> Deserialize<'de> for Root {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Root, D::Error> {
        deserializer.deserialize_any(RootVisitor)
    }
}

struct RootVisitor;

impl<'de> Visitor<'de> for RootVisitor {
    type Value = Root;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("front matter fields")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Root, A::Error> {
        let mut fields = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            fields.push((key, map.next_value::<Value>()?));
        }
        Ok(Root::Fields(fields))
    }

    // Front matter with nothing but comments (or nothing) is an empty mapping.
    fn visit_unit<E: de::Error>(self) -> Result<Root, E> {
        Ok(Root::Fields(Vec::new()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Root, E> {
        Ok(Root::Fields(Vec::new()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Root, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Root::Other("a list"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Root, E> {
        Ok(Root::Other("a single value"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Root, E> {
        Ok(Root::Other("a single value"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Root, E> {
        Ok(Root::Other("a single value"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Root, E> {
        Ok(Root::Other("a single value"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Root, E> {
        Ok(Root::Other("a single value"))
    }
}

/// A YAML error as a problem at the file's line, in words for someone writing a
/// blog post rather than a YAML parser's.
fn problem(error: &Error, text: &str, first_line: usize) -> Problem {
    let error = error.without_snippet();
    let (parsed_line, parsed_column) = match error.location() {
        Some(at) if at.line() > 0 => (at.line(), at.column().max(1) as usize),
        _ => (1, 1),
    };
    let source_line = parser_line(text, usize::try_from(parsed_line).unwrap_or(usize::MAX));
    let (line, column) = TextLines::of(text).at(parsed_line, parsed_column);
    let at_line = file_line(line, first_line);

    if let Error::DuplicateMappingKey { key: Some(key), .. } = error {
        let first =
            first_key_line(text, key).map_or(String::new(), |first| format!(" (first on line {})", first + first_line));
        return Problem::error(at_line, column, format!("`{key}` is given twice{first}"))
            .with_hint(format!("keep one `{key}` and delete the other"));
    }

    let parser_message = UserMessageFormatter.format_message(error).into_owned();
    let mut message: String = parser_message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    // The parser quotes like `this'; say it plainly.
    if let Some(character) = message.strip_prefix("unexpected character: `") {
        message = format!("unexpected character `{}`", character.trim_end_matches('\''));
    }
    let problem = |message: String| Problem::error(at_line, column, message);

    let too_much = matches!(
        error,
        Error::Budget { .. }
            | Error::AliasReplayLimitExceeded { .. }
            | Error::AliasExpansionLimitExceeded { .. }
            | Error::AliasReplayStackDepthExceeded { .. }
            | Error::AliasReplayCounterOverflow { .. }
    );
    if too_much || message.contains("recursion limit") || message.contains("too large") {
        return problem("the front matter is too big or too deeply nested to read".into())
            .with_hint("front matter holds a post's fields; check for runaway `&anchor`/`*alias` use or nesting");
    }
    let hint = if source_line.contains('\0') {
        "delete the NUL character (a zero byte, often left by a crashed editor or a binary paste): YAML does not allow it"
            .into()
    } else if message.contains("mapping values are not allowed") || message.contains("unexpected character") {
        quote_value_hint(source_line)
    } else if message.contains("unknown anchor") || message.contains("unknown value") {
        "a value that starts with `*` must be quoted, e.g. `title: \"*bold* claims\"`".into()
    } else if message.contains("quote") || message.contains("quoted scalar") {
        "close the quote; inside '…' write '' for a quote, inside \"…\" write \\\"".into()
    } else if message.contains("illegal placement of ':'") {
        "is a `[` or `{` on a line above left open? close it on its own line".into()
    } else if message.contains("unclosed bracket") {
        "close the list with `]` (or the mapping with `}`) on the same line".into()
    } else if message.contains("tab") {
        "indent with spaces: YAML does not allow tabs for indentation".into()
    } else if message.contains("cannot start any token") || message.contains("tag") {
        quote_value_hint(source_line)
    } else if message.contains("expected key") || message.contains("indicator") || message.contains("indent") {
        "check this line's indentation: fields of the same level start in the same column".into()
    } else {
        "front matter between `---` lines is YAML: put values with `: `, ` #` or a leading special character in quotes"
            .into()
    };
    problem(format!("YAML: {message}")).with_hint(hint)
}

/// "put the value in quotes: `title: "a: b"`", using the offending line itself.
fn quote_value_hint(line: &str) -> String {
    match line.split_once(':') {
        Some((key, value)) if !key.trim().is_empty() && !value.trim().is_empty() => {
            let value = value.trim().replace('\\', "\\\\").replace('"', "\\\"");
            format!("put the value in double quotes: `{}: \"{value}\"`", key.trim_end())
        }
        _ => "put the value in double quotes".into(),
    }
}

/// The 0-based line of `key`'s first appearance, for naming both copies of a
/// duplicate. A plain scan: good enough to point a finger.
fn first_key_line(text: &str, key: &str) -> Option<usize> {
    text.lines().position(|line| {
        let line = line.trim_start();
        [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
            .iter()
            .any(|spelled| line.strip_prefix(spelled.as_str()).is_some_and(|rest| rest.trim_start().starts_with(':')))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<(String, usize, Value)> {
        read(text, 2).unwrap().into_iter().map(|field| (field.key, field.line, field.value)).collect()
    }

    #[test]
    fn a_lone_carriage_return_is_no_line_of_the_file() {
        // Found by fuzzing: YAML ends a line at a lone `\r`, the file (and
        // `split`) does not, so lines pointed past the end of the file.
        assert_eq!(
            keys("title: Hi\rzeta: 1\n"),
            vec![("title".into(), 2, Value::from("Hi")), ("zeta".into(), 2, Value::from(1))]
        );
        let problem = read("a: 1\r\r\r\rb: \0\n", 2).unwrap_err();
        assert_eq!((problem.line, problem.column), (2, 12), "{problem:?}");
        assert!(problem.hint.unwrap().contains("NUL"));
    }

    #[test]
    fn reads_fields_in_order_with_their_lines() {
        let fields = keys("title: Hi\n# comment\n\nzeta: 1\nalpha:\n  - a\n");
        assert_eq!(
            fields,
            vec![
                ("title".into(), 2, Value::from("Hi")),
                ("zeta".into(), 5, Value::from(1)),
                ("alpha".into(), 6, Value::from(vec!["a"])),
            ]
        );
    }

    #[test]
    fn dates_and_odd_numbers_stay_text() {
        let fields = keys("date: 2026-07-17\nmode: 0755\nbig: 1_000\nn: .nan\n");
        let values: Vec<Value> = fields.into_iter().map(|field| field.2).collect();
        assert_eq!(values, vec![Value::from("2026-07-17"), "0755".into(), "1_000".into(), ".nan".into()]);
    }

    #[test]
    fn empty_front_matter_has_no_fields() {
        assert!(read("", 2).unwrap().is_empty());
        assert!(read("# just a comment\n", 2).unwrap().is_empty());
    }

    #[test]
    fn a_list_is_not_front_matter() {
        let problem = read("- a\n- b\n", 2).unwrap_err();
        assert_eq!(problem.line, 2);
        assert_eq!(problem.message, "front matter must be `key: value` fields, not a list");
    }

    #[test]
    fn syntax_errors_point_at_the_file_line_and_suggest_quotes() {
        let problem = read("date: 2026-07-17\ntitle: a: b\n", 2).unwrap_err();
        assert_eq!((problem.line, problem.column), (3, 9));
        assert!(problem.message.contains("mapping values are not allowed"), "{}", problem.message);
        assert_eq!(problem.hint.as_deref(), Some("put the value in double quotes: `title: \"a: b\"`"));
    }

    #[test]
    fn duplicate_keys_name_the_key_and_both_lines() {
        let problem = read("title: A\ntags: [a]\ntitle: B\n", 2).unwrap_err();
        assert_eq!(problem.line, 4);
        assert_eq!(problem.message, "`title` is given twice (first on line 2)");
    }

    #[test]
    fn alias_bomb_is_refused() {
        let mut text =
            String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (name, previous) in
            ["b", "c", "d", "e", "f", "g", "h", "i", "j"].iter().zip(["a", "b", "c", "d", "e", "f", "g", "h", "i"])
        {
            let alias = format!("*{previous},");
            text.push_str(&format!("{name}: &{name} [{}]\n", alias.repeat(9).trim_end_matches(',')));
        }
        let problem = read(&text, 2).unwrap_err();
        assert!(problem.message.contains("too big"), "{}", problem.message);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let flow = format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(read(&flow, 2).is_err());
        let block: String = (0..500).map(|depth| format!("{}k:\n", " ".repeat(depth))).collect();
        assert!(read(&block, 2).is_err());
    }

    #[test]
    fn huge_strings_are_read() {
        let text = format!("title: {}\n", "x".repeat(1_000_000));
        assert_eq!(read(&text, 2).unwrap()[0].value.as_str().map(str::len), Some(1_000_000));
    }
}

//! Changing one field of TOML front matter. toml_edit finds where each value
//! is (its byte span); only those bytes are replaced. Rendering the whole
//! document with toml_edit would turn CRLF line endings into LF, so it is
//! used to locate and to lay out single values, never to write the file.

use std::ops::Range;

use toml_edit::{Item, Table};

use super::edit::{FieldValue, Place};
use super::fields::TAXONOMIES;

/// `text` (the front matter between the `+++` lines) with the field at
/// `place` set; `Err` says why it cannot be.
pub(crate) fn set(text: &str, place: &Place, value: &FieldValue, eol: &str) -> Result<String, String> {
    let document = parse(text)?;
    let root = document.as_table();
    match place {
        Place::Top(key) => match root.get(key) {
            Some(Item::Value(old)) => replace_value(text, old, value, eol),
            Some(_) => Err(format!("`{key}` is a table")),
            None => Ok(insert_line(text, root_end(root), &format!("{key} = {}", render(value, None, eol)), eol)),
        },
        Place::TaxonomyTags => match root.get(TAXONOMIES) {
            Some(Item::Table(table)) if table.is_dotted() => match table.get("tags") {
                Some(Item::Value(old)) => replace_value(text, old, value, eol),
                _ => Ok(insert_line(
                    text,
                    root_end(root),
                    &format!("{TAXONOMIES}.tags = {}", render(value, None, eol)),
                    eol,
                )),
            },
            Some(Item::Table(table)) => match table.get("tags") {
                Some(Item::Value(old)) => replace_value(text, old, value, eol),
                Some(_) => Err("`taxonomies.tags` is a table".into()),
                None => match table_end(table) {
                    Some(end) => Ok(insert_line(text, end, &format!("tags = {}", render(value, None, eol)), eol)),
                    // `[taxonomies.x]` alone makes an implicit table with no line of its own.
                    None => Ok(insert_line(text, root_end(root), &format!("tags = {}", render(value, None, eol)), eol)),
                },
            },
            Some(Item::Value(toml_edit::Value::InlineTable(_))) => edit_inline_taxonomies(text, root, |table| {
                let tags = render(value, table.get("tags").map(|old| (old, "")), eol);
                table.insert("tags", tags.parse().map_err(|_| "the tags cannot be written".to_string())?);
                Ok(())
            }),
            _ => Err("`taxonomies` is not a table".into()),
        },
    }
}

/// `text` without the field at `place`: the whole line of `key = value`
/// (with its comment) goes; comments above it stay.
pub(crate) fn remove(text: &str, place: &Place) -> Result<String, String> {
    let document = parse(text)?;
    let root = document.as_table();
    let (table, key) = match place {
        Place::Top(key) => (root, key.as_str()),
        Place::TaxonomyTags => match root.get(TAXONOMIES) {
            Some(Item::Table(table)) => (table, "tags"),
            Some(Item::Value(toml_edit::Value::InlineTable(_))) => {
                return edit_inline_taxonomies(text, root, |table| {
                    table.remove("tags");
                    Ok(())
                });
            }
            _ => return Ok(text.to_string()),
        },
    };
    match (table.get(key), table.key(key).and_then(toml_edit::Key::span)) {
        (None, _) => Ok(text.to_string()),
        (Some(Item::Value(value)), Some(key_span)) => {
            let end = value.span().map_or(key_span.end, |span| span.end);
            let lines = line_start(text, key_span.start)..line_end(text, end);
            Ok(format!("{}{}", &text[..lines.start], &text[lines.end..]))
        }
        _ => Err(format!("`{key}` is a table; remove it in the file")),
    }
}

fn parse(text: &str) -> Result<toml_edit::Document<&str>, String> {
    toml_edit::Document::parse(text).map_err(|error| error.message().to_string())
}

fn replace_value(text: &str, old: &toml_edit::Value, value: &FieldValue, eol: &str) -> Result<String, String> {
    let span = old.span().ok_or("the value has no place in the file")?;
    let written = render(value, Some((old, &text[span.clone()])), eol);
    Ok(format!("{}{written}{}", &text[..span.start], &text[span.end..]))
}

/// A value as TOML text, in the style of the value it replaces (`old`, with
/// its text): literal `'…'` strings stay literal, quoted dates stay quoted,
/// and lists keep their line breaks, indentation and trailing comma.
fn render(value: &FieldValue, old: Option<(&toml_edit::Value, &str)>, eol: &str) -> String {
    let old_string_quote = match old {
        Some((toml_edit::Value::String(_), text)) => text.chars().next(),
        _ => None,
    };
    match value {
        FieldValue::Text(text) => string(text, old_string_quote == Some('\'')),
        FieldValue::Bool(flag) => flag.to_string(),
        // Unquoted TOML dates are native dates, as Zola writes them.
        FieldValue::Date(date) => match old_string_quote {
            Some(_) => string(&date.to_string(), old_string_quote == Some('\'')),
            None => date.to_string(),
        },
        FieldValue::List(items) => match old {
            Some((toml_edit::Value::Array(_), text)) if !items.is_empty() => {
                styled_list(items, text, eol).unwrap_or_else(|| plain_list(items, false))
            }
            _ => plain_list(items, false),
        },
    }
}

fn plain_list(items: &[String], literal: bool) -> String {
    let items: Vec<String> = items.iter().map(|item| string(item, literal)).collect();
    format!("[{}]", items.join(", "))
}

/// The new items laid out like the old ones: the first new item takes the
/// whitespace (and comment) before the old first item, later ones the line
/// break and indentation before the old second (or first) item; the list keeps
/// what is before its `]` and its trailing comma.
fn styled_list(items: &[String], old_text: &str, eol: &str) -> Option<String> {
    let old: toml_edit::Value = old_text.parse().ok()?;
    let old = old.as_array()?;
    let first = old.get(0)?;
    let later = old.get(1).unwrap_or(first);
    let literal = old_text[1..].trim_start().starts_with('\'');
    let mut list = toml_edit::Array::new();
    for (index, item) in items.iter().enumerate() {
        let mut value: toml_edit::Value = string(item, literal).parse().ok()?;
        let (prefix, suffix) = if index == 0 {
            (decor_text(first.decor().prefix()).to_string(), decor_text(first.decor().suffix()))
        } else {
            let prefix = decor_text(later.decor().prefix());
            let prefix = match prefix.rfind('\n') {
                Some(newline) => format!("\n{}", &prefix[newline + 1..]),
                None if index == 1 && old.len() == 1 => " ".to_string(),
                None => prefix.to_string(),
            };
            (prefix, decor_text(later.decor().suffix()))
        };
        let suffix = if suffix.trim().is_empty() && !suffix.contains('\n') { suffix } else { "" };
        *value.decor_mut() = toml_edit::Decor::new(prefix, suffix);
        list.push_formatted(value);
    }
    list.set_trailing(decor_text(Some(old.trailing())).to_string());
    list.set_trailing_comma(old.trailing_comma());
    // toml_edit writes line breaks as `\n`; the file may use `\r\n`.
    Some(list.to_string().replace("\r\n", "\n").replace('\n', eol))
}

fn decor_text(raw: Option<&toml_edit::RawString>) -> &str {
    raw.and_then(toml_edit::RawString::as_str).unwrap_or("")
}

/// A TOML string: literal `'…'` when asked and possible, else basic `"…"`
/// with escapes, always on one line.
fn string(text: &str, literal: bool) -> String {
    let literal_ok = !text.contains('\'') && text.chars().all(|c| c == '\t' || !c.is_control());
    if literal && literal_ok {
        return format!("'{text}'");
    }
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Where a new top-level key goes: after the last top-level `key = value`
/// (TOML needs them before the first `[table]`), or at the very start.
fn root_end(root: &Table) -> usize {
    fn last_value_end(table: &Table) -> Option<usize> {
        table
            .iter()
            .filter_map(|(_, item)| match item {
                Item::Value(value) => value.span().map(|span| span.end),
                Item::Table(table) if table.is_dotted() => last_value_end(table),
                _ => None,
            })
            .max()
    }
    last_value_end(root).unwrap_or(0)
}

/// After the last value of a `[table]`, or after its header if it has none.
fn table_end(table: &Table) -> Option<usize> {
    let header = table.span()?.end;
    let last = table.iter().filter_map(|(_, item)| item.as_value()?.span().map(|span| span.end)).max();
    Some(last.unwrap_or(header).max(header))
}

/// Inserts `line` at the start of the line after the one holding `after`.
fn insert_line(text: &str, after: usize, line: &str, eol: &str) -> String {
    let at = if after == 0 { 0 } else { line_end(text, after) };
    let before = &text[..at];
    let gap = if before.is_empty() || before.ends_with('\n') { "" } else { eol };
    format!("{before}{gap}{line}{eol}{}", &text[at..])
}

/// The start of the line holding byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |newline| newline + 1)
}

/// Just after the line ending of the line holding byte `at`.
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |newline| at + newline + 1)
}

/// Rewrites an inline `taxonomies = { … }` through toml_edit (it is one line).
fn edit_inline_taxonomies(
    text: &str,
    root: &Table,
    change: impl FnOnce(&mut toml_edit::InlineTable) -> Result<(), String>,
) -> Result<String, String> {
    let Some(Item::Value(old)) = root.get(TAXONOMIES) else {
        return Err("`taxonomies` is not a table".into());
    };
    let span: Range<usize> = old.span().ok_or("the value has no place in the file")?;
    let mut value: toml_edit::Value = text[span.clone()].parse().map_err(|_| "`taxonomies` cannot be read")?;
    let table = value.as_inline_table_mut().ok_or("`taxonomies` is not a table")?;
    change(table)?;
    Ok(format!("{}{value}{}", &text[..span.start], &text[span.end..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front_matter::PostDate;

    fn list(items: &[&str]) -> FieldValue {
        FieldValue::List(items.iter().map(|item| item.to_string()).collect())
    }

    fn set_top(text: &str, key: &str, value: FieldValue) -> String {
        set(text, &Place::Top(key.into()), &value, "\n").unwrap()
    }

    #[test]
    fn replaces_only_the_value() {
        let text = "title   =  'Old'   # why\ndate = 2026-07-17\n";
        assert_eq!(
            set_top(text, "title", FieldValue::Text("New".into())),
            "title   =  'New'   # why\ndate = 2026-07-17\n"
        );
        let date = PostDate::parse("2026-07-18T09:30").unwrap();
        assert_eq!(
            set_top(text, "date", FieldValue::Date(date)),
            "title   =  'Old'   # why\ndate = 2026-07-18T09:30:00\n"
        );
        assert_eq!(set_top("d = \"2026-07-17\"\n", "d", FieldValue::Date(date)), "d = \"2026-07-18T09:30:00\"\n");
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a \"b\"\n\\", false), "\"a \\\"b\\\"\\n\\\\\"");
        assert_eq!(string("it's", true), "\"it's\"");
        assert_eq!(string("C:\\x", true), "'C:\\x'");
    }

    #[test]
    fn lists_keep_their_layout() {
        let text = "tags = [\r\n  \"a\",\r\n  \"b\",\r\n]\r\n";
        assert_eq!(
            set(text, &Place::Top("tags".into()), &list(&["x", "y", "z"]), "\r\n").unwrap(),
            "tags = [\r\n  \"x\",\r\n  \"y\",\r\n  \"z\",\r\n]\r\n"
        );
        assert_eq!(set_top("tags = ['a', 'b']\n", "tags", list(&["c"])), "tags = ['c']\n");
        assert_eq!(set_top("tags = [\"a\"]\n", "tags", list(&["c", "d"])), "tags = [\"c\", \"d\"]\n");
        assert_eq!(set_top("tags = [\"a\"]\n", "tags", list(&[])), "tags = []\n");
    }

    #[test]
    fn new_keys_go_before_the_first_table() {
        let text = "title = \"T\" # c\n\n[taxonomies]\ntags = [\"a\"]\n";
        assert_eq!(
            set_top(text, "slug", FieldValue::Text("s".into())),
            "title = \"T\" # c\nslug = \"s\"\n\n[taxonomies]\ntags = [\"a\"]\n"
        );
        assert_eq!(set_top("[extra]\nx = 1\n", "draft", FieldValue::Bool(true)), "draft = true\n[extra]\nx = 1\n");
        assert_eq!(set_top("", "draft", FieldValue::Bool(true)), "draft = true\n");
    }

    #[test]
    fn taxonomy_tags_are_edited_in_place() {
        let text = "title = \"T\"\n\n[taxonomies]\ncategories = [\"c\"]\ntags = [\"a\"] # t\n\n[extra]\n";
        assert_eq!(
            set(text, &Place::TaxonomyTags, &list(&["b"]), "\n").unwrap(),
            "title = \"T\"\n\n[taxonomies]\ncategories = [\"c\"]\ntags = [\"b\"] # t\n\n[extra]\n"
        );
        assert_eq!(
            remove(text, &Place::TaxonomyTags).unwrap(),
            "title = \"T\"\n\n[taxonomies]\ncategories = [\"c\"]\n\n[extra]\n"
        );
        let without = "[taxonomies]\ncategories = [\"c\"]\n[extra]\n";
        assert_eq!(
            set(without, &Place::TaxonomyTags, &list(&["b"]), "\n").unwrap(),
            "[taxonomies]\ncategories = [\"c\"]\ntags = [\"b\"]\n[extra]\n"
        );
        let inline = "taxonomies = { tags = [\"a\"], categories = [\"c\"] }\n";
        assert_eq!(
            set(inline, &Place::TaxonomyTags, &list(&["b"]), "\n").unwrap(),
            "taxonomies = { tags = [\"b\"], categories = [\"c\"] }\n"
        );
    }

    #[test]
    fn removes_the_whole_line() {
        let text = "# the title\ntitle = \"T\" # c\nlist = [\n  1,\n]\nz = 1\n";
        assert_eq!(remove(text, &Place::Top("title".into())).unwrap(), "# the title\nlist = [\n  1,\n]\nz = 1\n");
        assert_eq!(remove(text, &Place::Top("list".into())).unwrap(), "# the title\ntitle = \"T\" # c\nz = 1\n");
        assert_eq!(remove(text, &Place::Top("none".into())).unwrap(), text);
    }
}

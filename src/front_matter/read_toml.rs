//! Reading TOML front matter into its top-level fields, in file order, each
//! with the line its key is on. toml_edit is used rather than `toml::Table`
//! because it keeps the file's key order (the `toml` crate here sorts keys)
//! and knows where each key is. Unquoted TOML dates are datetimes; they become
//! their RFC 3339 text, which the date fields then read as written.

use serde_json::{Map, Number, Value};
use toml_edit::{Item, Table};

use super::fields::RawField;
use crate::diagnostics::Problem;

/// Deeper than any real front matter; toml_edit already refuses far deeper
/// inline nesting, this guards the conversion of nested `[a.b.c…]` tables.
const MAX_DEPTH: usize = 64;

/// Reads `text`, whose first line is line `first_line` of the file.
pub(crate) fn read(text: &str, first_line: usize) -> Result<Vec<RawField>, Problem> {
    let document = toml_edit::Document::parse(text).map_err(|error| problem(&error, text, first_line))?;
    let root = document.as_table();
    Ok(root
        .iter()
        .map(|(key, item)| {
            let start = root.key(key).and_then(toml_edit::Key::span).map_or(0, |span| span.start);
            let (line, column) = line_and_column(text, start);
            RawField { key: key.to_string(), line: line + first_line - 1, column, value: item_value(item, 0) }
        })
        .collect())
}

fn item_value(item: &Item, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    match item {
        Item::None => Value::Null,
        Item::Value(value) => value_value(value, depth),
        Item::Table(table) => Value::Object(table_map(table, depth)),
        Item::ArrayOfTables(tables) => tables.iter().map(|table| Value::Object(table_map(table, depth + 1))).collect(),
    }
}

fn table_map(table: &Table, depth: usize) -> Map<String, Value> {
    table.iter().map(|(key, item)| (key.to_string(), item_value(item, depth + 1))).collect()
}

fn value_value(value: &toml_edit::Value, depth: usize) -> Value {
    use toml_edit::Value as Toml;
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    match value {
        Toml::String(text) => Value::String(text.value().clone()),
        Toml::Integer(number) => Value::from(*number.value()),
        // JSON has no NaN or infinity; keep those as the text TOML spells them with.
        Toml::Float(number) => Number::from_f64(*number.value())
            .map_or_else(|| Value::String(number.display_repr().to_string()), Value::Number),
        Toml::Boolean(flag) => Value::Bool(*flag.value()),
        Toml::Datetime(datetime) => Value::String(datetime.value().to_string()),
        Toml::Array(array) => array.iter().map(|item| value_value(item, depth + 1)).collect(),
        Toml::InlineTable(table) => {
            Value::Object(table.iter().map(|(key, value)| (key.to_string(), value_value(value, depth + 1))).collect())
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

fn problem(error: &toml_edit::TomlError, text: &str, first_line: usize) -> Problem {
    let (line, column) = line_and_column(text, error.span().map_or(0, |span| span.start));
    // toml's messages run over several lines ("invalid string\nexpected `\"`").
    let message = error.message().lines().map(str::trim).filter(|part| !part.is_empty()).collect::<Vec<_>>().join("; ");
    let at_line = line + first_line - 1;
    if message.contains("duplicate key") {
        let key = error.span().and_then(|span| text.get(span)).unwrap_or("").trim().trim_matches(['"', '\'']);
        let first = text
            .lines()
            .take(line - 1)
            .position(|source| {
                let source = source.trim_start();
                let header =
                    [format!("[{key}]"), format!("[[{key}]]")].iter().any(|header| source.starts_with(header.as_str()));
                header || source.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='))
            })
            .map_or(String::new(), |first| format!(" (first on line {})", first + first_line));
        return Problem::error(at_line, column, format!("`{key}` is given twice{first}"))
            .with_hint(format!("keep one `{key}` and delete the other"));
    }
    let hint = if message.contains("invalid string") || message.contains("string values must be quoted") {
        "put text in double quotes: `title = \"My post\"`"
    } else if message.contains("key with no value") || message.contains("expected `=`") {
        "write each field as `key = value`"
    } else {
        "front matter between `+++` lines is TOML: text in double quotes, lists in `[ ]`, dates like 2026-07-17"
    };
    Problem::error(at_line, column, format!("TOML: {message}")).with_hint(hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(text: &str) -> Vec<(String, usize, Value)> {
        read(text, 2).unwrap().into_iter().map(|field| (field.key, field.line, field.value)).collect()
    }

    #[test]
    fn reads_fields_in_file_order_with_lines() {
        assert_eq!(
            fields("zeta = 1\n# c\ntitle = \"T\"\n\n[taxonomies]\ntags = [\"a\"]\n"),
            [
                ("zeta".to_string(), 2, json!(1)),
                ("title".to_string(), 4, json!("T")),
                ("taxonomies".to_string(), 6, json!({"tags": ["a"]})),
            ]
        );
    }

    #[test]
    fn native_dates_become_their_text() {
        let read = fields("a = 2026-07-17\nb = 2026-07-17T09:30:00+09:00\nc = 2026-07-17 09:30\nd = 09:30:00\n");
        let values: Vec<Value> = read.into_iter().map(|field| field.2).collect();
        assert_eq!(
            values,
            [json!("2026-07-17"), json!("2026-07-17T09:30:00+09:00"), json!("2026-07-17T09:30"), json!("09:30:00")]
        );
    }

    #[test]
    fn other_values_convert() {
        let read = fields("f = 1.5\nn = nan\narr = [[1], {x = true}]\n[[links]]\nurl = \"u\"\n");
        let values: Vec<Value> = read.into_iter().map(|field| field.2).collect();
        assert_eq!(values, [json!(1.5), json!("nan"), json!([[1], {"x": true}]), json!([{"url": "u"}])]);
    }

    #[test]
    fn syntax_errors_point_at_the_file_line() {
        let problem = read("title = \"T\"\ndate = 17/07/2026\n", 2).unwrap_err();
        assert_eq!(problem.line, 3);
        assert!(problem.message.starts_with("TOML: "), "{}", problem.message);
    }

    #[test]
    fn duplicate_keys_are_errors_at_the_second_one() {
        let problem = read("title = \"a\"\ntags = []\ntitle = \"b\"\n", 2).unwrap_err();
        assert_eq!((problem.line, problem.column), (4, 1));
        assert_eq!(problem.message, "`title` is given twice (first on line 2)");
    }

    #[test]
    fn deep_nesting_is_refused_or_bounded() {
        let arrays = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(read(&arrays, 2).is_err());
        let header = format!("[{}]\n", vec!["a"; 10_000].join("."));
        let _ = read(&header, 2);
        let dotted = format!("{} = 1\n", vec!["a"; 10_000].join("."));
        let _ = read(&dotted, 2);
    }
}

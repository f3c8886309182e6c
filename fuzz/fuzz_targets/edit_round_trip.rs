//! The form editor's promise: `set_field` of title, date, tags, summary or
//! draft, or `remove_field` of one, either refuses (`EditError`) or gives a
//! text whose front matter reads the new value for that field, every other
//! field as before, and the same body. Posts are built from structured input
//! so most of them parse: YAML and TOML, comments, every quoting style,
//! aliases of the known names, Zola's taxonomies and raw text in between.

#![no_main]

use arbitrary::Arbitrary;
use hanji::PostDate;
use hanji::front_matter::{self, FieldValue, FrontMatter};
use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;

#[derive(Debug, Arbitrary)]
struct Input {
    toml: bool,
    crlf: bool,
    bom: bool,
    fields: Vec<Field>,
    /// Zola's `[taxonomies] tags`, written last.
    taxonomies: Option<Vec<Text>>,
    body: String,
    op: Op,
}

#[derive(Debug, Arbitrary)]
struct Field {
    key: Key,
    value: Value,
    comment: Option<String>,
    blank_line_before: bool,
}

#[derive(Debug, Arbitrary)]
enum Key {
    Title,
    Date,
    Tags,
    Summary,
    Description,
    Draft,
    Author,
    Lastmod,
    Slug,
    Other(String),
}

#[derive(Debug, Arbitrary)]
enum Value {
    Text(Text),
    Number(i32),
    Bool(bool),
    Date(DateIn),
    FlowList(Vec<Text>),
    BlockList(Vec<Text>),
    Block(String),
    Empty,
    /// Written as it is: anything the generator does not model.
    Raw(String),
}

#[derive(Debug, Arbitrary)]
struct Text {
    text: String,
    quote: Quote,
}

#[derive(Debug, Arbitrary)]
enum Quote {
    Plain,
    Single,
    Double,
}

#[derive(Debug, Arbitrary)]
struct DateIn {
    year: u16,
    month: u8,
    day: u8,
    time: Option<(u8, u8, u8, u32)>,
}

#[derive(Debug, Arbitrary)]
enum Op {
    SetTitle(String),
    SetSummary(String),
    SetTags(Vec<String>),
    SetDraft(bool),
    SetDate(DateIn),
    Remove(Which),
}

#[derive(Debug, Arbitrary, Clone, Copy)]
enum Which {
    Title,
    Date,
    Tags,
    Summary,
    Draft,
}

impl DateIn {
    fn post_date(&self) -> Option<PostDate> {
        let date = jiff::civil::Date::new((self.year % 10_000) as i16, self.month as i8, self.day as i8).ok()?;
        let time = match self.time {
            None => None,
            Some((hour, minute, second, nanos)) => {
                Some(jiff::civil::Time::new(hour as i8, minute as i8, second as i8, nanos as i32).ok()?)
            }
        };
        Some(PostDate { date, time })
    }

    fn text(&self) -> String {
        match self.post_date() {
            Some(date) => date.to_string(),
            None => format!("{}-{}-{}", self.year, self.month, self.day),
        }
    }
}

impl Key {
    fn name(&self) -> String {
        match self {
            Key::Title => "title".into(),
            Key::Date => "date".into(),
            Key::Tags => "tags".into(),
            Key::Summary => "summary".into(),
            Key::Description => "description".into(),
            Key::Draft => "draft".into(),
            Key::Author => "author".into(),
            Key::Lastmod => "lastmod".into(),
            Key::Slug => "slug".into(),
            Key::Other(name) => name.clone(),
        }
    }
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

fn yaml_double(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn yaml_text(text: &Text) -> String {
    match text.quote {
        Quote::Plain => one_line(&text.text),
        Quote::Single => format!("'{}'", one_line(&text.text).replace('\'', "''")),
        Quote::Double => yaml_double(&text.text),
    }
}

fn toml_text(text: &Text) -> String {
    match text.quote {
        Quote::Single if !text.text.contains(['\'', '\n', '\r']) && !text.text.chars().any(char::is_control) => {
            format!("'{}'", text.text)
        }
        Quote::Plain if !text.text.contains("'''") && !text.text.chars().any(|c| c.is_control() && c != '\n') => {
            format!("'''{}'''", text.text)
        }
        _ => yaml_double(&text.text),
    }
}

fn yaml_post(input: &Input, eol: &str) -> String {
    let mut out = format!("---{eol}");
    for field in &input.fields {
        if field.blank_line_before {
            out.push_str(eol);
        }
        let key = field.key.name();
        let value = match &field.value {
            Value::Text(text) => yaml_text(text),
            Value::Number(number) => number.to_string(),
            Value::Bool(flag) => flag.to_string(),
            Value::Date(date) => date.text(),
            Value::FlowList(items) => format!("[{}]", items.iter().map(yaml_text).collect::<Vec<_>>().join(", ")),
            Value::BlockList(items) => items.iter().map(|item| format!("{eol}  - {}", yaml_text(item))).collect(),
            Value::Block(text) => {
                let lines: String = text.lines().map(|line| format!("{eol}  {line}")).collect();
                format!("|{lines}")
            }
            Value::Empty => String::new(),
            Value::Raw(raw) => raw.clone(),
        };
        out.push_str(&format!("{key}: {value}"));
        if let Some(comment) = &field.comment {
            out.push_str(&format!(" # {}", one_line(comment)));
        }
        out.push_str(eol);
    }
    if let Some(tags) = &input.taxonomies {
        let tags: Vec<String> = tags.iter().map(yaml_text).collect();
        out.push_str(&format!("taxonomies:{eol}  tags: [{}]{eol}  categories: [c]{eol}", tags.join(", ")));
    }
    out.push_str(&format!("---{eol}"));
    out
}

fn toml_key(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        name.to_string()
    } else {
        yaml_double(name)
    }
}

fn toml_post(input: &Input, eol: &str) -> String {
    let mut out = format!("+++{eol}");
    for field in &input.fields {
        if field.blank_line_before {
            out.push_str(eol);
        }
        let key = toml_key(&field.key.name());
        let value = match &field.value {
            Value::Text(text) => toml_text(text),
            Value::Number(number) => number.to_string(),
            Value::Bool(flag) => flag.to_string(),
            Value::Date(date) => date.text(),
            Value::FlowList(items) => format!("[{}]", items.iter().map(toml_text).collect::<Vec<_>>().join(", ")),
            Value::BlockList(items) => {
                let items: String = items.iter().map(|item| format!("{eol}  {},", toml_text(item))).collect();
                format!("[{items}{eol}]")
            }
            Value::Block(text) => format!("\"\"\"{eol}{}\"\"\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
            Value::Empty => "\"\"".to_string(),
            Value::Raw(raw) => raw.clone(),
        };
        out.push_str(&format!("{key} = {value}"));
        if let Some(comment) = &field.comment {
            out.push_str(&format!(" # {}", one_line(comment)));
        }
        out.push_str(eol);
    }
    if let Some(tags) = &input.taxonomies {
        let tags: Vec<String> = tags.iter().map(toml_text).collect();
        out.push_str(&format!("{eol}[taxonomies]{eol}tags = [{}]{eol}categories = [\"c\"]{eol}", tags.join(", ")));
    }
    out.push_str(&format!("+++{eol}"));
    out
}

fn post(input: &Input) -> String {
    let eol = if input.crlf { "\r\n" } else { "\n" };
    let bom = if input.bom { "\u{feff}" } else { "" };
    let front_matter = if input.toml { toml_post(input, eol) } else { yaml_post(input, eol) };
    format!("{bom}{front_matter}{}", input.body)
}

/// Trimmed, without empty entries or repeats: how tags read back.
fn cleaned(items: &[String]) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for item in items.iter().map(|item| item.trim()).filter(|item| !item.is_empty()) {
        if !kept.iter().any(|seen| seen == item) {
            kept.push(item.to_string());
        }
    }
    kept
}

fn non_blank(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.to_string())
}

/// The front matter without the field `which` (under any of its names), for
/// comparing everything else.
fn without(mut front_matter: FrontMatter, which: Which) -> FrontMatter {
    match which {
        Which::Title => front_matter.title = None,
        Which::Date => front_matter.date = None,
        Which::Draft => front_matter.draft = false,
        Which::Summary => {
            front_matter.summary = None;
            front_matter.extra.shift_remove("summary");
            front_matter.extra.shift_remove("description");
        }
        Which::Tags => {
            front_matter.tags.clear();
            if let Some(Json::Object(taxonomies)) = front_matter.extra.get_mut("taxonomies") {
                taxonomies.shift_remove("tags");
                if taxonomies.is_empty() {
                    front_matter.extra.shift_remove("taxonomies");
                }
            }
        }
    }
    front_matter
}

fuzz_target!(|input: Input| {
    if input.fields.len() > 12 {
        return;
    }
    let text = post(&input);
    let (which, result) = match &input.op {
        Op::SetTitle(title) => {
            (Which::Title, front_matter::set_field(&text, "title", &FieldValue::Text(title.clone())))
        }
        Op::SetSummary(summary) => {
            (Which::Summary, front_matter::set_field(&text, "summary", &FieldValue::Text(summary.clone())))
        }
        Op::SetTags(tags) => (Which::Tags, front_matter::set_field(&text, "tags", &FieldValue::List(tags.clone()))),
        Op::SetDraft(flag) => (Which::Draft, front_matter::set_field(&text, "draft", &FieldValue::Bool(*flag))),
        Op::SetDate(date) => {
            let Some(date) = date.post_date() else {
                return;
            };
            (Which::Date, front_matter::set_field(&text, "date", &FieldValue::Date(date)))
        }
        Op::Remove(which) => {
            let key = match which {
                Which::Title => "title",
                Which::Date => "date",
                Which::Tags => "tags",
                Which::Summary => "summary",
                Which::Draft => "draft",
            };
            (*which, front_matter::remove_field(&text, key))
        }
    };
    let Ok(edited) = result else {
        return;
    };
    let before = front_matter::parse(&text).expect("an edit was made to a text that does not parse");
    let after = match front_matter::parse(&edited) {
        Ok(after) => after,
        Err(problem) => panic!("the edited text does not parse: {problem:?}\n{edited}"),
    };
    assert_eq!(after.body, before.body, "the body changed:\n{edited}");
    let got = &after.front_matter;
    match &input.op {
        Op::SetTitle(title) => assert_eq!(got.title, non_blank(title), "title:\n{edited}"),
        Op::SetSummary(summary) => {
            if non_blank(summary).is_some() {
                assert_eq!(got.summary, non_blank(summary), "summary:\n{edited}");
            }
        }
        Op::SetTags(tags) => assert_eq!(got.tags, cleaned(tags), "tags:\n{edited}"),
        Op::SetDraft(flag) => assert_eq!(got.draft, *flag, "draft:\n{edited}"),
        Op::SetDate(date) => assert_eq!(got.date, date.post_date(), "date:\n{edited}"),
        Op::Remove(which) => {
            assert_eq!(without(got.clone(), *which), *got, "{which:?} still there:\n{edited}");
        }
    }
    assert_eq!(
        without(after.front_matter.clone(), which),
        without(before.front_matter.clone(), which),
        "other fields changed:\n{text}\n=>\n{edited}"
    );
});

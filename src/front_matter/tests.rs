//! `parse` on whole post texts: the split, the fields and the problems together.

use super::*;
use crate::diagnostics::Severity;
use serde_json::json;

fn day(text: &str) -> Option<PostDate> {
    PostDate::parse(text)
}

fn warnings_and_errors<'d>(document: &'d Document<'_>) -> Vec<(usize, Severity, &'d str)> {
    document.problems.iter().map(|problem| (problem.line, problem.severity, problem.message.as_str())).collect()
}

#[test]
fn reads_a_yaml_post() {
    let text = "---\ntitle: Hello\ndate: 2026-07-17\ntags: [rust, async]\n---\n# Hello\n\nBody.\n";
    let document = parse(text).unwrap();
    assert_eq!(document.format, Some(Format::Yaml));
    assert_eq!(document.front_matter.title.as_deref(), Some("Hello"));
    assert_eq!(document.front_matter.date, day("2026-07-17"));
    assert_eq!(document.front_matter.tags, ["rust", "async"]);
    assert_eq!(document.body, "# Hello\n\nBody.\n");
    assert_eq!(document.body_line, 6);
    assert_eq!(document.problems, vec![]);
}

#[test]
fn every_date_form_reads_as_written() {
    let cases = [
        ("2026-07-17", "2026-07-17"),
        ("2026-07-17T09:30:00+09:00", "2026-07-17T09:30"),
        ("2026-07-17T09:30:00Z", "2026-07-17T09:30"),
        ("2026-07-17T09:30:00", "2026-07-17T09:30"),
        ("2026-07-17 09:30:00", "2026-07-17T09:30"),
        ("2026-07-17 09:30", "2026-07-17T09:30"),
        ("2026-07-17T09:30:00.123+09:00", "2026-07-17T09:30:00.123"),
        ("\"2026-07-17T23:30:00-05:00\"", "2026-07-17T23:30"),
        ("'2026-07-17'", "2026-07-17"),
    ];
    for (written, read) in cases {
        let yaml = format!("---\ntitle: T\ndate: {written}\n---\n");
        assert_eq!(parse(&yaml).unwrap().front_matter.date, day(read), "YAML {written}");
    }
    // TOML: unquoted dates are native datetimes, not strings.
    for (written, read) in cases.iter().filter(|(written, _)| !written.starts_with('\'')) {
        let toml = format!("+++\ntitle = \"T\"\ndate = {written}\n+++\n");
        assert_eq!(parse(&toml).unwrap().front_matter.date, day(read), "TOML {written}");
    }
}

#[test]
fn lastmod_and_updated_are_the_same_field() {
    let yaml = parse("---\nlastmod: 2026-07-18\n---\n").unwrap();
    assert_eq!(yaml.front_matter.updated, day("2026-07-18"));
    let toml = parse("+++\nupdated = 2026-07-18T10:00:00\n+++\n").unwrap();
    assert_eq!(toml.front_matter.updated, day("2026-07-18T10:00"));
}

#[test]
fn bom_and_crlf() {
    let text = "\u{feff}---\r\ntitle: Hi\r\ndate: 2026-07-17\r\n---\r\nline four\r\n";
    let document = parse(text).unwrap();
    assert_eq!(document.front_matter.title.as_deref(), Some("Hi"));
    assert_eq!(document.body, "line four\r\n");
    assert_eq!(document.body_line, 5);
    // Columns on the first line do not count the BOM.
    let broken = parse("\u{feff}---\r\ntitle: a: b\r\n---\r\n").unwrap_err();
    assert_eq!((broken.line, broken.column), (2, 9));
}

#[test]
fn zola_toml_with_taxonomies() {
    let text = "+++\ntitle = \"NCCL\"\ndate = 2026-07-17\n\n[taxonomies]\ntags = [\"nccl\", \"분산 학습\"]\ncategories = [\"gpu\"]\n\n[extra]\ntoc = true\n+++\nbody\n";
    let document = parse(text).unwrap();
    assert_eq!(document.format, Some(Format::Toml));
    assert_eq!(document.front_matter.tags, ["nccl", "분산 학습"]);
    assert_eq!(
        serde_json::Value::Object(document.front_matter.extra),
        json!({"taxonomies": {"categories": ["gpu"]}, "extra": {"toc": true}})
    );
    assert_eq!(document.body_line, 12);
}

#[test]
fn yaml_taxonomies_tags_too() {
    let document = parse("---\ntaxonomies:\n  tags: [a, b]\n---\n").unwrap();
    assert_eq!(document.front_matter.tags, ["a", "b"]);
}

#[test]
fn comma_separated_tags() {
    let document = parse("---\ntags: rust,  async , ,분산 학습\n---\n").unwrap();
    assert_eq!(document.front_matter.tags, ["rust", "async", "분산 학습"]);
}

#[test]
fn description_is_the_summary_when_there_is_none() {
    let document = parse("---\ndescription: What it is about\n---\n").unwrap();
    assert_eq!(document.front_matter.summary.as_deref(), Some("What it is about"));
    assert!(document.front_matter.extra.is_empty());
}

#[test]
fn extra_keys_are_kept_in_file_order() {
    let text = "---\nzebra: 1\ntitle: T\napple: [x]\nmango: {ripe: true}\nimages: a.png\ncover: c.png\n---\n";
    let document = parse(text).unwrap();
    let keys: Vec<&str> = document.front_matter.extra.keys().map(String::as_str).collect();
    assert_eq!(keys, ["zebra", "apple", "mango", "cover"]);
    assert_eq!(document.front_matter.images, ["a.png"]);
}

#[test]
fn unclosed_front_matter_is_an_error_at_the_opening_line() {
    let problem = parse("---\ntitle: T\n\n# Body\n").unwrap_err();
    assert_eq!((problem.line, problem.column), (1, 1));
    assert_eq!(problem.hint.as_deref(), Some("did you forget the closing `---`?"));
    let problem = parse("\u{feff}+++\r\ntitle = \"T\"\r\n").unwrap_err();
    assert_eq!(problem.hint.as_deref(), Some("did you forget the closing `+++`?"));
}

#[test]
fn malformed_yaml_points_at_the_file_line() {
    // The parser notices the open `[` where the next field starts.
    let problem = parse("---\ntitle: T\ndate: 2026-07-17\ntags: [a, b\nsummary: s\n---\n").unwrap_err();
    assert_eq!((problem.line, problem.column), (5, 8), "{problem:?}");
    assert_eq!(problem.hint.as_deref(), Some("is a `[` or `{` on a line above left open? close it on its own line"));
    let problem = parse("---\ntitle: T\nsummary: a: b\n---\n").unwrap_err();
    assert_eq!((problem.line, problem.column), (3, 11));
    assert_eq!(problem.hint.as_deref(), Some("put the value in double quotes: `summary: \"a: b\"`"));
}

#[test]
fn malformed_toml_points_at_the_file_line() {
    let problem = parse("+++\ntitle = \"T\"\n\ndate = 17/07/2026\n+++\n").unwrap_err();
    assert_eq!(problem.line, 4, "{problem:?}");
}

#[test]
fn an_alias_bomb_is_refused() {
    let mut text = String::from("---\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..12 {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
    }
    text.push_str("---\n");
    let problem = parse(&text).unwrap_err();
    assert_eq!(problem.severity, Severity::Error);
}

/// YAML: the last value is used, as Ruby's YAML (Jekyll) and the other
/// tools' YAML readers take a mapping, with a warning at the second key.
/// TOML forbids it, in every tool: an error.
#[test]
fn duplicate_keys_name_the_key_and_yaml_takes_the_last() {
    let document = parse("---\ntitle: A\ndate: 2026-07-17\ntitle: B\n---\n").unwrap();
    assert_eq!(document.front_matter.title.as_deref(), Some("B"));
    let problem = &document.problems[0];
    assert_eq!((problem.line, problem.severity), (4, Severity::Warning));
    assert_eq!(problem.message, "`title` is given twice (first on line 2); the last one is used");
    let problem = parse("+++\ntitle = \"A\"\ntitle = \"B\"\n+++\n").unwrap_err();
    assert_eq!(problem.line, 3);
    assert_eq!(problem.message, "`title` is given twice (first on line 2)");
}

#[test]
fn problems_that_do_not_stop_the_post() {
    let document = parse("---\ntitle: [a]\ndate: 17/07/2026\ntags: 5\n---\nbody").unwrap();
    assert_eq!(
        warnings_and_errors(&document),
        [
            (2, Severity::Error, "`title` should be text, not a list"),
            (3, Severity::Error, "`date` is not a date: `17/07/2026`"),
            (4, Severity::Error, "`tags` should be a list of tags, not a number"),
        ]
    );
    assert_eq!(document.problems[1].hint.as_deref(), Some("write it as 2026-07-17"));
    assert_eq!(document.body, "body");
}

#[test]
fn missing_title_and_date_are_warnings_at_the_opening_line() {
    let document = parse("---\ntags: [a]\n---\n").unwrap();
    assert_eq!(
        warnings_and_errors(&document),
        [(1, Severity::Warning, "post has no title"), (1, Severity::Warning, "post has no date")]
    );
    let document = parse("+++\n+++\n").unwrap();
    assert_eq!(document.problems[0].hint.as_deref(), Some("add `title = \"My post\"`"));
}

#[test]
fn text_without_front_matter_is_all_body() {
    let document = parse("# Just Markdown\n").unwrap();
    assert_eq!((document.format, document.body, document.body_line), (None, "# Just Markdown\n", 1));
    assert_eq!(document.front_matter.title, None);
}

#[test]
fn hostile_input_does_not_panic_or_hang() {
    let deep_yaml = format!("---\na: {}\n---\n", "[".repeat(50_000));
    assert!(parse(&deep_yaml).is_err());
    let deep_toml = format!("+++\na = {}\n+++\n", "{b = ".repeat(50_000));
    assert!(parse(&deep_toml).is_err());
    let huge = format!("---\ntitle: \"{}\"\n---\n", "한".repeat(500_000));
    assert_eq!(parse(&huge).unwrap().front_matter.title.map(|title| title.chars().count()), Some(500_000));
    let many_keys: String = (0..20_000).map(|index| format!("k{index}: {index}\n")).collect();
    assert_eq!(parse(&format!("---\n{many_keys}---\n")).unwrap().front_matter.extra.len(), 20_000);
}

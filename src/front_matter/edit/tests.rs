//! Byte-for-byte tests of `set_field`/`remove_field` on whole post texts, and
//! a round-trip property: after an edit, `parse` reads the new value and
//! everything else as before.

use proptest::prelude::*;

use super::*;
use crate::front_matter::{FrontMatter, parse};

fn text(value: &str) -> FieldValue {
    FieldValue::Text(value.to_string())
}

fn list(items: &[&str]) -> FieldValue {
    FieldValue::List(items.iter().map(|item| item.to_string()).collect())
}

fn date(text: &str) -> FieldValue {
    FieldValue::Date(PostDate::parse(text).unwrap())
}

const YAML_POST: &str = "\
---
# Written in a hurry.
title:    Old title   # keep me
date: 2026-07-17

tags:
  - rust
  - 'async io'
summary: >-
  A long
  summary.
toc: true
---

# Heading

Body with --- and +++ inside.
";

#[test]
fn setting_the_title_changes_only_its_line() {
    let edited = set_field(YAML_POST, "title", &text("Rust: the \"good\" parts")).unwrap();
    assert_eq!(
        edited,
        YAML_POST.replace("title:    Old title   # keep me", "title:    \"Rust: the \\\"good\\\" parts\"   # keep me")
    );
    assert_eq!(parse(&edited).unwrap().front_matter.title.as_deref(), Some("Rust: the \"good\" parts"));
}

#[test]
fn setting_block_list_tags_keeps_block_style() {
    let edited = set_field(YAML_POST, "tags", &list(&["rust", "분산 학습", "it's"])).unwrap();
    assert_eq!(edited, YAML_POST.replace("  - rust\n  - 'async io'\n", "  - rust\n  - 분산 학습\n  - it's\n"));
}

#[test]
fn list_items_keep_the_quoting_of_the_first_item() {
    let post = "---\ntags:\n  - 'a'\n  - b\n---\n";
    assert_eq!(set_field(post, "tags", &list(&["x", "it's"])).unwrap(), "---\ntags:\n  - 'x'\n  - 'it''s'\n---\n");
    let post = "---\ntags: [\"a\"]\n---\n";
    assert_eq!(set_field(post, "tags", &list(&["x", "y"])).unwrap(), "---\ntags: [\"x\", \"y\"]\n---\n");
}

#[test]
fn setting_flow_list_tags_keeps_flow_style() {
    let post = "---\ntitle: T\ntags: [a, b] # old\ndraft: false\n---\nbody\n";
    let edited = set_field(post, "tags", &list(&["c", "d, e"])).unwrap();
    assert_eq!(edited, "---\ntitle: T\ntags: [c, \"d, e\"] # old\ndraft: false\n---\nbody\n");
}

#[test]
fn a_missing_key_is_added_at_the_end() {
    let edited = set_field(YAML_POST, "slug", &text("my-post")).unwrap();
    assert_eq!(edited, YAML_POST.replace("toc: true\n---", "toc: true\nslug: my-post\n---"));
    let edited = set_field(YAML_POST, "draft", &FieldValue::Bool(true)).unwrap();
    assert_eq!(edited, YAML_POST.replace("toc: true\n---", "toc: true\ndraft: true\n---"));
}

#[test]
fn removing_a_multi_line_key_takes_all_its_lines() {
    let edited = remove_field(YAML_POST, "summary").unwrap();
    assert_eq!(edited, YAML_POST.replace("summary: >-\n  A long\n  summary.\n", ""));
    let edited = remove_field(YAML_POST, "tags").unwrap();
    assert_eq!(edited, YAML_POST.replace("tags:\n  - rust\n  - 'async io'\n", ""));
    assert_eq!(remove_field(YAML_POST, "layout").unwrap(), YAML_POST);
}

#[test]
fn one_text_fields_stay_one_text() {
    let post = "---\ntags: \"rust, async\"\nauthor: kim\n---\n";
    let edited = set_field(post, "tags", &list(&["rust", "분산 학습"])).unwrap();
    assert_eq!(edited, "---\ntags: \"rust, 분산 학습\"\nauthor: kim\n---\n");
    let edited = set_field(post, "tags", &list(&["a,b"])).unwrap();
    assert_eq!(edited, "---\ntags: [\"a,b\"]\nauthor: kim\n---\n");
    let edited = set_field(post, "authors", &list(&["lee"])).unwrap();
    assert_eq!(edited, "---\ntags: \"rust, async\"\nauthor: lee\n---\n");
    let edited = set_field(post, "authors", &list(&["lee", "kim"])).unwrap();
    assert_eq!(edited, "---\ntags: \"rust, async\"\nauthor: [lee, kim]\n---\n");
}

#[test]
fn summary_edits_description_when_that_is_what_there_is() {
    let post = "---\ntitle: T\ndescription: Old # d\n---\n";
    assert_eq!(set_field(post, "summary", &text("New")).unwrap(), "---\ntitle: T\ndescription: New # d\n---\n");
    assert_eq!(remove_field(post, "summary").unwrap(), "---\ntitle: T\n---\n");
    let both = "---\nsummary: S\ndescription: D\n---\n";
    assert_eq!(remove_field(both, "summary").unwrap(), "---\n---\n");
}

#[test]
fn updated_edits_lastmod_when_that_is_what_there_is() {
    let post = "---\nlastmod: 2026-01-01\n---\n";
    assert_eq!(set_field(post, "updated", &date("2026-07-18")).unwrap(), "---\nlastmod: 2026-07-18\n---\n");
}

const TOML_POST: &str = "\
+++
title = \"Old\"   # the title
date = 2026-07-17T09:30:00+09:00
# draft = true

[taxonomies]
categories = [\"notes\"]
tags = [
    \"nccl\",
    \"gpu\", # fast
]

[extra]
toc = true
+++
Body
";

#[test]
fn toml_title_changes_only_its_value() {
    let edited = set_field(TOML_POST, "title", &text("New 'one'")).unwrap();
    assert_eq!(edited, TOML_POST.replace("title = \"Old\"", "title = \"New 'one'\""));
}

#[test]
fn toml_tags_are_edited_in_taxonomies_keeping_layout() {
    let edited = set_field(TOML_POST, "tags", &list(&["nccl", "분산 학습", "cuda"])).unwrap();
    assert_eq!(
        edited,
        TOML_POST.replace(
            "    \"nccl\",\n    \"gpu\", # fast\n]",
            // The comment after the last comma belongs to the list's end.
            "    \"nccl\",\n    \"분산 학습\",\n    \"cuda\", # fast\n]"
        )
    );
    assert_eq!(parse(&edited).unwrap().front_matter.tags, ["nccl", "분산 학습", "cuda"]);
}

#[test]
fn toml_new_keys_go_before_tables_and_dates_stay_native() {
    let edited = set_field(TOML_POST, "draft", &FieldValue::Bool(false)).unwrap();
    assert_eq!(edited, TOML_POST.replace("+09:00\n", "+09:00\ndraft = false\n"));
    let edited = set_field(TOML_POST, "date", &date("2026-07-18")).unwrap();
    assert_eq!(edited, TOML_POST.replace("2026-07-17T09:30:00+09:00", "2026-07-18"));
}

#[test]
fn toml_remove_takes_the_line() {
    let edited = remove_field(TOML_POST, "tags").unwrap();
    assert_eq!(edited, TOML_POST.replace("tags = [\n    \"nccl\",\n    \"gpu\", # fast\n]\n", ""));
    assert_eq!(parse(&edited).unwrap().front_matter.tags, Vec::<String>::new());
}

#[test]
fn crlf_files_stay_crlf() {
    let yaml = YAML_POST.replace('\n', "\r\n");
    let edited = set_field(&yaml, "tags", &list(&["a", "b", "c"])).unwrap();
    assert_eq!(edited, yaml.replace("  - rust\r\n  - 'async io'\r\n", "  - a\r\n  - b\r\n  - c\r\n"));
    let edited = set_field(&yaml, "layout", &text("post")).unwrap();
    assert_eq!(edited, yaml.replace("toc: true\r\n", "toc: true\r\nlayout: post\r\n"));

    let toml = TOML_POST.replace('\n', "\r\n");
    let edited = set_field(&toml, "tags", &list(&["a", "b"])).unwrap();
    assert_eq!(
        edited,
        toml.replace("    \"nccl\",\r\n    \"gpu\", # fast\r\n]", "    \"a\",\r\n    \"b\", # fast\r\n]")
    );
    let edited = set_field(&toml, "slug", &text("s")).unwrap();
    assert_eq!(edited, toml.replace("+09:00\r\n", "+09:00\r\nslug = \"s\"\r\n"));
}

#[test]
fn a_bom_is_kept() {
    let post = format!("\u{feff}{YAML_POST}");
    let edited = set_field(&post, "title", &text("New")).unwrap();
    assert_eq!(edited, post.replace("title:    Old title", "title:    New"));
    let bare = "\u{feff}# Hello\n";
    assert_eq!(set_field(bare, "title", &text("Hello")).unwrap(), "\u{feff}---\ntitle: Hello\n---\n# Hello\n");
}

#[test]
fn text_without_front_matter_gets_a_yaml_block() {
    assert_eq!(set_field("# Hi\n", "title", &text("Hi")).unwrap(), "---\ntitle: Hi\n---\n# Hi\n");
    assert_eq!(set_field("", "tags", &list(&["a"])).unwrap(), "---\ntags: [a]\n---\n");
    assert_eq!(
        set_field("# Hi\r\nbody\r\n", "draft", &FieldValue::Bool(true)).unwrap(),
        "---\r\ndraft: true\r\n---\r\n# Hi\r\nbody\r\n"
    );
    assert_eq!(remove_field("# Hi\n", "title").unwrap(), "# Hi\n");
}

#[test]
fn refuses_what_it_cannot_do_safely() {
    assert!(matches!(set_field("---\ntitle: a: b\n---\n", "title", &text("x")), Err(EditError::Unreadable(_))));
    assert!(matches!(set_field("---\ntitle: x\n", "title", &text("x")), Err(EditError::Unreadable(_))));
    assert!(matches!(set_field("---\n---\n", "a b", &text("x")), Err(EditError::BadKey(_))));
    assert!(matches!(set_field("---\n---\n", "null", &text("x")), Err(EditError::BadKey(_))));
    assert!(matches!(set_field("+++\n[extra]\n+++\n", "extra", &text("x")), Err(EditError::Unsupported { .. })));
    // An alias elsewhere reads the old title; a line edit would break it.
    let aliased = "---\ntitle: &t Old\nog_title: *t\n---\n";
    assert!(matches!(set_field(aliased, "title", &text("New")), Err(EditError::WouldBreak { .. })));
}

#[test]
fn zola_yaml_taxonomies_are_followed() {
    let post = "---\ntitle: T\ntaxonomies:\n  tags: [a]\n  categories: [c]\n---\n";
    let edited = set_field(post, "tags", &list(&["b"])).unwrap();
    assert_eq!(edited, "---\ntitle: T\ntaxonomies:\n  tags: [b]\n  categories: [c]\n---\n");
}

/// Posts the property test edits: YAML and TOML, tags in three places.
const POSTS: &[&str] = &[
    YAML_POST,
    TOML_POST,
    "---\ntitle: 'Quoted'\ntags: ['a', 'b']\ndescription: \"D\"\nauthor: kim\nextra_key: {a: 1}\n---\nbody",
    "---\r\ntitle: T\r\ntags:\r\n- a\r\n- b\r\ncustom: |\r\n  keep\r\n  # me\r\n---\r\nbody\r\n",
    "---\n\"title\" : x\ntags:\n  # first\n  - a\n\n  - b\n# trailing\nimages:\n...\nbody\n",
    "+++\ntitle = 'T'\ntags = ['a']\n[extra]\nx = 1\n+++\n",
    "+++\r\ntitle = \"T\"\r\ntaxonomies = { tags = [\"a\"], categories = [\"c\"] }\r\n+++\r\nbody\r\n",
    "+++\ntaxonomies.tags = [\"a\"]\ntitle = \"T\"\n+++\n",
    "---\ntaxonomies: {tags: [a], categories: [c]}\n---\n",
    "---\ntags: rust, async\nauthor: Kim, Jane\nimage: a.png\n---\n",
    "\u{feff}# no front matter\n",
    "",
];
const KEYS: &[&str] = &["title", "summary", "slug", "layout", "canonicalUrl", "subtitle", "tags", "authors", "images"];

/// What `parse` should read after `key` was set to `value`.
fn expected(mut front_matter: FrontMatter, key: &str, value: &FieldValue) -> FrontMatter {
    match (key, value) {
        ("tags" | "authors" | "images", FieldValue::List(items)) => {
            let mut cleaned: Vec<String> = Vec::new();
            for item in items.iter().map(|item| item.trim()).filter(|item| !item.is_empty()) {
                if !cleaned.iter().any(|seen| seen == item) {
                    cleaned.push(item.to_string());
                }
            }
            match key {
                "tags" => front_matter.tags = cleaned,
                "authors" => front_matter.authors = cleaned,
                _ => front_matter.images = cleaned,
            }
        }
        ("title" | "summary" | "slug" | "layout" | "canonicalUrl", FieldValue::Text(text)) => {
            let typed = (!text.trim().is_empty()).then(|| text.clone());
            match key {
                "title" => front_matter.title = typed,
                "summary" => front_matter.summary = typed,
                "slug" => front_matter.slug = typed,
                "layout" => front_matter.layout = typed,
                _ => front_matter.canonical_url = typed,
            }
        }
        _ => {
            front_matter.extra.insert(key.to_string(), value.to_json());
        }
    }
    front_matter
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,20}",
        "[a-z가-힣:#'\" ,\\[\\]{}\\-\\n\\t]{0,16}",
        Just("yes".to_string()),
        Just("- item".to_string()),
        Just("  lead".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn an_edit_changes_that_field_and_nothing_else(
        post in prop::sample::select(POSTS),
        key in prop::sample::select(KEYS),
        text in any_text(),
        items in prop::collection::vec(any_text(), 0..5),
        extra_as_list in any::<bool>(),
    ) {
        // List fields get lists, text fields text, an `extra` key either.
        let list_field = matches!(key, "tags" | "authors" | "images") || (key == "subtitle" && extra_as_list);
        let value = if list_field { FieldValue::List(items) } else { FieldValue::Text(text) };
        let before = parse(post).unwrap();
        let edited = set_field(post, key, &value).unwrap();
        let after = parse(&edited).unwrap();
        prop_assert!(after.format.is_some());
        let mut want = expected(before.front_matter.clone(), key, &value);
        let mut got = after.front_matter.clone();
        // A new `extra` key is appended; its position is not the point here.
        got.extra.sort_keys();
        want.extra.sort_keys();
        prop_assert_eq!(got, want);
        prop_assert_eq!(after.body, before.body);
    }

    #[test]
    fn removing_a_field_clears_it_and_nothing_else(
        post in prop::sample::select(POSTS),
        key in prop::sample::select(KEYS),
    ) {
        let before = parse(post).unwrap();
        let edited = remove_field(post, key).unwrap();
        let after = parse(&edited).unwrap();
        let mut want = before.front_matter.clone();
        match key {
            "title" => want.title = None,
            "summary" => {
                want.summary = None;
                want.extra.shift_remove("description");
            }
            "slug" => want.slug = None,
            "layout" => want.layout = None,
            "canonicalUrl" => want.canonical_url = None,
            "tags" => {
                want.tags.clear();
            }
            "authors" => want.authors.clear(),
            "images" => want.images.clear(),
            other => {
                want.extra.shift_remove(other);
            }
        }
        prop_assert_eq!(after.front_matter, want);
        prop_assert_eq!(after.body, before.body);
    }
}

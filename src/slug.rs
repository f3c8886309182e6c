//! Slugs as GitHub makes them (github-slugger): for tags and heading ids.
//!
//! Lowercase, drop punctuation, symbols and control characters, turn each space
//! into `-`, keep letters of every script: `분산 학습` → `분산-학습`.

use std::collections::HashMap;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The slug of `text`, as github-slugger's `slug()` makes it.
pub fn slug(text: &str) -> String {
    text.to_lowercase().chars().filter(|&c| kept(c)).map(|c| if c == ' ' { '-' } else { c }).collect()
}

/// github-slugger keeps letters, marks, decimal and letter numbers, connector
/// punctuation (`_`), `-` and the plain space; anything alphabetic is kept even
/// where its category says symbol (Ⓐ).
fn kept(c: char) -> bool {
    use GeneralCategory as G;
    if c == ' ' || c == '-' || c.is_alphabetic() {
        return true;
    }
    matches!(
        c.general_category(),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
            | G::DecimalNumber
            | G::LetterNumber
            | G::ConnectorPunctuation
    )
}

/// Hands out unique slugs within one document, as github-slugger's `Slugger`
/// does for the headings of a page: `echo`, `echo-1`, `echo-2`, …
#[derive(Debug, Default)]
pub struct Slugger {
    seen: HashMap<String, usize>,
}

impl Slugger {
    pub fn new() -> Self {
        Self::default()
    }

    /// The slug of `text`, with `-1`, `-2`, … added if it was handed out before.
    pub fn slug(&mut self, text: &str) -> String {
        let base = slug(text);
        let mut candidate = base.clone();
        while let Some(&count) = self.seen.get(&candidate) {
            let next = count + 1;
            self.seen.insert(candidate.clone(), next);
            candidate = format!("{base}-{next}");
        }
        self.seen.insert(candidate.clone(), 0);
        candidate
    }
}

/// The slug of a tag as written: `분산 학습` → `분산-학습`. Tags that differ only
/// in case or spacing share one. A tag that github-slugger empties (`🦀`,
/// `!!`) keeps its own characters, so that no tag is ever dropped: its
/// address is percent-encoded like any other.
pub fn tag_slug(tag: &str) -> String {
    let collapsed: Vec<&str> = tag.split_whitespace().collect();
    let slugged = slug(&collapsed.join(" "));
    if slugged.trim_matches('-').is_empty() { collapsed.join("-").to_lowercase() } else { slugged }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// github-slugger's fixtures (test/fixtures.json), fed to one `Slugger` in order,
    /// as its own test does.
    #[test]
    fn tag_slugs_keep_every_tag() {
        assert_eq!(tag_slug("분산  학습"), "분산-학습");
        assert_eq!(tag_slug("CUDA²"), "cuda");
        assert_eq!(tag_slug("🦀"), "🦀", "emptied by the slug rule: its own characters");
        assert_eq!(tag_slug("!! ?!"), "!!-?!");
        assert_eq!(tag_slug("  "), "");
    }

    #[test]
    fn github_slugger_fixtures_in_sequence() {
        let cases = [
            ("alpha", "alpha"),
            ("alpha", "alpha-1"),
            ("bravoCharlieDelta", "bravocharliedelta"),
            ("__proto__", "__proto__"),
            ("__proto__", "__proto__-1"),
            ("hasOwnProperty", "hasownproperty"),
            ("echo", "echo"),
            ("echo", "echo-1"),
            ("echo 1", "echo-1-1"),
            ("echo-1", "echo-1-2"),
            ("echo", "echo-2"),
            ("foxtrot-1", "foxtrot-1"),
            ("foxtrot", "foxtrot"),
            ("foxtrot", "foxtrot-2"),
            ("heading with a - dash", "heading-with-a---dash"),
            ("heading with an _ underscore", "heading-with-an-_-underscore"),
            ("heading with a period.txt", "heading-with-a-periodtxt"),
            (
                "exchange.bind_headers(exchange, routing [, bindCallback])",
                "exchangebind_headersexchange-routing--bindcallback",
            ),
            (" ", "-"),
            (" a", "-a"),
            ("a ", "a-"),
            (" a ", "-a-"),
            ("-a-", "-a--1"),
            ("apostrophe’s should be trimmed", "apostrophes-should-be-trimmed"),
            ("golf", "golf"),
            ("golf", "golf-1"),
            ("golf", "golf-2"),
            ("I ♥ unicode", "i--unicode"),
            ("dash-dash", "dash-dash"),
            ("en–dash", "endash"),
            ("em–dash", "emdash"),
            ("😄 unicode emoji", "-unicode-emoji"),
            ("😄-😄 unicode emoji", "--unicode-emoji"),
            ("😄_😄 unicode emoji", "_-unicode-emoji"),
            ("😄 - an emoji", "---an-emoji"),
            (":smile: - a gemoji", "smile---a-gemoji"),
            ("Привет", "привет"),
            ("Профили пользователей", "профили-пользователей"),
            ("Привет non-latin 你好", "привет-non-latin-你好"),
            (":ok: No underscore", "ok-no-underscore"),
            (":ok_hand: Single", "ok_hand-single"),
            (
                ":ok_hand::hatched_chick: Two in a row with no spaces",
                "ok_handhatched_chick-two-in-a-row-with-no-spaces",
            ),
            (":ok_hand: :hatched_chick: Two in a row", "ok_hand-hatched_chick-two-in-a-row"),
        ];
        let mut slugger = Slugger::new();
        for (input, expected) in cases {
            assert_eq!(slugger.slug(input), expected, "input {input:?}");
        }
    }

    /// A sample of github-slugger's per-category fixtures: what each category keeps.
    #[test]
    fn github_slugger_categories() {
        let cases = [
            ("a) ] } 〉 》 」 』 】 ） ］ ｝b", "a----------b"),
            ("a_ ‿ ⁀ ⁔ ︳ ＿b", "a_-‿-⁀-⁔-︳-＿b"),
            ("a$ ¢ £ ¥ € ₩ ＄b", "a------b"),
            ("a- ֊ ‐ – — 〜 －b", "a-------b"),
            ("a0 1 ١ ० ০ ０ 𝟏b", "a0-1-١-०-০-０-𝟏b"),
            ("a» ’ ” ›b", "a---b"),
            ("a« ‘ “ ‹b", "a---b"),
            ("aᛮ Ⅰ ⅰ 〇b", "aᛮ-ⅰ-ⅰ-〇b"),
            ("a\u{2028}b", "ab"),
            ("a² ³ ¹ ¼ ①b", "a----b"),
            ("a! \" # % & ' * , . / : ; ? @ \\b", "a--------------b"),
            ("a+ < = > | ~ ¬ ±b", "a-------b"),
            ("a\u{0}\u{7}\u{1b}b", "ab"),
            ("a\u{200b}\u{feff}b", "ab"),
            ("à ̅b", "à-̅b"),
        ];
        for (input, expected) in cases {
            assert_eq!(slug(input), expected, "input {input:?}");
        }
    }

    #[test]
    fn tags_of_the_sample_blog() {
        assert_eq!(slug("분산 학습"), "분산-학습");
        assert_eq!(slug("C++ & Rust"), "c--rust");
        assert_eq!(slug("NCCL"), "nccl");
        assert_eq!(slug("distributed-training"), "distributed-training");
        assert_eq!(slug("2026-03"), "2026-03");
    }
}

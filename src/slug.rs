//! Slugs as GitHub makes them (github-slugger): for tags and heading ids.
//!
//! Lowercase, drop punctuation, symbols and control characters, turn each space
//! into `-`, keep letters of every script: `분산 학습` → `분산-학습`. And the
//! slugs each other tool makes of tag names (`TermSlugs`), which are their
//! tag pages' addresses.

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
    c == ' '
        || c == '-'
        || c.is_alphabetic()
        || letter_mark_or_digit(c)
        || matches!(c.general_category(), G::LetterNumber | G::ConnectorPunctuation)
}

/// A letter of any script, a mark or a decimal digit: `\p{L}`, `\p{M}`, `\p{Nd}`.
fn letter_mark_or_digit(c: char) -> bool {
    use GeneralCategory as G;
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

/// How the tool that made a blog makes the addresses of its tags (and
/// categories) from their names. Names with one slug are one tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TermSlugs {
    /// github-slugger (`tag_slug`): Hanji's, and the Next.js starter's.
    #[default]
    GitHub,
    /// Hugo's path of a term (`HugoPaths::of_content`): lowercase, each
    /// space a `-`, letters, marks, digits and `.`, `/`, `_`, `-`, `#`, `+`,
    /// `~`, `@` kept, anything else dropped; with the blog's `removePathAccents`.
    Hugo(HugoPaths),
    /// Zola's `slugify` (its default, `"on"`): letters of other scripts
    /// written in ASCII (`분산` → `bunsan`), lowercase, each run of anything
    /// else one `-`, none at the ends: `I/O` → `i-o`.
    Zola,
    /// Zola's `"safe"`: the name less the characters a file name cannot
    /// hold (`<>:/|?*#\"` and line breaks), and spaces and dots at the end.
    ZolaSafe,
    /// Jekyll's `slugify` (what its themes and jekyll-archives use):
    /// lowercase, each run of characters not letters or digits one `-`,
    /// none at the ends.
    Jekyll,
}

impl TermSlugs {
    /// The slug of a tag named `name`. A name the rule empties (`🦀`) keeps
    /// its own characters, so that no tag is ever dropped.
    pub fn slug(self, name: &str) -> String {
        let collapsed = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let slugged = match self {
            TermSlugs::GitHub => return tag_slug(name),
            // Hugo makes a term's page of the name as written: its spaces are
            // not collapsed first (`Deep  Learning` is `deep--learning`).
            TermSlugs::Hugo(paths) => paths.of_content(name.trim()),
            TermSlugs::Zola => dashed(&deunicode::deunicode_with_tofu(&collapsed, "-"), |c| c.is_ascii_alphanumeric()),
            TermSlugs::ZolaSafe => {
                collapsed.trim_end_matches([' ', '.']).chars().filter(|c| !"<>:/|?*#\\\"\n\r\t".contains(*c)).collect()
            }
            TermSlugs::Jekyll => dashed(&collapsed, char::is_alphanumeric),
        };
        if slugged.trim_matches('-').is_empty() { collapsed.replace(' ', "-").to_lowercase() } else { slugged }
    }
}

/// Jekyll's `Utils.slugify(text, mode:, cased:)` (lib/jekyll/utils.rb) in its
/// `default` and `pretty` modes: each run of characters that are not letters,
/// marks or decimal digits (`pretty` also keeps `._~!$&'()+,;=@`) becomes one
/// `-`, one `-` is taken off each end, and the result is lowercased unless
/// `cased`. A post's `:title` in a permalink is the pretty, cased slug of its
/// written slug (`Drops::UrlDrop#title`); its `:slug` the default one.
pub fn jekyll_slugify(text: &str, pretty: bool, cased: bool) -> String {
    let kept = |c: char| letter_mark_or_digit(c) || (pretty && "._~!$&'()+,;=@".contains(c));
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if kept(c) {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.strip_prefix('-').unwrap_or(&out);
    let out = out.strip_suffix('-').unwrap_or(out);
    if cased { out.to_string() } else { out.to_lowercase() }
}

/// How Zola makes a page's slug from its name (`[slugify] paths`, Zola's
/// `utils::slugs::slugify_paths`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZolaPaths {
    /// `"on"`, the default: the `slug` crate's `slugify` (letters of other
    /// scripts in ASCII, lowercase, each run of anything else one `-`).
    #[default]
    On,
    /// `"safe"`: spaces and dots taken off the end, and `<>:"/\|?*` out.
    Safe,
    /// `"off"`: as written.
    Off,
}

impl ZolaPaths {
    /// The setting's value as Zola reads it (an unknown one is Zola's error;
    /// Hanji keeps the default).
    pub fn of(value: &str) -> Option<ZolaPaths> {
        match value {
            "on" => Some(ZolaPaths::On),
            "safe" => Some(ZolaPaths::Safe),
            "off" => Some(ZolaPaths::Off),
            _ => None,
        }
    }

    /// The slug of a page named `name`; a name it empties keeps Hanji's slug
    /// of it, so that no page is without an address.
    pub fn slug(self, name: &str) -> String {
        let made = match self {
            ZolaPaths::On => dashed(&deunicode::deunicode_with_tofu(name, "-"), |c| c.is_ascii_alphanumeric()),
            ZolaPaths::Safe => {
                name.trim_end_matches([' ', '.']).chars().filter(|c| !"<>:\"/\\|?*".contains(*c)).collect()
            }
            ZolaPaths::Off => name.to_string(),
        };
        if made.trim_matches('-').is_empty() { slug(name) } else { made }
    }
}

/// `text` lowercased, its characters that are not `kept` turned into one
/// `-` per run, with none at either end.
fn dashed(text: &str, kept: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if kept(c) {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// How Hugo makes a path of a name (`PathSpec.MakePathSanitized`,
/// helpers/path.go), with the blog's `removePathAccents`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct HugoPaths {
    /// `removePathAccents = true`: `café` → `cafe` (Hangul is untouched).
    pub remove_accents: bool,
}

impl HugoPaths {
    /// A value Hugo puts in a path as it is given (a front matter `slug`, a
    /// `[permalinks]` token's value, its expanded pattern): Hugo's
    /// `paths.Sanitize` (common/paths/path.go), then `text.RemoveAccentsString`
    /// where the blog asks, then lowercased, as `PathSpec.MakePathSanitized`
    /// does. Letters, decimal digits, marks, `.`, `/`, `\`, `_`, `#`, `+`,
    /// `~`, `-`, `@` and a `%` before two hex digits are kept; whitespace
    /// after something kept is one `-` before the next kept character
    /// (none when a `-` is beside it); anything else is dropped.
    pub fn sanitized(self, text: &str) -> String {
        let mut kept = String::with_capacity(text.len());
        let (mut hyphen_before, mut was_hyphen) = (false, false);
        for (at, c) in text.char_indices() {
            if hugo_path_char(text, at, c) {
                was_hyphen = c == '-';
                if hyphen_before && !was_hyphen {
                    kept.push('-');
                }
                hyphen_before = false;
                kept.push(c);
            } else if !kept.is_empty() && !was_hyphen && c.is_whitespace() {
                hyphen_before = true;
            }
        }
        let kept = if self.remove_accents { without_accents(&kept) } else { kept };
        // Go's `strings.ToLower`: each character's own lowercase, with no
        // final sigma (`İ` is `i`).
        kept.chars().map(|c| c.to_lowercase().next().unwrap_or(c)).collect()
    }

    /// A name Hugo reads from the content folder (a file, a folder, a term
    /// made a page under `/tags/`): lowercased and each space made a `-`
    /// first (`paths.NormalizePathStringBasic`, as `PathParser.Parse` reads
    /// every content path), then `sanitized`: `C++ & Rust.md` is
    /// `c++--rust`, where a front matter slug `C++ & Rust` is `c++-rust`.
    pub fn of_content(self, name: &str) -> String {
        let basic: String =
            name.chars().map(|c| if c == ' ' { '-' } else { c.to_lowercase().next().unwrap_or(c) }).collect();
        self.sanitized(&basic)
    }
}

/// Hugo's `isAllowedPathCharacter` (common/paths/path.go): `unicode.IsLetter`,
/// `unicode.IsDigit` (decimal digits only: `²` is not one), `unicode.IsMark`,
/// a few signs, and `%` with two hex digits after it.
fn hugo_path_char(text: &str, at: usize, c: char) -> bool {
    use GeneralCategory as G;
    let letter_or_digit = matches!(
        c.general_category(),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
    );
    let hex = |i: usize| text.as_bytes().get(i).is_some_and(u8::is_ascii_hexdigit);
    letter_or_digit || "./\\_#+~-@".contains(c) || (c == '%' && at + 2 < text.len() && hex(at + 1) && hex(at + 2))
}

/// Hugo's `text.RemoveAccentsString`: decomposed, its nonspacing marks
/// dropped, composed again. Hangul decomposes into jamo, which are letters,
/// so a Korean name comes back as it was.
fn without_accents(text: &str) -> String {
    use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
    let decomposed = DecomposingNormalizerBorrowed::new_nfd().normalize(text);
    let kept: String = decomposed.chars().filter(|c| c.general_category() != GeneralCategory::NonspacingMark).collect();
    ComposingNormalizerBorrowed::new_nfc().normalize(&kept).into_owned()
}

#[cfg(test)]
mod tests {
    /// Jekyll's own examples (`Utils.slugify`'s documentation).
    #[test]
    fn jekyll_slugify_as_jekyll_documents_it() {
        assert_eq!(jekyll_slugify("The _config.yml file", false, false), "the-config-yml-file");
        assert_eq!(jekyll_slugify("The _config.yml file", true, false), "the-_config.yml-file");
        assert_eq!(jekyll_slugify("The _config.yml file", true, true), "The-_config.yml-file");
        assert_eq!(jekyll_slugify("분산 학습 (NCCL)!", false, false), "분산-학습-nccl");
        assert_eq!(jekyll_slugify("--a--", false, false), "a");
    }

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

    /// Each tool's documented rule (Hugo's is held to the real Hugo in
    /// `tests/blog/differential.rs`).
    #[test]
    fn each_tool_makes_its_own_tag_slugs() {
        let slugs = |rule: TermSlugs, names: &[&str]| names.iter().map(|n| rule.slug(n)).collect::<Vec<_>>();
        let names = ["I/O", "io", "C++", "분산  학습", "Node.js", "Deep Learning", "🦀"];
        assert_eq!(slugs(TermSlugs::GitHub, &names), ["io", "io", "c", "분산-학습", "nodejs", "deep-learning", "🦀"]);
        assert_eq!(
            slugs(TermSlugs::Hugo(HugoPaths::default()), &names),
            ["i/o", "io", "c++", "분산--학습", "node.js", "deep-learning", "🦀"]
        );
        assert_eq!(
            slugs(TermSlugs::Zola, &names),
            ["i-o", "io", "c", "bunsan-hagseub", "node-js", "deep-learning", "crab"],
            "Zola writes every name in ASCII"
        );
        assert_eq!(
            slugs(TermSlugs::ZolaSafe, &names),
            ["IO", "io", "C++", "분산 학습", "Node.js", "Deep Learning", "🦀"]
        );
        assert_eq!(slugs(TermSlugs::Jekyll, &names), ["i-o", "io", "c", "분산-학습", "node-js", "deep-learning", "🦀"]);
    }

    /// Hugo's own cases of `MakePath` (lowercased, as `MakePathSanitized`
    /// makes it) and `MakePathSanitized` (helpers/path_test.go).
    #[test]
    fn hugo_paths_as_hugo_tests_them() {
        let cases = [
            (
                "dot.slash/backslash\\underscore_pound#plus+hyphen-",
                "dot.slash/backslash\\underscore_pound#plus+hyphen-",
                true,
            ),
            ("abcXYZ0123456789", "abcxyz0123456789", true),
            ("%20 %2", "%20-2", true),
            ("foo- bar", "foo-bar", true),
            ("  Foo bar  ", "foo-bar", true),
            ("fOO,bar:foobAR", "foobarfoobar", true),
            ("FOo/BaR.html", "foo/bar.html", true),
            ("трям/трям", "трям/трям", true),
            ("은행", "은행", true),
            ("Банковский кассир", "банковскии-кассир", true),
            ("संस्कृत", "संस्कृत", false),
            ("a%C3%B1ame", "a%c3%b1ame", false),
            ("this+is+a+test", "this+is+a+test", false),
            ("~foo", "~foo", false),
            ("foo--bar", "foo--bar", true),
            ("foo@bar", "foo@bar", true),
            ("  FOO bar  ", "foo-bar", false),
            ("Foo.Bar/fOO_bAr-Foo", "foo.bar/foo_bar-foo", false),
            ("FOO,bar:FooBar", "foobarfoobar", false),
        ];
        for (input, expected, remove_accents) in cases {
            assert_eq!(HugoPaths { remove_accents }.sanitized(input), expected, "{input}");
        }
        // A content path is lowercased and its spaces made `-` before that.
        let content = HugoPaths::default();
        assert_eq!(content.of_content("C++ & Rust Tips"), "c++--rust-tips");
        assert_eq!(content.sanitized("C++ & Rust Tips"), "c++-rust-tips");
        assert_eq!(content.of_content("분산 학습 CUDA²"), "분산-학습-cuda");
        assert_eq!(HugoPaths { remove_accents: true }.of_content("Café 한글"), "cafe-한글");
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

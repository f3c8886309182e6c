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
    /// Hexo's tag and category slugs (`models/tag.js`, `models/category.js`):
    /// hexo-util's `slugize` with the blog's `filename_case` (0 as written,
    /// 1 lowercase, 2 uppercase): `Apache Kafka` → `Apache-Kafka`.
    Hexo(u8),
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
            TermSlugs::Hexo(case) => hexo_slugize(&collapsed, case),
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
    let letter_or_digit = letter_mark_or_digit(c);
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

/// hexo-util's `slugize(str, {transform})`: letters with diacritics written
/// as their base letters (`escapeDiacritic`: `é` → `e`; Korean is kept),
/// control characters dropped, each run of spaces and of
/// `` ~`!@#$%^&*()-_+=[]{}|\;:"'<>,.?/ `` one `-`, none at the ends, then
/// `transform` 1 lowercases and 2 uppercases.
pub fn hexo_slugize(text: &str, transform: u8) -> String {
    const SPECIAL: &str = "~`!@#$%^&*()-_+=[]{}|\\;:\"'<>,.?/";
    let diacritics = hexo_diacritics();
    let mut out = String::with_capacity(text.len());
    let mut separate = false;
    let chars = text.chars().flat_map(|c| {
        let base = if c.is_ascii() { None } else { diacritics.get(&c).copied() };
        let one = base.is_none().then_some(c);
        base.into_iter().flat_map(str::chars).chain(one)
    });
    for c in chars.filter(|c| !('\u{0}'..='\u{1f}').contains(c)) {
        // JavaScript's `\s` is Unicode's white space and the BOM.
        if c.is_whitespace() || c == '\u{feff}' || SPECIAL.contains(c) {
            separate = true;
            continue;
        }
        if separate && !out.is_empty() {
            out.push('-');
        }
        separate = false;
        out.push(c);
    }
    match transform {
        1 => out.to_lowercase(),
        2 => out.to_uppercase(),
        _ => out,
    }
}

/// hexo-util's `escapeDiacritic` table: each letter and the base it is written as.
fn hexo_diacritics() -> &'static HashMap<char, &'static str> {
    static MAP: std::sync::OnceLock<HashMap<char, &'static str>> = std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        HEXO_DIACRITICS.iter().flat_map(|(base, letters)| letters.chars().map(move |c| (c, *base))).collect()
    })
}

/// hexo-util's `lib/escape_diacritic.ts`, as it is.
const HEXO_DIACRITICS: &[(&str, &str)] = &[
    (
        "A",
        "\u{0041}\u{24B6}\u{FF21}\u{00C0}\u{00C1}\u{00C2}\u{1EA6}\u{1EA4}\u{1EAA}\u{1EA8}\u{00C3}\u{0100}\u{0102}\u{1EB0}\u{1EAE}\u{1EB4}\u{1EB2}\u{0226}\u{01E0}\u{00C4}\u{01DE}\u{1EA2}\u{00C5}\u{01FA}\u{01CD}\u{0200}\u{0202}\u{1EA0}\u{1EAC}\u{1EB6}\u{1E00}\u{0104}\u{023A}\u{2C6F}",
    ),
    ("AA", "\u{A732}"),
    ("AE", "\u{00C6}\u{01FC}\u{01E2}"),
    ("AO", "\u{A734}"),
    ("AU", "\u{A736}"),
    ("AV", "\u{A738}\u{A73A}"),
    ("AY", "\u{A73C}"),
    ("B", "\u{0042}\u{24B7}\u{FF22}\u{1E02}\u{1E04}\u{1E06}\u{0243}\u{0182}\u{0181}"),
    ("C", "\u{0043}\u{24B8}\u{FF23}\u{0106}\u{0108}\u{010A}\u{010C}\u{00C7}\u{1E08}\u{0187}\u{023B}\u{A73E}"),
    (
        "D",
        "\u{0044}\u{24B9}\u{FF24}\u{1E0A}\u{010E}\u{1E0C}\u{1E10}\u{1E12}\u{1E0E}\u{0110}\u{018B}\u{018A}\u{0189}\u{A779}",
    ),
    ("DZ", "\u{01F1}\u{01C4}"),
    ("Dz", "\u{01F2}\u{01C5}"),
    (
        "E",
        "\u{0045}\u{24BA}\u{FF25}\u{00C8}\u{00C9}\u{00CA}\u{1EC0}\u{1EBE}\u{1EC4}\u{1EC2}\u{1EBC}\u{0112}\u{1E14}\u{1E16}\u{0114}\u{0116}\u{00CB}\u{1EBA}\u{011A}\u{0204}\u{0206}\u{1EB8}\u{1EC6}\u{0228}\u{1E1C}\u{0118}\u{1E18}\u{1E1A}\u{0190}\u{018E}",
    ),
    ("F", "\u{0046}\u{24BB}\u{FF26}\u{1E1E}\u{0191}\u{A77B}"),
    (
        "G",
        "\u{0047}\u{24BC}\u{FF27}\u{01F4}\u{011C}\u{1E20}\u{011E}\u{0120}\u{01E6}\u{0122}\u{01E4}\u{0193}\u{A7A0}\u{A77D}\u{A77E}",
    ),
    (
        "H",
        "\u{0048}\u{24BD}\u{FF28}\u{0124}\u{1E22}\u{1E26}\u{021E}\u{1E24}\u{1E28}\u{1E2A}\u{0126}\u{2C67}\u{2C75}\u{A78D}",
    ),
    (
        "I",
        "\u{0049}\u{24BE}\u{FF29}\u{00CC}\u{00CD}\u{00CE}\u{0128}\u{012A}\u{012C}\u{0130}\u{00CF}\u{1E2E}\u{1EC8}\u{01CF}\u{0208}\u{020A}\u{1ECA}\u{012E}\u{1E2C}\u{0197}",
    ),
    ("J", "\u{004A}\u{24BF}\u{FF2A}\u{0134}\u{0248}"),
    (
        "K",
        "\u{004B}\u{24C0}\u{FF2B}\u{1E30}\u{01E8}\u{1E32}\u{0136}\u{1E34}\u{0198}\u{2C69}\u{A740}\u{A742}\u{A744}\u{A7A2}",
    ),
    (
        "L",
        "\u{004C}\u{24C1}\u{FF2C}\u{013F}\u{0139}\u{013D}\u{1E36}\u{1E38}\u{013B}\u{1E3C}\u{1E3A}\u{0141}\u{023D}\u{2C62}\u{2C60}\u{A748}\u{A746}\u{A780}",
    ),
    ("LJ", "\u{01C7}"),
    ("Lj", "\u{01C8}"),
    ("M", "\u{004D}\u{24C2}\u{FF2D}\u{1E3E}\u{1E40}\u{1E42}\u{2C6E}\u{019C}"),
    (
        "N",
        "\u{004E}\u{24C3}\u{FF2E}\u{01F8}\u{0143}\u{00D1}\u{1E44}\u{0147}\u{1E46}\u{0145}\u{1E4A}\u{1E48}\u{0220}\u{019D}\u{A790}\u{A7A4}",
    ),
    ("NJ", "\u{01CA}"),
    ("Nj", "\u{01CB}"),
    (
        "O",
        "\u{004F}\u{24C4}\u{FF2F}\u{00D2}\u{00D3}\u{00D4}\u{1ED2}\u{1ED0}\u{1ED6}\u{1ED4}\u{00D5}\u{1E4C}\u{022C}\u{1E4E}\u{014C}\u{1E50}\u{1E52}\u{014E}\u{022E}\u{0230}\u{00D6}\u{022A}\u{1ECE}\u{0150}\u{01D1}\u{020C}\u{020E}\u{01A0}\u{1EDC}\u{1EDA}\u{1EE0}\u{1EDE}\u{1EE2}\u{1ECC}\u{1ED8}\u{01EA}\u{01EC}\u{00D8}\u{01FE}\u{0186}\u{019F}\u{A74A}\u{A74C}",
    ),
    ("OI", "\u{01A2}"),
    ("OO", "\u{A74E}"),
    ("OU", "\u{0222}"),
    ("OE", "\u{008C}\u{0152}"),
    ("oe", "\u{009C}\u{0153}"),
    ("P", "\u{0050}\u{24C5}\u{FF30}\u{1E54}\u{1E56}\u{01A4}\u{2C63}\u{A750}\u{A752}\u{A754}"),
    ("Q", "\u{0051}\u{24C6}\u{FF31}\u{A756}\u{A758}\u{024A}"),
    (
        "R",
        "\u{0052}\u{24C7}\u{FF32}\u{0154}\u{1E58}\u{0158}\u{0210}\u{0212}\u{1E5A}\u{1E5C}\u{0156}\u{1E5E}\u{024C}\u{2C64}\u{A75A}\u{A7A6}\u{A782}",
    ),
    (
        "S",
        "\u{0053}\u{24C8}\u{FF33}\u{1E9E}\u{015A}\u{1E64}\u{015C}\u{1E60}\u{0160}\u{1E66}\u{1E62}\u{1E68}\u{0218}\u{015E}\u{2C7E}\u{A7A8}\u{A784}",
    ),
    (
        "T",
        "\u{0054}\u{24C9}\u{FF34}\u{1E6A}\u{0164}\u{1E6C}\u{021A}\u{0162}\u{1E70}\u{1E6E}\u{0166}\u{01AC}\u{01AE}\u{023E}\u{A786}",
    ),
    ("TZ", "\u{A728}"),
    (
        "U",
        "\u{0055}\u{24CA}\u{FF35}\u{00D9}\u{00DA}\u{00DB}\u{0168}\u{1E78}\u{016A}\u{1E7A}\u{016C}\u{00DC}\u{01DB}\u{01D7}\u{01D5}\u{01D9}\u{1EE6}\u{016E}\u{0170}\u{01D3}\u{0214}\u{0216}\u{01AF}\u{1EEA}\u{1EE8}\u{1EEE}\u{1EEC}\u{1EF0}\u{1EE4}\u{1E72}\u{0172}\u{1E76}\u{1E74}\u{0244}",
    ),
    ("V", "\u{0056}\u{24CB}\u{FF36}\u{1E7C}\u{1E7E}\u{01B2}\u{A75E}\u{0245}"),
    ("VY", "\u{A760}"),
    ("W", "\u{0057}\u{24CC}\u{FF37}\u{1E80}\u{1E82}\u{0174}\u{1E86}\u{1E84}\u{1E88}\u{2C72}"),
    ("X", "\u{0058}\u{24CD}\u{FF38}\u{1E8A}\u{1E8C}"),
    (
        "Y",
        "\u{0059}\u{24CE}\u{FF39}\u{1EF2}\u{00DD}\u{0176}\u{1EF8}\u{0232}\u{1E8E}\u{0178}\u{1EF6}\u{1EF4}\u{01B3}\u{024E}\u{1EFE}",
    ),
    (
        "Z",
        "\u{005A}\u{24CF}\u{FF3A}\u{0179}\u{1E90}\u{017B}\u{017D}\u{1E92}\u{1E94}\u{01B5}\u{0224}\u{2C7F}\u{2C6B}\u{A762}",
    ),
    (
        "a",
        "\u{0061}\u{24D0}\u{FF41}\u{1E9A}\u{00E0}\u{00E1}\u{00E2}\u{1EA7}\u{1EA5}\u{1EAB}\u{1EA9}\u{00E3}\u{0101}\u{0103}\u{1EB1}\u{1EAF}\u{1EB5}\u{1EB3}\u{0227}\u{01E1}\u{00E4}\u{01DF}\u{1EA3}\u{00E5}\u{01FB}\u{01CE}\u{0201}\u{0203}\u{1EA1}\u{1EAD}\u{1EB7}\u{1E01}\u{0105}\u{2C65}\u{0250}",
    ),
    ("aa", "\u{A733}"),
    ("ae", "\u{00E6}\u{01FD}\u{01E3}"),
    ("ao", "\u{A735}"),
    ("au", "\u{A737}"),
    ("av", "\u{A739}\u{A73B}"),
    ("ay", "\u{A73D}"),
    ("b", "\u{0062}\u{24D1}\u{FF42}\u{1E03}\u{1E05}\u{1E07}\u{0180}\u{0183}\u{0253}"),
    ("c", "\u{0063}\u{24D2}\u{FF43}\u{0107}\u{0109}\u{010B}\u{010D}\u{00E7}\u{1E09}\u{0188}\u{023C}\u{A73F}\u{2184}"),
    (
        "d",
        "\u{0064}\u{24D3}\u{FF44}\u{1E0B}\u{010F}\u{1E0D}\u{1E11}\u{1E13}\u{1E0F}\u{0111}\u{018C}\u{0256}\u{0257}\u{A77A}",
    ),
    ("dz", "\u{01F3}\u{01C6}"),
    (
        "e",
        "\u{0065}\u{24D4}\u{FF45}\u{00E8}\u{00E9}\u{00EA}\u{1EC1}\u{1EBF}\u{1EC5}\u{1EC3}\u{1EBD}\u{0113}\u{1E15}\u{1E17}\u{0115}\u{0117}\u{00EB}\u{1EBB}\u{011B}\u{0205}\u{0207}\u{1EB9}\u{1EC7}\u{0229}\u{1E1D}\u{0119}\u{1E19}\u{1E1B}\u{0247}\u{025B}\u{01DD}",
    ),
    ("f", "\u{0066}\u{24D5}\u{FF46}\u{1E1F}\u{0192}\u{A77C}"),
    (
        "g",
        "\u{0067}\u{24D6}\u{FF47}\u{01F5}\u{011D}\u{1E21}\u{011F}\u{0121}\u{01E7}\u{0123}\u{01E5}\u{0260}\u{A7A1}\u{1D79}\u{A77F}",
    ),
    (
        "h",
        "\u{0068}\u{24D7}\u{FF48}\u{0125}\u{1E23}\u{1E27}\u{021F}\u{1E25}\u{1E29}\u{1E2B}\u{1E96}\u{0127}\u{2C68}\u{2C76}\u{0265}",
    ),
    ("hv", "\u{0195}"),
    (
        "i",
        "\u{0069}\u{24D8}\u{FF49}\u{00EC}\u{00ED}\u{00EE}\u{0129}\u{012B}\u{012D}\u{00EF}\u{1E2F}\u{1EC9}\u{01D0}\u{0209}\u{020B}\u{1ECB}\u{012F}\u{1E2D}\u{0268}\u{0131}",
    ),
    ("j", "\u{006A}\u{24D9}\u{FF4A}\u{0135}\u{01F0}\u{0249}"),
    (
        "k",
        "\u{006B}\u{24DA}\u{FF4B}\u{1E31}\u{01E9}\u{1E33}\u{0137}\u{1E35}\u{0199}\u{2C6A}\u{A741}\u{A743}\u{A745}\u{A7A3}",
    ),
    (
        "l",
        "\u{006C}\u{24DB}\u{FF4C}\u{0140}\u{013A}\u{013E}\u{1E37}\u{1E39}\u{013C}\u{1E3D}\u{1E3B}\u{017F}\u{0142}\u{019A}\u{026B}\u{2C61}\u{A749}\u{A781}\u{A747}",
    ),
    ("lj", "\u{01C9}"),
    ("m", "\u{006D}\u{24DC}\u{FF4D}\u{1E3F}\u{1E41}\u{1E43}\u{0271}\u{026F}"),
    (
        "n",
        "\u{006E}\u{24DD}\u{FF4E}\u{01F9}\u{0144}\u{00F1}\u{1E45}\u{0148}\u{1E47}\u{0146}\u{1E4B}\u{1E49}\u{019E}\u{0272}\u{0149}\u{A791}\u{A7A5}",
    ),
    ("nj", "\u{01CC}"),
    (
        "o",
        "\u{006F}\u{24DE}\u{FF4F}\u{00F2}\u{00F3}\u{00F4}\u{1ED3}\u{1ED1}\u{1ED7}\u{1ED5}\u{00F5}\u{1E4D}\u{022D}\u{1E4F}\u{014D}\u{1E51}\u{1E53}\u{014F}\u{022F}\u{0231}\u{00F6}\u{022B}\u{1ECF}\u{0151}\u{01D2}\u{020D}\u{020F}\u{01A1}\u{1EDD}\u{1EDB}\u{1EE1}\u{1EDF}\u{1EE3}\u{1ECD}\u{1ED9}\u{01EB}\u{01ED}\u{00F8}\u{01FF}\u{0254}\u{A74B}\u{A74D}\u{0275}",
    ),
    ("oi", "\u{01A3}"),
    ("ou", "\u{0223}"),
    ("oo", "\u{A74F}"),
    ("p", "\u{0070}\u{24DF}\u{FF50}\u{1E55}\u{1E57}\u{01A5}\u{1D7D}\u{A751}\u{A753}\u{A755}"),
    ("q", "\u{0071}\u{24E0}\u{FF51}\u{024B}\u{A757}\u{A759}"),
    (
        "r",
        "\u{0072}\u{24E1}\u{FF52}\u{0155}\u{1E59}\u{0159}\u{0211}\u{0213}\u{1E5B}\u{1E5D}\u{0157}\u{1E5F}\u{024D}\u{027D}\u{A75B}\u{A7A7}\u{A783}",
    ),
    (
        "s",
        "\u{0073}\u{24E2}\u{FF53}\u{00DF}\u{015B}\u{1E65}\u{015D}\u{1E61}\u{0161}\u{1E67}\u{1E63}\u{1E69}\u{0219}\u{015F}\u{023F}\u{A7A9}\u{A785}\u{1E9B}",
    ),
    (
        "t",
        "\u{0074}\u{24E3}\u{FF54}\u{1E6B}\u{1E97}\u{0165}\u{1E6D}\u{021B}\u{0163}\u{1E71}\u{1E6F}\u{0167}\u{01AD}\u{0288}\u{2C66}\u{A787}",
    ),
    ("tz", "\u{A729}"),
    (
        "u",
        "\u{0075}\u{24E4}\u{FF55}\u{00F9}\u{00FA}\u{00FB}\u{0169}\u{1E79}\u{016B}\u{1E7B}\u{016D}\u{00FC}\u{01DC}\u{01D8}\u{01D6}\u{01DA}\u{1EE7}\u{016F}\u{0171}\u{01D4}\u{0215}\u{0217}\u{01B0}\u{1EEB}\u{1EE9}\u{1EEF}\u{1EED}\u{1EF1}\u{1EE5}\u{1E73}\u{0173}\u{1E77}\u{1E75}\u{0289}",
    ),
    ("v", "\u{0076}\u{24E5}\u{FF56}\u{1E7D}\u{1E7F}\u{028B}\u{A75F}\u{028C}"),
    ("vy", "\u{A761}"),
    ("w", "\u{0077}\u{24E6}\u{FF57}\u{1E81}\u{1E83}\u{0175}\u{1E87}\u{1E85}\u{1E98}\u{1E89}\u{2C73}"),
    ("x", "\u{0078}\u{24E7}\u{FF58}\u{1E8B}\u{1E8D}"),
    (
        "y",
        "\u{0079}\u{24E8}\u{FF59}\u{1EF3}\u{00FD}\u{0177}\u{1EF9}\u{0233}\u{1E8F}\u{00FF}\u{1EF7}\u{1E99}\u{1EF5}\u{01B4}\u{024F}\u{1EFF}",
    ),
    (
        "z",
        "\u{007A}\u{24E9}\u{FF5A}\u{017A}\u{1E91}\u{017C}\u{017E}\u{1E93}\u{1E95}\u{01B6}\u{0225}\u{0240}\u{2C6C}\u{A763}",
    ),
];

#[cfg(test)]
mod tests {
    /// hexo-util's own cases (test/slugize.spec.ts).
    #[test]
    fn hexo_slugize_as_hexo_util_tests_it() {
        assert_eq!(hexo_slugize("Hello World", 0), "Hello-World");
        assert_eq!(hexo_slugize("Hello ~`!@#$%^&*()-_+=[]{}|\\;:\"'<>,.?/World", 0), "Hello-World");
        assert_eq!(hexo_slugize("Hello---World", 0), "Hello-World");
        assert_eq!(hexo_slugize("-Hello World-", 0), "Hello-World");
        assert_eq!(hexo_slugize("Hello\u{0000}\u{001f}World", 0), "HelloWorld");
        assert_eq!(hexo_slugize("Hello World", 1), "hello-world");
        assert_eq!(hexo_slugize("Hello World", 2), "HELLO-WORLD");
        assert_eq!(hexo_slugize("Hell\u{F2} w\u{F2}rld", 0), "Hello-world");
        assert_eq!(hexo_slugize("遊戲", 0), "遊戲");
        assert_eq!(hexo_slugize("분산 학습 (NCCL)", 0), "분산-학습-NCCL");
        assert_eq!(TermSlugs::Hexo(0).slug("Apache Kafka"), "Apache-Kafka");
    }

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

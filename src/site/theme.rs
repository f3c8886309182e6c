//! The theme: minijinja templates, one CSS file and the words its pages
//! write in each language, built into the binary; a blog overrides any of
//! them with a file of the same name in `templates/` (a word list word by
//! word).

use std::collections::{BTreeMap, BTreeSet};

use minijinja::{Environment, State, Value};

use super::url;
use crate::diagnostics::Diagnostic;
use crate::digest::{self, Digest};

/// The folder of a blog whose files replace the built-in theme's.
pub use crate::tool::TEMPLATES_DIR;

/// Template names, and the built-in theme's text for each.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("base.html", include_str!("theme/base.html")),
    ("list.html", include_str!("theme/list.html")),
    ("sidebar.html", include_str!("theme/sidebar.html")),
    ("home.html", include_str!("theme/home.html")),
    ("tag.html", include_str!("theme/tag.html")),
    ("tags.html", include_str!("theme/tags.html")),
    ("post.html", include_str!("theme/post.html")),
    ("page.html", include_str!("theme/page.html")),
    ("alias.html", include_str!("theme/alias.html")),
    ("category.html", include_str!("theme/category.html")),
    ("categories.html", include_str!("theme/categories.html")),
    ("series.html", include_str!("theme/series.html")),
    ("all-series.html", include_str!("theme/all-series.html")),
    ("held.html", include_str!("theme/held.html")),
    ("comments.html", include_str!("theme/comments.html")),
    ("analytics.html", include_str!("theme/analytics.html")),
    ("404.html", include_str!("theme/404.html")),
    ("search.html", include_str!("theme/search.html")),
    ("feed.xml", include_str!("theme/feed.xml")),
    ("sitemap.xml", include_str!("theme/sitemap.xml")),
    ("robots.txt", include_str!("theme/robots.txt")),
    ("style.css", include_str!("theme/style.css")),
];

/// The words the built-in theme writes, by language: `{{ word("min_read",
/// n=4) }}` is `4 min read` on an English page and `4분 분량` on a Korean
/// one. A page's language is its post's `lang`, else the site's; a language
/// without a list is written in English. A blog's own
/// `templates/words.<lang>.toml` puts its words over these, word by word, and
/// may add a language.
pub const WORDS: &[(&str, &str)] =
    &[("en", include_str!("theme/words.en.toml")), ("ko", include_str!("theme/words.ko.toml"))];

/// The language whose words stand in for a word a page's language lacks.
const FALLBACK_LANGUAGE: &str = "en";

/// Enough for any page of a 100,000-post blog (its sitemap, the largest,
/// takes about 2.4 million); a template that loops forever runs out and
/// stops with an error instead of hanging. minijinja charges every byte a
/// template makes as 1/64 of a fuel, so this is a ceiling on memory too: a
/// template that doubles a string until its fuel runs out stops near 256 MB
/// (at the 50 million of before, 3 GB).
const FUEL: u64 = 8_000_000;

/// The largest page a template may write: a real page is a few hundred
/// kilobytes (a post is at most 5 MB of Markdown).
pub const MAX_PAGE_BYTES: usize = 64 << 20;

/// A page as it is written, refused past `MAX_PAGE_BYTES`.
struct Capped(Vec<u8>);

impl std::io::Write for Capped {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + bytes.len() > MAX_PAGE_BYTES {
            let message = format!("the page is larger than {} MB, the most a page may be", MAX_PAGE_BYTES >> 20);
            return Err(std::io::Error::other(message));
        }
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub struct Theme {
    env: Environment<'static>,
    /// Names of the templates the blog replaced, for naming the right file in errors.
    overridden: BTreeSet<String>,
    /// The text of `style.css`, which is copied, not rendered.
    style: String,
    /// The words its pages write, by language.
    words: std::sync::Arc<Words>,
    /// The digest of the blog's templates, which with Hanji's own fix
    /// every page the theme renders.
    digest: Digest,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ThemeError {
    /// The file to look at: `templates/post.html`, or the built-in theme's.
    pub template: String,
    pub line: usize,
    pub message: String,
}

impl ThemeError {
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(&self.template, self.line, 1, self.message.clone())
            .with_hint("fix the template, or delete it to use the built-in one")
    }
}

impl Theme {
    /// The built-in theme with `overrides` (file name → text) put over it. An
    /// override that does not compile is reported, and the built-in one used.
    pub fn new(overrides: &BTreeMap<String, String>) -> (Theme, Vec<Diagnostic>) {
        let mut env = Environment::new();
        env.set_fuel(Some(FUEL));
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .keep_trailing_newline(true)
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()
                .expect("the default delimiters are valid"),
        );
        env.set_formatter(write_escaped);
        env.add_filter("link", link);
        env.add_filter("absolute", absolute);
        let overridden: BTreeSet<String> = overrides.keys().cloned().collect();
        let mut problems = Vec::new();
        let mut style = String::new();
        for (name, built_in) in BUILT_IN {
            let text = overrides.get(*name).map_or(*built_in, String::as_str);
            if *name == "style.css" {
                style = text.to_string();
                continue;
            }
            if let Err(error) = env.add_template_owned(name.to_string(), text.to_string()) {
                problems.push(theme_error(&error, &overridden).to_diagnostic());
                env.add_template(name, built_in).expect("the built-in theme compiles");
            }
        }
        let words = std::sync::Arc::new(Words::new(overrides, &mut problems));
        let theirs = words.clone();
        env.add_function("word", move |state: &State, key: &str, fill: minijinja::value::Kwargs| {
            theirs.word(&page_language(state), key, &fill)
        });
        let partials =
            overrides.keys().filter(|n| !BUILT_IN.iter().any(|(b, _)| b == n) && words_language(n).is_none());
        for name in partials {
            // Extra partials a theme may include.
            if let Err(error) = env.add_template_owned(name.clone(), overrides[name].clone()) {
                problems.push(theme_error(&error, &overridden).to_diagnostic());
            }
        }
        (Theme { env, overridden, style, words, digest: digest::of(overrides) }, problems)
    }

    /// Renders template `name` with `context`.
    /// A page past `MAX_PAGE_BYTES` is an error.
    pub fn render(&self, name: &str, context: Value) -> Result<String, ThemeError> {
        let template = self.env.get_template(name).map_err(|e| theme_error(&e, &self.overridden))?;
        let mut page = Capped(Vec::new());
        template.render_captured_to(context, &mut page).map_err(|e| theme_error(&e, &self.overridden))?;
        // The theme writes only text (escaped values, and strings).
        Ok(String::from_utf8(page.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// Whether the theme has a template of this name (for a post's `layout`).
    pub fn has(&self, name: &str) -> bool {
        self.env.get_template(name).is_ok()
    }

    /// The word `key` of the theme in `lang` (else in English), as
    /// templates write it with `word`: a page's title made outside them.
    pub fn word(&self, lang: &str, key: &str) -> String {
        self.words
            .word(lang, key, &minijinja::value::Kwargs::from_iter(std::iter::empty::<(&str, Value)>()))
            .unwrap_or_else(|_| key.to_string())
    }

    pub fn style(&self) -> &str {
        &self.style
    }

    /// What the theme is made from: the blog's templates over the built-in
    /// ones (which this build of Hanji fixes).
    pub fn digest(&self) -> Digest {
        self.digest
    }
}

/// The words of each language the theme writes in (see `WORDS`).
struct Words(BTreeMap<String, BTreeMap<String, String>>);

impl Words {
    /// The built-in lists with the blog's `words.<lang>.toml` put over them;
    /// a list that is not TOML of words is reported and left out.
    fn new(overrides: &BTreeMap<String, String>, problems: &mut Vec<Diagnostic>) -> Words {
        let mut words: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (lang, text) in WORDS {
            let list = read_words(text).expect("the built-in word lists are TOML of words");
            words.insert(lang.to_string(), list);
        }
        for (name, text) in overrides {
            let Some(lang) = words_language(name) else { continue };
            match read_words(text) {
                Ok(list) => words.entry(lang.to_string()).or_default().extend(list),
                Err((line, message)) => problems.push(
                    Diagnostic::error(format!("{TEMPLATES_DIR}/{name}"), line, 1, message)
                        .with_hint("write each word as `name = \"text\"`; the built-in words are used meanwhile"),
                ),
            }
        }
        Words(words)
    }

    /// The word `key` in `lang` (else in English), with each `{name}` in it
    /// filled with the value given as `name`.
    fn word(&self, lang: &str, key: &str, fill: &minijinja::value::Kwargs) -> Result<String, minijinja::Error> {
        let found = [lang, FALLBACK_LANGUAGE].iter().find_map(|lang| self.0.get(*lang)?.get(key));
        let Some(word) = found else {
            let message = format!("the theme has no word `{key}` (see src/site/theme/words.en.toml)");
            return Err(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, message));
        };
        let mut text = word.clone();
        for name in fill.args() {
            let value: Value = fill.get(name)?;
            text = text.replace(&format!("{{{name}}}"), &value.to_string());
        }
        Ok(text)
    }
}

/// `ko` for a blog's `words.ko.toml`; None for any other file.
fn words_language(name: &str) -> Option<&str> {
    name.strip_prefix("words.")?.strip_suffix(".toml").filter(|lang| !lang.is_empty() && !lang.contains('/'))
}

/// A word list: each `name = "text"`; else the line and what is wrong.
fn read_words(text: &str) -> Result<BTreeMap<String, String>, (usize, String)> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| crate::text::line_column(text, s.start).0).unwrap_or(1);
        (line, format!("word list: {}", e.message().trim()))
    })?;
    table
        .into_iter()
        .map(|(key, value)| match value {
            toml::Value::String(word) => Ok((key, word)),
            other => Err((1, format!("word list: `{key}` is {}, not text", other.type_str()))),
        })
        .collect()
}

/// The language of the page being rendered, as its `<html lang>` says: its
/// post's `lang` (`en`, `en-US`), else the site's.
fn page_language(state: &State) -> String {
    let attr =
        |value: Option<Value>, name: &str| value.and_then(|v| v.get_attr(name).ok()).filter(|v| !v.is_undefined());
    let own = attr(attr(state.lookup("post"), "extra"), "lang").filter(|v| v.is_true());
    let lang = own.or_else(|| attr(state.lookup("site"), "lang")).map(|v| v.to_string()).unwrap_or_default();
    lang.split(['-', '_']).next().unwrap_or_default().to_lowercase()
}

/// The template, line and message of a minijinja error, with its causes.
fn theme_error(error: &minijinja::Error, overridden: &BTreeSet<String>) -> ThemeError {
    let name = error.name().unwrap_or("template").to_string();
    let template = if overridden.contains(&name) || !BUILT_IN.iter().any(|(b, _)| *b == name) {
        format!("{TEMPLATES_DIR}/{name}")
    } else {
        format!("{TEMPLATES_DIR}/{name} (built-in)")
    };
    let mut message = format!("template error: {}", error.detail().unwrap_or(&error.kind().to_string()));
    if error.kind() == minijinja::ErrorKind::OutOfFuel {
        message = "template ran too long or made too much text (an endless loop?) and was stopped".to_string();
    }
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        message.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    ThemeError { template, line: error.line().unwrap_or(1), message }
}

/// HTML and XML escaping that leaves `/` alone (minijinja's escapes it too,
/// which is valid but makes every address in the pages hard to read).
fn write_escaped(out: &mut minijinja::Output, state: &mut State, value: &Value) -> Result<(), minijinja::Error> {
    match (state.auto_escape(), value.as_str()) {
        (minijinja::AutoEscape::Html, Some(text)) if !value.is_safe() => {
            // The five are ASCII, so a byte of one is never inside another character.
            let mut start = 0;
            for (i, byte) in text.bytes().enumerate() {
                let entity = match byte {
                    b'&' => "&amp;",
                    b'<' => "&lt;",
                    b'>' => "&gt;",
                    b'"' => "&quot;",
                    b'\'' => "&#39;",
                    _ => continue,
                };
                out.write_str(&text[start..i])?;
                out.write_str(entity)?;
                start = i + 1;
            }
            out.write_str(&text[start..]).map_err(minijinja::Error::from)
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// `{{ post.path | link }}`: a relative link from the page being written.
fn link(state: &State, site_path: &str) -> String {
    match state.lookup("root") {
        Some(root) => match root.as_str() {
            Some(root) => url::link(root, site_path),
            None => url::link(&root.to_string(), site_path),
        },
        None => url::link("", site_path),
    }
}

/// `{{ page.path | absolute }}`: the full address, from `site.base_url`.
fn absolute(state: &State, site_path: &str) -> String {
    let base =
        state.lookup("site").and_then(|s| s.get_attr("base_url").ok()).map(|v| v.to_string()).unwrap_or_default();
    url::absolute(&base, site_path)
}

//! A blog's own shortcodes: the templates its tool runs for them (Hugo's
//! `layouts/shortcodes/<name>.html`, Zola's `templates/shortcodes/<name>.html`
//! and `.md`, Jekyll's `_includes/<name>`), run here when they are simple:
//! HTML with the call's values put in, and blocks shown when a value is given.
//!
//! The subset, by tool (anything else keeps the call shown as written, with
//! the template's file and what in it is not run):
//!
//! - Hugo: `{{ .Get "name" }}`, `{{ .Get 0 }}`, `{{ .Inner }}`, `| markdownify`,
//!   `{{ if VALUE }}…{{ end }}`, `{{ with VALUE }}…{{ . }}…{{ end }}`,
//!   `{{/* comments */}}`; HTML comments are left out, as Hugo leaves them out.
//! - Zola: `{{ name }}`, `{{ body }}`, `| safe`, `| markdown` (and
//!   `markdown(inline=true)`), `{% if name %}…{% endif %}`, `{# comments #}`.
//! - Jekyll: `{{ include.name }}`, `| markdownify`,
//!   `{% if include.name %}…{% endif %}`, `{% comment %}…{% endcomment %}`.
//!
//! In all three, `{{-`/`-}}` (and `{%-`/`-%}`) trim the whitespace beside
//! them. A value is written where HTML text or a quoted attribute value
//! goes, never inside `<script>`, `<style>`, a `style` or `on…` attribute, or
//! where a tag or attribute name goes. Values are escaped as Hugo's
//! html/template and Zola's Tera escape them (`&<>"'`), in Jekyll's includes
//! too (Liquid would insert them as they are). A value missing from the call
//! is empty, as Hugo and Jekyll have it (Zola stops the build: it is named).
//! An attribute that holds a URL (`src`, `href`, `poster`) is given to the
//! writer whole, to lead where the same link or image in Markdown would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Syntax;

/// A blog's own shortcode templates, by the name a post calls them with
/// (`imageFull`; Jekyll's by file, `note.html`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Shortcodes {
    by_name: BTreeMap<String, Shortcode>,
}

impl Shortcodes {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the template `source` of the shortcode `name`, read from `file`
    /// (relative to the blog folder, to name it in messages), in the syntax
    /// of the tool the blog is made with. The first one added under a name
    /// is kept: add the blog's own before its theme's.
    pub fn add(&mut self, syntax: Syntax, name: &str, file: &Path, source: &str) {
        if self.by_name.contains_key(name) {
            return;
        }
        let markdown = match syntax {
            Syntax::Liquid => true,
            Syntax::Zola => file.extension().is_some_and(|e| e == "md"),
            _ => false,
        };
        let template = parse(syntax, source);
        self.by_name.insert(name.to_string(), Shortcode { file: file.to_path_buf(), syntax, markdown, template });
    }

    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    pub(super) fn get(&self, name: &str) -> Option<&Shortcode> {
        self.by_name.get(name)
    }
}

/// One shortcode's template, read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Shortcode {
    /// The template's file, relative to the blog folder.
    pub file: PathBuf,
    syntax: Syntax,
    /// What it writes is Markdown, rendered with the post: a Zola `.md`
    /// shortcode, a Jekyll include (Liquid runs before the Markdown).
    pub markdown: bool,
    /// The template, or what in it is not run here (with its line).
    template: Result<Vec<Part>, String>,
}

/// The values a call gives a shortcode.
#[derive(Debug, Default)]
pub(super) struct Arguments<'a> {
    pub positional: Vec<Arg>,
    pub named: Vec<(String, Arg)>,
    /// What stands between the call and its end tag, if it has one.
    pub inner: Option<&'a str>,
}

/// One value of a call, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Arg {
    pub text: String,
    /// Written without quotes: `x=false` and `x=0` are false, as the tools read them.
    pub bare: bool,
}

/// What a shortcode writes, in pieces for the writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Piece {
    /// HTML as it is (the template's own, and escaped values).
    Html(String),
    /// The whole value of a URL attribute (`src`, `href`), not yet escaped:
    /// to lead where a Markdown link or image would (`image` for `src`).
    Url { value: String, image: bool },
    /// HTML given by the post (`.Inner`, `| safe`), written as raw HTML is.
    Raw(String),
    /// Markdown to render (`| markdownify`): inline (a single paragraph
    /// without its `<p>`) or as blocks; `shortcodes` when shortcodes in it
    /// are run too (Hugo's inner text); `escaped` when the HTML it makes is
    /// shown as text (Zola's `markdown` without `safe`).
    Markdown { text: String, inline: bool, shortcodes: bool, escaped: bool },
}

/// A shortcode's output, and the values it used that the call did not give.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Output {
    pub pieces: Vec<Piece>,
    pub missing: Vec<String>,
}

impl Shortcode {
    /// Whether the template is simple enough to run; if not, why not.
    pub fn simple(&self) -> Result<(), &str> {
        self.template.as_ref().map(|_| ()).map_err(String::as_str)
    }

    /// Whether the template uses the text between the call and its end tag.
    pub fn uses_inner(&self) -> bool {
        fn any(parts: &[Part]) -> bool {
            parts.iter().any(|part| match part {
                Part::Value { value, .. } => *value == Value::Inner,
                Part::Block { value, body, .. } => *value == Value::Inner || any(body),
                Part::Url { parts, .. } => parts.iter().any(|p| matches!(p, UrlPart::Value(Value::Inner))),
                Part::Html(_) => false,
            })
        }
        self.template.as_ref().is_ok_and(|parts| any(parts))
    }

    /// Runs the template on `args`. A template that is not simple writes nothing.
    pub fn render(&self, args: &Arguments) -> Output {
        let mut run = Run { syntax: self.syntax, args, dots: Vec::new(), out: Output::default() };
        if let Ok(parts) = &self.template {
            run.parts(parts);
        }
        run.out.missing.dedup();
        run.out
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Part {
    Html(String),
    /// A value where HTML text or a quoted attribute value goes.
    Value {
        value: Value,
        filter: Filter,
    },
    /// A URL attribute's value, in its pieces.
    Url {
        image: bool,
        parts: Vec<UrlPart>,
    },
    /// `if VALUE` (or `with VALUE`, whose body calls it `.`): the body,
    /// written when the value is given.
    Block {
        value: Value,
        with: bool,
        body: Vec<Part>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum UrlPart {
    Html(String),
    Value(Value),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Value {
    Named(String),
    Position(usize),
    Inner,
    /// Hugo's `.` inside `with`.
    Dot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Filter {
    /// Escaped, as the tools write a text value.
    Escape,
    /// As it is: Hugo's `.Inner`, Zola's `| safe`.
    Raw,
    /// Rendered from Markdown; `escaped` when the HTML it makes is then
    /// escaped (Zola without `| safe`).
    Markdown { inline: bool, escaped: bool },
}

/// Running a template on a call's values.
struct Run<'r, 'a> {
    syntax: Syntax,
    args: &'r Arguments<'a>,
    /// The values of the `with` blocks around, innermost last.
    dots: Vec<String>,
    out: Output,
}

impl Run<'_, '_> {
    fn parts(&mut self, parts: &[Part]) {
        for part in parts {
            match part {
                Part::Html(html) => self.push(Piece::Html(html.clone())),
                Part::Value { value, filter } => {
                    let text = self.value(value).unwrap_or_default();
                    let piece = match *filter {
                        Filter::Escape => Piece::Html(escaped(&text)),
                        Filter::Raw => Piece::Raw(text),
                        Filter::Markdown { inline, escaped } => {
                            let shortcodes = *value == Value::Inner && self.syntax != Syntax::Liquid;
                            Piece::Markdown { text, inline, shortcodes, escaped }
                        }
                    };
                    self.push(piece);
                }
                Part::Url { image, parts } => {
                    let mut value = String::new();
                    for part in parts {
                        match part {
                            UrlPart::Html(html) => value.push_str(&unescaped(html)),
                            UrlPart::Value(v) => value.push_str(&self.value(v).unwrap_or_default()),
                        }
                    }
                    if self.syntax == Syntax::Hugo && !safe_url(&value) {
                        // As Hugo's html/template writes a URL of any other scheme.
                        value = "#ZgotmplZ".to_string();
                    }
                    self.push(Piece::Url { value, image: *image });
                }
                Part::Block { value, with, body } => {
                    if let Some(text) = self.given(value) {
                        if *with {
                            self.dots.push(text);
                        }
                        self.parts(body);
                        if *with {
                            self.dots.pop();
                        }
                    }
                }
            }
        }
    }

    fn push(&mut self, piece: Piece) {
        match (self.out.pieces.last_mut(), piece) {
            (Some(Piece::Html(last)), Piece::Html(html)) => last.push_str(&html),
            (_, piece) => self.out.pieces.push(piece),
        }
    }

    /// The value's text; None (and noted as missing) if the call gives none.
    fn value(&mut self, value: &Value) -> Option<String> {
        let found = match value {
            Value::Named(name) => self.args.named.iter().find(|(n, _)| n == name).map(|(_, arg)| arg.text.clone()),
            Value::Position(n) => self.args.positional.get(*n).map(|arg| arg.text.clone()),
            Value::Inner => self.args.inner.map(str::to_string),
            Value::Dot => self.dots.last().cloned(),
        };
        if found.is_none() {
            self.out.missing.push(match value {
                Value::Named(name) => name.clone(),
                Value::Position(n) => format!("{n}"),
                Value::Inner | Value::Dot => "body".to_string(),
            });
        }
        found
    }

    /// The value's text if the call gives it and it counts as given: Hugo's
    /// and Zola's `if` take an empty value, `false` and `0` for not given;
    /// Liquid's only a missing one and `false`.
    fn given(&mut self, value: &Value) -> Option<String> {
        let arg = match value {
            Value::Named(name) => self.args.named.iter().find(|(n, _)| n == name).map(|(_, arg)| arg.clone()),
            Value::Position(n) => self.args.positional.get(*n).cloned(),
            Value::Inner => self.args.inner.map(|text| Arg { text: text.to_string(), bare: false }),
            Value::Dot => self.dots.last().map(|text| Arg { text: text.clone(), bare: false }),
        }?;
        let falsy = match self.syntax {
            Syntax::Liquid => arg.bare && matches!(arg.text.as_str(), "false" | "nil"),
            _ => arg.text.is_empty() || (arg.bare && matches!(arg.text.as_str(), "false" | "0")),
        };
        (!falsy).then_some(arg.text)
    }
}

/// Whether Hugo's html/template writes `url` as it is: a relative one, or
/// of the schemes it trusts.
fn safe_url(url: &str) -> bool {
    match url.split_once(':') {
        Some((scheme, _)) if !scheme.contains(['/', '?', '#']) => {
            matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// A value as the tools escape it in HTML (text or a quoted attribute).
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The template's own part of a URL attribute, with HTML's most common
/// entities read (`&amp;` in a query).
fn unescaped(html: &str) -> String {
    html.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// One piece of a template's text.
#[derive(Debug)]
enum Token {
    Text(String),
    /// `{{ … }}`: its inside, and its line.
    Output(String, usize),
    /// `{% … %}`, or a Hugo action that is a statement (`if`, `with`, `end`).
    Statement(String, usize),
}

/// The template `source` in `syntax`, or what in it is not run here.
fn parse(syntax: Syntax, source: &str) -> Result<Vec<Part>, String> {
    let source = if syntax == Syntax::Hugo { without_html_comments(source) } else { source.to_string() };
    let tokens = tokens(syntax, &source)?;
    let mut builder =
        Builder { syntax, html: Html::Text, tag: String::new(), attr: String::new(), url: None, withs: 0 };
    let mut tokens = tokens.into_iter();
    let (parts, end) = builder.parts(&mut tokens)?;
    if let Some(line) = end {
        return Err(format!("an end with no `if` or `with` before it (line {line})"));
    }
    Ok(parts)
}

/// Hugo's html/template leaves HTML comments out of what it writes; so are
/// they here, with what is in them. Lines are kept, for messages.
fn without_html_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(start) = rest.find("<!--") {
        let Some(end) = rest[start..].find("-->") else { break };
        out.push_str(&rest[..start]);
        out.extend(rest[start..start + end].chars().filter(|c| *c == '\n'));
        rest = &rest[start + end + 3..];
    }
    out.push_str(rest);
    out
}

/// The template's text and tags, with the whitespace that `-` trims taken
/// out and comments left out.
fn tokens(syntax: Syntax, source: &str) -> Result<Vec<Token>, String> {
    let opens: &[(&str, &str)] = match syntax {
        Syntax::Hugo => &[("{{", "}}")],
        Syntax::Zola => &[("{{", "}}"), ("{%", "%}"), ("{#", "#}")],
        _ => &[("{{", "}}"), ("{%", "%}")],
    };
    let line_of = |at: usize| source[..at].matches('\n').count() + 1;
    let mut tokens = Vec::new();
    let mut text = String::new();
    let mut trim_next = false;
    let mut at = 0;
    let mut in_comment = false;
    while at < source.len() {
        let Some((start, open, close)) =
            opens.iter().filter_map(|(o, c)| source[at..].find(o).map(|i| (at + i, *o, *c))).min_by_key(|(i, ..)| *i)
        else {
            break;
        };
        let piece = &source[at..start];
        if !in_comment {
            text.push_str(if trim_next { piece.trim_start() } else { piece });
        }
        let inner_start = start + open.len();
        let Some(len) = closing(&source[inner_start..], close) else {
            return Err(format!("a `{open}` that is never closed (line {})", line_of(start)));
        };
        let mut inner = &source[inner_start..inner_start + len];
        at = inner_start + len + close.len();
        let trim_before = inner.starts_with('-');
        trim_next = inner.ends_with('-');
        inner = inner.strip_prefix('-').unwrap_or(inner);
        inner = inner.strip_suffix('-').unwrap_or(inner);
        let inner = inner.trim();
        if trim_before {
            text.truncate(text.trim_end().len());
        }
        let line = line_of(start);
        let comment = open == "{#" || (syntax == Syntax::Hugo && inner.starts_with("/*") && inner.ends_with("*/"));
        if syntax == Syntax::Liquid && open == "{%" {
            match inner.split_whitespace().next() {
                Some("comment") => in_comment = true,
                Some("endcomment") => {
                    in_comment = false;
                    continue;
                }
                _ => {}
            }
        }
        if in_comment || comment {
            continue;
        }
        if !text.is_empty() {
            tokens.push(Token::Text(std::mem::take(&mut text)));
        }
        let statement = open == "{%"
            || (syntax == Syntax::Hugo
                && matches!(
                    inner.split_whitespace().next(),
                    Some("if" | "with" | "end" | "else" | "range" | "define")
                ));
        tokens.push(if statement {
            Token::Statement(inner.to_string(), line)
        } else {
            Token::Output(inner.to_string(), line)
        });
    }
    if in_comment {
        return Err("a `{% comment %}` that is never closed".to_string());
    }
    let rest = &source[at.min(source.len())..];
    text.push_str(if trim_next { rest.trim_start() } else { rest });
    if !text.is_empty() {
        tokens.push(Token::Text(text));
    }
    Ok(tokens)
}

/// Where `close` is in `text`, outside strings.
fn closing(text: &str, close: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if text[i..].starts_with(close) => return Some(i),
            None => {}
        }
    }
    None
}

/// Where in HTML the template's text has got to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Html {
    Text,
    /// In a tag's name (`<fig`).
    TagName,
    /// In a tag, between its attributes.
    Tag,
    /// In an attribute's name.
    AttributeName,
    /// After `=`.
    BeforeValue,
    /// In a quoted attribute value.
    Value(char),
    /// In an unquoted attribute value.
    Unquoted,
    /// In `<!-- … -->` (only in Zola's and Jekyll's templates).
    Comment,
    /// In `<script>` or `<style>`.
    Script,
}

/// Builds a template's parts, following where in HTML each value goes.
struct Builder {
    syntax: Syntax,
    html: Html,
    /// The tag and attribute being read.
    tag: String,
    attr: String,
    /// A URL attribute's value being read: image or link, and its parts.
    url: Option<(bool, Vec<UrlPart>)>,
    /// How many `with` blocks are open (Hugo's `.` means something only in one).
    withs: usize,
}

impl Builder {
    /// Parts up to the end of the tokens, or to an end tag (whose line is
    /// returned).
    fn parts(&mut self, tokens: &mut std::vec::IntoIter<Token>) -> Result<(Vec<Part>, Option<usize>), String> {
        let mut parts = Vec::new();
        while let Some(token) = tokens.next() {
            match token {
                Token::Text(text) => self.text(&text, &mut parts),
                Token::Output(inner, line) => {
                    let (value, filter) = self.output(&inner).map_err(|what| format!("{what} (line {line})"))?;
                    self.value(value, filter, &inner, line, &mut parts)?;
                }
                Token::Statement(inner, line) => {
                    let words: Vec<&str> = inner.split_whitespace().collect();
                    let at = |what: String| format!("{what} (line {line})");
                    match (self.syntax, words.as_slice()) {
                        (Syntax::Hugo, ["end"]) | (Syntax::Zola | Syntax::Liquid, ["endif"]) => {
                            return Ok((parts, Some(line)));
                        }
                        (Syntax::Hugo, ["if" | "with", ..]) | (Syntax::Zola | Syntax::Liquid, ["if", ..]) => {
                            let with = words[0] == "with";
                            let expression = inner[words[0].len()..].trim();
                            let value =
                                self.expression(expression).ok_or_else(|| at(self.unsupported(&inner, true)))?;
                            if self.url.is_some() {
                                return Err(at(format!("`{}` inside a URL attribute", self.written(&inner, true))));
                            }
                            let start = self.html;
                            self.withs += usize::from(with);
                            let (body, end) = self.parts(tokens)?;
                            self.withs -= usize::from(with);
                            if end.is_none() {
                                return Err(at(format!("`{}` without its end", self.written(&inner, true))));
                            }
                            if self.html != start {
                                return Err(at(format!(
                                    "`{}` whose body does not end where in the HTML it starts",
                                    self.written(&inner, true)
                                )));
                            }
                            parts.push(Part::Block { value, with, body });
                        }
                        _ => return Err(at(self.unsupported(&inner, true))),
                    }
                }
            }
        }
        Ok((parts, None))
    }

    /// `inner` as the template writes it, shortened: `{{ $x := .Get "a" }}`.
    fn written(&self, inner: &str, statement: bool) -> String {
        let (open, close) = match (self.syntax, statement) {
            (Syntax::Hugo, _) | (_, false) => ("{{", "}}"),
            _ => ("{%", "%}"),
        };
        let short: String = inner.chars().take(40).collect();
        let dots = if short.len() < inner.len() { "…" } else { "" };
        format!("{open} {short}{dots} {close}")
    }

    fn unsupported(&self, inner: &str, statement: bool) -> String {
        format!("`{}`, which Hanji does not run", self.written(inner, statement))
    }

    /// An output's value and filter; or what in it is not run.
    fn output(&self, inner: &str) -> Result<(Value, Filter), String> {
        let mut pieces = split_pipes(inner).into_iter();
        let first = pieces.next().unwrap_or_default();
        let value = self.expression(first).ok_or_else(|| self.unsupported(inner, false))?;
        let filters: Vec<&str> = pieces.collect();
        let filter = match (self.syntax, filters.as_slice()) {
            (Syntax::Hugo, []) if value == Value::Inner => Filter::Raw,
            (_, []) => Filter::Escape,
            (Syntax::Hugo, ["markdownify"]) => Filter::Markdown { inline: true, escaped: false },
            (Syntax::Liquid, ["markdownify"]) => Filter::Markdown { inline: false, escaped: false },
            (Syntax::Zola, ["safe"]) => Filter::Raw,
            (Syntax::Zola, [markdown]) | (Syntax::Zola, [markdown, "safe"]) if markdown.starts_with("markdown") => {
                let inline = match markdown.strip_prefix("markdown").map(str::trim) {
                    Some("") | Some("(inline=false)") => false,
                    Some("(inline=true)") => true,
                    _ => return Err(self.unsupported(inner, false)),
                };
                Filter::Markdown { inline, escaped: filters.len() == 1 }
            }
            _ => return Err(self.unsupported(inner, false)),
        };
        Ok((value, filter))
    }

    /// The value an expression names: `.Get "src"`, `.Get 0`, `.Inner`, `.`
    /// (Hugo); `src`, `body` (Zola); `include.src` (Jekyll).
    fn expression(&self, expression: &str) -> Option<Value> {
        let mut expression = expression.trim();
        while let Some(inside) = expression.strip_prefix('(').and_then(|e| e.strip_suffix(')')) {
            expression = inside.trim();
        }
        match self.syntax {
            Syntax::Hugo => {
                let expression = expression.strip_prefix('$').unwrap_or(expression);
                if expression == "." {
                    return (self.withs > 0).then_some(Value::Dot);
                }
                if expression == ".Inner" {
                    return Some(Value::Inner);
                }
                let argument = expression.strip_prefix(".Get")?.trim();
                if let Some(name) = quoted(argument) {
                    return Some(Value::Named(name.to_string()));
                }
                argument.parse().ok().map(Value::Position)
            }
            Syntax::Zola => {
                let is_name = expression.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && expression.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                // What Zola gives a shortcode besides its arguments is not run.
                let context = ["page", "section", "config", "nth", "lang", "current_url", "current_path"];
                match expression {
                    "body" => Some(Value::Inner),
                    name if is_name && !context.contains(&name) => Some(Value::Named(name.to_string())),
                    _ => None,
                }
            }
            _ => {
                let name = expression.strip_prefix("include.")?;
                let is_name =
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                is_name.then(|| Value::Named(name.to_string()))
            }
        }
    }

    /// Places a value where the HTML has got to.
    fn value(
        &mut self,
        value: Value,
        filter: Filter,
        inner: &str,
        line: usize,
        parts: &mut Vec<Part>,
    ) -> Result<(), String> {
        let written = self.written(inner, false);
        let at = |what: &str| format!("`{written}` {what} (line {line})");
        if let Some((_, url)) = &mut self.url {
            if filter != Filter::Escape && filter != Filter::Raw {
                return Err(at("in a URL attribute"));
            }
            url.push(UrlPart::Value(value));
            return Ok(());
        }
        match self.html {
            Html::Text | Html::Comment => {}
            Html::Value(_) => {
                let attr = self.attr.to_ascii_lowercase();
                if attr == "style" || attr.starts_with("on") {
                    return Err(at(&format!("in the `{attr}` attribute")));
                }
                if matches!(filter, Filter::Markdown { .. }) || (value == Value::Inner && self.syntax == Syntax::Hugo) {
                    return Err(at("in an attribute"));
                }
            }
            Html::Script => return Err(at(&format!("inside `<{}>`", self.tag))),
            Html::Unquoted | Html::BeforeValue => return Err(at("as an unquoted attribute value")),
            Html::TagName | Html::Tag | Html::AttributeName => return Err(at("where a tag or attribute name goes")),
        }
        parts.push(Part::Value { value, filter });
        Ok(())
    }

    /// Follows the HTML of the template's own text, splitting out the
    /// values of URL attributes.
    fn text(&mut self, text: &str, parts: &mut Vec<Part>) {
        let mut literal = String::new();
        let flush = |literal: &mut String, url: &mut Option<(bool, Vec<UrlPart>)>, parts: &mut Vec<Part>| {
            if literal.is_empty() {
                return;
            }
            let text = std::mem::take(literal);
            match url {
                Some((_, url)) => url.push(UrlPart::Html(text)),
                None => parts.push(Part::Html(text)),
            }
        };
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let rest = &text[i..];
            match self.html {
                Html::Text => {
                    if rest.starts_with("<!--") {
                        self.html = Html::Comment;
                    } else if c == '<' && rest[1..].starts_with(|n: char| n.is_ascii_alphabetic() || n == '/') {
                        self.html = Html::TagName;
                        self.tag.clear();
                    }
                }
                Html::Comment => {
                    if rest.starts_with("-->") {
                        literal.push_str("-->");
                        chars.next();
                        chars.next();
                        self.html = Html::Text;
                        continue;
                    }
                }
                Html::TagName => match c {
                    '>' => self.end_tag(),
                    c if c.is_whitespace() => self.html = Html::Tag,
                    c => self.tag.push(c.to_ascii_lowercase()),
                },
                Html::Tag => match c {
                    '>' => self.end_tag(),
                    c if c.is_whitespace() || c == '/' => {}
                    c => {
                        self.html = Html::AttributeName;
                        self.attr.clear();
                        self.attr.push(c);
                    }
                },
                Html::AttributeName => match c {
                    '=' => self.html = Html::BeforeValue,
                    '>' => self.end_tag(),
                    c if c.is_whitespace() || c == '/' => self.html = Html::Tag,
                    c => self.attr.push(c),
                },
                Html::BeforeValue => match c {
                    '"' | '\'' => {
                        self.html = Html::Value(c);
                        literal.push(c);
                        flush(&mut literal, &mut self.url, parts);
                        let attr = self.attr.to_ascii_lowercase();
                        if matches!(attr.as_str(), "src" | "href" | "poster") {
                            self.url = Some((attr != "href", Vec::new()));
                        }
                        continue;
                    }
                    '>' => self.end_tag(),
                    c if c.is_whitespace() => {}
                    _ => self.html = Html::Unquoted,
                },
                Html::Value(quote) => {
                    if c == quote {
                        flush(&mut literal, &mut self.url, parts);
                        if let Some((image, url)) = self.url.take() {
                            parts.push(Part::Url { image, parts: url });
                        }
                        self.html = Html::Tag;
                    }
                }
                Html::Unquoted => match c {
                    '>' => self.end_tag(),
                    c if c.is_whitespace() => self.html = Html::Tag,
                    _ => {}
                },
                Html::Script => {
                    let end = format!("</{}", self.tag);
                    // `get`: the script's text may hold a character of several bytes where the end tag would end.
                    if rest.get(..end.len()).is_some_and(|start| start.eq_ignore_ascii_case(&end)) {
                        self.html = Html::TagName;
                        self.tag.clear();
                        literal.push('<');
                        continue;
                    }
                }
            }
            literal.push(c);
        }
        flush(&mut literal, &mut self.url, parts);
    }

    fn end_tag(&mut self) {
        self.html = if matches!(self.tag.as_str(), "script" | "style") { Html::Script } else { Html::Text };
    }
}

/// `a | b | c`, split at the pipes outside strings.
fn split_pipes(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if c == '|' => {
                pieces.push(text[start..i].trim());
                start = i + 1;
            }
            None => {}
        }
    }
    pieces.push(text[start..].trim());
    pieces
}

/// The inside of `"name"`, `'name'` or `` `name` ``.
fn quoted(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inside = text.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inside.contains(quote)).then_some(inside)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shortcode(syntax: Syntax, file: &str, source: &str) -> Shortcode {
        let mut all = Shortcodes::new();
        all.add(syntax, "x", Path::new(file), source);
        all.get("x").unwrap().clone()
    }

    fn arg(text: &str) -> Arg {
        Arg { text: text.to_string(), bare: false }
    }

    fn named<'a>(pairs: &[(&str, &str)], inner: Option<&'a str>) -> Arguments<'a> {
        Arguments { named: pairs.iter().map(|(k, v)| (k.to_string(), arg(v))).collect(), inner, ..Default::default() }
    }

    fn html(output: &Output) -> String {
        output
            .pieces
            .iter()
            .map(|piece| match piece {
                Piece::Html(html) | Piece::Raw(html) => html.clone(),
                Piece::Url { value, .. } => format!("[{value}]"),
                Piece::Markdown { text, .. } => format!("md({text})"),
            })
            .collect()
    }

    #[test]
    fn hugo_values_are_escaped_and_urls_given_whole() {
        let figure = shortcode(
            Syntax::Hugo,
            "layouts/shortcodes/x.html",
            "<!-- {{ .Page.Title }} -->\n<figure>\n  <img src=\"/img/{{ .Get \"src\" }}\" alt='{{ .Get \"alt\" }}'>\n  \
             {{- with .Get \"caption\" }}<figcaption>{{ . | markdownify }}</figcaption>{{ end -}}\n</figure>\n",
        );
        assert_eq!(figure.simple(), Ok(()));
        let out = figure.render(&named(&[("src", "a b.png"), ("alt", "A \"q\" & 'b'")], None));
        assert_eq!(
            html(&out),
            "\n<figure>\n  <img src=\"[/img/a b.png]\" alt='A &quot;q&quot; &amp; &#39;b&#39;'></figure>\n"
        );
        let out = figure.render(&named(&[("src", "a.png"), ("caption", "*C*")], None));
        assert!(html(&out).contains("><figcaption>md(*C*)</figcaption></figure>"), "{}", html(&out));
        assert_eq!(out.missing, ["alt"], "missing values are empty, and named");
    }

    #[test]
    fn positions_inner_and_truthiness() {
        let note = shortcode(
            Syntax::Hugo,
            "x.html",
            "<b>{{ with .Get 0 }}[{{ . }}]{{ end }}{{ if .Get \"x\" }}X{{ end }}</b>",
        );
        let call = |positional: Vec<Arg>, named: Vec<(String, Arg)>| Arguments { positional, named, inner: None };
        assert_eq!(html(&note.render(&call(vec![arg("first")], vec![]))), "<b>[first]</b>");
        let bare = |text: &str| Arg { text: text.to_string(), bare: true };
        for (value, shown) in [(arg(""), false), (bare("false"), false), (bare("0"), false), (arg("false"), true)] {
            let out = note.render(&call(vec![], vec![("x".into(), value.clone())]));
            assert_eq!(html(&out) == "<b>X</b>", shown, "{value:?}");
        }
        let inner = shortcode(Syntax::Hugo, "x.html", "<div>{{ .Inner }}</div>");
        assert!(inner.uses_inner());
        assert_eq!(
            inner.render(&named(&[], Some("**x**"))).pieces,
            [Piece::Html("<div>".into()), Piece::Raw("**x**".into()), Piece::Html("</div>".into())]
        );
    }

    #[test]
    fn what_is_not_simple_is_named_with_its_line() {
        let not = |source: &str| shortcode(Syntax::Hugo, "x.html", source).simple().unwrap_err().to_string();
        assert_eq!(
            not("<p>\n{{ $src := .Get \"src\" }}</p>"),
            "`{{ $src := .Get \"src\" }}`, which Hanji does not run (line 2)"
        );
        assert!(not("{{ .Page.Title }}").contains("{{ .Page.Title }}"));
        assert!(not("{{ if .Get \"a\" }}a{{ else }}b{{ end }}").contains("{{ else }}"));
        assert!(not("<img {{ .Get \"x\" }}>").contains("where a tag or attribute name goes"));
        assert!(not("<img src={{ .Get \"x\" }}>").contains("unquoted"));
        assert!(not("<p style=\"color: {{ .Get 0 }}\">").contains("`style` attribute"));
        assert!(not("<script>var a = \"{{ .Get 0 }}\";</script>").contains("inside `<script>`"));
        assert!(not("{{ if .Get 0 }}<p>").contains("without its end"));
        assert!(not("{{ .Get 0 | upper }}").contains("upper"));
        assert!(not("{{ .Get 0 }").contains("never closed"));
        assert_eq!(shortcode(Syntax::Hugo, "x.html", "{{/* a note */}}<p>{{- .Get 0 -}} </p>").simple(), Ok(()));
    }

    #[test]
    fn hugo_trusts_only_some_url_schemes() {
        let link = shortcode(Syntax::Hugo, "x.html", "<a href=\"{{ .Get 0 }}\">x</a>");
        let out = link.render(&Arguments { positional: vec![arg("javascript:alert(1)")], ..Default::default() });
        assert_eq!(out.pieces[1], Piece::Url { value: "#ZgotmplZ".into(), image: false });
        let out = link.render(&Arguments { positional: vec![arg("https://a.example/?a=1&b=2")], ..Default::default() });
        assert_eq!(out.pieces[1], Piece::Url { value: "https://a.example/?a=1&b=2".into(), image: false });
    }

    #[test]
    fn zola_and_jekyll() {
        let zola = shortcode(
            Syntax::Zola,
            "templates/shortcodes/x.html",
            "{# note #}<div class=\"{{ kind }}\">{% if title %}<b>{{ title }}</b>{% endif %}{{ body | markdown | safe }}{{ body }}</div>",
        );
        assert_eq!(zola.simple(), Ok(()));
        assert!(!zola.markdown);
        let out = zola.render(&named(&[("kind", "a<b")], Some("*x*")));
        assert_eq!(html(&out), "<div class=\"a&lt;b\">md(*x*)*x*</div>");
        assert!(matches!(out.pieces[1], Piece::Markdown { escaped: false, inline: false, .. }));
        assert!(shortcode(Syntax::Zola, "x.html", "{{ page.title }}").simple().is_err());
        assert!(shortcode(Syntax::Zola, "x.html", "{{ nth }}").simple().is_err());
        assert!(shortcode(Syntax::Zola, "x.md", "**{{ body }}**").markdown);

        let jekyll = shortcode(
            Syntax::Liquid,
            "_includes/x.html",
            "{% comment %} {{ page.x }} {% endcomment %}<img src=\"{{ include.src }}\">{%- if include.caption -%} <i>{{ include.caption }}</i>{%- endif %}",
        );
        assert_eq!(jekyll.simple(), Ok(()));
        assert!(jekyll.markdown, "Liquid runs before the Markdown");
        assert_eq!(
            html(&jekyll.render(&named(&[("src", "a.png"), ("caption", "")], None))),
            "<img src=\"[a.png]\"><i></i>",
            "\"\" is true in Liquid"
        );
        assert!(shortcode(Syntax::Liquid, "x.html", "{% assign w = include.w %}").simple().is_err());
        assert!(shortcode(Syntax::Liquid, "x.html", "{{ site.baseurl }}").simple().is_err());
    }

    #[test]
    fn the_first_template_of_a_name_is_kept() {
        let mut all = Shortcodes::new();
        all.add(Syntax::Hugo, "x", Path::new("layouts/shortcodes/x.html"), "own");
        all.add(Syntax::Hugo, "x", Path::new("themes/t/layouts/shortcodes/x.html"), "theme's");
        assert_eq!(all.len(), 1);
        assert_eq!(all.get("x").unwrap().file, Path::new("layouts/shortcodes/x.html"));
    }
}

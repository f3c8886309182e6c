//! MDX in a post: ES module lines, JSX components and HTML tags with JSX
//! values, found by a small hand-written scanner and written as the site
//! shows them, as far as that needs no JavaScript run. MDX
//! (`@mdx-js/mdx`, which the Next.js starter compiles every post with:
//! `mdx-bundler` in its first version, contentlayer's `contentType: 'mdx'`
//! in its second) shows nothing for an `import` or `export` statement, and a
//! component is what the site's own code makes of it: Hanji knows the
//! starter's `Image` and `TOCInline`; of any other it shows what the
//! component holds, and no raw `{…}`.

use std::fmt::Write as _;

use super::foreign::{Shown, shorten};

/// The hint for a component Hanji does not run.
const MDX_HINT: &str = "Hanji runs no JavaScript: write it in Markdown, or keep it for the Next.js site";

/// A table of contents as the starter's `TOCInline` component
/// (`components/TOCInline.js`) writes it, by its props.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InlineToc {
    /// `fromHeading` (1) and `toHeading` (6): the heading levels listed.
    pub from: u8,
    pub to: u8,
    /// `indentDepth` (3): headings this deep or deeper are indented (`ml-6`).
    pub indent: u8,
    /// `asDisclosure`: in a `<details open>` with a "Table of Contents" summary.
    pub disclosure: bool,
    /// `exclude`: headings of these texts (case aside) are not listed.
    pub exclude: Vec<String>,
}

/// The MDX construct at the start of `rest` (which starts with `<`, or with
/// `import`/`export` at the start of a line): its length and what it shows.
/// None for what is not one (text, HTML without JSX values).
pub(super) fn construct(rest: &str) -> Option<(usize, Shown)> {
    if let Some(keyword) = ["import", "export"].into_iter().find(|k| rest.starts_with(k)) {
        if !rest[keyword.len()..].starts_with([' ', '\t', '{', '*']) {
            return None;
        }
        // An ES module statement runs to the next blank line, as in MDX
        // (`micromark-extension-mdxjs-esm`); the page shows nothing of it.
        let mut end = 0;
        for line in rest.split_inclusive('\n') {
            if line.trim().is_empty() {
                break;
            }
            end += line.len();
        }
        return Some((rest[..end].trim_end().len(), Shown::Nothing));
    }
    let closing = rest.starts_with("</");
    let name_start = if closing { 2 } else { 1 };
    if !rest[name_start..].starts_with(|c: char| c.is_ascii_uppercase()) {
        // Lower case is HTML, which Markdown passes through: only JSX
        // values in its attributes (`width={500}`) need writing as HTML.
        let (end, html, dropped) = html_with_jsx(rest)?;
        return Some((end, Shown::Html { html, dropped }));
    }
    let name_len = rest[name_start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(rest.len() - name_start);
    let name = &rest[name_start..name_start + name_len];
    let JsxTag { end, self_closing, attributes, .. } = jsx_tag(rest, name_start + name_len)?;
    if closing {
        // Its opening tag said what is left out.
        return Some((end, Shown::Nothing));
    }
    let text = |key: &str| attributes.iter().find(|(k, _)| *k == key).and_then(|(_, v)| v.text()).map(str::to_string);
    let shown = match (name, self_closing, text("src")) {
        ("Image", true, Some(src)) => Shown::Image { src, alt: text("alt").unwrap_or_default() },
        ("TOCInline", true, _) => Shown::Toc(inline_toc(&attributes)),
        _ => Shown::Left { what: format!("MDX component `<{name}>`"), holds: !self_closing, hint: MDX_HINT },
    };
    Some((end, shown))
}

/// `TOCInline`'s props as its defaults and the tag give them; a value that
/// is not a literal keeps the default.
fn inline_toc(attributes: &[(&str, JsxValue<'_>)]) -> InlineToc {
    let mut toc = InlineToc { from: 1, to: 6, indent: 3, disclosure: false, exclude: Vec::new() };
    for (name, value) in attributes {
        let literal = match value {
            JsxValue::Bare => Some(Literal::Bare),
            JsxValue::Quoted(quoted) => Some(Literal::Text(quoted[1..quoted.len() - 1].to_string())),
            JsxValue::Expression(written) => jsx_literal(name, written[1..written.len() - 1].trim()),
        };
        let number = |literal: &Option<Literal>, default: u8| match literal {
            Some(Literal::Text(text)) => text.parse().unwrap_or(default),
            _ => default,
        };
        match *name {
            "fromHeading" => toc.from = number(&literal, toc.from),
            "toHeading" => toc.to = number(&literal, toc.to),
            "indentDepth" => toc.indent = number(&literal, toc.indent),
            "asDisclosure" => toc.disclosure = matches!(literal, Some(Literal::Bare)),
            "exclude" => toc.exclude = excluded(value),
            _ => {}
        }
    }
    toc
}

/// `exclude` as written: one text (`'Intro'`, `{'Intro'}`) or a list of them
/// (`{['Intro', 'Outro']}`), which `TOCInline` joins into
/// `^(Intro|Outro)$`; matched here as whole texts, case aside.
fn excluded(value: &JsxValue<'_>) -> Vec<String> {
    let inner = match value {
        JsxValue::Quoted(quoted) => return vec![quoted[1..quoted.len() - 1].to_string()],
        JsxValue::Bare => return Vec::new(),
        JsxValue::Expression(written) => written[1..written.len() - 1].trim(),
    };
    let list = inner.strip_prefix('[').and_then(|i| i.strip_suffix(']')).unwrap_or(inner);
    list.split(',').filter_map(|item| quoted(item.trim())).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

/// The `TOCInline` list of `toc`'s headings (level, id, text), as the
/// component writes it.
pub(super) fn toc_html(toc: &InlineToc, headings: &[super::TocEntry]) -> String {
    let mut list = String::from("<ul>");
    for heading in headings {
        let listed = (toc.from..=toc.to).contains(&heading.level)
            && !toc.exclude.iter().any(|text| text.to_lowercase() == heading.title.to_lowercase());
        if !listed {
            continue;
        }
        // React writes `class="false"` for a shallow heading; Hanji no class.
        list.push_str(if heading.level >= toc.indent { "<li class=\"ml-6\">" } else { "<li>" });
        list.push_str("<a href=\"#");
        super::escape::href(&mut list, &heading.id);
        list.push_str("\">");
        super::escape::text(&mut list, &heading.title);
        list.push_str("</a></li>");
    }
    list.push_str("</ul>");
    if !toc.disclosure {
        return list;
    }
    format!(
        "<details open><summary class=\"pt-2 pb-2 ml-6 text-xl font-bold\">Table of Contents</summary>\
         <div class=\"ml-6\">{list}</div></details>"
    )
}

/// An HTML start tag at the start of `text` that has JSX values (`{…}`) in
/// its attributes, written as HTML: (its length, the tag, the attributes left
/// out). A literal value is written as its text (`{500}` → `"500"`, `{"a"}`
/// → `"a"`, `{true}` → the bare name, `{false}` → left out); a `style`
/// object as CSS, numbers in pixels as React writes them (`{{ marginTop: 8 }}`
/// → `"margin-top: 8px"`); `className` and `htmlFor` as `class` and `for`.
/// Any other expression is left out and named. None for a tag without JSX
/// values, which is HTML as it is.
fn html_with_jsx(text: &str) -> Option<(usize, String, Vec<String>)> {
    let name_len = text[1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))? + 1;
    if name_len == 1 {
        return None;
    }
    let tag = jsx_tag(text, name_len)?;
    let any_jsx = tag.attributes.iter().any(|(_, value)| matches!(value, JsxValue::Expression(_)));
    if tag.spread || !any_jsx {
        return None; // HTML as it is, or an object spread: not a tag to rewrite
    }
    let mut html = text[..name_len].to_string();
    let mut dropped = Vec::new();
    for (name, value) in &tag.attributes {
        let name = match *name {
            "className" => "class",
            "htmlFor" => "for",
            name => name,
        };
        match value {
            JsxValue::Bare => {
                let _ = write!(html, " {name}");
            }
            JsxValue::Quoted(quoted) => {
                let _ = write!(html, " {name}={quoted}");
            }
            JsxValue::Expression(written) => match jsx_literal(name, written[1..written.len() - 1].trim()) {
                Some(Literal::Text(text)) => {
                    let _ = write!(html, " {name}=\"{}\"", text.replace('&', "&amp;").replace('"', "&quot;"));
                }
                Some(Literal::Bare) => {
                    let _ = write!(html, " {name}");
                }
                Some(Literal::Absent) => {}
                None => dropped.push(format!("{name}={}", shorten(written))),
            },
        }
    }
    html.push_str(if tag.self_closing { " />" } else { ">" });
    Some((tag.end, html, dropped))
}

enum Literal {
    Text(String),
    /// `{true}`: the attribute without a value.
    Bare,
    /// `{false}`, `{null}`: no attribute.
    Absent,
}

/// The value of a JSX expression that is a literal; None for any other.
fn jsx_literal(name: &str, expression: &str) -> Option<Literal> {
    match expression {
        "true" => return Some(Literal::Bare),
        "false" | "null" | "undefined" => return Some(Literal::Absent),
        _ => {}
    }
    if let Some(text) = quoted(expression) {
        return Some(Literal::Text(text.to_string()));
    }
    if expression.parse::<f64>().is_ok() {
        return Some(Literal::Text(expression.to_string()));
    }
    if name == "style" && expression.starts_with('{') && expression.ends_with('}') {
        return style_object(&expression[1..expression.len() - 1]).map(Literal::Text);
    }
    None
}

/// `"a"`, `'a'` or `` `a` `` (without `${`) as its text.
fn quoted(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = text.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inner.contains(quote) && !inner.contains('\\') && !inner.contains("${")).then_some(inner)
}

/// A React style object of literal values as CSS: `marginTop: 8, color: 'red'`
/// → `margin-top: 8px; color: red`. None if any value is not a literal.
fn style_object(inner: &str) -> Option<String> {
    // Properties React writes without `px`.
    const UNITLESS: &[&str] = &[
        "flex",
        "flexGrow",
        "flexShrink",
        "fontWeight",
        "lineHeight",
        "opacity",
        "order",
        "zIndex",
        "zoom",
        "columnCount",
        "gridRow",
        "gridColumn",
        "tabSize",
    ];
    let mut css = Vec::new();
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once(':')?;
        let key = key.trim();
        let key = quoted(key).unwrap_or(key);
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return None;
        }
        let value = value.trim();
        let value = match quoted(value) {
            Some(text) => text.to_string(),
            None if value.parse::<f64>().is_ok() => {
                if value == "0" || UNITLESS.contains(&key) {
                    value.to_string()
                } else {
                    format!("{value}px")
                }
            }
            None => return None,
        };
        if value.contains([';', '"', '<', '>']) {
            return None;
        }
        let property: String = key
            .chars()
            .flat_map(|c| if c.is_ascii_uppercase() { vec!['-', c.to_ascii_lowercase()] } else { vec![c] })
            .collect();
        css.push(format!("{property}: {value}"));
    }
    Some(css.join("; "))
}

/// One attribute's value in a JSX tag, as written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum JsxValue<'a> {
    /// A name without a value (`hidden`).
    Bare,
    /// `"text"` or `'text'`, with its quotes.
    Quoted(&'a str),
    /// `{expression}`, with its braces.
    Expression(&'a str),
}

impl<'a> JsxValue<'a> {
    /// The value as text: a quoted one's inside, "" for a bare name, None for an expression.
    fn text(self) -> Option<&'a str> {
        match self {
            JsxValue::Bare => Some(""),
            JsxValue::Quoted(quoted) => Some(&quoted[1..quoted.len() - 1]),
            JsxValue::Expression(_) => None,
        }
    }
}

/// The attributes of a JSX tag from byte `at` of `text` (after its name), to
/// its `>` or `/>`.
struct JsxTag<'a> {
    end: usize,
    self_closing: bool,
    attributes: Vec<(&'a str, JsxValue<'a>)>,
    /// It spreads an object into its attributes (`{...props}`).
    spread: bool,
}

/// The tag from byte `at` of `text` (after its name); None if it never ends.
fn jsx_tag(text: &str, mut at: usize) -> Option<JsxTag<'_>> {
    let mut attributes = Vec::new();
    let mut spread = false;
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if let Some(close) = ["/>", ">"].into_iter().find(|close| trimmed.starts_with(close)) {
            return Some(JsxTag { end: at + close.len(), self_closing: close == "/>", attributes, spread });
        }
        if trimmed.starts_with('{') {
            at += braced(trimmed)?;
            spread = true;
            continue;
        }
        let name_len = trimmed.find(|c: char| c.is_whitespace() || matches!(c, '=' | '/' | '>' | '<' | '{'))?;
        if name_len == 0 {
            return None;
        }
        let name = &trimmed[..name_len];
        at += name_len;
        let rest = &text[at..];
        let Some(after_eq) = rest.trim_start().strip_prefix('=') else {
            attributes.push((name, JsxValue::Bare));
            continue;
        };
        at += rest.len() - after_eq.len();
        let value = after_eq.trim_start();
        at += after_eq.len() - value.len();
        let parsed = if value.starts_with('{') {
            JsxValue::Expression(&value[..braced(value)?])
        } else if let Some(quote) = value.chars().next().filter(|c| matches!(c, '"' | '\'')) {
            JsxValue::Quoted(&value[..value[1..].find(quote)? + 2])
        } else {
            return None;
        };
        at += match parsed {
            JsxValue::Expression(written) | JsxValue::Quoted(written) => written.len(),
            JsxValue::Bare => 0,
        };
        attributes.push((name, parsed));
    }
}

/// The length of the `{…}` at the start of `text`, nested braces and strings
/// inside included; None if it never closes.
fn braced(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::Syntax;
    use crate::markdown::foreign::find;

    fn found(body: &str, syntax: Syntax) -> Vec<(&str, Shown)> {
        find(body, syntax, &[], None).into_iter().map(|c| (&body[c.range], c.shown)).collect()
    }

    #[test]
    fn jsx_values_in_html_tags_are_written_as_html() {
        fn html(text: &str) -> Option<(&str, String, Vec<String>)> {
            html_with_jsx(text).map(|(end, html, dropped)| (&text[..end], html, dropped))
        }
        let (tag, written, dropped) =
            html("<img src=\"/a.png\" width={500} alt={'A'} hidden={true} x={false} /> rest").unwrap();
        assert_eq!(tag, "<img src=\"/a.png\" width={500} alt={'A'} hidden={true} x={false} />");
        assert_eq!(written, "<img src=\"/a.png\" width=\"500\" alt=\"A\" hidden />");
        assert!(dropped.is_empty());
        let (_, written, _) =
            html("<div style={{ marginTop: 8, color: 'red', lineHeight: 1.5, margin: 0 }} className=\"x\">").unwrap();
        assert_eq!(written, "<div style=\"margin-top: 8px; color: red; line-height: 1.5; margin: 0\" class=\"x\">");
        let (_, written, dropped) = html("<p title={post.title} data-n={1}>").unwrap();
        assert_eq!((written.as_str(), dropped), ("<p data-n=\"1\">", vec!["title={post.title}".to_string()]));
        assert_eq!(html("<p class=\"plain\">"), None, "HTML as it is");
        assert_eq!(html("<div {...props}>"), None);
    }
    #[test]
    fn mdx_components_and_imports() {
        let body = "import Image from './Image'\nimport { x } from 'y'\n\nexporting is a word.\n\n\
                    <Image src=\"/static/a.png\" alt='A' width={500} {...rest} />\n\
                    <TOCInline toc={props.toc} exclude={[\"a\", '}']} toHeading={3} asDisclosure />\n\
                    <Note>\nhi\n</Note> <div>html</div>";
        let found = found(body, Syntax::Mdx);
        assert_eq!(found[0], ("import Image from './Image'\nimport { x } from 'y'", Shown::Nothing));
        assert_eq!(found[1].1, Shown::Image { src: "/static/a.png".into(), alt: "A".into() });
        let toc = InlineToc { from: 1, to: 3, indent: 3, disclosure: true, exclude: vec!["a".into(), "}".into()] };
        assert_eq!(found[2].1, Shown::Toc(toc));
        assert_eq!(
            found[3],
            ("<Note>", Shown::Left { what: "MDX component `<Note>`".into(), holds: true, hint: MDX_HINT })
        );
        assert_eq!(found[4], ("</Note>", Shown::Nothing));
        assert_eq!(found.len(), 5, "`exporting` and `<div>` are not MDX syntax: {found:?}");
    }

    #[test]
    fn an_inline_toc_lists_the_headings_its_props_name() {
        let heading = |level: u8, id: &str, title: &str| super::super::TocEntry {
            level,
            id: id.into(),
            title: title.into(),
            line: 1,
        };
        let headings =
            [heading(2, "a", "A"), heading(3, "b", "B <x>"), heading(4, "c", "C"), heading(2, "intro", "Intro")];
        let toc = InlineToc { from: 1, to: 3, indent: 3, disclosure: false, exclude: vec!["INTRO".into()] };
        assert_eq!(
            toc_html(&toc, &headings),
            "<ul><li><a href=\"#a\">A</a></li><li class=\"ml-6\"><a href=\"#b\">B &lt;x&gt;</a></li></ul>"
        );
        let disclosure = InlineToc { disclosure: true, exclude: Vec::new(), ..toc };
        assert!(toc_html(&disclosure, &headings).starts_with("<details open><summary"));
    }
}

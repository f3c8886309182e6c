//! Other tools' syntax in a post's Markdown: Hugo shortcodes, Zola shortcodes,
//! Liquid tags and output, MDX components and `import`/`export` lines (read
//! by `mdx`). Found
//! here by small hand-written scanners, never starting inside code or math;
//! the writer renders the harmless ones (a figure, a link to a video, an
//! image, a code block) and shows the rest as written, with a warning.

use std::borrow::Cow;
use std::ops::Range;

use super::Syntax;
use super::shortcodes::{Arg, Arguments, Output, Shortcodes};

/// One construct of another tool's syntax, found in the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Construct {
    /// Its bytes in the body, delimiters included.
    pub range: Range<usize>,
    pub shown: Shown,
}

/// What a construct becomes in the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Shown {
    /// Nothing: Liquid's `{% raw %}` and `{% endraw %}` only ask for the text
    /// between them to be left as it is, which it is.
    Nothing,
    /// This text: an escaped shortcode, `{{</* x */>}}`, is `{{< x >}}`.
    Text(String),
    /// Hugo's `figure`.
    Figure { src: String, alt: String, caption: String, link: String },
    /// MDX's `<Image src=… alt=…/>`.
    Image { src: String, alt: String },
    /// A link to a video, where the tool would embed its player.
    Video { url: String, label: String },
    /// A `highlight` block, as a fenced code block.
    Code { lang: String, code: String },
    /// TeX, as `$…$` (or `$$…$$` when `display`) would be: a Zola theme's
    /// `katex` shortcode.
    Math { tex: String, display: bool },
    /// Shown as written, and reported as `what` is not rendered, `why`
    /// where there is more to say than that Hanji does not run it.
    Unrendered { what: String, why: Option<String>, hint: Cow<'static, str> },
    /// The blog's own shortcode, run (see `shortcodes`): what its template
    /// wrote, HTML or (`markdown`) Markdown to render with the post; and
    /// the values it used that the call does not give, which Zola refuses.
    Own { name: String, output: Output, markdown: bool, missing_refused: bool },
    /// An HTML tag of an MDX post whose JSX attribute values were literals
    /// (`width={500}`, `style={{ margin: 0 }}`), written as HTML; `dropped`
    /// names those that were expressions Hanji cannot run, left out.
    Html { html: String, dropped: Vec<String> },
    /// MDX's `<TOCInline …/>`: the post's table of contents, as the
    /// Next.js starter's component writes it.
    Toc(super::mdx::InlineToc),
    /// Nothing of the construct itself, reported as `what` is left out:
    /// an MDX component Hanji does not run, whose children (`holds`) are
    /// rendered as the rest of the post is.
    Left { what: String, holds: bool, hint: &'static str },
    /// A Kramdown attribute list, `{: .notice #intro target="_blank"}`: these
    /// attributes (names and values as written, classes joined) go on the
    /// element just before it, or on the paragraph whose last line it is.
    Attributes(Vec<(String, String)>),
}

const HUGO_HINT: &str = "Hanji does not run Hugo shortcodes: write it in Markdown, or keep it for Hugo";
const ZOLA_HINT: &str = "Hanji does not run Zola shortcodes: write it in Markdown, or keep it for Zola";
const LIQUID_HINT: &str = "Hanji does not run Liquid: write it in Markdown, or keep it for Jekyll";
const HUGO_OWN_HINT: &str = "Hanji runs a shortcode template of HTML with `.Get`, `.Inner`, `markdownify`, and `if` or \
                             `with` … `end` (see the guide): simplify it, write it in Markdown, or keep it for Hugo";
const ZOLA_OWN_HINT: &str = "Hanji runs a shortcode template of HTML with its arguments, `body`, `safe`, `markdown` and \
                             `if` … `endif` (see the guide): simplify it, write it in Markdown, or keep it for Zola";
const LIQUID_OWN_HINT: &str = "Hanji runs an include of HTML with `include.` values written in the tag, `markdownify` \
                               and `if` … `endif` (see the guide): simplify it, write it in Markdown, or keep it for Jekyll";

/// Delimiters of each syntax's tags: (open, close).
const HUGO: &[(&str, &str)] = &[("{{<", ">}}"), ("{{%", "%}}")];
const ZOLA: &[(&str, &str)] = &[("{{", "}}"), ("{%", "%}")];
const LIQUID: &[(&str, &str)] = &[("{%", "%}"), ("{{", "}}")];

/// Whether the body may hold any of `syntax`: a cheap test that spares most
/// posts the search.
pub(super) fn may_have(body: &str, syntax: Syntax) -> bool {
    match syntax {
        Syntax::Markdown => false,
        Syntax::Hugo => body.contains("{{<") || body.contains("{{%"),
        Syntax::Zola => body.contains("{{") || body.contains("{%"),
        Syntax::Liquid => body.contains("{{") || body.contains("{%") || body.contains("{:"),
        Syntax::Mdx => body.contains('<') || body.contains("import") || body.contains("export"),
    }
}

/// Every construct of `syntax` in `body`, in order, none overlapping. None
/// starts inside `code` (the byte ranges of code spans, code blocks and math).
/// A shortcode the blog defines is run from its template in `own`.
pub(super) fn find(body: &str, syntax: Syntax, code: &[Range<usize>], own: Option<&Shortcodes>) -> Vec<Construct> {
    let mut code = code.to_vec();
    code.sort_by_key(|r| r.start);
    let mut scan = Scan { body, code, found: Vec::new(), own };
    let mut at = 0;
    while let Some(start) = scan.candidate(at, syntax) {
        if let Some(end) = scan.code_end(start) {
            at = end;
            continue;
        }
        let end = match syntax {
            Syntax::Markdown => None,
            Syntax::Hugo => scan.hugo(start),
            Syntax::Zola => scan.zola(start),
            Syntax::Liquid => scan.liquid(start),
            Syntax::Mdx => scan.mdx(start),
        };
        // Candidates start with an ASCII character, so `start + 1` is a boundary.
        at = end.unwrap_or(start + 1);
    }
    scan.found
}

struct Scan<'a> {
    body: &'a str,
    code: Vec<Range<usize>>,
    found: Vec<Construct>,
    own: Option<&'a Shortcodes>,
}

/// A tag as found: where it ends, which delimiters it has, and its inside.
struct Tag<'a> {
    end: usize,
    open: &'static str,
    close: &'static str,
    inner: &'a str,
}

impl<'a> Scan<'a> {
    /// Where the next construct of `syntax` may start, at or after `at`.
    fn candidate(&self, at: usize, syntax: Syntax) -> Option<usize> {
        let bytes = self.body.as_bytes();
        let rest = self.body.get(at..)?;
        match syntax {
            Syntax::Markdown => None,
            Syntax::Hugo | Syntax::Zola | Syntax::Liquid => {
                let mut from = 0;
                loop {
                    let i = rest[from..].find('{')? + from;
                    let next = rest.as_bytes().get(i + 1);
                    if matches!(next, Some(b'{' | b'%')) || (syntax == Syntax::Liquid && next == Some(&b':')) {
                        return Some(at + i);
                    }
                    from = i + 1;
                }
            }
            Syntax::Mdx => (at..bytes.len()).find(|&i| {
                bytes[i] == b'<'
                    || ((i == 0 || bytes[i - 1] == b'\n')
                        && (bytes[i..].starts_with(b"import") || bytes[i..].starts_with(b"export")))
            }),
        }
    }

    /// The end of the code range holding `at`, if it is in code.
    fn code_end(&self, at: usize) -> Option<usize> {
        let index = self.code.partition_point(|r| r.start <= at).checked_sub(1)?;
        let range = &self.code[index];
        (at < range.end).then_some(range.end)
    }

    fn push(&mut self, range: Range<usize>, shown: Shown) -> Option<usize> {
        let end = range.end;
        self.found.push(Construct { range, shown });
        Some(end)
    }

    /// The tag with one of `delimiters` starting at `start`: up to the first
    /// closing delimiter outside quotes. None if it is not closed before the
    /// next tag opens (a lone `{{` in prose).
    fn tag(&self, start: usize, delimiters: &[(&'static str, &'static str)], quotes: &str) -> Option<Tag<'a>> {
        let body = self.body;
        let (open, close) = delimiters.iter().find(|(open, _)| body[start..].starts_with(open))?;
        let from = start + open.len();
        let mut chars = body[from..].char_indices();
        while let Some((i, c)) = chars.next() {
            let at = from + i;
            if body[at..].starts_with(close) {
                return Some(Tag { end: at + close.len(), open, close, inner: &body[from..at] });
            }
            if delimiters.iter().any(|(o, _)| body[at..].starts_with(o)) {
                return None;
            }
            if quotes.contains(c) {
                // To the closing quote; `\"` does not close a `"` string.
                let mut escaped = false;
                let closed = chars.by_ref().any(|(_, d)| {
                    let closes = d == c && !escaped;
                    escaped = d == '\\' && !escaped && c != '`';
                    closes
                });
                if !closed {
                    return None;
                }
            }
        }
        None
    }

    /// The next tag named `name` after `from` (`/highlight`, `endraw`).
    fn closing(
        &self,
        from: usize,
        delimiters: &[(&'static str, &'static str)],
        quotes: &str,
        name: &str,
    ) -> Option<(usize, Tag<'a>)> {
        let mut at = from;
        loop {
            let start = at + self.body[at..].find('{')?;
            if let Some(tag) = self.tag(start, delimiters, quotes)
                && tag_name(tag.inner) == name
            {
                return Some((start, tag));
            }
            at = start + 1;
        }
    }

    fn hugo(&mut self, start: usize) -> Option<usize> {
        let tag = self.tag(start, HUGO, "\"`")?;
        let range = start..tag.end;
        let inner = tag.inner.trim();
        if let Some(comment) = inner.strip_prefix("/*").and_then(|i| i.strip_suffix("*/")) {
            let text = format!("{} {} {}", tag.open, comment.trim(), tag.close);
            return self.push(range, Shown::Text(text));
        }
        let call = Call::hugo(inner);
        // The blog's own template of a name wins over Hugo's, as in Hugo.
        if self.own.is_some_and(|own| own.get(&call.name).is_some()) {
            return self.own_hugo(start, &tag, call);
        }
        let shown = match call.name.as_str() {
            "figure" if !call.named("src").is_empty() => Shown::Figure {
                src: call.named("src"),
                alt: call.named("alt"),
                caption: Some(call.named("caption")).filter(|c| !c.is_empty()).unwrap_or(call.named("title")),
                link: call.named("link"),
            },
            "youtube" if !call.arg("id", 0).is_empty() => youtube(&call.arg("id", 0), &call.named("title")),
            "vimeo" if !call.arg("id", 0).is_empty() => vimeo(&call.arg("id", 0), &call.named("title")),
            "highlight" => {
                let Some((close_start, close)) = self.closing(tag.end, HUGO, "\"`", "/highlight") else {
                    return self.push(range, unrendered("Hugo shortcode `highlight` without its end", HUGO_HINT));
                };
                let code = code_between(&self.body[tag.end..close_start]);
                return self.push(start..close.end, Shown::Code { lang: call.arg("lang", 0), code });
            }
            name => unrendered(&format!("Hugo shortcode `{name}`"), HUGO_HINT),
        };
        self.push(range, shown)
    }

    /// A Hugo shortcode of the blog's own: its template run, with the text up
    /// to its end tag when the template uses it (`.Inner`).
    fn own_hugo(&mut self, start: usize, tag: &Tag<'a>, mut call: Call) -> Option<usize> {
        let name = call.name.clone();
        let shortcode = self.own?.get(&name)?;
        let what = format!("Hugo shortcode `{name}`");
        if let Err(why) = shortcode.simple() {
            let why = format!("its template {} has {why}", shortcode.file.display());
            return self.push(start..tag.end, unrendered_because(&what, why, HUGO_OWN_HINT));
        }
        // `{{< name />}}` closes itself: no end tag, an empty inner text.
        let closed = call.args.last().is_some_and(|(key, value)| key.is_none() && value == "/");
        if closed {
            call.args.pop();
            call.bare.pop();
        }
        let (end, inner) = match (shortcode.uses_inner(), closed) {
            (false, _) => (tag.end, None),
            (true, true) => (tag.end, Some("")),
            (true, false) => match self.closing(tag.end, HUGO, "\"`", &format!("/{name}")) {
                Some((close_start, close)) => (close.end, Some(&self.body[tag.end..close_start])),
                None => {
                    let why =
                        format!("its template {} uses `.Inner`, and the call has no end", shortcode.file.display());
                    let hint = format!("end it with {{{{< /{name} >}}}}, or close it with {{{{< {name} /> }}}}");
                    return self.push(start..tag.end, unrendered_because(&what, why, hint));
                }
            },
        };
        let output = shortcode.render(&call.arguments(inner));
        let markdown = tag.open == "{{%";
        self.push(start..end, Shown::Own { name, output, markdown, missing_refused: false })
    }

    fn zola(&mut self, start: usize) -> Option<usize> {
        let tag = self.tag(start, ZOLA, "\"'`")?;
        let range = start..tag.end;
        let inner = tag.inner.trim();
        if let Some(comment) = inner.strip_prefix("/*").and_then(|i| i.strip_suffix("*/")) {
            let text = format!("{} {} {}", tag.open, comment.trim(), tag.close);
            return self.push(range, Shown::Text(text));
        }
        if tag.open == "{%" && inner == "end" {
            return self.push(range, unrendered("Zola shortcode end `{% end %}`", ZOLA_HINT));
        }
        // Only a call is a shortcode: `{{ x }}` in a Zola post is text.
        let name_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
        let (name, args) = inner.split_at(name_end);
        let args = args.trim().strip_prefix('(')?.strip_suffix(')')?;
        if name.is_empty() {
            return None;
        }
        let call = Call::zola(name, args);
        if name == "katex" {
            let display = call.named("block") == "true";
            if tag.open == "{%" {
                // A body shortcode: the TeX is what stands before its `{% end %}`.
                let Some((close_start, close)) = self.closing(tag.end, ZOLA, "\"'`", "end") else {
                    return self.push(range, unrendered("Zola shortcode `katex` without its `{% end %}`", ZOLA_HINT));
                };
                let tex = self.body[tag.end..close_start].trim().to_string();
                return self.push(start..close.end, Shown::Math { tex, display });
            }
            return self.push(range, Shown::Math { tex: call.named("body"), display });
        }
        if let Some(shortcode) = self.own.and_then(|own| own.get(name)) {
            let what = format!("Zola shortcode `{name}`");
            if let Err(why) = shortcode.simple() {
                let why = format!("its template {} has {why}", shortcode.file.display());
                return self.push(range, unrendered_because(&what, why, ZOLA_OWN_HINT));
            }
            let (end, inner) = if tag.open == "{%" {
                let Some((close_start, close)) = self.closing(tag.end, ZOLA, "\"'`", "end") else {
                    return self.push(
                        range,
                        unrendered(&format!("Zola shortcode `{name}` without its `{{% end %}}`"), ZOLA_HINT),
                    );
                };
                (close.end, Some(body_between(&self.body[tag.end..close_start])))
            } else {
                (tag.end, None)
            };
            let output = shortcode.render(&call.arguments(inner));
            let markdown = shortcode.markdown;
            return self
                .push(start..end, Shown::Own { name: name.to_string(), output, markdown, missing_refused: true });
        }
        let shown = match name {
            "youtube" if !call.named("id").is_empty() => youtube(&call.named("id"), ""),
            "vimeo" if !call.named("id").is_empty() => vimeo(&call.named("id"), ""),
            _ => unrendered(&format!("Zola shortcode `{name}`"), ZOLA_HINT),
        };
        self.push(range, shown)
    }

    fn liquid(&mut self, start: usize) -> Option<usize> {
        if self.body[start..].starts_with("{:") {
            let (end, attributes) = attribute_list(&self.body[start..], follows_an_element(self.body, start))?;
            return self.push(start..start + end, Shown::Attributes(attributes));
        }
        let tag = self.tag(start, LIQUID, "\"'")?;
        let range = start..tag.end;
        let inner = tag.inner.trim_matches('-').trim();
        if tag.open == "{{" {
            let written = shorten(&self.body[range.clone()]);
            return self.push(range, unrendered(&format!("Liquid output `{written}`"), LIQUID_HINT));
        }
        let name = first_word(inner);
        match name {
            "raw" => {
                let Some((close_start, close)) = self.closing(tag.end, LIQUID, "\"'", "endraw") else {
                    return self.push(range, unrendered("Liquid tag `raw` without its `endraw`", LIQUID_HINT));
                };
                // What is between is left alone by Liquid; Kramdown still reads
                // it after Liquid is done, so its attribute lists apply.
                self.push(range, Shown::Nothing);
                let mut at = tag.end;
                while let Some(found) = self.body[at..close_start].find("{:") {
                    let from = at + found;
                    match attribute_list(&self.body[from..close_start], follows_an_element(self.body, from)) {
                        Some((end, attributes)) => {
                            self.push(from..from + end, Shown::Attributes(attributes));
                            at = from + end;
                        }
                        None => at = from + 2,
                    }
                }
                self.push(close_start..close.end, Shown::Nothing)
            }
            "highlight" => {
                let Some((close_start, close)) = self.closing(tag.end, LIQUID, "\"'", "endhighlight") else {
                    return self
                        .push(range, unrendered("Liquid tag `highlight` without its `endhighlight`", LIQUID_HINT));
                };
                let lang = inner.split_whitespace().nth(1).unwrap_or("").to_string();
                let code = code_between(&self.body[tag.end..close_start]);
                self.push(start..close.end, Shown::Code { lang, code })
            }
            "include" => {
                let shown = self.own_include(inner);
                self.push(range, shown)
            }
            _ => self.push(range, unrendered(&format!("Liquid tag `{name}`"), LIQUID_HINT)),
        }
    }

    /// `{% include note.html key="value" %}`: the blog's own include, run.
    fn own_include(&self, inner: &str) -> Shown {
        let rest = inner.strip_prefix("include").unwrap_or(inner).trim();
        let file = rest.split_whitespace().next().unwrap_or("");
        let what = format!("Liquid tag `include {}`", shorten(file));
        let Some(shortcode) = self.own.and_then(|own| own.get(file)) else {
            if self.own.is_none() || file.contains(['{', '}']) {
                return unrendered(&what, LIQUID_HINT);
            }
            let why = format!("the blog has no `_includes/{file}` (a theme gem's includes are not read)");
            return unrendered_because(&what, why, LIQUID_HINT);
        };
        if let Err(why) = shortcode.simple() {
            let why = format!("its template {} has {why}", shortcode.file.display());
            return unrendered_because(&what, why, LIQUID_OWN_HINT);
        }
        match include_arguments(&rest[file.len()..]) {
            Ok(args) => {
                let output = shortcode.render(&args);
                Shown::Own { name: file.to_string(), output, markdown: true, missing_refused: false }
            }
            Err(why) => unrendered_because(&what, why, LIQUID_OWN_HINT),
        }
    }

    fn mdx(&mut self, start: usize) -> Option<usize> {
        let (end, shown) = super::mdx::construct(&self.body[start..])?;
        self.push(start..start + end, shown)
    }
}

/// `text` without the Kramdown attribute lists in it (for a summary: they
/// are markup, not prose).
pub(super) fn without_attribute_lists(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("{:") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("{:") {
        out.push_str(&rest[..at]);
        let place = text.len() - rest.len() + at;
        match attribute_list(&rest[at..], follows_an_element(text, place)) {
            Some((end, _)) => rest = &rest[at + end..],
            None => {
                out.push_str("{:");
                rest = &rest[at + 2..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Whether the `{:` at `at` of `text` follows an element rather than text:
/// it starts its line (a block's list), or comes right after the end of a
/// span element (a code span, a link or image, emphasis, an HTML tag). After
/// text Kramdown keeps `{:` as text (`parse_span_extensions`: "Found span
/// IAL after text - ignoring it"), so a list of bare references there is
/// taken for prose.
fn follows_an_element(text: &str, at: usize) -> bool {
    let line = text[..at].rsplit('\n').next().unwrap_or_default();
    line.trim().is_empty() || line.ends_with(['`', ')', '*', '_', '>', ']'])
}

/// A Kramdown inline attribute list at the start of `text`, `{: .a #b c="d"}`,
/// on one line: where it ends, and its attributes (classes joined into one
/// `class`). None for what is not one: Kramdown's extensions (`{::comment}`),
/// attribute list definitions (`{:name: …}`), or text that does not parse.
fn attribute_list(text: &str, after_element: bool) -> Option<(usize, Vec<(String, String)>)> {
    let rest = text.strip_prefix("{:")?;
    if rest.starts_with(':') {
        return None;
    }
    let mut classes: Vec<&str> = Vec::new();
    let mut attributes: Vec<(String, String)> = Vec::new();
    let mut references = 0;
    let mut at = 0;
    let bytes = rest.as_bytes();
    loop {
        while at < bytes.len() && (bytes[at] == b' ' || bytes[at] == b'\t') {
            at += 1;
        }
        match bytes.get(at)? {
            b'}' => break,
            b'\n' | b'\r' => return None,
            b'.' | b'#' => {
                let name_end =
                    rest[at + 1..].find(|c: char| c.is_whitespace() || c == '}').map_or(rest.len(), |i| at + 1 + i);
                let name = &rest[at + 1..name_end];
                if name.is_empty() || name.contains(['"', '\'', '<', '>', '=']) {
                    return None;
                }
                if bytes[at] == b'.' {
                    classes.push(name);
                } else {
                    attributes.push(("id".to_string(), name.to_string()));
                }
                at = name_end;
            }
            _ => {
                let name_end = rest[at..].find(|c: char| c == '=' || c.is_whitespace() || c == '}')? + at;
                let name = &rest[at..name_end];
                if name.ends_with(':') {
                    return None; // `{:ref: …}` defines a list
                }
                if bytes.get(name_end) != Some(&b'=') {
                    // A bare name refers to a list defined elsewhere (Kramdown's
                    // ALD, `ALD_ID_NAME = \w[\w-]*`): it adds nothing here.
                    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
                    let reference = name.bytes().next().is_some_and(word) && name.bytes().all(|c| word(c) || c == b'-');
                    // Only a list after an element may be nothing but
                    // references: after text Kramdown shows `{:` as text.
                    if !reference || !after_element {
                        return None;
                    }
                    references += 1;
                    at = name_end;
                    continue;
                }
                let (value, after) = match bytes.get(name_end + 1)? {
                    quote @ (b'"' | b'\'') => quoted_value(&rest[name_end + 2..], *quote as char)
                        .map(|(value, length)| (Cow::Owned(value), name_end + 2 + length))?,
                    _ => {
                        let end = rest[name_end + 1..]
                            .find(|c: char| c.is_whitespace() || c == '}')
                            .map_or(rest.len(), |i| name_end + 1 + i);
                        (Cow::Borrowed(&rest[name_end + 1..end]), end)
                    }
                };
                if value.contains(['\n', '\r']) {
                    return None;
                }
                attributes.push((name.to_string(), value.to_string()));
                at = after;
            }
        }
    }
    if !classes.is_empty() {
        attributes.insert(0, ("class".to_string(), classes.join(" ")));
    }
    (!attributes.is_empty() || references > 0).then_some(("{:".len() + at + 1, attributes))
}

/// A quoted value of an attribute list, from just after its opening `quote`:
/// its text and the length up to and with its closing quote. As Kramdown's
/// `ALD_TYPE_KEY_VALUE_PAIR` has it (`(?:\\\}|\\\2|[^\}\2])*?` before the
/// closing quote), `\}` and a backslashed quote stand for themselves
/// (`parse_attribute_list` takes their backslash off), and a bare `}` ends
/// the list before the value does: None.
fn quoted_value(text: &str, quote: char) -> Option<(String, usize)> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            _ if c == quote => return Some((value, at + c.len_utf8())),
            '}' => return None,
            '\\' if text[at + 1..].starts_with(['}', quote]) => {
                let (_, escaped) = chars.next()?;
                value.push(escaped);
            }
            _ => value.push(c),
        }
    }
    None
}

fn unrendered(what: &str, hint: &'static str) -> Shown {
    Shown::Unrendered { what: what.to_string(), why: None, hint: Cow::Borrowed(hint) }
}

fn unrendered_because(what: &str, why: String, hint: impl Into<Cow<'static, str>>) -> Shown {
    Shown::Unrendered { what: what.to_string(), why: Some(why), hint: hint.into() }
}

/// A Zola shortcode's body: the text between its tags, without the line
/// breaks right after the one and before the other.
fn body_between(text: &str) -> &str {
    let text = text.strip_prefix("\r\n").or_else(|| text.strip_prefix('\n')).unwrap_or(text);
    text.strip_suffix('\n').map(|t| t.strip_suffix('\r').unwrap_or(t)).unwrap_or(text)
}

/// The values written in a Jekyll include tag: `key="value"`, `key='value'`,
/// and numbers and `true`/`false` bare. A value taken from a variable
/// (`src=page.image`) is one Hanji does not know: why, as the error.
fn include_arguments(text: &str) -> Result<Arguments<'static>, String> {
    let mut args = Arguments::default();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some((key, after)) = rest.split_once('=') else {
            return Err(format!("`{}` is not a `key=\"value\"` Hanji reads", shorten(rest)));
        };
        let key = key.trim();
        let after = after.trim_start();
        let bare = !after.starts_with(['"', '\'']);
        let (text, next) = value(after);
        let literal = !bare || text.parse::<f64>().is_ok() || matches!(text.as_str(), "true" | "false" | "nil");
        if !literal || key.is_empty() || key.contains(char::is_whitespace) {
            return Err(format!(
                "the value of `{key}` comes from a variable (`{}`), which Hanji does not know",
                shorten(&text)
            ));
        }
        args.named.push((key.to_string(), Arg { text, bare }));
        rest = next.trim_start();
    }
    Ok(args)
}

fn youtube(id: &str, title: &str) -> Shown {
    let label = if title.is_empty() { format!("YouTube video {id}") } else { title.to_string() };
    Shown::Video { url: format!("https://www.youtube.com/watch?v={id}"), label }
}

fn vimeo(id: &str, title: &str) -> Shown {
    let label = if title.is_empty() { format!("Vimeo video {id}") } else { title.to_string() };
    Shown::Video { url: format!("https://vimeo.com/{id}"), label }
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// The name of a tag from its inside: `highlight`, `/highlight` (also when
/// written `/ highlight`), `endraw` (also in `{%- endraw -%}`).
fn tag_name(inner: &str) -> String {
    let inner = inner.trim().trim_matches('-').trim();
    match inner.strip_prefix('/') {
        Some(closing) => format!("/{}", first_word(closing)),
        None => first_word(inner).to_string(),
    }
}

/// At most 40 characters of `text`, for a message.
pub(super) fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// The code between a `highlight` tag and its end, without the line breaks
/// that follow the one and precede the other.
fn code_between(text: &str) -> String {
    let text = text.strip_prefix("\r\n").or_else(|| text.strip_prefix('\n')).unwrap_or(text);
    let mut code = text.trim_end().to_string();
    code.push('\n');
    code
}

/// A shortcode's name and arguments, positional and named.
struct Call {
    name: String,
    args: Vec<(Option<String>, String)>,
    /// For each argument, whether its value was written without quotes.
    bare: Vec<bool>,
}

impl Call {
    /// `figure src="a.png" alt="A"`, `youtube w7Ft2ymGmfc`, `/notice`.
    fn hugo(inner: &str) -> Call {
        let inner = inner.trim();
        let (slash, named) = match inner.strip_prefix('/') {
            Some(closing) => ("/", closing.trim_start()),
            None => ("", inner),
        };
        let name_end = named.find(char::is_whitespace).unwrap_or(named.len());
        let name = format!("{slash}{}", &named[..name_end]);
        let mut rest = &named[name_end..];
        let mut args = Vec::new();
        let mut bare = Vec::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let quoted = |text: &str| text.starts_with(['"', '\'', '`']);
            let (first, after) = value(rest);
            if let Some(after_eq) = after.strip_prefix('=') {
                bare.push(!quoted(after_eq));
                let (value, after) = value(after_eq);
                args.push((Some(first), value));
                rest = after;
            } else {
                bare.push(!quoted(rest));
                args.push((None, first));
                rest = after;
            }
        }
        Call { name, args, bare }
    }

    /// `id="abc", autoplay=true`.
    fn zola(name: &str, inner: &str) -> Call {
        let mut args = Vec::new();
        let mut bare = Vec::new();
        let mut rest = inner;
        loop {
            rest = rest.trim_start().trim_start_matches(',').trim_start();
            if rest.is_empty() {
                break;
            }
            let key_end = rest.find(['=', ',']).unwrap_or(rest.len());
            let key = rest[..key_end].trim().to_string();
            let Some(after) = rest[key_end..].strip_prefix('=') else {
                rest = &rest[key_end..];
                continue;
            };
            let after = after.trim_start();
            bare.push(!after.starts_with(['"', '\'', '`']));
            let (value, after) = value(after);
            args.push((Some(key), value.trim_end_matches(',').to_string()));
            rest = after;
        }
        Call { name: name.to_string(), args, bare }
    }

    /// The values the call gives a template of the blog's own, with the
    /// text up to its end tag.
    fn arguments<'a>(&self, inner: Option<&'a str>) -> Arguments<'a> {
        let mut args = Arguments { inner, ..Arguments::default() };
        for ((key, text), bare) in self.args.iter().zip(&self.bare) {
            let arg = Arg { text: text.clone(), bare: *bare };
            match key {
                Some(key) => args.named.push((key.clone(), arg)),
                None => args.positional.push(arg),
            }
        }
        args
    }

    /// The argument named `key`, or "".
    fn named(&self, key: &str) -> String {
        self.args.iter().find(|(k, _)| k.as_deref() == Some(key)).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    /// The argument named `key`, else the `position`th positional one, else "".
    fn arg(&self, key: &str, position: usize) -> String {
        let named = self.args.iter().find(|(k, _)| k.as_deref() == Some(key)).map(|(_, v)| v.clone());
        named
            .or_else(|| self.args.iter().filter(|(k, _)| k.is_none()).nth(position).map(|(_, v)| v.clone()))
            .unwrap_or_default()
    }
}

/// One value at the start of `text`: a quoted string (`"…"` with `\"`
/// escapes, `'…'`, or `` `…` `` raw), or a bare word up to a space, `=` or `,`.
fn value(text: &str) -> (String, &str) {
    let Some(quote) = text.chars().next().filter(|c| matches!(c, '"' | '\'' | '`')) else {
        let end = text.find(|c: char| c.is_whitespace() || c == '=' || c == ',').unwrap_or(text.len());
        let end = if end == 0 { text.chars().next().map_or(0, char::len_utf8) } else { end };
        return (text[..end].to_string(), &text[end..]);
    };
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == '\\' && quote != '`' {
            if let Some((_, escaped)) = chars.next() {
                out.push(escaped);
            }
        } else if c == quote {
            return (out, &text[i + c.len_utf8()..]);
        } else {
            out.push(c);
        }
    }
    (out, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(body: &str, syntax: Syntax) -> Vec<(&str, Shown)> {
        find(body, syntax, &[], None).into_iter().map(|c| (&body[c.range], c.shown)).collect()
    }

    fn what(shown: &Shown) -> &str {
        match shown {
            Shown::Unrendered { what, .. } => what,
            _ => "",
        }
    }

    #[test]
    fn kramdown_attribute_lists() {
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(attribute_list("{: .notice--info}\nmore", true), Some((17, vec![pair("class", "notice--info")])),);
        assert_eq!(
            attribute_list("{:target=\"_blank\" .a .b #top rel='me x'} after", false).map(|(_, a)| a),
            Some(vec![pair("class", "a b"), pair("target", "_blank"), pair("id", "top"), pair("rel", "me x")]),
        );
        assert_eq!(attribute_list("{:.x}", false).map(|(end, _)| end), Some(5));
        // Kramdown takes a backslashed quote or `}` in a quoted value as itself.
        let escaped = r"{: file='\'dotnet nuget push\' error' b='\}'}";
        assert_eq!(
            attribute_list(escaped, true),
            Some((escaped.len(), vec![pair("file", "'dotnet nuget push' error"), pair("b", "}")]))
        );
        for not in ["{::comment}", "{:ref: .x}", "{: word}", "{: .x", "{: .x\n}", "{:}", "{: a=\"b}", "{: 두 낱말}"]
        {
            assert_eq!(attribute_list(not, false), None, "{not}");
        }
        // After an element, a bare name refers to a list defined elsewhere.
        assert_eq!(attribute_list("{: filepath}", true), Some((12, vec![])));
        assert_eq!(attribute_list("{: 두 낱말}", true), None);
        let found = found("Note.\n{: .notice}\n\n[a](b){:target=\"_blank\"} and {: plain}\n", Syntax::Liquid);
        let lists: Vec<&str> =
            found.iter().filter(|(_, s)| matches!(s, Shown::Attributes(_))).map(|(t, _)| *t).collect();
        assert_eq!(lists, ["{: .notice}", "{:target=\"_blank\"}"]);
    }

    #[test]
    fn hugo_shortcodes() {
        let body = "A {{< figure src=\"/img/a b.png\" alt=\"An \\\"a\\\"\" caption=\"Fig. 1\" >}} and \
                    {{< youtube w7Ft2ymGmfc >}}, {{% notice info %}}*x*{{% /notice %}} {{</* gist a b */>}}.";
        let found = found(body, Syntax::Hugo);
        assert_eq!(found.len(), 5, "{found:?}");
        assert_eq!(
            found[0].1,
            Shown::Figure {
                src: "/img/a b.png".into(),
                alt: "An \"a\"".into(),
                caption: "Fig. 1".into(),
                link: String::new()
            }
        );
        assert_eq!(
            found[1].1,
            Shown::Video {
                url: "https://www.youtube.com/watch?v=w7Ft2ymGmfc".into(),
                label: "YouTube video w7Ft2ymGmfc".into()
            }
        );
        assert_eq!((found[2].0, what(&found[2].1)), ("{{% notice info %}}", "Hugo shortcode `notice`"));
        assert_eq!(what(&found[3].1), "Hugo shortcode `/notice`");
        assert_eq!(found[4].1, Shown::Text("{{< gist a b >}}".into()));
    }

    #[test]
    fn a_quoted_closing_delimiter_does_not_close() {
        let found = found("{{< figure src=\"a.png\" caption=\"x >}} y\" >}}", Syntax::Hugo);
        let Shown::Figure { caption, .. } = &found[0].1 else { panic!("{found:?}") };
        assert_eq!(caption, "x >}} y");
    }

    #[test]
    fn hugo_highlight_is_code() {
        let body = "{{< highlight go \"linenos=table\" >}}\nfunc main() {}\n\n// done\n{{< / highlight >}}\nafter";
        let found = found(body, Syntax::Hugo);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, Shown::Code { lang: "go".into(), code: "func main() {}\n\n// done\n".into() });
        assert!(found[0].0.ends_with("{{< / highlight >}}"));
    }

    #[test]
    fn only_the_syntax_asked_for_is_found() {
        let body = "{{< x >}} {% y %} {{ z(a=1) }} <Foo /> {{ w }}";
        assert_eq!(found(body, Syntax::Markdown), []);
        assert_eq!(found(body, Syntax::Hugo).len(), 1);
        let liquid: Vec<String> = found(body, Syntax::Liquid).iter().map(|f| what(&f.1).to_string()).collect();
        assert_eq!(
            liquid,
            ["Liquid output `{{< x >}}`", "Liquid tag `y`", "Liquid output `{{ z(a=1) }}`", "Liquid output `{{ w }}`"],
            "Jekyll would run `{{< x >}}` as Liquid too"
        );
        let zola: Vec<&str> = found(body, Syntax::Zola).iter().map(|f| f.0).collect();
        assert_eq!(zola, ["{{ z(a=1) }}"], "`{{ w }}` is no call, `{{< x >}}` no name");
        assert_eq!(found(body, Syntax::Mdx).len(), 1);
    }

    #[test]
    fn nothing_starts_inside_code() {
        let body = "`{{< x >}}` and {{< y >}}";
        let found = find(body, Syntax::Hugo, std::slice::from_ref(&(0..11)), None);
        assert_eq!(found.len(), 1);
        assert_eq!(&body[found[0].range.clone()], "{{< y >}}");
    }

    #[test]
    fn zola_shortcodes() {
        let body = "{{ youtube(id=\"dQw4w9WgXcQ\", autoplay=true) }}\n{% quote(author=\"Vincent\") %}\nA quote\n{% end %}\n\
                    {{/* gist(url=\"x\") */}}";
        let found = found(body, Syntax::Zola);
        assert_eq!(
            found[0].1,
            Shown::Video {
                url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ".into(),
                label: "YouTube video dQw4w9WgXcQ".into()
            }
        );
        assert_eq!(what(&found[1].1), "Zola shortcode `quote`");
        assert_eq!(what(&found[2].1), "Zola shortcode end `{% end %}`");
        assert_eq!(found[3].1, Shown::Text("{{ gist(url=\"x\") }}".into()));
    }

    #[test]
    fn liquid_raw_and_highlight() {
        let body = "{% raw %}{{ not liquid }}{% endraw %} {%- include note.html -%}\n\
                    {% highlight ruby linenos %}\ndef x = '%}'\n{% endhighlight %}";
        let found = found(body, Syntax::Liquid);
        assert_eq!(found.len(), 4, "{found:?}");
        assert_eq!((found[0].0, &found[0].1), ("{% raw %}", &Shown::Nothing));
        assert_eq!((found[1].0, &found[1].1), ("{% endraw %}", &Shown::Nothing));
        assert_eq!(what(&found[2].1), "Liquid tag `include note.html`");
        assert_eq!(found[3].1, Shown::Code { lang: "ruby".into(), code: "def x = '%}'\n".into() });
    }

    #[test]
    fn unclosed_or_odd_input_is_left_as_text() {
        for (body, syntax) in [
            ("{{< figure src=\"a", Syntax::Hugo),
            ("{{<", Syntax::Hugo),
            ("{% if", Syntax::Liquid),
            ("{{ }} {{ x( }}", Syntax::Zola),
            ("<Image src=\"a", Syntax::Mdx),
            ("<Image src={a", Syntax::Mdx),
            ("<A =>", Syntax::Mdx),
            ("import", Syntax::Mdx),
            ("{{ 한글 }} {% 한 %}", Syntax::Liquid),
        ] {
            let all = find(body, syntax, &[], None);
            assert!(all.iter().all(|c| c.range.end <= body.len()), "{body}");
        }
        assert_eq!(find("{{< figure src=\"a", Syntax::Hugo, &[], None), []);
    }
}

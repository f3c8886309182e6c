//! A WordPress post's content made the HTML WordPress would show: the block
//! editor's comments taken out (a dynamic block, which has no HTML in the
//! export, noted), the common shortcodes (`[caption]`, `[gallery]`,
//! `[embed]`, `[video]`, `[audio]`, `[code]`/`[sourcecode]`) written as the
//! HTML they stand for, and the paragraphs of the classic editor made as
//! `wpautop` (wp-includes/formatting.php) makes them.

use std::collections::HashMap;

/// What the content of one post may refer to.
pub(crate) struct Context<'a> {
    /// Attachments by id: their file's address and title.
    pub attachments: &'a HashMap<u64, (String, String)>,
    /// The post's own attachments (a `[gallery]` without `ids`), in order.
    pub children: &'a [u64],
}

/// The content as HTML; what could not come over exactly is in `notes`.
pub(crate) fn to_html(content: &str, context: &Context, notes: &mut Vec<String>) -> String {
    let blocks = content.contains("<!-- wp:");
    let content = if blocks { without_blocks(content, notes) } else { content.replace("\r\n", "\n") };
    let content = shortcodes(&content, context, notes);
    let content = content.replace("<!--more-->", "").replace("<!--nextpage-->", "");
    if blocks { content } else { autop(&embeds(&content, notes)) }
}

/// A line of the classic editor that is only an address is an embed
/// (oEmbed): WordPress asks the site for its player as it shows the page.
/// It becomes a link.
fn embeds(content: &str, notes: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(content.len());
    for line in content.split_inclusive('\n') {
        let url = line.trim();
        let bare = (url.starts_with("https://") || url.starts_with("http://"))
            && !url.contains(|c: char| c.is_whitespace() || "<>\"'".contains(c));
        if bare {
            notes.push(format!("the embed of {url} is a link (a static page cannot ask the site for its player)"));
            out.push_str(&format!("\n\n<p><a href=\"{0}\">{0}</a></p>\n\n", escape(url)));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The block editor's `<!-- wp:name {…} -->` comments taken out; a block's
/// language (a highlighter block's `"language"`) put on its `<pre>`.
fn without_blocks(content: &str, notes: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    let mut language: Option<String> = None;
    while let Some(at) = rest.find("<!--") {
        let (before, after) = rest.split_at(at);
        push_with_language(&mut out, before, &mut language);
        let Some(end) = after.find("-->") else {
            rest = after;
            break;
        };
        let comment = &after[4..end];
        rest = &after[end + 3..];
        let inner = comment.trim();
        if let Some(block) = inner.strip_prefix("wp:") {
            let name = block.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("");
            if inner.ends_with('/') && !matches!(name, "more" | "nextpage" | "spacer" | "separator") {
                notes.push(format!(
                    "the block `{name}` is made by WordPress as the page is shown and has no content in the export: left out"
                ));
            }
            if let Some(json) = block.find('{').map(|at| &block[at..])
                && let Some(at) = json.find("\"language\":\"")
            {
                let value = &json[at + 12..];
                language = value.split('"').next().map(str::to_string);
            }
        } else if inner.starts_with("/wp:") {
        } else {
            // Another comment (`<!--more-->`) is kept for the next steps.
            out.push_str(&after[..end + 3]);
        }
    }
    push_with_language(&mut out, rest, &mut language);
    out
}

fn push_with_language(out: &mut String, text: &str, language: &mut Option<String>) {
    match (language.take(), text.find("<pre")) {
        (Some(lang), Some(at)) if lang.chars().all(|c| c.is_ascii_alphanumeric() || "+-#_".contains(c)) => {
            out.push_str(&text[..at + 4]);
            out.push_str(&format!(" data-lang=\"{lang}\""));
            out.push_str(&text[at + 4..]);
        }
        (lang, _) => {
            *language = lang;
            out.push_str(text);
        }
    }
}

/// Shortcodes with an HTML equivalent.
const KNOWN: [&str; 10] =
    ["caption", "wp_caption", "gallery", "embed", "video", "audio", "code", "sourcecode", "source", "playlist"];

/// The shortcodes of `content` replaced by their HTML.
fn shortcodes(content: &str, context: &Context, notes: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(at) = rest.find('[') {
        out.push_str(&rest[..at]);
        let here = &rest[at..];
        // `[[name]]` is the shortcode's text, escaped.
        if here.starts_with("[[")
            && let Some(end) = here.find("]]")
        {
            out.push_str(&here[1..end + 1]);
            rest = &here[end + 2..];
            continue;
        }
        match parse(here) {
            Some(code) => {
                out.push_str(&render(&code, context, notes));
                rest = &here[code.length..];
            }
            None => {
                out.push('[');
                rest = &here[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// One shortcode: `[name attrs]` or `[name attrs]content[/name]`.
struct Shortcode<'a> {
    name: &'a str,
    attrs: Vec<(String, String)>,
    content: Option<&'a str>,
    /// How many bytes of the text it takes.
    length: usize,
    /// Its text, whole.
    text: &'a str,
}

impl Shortcode<'_> {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// The shortcode `text` starts with, if it is one of the known ones, or an
/// unknown one that is clearly a shortcode (it has `key=value` attributes or
/// a closing tag).
fn parse(text: &str) -> Option<Shortcode<'_>> {
    let close = text.find(']')?;
    let inside = &text[1..close];
    let name_end = inside.find(|c: char| c.is_whitespace() || c == '/').unwrap_or(inside.len());
    let name = &inside[..name_end];
    if name.is_empty()
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let attrs = attributes(inside[name_end..].trim_end_matches('/'));
    let closing = format!("[/{name}]");
    let after = &text[close + 1..];
    let content = (!inside.ends_with('/')).then(|| after.find(&closing).map(|end| &after[..end])).flatten();
    let known = KNOWN.contains(&name) || super::html::is_language(name);
    if !known && content.is_none() && !attrs.iter().any(|(k, _)| !k.is_empty()) {
        return None;
    }
    let length = close + 1 + content.map_or(0, |c| c.len() + closing.len());
    Some(Shortcode { name, attrs, content, length, text: &text[..length] })
}

/// `key="value" key='value' key=value value`: positional values have an empty key.
fn attributes(text: &str) -> Vec<(String, String)> {
    let mut attrs = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let key_end = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let (key, after) = rest.split_at(key_end);
        if let Some(value) = after.strip_prefix('=') {
            let (value, next) = quoted(value);
            attrs.push((key.to_ascii_lowercase(), value.to_string()));
            rest = next.trim_start();
        } else {
            let (value, next) = quoted(rest);
            attrs.push((String::new(), value.to_string()));
            rest = next.trim_start();
        }
    }
    attrs
}

/// A value at the start of `text` (quoted or up to a space) and what follows.
fn quoted(text: &str) -> (&str, &str) {
    for quote in ['"', '\'', '\u{201D}', '\u{2033}'] {
        if let Some(inner) = text.strip_prefix(quote) {
            return match inner.find(quote) {
                Some(end) => (&inner[..end], &inner[end + quote.len_utf8()..]),
                None => (inner, ""),
            };
        }
    }
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    (&text[..end], &text[end..])
}

fn render(code: &Shortcode, context: &Context, notes: &mut Vec<String>) -> String {
    let content = code.content.unwrap_or("");
    match code.name {
        "caption" | "wp_caption" => {
            // The caption is the text after the image, or the `caption` attribute.
            let (image, text) = match content.rfind('>') {
                Some(end) => (&content[..=end], content[end + 1..].trim()),
                None => (content, ""),
            };
            let text = if text.is_empty() { code.attr("caption").unwrap_or("") } else { text };
            format!("\n\n<figure>{}<figcaption>{}</figcaption></figure>\n\n", image.trim(), text)
        }
        "gallery" => {
            let ids: Vec<u64> = match code.attr("ids").or_else(|| code.attr("include")) {
                Some(ids) => ids.split(',').filter_map(|id| id.trim().parse().ok()).collect(),
                None => context.children.to_vec(),
            };
            let images: Vec<String> = ids
                .iter()
                .filter_map(|id| context.attachments.get(id))
                .map(|(url, title)| format!("<img src=\"{}\" alt=\"{}\">", escape(url), escape(title)))
                .collect();
            if images.is_empty() {
                notes.push("a `[gallery]` whose images are not in the export: left out".into());
                return String::new();
            }
            format!("\n\n<p>{}</p>\n\n", images.join("\n"))
        }
        "embed" => {
            let url = content.trim();
            notes.push(format!("the embed of {url} is a link (a static page cannot ask the site for its player)"));
            format!("\n\n<p><a href=\"{0}\">{0}</a></p>\n\n", escape(url))
        }
        "video" | "audio" => {
            let sources = ["src", "mp4", "m4v", "webm", "ogv", "wmv", "flv", "mp3", "ogg", "wav", "m4a"];
            match sources.iter().find_map(|key| code.attr(key)) {
                Some(src) => format!("\n\n<{0} controls src=\"{1}\"></{0}>\n\n", code.name, escape(src)),
                None => {
                    notes.push(format!("a `[{}]` of the post's own attachments: left out", code.name));
                    String::new()
                }
            }
        }
        "code" | "sourcecode" | "source" => {
            let language = code.attr("language").or_else(|| code.attr("lang")).unwrap_or("");
            pre(language, content)
        }
        name if super::html::is_language(name) && code.content.is_some() => pre(name, content),
        name => {
            notes.push(format!("the shortcode `[{name}]` has no equivalent outside WordPress: left as text"));
            code.text.to_string()
        }
    }
}

/// A code block of `language`; the code escaped unless it is already.
fn pre(language: &str, code: &str) -> String {
    let code = code.trim_matches('\n');
    let escaped = if !code.contains('<') && (code.contains("&lt;") || code.contains("&gt;") || code.contains("&amp;")) {
        code.to_string()
    } else {
        escape(code)
    };
    let class = match language.trim() {
        "" => String::new(),
        language => format!(" class=\"language-{}\"", escape(language)),
    };
    format!("\n\n<pre{class}><code>{escaped}</code></pre>\n\n")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Tags after which `wpautop` starts a new paragraph (its `$allblocks`).
const BLOCKS: [&str; 40] = [
    "table",
    "thead",
    "tfoot",
    "caption",
    "col",
    "colgroup",
    "tbody",
    "tr",
    "td",
    "th",
    "div",
    "dl",
    "dd",
    "dt",
    "ul",
    "ol",
    "li",
    "pre",
    "form",
    "map",
    "area",
    "blockquote",
    "address",
    "math",
    "style",
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "fieldset",
    "legend",
    "section",
    "article",
    "aside",
    "figure",
    "video",
];

/// Paragraphs from blank lines and line breaks from single ones, outside
/// `<pre>` and block tags, as `wpautop` makes them.
pub(crate) fn autop(content: &str) -> String {
    // `<pre>` (and `<script>`, `<style>`) are kept whole.
    let mut kept: Vec<&str> = Vec::new();
    let mut text = String::with_capacity(content.len() + 64);
    let mut rest = content;
    while let Some(at) = find_raw(rest) {
        let (tag, start) = at;
        text.push_str(&rest[..start]);
        let closing = format!("</{tag}>");
        let end = rest[start..].find(&closing).map_or(rest.len(), |e| start + e + closing.len());
        text.push_str(&format!("\n\n\u{E010}{}\u{E011}\n\n", kept.len()));
        kept.push(&rest[start..end]);
        rest = &rest[end..];
    }
    text.push_str(rest);
    let text = around_blocks(&text);
    let mut out = String::with_capacity(text.len() + 64);
    for chunk in text.split("\n\n") {
        let chunk = chunk.trim();
        if chunk.is_empty() {
            continue;
        }
        if let Some(index) = chunk.strip_prefix('\u{E010}').and_then(|c| c.strip_suffix('\u{E011}')) {
            out.push_str(kept[index.parse::<usize>().unwrap_or(0)]);
        } else if starts_block(chunk) {
            out.push_str(chunk);
        } else {
            out.push_str("<p>");
            out.push_str(&chunk.replace('\n', "<br />\n"));
            out.push_str("</p>");
        }
        out.push('\n');
    }
    out
}

/// The first `<pre`, `<script` or `<style` tag: its name and where it starts.
fn find_raw(text: &str) -> Option<(&'static str, usize)> {
    ["pre", "script", "style"]
        .into_iter()
        .filter_map(|tag| {
            let mut from = 0;
            while let Some(at) = text[from..].find(&format!("<{tag}")) {
                let start = from + at;
                let next = text[start + 1 + tag.len()..].chars().next();
                if matches!(next, Some('>' | ' ' | '\n' | '\t' | '/')) {
                    return Some((tag, start));
                }
                from = start + 1;
            }
            None
        })
        .min_by_key(|(_, at)| *at)
}

/// Blank lines put before each block tag's opening and after its closing.
fn around_blocks(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let here = &rest[at..];
        let Some(end) = here.find('>') else {
            out.push_str(here);
            return out;
        };
        let tag = &here[..=end];
        let closing = tag.starts_with("</");
        let name: String = tag[if closing { 2 } else { 1 }..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let block = BLOCKS.contains(&name.as_str());
        if block && !closing {
            out.push_str("\n\n");
        }
        out.push_str(tag);
        if block && closing {
            out.push_str("\n\n");
        }
        rest = &here[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Whether a paragraph's text is a block already (or a block's end).
fn starts_block(chunk: &str) -> bool {
    let Some(tag) = chunk.strip_prefix('<') else { return false };
    let tag = tag.strip_prefix('/').unwrap_or(tag);
    let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    BLOCKS.contains(&name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(content: &str) -> (String, Vec<String>) {
        let attachments = HashMap::from([(1, ("https://old.example/a.jpg".to_string(), "A".to_string()))]);
        let context = Context { attachments: &attachments, children: &[1] };
        let mut notes = Vec::new();
        (to_html(content, &context, &mut notes), notes)
    }

    #[test]
    fn paragraphs_come_from_blank_lines_as_wpautop_makes_them() {
        assert_eq!(autop("One\ntwo\n\nThree"), "<p>One<br />\ntwo</p>\n<p>Three</p>\n");
        assert_eq!(autop("Text\n<h2>Head</h2>\nMore"), "<p>Text</p>\n<h2>Head</h2>\n<p>More</p>\n");
        assert_eq!(autop("<pre>a\n\nb</pre>\nc"), "<pre>a\n\nb</pre>\n<p>c</p>\n", "pre kept whole");
    }

    #[test]
    fn captions_galleries_and_code_become_html() {
        let (out, notes) = html(r#"[caption id="x" width="300"]<img src="a.jpg" alt="A"> The caption[/caption]"#);
        assert_eq!(out.trim(), r#"<figure><img src="a.jpg" alt="A"><figcaption>The caption</figcaption></figure>"#);
        assert!(notes.is_empty());
        let (out, _) = html(r#"[caption caption="Attr"]<img src="a.jpg">[/caption]"#);
        assert!(out.contains("<figcaption>Attr</figcaption>"), "{out}");
        let (out, _) = html("[gallery]");
        assert!(out.contains(r#"<img src="https://old.example/a.jpg" alt="A">"#), "{out}");
        let (out, _) = html("[code language=\"python\"]if a < b:\n    pass[/code]");
        assert!(out.contains("<pre class=\"language-python\"><code>if a &lt; b:\n    pass</code></pre>"), "{out}");
        let (out, notes) = html("Watch:\nhttps://wordpress.tv/2009/03/16/anatomy/\n\nDone");
        assert!(out.contains("<p><a href=\"https://wordpress.tv/2009/03/16/anatomy/\">"), "{out}");
        assert!(notes[0].contains("is a link"), "{notes:?}");
        let (out, notes) = html("[contact-form-7 id=\"5\"] and [1] and [[gallery]]");
        assert!(out.contains("[contact-form-7 id=\"5\"] and [1] and [gallery]"), "{out}");
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    #[test]
    fn block_comments_go_and_dynamic_blocks_are_noted() {
        let (out, notes) = html(
            "<!-- wp:paragraph -->\n<p>Hi</p>\n<!-- /wp:paragraph -->\n<!-- wp:latest-posts {\"postsToShow\":3} /-->\n<!-- wp:syntaxhighlighter/code {\"language\":\"rust\"} -->\n<pre class=\"wp-block-syntaxhighlighter-code\">fn a() {}</pre>\n<!-- /wp:syntaxhighlighter/code -->",
        );
        assert!(!out.contains("wp:"), "{out}");
        assert!(out.contains("<pre data-lang=\"rust\" class="), "{out}");
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("latest-posts"));
    }
}

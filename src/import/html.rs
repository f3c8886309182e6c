//! A post's HTML as Markdown, through `htmd` (a converter made for it, after
//! turndown.js): what Markdown says the same way becomes Markdown, and the
//! rest is kept as HTML (embeds, captioned figures, tables Markdown cannot
//! hold), never dropped. Code blocks keep their language from any of the
//! markings platforms and highlighters use. Links and images go through the
//! caller's rule first (images of the old site become files of the bundle).

use std::rc::Rc;
use std::sync::LazyLock;

use htmd::element_handler::{HandlerResult, Handlers};
use htmd::options::{BulletListMarker, CodeBlockFence, HrStyle, Options};
use htmd::{Element, HtmlToMarkdown};
use markup5ever_rcdom::{Node, NodeData, SerializableHandle};

/// A converted body.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Converted {
    pub markdown: String,
    /// What was kept as HTML because Markdown cannot say it (`iframe`, a
    /// table with merged cells), once per kind.
    pub kept_html: Vec<String>,
    /// What was left out because a static page cannot run it (`script`,
    /// `form`), once per kind.
    pub dropped: Vec<String>,
}

/// `html` as Markdown, links and images as they are.
pub fn to_markdown(html: &str) -> Converted {
    convert(html, &mut |_, _| None)
}

/// `html` parsed as a document, for a platform's reader to pick its parts from.
pub(crate) fn parse(html: &str) -> Rc<Node> {
    CONVERTER.html_to_tree(html).unwrap_or_else(|_| Node::new(NodeData::Document))
}

/// The elements under `node` (in document order) that `wanted(tag, node)` takes.
pub(crate) fn find_all(node: &Rc<Node>, wanted: &dyn Fn(&str, &Rc<Node>) -> bool) -> Vec<Rc<Node>> {
    let mut found = Vec::new();
    let mut stack = vec![node.clone()];
    while let Some(node) = stack.pop() {
        if let NodeData::Element { name, .. } = &node.data
            && wanted(name.local.as_ref(), &node)
        {
            found.push(node.clone());
        }
        stack.extend(node.children.borrow().iter().rev().cloned());
    }
    found
}

/// The value of the attribute `name` of an element.
pub(crate) fn attr(node: &Rc<Node>, name: &str) -> Option<String> {
    let NodeData::Element { attrs, .. } = &node.data else { return None };
    attrs.borrow().iter().find(|a| &*a.name.local == name).map(|a| a.value.to_string())
}

/// Whether an element's `class` has `class`.
pub(crate) fn has_class(node: &Rc<Node>, class: &str) -> bool {
    attr(node, "class").is_some_and(|c| c.split_whitespace().any(|c| c == class))
}

/// The HTML of an element's children.
pub(crate) fn inner_html(node: &Rc<Node>) -> String {
    let mut bytes = Vec::new();
    let options = html5ever::serialize::SerializeOpts {
        traversal_scope: html5ever::serialize::TraversalScope::ChildrenOnly(None),
        ..Default::default()
    };
    let _ = html5ever::serialize(&mut bytes, &SerializableHandle::from(node.clone()), options);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The text of an element, white space collapsed.
pub(crate) fn node_text(node: &Rc<Node>) -> String {
    let mut text = String::new();
    text_of(node, &mut text);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Takes `node` out of the tree.
pub(crate) fn remove(node: &Rc<Node>) {
    let parent = node.parent.take().and_then(|weak| weak.upgrade());
    if let Some(parent) = parent {
        parent.children.borrow_mut().retain(|child| !Rc::ptr_eq(child, node));
    }
}

/// Puts the elements of `html` in the place of `node`.
pub(crate) fn replace_with_html(node: &Rc<Node>, html: &str) {
    let tree = parse(html);
    // Taken out of the parsed tree: rcdom's `Drop` empties the children of
    // every node still in a tree as it goes.
    let new: Vec<Rc<Node>> = find_all(&tree, &|t, _| t == "body")
        .first()
        .map(|body| std::mem::take(&mut *body.children.borrow_mut()))
        .unwrap_or_default();
    let Some(parent) = node.parent.take().and_then(|weak| weak.upgrade()) else { return };
    let mut children = parent.children.borrow_mut();
    if let Some(at) = children.iter().position(|child| Rc::ptr_eq(child, node)) {
        children.remove(at);
        for (offset, child) in new.into_iter().enumerate() {
            child.parent.set(Some(Rc::downgrade(&parent)));
            children.insert(at + offset, child);
        }
    }
}

/// The text a reader sees in `html` (a title with markup, an excerpt):
/// tags and comments dropped, entities decoded, white space collapsed.
pub fn text(html: &str) -> String {
    fn walk(node: &Rc<Node>, out: &mut String) {
        for child in node.children.borrow().iter() {
            match &child.data {
                NodeData::Text { contents } => out.push_str(&contents.borrow()),
                NodeData::Element { name, .. } if DROPPED.contains(&name.local.as_ref()) => {}
                NodeData::Element { name, .. } => {
                    let block = !INLINE.contains(&name.local.as_ref());
                    if block {
                        out.push(' ');
                    }
                    walk(child, out);
                    if block {
                        out.push(' ');
                    }
                }
                _ => walk(child, out),
            }
        }
    }
    let Ok(tree) = CONVERTER.html_to_tree(html) else { return String::new() };
    let mut out = String::new();
    walk(&tree, &mut out);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Elements inside a line of text: no space is seen around them.
const INLINE: [&str; 24] = [
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark", "q", "s", "samp", "small",
    "span", "strong", "sub", "sup", "time", "u", "var",
];

/// The address of every image `html` shows (`<img src>`), as `convert`
/// gives them to its `link` rule.
pub(crate) fn image_sources(html: &str) -> Vec<String> {
    find_all(&parse(html), &|tag, _| tag == "img").iter().filter_map(|img| attr(img, "src")).collect()
}

/// `html` as Markdown; `link(url, is_image)` gives a link's or an image's
/// new address, or None to keep it.
pub(crate) fn convert(html: &str, link: &mut dyn FnMut(&str, bool) -> Option<String>) -> Converted {
    let tree = parse(html);
    let mut converted = Converted::default();
    prepare(&tree, link, &mut converted, false);
    let markdown = CONVERTER.tree_to_markdown(&tree);
    converted.markdown = without_misread_marks(&restore(&markdown, true));
    converted
}

/// Where, in a list item's or a quote's line, its text starts with what
/// Markdown would read as another block's mark (`- 1)`: an ordered list in
/// the item; `> - x`, `- # x`): the place to put a `\\` before the mark.
fn marker_in_item(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut at = bytes.iter().take_while(|b| **b == b' ').count();
    let mut inside = false;
    while bytes.get(at) == Some(&b'>') {
        at += 1;
        at += usize::from(bytes.get(at) == Some(&b' '));
        inside = true;
    }
    let after_space = |end: usize| matches!(bytes.get(end), None | Some(b' ' | b'\t' | b'\n' | b'\r'));
    let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let list_mark = |from: usize| -> Option<usize> {
        match bytes.get(from)? {
            b'-' | b'*' | b'+' if after_space(from + 1) => Some(from),
            b'0'..=b'9' => {
                let n = digits(from);
                (n <= 9 && matches!(bytes.get(from + n), Some(b'.' | b')')) && after_space(from + n + 1))
                    .then_some(from + n)
            }
            _ => None,
        }
    };
    if let Some(mark) = list_mark(at) {
        let end = mark + 1;
        let mut content = end;
        while bytes.get(content) == Some(&b' ') {
            content += 1;
        }
        if content == end || content >= bytes.len() {
            return None;
        }
        at = content;
        inside = true;
    }
    if !inside {
        return None;
    }
    if let Some(mark) = list_mark(at) {
        return Some(mark);
    }
    let hashes = bytes[at..].iter().take_while(|b| **b == b'#').count();
    if (1..=6).contains(&hashes) && after_space(at + hashes) {
        return Some(at);
    }
    matches!(bytes.get(at), Some(b':' | b'>')).then_some(at)
}

/// An ATX heading line (`## text #`) with a `#` run that ends its text
/// after a space escaped (`## text \\#`); any other line as it is.
fn without_closing_hashes(line: &str) -> std::borrow::Cow<'_, str> {
    let body = line.trim_end_matches(['\n', '\r']);
    let end = &line[body.len()..];
    let trimmed = body.trim_start_matches(' ');
    let level = trimmed.bytes().take_while(|b| *b == b'#').count();
    let heading = (1..=6).contains(&level) && trimmed[level..].starts_with([' ', '\t']);
    let text = body.trim_end_matches([' ', '\t']);
    let hashes = text.len() - text.trim_end_matches('#').len();
    let before = text[..text.len() - hashes].chars().next_back();
    // A line of `#`s alone is an empty heading: a paragraph's `#` (`<p>#</p>`).
    if (1..=6).contains(&level) && trimmed[level..].trim().is_empty() {
        let at = body.len() - trimmed.len();
        return std::borrow::Cow::Owned(format!("{}\\{}{end}", &body[..at], &body[at..]));
    }
    if !heading
        || hashes == 0
        || !matches!(before, Some(' ' | '\t'))
        || text.len() - hashes <= body.len() - trimmed.len() + level
    {
        return std::borrow::Cow::Borrowed(line);
    }
    let at = text.len() - hashes;
    std::borrow::Cow::Owned(format!("{}\\{}{end}", &body[..at], &body[at..]))
}

/// `markdown` with the marks it would misread escaped, outside code: a `:`
/// that starts a line, which after a paragraph Hanji's Markdown
/// (pulldown-cmark's definition lists) reads as a definition, a lone `:` as
/// an empty one whose mark is lost (`<p>(</p><p>:</p>`); and the `#`s that
/// end a heading's text after a space, which CommonMark reads as the
/// heading's closing sequence and drops (`<h2>( #</h2>`).
fn without_misread_marks(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut fence: Option<&str> = None;
    for line in markdown.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(opened)) if indent < 4 => fence = Some(opened),
            (Some(open), Some(closed)) if open == closed && indent < 4 => fence = None,
            _ => {}
        }
        let definition = trimmed.starts_with(':');
        if fence.is_some() || marker.is_some() || indent >= 4 {
            out.push_str(line);
        } else if definition {
            out.push_str(&line[..indent]);
            out.push('\\');
            out.push_str(trimmed);
        } else if let Some(at) = marker_in_item(line) {
            out.push_str(&line[..at]);
            out.push('\\');
            out.push_str(&line[at..]);
        } else {
            out.push_str(&without_closing_hashes(line));
        }
    }
    out
}

/// Characters of text that Markdown (as Hanji reads it) would take for
/// markup and `htmd` leaves as they are: math's `$`, an entity's `&`,
/// strikethrough's `~`, a table's `|`. They stand in the tree as characters
/// of Unicode's private use area until the Markdown is written, then become
/// escaped (or, inside HTML kept as it is, themselves again).
const STAND_INS: [(char, &str, &str); 4] =
    [('\u{E000}', "\\$", "$"), ('\u{E001}', "\\&", "&amp;"), ('\u{E002}', "\\~", "~"), ('\u{E003}', "\\|", "|")];

fn stand_in(c: char) -> Option<char> {
    match c {
        '$' => Some('\u{E000}'),
        '&' => Some('\u{E001}'),
        '~' => Some('\u{E002}'),
        '|' => Some('\u{E003}'),
        _ => None,
    }
}

/// `text` with the stand-ins made escapes (Markdown) or characters (HTML).
fn restore(text: &str, markdown: bool) -> String {
    if !text.chars().any(|c| ('\u{E000}'..='\u{E003}').contains(&c)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match STAND_INS.iter().find(|(stand_in, ..)| *stand_in == c) {
            Some((_, escaped, html)) => out.push_str(if markdown { escaped } else { html }),
            None => out.push(c),
        }
    }
    out
}

static CONVERTER: LazyLock<HtmlToMarkdown> = LazyLock::new(|| {
    let options = Options {
        bullet_list_marker: BulletListMarker::Dash,
        ul_bullet_spacing: 1,
        ol_number_spacing: 1,
        hr_style: HrStyle::Dashes,
        code_block_fence: CodeBlockFence::Backticks,
        ..Options::default()
    };
    HtmlToMarkdown::builder()
        .options(options)
        .skip_tags(DROPPED.to_vec())
        .add_handler(vec!["pre"], code_block)
        .add_handler(BLOCK_HTML.to_vec(), |_: &dyn Handlers, element: Element| {
            Some(format!("\n\n{}\n\n", as_html(element.node)).into())
        })
        .add_handler(INLINE_HTML.to_vec(), |_: &dyn Handlers, element: Element| Some(as_html(element.node).into()))
        .add_handler(vec!["figure"], figure)
        .add_handler(vec!["table"], table)
        .add_handler(vec!["del", "s", "strike"], |handlers: &dyn Handlers, element: Element| {
            let inner = handlers.walk_children(element.node).content;
            match inner.trim() {
                "" => Some(inner.into()),
                text => Some(format!("~~{text}~~").into()),
            }
        })
        .build()
});

/// Left out: a static page cannot run them, and their text is not prose.
const DROPPED: [&str; 9] = ["script", "style", "noscript", "form", "button", "input", "select", "textarea", "template"];

/// Kept as HTML blocks: embeds Markdown has no syntax for.
const BLOCK_HTML: [&str; 7] = ["iframe", "video", "audio", "embed", "object", "details", "dl"];

/// Kept as inline HTML: marks Markdown has no syntax for.
const INLINE_HTML: [&str; 8] = ["sup", "sub", "mark", "u", "ins", "kbd", "abbr", "small"];

/// Walks the tree before it is converted: rewrites links and images, puts
/// stand-ins for the characters Markdown would misread, drops presentational
/// attributes, and notes what is kept as HTML or dropped.
fn prepare(
    node: &Rc<Node>,
    link: &mut dyn FnMut(&str, bool) -> Option<String>,
    converted: &mut Converted,
    in_code: bool,
) {
    match &node.data {
        NodeData::Text { contents } if !in_code => {
            let mut text = contents.borrow_mut();
            if text.chars().any(|c| stand_in(c).is_some()) {
                let replaced: String = text.chars().map(|c| stand_in(c).unwrap_or(c)).collect();
                *text = replaced.into();
            }
        }
        NodeData::Element { name, attrs, .. } => {
            let tag = name.local.as_ref();
            let mut attrs = attrs.borrow_mut();
            for attr in attrs.iter_mut() {
                let image = tag == "img" && &*attr.name.local == "src";
                if (image || (tag == "a" && &*attr.name.local == "href"))
                    && let Some(new) = link(&attr.value, image)
                {
                    attr.value = new.into();
                }
            }
            if !matches!(tag, "pre" | "code") {
                attrs.retain(|a| {
                    !matches!(&*a.name.local, "class" | "style" | "id" | "name") && !a.name.local.starts_with("data-")
                });
            }
            drop(attrs);
            let kind = tag.to_string();
            if DROPPED.contains(&tag) {
                if !converted.dropped.contains(&kind) {
                    converted.dropped.push(kind);
                }
                return;
            }
            if (matches!(tag, "iframe" | "video" | "audio" | "embed" | "object") || (tag == "table" && complex(node)))
                && !converted.kept_html.contains(&kind)
            {
                converted.kept_html.push(kind);
            }
            let in_code = in_code || matches!(tag, "pre" | "code");
            for child in node.children.borrow().iter() {
                prepare(child, link, converted, in_code);
            }
        }
        _ => {
            for child in node.children.borrow().iter() {
                prepare(child, link, converted, in_code);
            }
        }
    }
}

/// The element as HTML, whole; blank lines (which would end an HTML block
/// in Markdown) closed up.
fn as_html(node: &Rc<Node>) -> String {
    let mut bytes = Vec::new();
    let options = html5ever::serialize::SerializeOpts {
        traversal_scope: html5ever::serialize::TraversalScope::IncludeNode,
        ..Default::default()
    };
    if html5ever::serialize(&mut bytes, &SerializableHandle::from(node.clone()), options).is_err() {
        return String::new();
    }
    let html = restore(&String::from_utf8_lossy(&bytes), false);
    let mut out = String::with_capacity(html.len());
    for line in html.split('\n') {
        if !line.trim().is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(line);
        }
    }
    out
}

/// `<pre>` as a fenced block, with the language its markup names and the
/// text as it is (a highlighter's spans and `<br>`s undone).
fn code_block(_: &dyn Handlers, element: Element) -> Option<HandlerResult> {
    let mut code = String::new();
    text_of(element.node, &mut code);
    // Editors that keep code in HTML write its spaces as `&nbsp;` (Tistory's
    // code block does): in code they are spaces.
    let code = code.replace('\u{a0}', " ");
    let code = code.strip_suffix('\n').unwrap_or(&code);
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let language = language_of(element.node).unwrap_or_default();
    Some(format!("\n\n{fence}{language}\n{code}\n{fence}\n\n").into())
}

/// The text under `node`, `<br>` as a line break.
fn text_of(node: &Rc<Node>, out: &mut String) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Text { contents } => out.push_str(&restore(&contents.borrow(), false)),
            NodeData::Element { name, .. } if &*name.local == "br" => out.push('\n'),
            NodeData::Element { .. } => text_of(child, out),
            _ => {}
        }
    }
}

/// The language a code block's markup names: `language-x` or `lang-x`
/// classes (Prism, highlight.js, GitHub), `brush: x` (SyntaxHighlighter,
/// WordPress's `[code]`), `lang`/`data-lang` attributes, Tistory's
/// `data-ke-language`, or a class that is a language's name.
fn language_of(node: &Rc<Node>) -> Option<String> {
    let mut nodes = vec![node.clone()];
    nodes.extend(
        node.children
            .borrow()
            .iter()
            .filter(|c| matches!(&c.data, NodeData::Element { name, .. } if &*name.local == "code"))
            .cloned(),
    );
    for node in &nodes {
        let NodeData::Element { attrs, .. } = &node.data else { continue };
        for attr in attrs.borrow().iter() {
            let value = attr.value.trim();
            match &*attr.name.local {
                "lang" | "data-lang" | "data-language" | "data-ke-language" | "data-code-block-lang"
                    if plain(value) =>
                {
                    return Some(value.to_ascii_lowercase());
                }
                "class" => {
                    if let Some(rest) = value.split("brush:").nth(1) {
                        let name = rest.trim_start().split([';', ' ']).next().unwrap_or("");
                        if plain(name) {
                            return Some(name.to_ascii_lowercase());
                        }
                    }
                    for token in value.split_whitespace() {
                        let name = token
                            .strip_prefix("language-")
                            .or_else(|| token.strip_prefix("lang-"))
                            .or_else(|| KNOWN.contains(&token.to_ascii_lowercase().as_str()).then_some(token));
                        if let Some(name) = name.filter(|n| plain(n)) {
                            return Some(name.to_ascii_lowercase());
                        }
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Languages a bare class may name (`<pre class="python">`, as Tistory's
/// code block writes it).
const KNOWN: [&str; 32] = [
    "bash",
    "c",
    "cpp",
    "csharp",
    "css",
    "diff",
    "go",
    "html",
    "java",
    "javascript",
    "js",
    "json",
    "kotlin",
    "lua",
    "makefile",
    "markdown",
    "objectivec",
    "perl",
    "php",
    "plaintext",
    "python",
    "r",
    "ruby",
    "rust",
    "scala",
    "shell",
    "sql",
    "swift",
    "toml",
    "typescript",
    "xml",
    "yaml",
];

/// Whether `name` is a language a bare class (or WordPress.com's
/// `[python]…[/python]`) may name.
pub(crate) fn is_language(name: &str) -> bool {
    KNOWN.contains(&name)
}

/// A word a fence's info string can hold.
fn plain(name: &str) -> bool {
    !name.is_empty() && name.len() <= 30 && name.chars().all(|c| c.is_ascii_alphanumeric() || "+-#._".contains(c))
}

/// A `<figure>` with a caption stays HTML (Markdown has no caption); one
/// without is its content.
fn figure(handlers: &dyn Handlers, element: Element) -> Option<HandlerResult> {
    let captioned = element
        .node
        .children
        .borrow()
        .iter()
        .any(|c| matches!(&c.data, NodeData::Element { name, .. } if &*name.local == "figcaption"));
    if captioned {
        Some(format!("\n\n{}\n\n", as_html(element.node)).into())
    } else {
        let inner = handlers.walk_children(element.node).content;
        Some(format!("\n\n{}\n\n", inner.trim_matches('\n')).into())
    }
}

/// A table Markdown can hold (a header row, cells of inline text, none
/// merged) becomes a Markdown table; any other stays HTML.
fn table(handlers: &dyn Handlers, element: Element) -> Option<HandlerResult> {
    if complex(element.node) {
        Some(format!("\n\n{}\n\n", as_html(element.node)).into())
    } else {
        handlers.fallback(element)
    }
}

/// Whether a table is more than a Markdown table can say.
fn complex(table: &Rc<Node>) -> bool {
    fn walk(node: &Rc<Node>, in_cell: bool, first_row: &mut Option<bool>, complex: &mut bool) {
        for child in node.children.borrow().iter() {
            let NodeData::Element { name, attrs, .. } = &child.data else { continue };
            let tag = name.local.as_ref();
            let merged =
                attrs.borrow().iter().any(|a| matches!(&*a.name.local, "colspan" | "rowspan") && a.value.trim() != "1");
            match tag {
                "td" | "th" if merged => *complex = true,
                "tr" if first_row.is_none() => {
                    let cells = child.children.borrow();
                    let heads =
                        cells.iter().any(|c| matches!(&c.data, NodeData::Element { name, .. } if &*name.local == "th"));
                    *first_row = Some(heads);
                }
                "p" | "div" | "ul" | "ol" | "pre" | "table" | "blockquote" | "h1" | "h2" | "h3" | "h4" | "h5"
                | "h6" | "figure" | "br" | "hr" | "iframe" | "video" | "dl"
                    if in_cell =>
                {
                    *complex = true
                }
                _ => {}
            }
            walk(child, in_cell || matches!(tag, "td" | "th"), first_row, complex);
        }
    }
    let (mut first_row, mut complex) = (None, false);
    walk(table, false, &mut first_row, &mut complex);
    complex || first_row != Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(html: &str) -> String {
        to_markdown(html).markdown
    }

    #[test]
    fn code_blocks_keep_their_language_from_any_marking() {
        assert_eq!(md(r#"<pre class="language-rust"><code>fn main() {}</code></pre>"#), "```rust\nfn main() {}\n```");
        assert_eq!(md(r#"<pre class="brush: php; gutter: false">echo 1 &lt; 2;</pre>"#), "```php\necho 1 < 2;\n```");
        assert_eq!(
            md(r#"<pre data-ke-language="python"><code>a = 1<br>b = 2</code></pre>"#),
            "```python\na = 1\nb = 2\n```"
        );
        assert_eq!(md(r#"<pre class="wp-block-code"><code>x</code></pre>"#), "```\nx\n```");
        assert_eq!(
            md("<pre><code>a ``` b</code></pre>"),
            "````\na ``` b\n````",
            "a fence longer than the code's backticks"
        );
        assert_eq!(md("<pre><code>$x &amp; |y|</code></pre>"), "```\n$x & |y|\n```", "code is not escaped");
    }

    #[test]
    fn what_markdown_would_misread_is_escaped() {
        assert_eq!(md("<p>costs $5 and $10</p>"), "costs \\$5 and \\$10");
        assert_eq!(md("<p>write &amp;copy; for ©</p>"), "write \\&copy; for ©");
        assert_eq!(md("<p>a ~~b~~ | c</p>"), "a \\~\\~b\\~\\~ \\| c");
    }

    #[test]
    fn embeds_and_captions_stay_html_and_scripts_go() {
        let converted = to_markdown(
            r#"<p>Before</p><iframe src="https://www.youtube.com/embed/x" class="wp"></iframe><script>alert(1)</script><figure><img src="a.jpg" alt="A"><figcaption>The $5 caption</figcaption></figure>"#,
        );
        assert_eq!(
            converted.markdown,
            "Before\n\n<iframe src=\"https://www.youtube.com/embed/x\"></iframe>\n\n<figure><img src=\"a.jpg\" alt=\"A\"><figcaption>The $5 caption</figcaption></figure>"
        );
        assert_eq!(converted.kept_html, ["iframe"]);
        assert_eq!(converted.dropped, ["script"]);
    }

    #[test]
    fn tables_markdown_can_hold_become_markdown_and_others_stay_html() {
        let simple = md("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>");
        assert!(simple.starts_with("| a | b |") || simple.starts_with("| a "), "{simple}");
        let merged = to_markdown("<table><tr><th colspan=2>a</th></tr><tr><td>1</td><td>2</td></tr></table>");
        assert!(merged.markdown.starts_with("<table>"), "{}", merged.markdown);
        assert_eq!(merged.kept_html, ["table"]);
    }

    #[test]
    fn links_and_images_go_through_the_callers_rule() {
        let converted = convert(
            r#"<p><a href="https://old.example/wp-content/uploads/a.jpg"><img src="https://old.example/wp-content/uploads/a.jpg?w=300" alt="A"></a></p>"#,
            &mut |url, image| {
                url.contains("/uploads/").then(|| if image { "a.jpg".into() } else { "big/a.jpg".into() })
            },
        );
        assert_eq!(converted.markdown, "[![A](a.jpg)](big/a.jpg)");
    }
}

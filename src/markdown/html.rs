//! The HTML writer: pulldown-cmark's events, with byte offsets, to one string.
//!
//! One flat loop over the events with a little state per open construct; it
//! never recurses, so 10,000 nested lists cost 10,000 iterations, not 10,000
//! stack frames. Where an attribute depends on something seen later (a
//! heading's id on its text, a task item's class on its checkbox), the start
//! tag is inserted into the output once known: only the short content after it
//! moves. Footnote definitions are cut out of the output when they end and
//! written, GitHub style, in a section at the end.
//!
//! When the body may hold another tool's syntax (see `foreign`), the events
//! are collected first, to know where code is, and then placed around the
//! constructs found: events inside a construct give way to what it renders,
//! and a paragraph that holds nothing else is replaced by it as a block.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{
    Alignment, BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Parser, Tag, TagEnd,
};

use super::foreign::{self, Construct, Shown};
use super::lines::LineIndex;
use super::shortcodes::{Output, Piece};
use super::text::WordCount;
use super::{Link, Options, Picture, Rendered, Sizing, Syntax, TocEntry, escape, highlight, math};
use crate::diagnostics::Problem;
use crate::slug::Slugger;

const MATH_HINT: &str = "check the TeX; it is shown as code";

/// How deeply a shortcode's Markdown (its inner text, a `markdownify`ed
/// value) may hold shortcodes that are run in turn: real posts nest a few.
const MAX_SHORTCODE_DEPTH: usize = 8;

/// How much Markdown a post's shortcodes may hand back to be rendered, in
/// all (their inner text and values, at every depth): far more than real
/// posts use (a few kilobytes), and a ceiling on templates that repeat
/// `.Inner` at every level of a nest, whose work doubles with each level
/// (a 56 KB blog rendered a 109 MB page).
const MAX_SHORTCODE_BYTES: usize = 8 << 20;

/// How deep a shortcode runs, and what is left of its post's budget
/// (`MAX_SHORTCODE_BYTES`), shared by every level.
#[derive(Clone)]
struct Nesting {
    depth: usize,
    left: std::rc::Rc<std::cell::Cell<usize>>,
}

/// An image that starts within this many bytes of the top of a post is on
/// the reader's first screen, under the post's title: it loads at once.
const FIRST_SCREEN_BYTES: usize = 600;

pub(super) fn render(body: &str, options: &Options) -> Rendered {
    let top = Nesting { depth: 0, left: std::rc::Rc::new(std::cell::Cell::new(MAX_SHORTCODE_BYTES)) };
    render_at(body, options, top).0
}

/// Renders `body`, `depth` shortcodes deep; with the words of its prose.
fn render_at(body: &str, options: &Options, nesting: Nesting) -> (Rendered, WordCount) {
    let mut writer = Writer::new(body, options, nesting);
    let events = Parser::new_ext(body, super::parser_options()).into_offset_iter();
    if foreign::may_have(body, options.syntax) {
        let events: Vec<(Event, Range<usize>)> = events.collect();
        let code: Vec<Range<usize>> = events
            .iter()
            .filter(|(event, _)| {
                matches!(
                    event,
                    Event::Code(_) | Event::InlineMath(_) | Event::DisplayMath(_) | Event::Start(Tag::CodeBlock(_))
                )
            })
            .map(|(_, range)| range.clone())
            .collect();
        let constructs = foreign::find(body, options.syntax, &code, options.shortcodes);
        place(&mut writer, events, &constructs);
    } else {
        for (event, range) in events {
            writer.event(event, range.start);
        }
    }
    let words = writer.words;
    (writer.finish(), words)
}

/// Writes `events` with the `constructs` (in order, none overlapping) in
/// their place. An event inside a construct is left out and the construct
/// written once instead; text that a construct begins or ends inside is cut
/// at its edges; a paragraph (or HTML block) of nothing but constructs is
/// dropped so that they are written as blocks. A construct no event falls
/// inside (in a link's address, say) is reported where it is.
fn place<'a>(writer: &mut Writer<'a, '_>, events: Vec<(Event<'a>, Range<usize>)>, constructs: &[Construct]) {
    let body = writer.body;
    let mut next = 0;
    let mut written = vec![false; constructs.len()];
    let mut block = false;
    for (event, range) in events {
        while next < constructs.len() && constructs[next].range.end <= range.start {
            if !written[next] {
                writer.unplaced(&constructs[next]);
            }
            next += 1;
        }
        match &event {
            Event::Start(Tag::Paragraph | Tag::HtmlBlock) if only_constructs(body, &range, &constructs[next..]) => {
                block = true;
                continue;
            }
            Event::End(TagEnd::Paragraph | TagEnd::HtmlBlock) if block => {
                block = false;
                continue;
            }
            _ => {}
        }
        let Some(construct) = constructs.get(next) else {
            writer.event(event, range.start);
            continue;
        };
        let inside = construct.range.start <= range.start && range.end <= construct.range.end;
        if inside && !(range.is_empty() && range.start == construct.range.end) {
            if !written[next] {
                writer.construct(construct, block);
                written[next] = true;
            }
            continue;
        }
        let overlaps = range.start < construct.range.end && construct.range.start < range.end;
        let text = match &event {
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => Some(text.as_ref()),
            _ => None,
        };
        // Only text that is the source as written can be cut at source offsets.
        if !overlaps || text != Some(&body[range.clone()]) {
            writer.event(event, range.start);
            continue;
        }
        // In a block of nothing but constructs, the rest is spaces: left out.
        let piece = |text: &'a str| match &event {
            Event::Text(_) => Event::Text(CowStr::Borrowed(text)),
            Event::Html(_) => Event::Html(CowStr::Borrowed(text)),
            _ => Event::InlineHtml(CowStr::Borrowed(text)),
        };
        let mut at = range.start;
        while let Some(construct) = constructs.get(next).filter(|c| c.range.start < range.end) {
            if construct.range.start > at && !block {
                writer.event(piece(&body[at..construct.range.start]), at);
            }
            if !written[next] {
                writer.construct(construct, block);
                written[next] = true;
            }
            at = at.max(construct.range.end);
            if construct.range.end > range.end {
                break;
            }
            next += 1;
        }
        if at < range.end && !block {
            writer.event(piece(&body[at..range.end]), at);
        }
    }
    for (construct, written) in constructs.iter().zip(written) {
        if !written {
            writer.unplaced(construct);
        }
    }
}

/// Whether the block at `range` holds nothing but constructs (and spaces).
fn only_constructs(body: &str, range: &Range<usize>, constructs: &[Construct]) -> bool {
    let text = &body[range.clone()];
    let start = range.start + (text.len() - text.trim_start().len());
    let end = range.start + text.trim_end().len();
    let mut at = start;
    let mut any = false;
    for construct in constructs.iter().take_while(|c| c.range.start < end) {
        if construct.range.end <= start {
            continue;
        }
        if construct.range.start > at && !body[at..construct.range.start].trim().is_empty() {
            return false;
        }
        any = true;
        at = at.max(construct.range.end);
    }
    any && (at >= end || body[at..end].trim().is_empty())
}

struct Writer<'a, 'o> {
    body: &'a str,
    options: &'o Options<'o>,
    lines: LineIndex<'a>,
    out: String,
    slugger: Slugger,
    toc: Vec<TocEntry>,
    /// MDX's inline tables of contents, each written as a mark
    /// (`inline_toc_mark`) until the headings are all known (`finish`).
    inline_tocs: Vec<super::mdx::InlineToc>,
    problems: Vec<Problem>,
    words: WordCount,
    /// The prose as read, one block a line (see `Rendered::text`).
    text: String,
    heading: Option<Heading<'a>>,
    code: Option<CodeBlock>,
    image: Option<Image<'a>>,
    table: Table,
    /// Inside a link: a footnote reference there cannot be a link itself.
    in_link: bool,
    /// Inside `<https://…>` or `<a@b.c>`: the text is a URL, not prose.
    in_autolink: bool,
    /// The body has more than whitespace: it takes a minute to read, even
    /// if all of it is code.
    has_content: bool,
    /// Images written so far (the first near the top loads at once).
    images: usize,
    /// Where the attributes of the last `<li>` go, until its content starts.
    item_attributes_at: Option<usize>,
    footnotes: Footnotes,
    /// Where a Kramdown attribute list puts its attributes (see `Placed`).
    placed: Placed,
    /// How many shortcodes deep this body is (0 for a post's own), and what
    /// is left of the post's budget.
    nesting: Nesting,
    /// The budget ran out: said once.
    over_budget: bool,
}

/// Where the elements that a Kramdown attribute list (`{: .notice}`) may
/// apply to have their start tag's end, to insert attributes there: the open
/// blocks and inline elements, and the last of each to close, with where the
/// output was when it closed (the list must follow it directly).
#[derive(Default)]
struct Placed {
    /// With the tag's name where it matters (`p`).
    blocks: Vec<(usize, &'static str)>,
    inlines: Vec<usize>,
    last_block: Option<(usize, usize)>,
    last_inline: Option<(usize, usize)>,
}

impl Placed {
    /// The output was cut at `at` (a footnote taken out): what was after is gone.
    fn cut_at(&mut self, at: usize) {
        self.blocks.retain(|(place, _)| *place < at);
        self.inlines.retain(|place| *place < at);
        self.last_block = self.last_block.filter(|(_, end)| *end < at);
        self.last_inline = self.last_inline.filter(|(_, end)| *end < at);
    }
}

struct Heading<'a> {
    level: HeadingLevel,
    id: Option<CowStr<'a>>,
    classes: Vec<CowStr<'a>>,
    attrs: Vec<(CowStr<'a>, Option<CowStr<'a>>)>,
    line: usize,
    /// Where the start tag goes once the id is known.
    start: usize,
    text: String,
}

struct CodeBlock {
    /// The first word of the info string.
    lang: String,
    offset: usize,
    text: String,
}

struct Image<'a> {
    src: String,
    /// As the post writes it, for the picture resolver.
    dest: String,
    offset: usize,
    title: CowStr<'a>,
    alt: String,
    /// Tags opened inside the alt text (links, emphasis, images).
    depth: usize,
}

#[derive(Default)]
struct Table {
    alignments: Vec<Alignment>,
    in_head: bool,
    body_open: bool,
    cell: usize,
}

#[derive(Default)]
struct Footnotes {
    /// Label (lowercased, as labels match) → (number, references so far).
    numbers: HashMap<String, (usize, usize)>,
    /// Definitions being written: (label, where its HTML starts, line).
    open: Vec<(String, usize, usize)>,
    /// Finished definitions: (label, line, HTML).
    done: Vec<(String, usize, String)>,
}

impl<'a, 'o> Writer<'a, 'o> {
    fn new(body: &'a str, options: &'o Options<'o>, nesting: Nesting) -> Self {
        Self {
            body,
            options,
            lines: LineIndex::new(body, options.first_line),
            out: String::with_capacity(body.len() + body.len() / 2 + 64),
            slugger: Slugger::new(),
            toc: Vec::new(),
            inline_tocs: Vec::new(),
            problems: Vec::new(),
            words: WordCount::default(),
            text: String::new(),
            heading: None,
            code: None,
            image: None,
            table: Table::default(),
            in_link: false,
            in_autolink: false,
            has_content: !body.trim().is_empty(),
            images: 0,
            item_attributes_at: None,
            footnotes: Footnotes::default(),
            placed: Placed::default(),
            nesting,
            over_budget: false,
        }
    }

    fn event(&mut self, event: Event<'a>, offset: usize) {
        if self.image.is_some() {
            self.alt_text(event);
            return;
        }
        if let Some(code) = &mut self.code {
            match event {
                Event::Text(text) => code.text.push_str(&text),
                Event::End(TagEnd::CodeBlock) => self.end_code_block(),
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag, offset),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => {
                self.prose(&text);
                escape::text(&mut self.out, &text);
            }
            Event::Code(text) => {
                self.prose(&text);
                self.out.push_str("<code>");
                escape::text(&mut self.out, &text);
                self.out.push_str("</code>");
            }
            Event::InlineMath(tex) => self.math(&tex, offset, false),
            Event::DisplayMath(tex) => self.math(&tex, offset, true),
            Event::Html(html) | Event::InlineHtml(html) => self.raw_html(&html, offset),
            Event::SoftBreak => {
                if let Some(heading) = &mut self.heading {
                    heading.text.push(' ');
                }
                self.text.push(' ');
                self.out.push('\n');
            }
            Event::HardBreak => {
                if let Some(heading) = &mut self.heading {
                    heading.text.push(' ');
                }
                self.break_text();
                self.out.push_str("<br>\n");
            }
            Event::Rule => {
                self.open_block("hr", offset);
                self.out.push_str(">\n");
            }
            Event::FootnoteReference(label) => self.footnote_reference(&label),
            Event::TaskListMarker(checked) => {
                if let Some(at) = self.item_attributes_at.take() {
                    self.insert_at(at, " class=\"task-list-item\"");
                }
                self.out.push_str("<input type=\"checkbox\" class=\"task-list-item-checkbox\" disabled");
                self.out.push_str(if checked { " checked> " } else { "> " });
            }
        }
    }

    /// Text that is read: counted, and part of a heading's plain text.
    fn prose(&mut self, text: &str) {
        if let Some(heading) = &mut self.heading {
            heading.text.push_str(text);
        }
        if !self.in_autolink {
            self.words.add(text);
            self.text.push_str(text);
        }
    }

    /// Ends a line of the prose text, where a block ends or starts.
    fn break_text(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    fn start(&mut self, tag: Tag<'a>, offset: usize) {
        match tag {
            Tag::Paragraph => {
                self.open_block("p", offset);
                self.placed.blocks.push((self.out.len(), "p"));
                self.out.push('>');
            }
            Tag::Heading { level, id, classes, attrs } => {
                self.newline();
                let line = self.lines.line(offset);
                self.heading =
                    Some(Heading { level, id, classes, attrs, line, start: self.out.len(), text: String::new() });
            }
            Tag::BlockQuote(None) => {
                self.open_block("blockquote", offset);
                self.placed.blocks.push((self.out.len(), ""));
                self.out.push_str(">\n");
            }
            Tag::BlockQuote(Some(kind)) => {
                let (class, title) = alert(kind);
                self.open_block("div", offset);
                let _ = writeln!(self.out, " class=\"alert alert-{class}\">\n<p class=\"alert-title\">{title}</p>");
            }
            Tag::CodeBlock(kind) => {
                let lang = match &kind {
                    CodeBlockKind::Fenced(info) => first_word(info),
                    CodeBlockKind::Indented => "",
                };
                self.code = Some(CodeBlock { lang: lang.to_string(), offset, text: String::new() });
            }
            Tag::HtmlBlock => self.newline(),
            Tag::List(Some(1)) => {
                self.open_block("ol", offset);
                self.placed.blocks.push((self.out.len(), ""));
                self.out.push_str(">\n");
            }
            Tag::List(Some(start)) => {
                self.open_block("ol", offset);
                self.placed.blocks.push((self.out.len(), ""));
                let _ = writeln!(self.out, " start=\"{start}\">");
            }
            Tag::List(None) => {
                self.open_block("ul", offset);
                self.placed.blocks.push((self.out.len(), ""));
                self.out.push_str(">\n");
            }
            Tag::Item => {
                self.newline();
                self.out.push_str("<li");
                self.item_attributes_at = Some(self.out.len());
                self.data_line(offset);
                self.out.push('>');
            }
            Tag::FootnoteDefinition(label) => {
                self.newline();
                let line = self.lines.line(offset);
                self.footnotes.open.push((label.to_lowercase(), self.out.len(), line));
            }
            Tag::DefinitionList => {
                self.open_block("dl", offset);
                self.out.push_str(">\n");
            }
            Tag::DefinitionListTitle => {
                self.open_block("dt", offset);
                self.out.push('>');
            }
            Tag::DefinitionListDefinition => {
                self.open_block("dd", offset);
                self.out.push('>');
            }
            Tag::Table(alignments) => {
                self.table = Table { alignments, ..Table::default() };
                self.open_block("table", offset);
                self.placed.blocks.push((self.out.len(), ""));
                self.out.push_str(">\n");
            }
            Tag::TableHead => {
                self.table.in_head = true;
                self.table.cell = 0;
                self.out.push_str("<thead>\n<tr>");
            }
            Tag::TableRow => {
                self.table.cell = 0;
                if !self.table.body_open {
                    self.table.body_open = true;
                    self.out.push_str("<tbody>\n");
                }
                self.out.push_str("<tr>");
            }
            Tag::TableCell => {
                self.out.push_str(if self.table.in_head { "<th" } else { "<td" });
                self.out.push_str(match self.table.alignments.get(self.table.cell) {
                    Some(Alignment::Left) => " style=\"text-align: left\">",
                    Some(Alignment::Center) => " style=\"text-align: center\">",
                    Some(Alignment::Right) => " style=\"text-align: right\">",
                    _ => ">",
                });
            }
            Tag::Emphasis => self.open_inline("<em", ">"),
            Tag::Strong => self.open_inline("<strong", ">"),
            Tag::Strikethrough => self.out.push_str("<del>"),
            Tag::Superscript => self.out.push_str("<sup>"),
            Tag::Subscript => self.out.push_str("<sub>"),
            Tag::Link { link_type, dest_url, title, .. } => {
                let dest = match link_type {
                    LinkType::Email => Cow::Owned(format!("mailto:{dest_url}")),
                    _ => Cow::Borrowed(&*dest_url),
                };
                let href = self.resolve(&dest, offset, false);
                self.open_inline("<a", " href=\"");
                escape::href(&mut self.out, &href);
                if !title.is_empty() {
                    self.out.push_str("\" title=\"");
                    escape::attr(&mut self.out, &title);
                }
                self.out.push_str("\">");
                self.in_link = true;
                self.in_autolink = matches!(link_type, LinkType::Autolink | LinkType::Email);
            }
            Tag::Image { dest_url, title, .. } => {
                let src = self.resolve(&dest_url, offset, true).into_owned();
                let dest = dest_url.to_string();
                self.image = Some(Image { src, dest, offset, title, alt: String::new(), depth: 0 });
            }
            // Not enabled: front matter is split off before rendering.
            Tag::MetadataBlock(_) => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.close_block("</p>\n"),
            TagEnd::Heading(_) => self.end_heading(),
            TagEnd::BlockQuote(None) => self.close_block("</blockquote>\n"),
            TagEnd::BlockQuote(Some(_)) => self.out.push_str("</div>\n"),
            // Handled in `event` while the code block is open.
            TagEnd::CodeBlock => {}
            TagEnd::HtmlBlock => {}
            TagEnd::List(true) => self.close_block("</ol>\n"),
            TagEnd::List(false) => self.close_block("</ul>\n"),
            TagEnd::Item => {
                self.break_text();
                self.item_attributes_at = None;
                self.out.push_str("</li>\n");
            }
            TagEnd::FootnoteDefinition => {
                if let Some((label, start, line)) = self.footnotes.open.pop() {
                    let html = self.out.split_off(start.min(self.out.len()));
                    self.footnotes.done.push((label, line, html));
                    self.placed.cut_at(start);
                }
            }
            TagEnd::DefinitionList => self.out.push_str("</dl>\n"),
            TagEnd::DefinitionListTitle => {
                self.break_text();
                self.out.push_str("</dt>\n");
            }
            TagEnd::DefinitionListDefinition => {
                self.break_text();
                self.out.push_str("</dd>\n");
            }
            TagEnd::Table => {
                if self.table.body_open {
                    self.out.push_str("</tbody>\n");
                }
                self.close_block("</table>\n");
            }
            TagEnd::TableHead => {
                self.table.in_head = false;
                self.out.push_str("</tr>\n</thead>\n");
            }
            TagEnd::TableRow => self.out.push_str("</tr>\n"),
            TagEnd::TableCell => {
                self.break_text();
                self.out.push_str(if self.table.in_head { "</th>" } else { "</td>" });
                self.table.cell += 1;
            }
            TagEnd::Emphasis => self.close_inline("</em>"),
            TagEnd::Strong => self.close_inline("</strong>"),
            TagEnd::Strikethrough => self.out.push_str("</del>"),
            TagEnd::Superscript => self.out.push_str("</sup>"),
            TagEnd::Subscript => self.out.push_str("</sub>"),
            TagEnd::Link => {
                self.in_link = false;
                self.in_autolink = false;
                self.close_inline("</a>");
            }
            // Handled in `alt_text`.
            TagEnd::Image => {}
            TagEnd::MetadataBlock(_) => {}
        }
    }

    /// Starts a line (unless at the start of one) and writes `<name` with the
    /// block's `data-line`; the caller adds attributes and the `>`.
    fn open_block(&mut self, name: &str, offset: usize) {
        self.newline();
        self.out.push('<');
        self.out.push_str(name);
        self.data_line(offset);
    }

    fn data_line(&mut self, offset: usize) {
        if self.options.source_lines {
            let line = self.lines.line(offset);
            let _ = write!(self.out, " data-line=\"{line}\"");
        }
    }

    fn newline(&mut self) {
        self.break_text();
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn end_heading(&mut self) {
        self.break_text();
        let Some(heading) = self.heading.take() else { return };
        let id = match heading.id.as_deref().filter(|id| !id.is_empty()) {
            Some(id) => {
                // Reserve it, so a later heading with the same text gets `-1`.
                self.slugger.slug(id);
                id.to_string()
            }
            None => {
                let id = self.slugger.slug(heading.text.trim());
                if id.is_empty() { self.slugger.slug("section") } else { id }
            }
        };
        let level = heading_level(heading.level);
        let mut tag = String::with_capacity(32 + id.len());
        let _ = write!(tag, "<h{level} id=\"");
        escape::attr(&mut tag, &id);
        tag.push('"');
        if !heading.classes.is_empty() {
            tag.push_str(" class=\"");
            for (i, class) in heading.classes.iter().enumerate() {
                if i > 0 {
                    tag.push(' ');
                }
                escape::attr(&mut tag, class);
            }
            tag.push('"');
        }
        for (name, value) in &heading.attrs {
            // Only names that keep the tag valid, and none we write ourselves.
            if !is_attribute_name(name) || matches!(&**name, "id" | "class" | "data-line") {
                continue;
            }
            tag.push(' ');
            tag.push_str(name);
            tag.push_str("=\"");
            escape::attr(&mut tag, value.as_deref().unwrap_or(""));
            tag.push('"');
        }
        if self.options.source_lines {
            let _ = write!(tag, " data-line=\"{}\"", heading.line);
        }
        tag.push('>');
        self.insert_at(heading.start, &tag);
        let _ = writeln!(self.out, "</h{level}>");
        if (2..=4).contains(&level) {
            self.toc.push(TocEntry { level, id, title: collapse_whitespace(&heading.text), line: heading.line });
        }
    }

    fn end_code_block(&mut self) {
        let Some(code) = self.code.take() else { return };
        if code.lang.eq_ignore_ascii_case("math") {
            // ```math is display math, as on GitHub and GitLab.
            self.open_block("p", code.offset);
            self.out.push('>');
            self.math(&code.text, code.offset, true);
            self.out.push_str("</p>\n");
            return;
        }
        self.open_block("pre", code.offset);
        self.out.push_str("><code");
        if !code.lang.is_empty() {
            self.out.push_str(" class=\"language-");
            escape::attr(&mut self.out, &code.lang);
            self.out.push('"');
        }
        self.out.push('>');
        let pushed = match (self.options.highlight, self.options.highlights) {
            (false, _) => false,
            (true, Some(cache)) => {
                cache.highlight(&code.lang, &code.text).map(|html| self.out.push_str(&html)).is_some()
            }
            (true, None) => highlight::highlight(&code.lang, &code.text).map(|html| self.out.push_str(&html)).is_some(),
        };
        if !pushed {
            escape::text(&mut self.out, &code.text);
        }
        self.out.push_str("</code></pre>\n");
    }

    fn math(&mut self, tex: &str, offset: usize, display: bool) {
        if let Some(heading) = &mut self.heading {
            heading.text.push_str(tex);
        }
        let line = (display && self.options.source_lines).then(|| self.lines.line(offset));
        if let Err(message) = math::render(tex, display, line, &mut self.out) {
            self.out.push_str("<code class=\"math-error\"");
            if let Some(line) = line {
                let _ = write!(self.out, " data-line=\"{line}\"");
            }
            self.out.push('>');
            escape::text(&mut self.out, tex);
            self.out.push_str("</code>");
            let (line, column) = self.lines.line_column(offset);
            self.problems.push(Problem::warning(line, column, message).with_hint(MATH_HINT));
        }
    }

    /// The destination to write for a link or image, asking the resolver.
    fn resolve<'d>(&mut self, dest: &'d str, offset: usize, image: bool) -> Cow<'d, str> {
        let Some(resolver) = self.options.links else { return Cow::Borrowed(dest) };
        if dest.starts_with('#') {
            return Cow::Borrowed(dest);
        }
        let answer = if image { resolver.resolve_image(dest) } else { resolver.resolve_link(dest) };
        match answer {
            Link::Keep => Cow::Borrowed(dest),
            Link::Rewrite(url) => Cow::Owned(url),
            Link::Broken { message, hint } => {
                let (line, column) = self.lines.line_column(offset);
                let mut problem = Problem::warning(line, column, message);
                problem.hint = hint;
                self.problems.push(problem);
                Cow::Borrowed(dest)
            }
        }
    }

    /// Events inside an image: its alt text, up to the image's end.
    fn alt_text(&mut self, event: Event<'a>) {
        let Some(image) = &mut self.image else { return };
        match event {
            Event::Start(_) => image.depth += 1,
            Event::End(_) if image.depth > 0 => image.depth -= 1,
            Event::End(_) => self.end_image(),
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) | Event::DisplayMath(text) => {
                image.alt.push_str(&text)
            }
            Event::SoftBreak | Event::HardBreak => image.alt.push(' '),
            _ => {}
        }
    }

    fn end_image(&mut self) {
        let Some(image) = self.image.take() else { return };
        self.img(&image.src, &image.dest, image.offset, &image.alt, &image.title);
    }

    /// What the picture resolver says of the image at `dest` (written at
    /// `offset`), its problem reported there; and whether it loads at once:
    /// the post's first image, near its top, when nothing fills the first
    /// screen above the post. Every other one loads as the reader nears it.
    fn sizing(&mut self, dest: &str, offset: usize) -> (Sizing, bool) {
        let eager = self.images == 0 && offset < FIRST_SCREEN_BYTES && !self.options.first_screen_taken;
        self.images += 1;
        let sizing = self.options.pictures.map_or(Sizing::AsItIs, |pictures| pictures.picture(dest));
        if let Sizing::Problem { message, hint } = &sizing {
            let (line, column) = self.lines.line_column(offset);
            let mut problem = Problem::warning(line, column, message.clone());
            problem.hint.clone_from(hint);
            self.problems.push(problem);
        }
        (sizing, eager)
    }

    fn img(&mut self, src: &str, dest: &str, offset: usize, alt: &str, title: &str) {
        let (sizing, eager) = self.sizing(dest, offset);
        if let Sizing::Picture(picture) = &sizing {
            self.out.push_str("<picture>");
            sources(&mut self.out, picture);
        }
        let src = match &sizing {
            Sizing::Picture(picture) => picture.src.as_str(),
            _ => src,
        };
        self.open_inline("<img", " src=\"");
        escape::href(&mut self.out, src);
        self.out.push('"');
        size_attributes(&mut self.out, &sizing);
        self.out.push_str(" alt=\"");
        escape::attr(&mut self.out, alt);
        if !title.is_empty() {
            self.out.push_str("\" title=\"");
            escape::attr(&mut self.out, title);
        }
        self.out.push('"');
        if !eager {
            self.out.push_str(" loading=\"lazy\"");
        }
        self.out.push_str(" decoding=\"async\">");
        self.close_inline("");
        if matches!(sizing, Sizing::Picture(_)) {
            self.out.push_str("</picture>");
        }
    }

    /// Writes what another tool's construct renders to: as a block of its own
    /// when `block`, else inline, in the paragraph it is in.
    fn construct(&mut self, construct: &Construct, block: bool) {
        let offset = construct.range.start;
        if let Some(image) = &mut self.image {
            // Inside an image's alt text: only text can be there.
            image.alt.push_str(&self.body[construct.range.clone()]);
            return;
        }
        match &construct.shown {
            Shown::Nothing => {}
            Shown::Text(text) => {
                self.open_paragraph(block, offset, "");
                escape::text(&mut self.out, text);
                self.close_paragraph(block, "p");
            }
            Shown::Figure { src: dest, alt, caption, link } => {
                let src = self.resolve(dest, offset, true).into_owned();
                if block {
                    self.open_block("figure", offset);
                    self.out.push('>');
                }
                let link = if link.is_empty() { None } else { Some(self.resolve(link, offset, false).into_owned()) };
                if let Some(link) = &link {
                    self.out.push_str("<a href=\"");
                    escape::href(&mut self.out, link);
                    self.out.push_str("\">");
                }
                self.img(&src, dest, offset, alt, "");
                if link.is_some() {
                    self.out.push_str("</a>");
                }
                if block && !caption.is_empty() {
                    self.out.push_str("<figcaption>");
                    escape::text(&mut self.out, caption);
                    self.out.push_str("</figcaption>");
                }
                self.close_paragraph(block, "figure");
            }
            Shown::Image { src: dest, alt } => {
                let src = self.resolve(dest, offset, true).into_owned();
                self.open_paragraph(block, offset, "");
                self.img(&src, dest, offset, alt, "");
                self.close_paragraph(block, "p");
            }
            Shown::Video { url, label } => {
                self.open_paragraph(block, offset, " class=\"video\"");
                self.out.push_str("<a href=\"");
                escape::href(&mut self.out, url);
                self.out.push_str("\">");
                escape::text(&mut self.out, label);
                self.out.push_str("</a>");
                self.close_paragraph(block, "p");
            }
            Shown::Code { lang, code } => {
                self.code = Some(CodeBlock { lang: lang.clone(), offset, text: code.clone() });
                self.end_code_block();
            }
            Shown::Attributes(attributes) => self.attribute_list(attributes, block, offset),
            Shown::Math { tex, display } => {
                self.open_paragraph(block, offset, "");
                self.math(tex, offset, *display);
                self.close_paragraph(block, "p");
            }
            Shown::Html { html, dropped } => {
                if block {
                    self.newline();
                }
                self.raw_html(html, offset);
                if block {
                    self.out.push('\n');
                }
                for attribute in dropped {
                    let (line, column) = self.lines.line_column(offset);
                    let message = format!("MDX attribute `{attribute}` is an expression; it is left out");
                    let hint = "Hanji runs no JavaScript: write the value itself, as text or a number";
                    self.problems.push(Problem::warning(line, column, message).with_hint(hint));
                }
            }
            Shown::Toc(toc) => {
                // The headings after it are not read yet: a mark for now.
                if block {
                    self.newline();
                }
                self.out.push_str(&inline_toc_mark(self.inline_tocs.len()));
                self.inline_tocs.push(toc.clone());
                if block {
                    self.out.push('\n');
                }
            }
            Shown::Left { what, holds, hint } => {
                let (line, column) = self.lines.line_column(offset);
                let message = match holds {
                    true => format!("{what} is not rendered; what it holds is shown without it"),
                    false => format!("{what} is not rendered; it is left out"),
                };
                self.problems.push(Problem::warning(line, column, message).with_hint(*hint));
            }
            Shown::Unrendered { what, why, hint } => {
                if block {
                    self.open_paragraph(true, offset, " class=\"unrendered\"");
                    self.out.push_str("<code>");
                } else {
                    self.out.push_str("<code class=\"unrendered\">");
                }
                escape::text(&mut self.out, &self.body[construct.range.clone()]);
                self.out.push_str("</code>");
                self.close_paragraph(block, "p");
                let (line, column) = self.lines.line_column(offset);
                let message = match why {
                    Some(why) => format!("{what} is not rendered: {why}; it is shown as written"),
                    None => format!("{what} is not rendered; it is shown as written"),
                };
                self.problems.push(Problem::warning(line, column, message).with_hint(hint.clone()));
            }
            Shown::Own { name, output, markdown, missing_refused } => {
                if *missing_refused && !output.missing.is_empty() {
                    let (line, column) = self.lines.line_column(offset);
                    let missing = output.missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
                    let message = format!("Zola shortcode `{name}` uses {missing}, which the call does not give");
                    let hint = "Zola stops the build here; Hanji writes it empty: give it in the call";
                    self.problems.push(Problem::warning(line, column, message).with_hint(hint));
                }
                self.own_shortcode(output, *markdown, block, offset);
            }
        }
    }

    /// Writes what a shortcode of the blog's own wrote: HTML as it is, URLs
    /// leading where Markdown's would, the post's HTML as raw HTML is, and
    /// Markdown rendered; or, when it writes Markdown, all of it rendered.
    fn own_shortcode(&mut self, output: &Output, markdown: bool, block: bool, offset: usize) {
        if markdown {
            let mut text = String::new();
            for piece in &output.pieces {
                match piece {
                    Piece::Html(html) | Piece::Raw(html) => text.push_str(html),
                    // Left to the Markdown below, which resolves what it writes.
                    Piece::Url { value, .. } => escape::attr(&mut text, value),
                    Piece::Markdown { text: markdown, inline, shortcodes, escaped } => {
                        let html = self.nested(markdown, offset, *inline, *shortcodes);
                        if *escaped {
                            escape::text(&mut text, &html);
                        } else {
                            text.push_str(&html);
                        }
                    }
                }
            }
            // Hugo runs the shortcodes in `{{% … %}}`'s output; Liquid and Zola do not.
            let html = self.nested(&text, offset, !block, self.options.syntax == Syntax::Hugo);
            if block {
                self.newline();
            }
            self.out.push_str(&html);
            return;
        }
        if block {
            self.newline();
        }
        for piece in &output.pieces {
            match piece {
                Piece::Html(html) => escape::raw(&mut self.out, html),
                Piece::Url { value, image } => {
                    let url = self.resolve(value, offset, *image).into_owned();
                    escape::href(&mut self.out, &url);
                }
                Piece::Raw(html) => self.raw_html(html, offset),
                Piece::Markdown { text, inline, shortcodes, escaped } => {
                    let html = self.nested(text, offset, *inline, *shortcodes);
                    if *escaped {
                        escape::text(&mut self.out, &html);
                    } else {
                        self.out.push_str(&html);
                    }
                }
            }
        }
        if block && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    /// `text` rendered as Markdown with this post's links and images, inline
    /// (a single paragraph without its `<p>`) or as blocks. Its problems are
    /// reported at `offset`, and its prose counted. Other tools' syntax in it
    /// is looked for only when `shortcodes`, and so many levels deep.
    fn nested(&mut self, text: &str, offset: usize, inline: bool, shortcodes: bool) -> String {
        let left = self.nesting.left.get();
        // Even an empty text costs a little: calls are bounded too.
        let cost = text.len().max(64);
        if cost > left {
            self.nesting.left.set(0);
            if !self.over_budget {
                self.over_budget = true;
                let (line, column) = self.lines.line_column(offset);
                let message = format!(
                    "the shortcodes of this post hand back more than {} MB of Markdown to render; the rest is shown as \
                     plain text",
                    MAX_SHORTCODE_BYTES >> 20
                );
                let hint = "a shortcode that repeats its inner text, nested in itself, doubles the page at every level: \
                            nest it less";
                self.problems.push(Problem::error(line, column, message).with_hint(hint));
            }
            let mut shown = String::with_capacity(text.len().min(4096) + 32);
            escape::text(&mut shown, &text[..crate::text::floor_char_boundary(text, text.len().min(4096))]);
            return shown;
        }
        self.nesting.left.set(left - cost);
        let depth = self.nesting.depth;
        let syntax = if shortcodes && depth < MAX_SHORTCODE_DEPTH { self.options.syntax } else { Syntax::Markdown };
        let options = Options { first_line: 0, source_lines: false, syntax, ..*self.options };
        let nesting = Nesting { depth: depth + 1, left: self.nesting.left.clone() };
        let (rendered, words) = render_at(text, &options, nesting);
        self.words.merge(&words);
        let (line, column) = self.lines.line_column(offset);
        for problem in rendered.problems {
            self.problems.push(Problem { line, column, ..problem });
        }
        let html = rendered.html;
        let single = html.strip_prefix("<p>").and_then(|h| h.strip_suffix("</p>\n")).filter(|h| !h.contains("<p>"));
        match single {
            Some(inside) if inline => inside.to_string(),
            _ => html,
        }
    }

    /// Raw HTML, as written, but for each `<img>` in it: its `src` checked
    /// and made to lead where a Markdown image's would, and, unless the
    /// author gave it a `srcset`, sized for the screen as a Markdown image
    /// is (a `<picture>` around it, with the attributes it lacks).
    fn raw_html(&mut self, html: &str, offset: usize) {
        let mut rest = html;
        while let Some(tag) = img_src(rest) {
            let dest = &rest[tag.src.clone()];
            let resolved = self.resolve(dest, offset, true).into_owned();
            let lower = rest[tag.start..tag.end].to_ascii_lowercase();
            let has = |name: &str| has_attribute(&lower, name);
            let (sizing, eager) = if has("srcset") { (Sizing::AsItIs, false) } else { self.sizing(dest, offset) };
            escape::raw(&mut self.out, &rest[..tag.start]);
            if let Sizing::Picture(picture) = &sizing {
                self.out.push_str("<picture>");
                sources(&mut self.out, picture);
            }
            escape::raw(&mut self.out, &rest[tag.start..tag.src.start]);
            match &sizing {
                Sizing::Picture(picture) => escape::href(&mut self.out, &picture.src),
                _ if resolved == dest => escape::raw(&mut self.out, dest),
                _ => escape::href(&mut self.out, &resolved),
            }
            if matches!(sizing, Sizing::AsItIs) {
                escape::raw(&mut self.out, &rest[tag.src.end..tag.end]);
                rest = &rest[tag.end..];
                continue;
            }
            // The tag's end, less its `>` (or `/>`), for the attributes it lacks.
            let close = if rest[..tag.end].ends_with("/>") { tag.end - 2 } else { tag.end - 1 };
            escape::raw(&mut self.out, rest[tag.src.end..close].trim_end_matches(char::is_whitespace));
            if !has("width") && !has("height") {
                size_attributes(&mut self.out, &sizing);
            } else if let Sizing::Picture(picture) = &sizing {
                // The author's own size stays; the copies are still offered.
                srcset_attributes(&mut self.out, picture);
            }
            if !has("loading") && !eager {
                self.out.push_str(" loading=\"lazy\"");
            }
            if !has("decoding") {
                self.out.push_str(" decoding=\"async\"");
            }
            let end = &rest[close..tag.end];
            self.out.push_str(if end.starts_with('/') { " />" } else { ">" });
            if matches!(sizing, Sizing::Picture(_)) {
                self.out.push_str("</picture>");
            }
            rest = &rest[tag.end..];
        }
        escape::raw(&mut self.out, rest);
    }

    /// Writes `open` (`<a`), which attributes may follow, then `rest`.
    fn open_inline(&mut self, open: &str, rest: &str) {
        self.out.push_str(open);
        self.placed.inlines.push(self.out.len());
        self.out.push_str(rest);
    }

    fn close_inline(&mut self, end: &str) {
        self.out.push_str(end);
        if let Some(at) = self.placed.inlines.pop() {
            self.placed.last_inline = Some((at, self.out.len()));
        }
    }

    fn close_block(&mut self, end: &str) {
        self.break_text();
        self.out.push_str(end);
        if let Some((at, _)) = self.placed.blocks.pop() {
            self.placed.last_block = Some((at, self.out.len()));
        }
    }

    /// A Kramdown attribute list: on the element it follows at once (a link,
    /// an image, emphasis), on the paragraph whose last line it is, or, on a
    /// line of its own, on the block before it, as Kramdown applies them.
    fn attribute_list(&mut self, attributes: &[(String, String)], block: bool, offset: usize) {
        let at = if block {
            self.placed.last_block.filter(|(_, end)| self.out.trim_end().len() <= *end).map(|(at, _)| at)
        } else if let Some((at, _)) = self.placed.last_inline.filter(|(_, end)| *end == self.out.len()) {
            Some(at)
        } else if let Some(&(at, "p")) = self.placed.blocks.last()
            && self.out.ends_with('\n')
            && self.heading.is_none()
        {
            // The paragraph's own last line: the line break before it goes too.
            self.out.pop();
            Some(at)
        } else {
            None
        };
        let Some(at) = at else {
            let (line, column) = self.lines.line_column(offset);
            let message = "Kramdown attribute list with nothing before it to apply to".to_string();
            let hint = "put it right after the element, or on the line after the paragraph or block";
            self.problems.push(Problem::warning(line, column, message).with_hint(hint));
            return;
        };
        let mut written = String::new();
        for (name, value) in attributes {
            // Names that keep the tag valid, none of ours, and no script.
            let ours = matches!(name.as_str(), "data-line" | "href" | "src");
            if !is_attribute_name(name) || ours || name.to_ascii_lowercase().starts_with("on") {
                continue;
            }
            let _ = write!(written, " {name}=\"");
            escape::attr(&mut written, value);
            written.push('"');
        }
        self.insert_at(at, &written);
    }

    /// Inserts `text` into the output at `at`, moving every place recorded after it.
    fn insert_at(&mut self, at: usize, text: &str) {
        if at > self.out.len() || !self.out.is_char_boundary(at) {
            return;
        }
        self.out.insert_str(at, text);
        let moved = |place: &mut usize| {
            if *place > at {
                *place += text.len();
            }
        };
        self.placed.blocks.iter_mut().map(|(place, _)| place).chain(self.placed.inlines.iter_mut()).for_each(moved);
        for (start, end) in self.placed.last_block.iter_mut().chain(self.placed.last_inline.iter_mut()) {
            moved(start);
            moved(end);
        }
        self.item_attributes_at.iter_mut().for_each(moved);
        self.footnotes.open.iter_mut().for_each(|(_, start, _)| moved(start));
        if let Some(heading) = &mut self.heading {
            moved(&mut heading.start);
        }
    }

    /// Reports a construct that is where nothing can be shown for it (a
    /// link's address, an HTML attribute): it is left as written there.
    fn unplaced(&mut self, construct: &Construct) {
        let what = match &construct.shown {
            Shown::Nothing | Shown::Text(_) | Shown::Attributes(_) => return,
            Shown::Unrendered { what, hint, .. } => Some((what.clone(), hint.clone())),
            Shown::Left { what, hint, .. } => Some((what.clone(), Cow::Borrowed(*hint))),
            _ => None,
        };
        let (what, hint) = what.unwrap_or_else(|| {
            let text: String = self.body[construct.range.clone()].chars().take(40).collect();
            (format!("`{text}`"), "move it out of the link or HTML it is in, on a line of its own".into())
        });
        let (line, column) = self.lines.line_column(construct.range.start);
        let message = format!("{what} is not rendered; it is left as written");
        self.problems.push(Problem::warning(line, column, message).with_hint(hint));
    }

    fn open_paragraph(&mut self, block: bool, offset: usize, attributes: &str) {
        if block {
            self.open_block("p", offset);
            self.out.push_str(attributes);
            self.out.push('>');
        }
    }

    fn close_paragraph(&mut self, block: bool, name: &str) {
        if block {
            let _ = writeln!(self.out, "</{name}>");
        }
    }

    fn footnote_reference(&mut self, label: &str) {
        let next = self.footnotes.numbers.len() + 1;
        let (number, count) = self.footnotes.numbers.entry(label.to_lowercase()).or_insert((next, 0));
        *count += 1;
        let (number, count) = (*number, *count);
        let suffix = if count > 1 { format!("-{count}") } else { String::new() };
        if self.in_link {
            // `<a>` cannot nest: the number alone, still a target for the back link.
            let _ = write!(self.out, "<sup class=\"footnote-ref\" id=\"fnref-{number}{suffix}\">{number}</sup>");
        } else {
            let _ = write!(
                self.out,
                "<sup class=\"footnote-ref\"><a href=\"#fn-{number}\" id=\"fnref-{number}{suffix}\">{number}</a></sup>"
            );
        }
    }

    /// The footnotes, in the order of their first reference, each with links
    /// back to its references; definitions never referenced are left out.
    fn write_footnotes(&mut self) {
        let mut notes: Vec<(usize, usize, usize, String)> = Vec::new();
        for (label, line, html) in std::mem::take(&mut self.footnotes.done) {
            if let Some(&(number, count)) = self.footnotes.numbers.get(&label)
                && !notes.iter().any(|note| note.0 == number)
            {
                notes.push((number, count, line, html));
            }
        }
        if notes.is_empty() {
            return;
        }
        notes.sort_by_key(|note| note.0);
        self.newline();
        // A heading for screen readers (and for the outline), as GitHub does.
        self.out.push_str("<section class=\"footnotes\">\n<h2 class=\"sr-only\">Footnotes</h2>\n<ol>\n");
        for (number, count, line, mut html) in notes {
            let mut back = String::new();
            for k in 1..=count {
                let suffix = if k > 1 { format!("-{k}") } else { String::new() };
                let _ = write!(
                    back,
                    " <a href=\"#fnref-{number}{suffix}\" class=\"footnote-backref\" aria-label=\"Back to reference {number}{suffix}\">↩"
                );
                if k > 1 {
                    let _ = write!(back, "<sup>{k}</sup>");
                }
                back.push_str("</a>");
            }
            // Inside the last paragraph, as GitHub does, or after the content.
            if html.ends_with("</p>\n") {
                html.truncate(html.len() - "</p>\n".len());
                html.push_str(&back);
                html.push_str("</p>\n");
            } else {
                html.push_str(&back);
                html.push('\n');
            }
            let _ = write!(self.out, "<li id=\"fn-{number}\"");
            if self.options.source_lines {
                let _ = write!(self.out, " data-line=\"{line}\"");
            }
            self.out.push_str(">\n");
            self.out.push_str(&html);
            self.out.push_str("</li>\n");
        }
        self.out.push_str("</ol>\n</section>\n");
    }

    fn finish(mut self) -> Rendered {
        // Whatever a malformed stream left open is closed, so the HTML stays whole.
        if self.image.is_some() {
            self.end_image();
        }
        if self.code.is_some() {
            self.end_code_block();
        }
        if self.heading.is_some() {
            self.end_heading();
        }
        while let Some((label, start, line)) = self.footnotes.open.pop() {
            let html = self.out.split_off(start.min(self.out.len()));
            self.footnotes.done.push((label, line, html));
        }
        self.write_footnotes();
        for (at, toc) in self.inline_tocs.iter().enumerate() {
            let html = super::mdx::toc_html(toc, &self.toc);
            self.out = self.out.replacen(&inline_toc_mark(at), &html, 1);
        }
        Rendered {
            html: self.out,
            toc: self.toc,
            word_count: self.words.words(),
            reading_minutes: match self.words.reading_minutes() {
                0 if self.has_content => 1,
                minutes => minutes,
            },
            problems: self.problems,
            text: self.text,
        }
    }
}

/// Where the `n`th inline table of contents goes until `finish` writes it: a
/// comment, which nothing else writes (an author's own is HTML that Hanji
/// escapes or passes; passed, it only gets a table of contents).
fn inline_toc_mark(n: usize) -> String {
    format!("<!--hanji-inline-toc-{n}-->")
}

fn alert(kind: BlockQuoteKind) -> (&'static str, &'static str) {
    match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    }
}

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// The language word of a fence's info string: `rust,ignore` → `rust`,
/// `python title="x"` → `python`, `c++{1,3}` → `c++`.
fn first_word(info: &str) -> &str {
    let info = info.trim_start();
    let end = info.find(|c: char| c.is_whitespace() || c == ',' || c == '{').unwrap_or(info.len());
    &info[..end]
}

/// An `<img>` tag found in raw HTML.
struct ImgTag {
    /// Where the tag starts (its `<`) and ends (after its `>`).
    start: usize,
    end: usize,
    /// The `src` value, inside its quotes.
    src: Range<usize>,
}

/// The first `<img … src="…">` in `html`. Tags cut across HTML events are
/// not seen.
fn img_src(html: &str) -> Option<ImgTag> {
    let bytes = html.as_bytes();
    let mut from = 0;
    loop {
        let at = from + html[from..].find('<')?;
        from = at + 1;
        let name = html.get(at + 1..at + 4)?;
        let after_name = bytes.get(at + 4).copied();
        if !name.eq_ignore_ascii_case("img") || !after_name.is_some_and(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let end = at + html[at..].find('>')? + 1;
        let tag = &html[at..end];
        let lower = tag.to_ascii_lowercase();
        let mut search = 4;
        while let Some(found) = lower[search..].find("src") {
            let name_at = search + found;
            search = name_at + 3;
            let before = lower.as_bytes()[name_at - 1];
            if !before.is_ascii_whitespace() {
                continue; // `data-src`, `srcset`
            }
            let after = lower[name_at + 3..].trim_start();
            let Some(value) = after.strip_prefix('=') else { continue };
            let value = value.trim_start();
            let value_at = tag.len() - value.len();
            let (start, len) = match value.as_bytes().first() {
                Some(quote @ (b'"' | b'\'')) => (value_at + 1, value[1..].find(*quote as char)?),
                Some(_) => {
                    let len = value.find(|c: char| c.is_ascii_whitespace() || c == '>')?;
                    // `<img src=a.png/>`: the `/` closes the tag.
                    let len = if value[len..].starts_with('>') && value[..len].ends_with('/') { len - 1 } else { len };
                    (value_at, len)
                }
                None => continue,
            };
            return Some(ImgTag { start: at, end, src: at + start..at + start + len });
        }
        from = end;
    }
}

/// Whether a tag (lowercased) has the attribute `name`: `srcset=`, or bare.
fn has_attribute(tag: &str, name: &str) -> bool {
    tag.match_indices(name).any(|(at, _)| {
        let before = tag.as_bytes()[at - 1];
        let after = tag[at + name.len()..].trim_start();
        before.is_ascii_whitespace() && (after.starts_with('=') || after.starts_with('>') || after.starts_with('/'))
    })
}

/// An image outside a post's text (its cover), written as the text's images
/// are; `first` loads at once, before anything else, as it is what the
/// reader sees first.
pub(super) fn image(src: &str, alt: &str, sizing: &Sizing, first: bool) -> String {
    let mut out = String::new();
    if let Sizing::Picture(picture) = sizing {
        out.push_str("<picture>");
        sources(&mut out, picture);
    }
    let src = if let Sizing::Picture(picture) = sizing { picture.src.as_str() } else { src };
    out.push_str("<img src=\"");
    escape::href(&mut out, src);
    out.push('"');
    size_attributes(&mut out, sizing);
    out.push_str(" alt=\"");
    escape::attr(&mut out, alt);
    out.push_str(if first { "\" fetchpriority=\"high\"" } else { "\" loading=\"lazy\"" });
    out.push_str(" decoding=\"async\">");
    if matches!(sizing, Sizing::Picture(_)) {
        out.push_str("</picture>");
    }
    out
}

/// The `<source>` elements of a picture, best format first.
fn sources(out: &mut String, picture: &Picture) {
    for (mime, srcset) in &picture.sources {
        out.push_str("<source type=\"");
        out.push_str(mime);
        out.push_str("\" srcset=\"");
        escape::attr(out, srcset);
        out.push_str("\" sizes=\"");
        escape::attr(out, &picture.sizes);
        out.push_str("\">");
    }
}

/// ` srcset="…" sizes="…"` of a picture's `<img>`, if it has more than one size.
fn srcset_attributes(out: &mut String, picture: &Picture) {
    if !picture.srcset.is_empty() {
        out.push_str(" srcset=\"");
        escape::attr(out, &picture.srcset);
        out.push_str("\" sizes=\"");
        escape::attr(out, &picture.sizes);
        out.push('"');
    }
}

/// What an `<img>` gets of its sizing: its `srcset` and `sizes`, and its
/// `width` and `height` (so nothing moves as it loads).
fn size_attributes(out: &mut String, sizing: &Sizing) {
    let (width, height) = match sizing {
        Sizing::Picture(picture) => {
            srcset_attributes(out, picture);
            (picture.width, picture.height)
        }
        Sizing::Size { width, height } => (*width, *height),
        Sizing::AsItIs | Sizing::Problem { .. } => return,
    };
    out.push_str(&format!(" width=\"{width}\" height=\"{height}\""));
}

fn is_attribute_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

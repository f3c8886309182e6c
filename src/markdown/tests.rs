//! Tests of `render` as a whole: what a post's Markdown becomes.

use std::sync::Mutex;

use super::*;
use crate::diagnostics::Severity;

fn html(body: &str) -> String {
    render(body, &Options::default()).html
}

fn with_lines(body: &str, first_line: usize) -> Rendered {
    render(body, &Options { first_line, source_lines: true, ..Options::default() })
}

/// Rewrites `other.md` and `pic.png`, finds `missing.md` and `gone.png` broken,
/// keeps the rest, and remembers what it was asked.
#[derive(Default)]
struct TestLinks {
    asked: Mutex<Vec<String>>,
}

impl LinkResolver for TestLinks {
    fn resolve_link(&self, dest: &str) -> Link {
        self.asked.lock().unwrap().push(dest.to_string());
        match dest {
            "other.md" => Link::Rewrite("/posts/other/".to_string()),
            "missing.md" => Link::Broken {
                message: "link to `missing.md` leads nowhere".to_string(),
                hint: Some("is the file name right?".to_string()),
            },
            _ => Link::Keep,
        }
    }

    fn resolve_image(&self, dest: &str) -> Link {
        self.asked.lock().unwrap().push(format!("image:{dest}"));
        match dest {
            "pic.png" => Link::Rewrite("/posts/a/pic.png".to_string()),
            "gone.png" => Link::Broken { message: "image `gone.png` is missing".to_string(), hint: None },
            _ => Link::Keep,
        }
    }
}

// Headings and the table of contents.

#[test]
fn heading_ids_follow_github_with_duplicates_and_korean() {
    let out =
        render("# Intro\n\n## 분산 학습\n\n## Intro\n\n## Intro\n\n### `cargo test` & C++\n", &Options::default());
    assert!(out.html.contains("<h1 id=\"intro\">Intro</h1>"), "{}", out.html);
    assert!(out.html.contains("<h2 id=\"분산-학습\">분산 학습</h2>"), "{}", out.html);
    assert!(out.html.contains("<h2 id=\"intro-1\">Intro</h2>"), "{}", out.html);
    assert!(out.html.contains("<h2 id=\"intro-2\">Intro</h2>"), "{}", out.html);
    assert!(out.html.contains("<h3 id=\"cargo-test--c\"><code>cargo test</code> &amp; C++</h3>"), "{}", out.html);
}

#[test]
fn explicit_heading_id_wins_and_is_reserved() {
    let out = html("## Setup steps {#setup .wide data-x=1}\n\n## Setup\n\n## Empty {#}\n\n## !!!\n");
    assert!(out.contains("<h2 id=\"setup\" class=\"wide\" data-x=\"1\">Setup steps</h2>"), "{out}");
    // The explicit id is taken, so the heading whose text slugs to it moves on.
    assert!(out.contains("<h2 id=\"setup-1\">Setup</h2>"), "{out}");
    assert!(out.contains("<h2 id=\"empty\">Empty</h2>"), "{out}");
    // Nothing to slug: still a valid, non-empty id.
    assert!(out.contains("<h2 id=\"section\">!!!</h2>"), "{out}");
}

#[test]
fn toc_lists_levels_two_to_four_with_plain_titles() {
    let out = render(
        "# Title\n\n## One *two*\n\n### Three [link](x)\n\n#### Four\n\n##### Five\n\n###### Six\n\nSetext\n------\n",
        &Options::default(),
    );
    let toc: Vec<(u8, &str, &str)> = out.toc.iter().map(|e| (e.level, e.id.as_str(), e.title.as_str())).collect();
    assert_eq!(
        toc,
        [(2, "one-two", "One two"), (3, "three-link", "Three link"), (4, "four", "Four"), (2, "setext", "Setext")]
    );
}

// Source lines.

#[test]
fn data_line_is_the_file_line_of_each_block() {
    let body = "# Title\n\nA paragraph\nover two lines.\n\n- one\n- two\n\n> quoted\n\n```rust\nfn x() {}\n```\n\n---\n\n| a |\n|---|\n| 1 |\n\n$$x^2$$\n\n> [!NOTE]\n> careful\n\nTerm\n: Definition\n";
    let out = with_lines(body, 5).html;
    for expected in [
        "<h1 id=\"title\" data-line=\"5\">",
        "<p data-line=\"7\">A paragraph",
        "<ul data-line=\"10\">",
        "<li data-line=\"10\">one",
        "<li data-line=\"11\">two",
        "<blockquote data-line=\"13\">\n<p data-line=\"13\">quoted",
        "<pre data-line=\"15\"><code class=\"language-rust\">",
        "<hr data-line=\"19\">",
        "<table data-line=\"21\">",
        "<p data-line=\"25\"><math data-line=\"25\" display=\"block\">",
        "<div data-line=\"27\" class=\"alert alert-note\">",
        "<dl data-line=\"30\">\n<dt data-line=\"30\">Term",
        "<dd data-line=\"31\">Definition",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
}

#[test]
fn data_line_counts_from_one_and_is_absent_when_off() {
    let body = "para\n\n## h\n\n1. x\n";
    assert!(with_lines(body, 0).html.starts_with("<p data-line=\"1\">para</p>"));
    let off = render(body, &Options { first_line: 5, ..Options::default() }).html;
    assert!(!off.contains("data-line"), "{off}");
    assert_eq!(off, "<p>para</p>\n<h2 id=\"h\">h</h2>\n<ol>\n<li>x</li>\n</ol>\n");
}

#[test]
fn footnote_definitions_carry_their_line() {
    let out = with_lines("Text[^a].\n\n[^a]: The note.\n", 10).html;
    assert!(out.contains("<li id=\"fn-1\" data-line=\"12\">"), "{out}");
}

// GFM and other extensions.

#[test]
fn tables() {
    let out = html("| Left | Mid | Right |\n|:-----|:---:|------:|\n| a | **b** | c |\n");
    assert_eq!(
        out,
        "<table>\n<thead>\n<tr><th style=\"text-align: left\">Left</th><th style=\"text-align: center\">Mid</th><th style=\"text-align: right\">Right</th></tr>\n</thead>\n<tbody>\n<tr><td style=\"text-align: left\">a</td><td style=\"text-align: center\"><strong>b</strong></td><td style=\"text-align: right\">c</td></tr>\n</tbody>\n</table>\n"
    );
    // No body rows: no empty tbody.
    assert_eq!(html("| a |\n|---|\n"), "<table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n</table>\n");
}

#[test]
fn strikethrough_and_task_lists() {
    assert_eq!(html("~~gone~~ kept"), "<p><del>gone</del> kept</p>\n");
    let out = html("- [ ] todo\n- [x] done\n- plain\n");
    assert_eq!(
        out,
        "<ul>\n<li class=\"task-list-item\"><input type=\"checkbox\" class=\"task-list-item-checkbox\" disabled> todo</li>\n<li class=\"task-list-item\"><input type=\"checkbox\" class=\"task-list-item-checkbox\" disabled checked> done</li>\n<li>plain</li>\n</ul>\n"
    );
}

#[test]
fn footnotes_go_to_the_end_in_reference_order_with_back_links() {
    let out =
        html("First[^b] then[^a] and[^b] again.\n\n[^a]: Note A.\n[^b]: Note B.\n[^unused]: Never shown.\n\nAfter.\n");
    assert_eq!(
        out,
        "<p>First<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1\">1</a></sup> then<sup class=\"footnote-ref\"><a href=\"#fn-2\" id=\"fnref-2\">2</a></sup> and<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1-2\">1</a></sup> again.</p>\n\
         <p>After.</p>\n\
         <section class=\"footnotes\">\n<h2 class=\"sr-only\">Footnotes</h2>\n<ol>\n\
         <li id=\"fn-1\">\n<p>Note B. <a href=\"#fnref-1\" class=\"footnote-backref\" aria-label=\"Back to reference 1\">↩</a> <a href=\"#fnref-1-2\" class=\"footnote-backref\" aria-label=\"Back to reference 1-2\">↩<sup>2</sup></a></p>\n</li>\n\
         <li id=\"fn-2\">\n<p>Note A. <a href=\"#fnref-2\" class=\"footnote-backref\" aria-label=\"Back to reference 2\">↩</a></p>\n</li>\n\
         </ol>\n</section>\n"
    );
    // Labels match regardless of case.
    assert!(html("x[^Note]\n\n[^note]: y\n").contains("<li id=\"fn-1\">\n<p>y <a href=\"#fnref-1\""));
}

#[test]
fn alerts() {
    let out = html("> [!WARNING]\n> Mind the **gap**.\n\n> plain quote\n");
    assert_eq!(
        out,
        "<div class=\"alert alert-warning\">\n<p class=\"alert-title\">Warning</p>\n<p>Mind the <strong>gap</strong>.</p>\n</div>\n<blockquote>\n<p>plain quote</p>\n</blockquote>\n"
    );
    for (kind, class, title) in [
        ("NOTE", "note", "Note"),
        ("TIP", "tip", "Tip"),
        ("IMPORTANT", "important", "Important"),
        ("CAUTION", "caution", "Caution"),
    ] {
        let out = html(&format!("> [!{kind}]\n> x\n"));
        assert!(
            out.starts_with(&format!("<div class=\"alert alert-{class}\">\n<p class=\"alert-title\">{title}</p>")),
            "{out}"
        );
    }
}

#[test]
fn loose_task_lists_and_korean_ranges() {
    let out = html("- [ ] first\n\n- [x] second\n");
    assert!(out.starts_with("<ul>\n<li class=\"task-list-item\">\n<p><input type=\"checkbox\""), "{out}");
    // A single `~` inside a word is not strikethrough: Korean writes ranges so.
    assert_eq!(html("3~5개 또는 10~20분"), "<p>3~5개 또는 10~20분</p>\n");
}

#[test]
fn footnote_references_in_link_text_never_nest_links() {
    for body in
        ["[see[^1]](x.md)\n\n[^1]: n\n", "[a [^1] b][r]\n\n[r]: /r\n[^1]: n\n", "<https://e.com>[^1]\n\n[^1]: n\n"]
    {
        let out = html(body);
        let mut open = 0i32;
        for (i, _) in out.match_indices("<a") {
            open += 1;
            assert!(out[..i].matches("</a>").count() as i32 == open - 1, "nested <a> in {out}");
        }
    }
}

#[test]
fn definition_lists() {
    assert_eq!(html("Rust\n: A language.\n"), "<dl>\n<dt>Rust</dt>\n<dd>A language.</dd>\n</dl>\n");
}

#[test]
fn raw_html_passes_through() {
    assert_eq!(
        html("<div class=\"x\">\n<b>hi</b>\n</div>\n\na <kbd>Ctrl</kbd> b"),
        "<div class=\"x\">\n<b>hi</b>\n</div>\n<p>a <kbd>Ctrl</kbd> b</p>\n"
    );
}

#[test]
fn text_and_attributes_are_escaped() {
    assert_eq!(html("a < b & \"c\" 'd'"), "<p>a &lt; b &amp; \"c\" 'd'</p>\n");
    assert_eq!(
        html("[x](https://e.com/?a=1&b=\"2\" \"t \\\"q\\\" <i>\")"),
        "<p><a href=\"https://e.com/?a=1&amp;b=%222%22\" title=\"t &quot;q&quot; &lt;i&gt;\">x</a></p>\n"
    );
}

// Math.

#[test]
fn inline_and_display_math_become_mathml() {
    let out = html("Energy $E = mc^2$ and\n\n$$\\sum_{i=1}^n i$$\n");
    assert!(out.contains("<p>Energy <math display=\"inline\">"), "{out}");
    assert!(out.contains("<msup>"), "{out}");
    assert!(out.contains("<p><math display=\"block\">"), "{out}");
    assert!(!out.contains('$'), "{out}");
    let fenced = html("```math\n\\frac{1}{2}\n```\n");
    assert!(fenced.starts_with("<p><math display=\"block\">") && fenced.contains("<mfrac>"), "{fenced}");
}

#[test]
fn bad_tex_is_shown_as_code_with_a_warning_at_its_line() {
    let out = render("Fine $x$.\n\nBroken: $x^2^3 < y$ here.\n", &Options { first_line: 4, ..Options::default() });
    assert!(out.html.contains("<code class=\"math-error\">x^2^3 &lt; y</code>"), "{}", out.html);
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
    let problem = &out.problems[0];
    assert_eq!((problem.line, problem.column), (6, 9));
    assert_eq!(problem.severity, Severity::Warning);
    assert!(problem.message.contains("superscript"), "{}", problem.message);
    assert_eq!(problem.hint.as_deref(), Some("check the TeX; it is shown as code"));
}

#[test]
fn unbalanced_dollars_are_text() {
    let out = render("costs $5 and $", &Options::default());
    assert_eq!(out.html, "<p>costs $5 and $</p>\n");
    assert!(out.problems.is_empty());
}

// Code.

#[test]
fn fenced_code_is_highlighted_when_asked() {
    let body = "```rust,ignore\nfn main() {}\n```\n\n```python title=\"x.py\"\ndef f(): pass\n```\n";
    let on = render(body, &Options { highlight: true, ..Options::default() }).html;
    assert!(on.contains("<pre><code class=\"language-rust\"><span class=\"hl-keyword\">fn</span>"), "{on}");
    assert!(on.contains("<pre><code class=\"language-python\"><span class=\"hl-keyword\">def</span>"), "{on}");
    let off = html(body);
    assert!(off.contains("<pre><code class=\"language-rust\">fn main() {}\n</code></pre>"), "{off}");
    assert!(!off.contains("<span"), "{off}");
}

#[test]
fn unknown_languages_and_indented_code_are_escaped_plain_text() {
    let options = Options { highlight: true, ..Options::default() };
    assert_eq!(
        render("```mermaid\n<script>alert(1)</script>\n```\n", &options).html,
        "<pre><code class=\"language-mermaid\">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n"
    );
    assert_eq!(render("```\na & b\n```\n", &options).html, "<pre><code>a &amp; b\n</code></pre>\n");
    assert_eq!(render("    <b>\n", &options).html, "<pre><code>&lt;b&gt;\n</code></pre>\n");
    // Highlighted HTML escapes too.
    let js = render("```js\nlet s = \"</code><script>\";\n```\n", &options).html;
    assert!(!js.contains("<script>") && js.contains("&lt;script&gt;"), "{js}");
}

// Links and images.

#[test]
fn links_are_rewritten_and_broken_ones_reported() {
    let links = TestLinks::default();
    let body =
        "Intro.\n\nSee [other](other.md), [gone](missing.md), [top](#top),\n[web](https://e.com) and <me@e.com>.\n";
    let out = render(body, &Options { first_line: 3, links: Some(&links), ..Options::default() });
    assert!(out.html.contains("<a href=\"/posts/other/\">other</a>"), "{}", out.html);
    assert!(out.html.contains("<a href=\"missing.md\">gone</a>"), "{}", out.html);
    assert!(out.html.contains("<a href=\"#top\">top</a>"), "{}", out.html);
    assert!(out.html.contains("<a href=\"https://e.com\">web</a>"), "{}", out.html);
    assert!(out.html.contains("<a href=\"mailto:me@e.com\">me@e.com</a>"), "{}", out.html);
    assert_eq!(*links.asked.lock().unwrap(), ["other.md", "missing.md", "https://e.com", "mailto:me@e.com"]);
    assert_eq!(out.problems.len(), 1);
    let problem = &out.problems[0];
    assert_eq!((problem.line, problem.column), (5, 24));
    assert_eq!(problem.message, "link to `missing.md` leads nowhere");
    assert_eq!(problem.hint.as_deref(), Some("is the file name right?"));
    assert_eq!(problem.severity, Severity::Warning);
}

#[test]
fn images_in_raw_html_are_checked_and_resolved_like_markdown_ones() {
    let links = TestLinks::default();
    let body = "<figure><img class=\"wide\" src=\"pic.png\" data-src=\"x\"><figcaption>A</figcaption></figure>\n\n\
                Inline <IMG SRC='gone.png' alt=\"g\"> and <img src=https://e.com/a.png> too.\n";
    let out = render(body, &Options { links: Some(&links), ..Options::default() });
    assert!(out.html.contains("<img class=\"wide\" src=\"/posts/a/pic.png\" data-src=\"x\">"), "{}", out.html);
    assert!(out.html.contains("<IMG SRC='gone.png' alt=\"g\">"), "{}", out.html);
    assert!(out.html.contains("<img src=https://e.com/a.png>"), "{}", out.html);
    assert_eq!(*links.asked.lock().unwrap(), ["image:pic.png", "image:gone.png", "image:https://e.com/a.png"]);
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
    assert_eq!(out.problems[0].message, "image `gone.png` is missing");
}

#[test]
fn images_are_lazy_with_plain_alt_text_and_resolved_sources() {
    let links = TestLinks::default();
    let body = "![A *fine* \"cat\"](pic.png \"Title\")\n\n한글 ![x](gone.png)\n";
    let out = render(body, &Options { links: Some(&links), ..Options::default() });
    assert!(
        out.html.contains(
            "<img src=\"/posts/a/pic.png\" alt=\"A fine &quot;cat&quot;\" title=\"Title\" decoding=\"async\">"
        ),
        "{}",
        out.html
    );
    // The first image, at the top, is on the first screen: it loads at
    // once; the next ones as the reader nears them.
    assert!(out.html.contains("<img src=\"gone.png\" alt=\"x\" loading=\"lazy\" decoding=\"async\">"), "{}", out.html);
    assert_eq!(out.problems.len(), 1);
    assert_eq!((out.problems[0].line, out.problems[0].column), (3, 4));
    assert_eq!(out.problems[0].message, "image `gone.png` is missing");
    // Without a resolver, nothing is asked and nothing changes.
    assert!(html("![a](pic.png)").contains("<img src=\"pic.png\" alt=\"a\" decoding=\"async\">"));
    let lower = format!("{}\n\n![a](pic.png)", "Words. ".repeat(100));
    assert!(html(&lower).contains("<img src=\"pic.png\" alt=\"a\" loading=\"lazy\" decoding=\"async\">"));
    let covered = render("![a](pic.png)", &Options { first_screen_taken: true, ..Options::default() }).html;
    assert!(covered.contains("loading=\"lazy\""), "a cover above takes the first screen: {covered}");
}

// Words.

#[test]
fn word_count_and_reading_time() {
    let english = render("# Hello world\n\nThis post has *seven* words in it.\n", &Options::default());
    assert_eq!(english.word_count, 9);
    assert_eq!(english.reading_minutes, 1);

    let korean = render("분산 학습은 여러 GPU를 씁니다.\n", &Options::default());
    assert_eq!(korean.word_count, 5);

    let mixed = render("NCCL 라이브러리로 all-reduce를 합니다.", &Options::default());
    // NCCL, all (Latin); 라이브러리로, reduce를, 합니다 (Korean)
    assert_eq!(mixed.word_count, 5);

    let long = render(&"가나다라마 ".repeat(200), &Options::default());
    assert_eq!((long.word_count, long.reading_minutes), (200, 2)); // 1000 syllables
    assert_eq!(render("", &Options::default()).reading_minutes, 0);
    let code_only = render("```\nfn main() {}\n```\n", &Options::default());
    assert_eq!((code_only.word_count, code_only.reading_minutes), (0, 1));
}

#[test]
fn code_urls_math_and_alt_text_are_not_counted() {
    let body = "Two words\n\n```rust\nfn many words in code() {}\n```\n\n    indented code words\n\n<https://example.com/a/b> $x + y$ ![alt words](p.png) https://bare.example.com/x\n\n<div>raw html words</div>\n";
    assert_eq!(render(body, &Options::default()).word_count, 2);
}

// Robustness.

#[test]
fn deep_nesting_finishes() {
    for body in
        ["> ".repeat(10_000) + "deep", "- ".repeat(10_000) + "deep", "*".repeat(10_000) + "x" + &"*".repeat(10_000)]
    {
        let out = render(&body, &Options { source_lines: true, highlight: true, ..Options::default() });
        assert!(out.html.contains("deep") || out.html.contains('x'));
    }
    let nested_lists: String = (0..10_000).map(|i| format!("{}- x\n", " ".repeat(i.min(200) * 2))).collect();
    render(&nested_lists, &Options::default());
    let quotes_with_lists: String = (0..10_000).map(|_| "> - ").collect::<String>() + "x";
    render(&quotes_with_lists, &Options::default());
}

#[test]
fn huge_lines_nul_bytes_and_odd_input_finish() {
    let options = Options { source_lines: true, highlight: true, ..Options::default() };
    for line in ["word *emphasis* `code` ".repeat(220_000), "$".repeat(5_000_000), "a$b ".repeat(1_250_000)] {
        assert!(line.len() >= 5_000_000);
        let out = render(&line, &options);
        assert!(out.html.starts_with("<p data-line=\"1\">"));
    }
    render(&"[".repeat(1_000_000), &options);
    render(&"<".repeat(1_000_000), &options);
    let nul = render("a\0b\n\n# \0\n\n```rust\n\0\n```\n\n$\0$ `\0` [\0](\0) <b>\0</b>\n", &options);
    assert!(!nul.html.contains('\0'), "{}", nul.html);
}

#[test]
fn many_problems_on_one_long_line_get_their_columns() {
    let line = "word [link](missing.md) ".repeat(20_000);
    let links = TestLinks::default();
    let out = render(&line, &Options { links: Some(&links), ..Options::default() });
    assert_eq!(out.problems.len(), 20_000);
    assert_eq!(out.problems[1].column, 24 + 6);
    assert_eq!(out.problems.last().unwrap().column, line.len() - 24 + 6);
}

// Everything together.

const GOLDEN_MARKDOWN: &str = r#"# Golden post

Intro with *emphasis*, **strong**, ~~strike~~, `code`, a [link](other.md "Other")
and a footnote[^1].

## 분산 학습 {#dist}

- [x] done
- [ ] todo
  1. nested

> [!TIP]
> Use $O(n)$ memory.

| Op | Cost |
|----|-----:|
| all-reduce | $2n$ |

```rust
let x = 1;
```

Term
: Meaning

$$
a^2 + b^2 = c^2
$$

![Diagram](pic.png)

---

[^1]: The footnote.
"#;

const GOLDEN_HTML: &str = r##"<h1 id="golden-post" data-line="3">Golden post</h1>
<p data-line="5">Intro with <em>emphasis</em>, <strong>strong</strong>, <del>strike</del>, <code>code</code>, a <a href="/posts/other/" title="Other">link</a>
and a footnote<sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1</a></sup>.</p>
<h2 id="dist" data-line="8">분산 학습</h2>
<ul data-line="10">
<li class="task-list-item" data-line="10"><input type="checkbox" class="task-list-item-checkbox" disabled checked> done</li>
<li class="task-list-item" data-line="11"><input type="checkbox" class="task-list-item-checkbox" disabled> todo
<ol data-line="12">
<li data-line="12">nested</li>
</ol>
</li>
</ul>
<div data-line="14" class="alert alert-tip">
<p class="alert-title">Tip</p>
<p data-line="15">Use <math display="inline"><mi>O</mi><mo symmetric="false" stretchy="false">(</mo><mi>n</mi><mo symmetric="false" stretchy="false">)</mo></math> memory.</p>
</div>
<table data-line="17">
<thead>
<tr><th>Op</th><th style="text-align: right">Cost</th></tr>
</thead>
<tbody>
<tr><td>all-reduce</td><td style="text-align: right"><math display="inline"><mn>2</mn><mi>n</mi></math></td></tr>
</tbody>
</table>
<pre data-line="21"><code class="language-rust"><span class="hl-keyword">let</span> x = <span class="hl-constant">1</span><span class="hl-punctuation">;</span>
</code></pre>
<dl data-line="25">
<dt data-line="25">Term</dt>
<dd data-line="26">Meaning</dd>
</dl>
<p data-line="28"><math data-line="28" display="block"><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup><mo>=</mo><msup><mi>c</mi><mn>2</mn></msup></math></p>
<p data-line="32"><img src="/posts/a/pic.png" alt="Diagram" decoding="async"></p>
<hr data-line="34">
<section class="footnotes">
<h2 class="sr-only">Footnotes</h2>
<ol>
<li id="fn-1" data-line="36">
<p data-line="36">The footnote. <a href="#fnref-1" class="footnote-backref" aria-label="Back to reference 1">↩</a></p>
</li>
</ol>
</section>
"##;

#[test]
fn golden_document() {
    let links = TestLinks::default();
    let options = Options {
        first_line: 3,
        source_lines: true,
        highlight: true,
        links: Some(&links),
        highlights: None,
        syntax: Syntax::Markdown,
        shortcodes: None,
        pictures: None,
        first_screen_taken: false,
    };
    let out = render(GOLDEN_MARKDOWN, &options);
    if out.html != GOLDEN_HTML {
        // The whole output, to compare or paste when a change is intended.
        eprintln!("{}", out.html);
    }
    assert_eq!(out.html, GOLDEN_HTML);
    assert_eq!(out.toc, [TocEntry { level: 2, id: "dist".to_string(), title: "분산 학습".to_string(), line: 8 }]);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
}

#[test]
fn summary_text_of_bodies() {
    assert_eq!(summary_text("# Title\n\nFirst *real* paragraph.\n\nSecond.").as_deref(), Some("First real paragraph."));
    assert_eq!(summary_text("```sh\nls\n```\nAfter [the code](x.md).").as_deref(), Some("After the code."));
    assert_eq!(
        summary_text("See [docs](https://d.e) and `rg`\n  and more.").as_deref(),
        Some("See docs and rg and more.")
    );
    assert_eq!(summary_text("<p>html block</p>\n\n텍스트 요약").as_deref(), Some("텍스트 요약"));
    assert_eq!(summary_text("## Only\n\n- a list\n\n```\ncode\n```\n"), None);
    assert_eq!(summary_text(""), None);
}

fn with_syntax(body: &str, syntax: Syntax) -> Rendered {
    render(body, &Options { first_line: 10, source_lines: true, syntax, ..Options::default() })
}

#[test]
fn hugo_figure_and_youtube_render_as_blocks() {
    let body =
        "Intro.\n\n{{< figure src=\"/images/a.png\" alt=\"A <b>\" caption=\"Fig & 1\" >}}\n\n{{< youtube abc123 >}}\n";
    let out = with_syntax(body, Syntax::Hugo);
    assert_eq!(
        out.html,
        "<p data-line=\"10\">Intro.</p>\n\
         <figure data-line=\"12\"><img src=\"/images/a.png\" alt=\"A &lt;b&gt;\" decoding=\"async\">\
         <figcaption>Fig &amp; 1</figcaption></figure>\n\
         <p data-line=\"14\" class=\"video\"><a href=\"https://www.youtube.com/watch?v=abc123\">YouTube video abc123</a></p>\n"
    );
    assert!(out.problems.is_empty(), "{:?}", out.problems);
}

#[test]
fn unrendered_shortcodes_stay_visible_and_are_reported_where_they_are() {
    let body = "See {{< gist user 42 >}} here.\n\n{{% notice %}}\nBe **careful**.\n{{% /notice %}}\n";
    let out = with_syntax(body, Syntax::Hugo);
    assert_eq!(
        out.html,
        "<p data-line=\"10\">See <code class=\"unrendered\">{{&lt; gist user 42 &gt;}}</code> here.</p>\n\
         <p data-line=\"12\"><code class=\"unrendered\">{{% notice %}}</code>\nBe <strong>careful</strong>.\n\
         <code class=\"unrendered\">{{% /notice %}}</code></p>\n"
    );
    let at: Vec<(usize, usize, &str)> = out.problems.iter().map(|p| (p.line, p.column, p.message.as_str())).collect();
    assert_eq!(
        at,
        [
            (10, 5, "Hugo shortcode `gist` is not rendered; it is shown as written"),
            (12, 1, "Hugo shortcode `notice` is not rendered; it is shown as written"),
            (14, 1, "Hugo shortcode `/notice` is not rendered; it is shown as written"),
        ]
    );
    assert!(out.problems.iter().all(|p| p.severity == Severity::Warning && p.hint.is_some()));
}

#[test]
fn shortcodes_in_code_are_code() {
    let body = "Write `{{< figure src=\"x\" >}}` like this:\n\n```go-html-template\n{{< youtube id >}}\n```\n";
    let hugo = with_syntax(body, Syntax::Hugo);
    let plain = with_syntax(body, Syntax::Markdown);
    assert_eq!(hugo.html, plain.html);
    assert!(hugo.html.contains("<code>{{&lt; figure src=\"x\" &gt;}}</code>"), "{}", hugo.html);
    assert!(hugo.problems.is_empty(), "{:?}", hugo.problems);
}

#[test]
fn other_tools_syntax_is_text_in_a_hanji_post() {
    let body = "{{< gist a >}} {% include x %} {{ y(a=1) }} <Foo />\n\nimport x from 'y'\n";
    let out = with_syntax(body, Syntax::Markdown);
    assert!(out.problems.is_empty());
    assert!(out.html.contains("{{&lt; gist a &gt;}} {% include x %} {{ y(a=1) }} <Foo />"), "{}", out.html);
}

#[test]
fn liquid_highlight_is_a_code_block_and_raw_is_left_alone() {
    let body = "{% highlight ruby %}\ndef hi\n  puts \"{{ x }}\"\nend\n{% endhighlight %}\n\n\
                {% raw %}{{ not liquid }}{% endraw %} and {{ page.title }}.\n";
    let out = with_syntax(body, Syntax::Liquid);
    assert_eq!(
        out.html,
        "<pre data-line=\"10\"><code class=\"language-ruby\">def hi\n  puts \"{{ x }}\"\nend\n</code></pre>\n\
         <p data-line=\"16\">{{ not liquid }} and <code class=\"unrendered\">{{ page.title }}</code>.</p>\n"
    );
    assert_eq!(out.problems.len(), 1);
    assert_eq!((out.problems[0].line, out.problems[0].column), (16, 43));
}

#[test]
fn kramdown_attribute_lists_go_on_the_element_they_follow() {
    let body = "**Note:** read this.\n{: .notice--info}\n\n\
                See [the docs](https://x.org){:target=\"_blank\" rel=\"noopener\"} and *this*{: .em}.\n\n\
                - one\n- two\n\n{: .list #steps}\n\n\
                A paragraph.\n\n{: #intro onclick=\"x()\" href=\"y\"}\n\n\
                `{: .code}` stays.\n";
    let out = with_syntax(body, Syntax::Liquid);
    assert_eq!(
        out.html,
        "<p data-line=\"10\" class=\"notice--info\"><strong>Note:</strong> read this.</p>\n\
         <p data-line=\"13\">See <a target=\"_blank\" rel=\"noopener\" href=\"https://x.org\">the docs</a> and \
         <em class=\"em\">this</em>.</p>\n\
         <ul data-line=\"15\" class=\"list\" id=\"steps\">\n<li data-line=\"15\">one</li>\n<li data-line=\"16\">two</li>\n</ul>\n\
         <p data-line=\"20\" id=\"intro\">A paragraph.</p>\n\
         <p data-line=\"24\"><code>{: .code}</code> stays.</p>\n"
    );
    assert!(out.problems.is_empty(), "{:?}", out.problems);
}

#[test]
fn a_kramdown_attribute_list_with_nothing_to_apply_to_is_reported_not_shown() {
    let out = with_syntax("{: .lonely}\n\n## Title\n", Syntax::Liquid);
    assert!(!out.html.contains("lonely"), "{}", out.html);
    assert_eq!(out.problems.len(), 1);
    assert!(out.problems[0].message.contains("Kramdown attribute list"), "{:?}", out.problems);
    // Only Jekyll's Markdown has them: elsewhere the text is the text.
    assert!(with_syntax("Text {: .x}\n", Syntax::Markdown).html.contains("{: .x}"));
}

#[test]
fn kramdown_attribute_lists_anywhere_never_break_the_page() {
    let pieces = [
        "{: .a}",
        "x[^1]\n\n[^1]: note\n{: .b}",
        "## T\n{: #t}",
        "- [ ] task\n{: .c}",
        "1. a\n\n   b\n   {: .d}",
        "> quote\n{: .e}",
        "| a |\n|---|\n| b |\n{: .f}",
        "![i](x.png){: .g}",
        "**s**{: .h}{: .i}",
        "`c`{: .j}",
        "<div>\n{: .k}\n</div>",
        "[l](y)\n\n{: .m}",
        "\u{1F980}{: .n}",
        "{: .o}\n{: .p}",
    ];
    for first in pieces {
        for second in pieces {
            let body = format!("{first}\n{second}\n\n{first}{second}\n");
            let out = with_syntax(&body, Syntax::Liquid);
            assert_eq!(out.html.matches("<p").count(), out.html.matches("</p>").count(), "{body:?}\n{}", out.html);
            assert!(!out.html.contains("class=\"\""), "{}", out.html);
        }
    }
}

#[test]
fn jsx_values_in_mdx_html_become_html_attributes() {
    let body = "<div style={{ marginTop: 8 }}>\n\nText with <img src=\"/a.png\" width={500} /> inline.\n\n</div>\n\n\
                <span title={post.title}>x</span>\n";
    let out = with_syntax(body, Syntax::Mdx);
    assert!(out.html.contains("<div style=\"margin-top: 8px\">"), "{}", out.html);
    assert!(out.html.contains("<img src=\"/a.png\" width=\"500\" />"), "{}", out.html);
    assert!(out.html.contains("<span>x</span>"), "{}", out.html);
    assert!(!out.html.contains('{'), "no JSX left: {}", out.html);
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
    assert!(out.problems[0].message.contains("`title={post.title}`"), "{:?}", out.problems);
    assert_eq!(out.problems[0].line, 16);
}

#[test]
fn zola_katex_shortcodes_are_math() {
    let body = "{% katex(block=true) %}\\frac{1}{N}\\sum_i x_i{% end %}\n\nInline {{ katex(body=\"x^2\") }} too.\n";
    let out = with_syntax(body, Syntax::Zola);
    assert!(out.html.contains("display=\"block\"><mfrac>"), "{}", out.html);
    assert!(out.html.contains("<mfrac>"), "{}", out.html);
    assert_eq!(out.html.matches("<math").count(), 2, "{}", out.html);
    assert!(!out.html.contains("katex"), "nothing raw: {}", out.html);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
}

#[test]
fn mdx_image_renders_imports_show_nothing_and_components_their_children() {
    let body = "import Note from './Note'\n\n<Image src=\"/static/a.png\" alt=\"A\" width={600} />\n\n\
                Text with <Note kind=\"x\" /> inline.\n\n<Callout>\n\nInside *it*.\n\n</Callout>\n";
    let out = with_syntax(body, Syntax::Mdx);
    assert!(
        !out.html.contains("import") && !out.html.contains("Note") && !out.html.contains("Callout"),
        "{}",
        out.html
    );
    assert!(out.html.contains("<img src=\"/static/a.png\" alt=\"A\" decoding=\"async\">"), "{}", out.html);
    assert!(out.html.contains("Text with  inline."), "{}", out.html);
    assert!(out.html.contains("Inside <em>it</em>."), "{}", out.html);
    let messages: Vec<&str> = out.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "MDX component `<Note>` is not rendered; it is left out",
            "MDX component `<Callout>` is not rendered; what it holds is shown without it"
        ]
    );
}

#[test]
fn mdx_toc_inline_is_the_post_s_table_of_contents() {
    let body = "<TOCInline toc={props.toc} asDisclosure toHeading={2} />\n\n## One\n\n### Deeper\n\n## Two\n";
    let out = with_syntax(body, Syntax::Mdx);
    assert!(
        out.html.contains(
            "<div class=\"ml-6\"><ul><li><a href=\"#one\">One</a></li><li><a href=\"#two\">Two</a></li></ul>"
        ),
        "{}",
        out.html
    );
    assert!(!out.html.contains("TOCInline") && !out.html.contains("hanji-inline-toc"), "{}", out.html);
    assert!(out.problems.is_empty(), "{:?}", out.problems);
}

#[test]
fn a_shortcode_where_a_link_address_would_be_is_shown_or_reported() {
    // Not a link in CommonMark (the address has spaces): text with the shortcode in it.
    let hugo = with_syntax("[Next]({{< ref \"b.md\" >}})\n", Syntax::Hugo);
    assert_eq!(
        hugo.html,
        "<p data-line=\"10\">[Next](<code class=\"unrendered\">{{&lt; ref \"b.md\" &gt;}}</code>)</p>\n"
    );
    assert_eq!(hugo.problems[0].message, "Hugo shortcode `ref` is not rendered; it is shown as written");
    // A real address: the construct cannot be shown there, so it is reported.
    let liquid = with_syntax("![x]({{site.baseurl}}/a.png)\n", Syntax::Liquid);
    assert!(liquid.html.contains("src=\"%7B%7Bsite.baseurl%7D%7D/a.png\""), "{}", liquid.html);
    assert_eq!(liquid.problems.len(), 1);
    assert_eq!(liquid.problems[0].message, "Liquid output `{{site.baseurl}}` is not rendered; it is left as written");
    assert_eq!((liquid.problems[0].line, liquid.problems[0].column), (10, 6));
}

#[test]
fn a_figure_image_goes_through_the_link_resolver() {
    let links = TestLinks::default();
    let body = "{{< figure src=\"pic.png\" >}}\n\n{{< figure src=\"gone.png\" link=\"other.md\" >}}\n";
    let out = render(body, &Options { links: Some(&links), syntax: Syntax::Hugo, ..Options::default() });
    assert!(out.html.starts_with("<figure><img src=\"/posts/a/pic.png\""), "{}", out.html);
    assert!(out.html.contains("<a href=\"/posts/other/\"><img src=\"gone.png\""), "{}", out.html);
    assert_eq!(out.problems.len(), 1, "the missing image: {:?}", out.problems);
}

#[test]
fn other_tools_syntax_is_no_summary() {
    assert_eq!(summary_text("{{< figure src=\"a.png\" >}}\n\nThe real start.").as_deref(), Some("The real start."));
    assert_eq!(summary_text("{{<figure src=\"a.png\">}}\n\nReal.").as_deref(), Some("Real."));
    assert_eq!(summary_text("import X from './X'\n\n{% include a.html %}\n\nReal.").as_deref(), Some("Real."));
    assert_eq!(
        summary_text("import this, says the prompt.\n").as_deref(),
        Some("import this, says the prompt."),
        "prose that starts with the word is prose"
    );
}

#[test]
fn other_tools_syntax_in_odd_places_never_breaks_rendering() {
    let pieces = [
        "{{< figure src=\"a\" >}}",
        "{{% x %}}",
        "{{< /x >}}",
        "{% raw %}",
        "{% endraw %}",
        "{% highlight go %}",
        "{% endhighlight %}",
        "{{ y(a=\"}}\") }}",
        "{% end %}",
        "<Image src=\"a\" />",
        "</Note>",
        "import x from 'y'",
        "`code {{<`",
        "```\n{%\n```",
        "$x^{{2}}$",
        "[l]({{< ref >}})",
        "![i]({{x}})",
        "> ",
        "- ",
        "# ",
        "\n\n",
        "한글 ",
        "\r\n",
        "{{",
        "<",
    ];
    let mut seed = 7u64;
    for _ in 0..400 {
        let mut body = String::new();
        for _ in 0..8 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            body.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
        }
        for syntax in [Syntax::Hugo, Syntax::Zola, Syntax::Liquid, Syntax::Mdx] {
            let out = with_syntax(&body, syntax);
            assert!(out.problems.iter().all(|p| p.line >= 10), "{body:?}");
            // Every tag opened by a construct is closed.
            assert_eq!(out.html.matches("<figure").count(), out.html.matches("</figure>").count(), "{body:?}");
            assert_eq!(out.html.matches("<code").count(), out.html.matches("</code>").count(), "{body:?}");
        }
    }
}

// The blog's own shortcodes.

fn own(syntax: Syntax, templates: &[(&str, &str, &str)]) -> Shortcodes {
    let mut shortcodes = Shortcodes::new();
    for (name, file, source) in templates {
        shortcodes.add(syntax, name, std::path::Path::new(file), source);
    }
    shortcodes
}

fn with_own(body: &str, syntax: Syntax, shortcodes: &Shortcodes, links: &TestLinks) -> Rendered {
    render(body, &Options { syntax, shortcodes: Some(shortcodes), links: Some(links), ..Options::default() })
}

#[test]
fn a_hugo_blog_s_own_shortcode_is_run_where_its_template_is_simple() {
    let shortcodes = own(
        Syntax::Hugo,
        &[
            (
                "imageFull",
                "layouts/shortcodes/imageFull.html",
                "<figure class=\"full\"><img src=\"{{ .Get \"src\" }}\" alt=\"{{ .Get \"alt\" }}\">\
                 {{ with .Get \"caption\" }}<figcaption>{{ . | markdownify }}</figcaption>{{ end }}</figure>\n",
            ),
            ("note", "layouts/shortcodes/note.html", "<aside class=\"note\">{{ .Inner | markdownify }}</aside>"),
            ("gist", "layouts/shortcodes/gist.html", "{{ $id := .Get 0 }}<script src=\"{{ $id }}\"></script>"),
        ],
    );
    let links = TestLinks::default();
    let body = "Intro.\n\n{{< imageFull src=\"pic.png\" alt=\"A <b>\" caption=\"*Fig.* 1\" >}}\n\n\
                Inline {{< imageFull src=\"gone.png\" >}} here.\n\n{{< note >}}\nSee [other](other.md) and **this**.\n{{< /note >}}\n\n\
                {{< gist abc >}}\n";
    let out = with_own(body, Syntax::Hugo, &shortcodes, &links);
    assert!(
        out.html.contains(
            "<figure class=\"full\"><img src=\"/posts/a/pic.png\" alt=\"A &lt;b&gt;\"><figcaption><em>Fig.</em> 1</figcaption></figure>"
        ),
        "{}",
        out.html
    );
    assert!(!out.html.contains("<p><figure"), "a block of its own: {}", out.html);
    assert!(
        out.html.contains("<p>Inline <figure class=\"full\"><img src=\"gone.png\" alt=\"\"></figure>\n here.</p>"),
        "{}",
        out.html
    );
    assert!(
        out.html.contains(
            "<aside class=\"note\">See <a href=\"/posts/other/\">other</a> and <strong>this</strong>.</aside>"
        ),
        "the inner text is Markdown with the post's links: {}",
        out.html
    );
    let messages: Vec<(usize, &str)> = out.problems.iter().map(|p| (p.line, p.message.as_str())).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(messages[0], (5, "image `gone.png` is missing"), "checked like a Markdown image, at the shortcode");
    assert_eq!(
        messages[1],
        (
            11,
            "Hugo shortcode `gist` is not rendered: its template layouts/shortcodes/gist.html has \
             `{{ $id := .Get 0 }}`, which Hanji does not run (line 1); it is shown as written"
        )
    );
    assert!(out.html.contains("<p class=\"unrendered\"><code>{{&lt; gist abc &gt;}}</code></p>"), "{}", out.html);
    assert!(out.word_count >= 6, "the shortcodes' prose counts: {}", out.word_count);
}

#[test]
fn a_hugo_shortcode_that_needs_its_end_tag_says_so() {
    let shortcodes = own(Syntax::Hugo, &[("note", "layouts/shortcodes/note.html", "<aside>{{ .Inner }}</aside>")]);
    let links = TestLinks::default();
    let out = with_own("{{< note >}} never ended\n\n{{< note />}}\n", Syntax::Hugo, &shortcodes, &links);
    assert!(out.problems[0].message.contains("uses `.Inner`, and the call has no end"), "{:?}", out.problems);
    assert!(out.html.contains("<aside></aside>"), "a closed one has no inner text: {}", out.html);
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
}

#[test]
fn zola_and_jekyll_blogs_own_shortcodes() {
    let zola = own(
        Syntax::Zola,
        &[
            (
                "note",
                "templates/shortcodes/note.html",
                "<div class=\"note\">{% if title %}<b>{{ title }}</b>{% endif %}{{ body | markdown | safe }}</div>",
            ),
            ("hi", "templates/shortcodes/hi.md", "Hello **{{ who }}**!"),
        ],
    );
    let links = TestLinks::default();
    let body = "{% note(title=\"T\") %}\nSome *text*.\n{% end %}\n\n{{ hi(who=\"you\") }}\n\n{{ hi() }}\n";
    let out = with_own(body, Syntax::Zola, &zola, &links);
    assert!(out.html.contains("<div class=\"note\"><b>T</b><p>Some <em>text</em>.</p>\n</div>"), "{}", out.html);
    assert!(out.html.contains("<p>Hello <strong>you</strong>!</p>"), "a `.md` shortcode writes Markdown: {}", out.html);
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
    assert_eq!(out.problems[0].message, "Zola shortcode `hi` uses `who`, which the call does not give");

    let jekyll = own(
        Syntax::Liquid,
        &[(
            "image.html",
            "_includes/image.html",
            "<figure><img src=\"{{ include.url }}\" alt=\"{{ include.alt }}\"></figure>",
        )],
    );
    let body = "{% include image.html url=\"pic.png\" alt='An \"x\"' %}\n\n{% include image.html url=page.image %}\n\n{% include nope.html %}\n";
    let out = with_own(body, Syntax::Liquid, &jekyll, &links);
    assert!(
        out.html.contains("<figure><img src=\"/posts/a/pic.png\" alt=\"An &quot;x&quot;\"></figure>"),
        "{}",
        out.html
    );
    let messages: Vec<&str> = out.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("the value of `url` comes from a variable (`page.image`)"), "{messages:?}");
    assert_eq!(
        messages[1],
        "Liquid tag `include nope.html` is not rendered: the blog has no `_includes/nope.html` (a theme gem's \
         includes are not read); it is shown as written"
    );
}

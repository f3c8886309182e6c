//! Syntax highlighting of fenced code, on the Rust side, with CSS classes.
//!
//! [`highlight`] returns the HTML that goes inside `<pre><code>`: the code,
//! escaped, with highlighted runs wrapped in `<span class="hl-…">`. Spans never
//! nest. One stylesheet styles every language through these classes:
//!
//! ```text
//! hl-keyword  hl-function  hl-string    hl-comment     hl-type      hl-variable
//! hl-constant hl-number    hl-operator  hl-punctuation hl-property  hl-attribute
//! hl-tag      hl-macro     hl-label     hl-namespace   hl-constructor
//! hl-title    hl-strong    hl-emphasis  hl-link        hl-literal   hl-strikethrough
//! hl-diff-add hl-diff-delete            hl-embedded    hl-error
//! ```
//!
//! (arborium's theme slots, named by `arborium_theme::tag_to_name`, prefixed with
//! `hl-` so they cannot collide with a theme's own classes.)
//!
//! The grammars are tree-sitter's, through arborium: compiled once per process
//! on first use of a language and shared; each thread keeps its own parser.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, LazyLock};

use arborium::{Config, GrammarStore, Highlighter, HtmlFormat};

/// Part of the key of any cache of [`highlight`] output: change it whenever the
/// output could change (arborium upgraded, classes or languages changed).
pub const HIGHLIGHT_VERSION: &str = "hanji-highlight-1/arborium-2.18";

/// Code longer than this is shown plain: highlighting it would take long and
/// nobody reads a 256 KB listing for its colours.
const MAX_CODE_BYTES: usize = 256 * 1024;

/// Fence languages (first word of the info string, any case) → arborium's
/// grammar names.
const LANGUAGES: &[(&str, &str)] = &[
    ("rust", "rust"),
    ("rs", "rust"),
    ("python", "python"),
    ("py", "python"),
    ("python3", "python"),
    ("c", "c"),
    ("h", "c"),
    ("cpp", "cpp"),
    ("c++", "cpp"),
    ("cc", "cpp"),
    ("cxx", "cpp"),
    ("hpp", "cpp"),
    ("hxx", "cpp"),
    // CUDA is C++ with a few keywords more; the C++ grammar reads it well.
    ("cuda", "cpp"),
    ("cu", "cpp"),
    ("cuh", "cpp"),
    ("bash", "bash"),
    ("sh", "bash"),
    ("shell", "bash"),
    ("zsh", "bash"),
    ("javascript", "javascript"),
    ("js", "javascript"),
    ("jsx", "javascript"),
    ("mjs", "javascript"),
    ("cjs", "javascript"),
    ("typescript", "typescript"),
    ("ts", "typescript"),
    ("mts", "typescript"),
    ("tsx", "tsx"),
    ("json", "json"),
    ("jsonc", "json"),
    ("toml", "toml"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("go", "go"),
    ("golang", "go"),
    ("java", "java"),
    ("html", "html"),
    ("htm", "html"),
    ("xhtml", "html"),
    ("css", "css"),
    ("sql", "sql"),
    ("diff", "diff"),
    ("patch", "diff"),
    // `console` and `shell-session` are deliberately absent: they mix prompts
    // and program output, which a bash grammar colours as nonsense.
];

/// The grammar for a fence language, or `None` when it is not highlighted.
pub fn language(fence: &str) -> Option<&'static str> {
    LANGUAGES.iter().find(|(alias, _)| alias.eq_ignore_ascii_case(fence)).map(|&(_, grammar)| grammar)
}

static GRAMMARS: LazyLock<Arc<GrammarStore>> = LazyLock::new(|| Arc::new(GrammarStore::new()));

thread_local! {
    static HIGHLIGHTER: RefCell<Option<Highlighter>> = const { RefCell::new(None) };
}

fn new_highlighter() -> Highlighter {
    let config = Config { html_format: HtmlFormat::ClassNamesWithPrefix("hl".to_string()), ..Config::default() };
    Highlighter::with_store_and_config(Arc::clone(&GRAMMARS), config)
}

/// The highlighted HTML of `code` in fence language `lang` (`rust`, `py`,
/// `c++`, …), or `None` when the language is unknown, the code is too long or
/// highlighting fails; the caller then shows the code escaped. The text of the
/// result is exactly `code`.
pub fn highlight(lang: &str, code: &str) -> Option<String> {
    let grammar = language(lang)?;
    if code.len() > MAX_CODE_BYTES || code.trim().is_empty() {
        return None;
    }
    let code = super::escape::without_nul(code);
    let result = catch_unwind(AssertUnwindSafe(|| {
        HIGHLIGHTER.with(|cell| {
            let mut highlighter = cell.borrow_mut();
            highlighter.get_or_insert_with(new_highlighter).highlight(grammar, &code).ok()
        })
    }));
    match result {
        Ok(Some(mut html)) => {
            // arborium drops trailing newlines; keep the text as it was.
            html.push_str(&code[code.trim_end_matches('\n').len()..]);
            Some(html)
        }
        Ok(None) => None,
        Err(_) => {
            // A parser that panicked may be in any state: start afresh.
            HIGHLIGHTER.with(|cell| *cell.borrow_mut() = None);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of highlighted HTML: tags removed, entities decoded.
    fn text_of(html: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                _ if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn rust_and_python_get_classes() {
        let rust = highlight("rust", "fn main() {\n    let s = \"<hi>\";\n}\n").unwrap();
        assert!(rust.contains(r#"<span class="hl-keyword">fn</span>"#), "{rust}");
        assert!(rust.contains(r#"<span class="hl-string">&quot;&lt;hi&gt;&quot;</span>"#), "{rust}");
        assert!(rust.ends_with("</span>\n"), "{rust}");
        let python = highlight("py", "def f(x):\n    return x  # done\n").unwrap();
        assert!(python.contains(r#"<span class="hl-keyword">def</span>"#), "{python}");
        assert!(python.contains(r#"<span class="hl-comment"># done</span>"#), "{python}");
    }

    #[test]
    fn every_listed_language_highlights_and_keeps_the_text() {
        let samples = [
            ("rust", "fn main() { let x = 1; }\n"),
            ("python", "import os\nprint(os.sep)\n"),
            ("c", "#include <stdio.h>\nint main(void) { return 0; }\n"),
            ("cpp", "template <class T> struct V { T x; };\n"),
            ("cuda", "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"),
            ("bash", "for f in *.md; do echo \"$f\"; done\n"),
            ("js", "const f = (a) => a + 1;\n"),
            ("ts", "let n: number = 1;\n"),
            ("tsx", "const A = () => <div className=\"a\">hi</div>;\n"),
            ("json", "{\"a\": [1, true, null]}\n"),
            ("toml", "[package]\nname = \"hanji\"\n"),
            ("yaml", "title: Hello\ntags: [a, b]\n"),
            ("go", "package main\nfunc main() {}\n"),
            ("java", "class A { public static void main(String[] a) {} }\n"),
            ("html", "<p class=\"x\">Hi &amp; bye</p>\n<script>let a = 1;</script>\n"),
            ("css", "a { color: red; }\n"),
            ("sql", "SELECT a FROM t WHERE b = 1;\n"),
            ("diff", "--- a\n+++ b\n-old\n+new\n"),
        ];
        for (lang, code) in samples {
            let html = highlight(lang, code).unwrap_or_else(|| panic!("{lang} not highlighted"));
            assert!(html.contains("<span class=\"hl-"), "{lang}: {html}");
            assert_eq!(text_of(&html), code, "{lang}");
        }
    }

    #[test]
    fn aliases_and_unknown_languages() {
        assert_eq!(language("RS"), Some("rust"));
        assert_eq!(language("c++"), Some("cpp"));
        assert_eq!(language("cu"), Some("cpp"));
        assert_eq!(language("yml"), Some("yaml"));
        assert_eq!(language("mermaid"), None);
        assert_eq!(language("console"), None);
        assert_eq!(highlight("brainfudge", "+++"), None);
        assert_eq!(highlight("rust", "   \n"), None);
    }

    #[test]
    fn broken_and_odd_code_does_not_panic() {
        for code in ["fn (((((", "\0\0\0", "\"unterminated", "}}}}", "é\u{FFFF}\u{10FFFF}"] {
            for lang in ["rust", "python", "html", "bash", "json", "diff"] {
                if let Some(html) = highlight(lang, code) {
                    assert_eq!(text_of(&html), code.replace('\0', "\u{FFFD}"), "{lang} {code:?}");
                }
            }
        }
        let deep = "(".repeat(5_000);
        let _ = highlight("python", &deep);
        assert_eq!(highlight("rust", &"x".repeat(MAX_CODE_BYTES + 1)), None);
    }
}

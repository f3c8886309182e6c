//! The floor of a cold export on this machine, as issue 13 defines it: the
//! corpus's posts rendered with bare pulldown-cmark and written, one file
//! each, on every core; and their fenced code highlighted with the
//! highlighter the export uses, on every core. Nothing else an export does
//! (templates, lists, tags, feeds, search, word counts, links) is in it.
//!
//!   cargo bench --bench floor                  # the 10,000-post corpus
//!   FLOOR_POSTS=100000 cargo bench --bench floor
//!
//! Pages are written under `FLOOR_OUT` (default `/dev/shm/hanji-floor`,
//! tmpfs, as `bench/compare.sh`'s `OUT_DIR`), emptied before every run.
//! Prints each run and the medians.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hanji::markdown::parser_options;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use rayon::prelude::*;

#[path = "support/corpus.rs"]
mod support;

const RUNS: usize = 5;

fn main() {
    let posts: usize = std::env::var("FLOOR_POSTS").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let out = std::env::var_os("FLOOR_OUT").map_or_else(|| PathBuf::from("/dev/shm/hanji-floor"), PathBuf::from);
    let blog = hanji::load(&support::corpus(posts)).expect("the corpus loads");
    let bodies: Vec<String> = blog.library.posts().filter(|p| !p.draft).map(|p| p.body().into_owned()).collect();
    let code: Vec<(String, String)> = bodies.iter().flat_map(|body| fenced_code(body)).collect();
    let code_bytes: usize = code.iter().map(|(_, text)| text.len()).sum();
    println!(
        "{} posts ({} MB of Markdown), {} code blocks ({} MB), {} threads, pages into {}",
        bodies.len(),
        bodies.iter().map(String::len).sum::<usize>() >> 20,
        code.len(),
        code_bytes >> 20,
        rayon::current_num_threads(),
        out.display()
    );
    // Grammars and each thread's highlighter are made once per process, as
    // in an export: not timed.
    code[..code.len().min(256)].par_iter().for_each(|(lang, text)| drop(hanji::markdown::highlight(lang, text)));

    let render = median("render and write", || render_and_write(&bodies, &out));
    let highlight = median("highlight", || {
        let highlighted = code.par_iter().filter(|(lang, text)| hanji::markdown::highlight(lang, text).is_some());
        assert!(highlighted.count() > code.len() / 2, "most of the code is highlighted");
    });
    println!(
        "floor: {:.2} s = {:.2} s render and write + {:.2} s highlight (medians of {RUNS})",
        (render + highlight).as_secs_f64(),
        render.as_secs_f64(),
        highlight.as_secs_f64()
    );
    std::fs::remove_dir_all(&out).ok();
}

/// Renders every post with bare pulldown-cmark (in Hanji's dialect of
/// Markdown) and writes it to a file of its own.
fn render_and_write(bodies: &[String], out: &Path) {
    std::fs::remove_dir_all(out).ok();
    std::fs::create_dir_all(out).expect("the output folder");
    bodies.par_iter().enumerate().for_each(|(n, body)| {
        let mut html = String::with_capacity(body.len() * 3 / 2);
        pulldown_cmark::html::push_html(&mut html, Parser::new_ext(body, parser_options()));
        let folder = out.join(n.to_string());
        std::fs::create_dir(&folder).expect("a post's folder");
        std::fs::write(folder.join("index.html"), html).expect("a post's page");
    });
}

/// Each fenced code block of `body`: its language and text.
fn fenced_code(body: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for event in Parser::new_ext(body, parser_options()) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = Some((info.split_whitespace().next().unwrap_or("").to_string(), String::new()));
            }
            Event::Text(text) if open.is_some() => open.as_mut().expect("open").1.push_str(&text),
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            _ => {}
        }
    }
    blocks
}

/// Runs `run` [`RUNS`] times, printing each, and gives the median time.
fn median(what: &str, mut run: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            run();
            let took = start.elapsed();
            println!("  {what}: {:.3} s", took.as_secs_f64());
            took
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

//! Search: the token rule's shared cases in Rust and in the browser's
//! search.js, the quality of the query set on the sample blog, the search box
//! and results page in headless Chromium from `file://`, under a sub-path over
//! HTTP and in `hanji serve`, and what the index holds after an edit.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::browser::Browser;
use crate::{BlogTest, export, files, read};

fn cases(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/search").join(name);
    serde_json::from_str(&read(path)).unwrap()
}

/// A query word as the cases write it: `{all: [["x", "y*"]], optional: ["z"]}`.
fn written(words: &[hanji::search_tokens::QueryWord]) -> Value {
    let terms = |terms: &[hanji::search_tokens::Term]| terms.iter().map(|t| t.written()).collect::<Vec<_>>();
    Value::Array(
        words
            .iter()
            .map(|w| {
                let mut word = json!({ "all": w.all.iter().map(|a| terms(a)).collect::<Vec<_>>(), "optional": terms(&w.optional) });
                if let Some(join) = &w.join {
                    word["join"] = json!(join.written());
                }
                word
            })
            .collect(),
    )
}

/// The sample blog exported into a temp folder.
fn sample_site() -> (BlogTest, tempfile::TempDir) {
    let blog = BlogTest::sample();
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, &out.path().join("site"), &[]);
    assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
    (blog, out)
}

fn file_url(path: &Path) -> String {
    format!("file://{}", hanji::encode_path(&path.to_string_lossy()))
}

#[test]
fn the_token_rule_is_the_same_in_rust_and_in_the_browser() {
    use hanji::search_tokens::{normalize, query, stem, tokens};
    let cases = cases("tokens.json");
    let mut wrong = Vec::new();
    // Each case is [input, answer]: what the Rust side answers must be it.
    let mut check = |kind: &str, answer: &dyn Fn(&str) -> Value| {
        for case in cases[kind].as_array().unwrap() {
            let got = answer(case[0].as_str().unwrap());
            if got != case[1] {
                wrong.push(format!("{kind}({}) = {got}, not {}", case[0], case[1]));
            }
        }
    };
    check("normalize", &|text| json!(normalize(text)));
    check("stem", &|word| json!(stem(word)));
    check("tokens", &|text| json!(tokens(text)));
    check("query", &|text| written(&query(text)));
    assert!(wrong.is_empty(), "Rust disagrees with tests/search/tokens.json:\n{}", wrong.join("\n"));

    // The same cases, in the browser, through the exported search.js.
    let (_blog, out) = sample_site();
    let browser = Browser::start();
    browser.open(&file_url(&out.path().join("site/search/index.html")));
    browser.wait_for("search.js", "return window.hanjiSearch !== undefined;");
    let script = format!(
        "const cases = {cases};
         const s = window.hanjiSearch;
         const term = (t) => t.prefix ? t.text + '*' : t.text;
         const written = (words) => words.map((w) => Object.assign({{
           all: w.all.map((any) => any.map(term)),
           optional: w.optional.map(term),
         }}, w.join ? {{ join: term(w.join) }} : {{}}));
         const wrong = [];
         const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
         for (const [text, want] of cases.normalize) if (!same(s.normalize(text), want)) wrong.push(['normalize', text, s.normalize(text)]);
         for (const [word, want] of cases.stem) if (!same(s.stem(word), want)) wrong.push(['stem', word, s.stem(word)]);
         for (const [text, want] of cases.tokens) if (!same(s.tokens(text), want)) wrong.push(['tokens', text, s.tokens(text)]);
         for (const [text, want] of cases.query) if (!same(written(s.query(text)), want)) wrong.push(['query', text, written(s.query(text))]);
         return [wrong, cases.normalize.length + cases.stem.length + cases.tokens.length + cases.query.length];"
    );
    let answer = browser.script(&script).unwrap();
    assert_eq!(answer[0], json!([]), "search.js disagrees with tests/search/tokens.json");
    assert!(answer[1].as_u64().unwrap() > 60, "{answer}");
}

/// The slug a result's link leads to: `../posts/<slug>/index.html`.
fn slug_of(link: &str) -> String {
    link.trim_start_matches("../posts/").trim_end_matches("/index.html").to_string()
}

#[test]
fn the_query_set_finds_its_posts() {
    let set = cases("queries.json");
    let queries = set["queries"].as_array().unwrap();
    assert!(queries.len() >= 40, "a query set of 40 or more");
    let (_blog, out) = sample_site();
    let browser = Browser::start();
    browser.open(&file_url(&out.path().join("site/search/index.html")));
    browser.wait_for("search.js", "return window.hanjiSearch !== undefined;");
    let (mut expected, mut found, mut first_at_top, mut reciprocal) = (0, 0, 0, 0.0);
    let mut report = Vec::new();
    for item in queries {
        let query = item["query"].as_str().unwrap();
        let script = format!(
            "const found = await window.hanjiSearch.search({q});
             const top = found.posts.slice(0, 10);
             const posts = await window.hanjiSearch.posts(top);
             return posts.map((p) => p.link);",
            q = json!(query)
        );
        let links = browser.script(&script).unwrap_or_else(|e| panic!("{query}: {e}"));
        let slugs: Vec<String> = links.as_array().unwrap().iter().map(|l| slug_of(l.as_str().unwrap())).collect();
        let expect: Vec<&str> = item["expect"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        for slug in &expect {
            expected += 1;
            if slugs.iter().any(|s| s == slug) {
                found += 1;
            }
        }
        let rank = slugs.iter().position(|s| s == expect[0]).map(|r| r + 1);
        if rank == Some(1) {
            first_at_top += 1;
        }
        reciprocal += rank.map_or(0.0, |r| 1.0 / r as f64);
        report.push(format!("{query:?}: rank {rank:?} of {:?}, found {slugs:?}", expect[0]));
    }
    let n = queries.len() as f64;
    let recall = f64::from(found) / f64::from(expected);
    let top = f64::from(first_at_top) / n;
    let mrr = reciprocal / n;
    println!("{}", report.join("\n"));
    println!(
        "search quality: {} queries, recall@10 {recall:.3} ({found} of {expected} expected posts), \
         best post first {top:.3}, mean reciprocal rank {mrr:.3}",
        queries.len()
    );
    let floors = &set["floors"];
    assert!(recall >= floors["recall"].as_f64().unwrap(), "recall {recall:.3}:\n{}", report.join("\n"));
    assert!(top >= floors["first_at_top"].as_f64().unwrap(), "first at top {top:.3}:\n{}", report.join("\n"));
    assert!(mrr >= floors["mean_reciprocal_rank"].as_f64().unwrap(), "MRR {mrr:.3}:\n{}", report.join("\n"));
}

/// The results on the search page: each one's title, link and the marked
/// words of its passage and title.
const RESULTS: &str = "
    const items = [...document.querySelectorAll('.search-result')];
    if (items.length === 0) return null;
    return items.map((li) => ({
      title: li.querySelector('.search-result-title').textContent,
      link: li.querySelector('a').href,
      marks: [...li.querySelectorAll('mark')].map((m) => m.textContent),
      passage: li.querySelector('.search-result-passage').textContent,
    }));";

/// Types `query` into the search page's box (replacing what is there) and
/// waits for results whose first title has `first` in it.
fn search_for(browser: &Browser, query: &str, first: &str) -> Vec<Value> {
    browser.script("document.querySelector('.search-input').value = '';").unwrap();
    browser.type_into(".search-input", query);
    let script = format!(
        "const status = document.querySelector('.search-status').textContent;
         if (!status.includes({q})) return null;
         {RESULTS}",
        q = json!(query.trim())
    );
    let results = browser.wait_for(&format!("results for {query}"), &script);
    let results = results.as_array().unwrap().clone();
    let title = results[0]["title"].as_str().unwrap();
    assert!(title.contains(first), "{query}: first result {title:?}; all: {results:?}");
    results
}

fn marks(result: &Value) -> Vec<String> {
    result["marks"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

/// Korean and English typed into the box and the search page, wherever the
/// site is opened from (`root` is the site's address, ending in `/`).
fn search_the_site(browser: &Browser, root: &str) {
    // The header's link is a search box on other pages; it goes to the
    // results page with the words.
    browser.open(&format!("{root}posts/nvidia-smi-topo-note/index.html"));
    browser.wait_for("the search box", "return document.querySelector('.search-box-input') !== null;");
    assert_eq!(browser.script("return document.querySelector('.search-link');").unwrap(), Value::Null);
    browser.type_into(".search-box-input", "분산 학습\n");
    let results = browser.wait_for(
        "results of the box",
        &format!("if (!location.href.includes('search/index.html?q=')) return null; {RESULTS}"),
    );
    let results = results.as_array().unwrap();
    // Title and tag hits come first; the tag `분산 학습` is marked, and so are
    // the words in the passages, whatever follows them (`학습을`).
    assert!(results[0]["title"].as_str().unwrap().contains("분산 학습"), "{results:?}");
    let marked: Vec<String> = results.iter().flat_map(marks).collect();
    assert!(marked.iter().any(|m| m == "학습") && marked.iter().any(|m| m == "분산"), "{marked:?}");
    let slugs: Vec<String> = results.iter().map(|r| r["link"].as_str().unwrap().to_string()).collect();
    for slug in ["all-reduce-traffic-diagram", "gpu-cluster-onboarding-checklist", "torchcomms-pytorch-2-13"] {
        assert!(slugs.iter().any(|l| l.contains(slug)), "{slug} in {slugs:?}");
    }
    assert!(!slugs.iter().any(|l| l.contains("fp8-training-notes")), "a draft is never found: {slugs:?}");

    // A compound typed without its space finds it written with one.
    let results = search_for(browser, "분산학습", "분산 학습");
    assert!(results.iter().any(|r| r["link"].as_str().unwrap().contains("all-reduce-traffic-diagram")));
    // A particle typed with the word.
    let results = search_for(browser, "학습을 ", "");
    assert!(results.len() >= 5, "{results:?}");
    // English: case, plurals.
    let results = search_for(browser, "KERNELS", "Triton");
    let marked = marks(&results[0]);
    assert!(marked.iter().any(|m| m.eq_ignore_ascii_case("kernel") || m.eq_ignore_ascii_case("kernels")), "{marked:?}");
    // Mixed Korean and English.
    let results = search_for(browser, "PyTorch 통신", "torchcomms");
    assert!(marks(&results[0]).iter().any(|m| m == "PyTorch"), "{results:?}");
    // Nothing found says so.
    browser.script("document.querySelector('.search-input').value = '';").unwrap();
    browser.type_into(".search-input", "zzyzx");
    browser.wait_for(
        "no results",
        "return document.querySelector('.search-status').textContent === '“zzyzx”에 맞는 글이 없습니다.';",
    );
    // A result leads to its post.
    search_for(browser, "gang scheduling", "Kubernetes");
    browser.script("document.querySelector('.search-result a').click();").unwrap();
    browser.wait_for("the post", "return document.title.includes('Scheduling GPU jobs on Kubernetes');");
}

#[test]
fn search_works_from_file() {
    let (_blog, out) = sample_site();
    let browser = Browser::start();
    search_the_site(&browser, &format!("{}/", file_url(&out.path().join("site"))));
}

/// A static web server (Python's) serving `folder`, ended by its process id.
struct StaticServer {
    child: Child,
    url: String,
}

impl StaticServer {
    fn start(folder: &Path) -> StaticServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1", &port.to_string(), "--directory"])
            .arg(folder)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves the folder");
        let url = format!("http://127.0.0.1:{port}/");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the static server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        StaticServer { child, url }
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

#[test]
fn search_works_under_a_sub_path_over_http() {
    let blog = BlogTest::sample();
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, &out.path().join("blog"), &[]).code(), 0);
    let server = StaticServer::start(out.path());
    let browser = Browser::start();
    search_the_site(&browser, &format!("{}blog/", server.url));
}

#[test]
fn hanji_serve_searches() {
    let blog = BlogTest::sample();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hanji"))
        .args(["serve", "--port", "0"])
        .arg(blog.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    struct Killed(Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _serving = Killed(child);
    let browser = Browser::start();
    browser.open(&format!("{url}search/?q=%EC%9D%B8%EB%8D%B1%EC%8A%A4"));
    let results = browser.wait_for("results in hanji serve", RESULTS);
    assert!(results[0]["title"].as_str().unwrap().contains("PostgreSQL"), "{results}");
    assert!(marks(&results[0]).iter().any(|m| m == "인덱스"), "{results}");
}

#[test]
fn without_javascript_the_box_is_a_link_and_the_site_is_unchanged() {
    let (blog, out) = sample_site();
    let site = out.path().join("site");
    let browser = Browser::start_with(false);
    let without_script = |url: &str| {
        browser.open(url);
        browser.source()
    };
    let home = without_script(&file_url(&site.join("index.html")));
    assert!(
        home.contains(
            "class=\"search-link\" href=\"search/index.html\" data-placeholder=\"검색\" data-label=\"글 검색\">검색</a>"
        ),
        "{home}"
    );
    assert!(!home.contains("search-box-input"), "no box without script");
    let page = without_script(&file_url(&site.join("search/index.html")));
    assert!(page.contains("검색에는 JavaScript가 필요한데"), "{page}");
    assert!(page.contains("<form class=\"search-form\" role=\"search\" action=\"index.html\" hidden=\"\""), "{page}");

    // Every page is the one the site has without search, but for the
    // script and the link.
    let off = tempfile::tempdir().unwrap();
    let settings = read(blog.path().join("hanji.toml"));
    let plain = blog.write("hanji.toml", format!("{settings}\nsearch = false\n"));
    assert_eq!(export(&plain, off.path(), &[]).code(), 0);
    let strip = |html: String| {
        html.lines()
            .filter(|l| !l.contains("search/search.js") && !l.contains("class=\"search-link"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut compared = 0;
    for file in files(off.path()).iter().filter(|f| f.ends_with(".html")) {
        assert_eq!(strip(read(site.join(file))), strip(read(off.path().join(file))), "{file}");
        compared += 1;
    }
    assert!(compared > 30, "{compared}");
    assert!(!off.path().join("search").exists(), "search = false: no search files");
    assert!(!read(off.path().join("index.html")).contains("search"), "nor a link or script");
}

/// The index's files in an exported site, by name.
fn index_of(site: &Path) -> BTreeMap<String, String> {
    files(&site.join("search")).into_iter().map(|f| (f.clone(), read(site.join("search").join(&f)))).collect()
}

#[test]
fn an_edited_post_changes_only_its_part_of_the_index() {
    let blog = BlogTest::sample();
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    let before = index_of(&site);
    let post = blog.path().join("posts/nvidia-smi-topo-note.md");
    let text = read(&post).replace("가장 먼저", "가장 먼저 꼼꼼하게 zymurgy");
    std::fs::write(&post, text).unwrap();
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    let after = index_of(&site);

    // The same as a cold export of the edited blog.
    let cold = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, cold.path(), &[]).code(), 0);
    assert_eq!(after, index_of(cold.path()), "the index after an edit is the cold export's");

    let changed: Vec<&String> = after.keys().filter(|f| before.get(*f) != after.get(*f)).collect();
    let posts: Vec<&&String> = changed.iter().filter(|f| f.starts_with("posts/")).collect();
    assert_eq!(posts.len(), 1, "only the edited post's group: {changed:?}");
    assert!(after[*posts[0]].contains("zymurgy"));
    let shards = before.keys().filter(|f| f.starts_with("index/")).count();
    let changed_shards = changed.iter().filter(|f| f.starts_with("index/")).count();
    assert!(changed_shards >= 1 && changed_shards < shards, "{changed_shards} of {shards} shards: {changed:?}");
    assert_eq!(before["index.js"], after["index.js"], "the manifest stays");
    assert!(!changed.iter().any(|f| f.as_str() == "search.js"));
}

#[test]
fn drafts_scheduled_posts_and_posts_with_errors_are_never_in_the_index() {
    let blog = BlogTest::sample()
        .write("posts/broken.md", "---\ntitle: [unclosed\n---\nBrokenword text.\n")
        .write("posts/bad-date.md", "---\ntitle: Bad date quokka\ndate: 2026-13-45\n---\nQuokka text.\n")
        .write("posts/later.md", "---\ntitle: Scheduled wombat\ndate: 2999-01-01\n---\nWombat text.\n");
    let out = tempfile::tempdir().unwrap();
    export(&blog, out.path(), &[]);
    let index = index_of(out.path());
    let all: String = index.values().cloned().collect();
    assert!(!out.path().join("posts/later/index.html").exists(), "a scheduled post is not published");
    for word in ["Brokenword", "brokenword", "quokka", "wombat", "fp8 학습 실험 노트"] {
        assert!(!all.contains(word), "{word} is in the index");
    }
    let shown =
        index.iter().filter(|(f, _)| f.starts_with("posts/")).map(|(_, t)| t.matches("hanjiSearch.post(").count());
    let pages = files(&out.path().join("posts")).iter().filter(|f| f.ends_with("index.html")).count();
    assert_eq!(shown.sum::<usize>(), pages, "one entry for each post page");
}

#[test]
fn the_apps_preview_has_no_search_and_no_script() {
    let blog = BlogTest::sample().load();
    let theme = hanji::Theme::new(&blog.templates).0;
    for post in blog.library.posts() {
        let preview = hanji::post_preview(&blog, &theme, None, &post.path, &post.source());
        assert!(!preview.html.contains("<script") && !preview.html.contains("search-link"), "{}", post.path.display());
    }
    let options = hanji::SiteOptions { drafts: true, source_lines: false, search: false, services: false };
    let site = hanji::Site::new(&blog.config, &blog.library, &blog.assets, &theme, options);
    assert!(!site.pages().contains(&hanji::Page::Search));
    let home = site.render(&hanji::Page::Home(1)).unwrap().text;
    assert!(!home.contains("<script") && !home.contains("search"), "{home}");
}

#[test]
fn the_search_setting_is_checked() {
    let blog = BlogTest::sample().write("hanji.toml", "search = \"yes\"\n");
    let run = blog.hanji(&["check"]);
    let (line, hint) = run.line_starting("hanji.toml:1:");
    assert!(line.contains("`search`") && line.contains("bool"), "{line}");
    assert!(!hint.is_empty());
}

//! The published site for its readers: scheduled posts held back until their
//! moment in the blog's time zone (judged by a test clock, never the wall
//! clock), related posts and series, and comments and analytics, which
//! only the exported pages have.

use std::path::Path;

use hanji::{Clock, LoadOptions, Schedule};

use crate::{BlogTest, export, files, read, visible_text};

fn post(title: &str, date: &str, tags: &str, extra: &str, body: &str) -> String {
    format!("---\ntitle: {title}\ndate: {date}\ntags: [{tags}]\n{extra}---\n{body}\n")
}

fn at(moment: &str) -> LoadOptions {
    LoadOptions {
        schedule: Schedule { clock: Clock::Fixed(moment.parse().unwrap()), future: false },
        ..LoadOptions::default()
    }
}

/// A blog in Seoul's time zone: one post out, one due at midnight on
/// Christmas Eve, one at nine that morning.
fn scheduled() -> BlogTest {
    BlogTest::empty()
        .write("hanji.toml", "title = \"Scheduled\"\ntime_zone = \"Asia/Seoul\"\nlocale = \"ko-KR\"\n")
        .write("posts/out.md", post("Out already", "2026-12-01", "nccl", "", "Out."))
        .write("posts/eve.md", post("Christmas wombat", "2026-12-24", "nccl, holiday", "", "Wombat text."))
        .write("posts/morning.md", post("Morning quokka", "2026-12-24T09:00:00", "nccl", "", "Quokka text."))
}

fn held(blog: &hanji::Blog, path: &str) -> Option<hanji::Held> {
    blog.library.post(Path::new(path)).unwrap().held
}

#[test]
fn a_scheduled_post_is_published_when_its_moment_comes_in_the_blogs_time_zone() {
    let blog = scheduled();
    let load = |moment: &str| hanji::load_with(blog.path(), &at(moment)).unwrap();
    // 23:59:59 in Seoul on the 23rd is 14:59:59 UTC.
    let before = load("2026-12-23T14:59:59Z");
    assert_eq!(held(&before, "posts/eve.md"), Some(hanji::Held::Scheduled));
    assert_eq!(held(&before, "posts/out.md"), None);
    assert_eq!(before.library.tag("nccl").unwrap().count, 1, "counted only once published");
    let midnight = load("2026-12-23T15:00:00Z");
    assert_eq!(held(&midnight, "posts/eve.md"), None, "midnight in Seoul");
    assert_eq!(held(&midnight, "posts/morning.md"), Some(hanji::Held::Scheduled), "its time is 09:00");
    assert_eq!(held(&load("2026-12-24T00:00:00Z"), "posts/morning.md"), None, "09:00 in Seoul");
    // The same moment in another time zone: not yet the 24th in UTC.
    let utc = blog.write("hanji.toml", "title = \"Scheduled\"\ntime_zone = \"UTC\"\n");
    let utc = hanji::load_with(utc.path(), &at("2026-12-23T15:00:00Z")).unwrap();
    assert_eq!(held(&utc, "posts/eve.md"), Some(hanji::Held::Scheduled));
    // `--future` publishes it at once.
    let mut future = at("2026-12-01T00:00:00Z");
    future.schedule.future = true;
    assert_eq!(held(&hanji::load_with(scheduled().path(), &future).unwrap(), "posts/eve.md"), None);
}

#[test]
fn a_scheduled_post_is_nowhere_in_the_export_until_then() {
    let blog = scheduled();
    let now = |moment: &str| [("HANJI_NOW", moment.to_string())];
    let run = |moment: &str, out: &Path, extra: &[&str]| {
        let mut args = vec!["export", "--quiet", "--out", out.to_str().unwrap()];
        args.extend(extra);
        let env = now(moment);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        blog.hanji_with(&env, &args)
    };
    let out = tempfile::tempdir().unwrap();
    let early = run("2026-12-20T00:00:00+09:00", out.path(), &[]);
    assert_eq!(early.code(), 0, "{}", early.stderr());
    let site = out.path();
    assert!(!site.join("posts/eve/index.html").exists(), "no page");
    assert!(!site.join("tags/holiday").exists(), "a tag only it has has no page");
    let home = read(site.join("index.html"));
    assert!(!home.contains("Christmas wombat"), "not on the home page");
    assert!(visible_text(&home).contains("nccl (1)"), "not counted: {}", visible_text(&home));
    assert!(!read(site.join("tags/index.html")).contains("holiday"), "not on the tags page");
    assert!(!read(site.join("tags/nccl/index.html")).contains("Christmas wombat"), "not on its tag's page");
    for feed in ["feed.xml", "tags/nccl/feed.xml"] {
        assert!(!read(site.join(feed)).contains("Christmas wombat"), "not in {feed}");
    }
    assert!(!read(site.join("sitemap.xml")).contains("posts/eve/"), "not in the sitemap");
    let search: String = files(&site.join("search")).iter().map(|f| read(site.join("search").join(f))).collect();
    assert!(!search.contains("wombat") && !search.contains("Wombat"), "not in the search index");
    assert!(search.contains("Out already"), "the published post is");
    let out_page = read(site.join("posts/out/index.html"));
    assert!(!out_page.contains("Christmas wombat"), "no neighbour or related link to it");

    // Its moment has come: the next export publishes it.
    let later = run("2026-12-24T00:00:00+09:00", out.path(), &[]);
    assert_eq!(later.code(), 0, "{}", later.stderr());
    assert!(site.join("posts/eve/index.html").is_file());
    assert!(read(site.join("feed.xml")).contains("Christmas wombat"));
    assert!(visible_text(&read(site.join("index.html"))).contains("nccl (2)"));
    assert!(!site.join("posts/morning/index.html").exists(), "09:00 has not come");

    // `--future` publishes every scheduled post now.
    let future = tempfile::tempdir().unwrap();
    run("2026-12-20T00:00:00+09:00", future.path(), &["--future"]);
    assert!(
        future.path().join("posts/eve/index.html").is_file()
            && future.path().join("posts/morning/index.html").is_file()
    );
}

#[test]
fn check_says_what_the_next_export_publishes_and_when_the_rest_comes() {
    let blog = scheduled();
    let check = blog.hanji_with(&[("HANJI_NOW", "2026-12-21T09:00:00+09:00")], &["check"]);
    assert_eq!(check.code(), 0, "{}", check.stderr());
    let stderr = check.stderr();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "posts/eve.md: scheduled for 2026-12-24 00:00 KST (in 2 days): the export leaves it out until then \
             (--future publishes it now)",
            "posts/morning.md: scheduled for 2026-12-24 09:00 KST (in 3 days): the export leaves it out until then \
             (--future publishes it now)",
            "the next export publishes 1 post; 2 scheduled for later",
            "3 posts, 0 errors, 0 warnings",
        ]
    );
    let future = blog.hanji_with(&[("HANJI_NOW", "2026-12-21T09:00:00+09:00")], &["check", "--future"]);
    assert!(future.stderr().starts_with("the next export publishes 3 posts\n"), "{}", future.stderr());
    let bad = blog.hanji_with(&[("HANJI_NOW", "next tuesday")], &["check"]);
    assert_eq!(bad.code(), 2);
    assert!(bad.stderr().contains("HANJI_NOW=`next tuesday` is not a time"), "{}", bad.stderr());
}

#[test]
fn a_scheduled_post_says_when_in_the_preview() {
    let blog = scheduled();
    let loaded = hanji::load_with(blog.path(), &at("2026-12-21T00:00:00Z")).unwrap();
    let theme = hanji::Theme::new(&loaded.templates).0;
    let text = read(blog.path().join("posts/morning.md"));
    let preview = hanji::post_preview(&loaded, &theme, None, Path::new("posts/morning.md"), &text);
    assert!(
        // In the page's language (the blog is Korean).
        preview.html.contains("<span class=\"badge-draft\">2026년 12월 24일 09:00 공개 예정</span>"),
        "{}",
        preview.html
    );
}

#[test]
fn an_unknown_time_zone_is_named_with_what_to_write() {
    let blog = scheduled().write("hanji.toml", "title = \"x\"\ntime_zone = \"Asia/Seol\"\n");
    let check = blog.hanji(&["check"]);
    let (line, hint) = check.line_starting("hanji.toml:2:1: error: `Asia/Seol` is not a time zone");
    assert!(line.ends_with("is not a time zone"), "{line}");
    assert!(hint.contains("\"Asia/Seoul\""), "{hint}");
}

/// Four parts of a series (one a draft), and posts sharing rarer and more
/// common tags.
fn series() -> BlogTest {
    let part = |n: usize, date: &str, extra: &str| {
        post(&format!("NCCL part {n}"), date, "nccl", &format!("series: \"NCCL 입문\"\n{extra}"), "Part.")
    };
    BlogTest::empty()
        .write("hanji.toml", "title = \"Series\"\n")
        .write("posts/one.md", part(1, "2026-01-01", ""))
        .write("posts/two.md", part(2, "2026-02-01", ""))
        .write("posts/three.md", part(3, "2026-03-01", ""))
        .write("posts/four.md", part(4, "2026-04-01", "draft: true\n"))
        .write("posts/rdma.md", post("RDMA notes", "2026-05-01", "rdma, gpu", "", "RDMA."))
        .write("posts/roce.md", post("RoCE notes", "2026-05-02", "rdma", "", "RoCE."))
        .write("posts/gpus.md", post("GPU notes", "2026-05-03", "gpu", "", "GPU."))
        .write("posts/more-gpus.md", post("More GPU notes", "2026-05-04", "gpu", "", "GPU."))
        .write("posts/draft.md", post("Draft on RDMA", "2026-05-05", "rdma, gpu", "draft: true\n", "Soon."))
}

#[test]
fn a_series_page_lists_its_parts_and_each_part_says_which_it_is() {
    let blog = series();
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    let site = out.path();
    let page = read(site.join("series/nccl-입문/index.html"));
    let text = visible_text(&page);
    let first = text.find("NCCL part 1").unwrap();
    assert!(first < text.find("NCCL part 2").unwrap() && text.find("NCCL part 2") < text.find("NCCL part 3"), "{text}");
    assert!(text.contains("3 parts") && !text.contains("NCCL part 4"), "a draft is no part yet: {text}");
    let two = read(site.join("posts/two/index.html"));
    assert!(visible_text(&two).contains("NCCL 입문 Part 2 of 3"), "{}", visible_text(&two));
    assert!(two.contains("<li aria-current=\"page\"><span>NCCL part 2</span></li>"), "{two}");
    let series_nav = two.split("series-nav").nth(1).unwrap();
    assert!(series_nav.contains("../../posts/one/index.html\">← NCCL part 1"), "{series_nav}");
    assert!(series_nav.contains("../../posts/three/index.html\">NCCL part 3 →"), "{series_nav}");
    let one = read(site.join("posts/one/index.html"));
    assert!(visible_text(&one).contains("Part 1 of 3") && !one.contains("Previous in the series"));
    let all = read(site.join("series/index.html"));
    assert!(all.contains("nccl-%EC%9E%85%EB%AC%B8/index.html\">NCCL 입문</a>"), "{all}");
    assert!(read(site.join("index.html")).contains("series/index.html\">Series</a>"), "in the navigation");
    assert!(
        read(site.join("sitemap.xml")).contains("series/nccl-%EC%9E%85%EB%AC%B8/")
            || read(site.join("sitemap.xml")).contains("series/nccl-입문/")
    );
    // The parts of a series are not each other's related posts.
    assert!(!two.contains("class=\"related\""), "{two}");
}

#[test]
fn related_posts_share_the_rarest_tags_and_are_never_drafts() {
    let blog = series();
    let out = tempfile::tempdir().unwrap();
    export(&blog, out.path(), &[]);
    let page = read(out.path().join("posts/rdma/index.html"));
    let related = page.split("<section class=\"related\"").nth(1).unwrap().split("</section>").next().unwrap();
    let titles: Vec<&str> = related.split("index.html\">").skip(1).filter_map(|s| s.split("</a>").next()).collect();
    // RoCE shares `rdma` (2 posts); the GPU posts share `gpu` (3 posts).
    assert_eq!(titles, ["RoCE notes", "More GPU notes", "GPU notes"], "{related}");
    assert!(!related.contains("Draft on RDMA"));
    let limited = blog.write("hanji.toml", "title = \"Series\"\nrelated_posts = 1\n");
    let out = tempfile::tempdir().unwrap();
    export(&limited, out.path(), &[]);
    let page = read(out.path().join("posts/rdma/index.html"));
    assert_eq!(page.matches("related-list").count(), 1);
    assert!(page.contains("RoCE notes") && !page.contains("More GPU notes"));
}

fn services() -> BlogTest {
    BlogTest::fixture("services")
}

#[test]
fn comments_and_analytics_are_in_exported_pages_only() {
    let blog = services();
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    let site = out.path();
    let post = read(site.join("posts/a/index.html"));
    assert!(
        post.contains(
            "<script src=\"https://giscus.app/client.js\" data-repo=\"me/blog\" data-repo-id=\"R_123\" \
             data-category=\"Comments\" data-category-id=\"DIC_456\" data-mapping=\"pathname\""
        ),
        "{post}"
    );
    assert!(post.contains("data-theme=\"preferred_color_scheme\" data-lang=\"en\""), "{post}");
    let plausible =
        "<script defer data-domain=\"blog.example.org\" src=\"https://plausible.io/js/script.js\"></script>";
    for page in ["posts/a/index.html", "index.html", "tags/index.html", "tags/x/index.html", "posts/quiet/index.html"] {
        assert!(read(site.join(page)).contains(plausible), "analytics on {page}");
    }
    assert!(!read(site.join("index.html")).contains("giscus"), "comments are under posts only");
    assert!(!read(site.join("posts/quiet/index.html")).contains("giscus"), "`comments: false` turns them off");

    // The app's preview has neither.
    let loaded = blog.load();
    let theme = hanji::Theme::new(&loaded.templates).0;
    let preview =
        hanji::post_preview(&loaded, &theme, None, Path::new("posts/a.md"), &read(blog.path().join("posts/a.md")));
    assert!(!preview.html.contains("giscus") && !preview.html.contains("plausible"), "{}", preview.html);
    assert!(!preview.html.contains("<script"), "no script at all in the preview");
}

#[test]
fn each_provider_writes_its_own_snippet() {
    let with = |settings: &str| {
        let blog = BlogTest::empty()
            .write("hanji.toml", format!("title = \"S\"\n{settings}"))
            .write("posts/a.md", post("Alpha", "2026-01-01", "x", "", "Alpha."));
        let out = tempfile::tempdir().unwrap();
        let run = export(&blog, out.path(), &[]);
        assert_eq!(run.code(), 0, "{}", run.stdout());
        read(out.path().join("posts/a/index.html"))
    };
    let utterances = with("[comments]\nprovider = \"utterances\"\nrepo = \"me/blog\"\nlabel = \"comment\"\n");
    assert!(
        utterances.contains(
            "<script src=\"https://utteranc.es/client.js\" repo=\"me/blog\" issue-term=\"pathname\" label=\"comment\" \
             theme=\"preferred-color-scheme\" crossorigin=\"anonymous\" async></script>"
        ),
        "{utterances}"
    );
    let umami = with("[analytics]\nprovider = \"umami\"\nwebsite_id = \"abc-123\"\n");
    assert!(
        umami.contains("<script defer data-website-id=\"abc-123\" src=\"https://cloud.umami.is/script.js\"></script>")
    );
    let own =
        with("[analytics]\nprovider = \"umami\"\nwebsite_id = \"abc\"\nscript = \"https://stats.example.org/u.js\"\n");
    assert!(own.contains("src=\"https://stats.example.org/u.js\""), "a self-hosted script");
    let google = with("[analytics]\nprovider = \"google\"\nid = \"G-XYZ\"\n");
    assert!(google.contains("<script async src=\"https://www.googletagmanager.com/gtag/js?id=G-XYZ\"></script>"));
    assert!(google.contains("gtag(\"config\", \"G-XYZ\");"), "{google}");
}

#[test]
fn a_provider_without_what_it_needs_is_named() {
    let blog = services().write("hanji.toml", "title = \"x\"\n[comments]\nprovider = \"giscus\"\nrepo = \"me/blog\"\n");
    let check = blog.hanji(&["check"]);
    let (line, hint) = check.line_starting("hanji.toml:2:1: error: `[comments]` needs `repo_id` and `category_id`");
    assert!(!line.is_empty() && hint.contains("the guide"), "{hint}");
    let typo = services().write("hanji.toml", "title = \"x\"\n[analytics]\nprovider = \"plausable\"\n");
    let check = typo.hanji(&["check"]);
    assert!(check.stdout().contains("hanji.toml:3:12: error:"), "{}", check.stdout());
    assert!(check.stdout().contains("unknown variant `plausable`"), "{}", check.stdout());
}

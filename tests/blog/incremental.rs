//! An export into a folder it exported to before renders only what changed,
//! and what it leaves is byte for byte what a first export of the same blog
//! makes: random edits (bodies, titles, tags and so related posts, dates,
//! drafts, links, new, removed and renamed posts, images, photos sized for
//! the screen and the image settings, series, settings, templates, the
//! clock passing scheduled posts' moments, a file of the site changed or
//! removed by hand, and nothing at all), each followed by an export that
//! keeps what it knows between runs, checked against a cold export of the
//! blog as it is then.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use proptest::prelude::*;

use crate::files;

/// One change an author (or git) makes to the blog.
#[derive(Debug, Clone)]
enum Edit {
    /// A line added to a post's body (Korean or English, maybe a link or
    /// an image, maybe code).
    Body(usize, usize),
    Title(usize, usize),
    /// A post's tags: one of a few sets, so that tags come and go.
    Tags(usize, usize),
    Date(usize, u8),
    Draft(usize, bool),
    New(usize),
    Remove(usize),
    /// A post's file renamed (its slug with it).
    Rename(usize),
    /// An image beside the posts added or removed.
    Image(bool),
    /// The site's title in `hanji.toml`, and whether it has its search.
    Settings(usize),
    /// The post template overridden, or not.
    Template(bool),
    /// The photo posts show (`photo.png`, sized for the screen) written at
    /// one of a few widths, or removed.
    Photo(usize),
    /// `[images]`: one of a few sets of widths and formats.
    ImageSettings(usize),
    /// A post's series: one of a few, or none.
    Series(usize, usize),
    /// The clock the export judges scheduled posts by, moved to a day of
    /// July 2026 (posts dated after it are held back until then).
    Clock(u8),
    /// The `n`th file of the exported site changed by hand, or removed.
    SiteFile(usize, bool),
    /// No change: the export after it is the last one again.
    Nothing,
}

const PHOTO_WIDTHS: &[u32] = &[300, 700, 1300];
const IMAGE_SETTINGS: &[&str] =
    &["", "[images]\nwidths = [320, 640]\n", "[images]\nwebp = false\n", "[images]\nresize = false\n"];
const SERIES: &[&str] = &["", "GPU 101", "NCCL 입문"];

const TAGS: &[&[&str]] = &[&["rust"], &["rust", "nccl"], &["분산 학습"], &[], &["nccl", "gpu", "분산 학습"]];
const TITLES: &[&str] = &["First steps", "NCCL 링 알고리즘", "Kernels, fused", "분산 학습 정리"];
const LINES: &[&str] = &[
    "More words about all-reduce.",
    "링 all-reduce는 대역폭을 아낀다.",
    "See [the other post](post-1.md) and [a missing one](nowhere.md).",
    "![a chart](/images/chart.png)",
    "```rust\nfn main() { println!(\"분산\"); }\n```",
    "Math: $a^2 + b^2$.",
    "![a photo](/images/photo.png)",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (0..8usize, 0..LINES.len()).prop_map(|(p, l)| Edit::Body(p, l)),
        1 => (0..8usize, 0..TITLES.len()).prop_map(|(p, t)| Edit::Title(p, t)),
        2 => (0..8usize, 0..TAGS.len()).prop_map(|(p, t)| Edit::Tags(p, t)),
        1 => (0..8usize, 1..28u8).prop_map(|(p, d)| Edit::Date(p, d)),
        1 => (0..8usize, any::<bool>()).prop_map(|(p, d)| Edit::Draft(p, d)),
        1 => (0..12usize).prop_map(Edit::New),
        1 => (0..8usize).prop_map(Edit::Remove),
        1 => (0..8usize).prop_map(Edit::Rename),
        1 => any::<bool>().prop_map(Edit::Image),
        1 => (0..3usize).prop_map(Edit::Settings),
        1 => any::<bool>().prop_map(Edit::Template),
        2 => (0..=PHOTO_WIDTHS.len()).prop_map(Edit::Photo),
        1 => (0..IMAGE_SETTINGS.len()).prop_map(Edit::ImageSettings),
        2 => (0..8usize, 0..SERIES.len()).prop_map(|(p, s)| Edit::Series(p, s)),
        2 => (1..29u8).prop_map(Edit::Clock),
        1 => (0..40usize, any::<bool>()).prop_map(|(n, removed)| Edit::SiteFile(n, removed)),
        1 => Just(Edit::Nothing),
    ]
}

/// A post's text from its parts.
fn post(title: &str, day: u8, tags: &[&str], draft: bool, body: &str) -> String {
    let tags = tags.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(", ");
    format!("---\ntitle: \"{title}\"\ndate: 2026-07-{day:02}\ntags: [{tags}]\ndraft: {draft}\n---\n\n{body}\n")
}

/// The posts of the blog, by file name, sorted (the `n`th of them is post `n`
/// modulo their number).
fn posts(blog: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(blog.join("posts"))
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// Makes `edit` to the blog, to the clock `now` or to the site exported
/// into `out`; false if it did nothing (no post to edit).
fn make(blog: &Path, out: &Path, now: &mut String, edit: &Edit, step: usize) -> bool {
    let names = posts(blog);
    let nth = |n: usize| (!names.is_empty()).then(|| blog.join("posts").join(&names[n % names.len()]));
    let rewrite = |n: usize, change: &dyn Fn(String) -> String| match nth(n) {
        Some(path) => {
            let text = fs::read_to_string(&path).unwrap();
            fs::write(&path, change(text)).unwrap();
            true
        }
        None => false,
    };
    let replace_line = |text: String, key: &str, line: String| {
        text.lines()
            .map(|l| if l.starts_with(key) { line.clone() } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    match edit {
        Edit::Body(n, l) => rewrite(*n, &|text| format!("{text}\n{}\n", LINES[*l])),
        Edit::Title(n, t) => rewrite(*n, &|text| replace_line(text, "title:", format!("title: \"{}\"", TITLES[*t]))),
        Edit::Tags(n, t) => rewrite(*n, &|text| {
            let tags = TAGS[*t].iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(", ");
            replace_line(text, "tags:", format!("tags: [{tags}]"))
        }),
        Edit::Date(n, d) => rewrite(*n, &|text| replace_line(text, "date:", format!("date: 2026-07-{d:02}"))),
        Edit::Draft(n, d) => rewrite(*n, &|text| replace_line(text, "draft:", format!("draft: {d}"))),
        Edit::New(n) => {
            let text =
                post(&format!("New {n}"), (*n % 27 + 1) as u8, TAGS[n % TAGS.len()], false, LINES[n % LINES.len()]);
            fs::write(blog.join(format!("posts/new-{n}-{step}.md")), text).unwrap();
            true
        }
        Edit::Remove(n) => match nth(*n) {
            Some(path) => {
                fs::remove_file(path).unwrap();
                true
            }
            None => false,
        },
        Edit::Rename(n) => match nth(*n) {
            Some(path) => {
                fs::rename(&path, blog.join(format!("posts/renamed-{step}.md"))).unwrap();
                true
            }
            None => false,
        },
        Edit::Image(add) => {
            let image = blog.join("static/images/chart.png");
            if *add {
                fs::create_dir_all(image.parent().unwrap()).unwrap();
                fs::write(&image, format!("not really a png {step}")).unwrap();
            } else {
                let _ = fs::remove_file(&image);
            }
            true
        }
        Edit::Settings(n) => {
            // The third turns the search off (and the next one on again).
            let search = if *n == 2 { "search = false\n" } else { "" };
            let settings = format!(
                "title = \"Blog {n}\"\nbase_url = \"https://me.github.io/blog/\"\nposts_per_page = 2\n{search}"
            );
            fs::write(blog.join("hanji.toml"), settings).unwrap();
            true
        }
        Edit::Template(on) => {
            let template = blog.join("templates/post.html");
            if *on {
                fs::create_dir_all(template.parent().unwrap()).unwrap();
                let text = "{% extends \"base.html\" %}{% block content %}<article>{{ post.title }}\
                            {{ post.content | safe }}</article>{% endblock %}";
                fs::write(&template, text).unwrap();
            } else {
                let _ = fs::remove_file(&template);
            }
            true
        }
        Edit::Photo(n) => {
            let photo = blog.join("static/images/photo.png");
            match PHOTO_WIDTHS.get(*n) {
                Some(width) => {
                    fs::create_dir_all(photo.parent().unwrap()).unwrap();
                    fs::write(&photo, crate::images::png(*width, width / 2)).unwrap();
                }
                None => drop(fs::remove_file(&photo)),
            }
            true
        }
        Edit::ImageSettings(n) => {
            let path = blog.join("hanji.toml");
            let settings = fs::read_to_string(&path).unwrap();
            let before = settings.split("[images]").next().unwrap_or_default().to_string();
            fs::write(&path, before + IMAGE_SETTINGS[*n]).unwrap();
            true
        }
        Edit::Series(n, s) => rewrite(*n, &|text| {
            let text: String = text.lines().filter(|l| !l.starts_with("series:")).map(|l| format!("{l}\n")).collect();
            match SERIES[*s] {
                "" => text,
                name => text.replacen("\ntitle:", &format!("\nseries: \"{name}\"\ntitle:"), 1),
            }
        }),
        Edit::Clock(day) => {
            *now = format!("2026-07-{day:02}T12:00:00Z");
            true
        }
        Edit::SiteFile(n, removed) => {
            // Not `.hanji-export`: without it, the folder is not Hanji's to write.
            let site: Vec<String> = files(out).into_iter().filter(|f| f != ".hanji-export").collect();
            let file = out.join(&site[n % site.len()]);
            match removed {
                true => fs::remove_file(file).unwrap(),
                false => fs::write(file, "changed by hand\n").unwrap(),
            }
            true
        }
        Edit::Nothing => true,
    }
}

/// Exports `blog` as the command line does (posts without their texts,
/// what was read and written kept in `cache`), into `out`.
fn export(blog: &Path, out: &Path, cache: Option<&Path>) -> hanji::ExportSummary {
    export_at(blog, out, cache, LATER)
}

/// After every date of the test's posts.
const LATER: &str = "2027-01-01T00:00:00Z";

/// `export`, scheduled posts judged at `now`.
fn export_at(blog: &Path, out: &Path, cache: Option<&Path>, now: &str) -> hanji::ExportSummary {
    let schedule = hanji::Schedule { clock: hanji::Clock::Fixed(now.parse().unwrap()), future: false };
    let options = hanji::LoadOptions {
        texts: hanji::LoadTexts::LetGo,
        cache_dir: cache.map(Path::to_path_buf),
        schedule,
        ..Default::default()
    };
    let loaded = hanji::load_with(blog, &options).unwrap();
    let options = hanji::ExportOptions { cache_dir: cache.map(Path::to_path_buf), ..Default::default() };
    hanji::export(&loaded, out, &options, &|_, _| {}).unwrap()
}

/// Every file of a site with its bytes.
fn site(out: &Path) -> Vec<(String, Vec<u8>)> {
    files(out).into_iter().map(|f| (f.clone(), fs::read(out.join(&f)).unwrap())).collect()
}

fn first_blog(blog: &Path) {
    fs::create_dir_all(blog.join("posts")).unwrap();
    fs::write(
        blog.join("hanji.toml"),
        "title = \"Blog\"\nbase_url = \"https://me.github.io/blog/\"\nposts_per_page = 2\n",
    )
    .unwrap();
    for n in 0..6usize {
        let body = format!("Post {n}.\n\n{}\n\n## 절 {n}\n\n{}", LINES[n % LINES.len()], LINES[(n + 2) % LINES.len()]);
        let text = post(TITLES[n % TITLES.len()], (n * 3 + 1) as u8, TAGS[n % TAGS.len()], n == 5, &body);
        fs::write(blog.join(format!("posts/post-{n}.md")), text).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn an_export_after_edits_is_the_first_export_of_the_blog_as_it_is(edits in prop::collection::vec(edit(), 1..10)) {
        let blog = tempfile::tempdir().unwrap();
        let places = tempfile::tempdir().unwrap();
        let (out, cache) = (places.path().join("site"), places.path().join("cache"));
        first_blog(blog.path());
        let mut now = "2026-07-15T12:00:00Z".to_string();
        export_at(blog.path(), &out, Some(&cache), &now);
        // Files older than the clock's grain are taken from what was kept,
        // not read again: let the first ones age past it.
        std::thread::sleep(Duration::from_millis(2100));
        for (step, edit) in edits.iter().enumerate() {
            make(blog.path(), &out, &mut now, edit, step);
            let again = export_at(blog.path(), &out, Some(&cache), &now);
            let cold_out = places.path().join(format!("cold-{step}"));
            let cold = export_at(blog.path(), &cold_out, None, &now);
            prop_assert_eq!(site(&out), site(&cold_out), "after {:?}", &edits[..=step]);
            prop_assert_eq!(&again.problems, &cold.problems, "after {:?}", &edits[..=step]);
            prop_assert_eq!(&again.left_out, &cold.left_out);
            fs::remove_dir_all(&cold_out).unwrap();
        }
    }
}

/// After one post's body changes, only that post's page is rendered (with
/// the search's files of its words): its neighbours, the lists that show
/// it and the tag pages are as they were, since what they show of it did
/// not change.
#[test]
fn a_body_edit_renders_only_its_post() {
    let blog = tempfile::tempdir().unwrap();
    let places = tempfile::tempdir().unwrap();
    let (out, cache) = (places.path().join("site"), places.path().join("cache"));
    first_blog(blog.path());
    let first = export(blog.path(), &out, Some(&cache));
    assert!(first.rendered > 20, "{}", first.line(&out));
    let unchanged = export(blog.path(), &out, Some(&cache));
    assert_eq!(unchanged.rendered, 0, "{}", unchanged.line(&out));
    assert_eq!(unchanged.written, 0);

    let post = blog.path().join("posts/post-2.md");
    let text = fs::read_to_string(&post).unwrap();
    fs::write(&post, format!("{text}\nOne more paragraph, 한 문단 더.\n")).unwrap();
    let edited = export(blog.path(), &out, Some(&cache));
    assert_eq!(edited.rendered, 1, "{}", edited.line(&out));

    // A tag change renders the post, the lists it is on and the tag pages
    // (every list shows every tag's count), not the other posts.
    fs::write(&post, fs::read_to_string(&post).unwrap().replace("tags: [", "tags: [\"new-tag\", ")).unwrap();
    let retagged = export(blog.path(), &out, Some(&cache));
    let posts_shown = 5;
    assert!(retagged.rendered > 1 && retagged.rendered < first.rendered - (posts_shown - 1), "{}", retagged.line(&out));
}

/// The test blog (`first_blog`) and the folders it is exported into: the
/// site and the cache, and beside them the first exports to compare with.
struct Exports {
    blog: tempfile::TempDir,
    places: tempfile::TempDir,
    out: PathBuf,
    cache: PathBuf,
}

impl Exports {
    fn new() -> Exports {
        let (blog, places) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        first_blog(blog.path());
        let (out, cache) = (places.path().join("site"), places.path().join("cache"));
        Exports { blog, places, out, cache }
    }

    fn post(&self, name: &str) -> PathBuf {
        self.blog.path().join("posts").join(name)
    }

    /// An export into the site, with what the cache keeps.
    fn export(&self) -> hanji::ExportSummary {
        export(self.blog.path(), &self.out, Some(&self.cache))
    }

    /// Asserts that the site is the first export of the blog as it is.
    fn assert_first_export(&self, after: &str) {
        let cold = self.places.path().join("cold");
        if cold.exists() {
            fs::remove_dir_all(&cold).unwrap();
        }
        export(self.blog.path(), &cold, None);
        assert_eq!(site(&self.out), site(&cold), "after {after}");
    }
}

/// An export of a blog that did not change, into a site that did not
/// either, writes nothing and tells what the last one told, its problems
/// too. A file of the site changed by hand is made again, and a damaged
/// record of the last export only makes the next export an incremental one.
#[test]
fn an_unchanged_blog_exports_as_it_did_and_a_touched_site_is_made_again() {
    let exports = Exports::new();
    let (out, cache) = (&exports.out, &exports.cache);
    let post = exports.post("post-0.md");
    fs::write(&post, fs::read_to_string(&post).unwrap() + "\n[a missing one](nowhere.md)\n").unwrap();
    let first = exports.export();
    assert!(first.problems.iter().any(|p| p.message.contains("nowhere.md")), "{:?}", first.problems);
    let stamps = |out: &Path| -> Vec<(String, std::time::SystemTime)> {
        files(out).into_iter().map(|f| (f.clone(), fs::metadata(out.join(&f)).unwrap().modified().unwrap())).collect()
    };
    let before = stamps(out);

    let again = exports.export();
    assert_eq!((again.written, again.rendered, again.removed), (0, 0, 0), "{}", again.line(out));
    assert_eq!(again.files(), first.files());
    assert_eq!((&again.problems, &again.left_out), (&first.problems, &first.left_out));
    assert_eq!(stamps(out), before, "nothing written");

    fs::write(out.join("index.html"), "changed by hand\n").unwrap();
    let mended = exports.export();
    assert_eq!((mended.written, mended.rendered), (1, 1), "{}", mended.line(out));
    exports.assert_first_export("a page changed by hand");

    let records: Vec<String> = files(cache).into_iter().filter(|f| f.ends_with("last.bin")).collect();
    assert_eq!(records.len(), 1, "one record of the last export into one folder: {records:?}");
    fs::write(cache.join(&records[0]), b"not a record").unwrap();
    let after = exports.export();
    assert_eq!((after.written, after.rendered), (0, 0), "{}", after.line(out));
    assert_eq!(after.problems, first.problems);
    exports.assert_first_export("the last export's record damaged");
}

/// What was read from each post, kept in the cache, damaged (every shard
/// cut short, or its records' tails overwritten): the posts are read again
/// and the site after an edit is the first export of the blog as it is.
#[test]
fn damaged_records_of_the_posts_read_are_read_again() {
    let exports = Exports::new();
    exports.export();
    std::thread::sleep(Duration::from_millis(2100));
    let shards: Vec<String> = files(&exports.cache).into_iter().filter(|f| f.starts_with("posts/")).collect();
    assert!(!shards.is_empty(), "{:?}", files(&exports.cache));
    for (n, shard) in shards.iter().enumerate() {
        let path = exports.cache.join(shard);
        let mut bytes = fs::read(&path).unwrap();
        match n % 2 {
            0 => bytes.truncate(bytes.len() / 2),
            _ => bytes.iter_mut().rev().take(8).for_each(|b| *b = 0xff),
        }
        fs::write(&path, bytes).unwrap();
    }
    let post = exports.post("post-3.md");
    fs::write(&post, fs::read_to_string(&post).unwrap().replace("title: \"", "title: \"New: ")).unwrap();
    exports.export();
    exports.assert_first_export("a title edited");
}

/// A photo a post shows, changed in place (another width), then the image
/// settings changed, then the photo no longer shown, then shown again: each
/// export from what was kept is the cold export of the blog as it is (the
/// post's `<picture>` follows the photo, its copies are written, kept or
/// removed as a cold export has them), and an unchanged one renders nothing.
#[test]
fn a_photo_and_the_image_settings_changed_are_exported_as_a_first_export_would() {
    let blog = tempfile::tempdir().unwrap();
    let places = tempfile::tempdir().unwrap();
    let (out, cache) = (places.path().join("site"), places.path().join("cache"));
    first_blog(blog.path());
    let photo = blog.path().join("static/images/wide.png");
    fs::create_dir_all(photo.parent().unwrap()).unwrap();
    fs::write(&photo, crate::images::png(1300, 650)).unwrap();
    let post = blog.path().join("posts/post-1.md");
    let text = fs::read_to_string(&post).unwrap();
    fs::write(&post, format!("{text}\n![a photo](/images/wide.png)\n")).unwrap();
    export(blog.path(), &out, Some(&cache));
    let same_as_cold = |step: &str| {
        let cold_out = places.path().join(format!("cold-{step}"));
        export(blog.path(), &cold_out, None);
        assert_eq!(site(&out), site(&cold_out), "after {step}");
        site(&out).into_iter().map(|(file, _)| file).filter(|f| f.contains("wide.png-")).collect::<Vec<_>>()
    };
    let unchanged = export(blog.path(), &out, Some(&cache));
    assert_eq!((unchanged.rendered, unchanged.written), (0, 0), "{}", unchanged.line(&out));
    let wide = same_as_cold("an unchanged export");
    assert!(wide.iter().any(|f| f.ends_with("wide.png-1200w.webp")), "{wide:?}");

    fs::write(&photo, crate::images::png(700, 350)).unwrap();
    export(blog.path(), &out, Some(&cache));
    let narrow = same_as_cold("the photo made narrower");
    assert!(!narrow.iter().any(|f| f.contains("-1200w")) && !narrow.is_empty(), "{narrow:?}");

    let settings = fs::read_to_string(blog.path().join("hanji.toml")).unwrap();
    fs::write(blog.path().join("hanji.toml"), settings + "[images]\nwidths = [320]\n").unwrap();
    export(blog.path(), &out, Some(&cache));
    let few = same_as_cold("other widths");
    assert!(few.iter().all(|f| f.contains("-320w") || f.contains("-700w")), "{few:?}");

    fs::write(&post, &text).unwrap();
    export(blog.path(), &out, Some(&cache));
    assert_eq!(same_as_cold("the photo no longer shown"), Vec::<String>::new());

    fs::write(&post, format!("{text}\n![a photo](/images/wide.png)\n")).unwrap();
    export(blog.path(), &out, Some(&cache));
    assert_eq!(same_as_cold("the photo shown again"), few);
}

/// The search index kept in the cache is trusted only while the site's
/// files of it are as the last export left them: one removed, one changed
/// by hand, the next export (after an edit) makes them as a first export
/// would.
#[test]
fn the_search_files_of_a_touched_site_are_made_again() {
    let exports = Exports::new();
    exports.export();
    let group = exports.out.join("search/posts/0.js");
    assert!(group.is_file() && exports.out.join("search/index.js").is_file());
    fs::remove_file(&group).unwrap();
    fs::write(exports.out.join("search/index.js"), "hanjiSearch.index({});\n").unwrap();
    let post = exports.post("post-1.md");
    fs::write(&post, fs::read_to_string(&post).unwrap() + "\n새 문단, a new paragraph.\n").unwrap();
    exports.export();
    exports.assert_first_export("the search's files touched");
}

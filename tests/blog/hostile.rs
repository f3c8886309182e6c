//! A hostile blog: files made to break a loader, a parser, a renderer or a
//! template (issue 6, "Never lose a word"). Each bad file is named with its
//! line and what to do, the good posts beside them still load, count and
//! export, and nothing panics, overflows its stack, hangs or eats memory.
//!
//! `tests/fixtures/hostile/` holds the small text cases; [`hostile`] adds what
//! git cannot hold or should not: big files, deep nesting, bytes that are not
//! UTF-8, odd file names, symlinks, a pipe. Unreadable files have a test of
//! their own, run as an unprivileged user when the tests run as root.
//!
//! The `hanji` runs here are bounded: one that has not finished after
//! [`DEADLINE`] is killed and fails the test (a guard against hangs, not a
//! timing assertion), and its peak memory must stay under [`MAX_MEMORY_KB`].

use std::fs::{self, File};
use std::io::Read as _;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use hanji::Theme;
use hanji::post_preview;

use crate::{BlogTest, Run, p, read};

/// Long enough for a debug build on a busy two-core machine running the
/// tests in parallel (the slowest run here takes about 25 s); only a hang gets there.
const DEADLINE: Duration = Duration::from_secs(120);

/// 2 GiB: many times what the hostile blog needs (about 250 MB).
const MAX_MEMORY_KB: u64 = 2 * 1024 * 1024;

/// Lines for the post files the tests write.
fn front_matter(title: &str) -> String {
    format!("---\ntitle: {title}\ndate: 2026-07-10\n---\n\n")
}

/// The hostile fixture with the cases git cannot hold, and `outside`: a
/// folder beside the blog that its symlinks lead to.
fn hostile() -> (BlogTest, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.md"), format!("{}SECRET-POST\n", front_matter("Secret"))).unwrap();
    fs::write(outside.path().join("secret.txt"), "SECRET-FILE\n").unwrap();
    fs::write(outside.path().join("base.html"), "SECRET-TEMPLATE {{ page.title }}\n").unwrap();
    let away = |name: &str| outside.path().join(name).to_str().unwrap().to_string();

    let mut deep_yaml = "---\ntitle: Deep YAML\nnested: ".to_string();
    deep_yaml.push_str(&"[".repeat(10_000));
    deep_yaml.push_str(&"]".repeat(10_000));
    deep_yaml.push_str("\n---\n\nThe front matter nests 10,000 lists.\n");

    // One line of prose and inline markup, 5,000,000 bytes: under the 5 MiB limit.
    let mut line = "lorem *ipsum* dolor `sit` amet **consectetur** ".repeat(110_000);
    line.truncate(5_000_000 - front_matter("One line").len() - 1);
    let one_line = format!("{}{line}\n", front_matter("One line"));
    assert!(one_line.len() <= 5_000_000);

    let blog = BlogTest::fixture("hostile")
        .write("posts/deep-quotes.md", format!("{}{}deep\n", front_matter("Deep quotes"), "> ".repeat(10_000)))
        .write("posts/deep-lists.md", format!("{}{}deep\n", front_matter("Deep lists"), "- ".repeat(10_000)))
        .write("posts/deep-mixed.md", format!("{}{}deep\n", front_matter("Deep mixed"), "> - 1. ".repeat(3_400)))
        .write(
            "posts/deep-inline.md",
            format!(
                "{}{}x{}\n\n{}x{}\n\n{}\n",
                front_matter("Deep inline"),
                "*".repeat(10_000),
                "*".repeat(10_000),
                "[".repeat(10_000),
                "]".repeat(10_000),
                "<b>".repeat(10_000)
            ),
        )
        .write("posts/deep-yaml.md", deep_yaml)
        .write("posts/fifty.md", format!("{}{}", front_matter("Fifty"), "word ".repeat(10 * 1024 * 1024)))
        .write("posts/one-line.md", one_line)
        .write("posts/nul-body.md", format!("{}a\0b\n\n# \0\n\n`\0` [\0](\0)\n", front_matter("NUL in the body")))
        .write("posts/nul-front.md", "---\ntitle: NUL\0here\ndate: 2026-07-10\n---\n\nbody\n")
        .write("posts/latin1-front.md", b"---\ntitle: Caf\xe9\ndate: 2026-07-10\n---\n\nbody\n")
        .write("posts/cut-utf8.md", [front_matter("Cut").as_bytes(), &"end 한".as_bytes()[..6]].concat())
        .write("posts/utf16.md", utf16("\u{feff}---\ntitle: Sixteen\n---\n\nbody\n"))
        .write("posts/long-title.md", format!("---\ntitle: {}\ndate: 2026-07-10\n---\n\nbody\n", "T".repeat(100_000)))
        .write("posts/with space.md", format!("{}A name with a space.\n", front_matter("With space")))
        .write("posts/한글 제목.md", format!("{}이름이 한글입니다.\n", front_matter("Korean name")))
        .write("posts/-rf.md", format!("{}A name that looks like an option.\n", front_matter("Dash")))
        .write(
            "posts/new\nline.md",
            "---\ntitle: Newline\ndate: 17/07/2026\ntags: [survivor]\n---\n\nA newline in the name.\n",
        )
        .symlink("posts/outside.md", &away("secret.md"))
        .symlink("posts/outside-dir", outside.path().to_str().unwrap())
        .symlink("posts/zero.md", "/dev/zero")
        .symlink("static/secret.txt", &away("secret.txt"))
        .symlink("templates/base.html", &away("base.html"))
        .symlink("posts/loop-a.md", "loop-b.md")
        .symlink("posts/loop-b.md", "loop-a.md");
    // A name that is not UTF-8 at all.
    let odd: &std::ffi::OsStr = std::os::unix::ffi::OsStrExt::from_bytes(b"posts/\xff\xfe.md");
    fs::write(blog.path().join(odd), format!("{}Its name is not UTF-8.\n", front_matter("Bad name"))).unwrap();
    // A pipe: reading it would wait forever for a writer.
    let fifo = Command::new("mkfifo").arg(blog.path().join("posts/pipe.md")).status().unwrap();
    assert!(fifo.success(), "mkfifo failed");
    (blog, outside)
}

fn utf16(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// How a bounded run measures memory: GNU time's `%M`, else a `ulimit -v`
/// that makes a run over the bound fail.
enum Meter {
    Time,
    Ulimit,
}

fn meter() -> Meter {
    if Path::new("/usr/bin/time").exists() {
        Meter::Time
    } else if Command::new("sh").args(["-c", "ulimit -v 1000000"]).status().is_ok_and(|s| s.success()) {
        Meter::Ulimit
    } else {
        panic!("cannot bound memory: neither /usr/bin/time nor `ulimit -v` in sh is available");
    }
}

/// Runs `hanji ARGS… .` in `dir` like `BlogTest::hanji`, within [`DEADLINE`]
/// and [`MAX_MEMORY_KB`]; `prefix` runs it through another command first
/// (`setpriv …`). Fails on a hang, a panic, a crash or too much memory.
fn bounded(dir: &Path, prefix: &[&str], args: &[&str]) -> Run {
    let logs = tempfile::tempdir().unwrap();
    let (out, err, rss) = (logs.path().join("out"), logs.path().join("err"), logs.path().join("rss"));
    let hanji = env!("CARGO_BIN_EXE_hanji");
    let mut command = match meter() {
        Meter::Time => {
            let mut command = Command::new("/usr/bin/time");
            command.args(["-f", "%M", "-o"]).arg(&rss).args(prefix).arg(hanji);
            command
        }
        Meter::Ulimit => {
            let mut command = Command::new("sh");
            let limit = format!("ulimit -v {MAX_MEMORY_KB} && exec \"$@\"");
            command.args(["-c", &limit, "sh"]).args(prefix).arg(hanji);
            command
        }
    };
    command.args(args).arg(".").current_dir(dir).env("HANJI_CACHE_DIR", logs.path().join("cache"));
    command.stdout(File::create(&out).unwrap()).stderr(File::create(&err).unwrap()).stdin(Stdio::null());
    // Its own process group, so that a hang is killed with all it started.
    command.process_group(0);
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.wait();
            panic!("`hanji {}` did not finish in {DEADLINE:?}: killed", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = Run(Output { status, stdout: fs::read(&out).unwrap(), stderr: fs::read(&err).unwrap() });
    let stderr = String::from_utf8_lossy(&run.0.stderr);
    assert!(!stderr.contains("panicked"), "`hanji {}` panicked:\n{stderr}", args.join(" "));
    assert!(!stderr.contains("overflowed its stack"), "`hanji {}` overflowed:\n{stderr}", args.join(" "));
    if let Ok(report) = fs::read_to_string(&rss) {
        // GNU time writes "Command terminated by signal N" before the figure.
        assert!(!report.contains("signal"), "`hanji {}` was killed: {report}\n{stderr}", args.join(" "));
        let kb: u64 = report.lines().last().and_then(|l| l.trim().parse().ok()).unwrap_or_else(|| {
            panic!("no peak memory figure from /usr/bin/time: {report:?}");
        });
        assert!(kb < MAX_MEMORY_KB, "`hanji {}` peaked at {kb} KB", args.join(" "));
    }
    assert_eq!(
        run.0.status.code(),
        Some(1),
        "`hanji {}` should fail with 1 (not crash):\n{stderr}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&run.0.stdout).chars().take(4000).collect::<String>()
    );
    run
}

/// The problem line starting with `prefix`, with its hint; the lines of a
/// run can be long (a 100 KB title), so the output is not repeated on failure.
fn problem(run: &Run, prefix: &str) -> (String, String) {
    let stdout = String::from_utf8_lossy(&run.0.stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    let Some(index) = lines.iter().position(|l| l.starts_with(prefix)) else {
        let shown: Vec<String> = lines.iter().map(|l| l.chars().take(160).collect()).collect();
        panic!("no line starts with {prefix:?} in:\n{}", shown.join("\n"));
    };
    (lines[index].to_string(), lines.get(index + 1).map_or(String::new(), |h| h.to_string()))
}

#[test]
fn check_names_every_hostile_file_and_fails() {
    let (blog, _outside) = hostile();
    let run = bounded(blog.path(), &[], &["check"]);

    // Front matter: malformed, truncated, an alias bomb, nested 10,000 deep.
    let (line, hint) = problem(&run, "posts/malformed.md:3:");
    assert!(line.contains(": error: YAML: mapping values are not allowed"), "{line}");
    assert!(hint.contains("quotes"), "{hint}");
    let (line, hint) = problem(&run, "posts/truncated-quote.md:");
    assert!(line.contains(": error: YAML:") && line.contains("quote"), "{line}");
    assert!(hint.contains("close the quote"), "{hint}");
    let (_, hint) = problem(&run, "posts/truncated.md:1:1: error: the front matter opened by `---` is never closed");
    assert!(hint.contains("closing `---`"), "{hint}");
    let (_, hint) =
        problem(&run, "posts/truncated-toml.md:1:1: error: the front matter opened by `+++` is never closed");
    assert!(hint.contains("closing `+++`"), "{hint}");
    for (file, at) in [("alias-bomb", "posts/alias-bomb.md:"), ("deep-yaml", "posts/deep-yaml.md:3:")] {
        let (line, hint) = problem(&run, at);
        assert!(line.contains(": error: the front matter is too big or too deeply nested to read"), "{file}: {line}");
        assert!(hint.contains("alias") && hint.contains("nesting"), "{hint}");
    }
    let (line, _) = problem(&run, "posts/alias-bomb.md:");
    let at: usize = line.split(':').nth(1).unwrap().parse().unwrap();
    assert!((3..=12).contains(&at), "the bomb is in lines 3-12: {line}");

    // Size: 50 MB refused; the 5 MB line is a post like another.
    problem(&run, "posts/fifty.md:1:1: error: file is 52.4 MB; posts over 5 MB are not read");
    // Bytes: NUL, Latin-1, a cut UTF-8 sequence, UTF-16.
    let (_, hint) = problem(&run, "posts/nul-front.md:2:11: error: YAML: unexpected character");
    assert!(hint.contains("NUL"), "{hint}");
    problem(&run, "posts/latin1-front.md:2:11: error: file is not UTF-8 text");
    problem(&run, "posts/cut-utf8.md:6:5: error: file is not UTF-8 text");
    let (_, hint) = problem(&run, "posts/utf16.md:1:1: error: file is not UTF-8 text");
    assert!(hint.contains("UTF-16"), "{hint}");
    // A newline in a name is shown escaped, so each problem keeps to its line.
    problem(&run, "posts/new\\nline.md:3:1: error: `date` is not a date: `17/07/2026`");
    // Symlinks: out of the blog (posts, a folder, a device, a static file, a
    // template) are skipped with a warning; a loop is an error.
    for link in ["posts/outside.md", "posts/outside-dir", "posts/zero.md", "static/secret.txt", "templates/base.html"] {
        let (_, hint) = problem(&run, &format!("{link}:1:1: warning: symlink leads outside the blog folder, to `"));
        assert!(hint.contains("copy"), "{hint}");
    }
    for link in ["posts/loop-a.md", "posts/loop-b.md"] {
        let (line, hint) = problem(&run, &format!("{link}:1:1: error: cannot read:"));
        assert!(line.contains("symbolic links"), "{line}");
        assert!(hint.contains("symlink leads nowhere or round in a loop"), "{hint}");
    }
    // Two posts with one slug, from a file name and a bundle's folder.
    problem(&run, "posts/twin.md:1:1: error: slug `twin` is also the slug of `posts/twin/index.md`");
    problem(&run, "posts/twin/index.md:1:1: error: slug `twin` is also the slug of `posts/twin.md`");
    let (_, hint) = problem(&run, "posts/long-title.md:2:1: warning: title is 100000 characters long");
    assert!(hint.contains("shorten"), "{hint}");

    // Nothing about the good posts, the deep ones, or the odd but fine names.
    let stdout = String::from_utf8_lossy(&run.0.stdout).into_owned();
    for quiet in
        ["good-", "deep-quotes", "deep-lists", "deep-mixed", "deep-inline", "one-line", "nul-body", "with space"]
    {
        assert!(!stdout.lines().any(|l| l.contains(quiet)), "{quiet} has problems");
    }
    for fine in ["한글 제목", "-rf", "pipe", "SECRET"] {
        assert!(!stdout.contains(fine), "{fine} is mentioned");
    }
    // Every problem line has its hint.
    let lines: Vec<&str> = stdout.lines().collect();
    for (i, line) in lines.iter().enumerate().filter(|(_, l)| !l.starts_with("  hint: ")) {
        assert!(lines.get(i + 1).is_some_and(|h| h.starts_with("  hint: ")), "no hint after {line}");
    }
}

#[test]
fn the_good_posts_and_their_tags_survive() {
    let (blog, _outside) = hostile();
    let loaded = blog.load();
    for good in ["good-one", "good-two", "good-three", "deep-quotes", "deep-lists", "one-line", "nul-body", "-rf"] {
        let post = loaded.library.post(&p(&format!("posts/{good}.md"))).unwrap_or_else(|| panic!("{good}"));
        assert!(!post.has_errors, "{good}");
    }
    assert!(loaded.library.post(&p("posts/with space.md")).is_some_and(|post| post.slug == "with-space"));
    assert!(loaded.library.post(&p("posts/한글 제목.md")).is_some_and(|post| post.slug == "한글-제목"));
    for gone in ["posts/fifty.md", "posts/pipe.md", "posts/outside.md", "posts/outside-dir/secret.md", "posts/zero.md"]
    {
        assert!(loaded.library.post(&p(gone)).is_none(), "{gone} is a post");
    }
    assert!(!loaded.assets.contains(&p("static/secret.txt")));
    assert!(!loaded.templates.contains_key("base.html"), "a template out of the blog is read");
    let long = loaded.library.post(&p("posts/long-title.md")).unwrap();
    assert_eq!(long.title.len(), 100_000);

    // `Rust`, `rust` and `RUST` are one tag, and so are `survivor` and
    // `Survivor`; the post with an error (`new\nline.md`) is not counted.
    let run = blog.hanji(&["tags"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(run.lines(), ["rust (3)", "survivor (3)"]);
}

#[test]
fn export_writes_the_good_posts_and_leaves_the_bad_out() {
    let (blog, _outside) = hostile();
    let site = tempfile::tempdir().unwrap();
    let out = site.path().join("site");
    let run = bounded(blog.path(), &[], &["export", "--quiet", "--out", out.to_str().unwrap()]);
    let stderr = run.stderr();
    assert!(stderr.contains("left out: posts/twin.md (it has errors)"), "{stderr}");

    for page in [
        "index.html",
        "posts/good-one/index.html",
        "posts/good-two/index.html",
        "posts/good-three/index.html",
        "posts/deep-quotes/index.html",
        "posts/deep-lists/index.html",
        "posts/deep-mixed/index.html",
        "posts/deep-inline/index.html",
        "posts/one-line/index.html",
        "posts/nul-body/index.html",
        "posts/long-title/index.html",
        "posts/with-space/index.html",
        "posts/한글-제목/index.html",
        "posts/-rf/index.html",
        "tags/index.html",
        "tags/survivor/index.html",
        "tags/rust/index.html",
        "feed.xml",
        "hello.txt",
    ] {
        assert!(out.join(page).is_file(), "{page} was not written");
    }
    for absent in [
        "posts/malformed",
        "posts/alias-bomb",
        "posts/deep-yaml",
        "posts/fifty",
        "posts/nul-front",
        "posts/twin",
        "posts/endless",
        "posts/outside",
        "posts/secret",
        "posts/outside-dir",
        "secret.txt",
    ] {
        assert!(!out.join(absent).exists(), "{absent} was written");
    }
    // The rest of the site is whole: the tag page lists the three survivors,
    // and nothing from outside the blog is anywhere in it.
    let tag = read(out.join("tags/survivor/index.html"));
    for title in ["Good one", "Good two", "Good three"] {
        assert!(tag.contains(title), "{title} is not on the tag page");
    }
    assert!(!tag.contains("Newline"), "a post with an error is listed");
    let deep = read(out.join("posts/deep-quotes/index.html"));
    assert_eq!(deep.matches("<blockquote").count(), 10_000);
    let nul = read(out.join("posts/nul-body/index.html"));
    assert!(!nul.contains('\0') && nul.contains('\u{FFFD}'));
    for file in crate::files(&out) {
        let bytes = fs::read(out.join(&file)).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("SECRET"), "{file} has a secret");
    }

    // The endless template is stopped and named; the pages it was not asked for are written.
    let (_, hint) = problem(&run, "templates/endless.html:");
    assert!(hint.contains("fix the template"), "{hint}");
    let stdout = run.stdout();
    assert!(
        stdout.contains("template ran too long or made too much text (an endless loop?) and was stopped"),
        "{}",
        &stdout[..2000]
    );
    problem(&run, "posts/fifty.md:1:1: error: file is 52.4 MB");
    problem(&run, "posts/alias-bomb.md:");
}

#[test]
fn previews_of_hostile_posts_return_with_their_problems() {
    let (blog, _outside) = hostile();
    let loaded = blog.load();
    let (theme, _) = Theme::new(&loaded.templates);
    let mut previewed = 0;
    for entry in fs::read_dir(blog.path().join("posts")).unwrap() {
        let entry = entry.unwrap();
        let path = PathBuf::from("posts").join(entry.file_name());
        // The app previews the text in its editor: a file it could open as text.
        let Ok(meta) = fs::metadata(entry.path()) else { continue };
        if !meta.is_file() || fs::symlink_metadata(entry.path()).unwrap().file_type().is_symlink() {
            continue;
        }
        let mut bytes = Vec::new();
        File::open(entry.path()).unwrap().read_to_end(&mut bytes).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let started = Instant::now();
        let preview = post_preview(&loaded, &theme, None, &path, &text);
        assert!(started.elapsed() < DEADLINE, "{} took {:?}", path.display(), started.elapsed());
        let doctype = preview.html.trim_start().get(..15).is_some_and(|s| s.eq_ignore_ascii_case("<!doctype html>"));
        assert!(doctype, "{}: {}", path.display(), preview.html.chars().take(200).collect::<String>());
        previewed += 1;

        let has = |words: &str| preview.problems.iter().any(|d| d.path == path && d.message.contains(words));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match name.as_str() {
            "good-one.md" | "good-two.md" | "good-three.md" | "deep-quotes.md" | "deep-lists.md" | "nul-body.md" => {
                assert!(preview.problems.is_empty(), "{name}: {:?}", preview.problems)
            }
            "malformed.md" => assert!(has("mapping values are not allowed")),
            "alias-bomb.md" | "deep-yaml.md" => assert!(has("too big or too deeply nested"), "{name}"),
            "truncated.md" | "truncated-toml.md" => assert!(has("is never closed"), "{name}"),
            "fifty.md" => assert!(has("posts over 5 MB are not read"), "{:?}", preview.problems),
            "long-title.md" => assert!(has("title is 100000 characters long")),
            "endless.md" => {
                let stopped = preview
                    .problems
                    .iter()
                    .any(|d| d.path == p("templates/endless.html") && d.message.contains("template ran too long"));
                assert!(stopped, "{:?}", preview.problems);
            }
            "one-line.md" => assert!(preview.words > 500_000, "{}", preview.words),
            _ => {}
        }
        // A post with an error shows its problems instead of the page.
        if preview.problems.iter().any(|d| d.is_error() && d.path == path) {
            assert!(preview.html.contains("has errors"), "{name}");
        }
    }
    assert!(previewed >= 25, "only {previewed} posts previewed");
}

/// Makes `path` unreadable; false if that has no effect (the tests run as root).
fn lock(path: &Path) -> bool {
    fs::set_permissions(path, fs::Permissions::from_mode(0o000)).unwrap();
    File::open(path).is_err() || path.is_dir() && fs::read_dir(path).is_err()
}

#[test]
fn unreadable_files_are_named_and_the_rest_is_exported() {
    let blog = BlogTest::fixture("hostile")
        .write("posts/locked.md", format!("{}locked\n", front_matter("Locked")))
        .write("posts/locked-folder/inside.md", format!("{}inside\n", front_matter("Inside")))
        .write("static/locked.png", "not really a picture")
        .write("static/open.png", "not really a picture either")
        .write("templates/locked.html", "{{ page.title }}");
    let site = tempfile::tempdir().unwrap();
    // Everyone may pass through, so an unprivileged user can run in it.
    for folder in [blog.path(), site.path()] {
        fs::set_permissions(folder, fs::Permissions::from_mode(0o777)).unwrap();
    }
    let locked = ["posts/locked.md", "static/locked.png", "templates/locked.html", "posts/locked-folder"];
    let effective = locked.iter().map(|file| lock(&blog.path().join(file))).collect::<Vec<_>>();
    // Root reads anything: then hanji runs as `nobody`, for whom the locks hold.
    let prefix: &[&str] = if effective.iter().all(|&locked| locked) {
        &[]
    } else {
        assert!(
            Path::new("/usr/bin/setpriv").exists(),
            "running as root, and without setpriv to run hanji as another user: unreadable files cannot be tested"
        );
        &["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    };

    let run = bounded(blog.path(), prefix, &["check"]);
    let (_, hint) = problem(&run, "posts/locked.md:1:1: error: cannot read: Permission denied");
    assert!(hint.contains("chmod u+r"), "{hint}");
    problem(&run, "posts/locked-folder:1:1: error: cannot read: Permission denied");
    let (_, hint) = problem(&run, "static/locked.png:1:1: error: cannot read: Permission denied");
    assert!(hint.contains("chmod u+r"), "{hint}");
    let (_, hint) = problem(&run, "templates/locked.html:1:1: error: cannot read the template: Permission denied");
    assert!(hint.contains("chmod u+r"), "{hint}");

    let out = site.path().join("site");
    let run = bounded(blog.path(), prefix, &["export", "--quiet", "--out", out.to_str().unwrap()]);
    problem(&run, "static/locked.png:1:1: error: cannot read: Permission denied");
    for page in ["posts/good-one/index.html", "posts/good-two/index.html", "tags/survivor/index.html", "open.png"] {
        assert!(out.join(page).is_file(), "{page} was not written:\n{}", run.stderr());
    }
    assert!(!out.join("locked.png").exists() && !out.join("posts/locked").exists());
    // So that the temp folder can be removed by a user who is not root.
    for file in locked {
        fs::set_permissions(blog.path().join(file), fs::Permissions::from_mode(0o755)).unwrap();
    }
}

//! The app as people install it: `make package-test` installs the `.deb`
//! that `make package` made (the release build) and names the installed
//! binary in `HANJI_INSTALLED_APP`. These tests start that binary, not the
//! one this build made: the blog opens, the command line in the same package
//! reads it, and the figures a user feels (launch on a 10,000-post blog,
//! memory, keystroke to preview) are measured on the build users run.

use super::*;

/// The installed app (`HANJI_INSTALLED_APP`), which must not be this build's.
fn installed_app() -> PathBuf {
    let app =
        std::env::var_os("HANJI_INSTALLED_APP").map(PathBuf::from).expect("HANJI_INSTALLED_APP (make package-test)");
    assert!(app.is_absolute() && app.is_file(), "the installed app at {}", app.display());
    assert!(
        !app.starts_with(Path::new(env!("CARGO_BIN_EXE_hanji-app")).parent().unwrap()),
        "installed, not built here"
    );
    app
}

/// Settings for a measuring run: the window in English, and autosave off so
/// the keys typed never reach the blog.
fn measuring_config(dir: &Path) -> PathBuf {
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let settings = json!({ "settings": { "autosave": false, "language": "en" } });
    std::fs::write(config.join("hanji-app.json"), settings.to_string()).unwrap();
    config
}

/// Started on a copy of the sample blog named on its command line (an
/// installed app has no sample of its own), the installed app shows the
/// blog's tags and its window is named for the blog; the `hanji` command
/// installed beside it lists the same tags; and a keystroke's time to the
/// preview of a 10 KB post is written to `preview-latency-release.txt`.
#[test]
#[ignore = "needs the .deb installed: run with `make package-test`"]
fn the_installed_app_opens_a_blog() {
    let app = installed_app();
    let temp = tempfile::tempdir().unwrap();
    let blog = temp.path().join("blog");
    copy(Path::new(SAMPLE), &blog);

    let cli = app.with_file_name("hanji");
    let tags = Command::new(&cli).arg("tags").arg(&blog).output().unwrap_or_else(|e| panic!("{}: {e}", cli.display()));
    let listed = String::from_utf8_lossy(&tags.stdout);
    assert!(tags.status.success(), "{}: {}", cli.display(), String::from_utf8_lossy(&tags.stderr));
    assert!(listed.lines().any(|l| l == "nccl (5)"), "the installed hanji's tags:\n{listed}");

    let config = measuring_config(temp.path());
    let (_processes, driver) =
        start_app(&app, &blog, &config, &temp.path().join("site"), &temp.path().join("browser.sh"));
    let session = driver.session();
    let _shot = Shot(&session);
    the_sidebar_shows_tag_counts(&session);
    // The window is named for the blog it opened.
    let title = hanji::load(&blog).unwrap().config.title;
    assert_eq!(session.script("return document.title", json!([])), json!(title));
    session.open_post("posts/rdma-complete-guide.md");
    wait("the post in the preview", Duration::from_secs(20), || {
        session.preview_text().filter(|t| t.contains("InfiniBand")).map(|_| ())
    });
    // The window as a user first sees a post, for the README (`installed-app.png`).
    let screenshot = session.screenshot.with_file_name("installed-app.png");
    let shot = Session { base: session.base.clone(), agent: session.agent.clone(), screenshot };
    shot.save_screenshot();
    keystroke_to_preview(&session, "preview-latency-release.txt");
}

/// The 10,000-post corpus of the benchmarks (`bench/gen_corpus.py`),
/// generated once into the build folder (the app only reads it).
fn big_blog() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the build folder").to_path_buf();
    let dir = target.join("bench-corpus/c10000");
    if !dir.join("posts").is_dir() {
        let status = Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/gen_corpus.py"))
            .args(["--posts", "10000", "--seed", "1", "--format", "yaml", "--out"])
            .arg(&dir)
            .stdout(Stdio::null())
            .status()
            .expect("python3 runs bench/gen_corpus.py");
        assert!(status.success(), "gen_corpus.py failed");
    }
    dir
}

/// The installed app opened on a 10,000-post blog, as a new user would: the
/// time from launch to its list of posts and to its tag counts, and the
/// memory the app and its web process hold then, are written to
/// `target/tmp/e2e/big-blog.txt`, and the keystroke's time to the preview
/// in one of its posts to `preview-latency-big-blog.txt`. Asserted: only
/// what cannot be flaky (the list and tags appear, the count of posts is the
/// blog's, the list scrolls to its last post); the figures are measurements.
#[test]
#[ignore = "needs the .deb installed: run with `make package-test`"]
fn the_installed_app_opens_a_big_blog_at_once() {
    let app = installed_app();
    let blog = big_blog();
    let library = hanji::load(&blog).unwrap().library;
    assert_eq!(library.len(), 10_000);
    let last = library.posts().last().unwrap().path.to_string_lossy().into_owned();
    let top = &library.tags(true)[0];
    let top_tag = format!("{} ({})", top.name, top.count);

    let temp = tempfile::tempdir().unwrap();
    // Autosave off: the keys typed below never reach the corpus, which the benchmarks share.
    let config = measuring_config(temp.path());
    let browser = temp.path().join("browser.sh");
    let (_processes, driver) = start_app(&app, &blog, &config, &temp.path().join("site"), &browser);
    let launched = Instant::now();
    let session = driver.session();
    let _shot = Shot(&session);
    let first_row = wait("the first post in the list", Duration::from_secs(60), || {
        session.try_find("[data-testid=post]").map(|_| launched.elapsed())
    });
    let tags = wait(&format!("`{top_tag}` in the sidebar"), Duration::from_secs(60), || {
        tag_seen(&session, &top_tag).map(|_| launched.elapsed())
    });
    let count = session.texts("[data-testid=post-count]");
    assert_eq!(count, ["10,000 posts"], "the count of posts shown");
    let drawn = session.script("return document.querySelectorAll('[data-testid=post]').length", json!([]));
    assert!(drawn.as_u64().is_some_and(|n| n > 0 && n < 200), "only the rows in view are drawn: {drawn}");

    // Scrolled to its end, the list shows the blog's last (oldest) post.
    session.script(
        "const list = document.querySelector('[data-testid=post-list]'); list.scrollTop = list.scrollHeight",
        json!([]),
    );
    wait(&format!("the last post, {last}, at the end of the list"), Duration::from_secs(10), || {
        session.try_find(&format!("[data-testid=post][data-path=\"{last}\"]"))
    });

    std::thread::sleep(Duration::from_secs(2));
    let memory = Memory::of_app(&blog);
    // A keystroke costs what it costs in a small blog: measured as there.
    session.open_post(&last);
    keystroke_to_preview(&session, "preview-latency-big-blog.txt");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let line = format!(
        "10,000-post blog, launch to the first post listed {:.2} s, to the tag counts {:.2} s; \
         after load the app holds {} (load average {})",
        first_row.as_secs_f64(),
        tags.as_secs_f64(),
        memory,
        load.split_whitespace().next().unwrap_or("?"),
    );
    eprintln!("{line}");
    std::fs::create_dir_all(Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e")).unwrap();
    std::fs::write(Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e/big-blog.txt"), line + "\n").unwrap();
}

/// Resident memory of the app on a blog and of its WebKit web process, in MB.
struct Memory {
    app_rss: u64,
    web_rss: u64,
    app_pss: u64,
    web_pss: u64,
}

impl Memory {
    /// The app process started on `blog` (found by its command line) and the
    /// web processes it started.
    fn of_app(blog: &Path) -> Memory {
        let stat = |pid: &str| std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let parent = |pid: &str| {
            stat(pid).rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1).map(str::to_string))
        };
        let pids: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let app = pids
            .iter()
            .find(|pid| {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                let cmdline = String::from_utf8_lossy(&cmdline);
                cmdline.contains("hanji-app") && cmdline.contains(&*blog.to_string_lossy())
            })
            .expect("the app's process")
            .clone();
        let web: Vec<&String> = pids.iter().filter(|pid| parent(pid).as_deref() == Some(app.as_str())).collect();
        let field = |pid: &str, file: &str, key: &str| {
            let text = std::fs::read_to_string(format!("/proc/{pid}/{file}")).unwrap_or_default();
            text.lines()
                .find_map(|l| {
                    l.strip_prefix(key).map(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().unwrap_or(0))
                })
                .unwrap_or(0)
                / 1024
        };
        let sum = |pids: &[&String], file: &str, key: &str| pids.iter().map(|pid| field(pid, file, key)).sum();
        Memory {
            app_rss: field(&app, "status", "VmRSS:"),
            app_pss: field(&app, "smaps_rollup", "Pss:"),
            web_rss: sum(&web, "status", "VmRSS:"),
            web_pss: sum(&web, "smaps_rollup", "Pss:"),
        }
    }
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RSS {} MB (app {} MB, web process {} MB), PSS {} MB (app {} MB, web process {} MB)",
            self.app_rss + self.web_rss,
            self.app_rss,
            self.web_rss,
            self.app_pss + self.web_pss,
            self.app_pss,
            self.web_pss
        )
    }
}

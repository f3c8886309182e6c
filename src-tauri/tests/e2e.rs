//! End to end: the real app binary in its real WebKitGTK webview, driven
//! through tauri-driver and WebKitWebDriver under Xvfb, on a temp copy of the
//! sample blog opened from the command line. Run with `make e2e` (these tests
//! are ignored by a plain `cargo test`: they need the display and drivers that
//! `make e2e-deps` installs). The driver and Xvfb are ended by PID whatever
//! happens, and a screenshot of the window is saved at the end.

mod support;

#[path = "e2e/first_hour.rs"]
mod first_hour;
#[path = "e2e/installed.rs"]
mod installed;

#[path = "e2e/import.rs"]
mod import;

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};
use support::{SAMPLE, copy, files_under};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
const ENTER: &str = "\u{E007}";
const ESCAPE: &str = "\u{E00C}";
const CONTROL: &str = "\u{E009}";
const SHIFT: &str = "\u{E008}";
const TAB: &str = "\u{E004}";
const END: &str = "\u{E010}";

/// Xvfb and tauri-driver (which starts WebKitWebDriver, which starts the
/// app), ended by PID when dropped.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        // The driver first (it ends the app), then the display.
        for child in self.0.iter_mut().rev() {
            let _ = Command::new("kill").arg("--").arg(format!("-{}", child.id())).status();
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

struct Session {
    base: String,
    agent: ureq::Agent,
    screenshot: PathBuf,
}

impl Session {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_call(method, path, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// `call`, giving the driver's error rather than failing the test.
    fn try_call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, ureq::Error> {
        let url = format!("{}{path}", self.base);
        let response = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, body) => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
        };
        let value: Value = response?.body_mut().read_json()?;
        Ok(value["value"].clone())
    }

    fn try_find(&self, css: &str) -> Option<String> {
        let found = self.call("POST", "/elements", Some(json!({ "using": "css selector", "value": css })));
        let first = found.as_array()?.first()?;
        Some(first[ELEMENT].as_str().unwrap_or_else(|| panic!("finding `{css}`: {found}")).to_string())
    }

    fn find(&self, css: &str) -> String {
        wait(&format!("an element `{css}`"), Duration::from_secs(10), || self.try_find(css))
    }

    fn texts(&self, css: &str) -> Vec<String> {
        let script = "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent.trim())";
        let value = self.script(script, json!([css]));
        value.as_array().map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_string)).collect()).unwrap_or_default()
    }

    fn click(&self, element: &str) {
        self.call("POST", &format!("/element/{element}/click"), None);
    }

    fn type_keys(&self, element: &str, keys: &str) {
        self.call("POST", &format!("/element/{element}/value"), Some(json!({ "text": keys })));
    }

    fn script(&self, script: &str, args: Value) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
    }

    /// The whole text in the editor. CodeMirror draws only the lines in view,
    /// so the document is read from its view (found from the DOM as
    /// `EditorView.findFromDOM` does in @codemirror/view 6.43).
    fn editor_text(&self) -> String {
        let script = "const c = document.querySelector('.cm-content'); \
                      const v = c && c.cmTile && c.cmTile.root && c.cmTile.root.view; \
                      return v ? v.state.doc.toString() : ''";
        self.script(script, json!([])).as_str().unwrap_or_default().to_string()
    }

    /// The visible preview's text: WebDriver enters the sandboxed frame as
    /// the author's eyes would (the app itself cannot).
    fn preview_text(&self) -> Option<String> {
        let frame = self.try_find("iframe[data-testid=preview]")?;
        self.call("POST", "/frame", Some(json!({ "id": { ELEMENT: frame } })));
        let text = self.script("return document.body ? document.body.innerText : ''", json!([]));
        self.call("POST", "/frame/parent", None);
        text.as_str().map(str::to_string)
    }

    /// The first image `css` in the preview frame: the address it shows
    /// (the `srcset` candidate the webview chose) and its width once loaded.
    fn preview_image(&self, css: &str) -> Option<(String, u64)> {
        let script = "const f = document.querySelector('iframe[data-testid=preview]'); \
                      const i = f && f.contentDocument.querySelector(arguments[0]); \
                      return i && i.complete ? [i.currentSrc, i.naturalWidth] : null";
        let image = self.script(script, json!([css]));
        Some((image[0].as_str()?.to_string(), image[1].as_u64()?))
    }

    /// The editor's cursor line and the line at its top.
    fn editor_lines(&self) -> (u64, u64) {
        let script = "const v = document.querySelector('.cm-content').cmTile.root.view; \
                      const top = v.lineBlockAtHeight(Math.max(0, v.scrollDOM.getBoundingClientRect().top - v.documentTop)); \
                      return [v.state.doc.lineAt(v.state.selection.main.head).number, v.state.doc.lineAt(top.from).number]";
        let lines = self.script(script, json!([]));
        (lines[0].as_u64().unwrap_or(0), lines[1].as_u64().unwrap_or(0))
    }

    /// Where the first element `css` in the preview frame is, as (x, y) in the
    /// window, scrolled into the frame's view first.
    fn in_preview(&self, css: &str) -> Option<(f64, f64)> {
        let script = "const f = document.querySelector('iframe[data-testid=preview]'); \
                      const e = f.contentDocument.querySelector(arguments[0]); if (!e) return null; \
                      const r = e.getBoundingClientRect(); const o = f.getBoundingClientRect(); \
                      if (r.top < 0 || r.bottom > o.height) return null; \
                      return [o.left + r.left + Math.min(20, r.width / 2), o.top + r.top + Math.min(8, r.height / 2)]";
        let at = self.script(script, json!([css]));
        Some((at[0].as_f64()?, at[1].as_f64()?))
    }

    /// Moves the mouse to (x, y) and, if `click`, presses and releases it as
    /// a person does (a tenth of a second down).
    fn mouse(&self, (x, y): (f64, f64), click: bool) {
        let mut steps =
            vec![json!({ "type": "pointerMove", "x": x.round() as i64, "y": y.round() as i64, "origin": "viewport" })];
        if click {
            steps.push(json!({ "type": "pointerDown", "button": 0 }));
            steps.push(json!({ "type": "pause", "duration": 120 }));
            steps.push(json!({ "type": "pointerUp", "button": 0 }));
        }
        let actions = json!({ "actions": [{ "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" }, "actions": steps }] });
        self.call("POST", "/actions", Some(actions));
        self.call("DELETE", "/actions", None);
    }

    /// Puts the editor's cursor at the end of the first line holding `text`.
    fn cursor_after(&self, text: &str) {
        let script = "const v = document.querySelector('.cm-content').cmTile.root.view; \
                      const at = v.state.doc.toString().indexOf(arguments[0]); if (at < 0) return false; \
                      v.dispatch({ selection: { anchor: v.state.doc.lineAt(at).to } }); v.focus(); return true";
        assert_eq!(self.script(script, json!([text])), json!(true), "`{text}` in the editor");
    }

    /// The row of the post at `path`: the list draws only the rows in view,
    /// so it is scrolled a page at a time, from the top, until the row is there.
    fn post_row(&self, path: &str) -> String {
        let css = format!("[data-testid=post][data-path=\"{path}\"]");
        wait(&format!("the row of {path}"), Duration::from_secs(10), || {
            if let Some(row) = self.try_find(&css) {
                return Some(row);
            }
            let scroll = "const l = document.querySelector('[data-testid=post-list]'); if (!l) return false; \
                          if (l.scrollTop + l.clientHeight >= l.scrollHeight) { l.scrollTop = 0; return false; } \
                          l.scrollTop += l.clientHeight; return true";
            self.script(scroll, json!([]));
            None
        })
    }

    fn open_post(&self, path: &str) {
        let row = self.post_row(path);
        self.click(&row);
        // Open when the editor's header names it.
        wait(&format!("{path} in the editor"), Duration::from_secs(10), || {
            let shown = self.texts(".path");
            (shown.iter().any(|p| p == path) && !self.editor_text().is_empty()).then_some(())
        });
    }

    /// Saves what the window shows. Never fails the test: it runs as a
    /// failed test unwinds, and a second panic then would abort before the
    /// app, the driver and Xvfb are ended.
    fn save_screenshot(&self) {
        let shot = match self.try_call("GET", "/screenshot", None) {
            Ok(shot) => shot,
            Err(error) => return eprintln!("no screenshot: {error}"),
        };
        if let Some(png) = shot.as_str().and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok()) {
            let written = std::fs::create_dir_all(self.screenshot.parent().unwrap())
                .and_then(|()| std::fs::write(&self.screenshot, png));
            match written {
                Ok(()) => eprintln!("screenshot: {}", self.screenshot.display()),
                Err(error) => eprintln!("no screenshot: {}: {error}", self.screenshot.display()),
            }
        }
    }
}

/// Polls `check` until it gives a value; fails the test after `limit`.
fn wait<T>(what: &str, limit: Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(started.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn free_display() -> u32 {
    (90..200).find(|n| !Path::new(&format!("/tmp/.X{n}-lock")).exists()).expect("a free X display")
}

/// Starts Xvfb, tauri-driver and a session with the app built here on `blog`.
fn start(blog: &Path, config: &Path, dialog_answer: &Path, browser: &Path) -> (Processes, Driver) {
    start_app(Path::new(env!("CARGO_BIN_EXE_hanji-app")), blog, config, dialog_answer, browser)
}

/// Starts Xvfb, tauri-driver and a session with the app `application` on `blog`.
fn start_app(
    application: &Path,
    blog: &Path,
    config: &Path,
    dialog_answer: &Path,
    browser: &Path,
) -> (Processes, Driver) {
    let display = free_display();
    let mut processes = Processes(Vec::new());
    let xvfb = Command::new("Xvfb")
        .args([
            format!(":{display}"),
            "-screen".into(),
            "0".into(),
            "1440x900x24".into(),
            "-nolisten".into(),
            "tcp".into(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("Xvfb (make e2e-deps installs it)");
    processes.0.push(xvfb);
    wait("Xvfb", Duration::from_secs(10), || Path::new(&format!("/tmp/.X11-unix/X{display}")).exists().then_some(()));

    let (port, native) = (free_port(), free_port());
    let driver = Command::new("tauri-driver")
        .args(["--port", &port.to_string(), "--native-port", &native.to_string()])
        .env("DISPLAY", format!(":{display}"))
        .env("GSETTINGS_BACKEND", "memory")
        .env("NO_AT_BRIDGE", "1")
        .env("HANJI_CONFIG_DIR", config)
        .env("HANJI_CACHE_DIR", config.join("cache"))
        .env("HANJI_DIALOG_ANSWER", dialog_answer)
        // New blogs and the sample's copies go here, not to the user's documents.
        .env("HANJI_DOCUMENTS_DIR", config.join("documents"))
        // The time scheduled posts are judged by: early December 2026.
        .env("HANJI_NOW", NOW)
        // The "system browser": a script that writes down what it was asked to open.
        .env("BROWSER", browser)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
        .expect("tauri-driver (make e2e-deps installs it)");
    processes.0.push(driver);
    for p in [port, native] {
        wait(&format!("the driver on port {p}"), Duration::from_secs(20), || {
            TcpStream::connect(("127.0.0.1", p)).ok().map(|_| ())
        });
    }

    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(60)))
        .http_status_as_error(false)
        .build()
        .into();
    (processes, Driver { port, application: application.to_path_buf(), blog: blog.to_path_buf(), agent })
}

/// tauri-driver, ready for sessions: each starts the app on the blog.
struct Driver {
    port: u16,
    application: PathBuf,
    blog: PathBuf,
    agent: ureq::Agent,
}

impl Driver {
    fn session(&self) -> Session {
        self.session_with(std::slice::from_ref(&self.blog))
    }

    /// A session with the app started with `args` (none: no blog named).
    fn session_with(&self, args: &[PathBuf]) -> Session {
        let capabilities = json!({ "capabilities": { "alwaysMatch": { "tauri:options": {
            "application": self.application,
            "args": args,
        } } } });
        let url = format!("http://127.0.0.1:{}/session", self.port);
        let mut response = self.agent.post(&url).send_json(capabilities).expect("a session");
        let value: Value = response.body_mut().read_json().unwrap();
        let id = value["value"]["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {value}")).to_string();
        let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e/main-window.png");
        Session { base: format!("{url}/{id}"), agent: self.agent.clone(), screenshot }
    }
}

/// Saves what the window shows now as the PNG `file`.
fn painted_shot(session: &Session, file: &Path) {
    // WebKitWebDriver takes the shot after the window's next paint: a window
    // where nothing moves (no caret blinking) is made to paint a few times.
    let paint = "let n = 0; const f = () => { document.documentElement.style.opacity = n % 2 ? '0.999' : ''; \
                 if (++n < 60) requestAnimationFrame(f); else document.documentElement.style.opacity = ''; }; \
                 requestAnimationFrame(f);";
    session.script(paint, json!([]));
    let shot = match session.try_call("GET", "/screenshot", None) {
        Ok(shot) => shot,
        Err(error) => return eprintln!("no screenshot {}: {error}", file.display()),
    };
    let png = base64::engine::general_purpose::STANDARD.decode(shot.as_str().expect("a screenshot")).unwrap();
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, png).unwrap();
}

/// Saves a screenshot of the window when dropped, whatever happened.
struct Shot<'a>(&'a Session);

impl Drop for Shot<'_> {
    fn drop(&mut self) {
        self.0.save_screenshot();
    }
}

#[test]
#[ignore = "needs Xvfb, tauri-driver and WebKitWebDriver: run with `make e2e`"]
fn the_app_end_to_end() {
    let temp = tempfile::tempdir().unwrap();
    let blog = temp.path().join("blog");
    copy(Path::new(SAMPLE), &blog);
    let site = temp.path().join("site");
    let config = temp.path().join("config");
    // Autosave off: unsaved text stays unsaved until the test saves it.
    std::fs::create_dir_all(&config).unwrap();
    // The window in English (the sample blog's pages are Korean, with the theme's Korean words).
    let settings = json!({ "settings": { "autosave": false, "autosaveDelayMs": 1500, "newPostAsBundle": false, "language": "en" } });
    std::fs::write(config.join("hanji-app.json"), settings.to_string()).unwrap();
    let opened = temp.path().join("opened-in-browser.txt");
    let browser = temp.path().join("browser.sh");
    std::fs::write(&browser, format!("#!/bin/sh\necho \"$1\" >> '{}'\n", opened.display())).unwrap();
    std::fs::set_permissions(&browser, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::write(
        blog.join(SCHEDULED),
        "---\ntitle: 크리스마스 이브 메모\ndate: 2026-12-24T09:00:00\n---\n곧 공개됩니다.\n",
    )
    .unwrap();
    let (_processes, driver) = start(&blog, &config, &site, &browser);
    {
        let session = driver.session();
        let _shot = Shot(&session);
        the_sidebar_shows_tag_counts(&session);
        a_scheduled_post_says_when_it_is_published(&session);
        the_preview_shows_images_sized_for_the_screen(&session);
        typing_shows_in_the_preview(&session);
        keystroke_to_preview(&session, "preview-latency.txt");
        if std::env::var_os("HANJI_E2E_LATENCY_ONLY").is_some() {
            return;
        }
        a_tag_added_in_the_form_is_saved_and_counted(&session, &blog);
        an_outside_change_reloads_the_open_post(&session, &blog);
        an_outside_change_with_unsaved_edits_asks_and_loses_nothing(&session, &blog);
        script_in_a_post_cannot_reach_the_app(&session, &blog);
        a_link_to_the_web_opens_in_the_browser_when_clicked(&session, &opened);
        the_preview_scrolls_the_editor_and_a_click_finds_the_source(&session);
        the_outline_lists_the_headings_and_a_click_goes_there(&session);
        a_saved_version_is_restored_after_two_saves(&session, &blog);
        the_merge_view_takes_one_hunk_from_each_side(&session, &blog);
        tab_moves_between_table_cells(&session);
        misspelt_words_are_underlined_in_prose_only(&session);
        a_whole_post_is_checked_as_it_opens(&session, &blog);
        english_misspellings_are_underlined_in_an_english_post(&session);
        vim_keys_delete_a_line(&session);
        export_writes_the_site(&session, &site);
        publish_sets_up_a_folder_and_sends_only_what_changed(&session, &blog, &temp.path().join("published"));
        unsaved_text_is_journaled_then_the_app_is_killed(&session, &blog, &config);
    }
    let session = driver.session();
    let _shot = Shot(&session);
    the_next_start_offers_the_unsaved_text_back(&session, &blog);
}

/// The moment the test's app judges scheduled posts by (`HANJI_NOW`).
const NOW: &str = "2026-12-01T09:00:00+09:00";

/// A post the test adds, due after `NOW` in the sample blog's time zone (Seoul).
const SCHEDULED: &str = "posts/christmas-eve-note.md";

fn a_scheduled_post_says_when_it_is_published(session: &Session) {
    let badge = "scheduled for 2026-12-24 09:00 KST";
    wait("the scheduled post's badge in the sidebar", Duration::from_secs(20), || {
        session.texts("[data-testid=held]").iter().any(|t| t == badge).then_some(())
    });
    session.open_post(SCHEDULED);
    wait("the badge over the editor", Duration::from_secs(10), || {
        session.texts("[data-testid=post-held]").iter().any(|t| t == badge).then_some(())
    });
    wait("the preview's badge", Duration::from_secs(10), || {
        // In the page's language: the sample blog is Korean.
        session.preview_text().filter(|t| t.contains("2026년 12월 24일 09:00 공개 예정")).map(|_| ())
    });
}

/// The cover of the onboarding checklist is a `<picture>` whose WebP copy
/// the preview protocol makes when the frame asks for it.
fn the_preview_shows_images_sized_for_the_screen(session: &Session) {
    session.open_post("posts/gpu-cluster-onboarding-checklist.md");
    let (shown, width) = wait("the cover's copy in the preview", Duration::from_secs(30), || {
        session.preview_image(".post-cover img").filter(|(src, width)| src.ends_with(".webp") && *width > 0)
    });
    assert!(shown.contains("gpu-rack.jpg-") && shown.ends_with("w.webp"), "{shown}");
    assert!(width < 2400, "a copy, not the 2400-pixel photo: {width}");
}

fn tag_seen(session: &Session, label: &str) -> Option<()> {
    session.texts("[data-testid=tag]").iter().any(|t| t == label).then_some(())
}

fn the_sidebar_shows_tag_counts(session: &Session) {
    wait("`nccl (5)` in the sidebar", Duration::from_secs(20), || tag_seen(session, "nccl (5)"));
}

const TYPED: &str = "끝에서 끝까지 시험에서 쓴 문단, typed in the end-to-end test.";

fn typing_shows_in_the_preview(session: &Session) {
    session.open_post("posts/rdma-complete-guide.md");
    let editor = session.find(".cm-content");
    session.click(&editor);
    session.type_keys(&editor, &format!("{CONTROL}{END}"));
    session.type_keys(&editor, &format!("{ENTER}{ENTER}{TYPED}"));
    let typed_at = Instant::now();
    wait("the typed paragraph in the preview", Duration::from_secs(1), || {
        session.preview_text().filter(|t| t.contains(TYPED)).map(|_| ())
    });
    eprintln!("typed text reached the preview in {:?}", typed_at.elapsed());
}

/// Measures, in the webview, the time from a key going down in the editor to
/// the preview showing the text with it, one key at a time. The preview
/// frame is patched in place, so a MutationObserver on its document sees
/// each patch; once the patched page holds the editor's line as it is now,
/// the measure waits for the next animation frame (the rendering update
/// that lays out and paints the patched page) and ends when that update is
/// over, at the first task after it (a message posted from the frame's
/// callback). The time to the patch alone is printed beside it, and the
/// stages between (marked by the UI in `window.__hanjiTrace`, see
/// `ui/src/lib/trace.ts`) as medians from the key.
/// Printed, not asserted: timings belong to measurements, and this machine is
/// shared.
fn keystroke_to_preview(session: &Session, figures_file: &str) {
    let install = "window.__hanjiLatency = []; window.__hanjiPatched = []; window.__hanjiTrace = []; let down = null; \
        const trace = window.__hanjiTrace; \
        const view = document.querySelector('.cm-content').cmTile.root.view; \
        const frame = document.querySelector('iframe[data-testid=preview]'); \
        document.querySelector('.cm-content').addEventListener('keydown', () => { \
          if (down === null) { down = performance.now(); trace.push(['key', down]); } }, true); \
        const painted = new MessageChannel(); let from = null; \
        painted.port1.onmessage = () => { const now = performance.now(); trace.push(['painted', now]); \
          window.__hanjiLatency.push(now - from); }; \
        const seen = () => { if (down === null) return; \
          const state = view.state; const line = state.doc.lineAt(state.selection.main.head).text.slice(-16); \
          if (!frame.contentDocument.body.textContent.includes(line)) return; \
          from = down; down = null; const now = performance.now(); trace.push(['seen', now]); \
          window.__hanjiPatched.push(now - from); \
          requestAnimationFrame(() => { trace.push(['frame', performance.now()]); painted.port2.postMessage(0); }); }; \
        const observer = new MutationObserver(seen); \
        const watch = () => observer.observe(frame.contentDocument, { childList: true, subtree: true, characterData: true }); \
        watch(); frame.addEventListener('load', watch);";
    session.script(install, json!([]));
    // The post made 10 KB (UTF-8), as the issue measures, with paragraphs
    // added through the editor itself.
    let pad = "const c = document.querySelector('.cm-content'); const v = c.cmTile.root.view; \
        let text = ''; const size = () => new TextEncoder().encode(v.state.doc.toString() + text).length; \
        while (size() < 10240) text += '\\n\\nPadding paragraph: 한국어와 English, to reach ten kilobytes.'; \
        v.dispatch({ changes: { from: v.state.doc.length, insert: text } });";
    session.script(pad, json!([]));
    std::thread::sleep(Duration::from_millis(500));
    session.script(
        "window.__hanjiTrace.length = 0; window.__hanjiLatency.length = 0; window.__hanjiPatched.length = 0",
        json!([]),
    );
    let editor = session.find(".cm-content");
    let keys = 30;
    // No spaces: a space at the end of a line changes nothing the reader sees.
    for key in "한글자씩재는중-one-key-at-a-time-끝".chars().take(keys) {
        session.type_keys(&editor, &key.to_string());
        std::thread::sleep(Duration::from_millis(250));
    }
    let figures = |name: &str| {
        let times = session.script(&format!("return window.{name}"), json!([]));
        let mut times: Vec<f64> = times.as_array().unwrap().iter().filter_map(Value::as_f64).collect();
        assert!(times.len() >= keys / 2, "the preview followed the keys: {times:?}");
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        (times.len(), at(0.5), at(0.95), times[0], times[times.len() - 1])
    };
    let (count, median, p95, min, max) = figures("__hanjiLatency");
    let (_, patched_median, patched_p95, _, _) = figures("__hanjiPatched");
    let stages = stage_medians(&session.script("return window.__hanjiTrace", json!([])));
    let size = session.editor_text().len();
    let line = format!(
        "keystroke to preview, {size} byte post, {count} keys: median {median:.1} ms, p95 {p95:.1} ms, \
         min {min:.1} ms, max {max:.1} ms (to the end of the frame that paints it; to the patched page: median \
         {patched_median:.1} ms, p95 {patched_p95:.1} ms; stages, median ms from the key: {stages})"
    );
    eprintln!("{line}");
    std::fs::create_dir_all(Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e")).unwrap();
    std::fs::write(Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e").join(figures_file), line + "\n").unwrap();
}

/// From a trace of `[stage, ms]`, each stage's median time after the key
/// before it (the first mark of that stage after each key).
fn stage_medians(trace: &Value) -> String {
    let mut by_stage: Vec<(String, Vec<f64>)> = Vec::new();
    let mut key: Option<f64> = None;
    let mut seen: Vec<String> = Vec::new();
    for mark in trace.as_array().into_iter().flatten() {
        let (Some(stage), Some(at)) = (mark[0].as_str(), mark[1].as_f64()) else { continue };
        if stage == "key" {
            key = Some(at);
            seen.clear();
            continue;
        }
        let Some(from) = key else { continue };
        if seen.iter().any(|s| s == stage) {
            continue;
        }
        seen.push(stage.to_string());
        match by_stage.iter_mut().find(|(s, _)| s == stage) {
            Some((_, times)) => times.push(at - from),
            None => by_stage.push((stage.to_string(), vec![at - from])),
        }
    }
    let parts: Vec<String> = by_stage
        .into_iter()
        .map(|(stage, mut times)| {
            times.sort_by(f64::total_cmp);
            format!("{stage} {:.1}", times[times.len() / 2])
        })
        .collect();
    parts.join(", ")
}

fn a_tag_added_in_the_form_is_saved_and_counted(session: &Session, blog: &Path) {
    let path = "posts/kubernetes-gpu-scheduling.md";
    let before = std::fs::read_to_string(blog.join(path)).unwrap();
    let old_line = "tags = [\"kubernetes\", \"gpu-infrastructure\", \"distributed-training\"]";
    assert!(before.contains(old_line));
    session.open_post(path);
    let tags = session.find("[data-testid=field-tags]");
    session.click(&tags);
    session.type_keys(&tags, &format!("nccl{ENTER}"));
    // Saved with Ctrl+S.
    let editor = session.find(".cm-content");
    session.type_keys(&editor, &format!("{CONTROL}s"));
    let expected = before.replacen(
        old_line,
        "tags = [\"kubernetes\", \"gpu-infrastructure\", \"distributed-training\", \"nccl\"]",
        1,
    );
    wait("the tag saved to the file", Duration::from_secs(10), || {
        (std::fs::read_to_string(blog.join(path)).unwrap() == expected).then_some(())
    });
    wait("`nccl (6)` in the sidebar", Duration::from_secs(10), || tag_seen(session, "nccl (6)"));
}

fn an_outside_change_reloads_the_open_post(session: &Session, blog: &Path) {
    let path = blog.join("posts/kubernetes-gpu-scheduling.md");
    let theirs = std::fs::read_to_string(&path).unwrap() + "\nWritten by another editor.\n";
    std::fs::write(&path, &theirs).unwrap();
    wait("the outside change in the editor", Duration::from_secs(10), || {
        session.editor_text().contains("Written by another editor.").then_some(())
    });
}

fn an_outside_change_with_unsaved_edits_asks_and_loses_nothing(session: &Session, blog: &Path) {
    let path = blog.join("posts/kubernetes-gpu-scheduling.md");
    let editor = session.find(".cm-content");
    session.click(&editor);
    session.type_keys(&editor, &format!("{CONTROL}{END}"));
    session.type_keys(&editor, &format!("{ENTER}Mine, not saved yet."));
    let theirs = std::fs::read_to_string(&path).unwrap() + "\nTheirs, written meanwhile.\n";
    std::fs::write(&path, &theirs).unwrap();
    wait("the conflict banner", Duration::from_secs(10), || session.try_find("[data-testid=conflict]"));
    // Neither version is lost: mine in the editor, theirs on disk.
    assert!(session.editor_text().contains("Mine, not saved yet."));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
    // Showing both puts theirs beside mine.
    let show_both = session.find("[data-testid=show-both]");
    session.click(&show_both);
    wait("their text shown", Duration::from_secs(5), || {
        let page = session.script("return document.body.innerText", json!([]));
        page.as_str().is_some_and(|t| t.contains("Theirs, written meanwhile.")).then_some(())
    });
    assert!(session.editor_text().contains("Mine, not saved yet."));
    // Keeping mine writes it, knowingly.
    let keep = session.find("[data-testid=keep-mine]");
    session.click(&keep);
    wait("mine saved", Duration::from_secs(10), || {
        std::fs::read_to_string(&path).unwrap().contains("Mine, not saved yet.").then_some(())
    });
    assert!(session.try_find("[data-testid=conflict]").is_none());
}

fn script_in_a_post_cannot_reach_the_app(session: &Session, blog: &Path) {
    let call =
        "window.top.__TAURI_INTERNALS__.invoke('save_post', {path: 'posts/pwned.md', text: 'pwned', version: null})";
    let hostile = format!(
        "---\ntitle: Hostile\ndate: 2026-11-01\n---\n\nHostile post marker.\n\n\
         <script>{call}; window.top.document.title = 'pwned';</script>\n\n\
         <img src=x onerror=\"{call}; window.top.document.title = 'pwned';\">\n\n\
         <iframe src=\"javascript:{call}\"></iframe>\n\n\
         <object data=\"javascript:{call}\"></object>\n\n\
         <form action=\"javascript:{call}\"><button id=\"go\">go</button></form>\n\n\
         [a link](javascript:{call})\n\n\
         <meta http-equiv=\"refresh\" content=\"0;url=javascript:{call}\">\n\n\
         <meta http-equiv=\"refresh\" content=\"1;url=https://example.com/\">\n\n\
         [out to the web](https://example.com/hanji-e2e)\n"
    );
    std::fs::write(blog.join("posts/hostile.md"), hostile).unwrap();
    session.open_post("posts/hostile.md");
    wait("the hostile post in the preview", Duration::from_secs(10), || {
        session.preview_text().filter(|t| t.contains("Hostile post marker.")).map(|_| ())
    });
    // Time for anything that could run (or refresh) to run.
    std::thread::sleep(Duration::from_secs(3));
    // The preview still shows the post: no refresh took it anywhere.
    let still = session.preview_text().unwrap_or_default();
    assert!(still.contains("Hostile post marker."), "the preview was navigated away: {still}");
    let window = session.call("GET", "/url", None);
    assert!(
        window.as_str().is_some_and(|u| u.starts_with("tauri://localhost")),
        "the app window left the UI: {window}"
    );
    assert!(!blog.join("posts/pwned.md").exists(), "a script in a post called a command");
    let title = session.script("return document.title", json!([]));
    assert_ne!(title, "pwned");
    let sandbox = session
        .script("return document.querySelector('iframe[data-testid=preview]').getAttribute('sandbox')", json!([]));
    // No `allow-scripts`: nothing in the frame runs. Same origin only so that
    // the app can patch the page in; `allow-popups` so a link to the web can
    // ask for a new window (which the app hands to the browser).
    assert_eq!(sandbox, "allow-same-origin allow-popups", "the preview frame runs no script");
    let policy = session.script(
        "return document.querySelector('iframe[data-testid=preview]').contentDocument\
         .querySelector('meta[http-equiv=Content-Security-Policy]').content",
        json!([]),
    );
    assert!(policy.as_str().is_some_and(|p| p.contains("script-src 'none'")), "the page's own policy: {policy}");
}

fn a_link_to_the_web_opens_in_the_browser_when_clicked(session: &Session, opened: &Path) {
    assert!(!opened.exists(), "nothing was opened before the click");
    // Clicked with the mouse, where the link is drawn.
    let link = wait("the link in the preview", Duration::from_secs(10), || {
        session.in_preview("a[href=\"https://example.com/hanji-e2e\"]")
    });
    session.mouse(link, true);
    wait("the link opened in the browser", Duration::from_secs(10), || {
        std::fs::read_to_string(opened).ok().filter(|t| t.contains("https://example.com/hanji-e2e")).map(|_| ())
    });
    let window = session.call("GET", "/url", None);
    assert!(
        window.as_str().is_some_and(|u| u.starts_with("tauri://localhost")),
        "the app window left the UI: {window}"
    );
    let still = session.preview_text().unwrap_or_default();
    assert!(still.contains("Hostile post marker."), "the preview stayed on the post: {still}");
}

fn export_writes_the_site(session: &Session, site: &Path) {
    let export = session.find("[data-testid=export]");
    session.click(&export);
    wait("the export summary", Duration::from_secs(60), || session.try_find("[data-testid=export-summary]"));
    let tag_page = std::fs::read_to_string(site.join("tags/nccl/index.html")).expect("tags/nccl/index.html");
    assert!(tag_page.contains("nccl"), "the tag page names its tag");
    assert!(!site.join("posts/christmas-eve-note/index.html").exists(), "a scheduled post is not exported");
    assert!(site.join("images/gpu-rack.jpg-480w.webp").is_file(), "the export writes images' copies");
    let close = session.find("[data-testid=export-close]");
    session.click(&close);
}

/// The Publish button on a blog without a target: the form (a folder), Save,
/// Publish, the summary; then an unchanged blog sends nothing.
fn publish_sets_up_a_folder_and_sends_only_what_changed(session: &Session, blog: &Path, target: &Path) {
    std::fs::create_dir_all(target).unwrap();
    session.click(&session.find("[data-testid=publish]"));
    let path = wait("the target form", Duration::from_secs(20), || session.try_find("[data-testid=field-path]"));
    session.type_keys(&path, &target.display().to_string());
    session.click(&session.find("[data-testid=save-target]"));
    wait("the targets", Duration::from_secs(20), || session.try_find("[data-testid=publish-targets]"));
    let settings = std::fs::read_to_string(blog.join("hanji.toml")).unwrap();
    assert!(settings.contains("[publish.folder]\nkind = \"folder\""), "the target is in hanji.toml: {settings}");
    session.click(&session.find("[data-testid=publish-start]"));
    let sent = wait("the publish summary", Duration::from_secs(60), || session.try_find("[data-testid=publish-sent]"));
    let first = session.texts("[data-testid=publish-sent]").join("");
    let published = stamps_in(target);
    let files = published.len();
    assert!(
        first.starts_with(&format!("{} (", files - 1)),
        "sent {first}, the folder has {files} files with the record"
    );
    assert!(target.join("tags/nccl/index.html").exists() && target.join(".hanji-publish.json").exists());
    let _ = sent;
    session.click(&session.find("[data-testid=publish-close]"));
    // Again: nothing changed, nothing sent.
    session.click(&session.find("[data-testid=publish]"));
    wait("the targets", Duration::from_secs(20), || session.try_find("[data-testid=publish-start]"));
    session.click(&session.find("[data-testid=publish-start]"));
    wait("the second summary", Duration::from_secs(60), || session.try_find("[data-testid=publish-sent]"));
    let again = stamps_in(target);
    let sent_again: Vec<&PathBuf> =
        again.iter().filter(|(file, stamp)| published.get(*file) != Some(stamp)).map(|(file, _)| file).collect();
    assert_eq!(session.texts("[data-testid=publish-sent]").join(""), "0 (0 B)", "sent again: {sent_again:?}");
    session.click(&session.find("[data-testid=publish-close]"));
}

/// Every file below `dir` with its size and modification time.
fn stamps_in(dir: &Path) -> std::collections::BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut stamps = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap()) {
        let meta = entry.metadata().unwrap();
        match meta.is_dir() {
            true => stamps.extend(stamps_in(&entry.path())),
            false => _ = stamps.insert(entry.path(), (meta.len(), meta.modified().unwrap())),
        }
    }
    stamps
}

const KILLED: &str = "posts/cuda-gpu-programming-deep-dive.md";
const UNSAVED: &str = "Typed just before the app was killed.";

fn unsaved_text_is_journaled_then_the_app_is_killed(session: &Session, blog: &Path, config: &Path) {
    session.open_post(KILLED);
    let editor = session.find(".cm-content");
    session.click(&editor);
    session.type_keys(&editor, &format!("{CONTROL}{END}"));
    session.type_keys(&editor, &format!("{ENTER}{UNSAVED}"));
    // The journal keeps it within a few seconds, in the app's folder.
    wait("the unsaved text in the journal", Duration::from_secs(15), || {
        files_under(&config.join("journal"))
            .iter()
            .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains(UNSAVED)))
            .then_some(())
    });
    let killed = Command::new("pkill").args(["-KILL", "-f"]).arg(blog).status().unwrap();
    assert!(killed.success(), "the app was running");
    assert!(!std::fs::read_to_string(blog.join(KILLED)).unwrap().contains(UNSAVED), "it was never saved");
    // The session died with the app.
    let _ = session.agent.delete(&session.base).call();
}

fn the_next_start_offers_the_unsaved_text_back(session: &Session, blog: &Path) {
    let ok = session.find("[data-testid=modal-ok]");
    let modal = session
        .script("return document.querySelector('[role=dialog]')?.innerText ?? document.body.innerText", json!([]));
    assert!(modal.as_str().unwrap_or_default().contains(KILLED), "the post is named: {modal}");
    session.click(&ok);
    wait("the restored text in the editor", Duration::from_secs(10), || {
        session.editor_text().contains(UNSAVED).then_some(())
    });
    // Beside the saved version, and nothing written until the author chooses.
    wait("the restored banner", Duration::from_secs(10), || session.try_find("[data-testid=conflict]"));
    assert!(!std::fs::read_to_string(blog.join(KILLED)).unwrap().contains(UNSAVED));
    let show_both = session.find("[data-testid=show-both]");
    session.click(&show_both);
    let keep = session.find("[data-testid=keep-mine]");
    session.click(&keep);
    wait("the restored text saved", Duration::from_secs(10), || {
        std::fs::read_to_string(blog.join(KILLED)).unwrap().contains(UNSAVED).then_some(())
    });
}

const GUIDE: &str = "posts/rdma-complete-guide.md";

fn the_preview_scrolls_the_editor_and_a_click_finds_the_source(session: &Session) {
    session.open_post(GUIDE);
    wait("the guide in the preview", Duration::from_secs(10), || {
        session.preview_text().filter(|t| t.contains("GPUDirect RDMA")).map(|_| ())
    });
    // The author's pointer is over the preview, and scrolls it to a heading far down.
    let frame = session.script("const r = document.querySelector('iframe[data-testid=preview]').getBoundingClientRect(); return [r.left + 200, r.top + 200]", json!([]));
    session.mouse((frame[0].as_f64().unwrap(), frame[1].as_f64().unwrap()), false);
    let heading = session.script(
        "const d = document.querySelector('iframe[data-testid=preview]').contentDocument; \
         const h = Array.from(d.querySelectorAll('h2[data-line]')).find(e => e.textContent.includes('GPUDirect RDMA')); \
         d.defaultView.scrollTo({ top: h.getBoundingClientRect().top + d.defaultView.scrollY, behavior: 'instant' }); \
         return Number(h.getAttribute('data-line'))",
        json!([]),
    );
    let line = heading.as_u64().expect("the heading's source line");
    wait(&format!("the editor's top at line {line}"), Duration::from_secs(5), || {
        let (_, top) = session.editor_lines();
        top.abs_diff(line).le(&1).then_some(())
    });
    // The editor's own answering scroll does not take the preview elsewhere.
    std::thread::sleep(Duration::from_millis(600));
    let (_, top) = session.editor_lines();
    assert!(top.abs_diff(line) <= 1, "the two stay together: the editor's top is {top}, not {line}");

    // A click on a paragraph puts the cursor on its source line.
    let css = "p[data-line]";
    let paragraph = session.script(
        "const d = document.querySelector('iframe[data-testid=preview]').contentDocument; \
         const h = Array.from(d.querySelectorAll(arguments[0])).find(e => e.getBoundingClientRect().top > 40); \
         h.setAttribute('data-e2e', 'click-me'); return Number(h.getAttribute('data-line'))",
        json!([css]),
    );
    let line = paragraph.as_u64().expect("a paragraph's source line");
    let at = wait("the paragraph in view", Duration::from_secs(5), || session.in_preview("[data-e2e=click-me]"));
    session.mouse(at, true);
    wait(&format!("the cursor on line {line}"), Duration::from_secs(5), || {
        (session.editor_lines().0 == line).then_some(())
    });
}

fn the_outline_lists_the_headings_and_a_click_goes_there(session: &Session) {
    let button = session.find("[data-testid=show-outline]");
    session.click(&button);
    let titles = wait("the outline", Duration::from_secs(5), || {
        let titles = session.texts("[data-testid=outline-item]");
        (!titles.is_empty()).then_some(titles)
    });
    assert!(titles.iter().any(|t| t == "RDMA가 바꾸는 세 가지"), "the page's headings: {titles:?}");
    assert!(titles.iter().any(|t| t == "GPUDirect RDMA"), "{titles:?}");
    let third = session.script(
        "const b = document.querySelectorAll('[data-testid=outline-item]')[2]; return [Number(b.dataset.line), b.textContent.trim()]",
        json!([]),
    );
    let line = third[0].as_u64().unwrap();
    let title = third[1].as_str().unwrap().to_string();
    let items = session.call(
        "POST",
        "/elements",
        Some(json!({ "using": "css selector", "value": "[data-testid=outline-item]" })),
    );
    let element = items.as_array().unwrap()[2][ELEMENT].as_str().unwrap().to_string();
    session.click(&element);
    wait(&format!("the cursor on `{title}`, line {line}"), Duration::from_secs(5), || {
        (session.editor_lines().0 == line).then_some(())
    });
    wait("its section marked", Duration::from_secs(5), || {
        (session.texts("[data-testid=outline-item][aria-current=location]") == [title.clone()]).then_some(())
    });
    session.click(&session.find("[data-testid=show-outline]"));
}

const LOOP: &str = "posts/writing-loop.md";
/// A long post with one misspelt word on its last line of prose.
const SPELLING: &str = "posts/spelling-check.md";
const LOOP_TEXT: &str = "---\ntitle: 글쓰기 고리\ndate: 2026-11-02\n---\n\n첫 문단은 처음 그대로.\n\n둘째 문단.\n\n셋째 문단.\n\n넷째 문단.\n\n다섯째 문단은 끝.\n";

fn save(session: &Session, blog: &Path, expect: &str) {
    let editor = session.find(".cm-content");
    session.type_keys(&editor, &format!("{CONTROL}s"));
    wait(&format!("`{expect}` saved"), Duration::from_secs(10), || {
        std::fs::read_to_string(blog.join(LOOP)).unwrap().contains(expect).then_some(())
    });
}

fn a_saved_version_is_restored_after_two_saves(session: &Session, blog: &Path) {
    std::fs::write(blog.join(LOOP), LOOP_TEXT).unwrap();
    session.open_post(LOOP);
    let editor = session.find(".cm-content");
    session.cursor_after("다섯째 문단은 끝.");
    session.type_keys(&editor, &format!("{ENTER}{ENTER}월요일에 쓴 문단."));
    save(session, blog, "월요일에 쓴 문단.");
    session.cursor_after("월요일에 쓴 문단.");
    session.type_keys(&editor, &format!("{ENTER}{ENTER}화요일에 더한 문단."));
    save(session, blog, "화요일에 더한 문단.");
    let saved = std::fs::read_to_string(blog.join(LOOP)).unwrap();

    session.click(&session.find("[data-testid=show-history]"));
    let versions = wait("two saved versions", Duration::from_secs(5), || {
        let found = session.call(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": "[data-testid=version]" })),
        );
        let found: Vec<String> =
            found.as_array()?.iter().filter_map(|e| e[ELEMENT].as_str().map(str::to_string)).collect();
        (found.len() == 2).then_some(found)
    });
    // The oldest is the post as it was before both saves.
    session.click(&versions[1]);
    wait("the merge view", Duration::from_secs(5), || session.try_find("[data-testid=compare] .cm-mergeView"));
    session.click(&session.find("[data-testid=restore]"));
    wait("the first text back in the editor", Duration::from_secs(5), || {
        (session.editor_text() == LOOP_TEXT).then_some(())
    });
    assert_eq!(std::fs::read_to_string(blog.join(LOOP)).unwrap(), saved, "a restore is an edit, not a save");
    // An ordinary edit: Undo brings the text back.
    let editor = session.find(".cm-content");
    session.click(&editor);
    session.type_keys(&editor, &format!("{CONTROL}z"));
    wait("undo after the restore", Duration::from_secs(5), || {
        session.editor_text().contains("화요일에 더한 문단.").then_some(())
    });
    session.click(&session.find("[data-testid=show-history]"));
    save(session, blog, "화요일에 더한 문단.");
}

fn the_merge_view_takes_one_hunk_from_each_side(session: &Session, blog: &Path) {
    let editor = session.find(".cm-content");
    session.cursor_after("첫 문단은 처음 그대로.");
    session.type_keys(&editor, " 내가 고침.");
    session.cursor_after("다섯째 문단은 끝.");
    session.type_keys(&editor, " 내가 덧붙임.");
    let disk = std::fs::read_to_string(blog.join(LOOP)).unwrap();
    let theirs = disk
        .replace("첫 문단은 처음 그대로.", "첫 문단은 그들이 고침.")
        .replace("다섯째 문단은 끝.", "다섯째는 그들 것.");
    std::fs::write(blog.join(LOOP), &theirs).unwrap();
    wait("the conflict banner", Duration::from_secs(10), || session.try_find("[data-testid=conflict]"));
    session.click(&session.find("[data-testid=show-both]"));
    let arrows = wait("two hunks to take", Duration::from_secs(5), || {
        let found = session.call(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": "[data-testid=compare] .cm-merge-revert button" })),
        );
        let found: Vec<String> =
            found.as_array()?.iter().filter_map(|e| e[ELEMENT].as_str().map(str::to_string)).collect();
        (found.len() == 2).then_some(found)
    });
    // Theirs for the first paragraph, mine for the fifth.
    session.click(&arrows[0]);
    session.click(&session.find("[data-testid=save-merged]"));
    wait("the merged text saved", Duration::from_secs(10), || {
        let now = std::fs::read_to_string(blog.join(LOOP)).unwrap();
        (now.contains("첫 문단은 그들이 고침.") && now.contains("다섯째 문단은 끝. 내가 덧붙임.")).then_some(now)
    });
    let now = std::fs::read_to_string(blog.join(LOOP)).unwrap();
    assert!(!now.contains("내가 고침.") && !now.contains("다섯째는 그들 것."), "one hunk from each side: {now}");
    assert!(session.try_find("[data-testid=conflict]").is_none());
    assert_eq!(session.editor_text(), now, "the editor holds what was saved");
    // The text the other program replaced is in the History, marked so.
    session.click(&session.find("[data-testid=show-history]"));
    wait("the outside write in the History", Duration::from_secs(5), || {
        session.texts("[data-testid=version-cause]").iter().any(|t| t == "Changed outside Hanji").then_some(())
    });
    session.click(&session.find("[data-testid=show-history]"));
}

fn tab_moves_between_table_cells(session: &Session) {
    let editor = session.find(".cm-content");
    session.cursor_after("넷째 문단.");
    session.type_keys(&editor, &format!("{ENTER}{ENTER}| 이름 | 값 |{ENTER}"));
    // Enter in a first row made the table: its delimiter row, and a row to fill.
    session.type_keys(&editor, &format!("가{TAB}나나나"));
    session.type_keys(&editor, &format!("{SHIFT}{TAB}{SHIFT}"));
    session.type_keys(&editor, "다");
    let text = session.editor_text();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), 3, "header, delimiter and one row: {rows:?}");
    assert!(rows[1].starts_with("| -") && rows[1].ends_with("-- |"), "a delimiter row: {rows:?}");
    let cells: Vec<&str> = rows[2].trim_matches('|').split('|').map(str::trim).collect();
    assert_eq!(cells.len(), 2, "{rows:?}");
    assert!(cells[0].contains('다') && cells[1] == "나나나", "Tab went to the next cell, Shift+Tab back: {rows:?}");
    // Aligned: every row as wide as the others (Hangul counts two columns).
    let width =
        |row: &str| row.chars().map(|c| if ('\u{AC00}'..='\u{D7A3}').contains(&c) { 2 } else { 1 }).sum::<usize>();
    assert!(rows.iter().all(|r| width(r) == width(rows[0])), "the columns are aligned: {rows:?}");
}

/// The editor's line holding `text`, as an element, once CodeMirror draws it.
fn editor_line(session: &Session, text: &str) -> String {
    let script = "return Array.from(document.querySelectorAll('.cm-line')).find(l => l.textContent.includes(arguments[0])) || null";
    wait(&format!("a line with `{text}`"), Duration::from_secs(5), || {
        session.script(script, json!([text]))[ELEMENT].as_str().map(str::to_string)
    })
}

/// Where each of `words` is drawn in the editor's line holding it, as x
/// ranges from the line's left edge (the first time each occurs).
fn word_spans(session: &Session, line: &str, words: &[&str]) -> Vec<(f64, f64)> {
    let script = "const line = arguments[0]; const box = line.getBoundingClientRect(); \
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT); const spans = []; \
        for (const word of arguments[1]) { walker.currentNode = line; let node; let span = null; \
          while (!span && (node = walker.nextNode())) { const at = node.data.indexOf(word); if (at < 0) continue; \
            const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + word.length); \
            const r = range.getBoundingClientRect(); span = [r.left - box.left, r.right - box.left]; } \
          spans.push(span); } return spans;";
    let spans = session.script(script, json!([{ ELEMENT: line }, words]));
    spans
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s[0].as_f64().expect("the word is drawn"), s[1].as_f64().expect("the word is drawn")))
        .collect()
}

/// How many pixels of each x range of the element's screenshot are red, as
/// WebKit draws a misspelt word's underline.
fn red_pixels(session: &Session, element: &str, spans: &[(f64, f64)]) -> Vec<usize> {
    let shot = session.call("GET", &format!("/element/{element}/screenshot"), None);
    let png = base64::engine::general_purpose::STANDARD.decode(shot.as_str().expect("a screenshot")).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let channels = info.line_size / info.width as usize;
    let red = |x: usize, y: usize| {
        let at = y * info.line_size + x * channels;
        let (r, g, b) = (pixels[at], pixels[at + 1], pixels[at + 2]);
        // WebKit's dotted line, smoothed: full red with green and blue alike
        // (255, 125, 125); no text colour of the editor's theme is that.
        r > 230 && g < 190 && g.abs_diff(b) < 24
    };
    spans
        .iter()
        .map(|&(from, to)| {
            let (from, to) = (from.max(0.0) as usize, (to.ceil() as usize).min(info.width as usize));
            (0..info.height as usize).map(|y| (from..to).filter(|&x| red(x, y)).count()).sum()
        })
        .collect()
}

/// Spelling is checked by the core with the system's Hunspell dictionaries,
/// in the language of the shown post's page, over the whole post: in a
/// Korean post a misspelt Korean word typed in prose gets a red wavy
/// underline, words spelt right do not, an English misspelling is checked in
/// English, and the same misspelt words in a fenced code block are not
/// marked. The webview's own checker is off (it marked only words typed).
fn misspelt_words_are_underlined_in_prose_only(session: &Session) {
    let editor = session.find(".cm-content");
    let before = session.editor_text();
    assert_eq!(session.script("return document.querySelector('.cm-content').spellcheck", json!([])), json!(false));
    session.cursor_after("셋째 문단.");
    let prose = "맞춤법 시험 됬다 그리고 wrld 끝 ";
    session.type_keys(&editor, &format!("{ENTER}{ENTER}{prose}"));
    session.type_keys(&editor, &format!("{ENTER}{ENTER}```{ENTER}코드 속 됬다 wrld {ENTER}```{ENTER}"));
    let line = editor_line(session, "맞춤법 시험");
    let code = editor_line(session, "코드 속");
    let marked = "return [...arguments[0].querySelectorAll('.cm-misspelled')].map((e) => e.textContent)";
    let words = wait("the misspelt words marked", Duration::from_secs(10), || {
        let words = session.script(marked, json!([{ ELEMENT: line }]));
        (words == json!(["됬다", "wrld"])).then_some(words)
    });
    assert_eq!(words, json!(["됬다", "wrld"]));
    assert_eq!(session.script(marked, json!([{ ELEMENT: code }])), json!([]), "nothing is marked in code");
    let spans = word_spans(session, &line, &["됬다", "맞춤법", "시험", "wrld"]);
    let underlined = wait("the misspelt word underlined", Duration::from_secs(10), || {
        let red = red_pixels(session, &line, &spans);
        (red[0] > 0).then_some(red)
    });
    assert_eq!(underlined[1..3], [0, 0], "words spelt right are not underlined: {underlined:?}");
    assert!(underlined[3] > 0, "an English misspelling in a Korean post is underlined: {underlined:?}");
    let code_spans = word_spans(session, &code, &["됬다"]);
    assert_eq!(red_pixels(session, &code, &code_spans), [0], "nothing is underlined in code");
    undo_until(session, &before);
}

/// Regression (issue 32, "spell check marks only newly typed words"): a post
/// opened from disk has every word checked, the last line of a long post too,
/// without a key pressed in it.
fn a_whole_post_is_checked_as_it_opens(session: &Session, blog: &Path) {
    let mut text = String::from("---\ntitle: 맞춤법 시험\ndate: 2026-11-03\n---\n\n");
    for n in 0..150 {
        text.push_str(&format!("{n}번째 문단은 바르게 썼다.\n\n"));
    }
    text.push_str("맨 끝 문단에 됬다 하나.\n\n```\n코드 속 됬다\n```\n");
    std::fs::write(blog.join(SPELLING), &text).unwrap();
    session.open_post(SPELLING);
    let script = "const v = document.querySelector('.cm-content').cmTile.root.view; \
                  const at = v.state.doc.toString().indexOf('맨 끝 문단에'); \
                  v.dispatch({ selection: { anchor: at }, scrollIntoView: true }); return at > 0";
    assert_eq!(session.script(script, json!([])), json!(true));
    let last = editor_line(session, "맨 끝 문단에");
    let marked = "return [...document.querySelectorAll('.cm-content .cm-misspelled')].map((e) => e.textContent)";
    let words = wait("the last line's misspelt word marked", Duration::from_secs(15), || {
        let words = session.script(marked, json!([]));
        (words != json!([])).then_some(words)
    });
    assert_eq!(words, json!(["됬다"]), "the prose word is marked, the one in code is not");
    let spans = word_spans(session, &last, &["됬다", "문단에"]);
    let red = wait("the underline painted", Duration::from_secs(10), || {
        let red = red_pixels(session, &last, &spans);
        (red[0] > 0).then_some(red)
    });
    assert_eq!(red[1], 0, "a word spelt right is not underlined: {red:?}");
    assert_eq!(std::fs::read_to_string(blog.join(SPELLING)).unwrap(), text, "checking wrote nothing");
    session.open_post(LOOP);
}

/// Regression: English misspellings were never underlined, since the Korean
/// dictionary beside the English one accepted them. A post that says
/// `lang: en` has its page in English, and English alone is checked there
/// (the English dictionary is found and used).
fn english_misspellings_are_underlined_in_an_english_post(session: &Session) {
    let editor = session.find(".cm-content");
    let before = session.editor_text();
    // The front matter as text (the form folds it): `lang` has no box of its own.
    session.click(&session.find("[data-testid=front-matter-text]"));
    session.cursor_after("date: 2026-11-02");
    session.type_keys(&editor, &format!("{ENTER}lang: en"));
    wait("the page in English", Duration::from_secs(5), || {
        let lang = "return document.querySelector('iframe[data-testid=preview]').contentDocument.documentElement.lang";
        (session.script(lang, json!([])) == json!("en")).then_some(())
    });
    session.cursor_after("넷째 문단.");
    session.type_keys(&editor, &format!("{ENTER}{ENTER}An English line with wrld in it "));
    let english = editor_line(session, "An English line");
    let spans = word_spans(session, &english, &["wrld", "English", "line"]);
    let underlined = wait("the misspelt English word underlined", Duration::from_secs(10), || {
        let red = red_pixels(session, &english, &spans);
        (red[0] > 0).then_some(red)
    });
    assert_eq!(underlined[1..], [0, 0], "English words spelt right are not underlined: {underlined:?}");
    undo_until(session, &before);
}

/// Undoes in the editor until it holds `text` again.
fn undo_until(session: &Session, text: &str) {
    let editor = session.find(".cm-content");
    wait("the typing undone", Duration::from_secs(10), || {
        if session.editor_text() == text {
            return Some(());
        }
        session.type_keys(&editor, &format!("{CONTROL}z"));
        None
    });
}

/// Vim keys, once turned on in the settings: `o` opens a line and types
/// Korean into it, Esc goes back to normal mode, `dd` deletes the line.
fn vim_keys_delete_a_line(session: &Session) {
    let vim = |on: bool| {
        session.click(&session.find("button[aria-label=Settings]"));
        let checkbox = session.find("[data-testid=setting-vim]");
        session.click(&checkbox);
        wait("the vim setting", Duration::from_secs(5), || {
            (session.script("return arguments[0].checked", json!([{ ELEMENT: checkbox }])) == json!(on)).then_some(())
        });
        session.click(&session.find("button[aria-label=Settings]"));
    };
    vim(true);
    let editor = session.find(".cm-content");
    let before = session.editor_text();
    session.cursor_after("둘째 문단.");
    session.type_keys(&editor, &format!("{ESCAPE}o빔으로 쓴 줄입니다.{ESCAPE}"));
    wait("the line typed in insert mode", Duration::from_secs(5), || {
        session.editor_text().contains("둘째 문단.\n빔으로 쓴 줄입니다.\n").then_some(())
    });
    session.type_keys(&editor, "dd");
    wait("the line deleted by dd", Duration::from_secs(5), || (session.editor_text() == before).then_some(()));
    // Normal mode: `x` deletes a character instead of typing one.
    session.type_keys(&editor, "k0x");
    wait("x deleted the first character", Duration::from_secs(5), || {
        session.editor_text().contains("\n째 문단.\n").then_some(())
    });
    session.type_keys(&editor, "u");
    wait("u undid it", Duration::from_secs(5), || (session.editor_text() == before).then_some(()));
    vim(false);
    session.cursor_after("둘째 문단.");
    session.type_keys(&editor, "dd");
    wait("without vim, keys type", Duration::from_secs(5), || {
        session.editor_text().contains("둘째 문단.dd").then_some(())
    });
    session.type_keys(&editor, &format!("{CONTROL}z"));
    wait("typing undone", Duration::from_secs(5), || (session.editor_text() == before).then_some(()));
}

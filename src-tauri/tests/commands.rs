//! The app's commands, called through Tauri's IPC as the UI calls them (a
//! mock runtime, no window), on a copy of the sample blog.

mod support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::{SAMPLE, copy, files_under};
use tauri::test::{INVOKE_KEY, MockRuntime, mock_builder, mock_context, noop_assets};
use tauri::webview::InvokeRequest;
use tauri::{Manager, WebviewWindow, WebviewWindowBuilder};

use hanji::Journal;
use hanji::TrashCan;
use hanji_app::dialogs::Dialogs;
use hanji_app::state::AppState;
use hanji_app::store::Store;

struct App {
    _blog: Option<tempfile::TempDir>,
    root: PathBuf,
    app: tauri::App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
}

/// The app on a copy of `content/`, its dialogs answering `answer`.
fn app_with(answer: Option<PathBuf>) -> App {
    let blog = tempfile::tempdir().unwrap();
    let root = blog.path().join("blog");
    copy(Path::new(SAMPLE), &root);
    App { _blog: Some(blog), ..app_on(&root, answer, None) }
}

/// The app on the blog at `root`, keeping unsaved text in `journal`.
fn app_on(root: &Path, answer: Option<PathBuf>, journal: Option<&Path>) -> App {
    app_keeping(root, answer, journal, None)
}

/// The app on the blog at `root`, keeping unsaved text in `journal` and saved versions in `history`.
fn app_keeping(root: &Path, answer: Option<PathBuf>, journal: Option<&Path>, history: Option<&Path>) -> App {
    let dialogs = answer.map_or(Dialogs::System, Dialogs::Answer);
    let journal = journal.map(Journal::new);
    let history = history.map(hanji::History::new);
    let state = AppState::new(Store::open(None), Some(root.to_path_buf()), dialogs, TrashCan::Blog, journal, history);
    let app = hanji_app::app(mock_builder(), state).build(mock_context(noop_assets())).unwrap();
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    App { _blog: None, root: root.canonicalize().unwrap(), app, window }
}

fn app() -> App {
    app_with(None)
}

impl App {
    fn call(&self, command: &str, args: Value) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: command.into(),
            callback: tauri::ipc::CallbackFn(0),
            error: tauri::ipc::CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: tauri::ipc::InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        tauri::test::get_ipc_response(&self.window, request).map(|body| body.deserialize().unwrap())
    }

    fn ok(&self, command: &str, args: Value) -> Value {
        self.call(command, args).unwrap_or_else(|e| panic!("{command} failed: {e}"))
    }

    fn started(self) -> Self {
        let start = self.ok("start", json!({ "progress": PROGRESS }));
        assert!(start["error"].is_null(), "{start}");
        self
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.root.join(path)).unwrap()
    }
}

fn tag_line(blog: &Value, slug: &str) -> String {
    let tag = blog["tags"].as_array().unwrap().iter().find(|t| t["slug"] == slug).unwrap();
    format!("{} ({})", tag["name"].as_str().unwrap(), tag["count"])
}

/// A channel of the UI's for progress messages (the mock window drops them).
const PROGRESS: &str = "__CHANNEL__:1";

const POST: &str = "posts/rdma-complete-guide.md";
const RDMA_TAGS: [&str; 10] =
    ["rdma", "infiniband", "roce", "nccl", "gpu", "hpc", "ai-training", "networking", "low-latency", "zero-copy"];

#[test]
fn start_opens_the_blog_from_the_command_line() {
    let app = app();
    let start = app.ok("start", json!({ "progress": PROGRESS }));
    assert_eq!(tag_line(&start["blog"], "nccl"), "nccl (5)");
    let posts = start["blog"]["posts"].as_array().unwrap();
    assert_eq!(posts.len(), 16, "15 posts and the About page, which the author edits like a post");
    assert!(posts.iter().any(|p| p["path"] == "pages/about.md"), "the page is listed");
    assert!(posts.iter().any(|p| p["draft"] == true), "the draft is listed");
    assert_eq!(start["settings"]["autosave"], true);
    assert!(start["blog"]["layout"].is_null(), "a Hanji blog is not another tool's");
    // Asked again (the UI reloaded), the same blog answers.
    assert_eq!(app.ok("start", json!({ "progress": PROGRESS }))["blog"]["root"], start["blog"]["root"]);
}

#[test]
fn another_tools_blog_opens_as_it_is_and_says_what_was_detected() {
    let app = app().started();
    let hugo = tempfile::tempdir().unwrap();
    copy(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/layouts/hugo")), hugo.path());
    let blog = app.ok("open_blog", json!({ "path": hugo.path(), "progress": PROGRESS }));
    let layout = blog["layout"].as_str().unwrap();
    assert!(layout.starts_with("detected a Hugo blog"), "{layout}");
    assert!(!blog["posts"].as_array().unwrap().is_empty());
}

#[test]
fn unsaved_text_is_kept_in_the_journal_and_offered_after_a_crash() {
    let journal = tempfile::tempdir().unwrap();
    let blog = tempfile::tempdir().unwrap();
    let root = blog.path().join("blog");
    copy(Path::new(SAMPLE), &root);
    let saved = std::fs::read_to_string(root.join(POST)).unwrap();
    let mine = format!("{saved}\nWritten, never saved: 저장하지 않은 문장.\n");
    {
        let app = app_on(&root, None, Some(journal.path())).started();
        // Opened and not changed: nothing to keep.
        app.ok(
            "preview",
            json!({ "path": "posts/fp8-training-notes.md", "text": app.read("posts/fp8-training-notes.md") }),
        );
        app.ok("preview", json!({ "path": POST, "text": mine }));
        app.app.state::<AppState>().open_blog().unwrap().session.flush_journal();
        // The app ends here without saving, as a crash would end it.
    }
    let app = app_on(&root, None, Some(journal.path())).started();
    let recovered = app.ok("recovered", json!({}));
    let recovered = recovered.as_array().unwrap();
    assert_eq!(recovered.len(), 1, "{recovered:?}");
    assert_eq!(recovered[0]["path"], POST);
    assert_eq!(recovered[0]["text"], mine);
    assert_eq!(recovered[0]["saved"]["text"], saved, "the saved version is offered beside it");
    assert_eq!(app.read(POST), saved, "nothing was written to the blog");

    // Saved, it is no longer offered.
    app.ok("save_post", json!({ "path": POST, "text": mine, "version": null }));
    assert_eq!(app.ok("recovered", json!({})), json!([]));
    // The journal is in the app's folder, never the blog's.
    assert!(files_under(&root).iter().all(|f| !f.to_string_lossy().contains("journal")));
}

#[test]
fn a_post_is_read_and_saved_and_a_changed_file_is_never_overwritten() {
    let app = app().started();
    let post = app.ok("read_post", json!({ "path": POST }));
    let text = post["text"].as_str().unwrap().to_string();
    assert_eq!(text, app.read(POST));
    let mine = format!("{text}\nA new paragraph.\n");
    let saved = app.ok("save_post", json!({ "path": POST, "text": mine, "version": post["version"] }));
    assert_eq!(app.read(POST), mine);

    // Someone else changes it; saving over the old version is refused with theirs.
    let theirs = format!("{text}\nTheir paragraph.\n");
    std::fs::write(app.root.join(POST), &theirs).unwrap();
    let error =
        app.call("save_post", json!({ "path": POST, "text": "mine again", "version": saved["version"] })).unwrap_err();
    assert_eq!(error["kind"], "conflict");
    assert_eq!(error["theirs"]["text"], theirs);
    assert_eq!(app.read(POST), theirs, "nothing was written");
    // Keeping mine is a save without a version.
    app.ok("save_post", json!({ "path": POST, "text": "mine again", "version": null }));
    assert_eq!(app.read(POST), "mine again");
}

#[test]
fn paths_outside_the_blog_are_refused() {
    let app = app().started();
    for path in ["../outside.md", "/etc/passwd", "posts/../../x.md", "posts\\..\\..\\x.md", "C:/x.md"] {
        for (command, args) in [
            ("read_post", json!({ "path": path })),
            ("save_post", json!({ "path": path, "text": "x", "version": null })),
            ("preview", json!({ "path": path, "text": "x" })),
            ("save_image", json!({ "post": path, "name": "a.png", "bytes": [1] })),
        ] {
            let error = app.call(command, args).unwrap_err();
            assert_eq!(error["kind"], "outside_blog", "{command} {path}: {error}");
        }
    }
    assert!(!app.root.parent().unwrap().join("outside.md").exists());
}

#[test]
fn the_preview_shows_unsaved_text_through_a_protocol_that_runs_no_script() {
    let app = app().started();
    let text =
        app.read(POST) + "\nUnsaved words here.\n\n<script>window.__TAURI_INTERNALS__.invoke('delete_post')</script>\n";
    let preview = app.ok("preview", json!({ "path": POST, "text": text }));
    let url = preview["url"].as_str().unwrap();
    assert_eq!(url, "preview://localhost/posts/rdma-complete-guide/index.html");
    assert!(preview["words"].as_u64().unwrap() > 10);
    assert_eq!(preview["fields"]["tags"], json!(RDMA_TAGS));

    let state = app.app.state::<AppState>();
    let request = tauri::http::Request::get(url).body(Vec::new()).unwrap();
    let response = hanji_app::protocol::respond(&state, &request);
    let page = String::from_utf8_lossy(response.body());
    assert!(page.contains("Unsaved words here."));
    assert!(page.contains(" data-line=\""), "blocks carry their source lines for scroll sync");
    let csp = response.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'none'") && csp.contains("default-src 'none'"), "{csp}");
    assert!(csp.contains("sandbox"), "{csp}");

    // Site pages show the unsaved text too: here a new tag on the tags page.
    let tagged = text.replacen("  - \"zero-copy\"\n", "  - \"zero-copy\"\n  - \"unsaved-tag\"\n", 1);
    assert_ne!(tagged, text);
    app.ok("preview", json!({ "path": POST, "text": tagged }));
    let request = tauri::http::Request::get("preview://localhost/tags/index.html").body(Vec::new()).unwrap();
    let tags_page = String::from_utf8_lossy(hanji_app::protocol::respond(&state, &request).body()).into_owned();
    assert!(tags_page.contains("unsaved-tag"), "the tags page shows the unsaved tag");
    // Saved (or forgotten), it is gone from the preview again.
    app.ok("forget_unsaved", json!({ "path": POST }));
    let tags_page = String::from_utf8_lossy(hanji_app::protocol::respond(&state, &request).body()).into_owned();
    assert!(!tags_page.contains("unsaved-tag"));
}

#[test]
fn the_form_changes_only_its_field() {
    let app = app().started();
    let text = app.read(POST);
    let tags: Vec<&str> = RDMA_TAGS.iter().copied().chain(["extra-tag"]).collect();
    let edited = app.ok("set_field", json!({ "text": text, "key": "tags", "value": tags }));
    let edited = edited.as_str().unwrap();
    // One line more, the new tag's; every other line as it was, in order.
    let added: Vec<&str> = edited.lines().filter(|line| !text.lines().any(|old| old == *line)).collect();
    assert_eq!(added.len(), 1, "{added:?}");
    assert!(added[0].contains("extra-tag"));
    let kept: Vec<&str> = edited.lines().filter(|line| *line != added[0]).collect();
    assert_eq!(kept, text.lines().collect::<Vec<_>>());
    let dated = app.ok("set_field", json!({ "text": text, "key": "date", "value": "2026-12-01" }));
    assert!(dated.as_str().unwrap().contains("2026-12-01"));
    let error = app.call("set_field", json!({ "text": text, "key": "date", "value": "tomorrow" })).unwrap_err();
    assert_eq!(error["kind"], "invalid");
    let undrafted = app
        .ok("set_field", json!({ "text": "---\ntitle: A\ndraft: true\n---\nBody\n", "key": "draft", "value": null }));
    assert_eq!(undrafted, "---\ntitle: A\n---\nBody\n");
}

#[test]
fn new_rename_and_delete_keep_every_word() {
    let app = app().started();
    let made = app.ok("new_post", json!({ "title": "처음 쓰는 글" }));
    let path = made["path"].as_str().unwrap();
    assert_eq!(path, "posts/처음-쓰는-글.md");
    assert!(app.read(path).contains("draft: true"));
    let moved = app.ok("rename_post", json!({ "path": path, "slug": "first-post" }));
    assert_eq!(moved["path"], "posts/first-post.md");
    assert_eq!(app.read("posts/first-post.md"), made["text"].as_str().unwrap());
    let said = app.ok("delete_post", json!({ "path": "posts/first-post.md" }));
    assert!(said.as_str().unwrap().contains(".hanji/trash"), "{said}");
    assert!(!app.root.join("posts/first-post.md").exists());
    let trash = app.root.join(".hanji/trash");
    let kept = files_under(&trash).into_iter().find(|f| f.ends_with("first-post.md")).unwrap();
    assert_eq!(std::fs::read_to_string(kept).unwrap(), made["text"].as_str().unwrap());
}

#[test]
fn a_tag_is_renamed_across_posts_and_put_back() {
    let app = app().started();
    let before: Vec<(PathBuf, String)> = files_under(&app.root.join("posts"))
        .into_iter()
        .map(|f| (f.clone(), std::fs::read_to_string(&f).unwrap_or_default()))
        .collect();
    let plan = app.ok("plan_retag", json!({ "from": "nccl", "to": "NCCL-lib" }));
    assert_eq!(plan["files"].as_array().unwrap().len(), 5, "{plan}");
    assert_eq!(plan["merge"], false);
    let done = app.ok("retag", json!({ "from": "nccl", "to": "NCCL-lib" }));
    assert_eq!(done["files"].as_array().unwrap().len(), 5);
    assert!(app.read(POST).contains("NCCL-lib"));
    let restored = app.ok("undo_retag", json!({ "batch": done["batch"] }));
    assert_eq!(restored.as_array().unwrap().len(), 5);
    for (file, text) in before {
        assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), text, "{}", file.display());
    }
}

#[test]
fn an_image_is_added_beside_the_post_and_text_search_finds_posts() {
    let app = app().started();
    let markdown = app
        .ok("save_image", json!({ "post": POST, "name": "../../evil/Ring Diagram.png", "bytes": [137, 80, 78, 71] }));
    assert_eq!(markdown, "![Ring Diagram](../static/images/ring-diagram.png)");
    assert_eq!(std::fs::read(app.root.join("static/images/ring-diagram.png")).unwrap(), [137, 80, 78, 71]);
    let found = app.ok("search_text", json!({ "query": "ALL-REDUCE" }));
    assert!(found.as_array().unwrap().iter().any(|p| p == "posts/all-reduce-traffic-diagram/index.md"), "{found}");
    assert!(!found.as_array().unwrap().iter().any(|p| p == POST), "{found}");
}

#[test]
fn export_writes_the_site_where_the_dialog_answers() {
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let app = app_with(Some(site.clone())).started();
    // The progress channel is not wired in the mock; the export goes on without it.
    let summary = app.call("export_blog", json!({ "out": null, "progress": "__CHANNEL__:7" }));
    let summary = summary.unwrap();
    assert!(summary["written"].as_u64().unwrap() > 50, "{summary}");
    assert!(site.join("tags/nccl/index.html").is_file());
    // Only that folder can be shown.
    let error = app.call("show_folder", json!({ "path": "/" })).unwrap_err();
    assert_eq!(error["kind"], "invalid");
}

/// The UI made its own tag slugs (`CUDA²` → `cuda²`, the core's is `cuda`), so
/// a click on the tag listed none of its posts: the core now sends each post's
/// tag slugs, and the slugs of typed names, and the UI makes none.
#[test]
fn regression_a_tag_with_a_superscript_lists_its_posts() {
    let app = app().started();
    let slug = app.ok("tag_slugs", json!({ "names": ["CUDA²", "분산 학습"] }));
    assert_eq!(slug, json!(["cuda", "분산-학습"]));
    let text = app.read(POST).replacen("  - \"rdma\"\n", "  - \"rdma\"\n  - \"CUDA²\"\n", 1);
    assert!(text.contains("CUDA²"));
    app.ok("save_post", json!({ "path": POST, "text": text, "version": null }));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let post = |blog: &Value| blog["posts"].as_array().unwrap().iter().find(|p| p["path"] == POST).unwrap().clone();
    let blog = loop {
        let blog = app.ok("start", json!({ "progress": PROGRESS }))["blog"].clone();
        if post(&blog)["tags"].as_array().unwrap().iter().any(|t| t == "CUDA²") {
            break blog;
        }
        assert!(std::time::Instant::now() < deadline, "the watch never saw the new tag");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let tag = blog["tags"].as_array().unwrap().iter().find(|t| t["slug"] == "cuda").expect("the tag is listed").clone();
    let listed: Vec<&Value> = blog["posts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|post| post["tagSlugs"].as_array().unwrap().contains(&tag["slug"]))
        .collect();
    assert!(listed.iter().any(|p| p["path"] == POST), "the post is found by the tag's slug");
    let count = tag["count"].as_u64().unwrap() + tag["draftCount"].as_u64().unwrap();
    assert_eq!(listed.len() as u64, count, "every post the tag counts, and no other");
}

#[test]
fn saves_keep_the_versions_they_replace_and_the_preview_carries_its_page_and_outline() {
    let blog = tempfile::tempdir().unwrap();
    let root = blog.path().join("blog");
    copy(Path::new(SAMPLE), &root);
    let history = tempfile::tempdir().unwrap();
    let app = app_keeping(&root, None, None, Some(history.path())).started();
    let before = app.read(POST);
    let first = format!("{before}\n월요일에 쓴 문단.\n");
    app.ok("save_post", json!({ "path": POST, "text": first, "version": null }));
    app.ok("save_post", json!({ "path": POST, "text": before, "version": null }));
    let versions = app.ok("versions", json!({ "path": POST }));
    let versions = versions.as_array().unwrap();
    assert_eq!(versions.len(), 2, "{versions:?}");
    assert_eq!((versions[0]["added"].as_u64(), versions[0]["removed"].as_u64()), (Some(0), Some(2)));
    let newest = app.ok("read_version", json!({ "path": POST, "id": versions[0]["id"] }));
    assert_eq!(newest.as_str(), Some(first.as_str()), "the newest version is the text the last save replaced");
    let oldest = app.ok("read_version", json!({ "path": POST, "id": versions[1]["id"] }));
    assert_eq!(oldest.as_str(), Some(before.as_str()));
    assert!(history.path().read_dir().unwrap().next().is_some(), "kept in the app's folder");
    let outside = app.call("versions", json!({ "path": "../elsewhere.md" })).unwrap_err();
    assert_eq!(outside["kind"], "outside_blog");
    let missing = app.call("read_version", json!({ "path": POST, "id": "1" })).unwrap_err();
    assert!(missing["message"].as_str().unwrap().contains("saved version 1"), "{missing}");

    let preview =
        app.ok("preview", json!({ "path": POST, "text": "---\ntitle: 개요\n---\n\n## 첫째\n\n본문.\n\n## 둘째\n" }));
    let outline: Vec<(String, u64)> = preview["outline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["title"].as_str().unwrap().to_string(), h["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(outline, [("첫째".to_string(), 5), ("둘째".to_string(), 9)]);
    let html = preview["html"].as_str().unwrap();
    assert!(html.contains("data-line=\"7\"") && html.contains("본문."), "the page with its source lines");
}

/// Regression: with no blog named and none opened before, the app opened the
/// sample blog of the source tree it was built from, a folder an installed
/// app has no business in (and on another machine, none at all). It opens
/// nothing now: the UI welcomes the author with *Open folder…*.
#[test]
fn an_app_with_nothing_to_open_opens_no_folder_of_its_build() {
    let state = AppState::new(Store::open(None), None, Dialogs::System, TrashCan::Blog, None, None);
    let app = hanji_app::app(mock_builder(), state).build(mock_context(noop_assets())).unwrap();
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    let app = App { _blog: None, root: PathBuf::new(), app, window };
    assert!(Path::new(SAMPLE).is_dir(), "the sample is there to be opened");
    let start = app.ok("start", json!({ "progress": PROGRESS }));
    assert!(start["blog"].is_null(), "no blog opened: {}", start["blog"]);
    assert!(start["error"].is_null(), "and nothing went wrong: {}", start["error"]);
    assert!(app.app.state::<AppState>().open_blog().is_err());
}

#[test]
fn a_target_set_up_in_the_form_is_in_hanji_toml_and_its_secret_only_in_the_keychain() {
    let app = app().started();
    let form = json!({ "name": "host", "kind": "sftp", "fields": [
        ["host", "127.0.0.1"], ["port", "1"], ["user", "me"], ["path", "/www"]
    ] });
    let secret = "a password nobody should find";
    let info = app.ok("save_target", json!({ "form": form, "secret": secret }));
    assert_eq!(info["targets"][0]["form"]["name"], "host", "{info}");
    assert_eq!(info["targets"][0]["secret"], "the password");
    assert_eq!(info["targets"][0]["hasSecret"], true, "kept in the keychain: {info}");
    let settings = app.read("hanji.toml");
    assert!(settings.contains("[publish.host]\nkind = \"sftp\"\nhost = \"127.0.0.1\"\nport = 1\n"), "{settings}");
    assert!(settings.starts_with("title = "), "the rest of hanji.toml is as it was");
    for file in files_under(&app.root) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(secret), "the secret is in {}", file.display());
    }
    // A form that names a secret setting is refused, with a hint.
    let bad = json!({ "name": "x", "kind": "git", "fields": [["remote", "r"], ["token", "t"]] });
    let error = app.call("save_target", json!({ "form": bad, "secret": null })).unwrap_err();
    assert_eq!(error["kind"], "invalid");
    assert!(error["hint"].as_str().unwrap().contains("keychain"), "{error}");
    // Nothing listens on port 1: said so, with what to do.
    let error = app.call("test_target", json!({ "form": form, "secret": null })).unwrap_err();
    assert_eq!((error["kind"].as_str(), error["fault"].as_str()), (Some("publish"), Some("unreachable")), "{error}");
    assert!(error["hint"].as_str().unwrap().contains("check the host name and port"), "{error}");
}

/// A Tistory backup (the core's fixture): posts, a notice, a page, private
/// posts, attachments; nothing in it is fetched from the network.
const TISTORY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/import/tistory/backup.xml");

#[test]
fn import_asks_for_the_export_makes_a_new_blog_opens_it_and_reports_what_did_not_come_over() {
    let backup = Path::new(TISTORY).canonicalize().unwrap();
    let app = app_with(Some(backup.clone())).started();
    // The export, from the dialog (the seam answers the backup).
    let chosen = app.ok("choose_export", json!({}));
    assert_eq!(chosen, backup.to_str().unwrap());
    // The new blog's folder: a new one named after the export, in the folder given.
    let documents = tempfile::tempdir().unwrap();
    let folder = app.ok("import_folder", json!({ "source": chosen, "parent": documents.path() }));
    assert_eq!(folder, documents.path().join("backup").to_str().unwrap());
    std::fs::create_dir(documents.path().join("backup")).unwrap();
    std::fs::write(documents.path().join("backup/notes.txt"), "mine").unwrap();
    let taken = app.ok("import_folder", json!({ "source": chosen, "parent": documents.path() }));
    assert_eq!(taken, documents.path().join("backup-2").to_str().unwrap(), "a folder in use is not chosen");
    let velog = app.ok("import_folder", json!({ "source": "velog:@me", "parent": documents.path() }));
    assert_eq!(velog, documents.path().join("me.log").to_str().unwrap());

    // A folder with files of its own is refused, and left as it was.
    let refused = app
        .call(
            "import_blog",
            json!({ "source": chosen, "folder": documents.path().join("backup"), "steps": PROGRESS, "progress": PROGRESS }),
        )
        .unwrap_err();
    assert_eq!(refused["kind"], "exists", "{refused}");
    assert!(refused["hint"].as_str().unwrap().contains("new folder"), "{refused}");
    assert_eq!(files_under(&documents.path().join("backup")), [documents.path().join("backup/notes.txt")]);

    let imported =
        app.ok("import_blog", json!({ "source": chosen, "folder": taken, "steps": PROGRESS, "progress": PROGRESS }));
    let report = &imported["report"];
    assert_eq!(report["platform"], "Tistory");
    let count = |kind: &str| {
        report["counts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["kind"] == kind)
            .map_or(0, |c| c["count"].as_u64().unwrap())
    };
    assert_eq!(count("posts"), 5, "four posts and a notice: {report}");
    assert_eq!(count("drafts"), 2, "{report}");
    let notes: Vec<String> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("{}: {}", n["source"].as_str().unwrap(), n["what"].as_str().unwrap()))
        .collect();
    assert!(notes.iter().any(|n| n.contains("비밀 메모")), "a private post is named: {notes:#?}");
    assert!(notes.iter().any(|n| n.contains("Kakao's servers")), "{notes:#?}");
    // The new blog is open, with the export's posts.
    let blog = &imported["blog"];
    assert_eq!(blog["root"], taken);
    let titles: Vec<&str> = blog["posts"].as_array().unwrap().iter().map(|p| p["title"].as_str().unwrap()).collect();
    for title in ["블로그 이사 안내", "협업 SW개발 플랫폼 Yobi", "파이썬 튜터와 빌드", "소개"] {
        assert!(titles.contains(&title), "{title} not in {titles:?}");
    }
    let start = app.ok("start", json!({ "progress": PROGRESS }));
    assert_eq!(start["blog"]["root"], taken, "the imported blog is the one open");
}

/// A WordPress export whose image is on a server that is not there (port
/// 1 of this machine refuses at once): the import downloads from the
/// app's worker thread, the link stays and the report names it.
#[test]
fn an_image_that_cannot_be_downloaded_is_named_in_the_apps_report() {
    let app = app().started();
    let temp = tempfile::tempdir().unwrap();
    let wxr = "<?xml version=\"1.0\"?><rss xmlns:wp=\"http://wordpress.org/export/1.2/\" \
               xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel><link>https://old.example</link>\
               <item><title>Hello</title><link>https://old.example/hello/</link>\
               <content:encoded><![CDATA[<p><img src=\"http://127.0.0.1:1/x.png\" alt=\"x\"></p>]]></content:encoded>\
               <wp:post_id>1</wp:post_id><wp:post_name>hello</wp:post_name><wp:status>publish</wp:status>\
               <wp:post_type>post</wp:post_type></item></channel></rss>";
    let source = temp.path().join("old.xml");
    std::fs::write(&source, wxr).unwrap();
    let folder = temp.path().join("blog");
    let imported =
        app.ok("import_blog", json!({ "source": source, "folder": folder, "steps": PROGRESS, "progress": PROGRESS }));
    let notes = imported["report"]["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n["what"]
            .as_str()
            .unwrap()
            .starts_with("the image http://127.0.0.1:1/x.png could not be downloaded")),
        "{notes:?}"
    );
    let text = std::fs::read_to_string(folder.join("posts/hello/index.md")).unwrap();
    assert!(text.contains("![x](http://127.0.0.1:1/x.png)"), "{text}");
}

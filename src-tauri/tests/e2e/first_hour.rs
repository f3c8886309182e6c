//! The first hour of a new user, end to end, in a window of 1024×640 with
//! the window in Korean: the welcome, *New blog…*, a Korean post with a
//! table and a code block, the preview hidden, the list resized, a problem
//! that appears and goes, and the export. A screenshot of each step is kept
//! in `target/tmp/e2e/first-hour/` (`CARGO_TARGET_TMPDIR`), to look at.

use super::*;

/// Where the steps' screenshots go.
fn shots() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e/first-hour")
}

/// Saves what the window shows now as `name`.png among the steps' screenshots.
fn step(session: &Session, name: &str) {
    painted_shot(session, &shots().join(format!("{name}.png")));
}

/// The text of the first element `css`, or None.
fn text_of(session: &Session, css: &str) -> Option<String> {
    session.texts(css).into_iter().next()
}

/// Drags the mouse from `from` to `to`, pressed, as a person does.
fn drag(session: &Session, (x, y): (f64, f64), (to_x, to_y): (f64, f64)) {
    let at = |x: f64, y: f64| json!({ "type": "pointerMove", "x": x.round() as i64, "y": y.round() as i64, "origin": "viewport" });
    let steps = vec![
        at(x, y),
        json!({ "type": "pointerDown", "button": 0 }),
        json!({ "type": "pause", "duration": 100 }),
        at((x + to_x) / 2.0, (y + to_y) / 2.0),
        at(to_x, to_y),
        json!({ "type": "pointerUp", "button": 0 }),
    ];
    let actions = json!({ "actions": [{ "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" }, "actions": steps }] });
    session.call("POST", "/actions", Some(actions));
    session.call("DELETE", "/actions", None);
}

/// The centre of the first element `css`, in the window.
fn centre(session: &Session, css: &str) -> (f64, f64) {
    let script = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]";
    let at = session.script(script, json!([css]));
    (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
}

#[test]
#[ignore = "needs Xvfb, tauri-driver and WebKitWebDriver: run with `make e2e`"]
fn the_first_hour() {
    let temp = tempfile::tempdir().unwrap();
    let config = temp.path().join("config");
    let site = temp.path().join("site");
    std::fs::create_dir_all(&config).unwrap();
    // The window in Korean, as a Korean system would have it; autosave soon.
    let settings = json!({ "settings": { "language": "ko", "autosave": true, "autosaveDelayMs": 600 } });
    std::fs::write(config.join("hanji-app.json"), settings.to_string()).unwrap();
    let browser = temp.path().join("browser.sh");
    std::fs::write(&browser, "#!/bin/sh\n").unwrap();
    let _ = std::fs::remove_dir_all(shots());
    // No blog named, none opened before: the welcome. The dialog (the export's folder) answers `site`.
    let (_processes, driver) = start(temp.path(), &config, &site, &browser);
    let session = driver.session_with(&[]);
    let _shot = Shot(&session);
    session.call("POST", "/window/rect", Some(json!({ "width": 1024, "height": 640 })));

    // 1. The welcome: three ways to start, in Korean.
    let new_blog = session.find("[data-testid=welcome-new-blog]");
    wait("the welcome in Korean", Duration::from_secs(10), || {
        text_of(&session, "[data-testid=welcome-new-blog] .what").filter(|t| t == "새 블로그…")
    });
    assert!(session.try_find("[data-testid=welcome-sample]").is_some(), "Try the sample is offered");
    // The Blog menu offers them too, and Escape closes it.
    session.click(&session.find("[data-testid=blog-menu]"));
    let item = session.find("[data-testid=menu-new-blog]");
    assert_eq!(text_of(&session, "[data-testid=menu-new-blog]").as_deref(), Some("새 블로그…"));
    session.type_keys(&item, ESCAPE);
    wait("Escape closes the Blog menu", Duration::from_secs(5), || {
        session.try_find("[data-testid=blog-menu-items]").is_none().then_some(())
    });
    step(&session, "01-welcome");

    // 2. New blog: title, language, author; made in the documents and opened.
    session.click(&new_blog);
    let title = session.find("[data-testid=new-blog-title]");
    session.type_keys(&title, "GPU 일지");
    let author = session.find("[data-testid=new-blog-author]");
    session.type_keys(&author, "한지수");
    let folder = wait("the new blog's folder", Duration::from_secs(10), || {
        text_of(&session, "[data-testid=new-blog-folder]").filter(|f| f.ends_with("gpu-일지"))
    });
    step(&session, "02-new-blog");
    session.click(&session.find("[data-testid=new-blog-make]"));
    let blog = PathBuf::from(&folder);
    wait("the new blog open, its first post listed", Duration::from_secs(20), || {
        session.try_find("[data-testid=post][data-path=\"posts/first-post.md\"]")
    });
    assert!(blog.join("hanji.toml").is_file() && blog.join("pages/about.md").is_file(), "{folder}");
    let settings = std::fs::read_to_string(blog.join("hanji.toml")).unwrap();
    assert!(settings.contains("title = \"GPU 일지\"") && settings.contains("locale = \"ko-KR\""), "{settings}");
    wait("a blog without problems", Duration::from_secs(20), || {
        text_of(&session, "[data-testid=problems-count]").filter(|t| t == "문제 없음")
    });
    assert_eq!(
        text_of(&session, "[data-testid=post-count]").as_deref(),
        Some("글 1개, 페이지 1개"),
        "a page is no post"
    );
    step(&session, "03-new-blog-open");

    // 3. A Korean post with a table and a code block.
    session.click(&session.find("[data-testid=new-post]"));
    let input = session.find("[data-testid=modal-input]");
    session.type_keys(&input, &format!("분산 학습 메모{ENTER}"));
    wait("the new post in the editor", Duration::from_secs(10), || {
        session.editor_text().contains("title: 분산 학습 메모").then_some(())
    });
    // Its front matter is shown once: in the form, folded in the text.
    session.find("[data-testid=front-matter-folded]");
    assert_eq!(
        session.script("return document.querySelector('[data-testid=field-title]').value", json!([])),
        json!("분산 학습 메모")
    );
    let editor = session.find(".cm-content");
    session.type_keys(&editor, &format!("{CONTROL}{END}"));
    session.type_keys(&editor, &format!("{ENTER}링 올리듀스로 그래디언트를 모읍니다.{ENTER}{ENTER}"));
    session.type_keys(&editor, &format!("```sh{ENTER}nvidia-smi topo -m{ENTER}```{ENTER}{ENTER}"));
    // The table last: Enter in a table makes its next row.
    session.type_keys(&editor, &format!("## 노드 구성{ENTER}{ENTER}| 노드 | GPU |{ENTER}a100{TAB}8"));
    wait("the table and the code in the preview", Duration::from_secs(20), || {
        session.preview_text().filter(|t| t.contains("nvidia-smi topo -m") && t.contains("a100")).map(|_| ())
    });
    // At 1024×640 the editor shows at least 25 lines of a post.
    let lines = session.script(
        "const v = document.querySelector('.cm-content').cmTile.root.view; \
         const top = parseFloat(getComputedStyle(v.contentDOM).paddingTop); \
         return Math.floor((v.scrollDOM.clientHeight - top) / v.defaultLineHeight)",
        json!([]),
    );
    assert!(lines.as_u64().unwrap_or(0) >= 25, "lines shown at 1024×640: {lines}");
    step(&session, "04-korean-post");

    // 4. The preview hidden (Ctrl+\): the editor takes its room.
    let width = |css: &str| {
        session.script("return document.querySelector(arguments[0]).getBoundingClientRect().width", json!([css]))
    };
    let before = width(".writing").as_f64().unwrap();
    session.type_keys(&editor, &format!("{CONTROL}\\"));
    wait("the preview hidden", Duration::from_secs(5), || {
        (width(".writing").as_f64().unwrap() > before + 200.0).then_some(())
    });
    step(&session, "05-preview-hidden");

    // 5. The list resized by its splitter; the width is kept in the settings.
    let list = width(".side").as_f64().unwrap();
    let from = centre(&session, "[data-testid=splitter-sidebar]");
    drag(&session, from, (from.0 + 90.0, from.1));
    let wider = wait("the list wider", Duration::from_secs(5), || {
        let now = width(".side").as_f64().unwrap();
        (now > list + 60.0).then_some(now)
    });
    wait("the width kept", Duration::from_secs(5), || {
        let kept: Value = serde_json::from_str(&std::fs::read_to_string(config.join("hanji-app.json")).ok()?).ok()?;
        (kept["settings"]["sidebarWidth"].as_f64()? == wider.round()).then_some(())
    });
    step(&session, "06-list-resized");

    // 6. A problem appears (a link to no post) and goes (the link taken out).
    let editor = session.find(".cm-content");
    session.cursor_after("모읍니다.");
    session.type_keys(&editor, " [없는 글](nowhere.md)");
    wait("the problem counted", Duration::from_secs(20), || {
        text_of(&session, "[data-testid=problems-count]").filter(|t| t == "경고 1개")
    });
    wait("the problem at its line", Duration::from_secs(10), || {
        text_of(&session, "[data-testid=editor-problem]").filter(|t| t.contains("nowhere.md"))
    });
    step(&session, "07-problem");
    for _ in 0.." [없는 글](nowhere.md)".chars().count() {
        session.type_keys(&editor, "\u{E003}");
    }
    wait("no problem again", Duration::from_secs(20), || {
        text_of(&session, "[data-testid=problems-count]").filter(|t| t == "문제 없음")
    });
    step(&session, "08-problem-gone");

    // 7. The export: the summary agrees with the status bar.
    session.type_keys(&editor, &format!("{CONTROL}e"));
    let summary = session.find("[data-testid=export-summary]");
    assert!(site.join("index.html").is_file() && site.join("posts/first-post/index.html").is_file());
    assert_eq!(text_of(&session, "[data-testid=export-problems]").as_deref(), Some("문제 없음"), "as the status bar");
    let page = std::fs::read_to_string(site.join("posts/first-post/index.html")).unwrap();
    assert!(page.contains("<html lang=\"ko\"") && page.contains("분 분량"), "the theme's words in Korean");
    let _ = summary;
    step(&session, "09-exported");
}

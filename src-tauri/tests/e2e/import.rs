//! *Import…* in the Blog menu, end to end: the export chosen through the
//! file dialog (the dialog seam answers the core's Tistory fixture), the new
//! folder the core names in the documents folder, the import, its report,
//! and the new blog open with its posts. A screenshot of the report is kept
//! in `target/tmp/e2e/import/report.png`.

use super::*;

const TISTORY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/import/tistory/backup.xml");

#[test]
#[ignore = "needs Xvfb, tauri-driver and WebKitWebDriver: run with `make e2e`"]
fn a_tistory_backup_is_imported_from_the_blog_menu() {
    let temp = tempfile::tempdir().unwrap();
    let config = temp.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    let settings = json!({ "settings": { "language": "en" } });
    std::fs::write(config.join("hanji-app.json"), settings.to_string()).unwrap();
    let browser = temp.path().join("browser.sh");
    std::fs::write(&browser, "#!/bin/sh\n").unwrap();
    let backup = Path::new(TISTORY).canonicalize().unwrap();
    let (_processes, driver) = start(temp.path(), &config, &backup, &browser);
    let session = driver.session_with(&[]);
    let _shot = Shot(&session);

    let menu = session.find("[data-testid=blog-menu]");
    session.click(&menu);
    let item = session.find("[data-testid=menu-import]");
    session.click(&item);
    let choose = session.find("[data-testid=import-choose-file]");
    session.click(&choose);
    let folder = config.join("documents/backup");
    wait("the new folder named after the export", Duration::from_secs(10), || {
        session.texts("[data-testid=import-folder]").iter().any(|f| Path::new(f) == folder).then_some(())
    });
    let run = session.find("[data-testid=import-run]");
    session.click(&run);
    session.find("[data-testid=import-report]");
    let counts = session.texts("[data-testid=import-counts] li");
    assert!(counts.iter().any(|c| c == "5 posts") && counts.iter().any(|c| c == "2 drafts"), "{counts:?}");
    let notes = session.texts("[data-testid=import-notes] li");
    assert!(notes.iter().any(|n| n.contains("비밀 메모") && n.contains("private on Tistory")), "{notes:?}");
    assert_eq!(notes.len(), 6, "every item not converted exactly: {notes:?}");
    painted_shot(&session, &Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e/import/report.png"));

    assert!(folder.join("posts/파이썬-튜터와-빌드/index.md").is_file(), "the posts are written in the new folder");
    let close = session.find("[data-testid=import-close]");
    session.click(&close);
    wait("the imported posts in the list", Duration::from_secs(20), || {
        let titles = session.texts("[data-testid=post]");
        titles.iter().any(|t| t.contains("블로그 이사 안내")).then_some(())
    });
}

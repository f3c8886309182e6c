//! Builds the app's context, and declares its commands so that the window's
//! capability can allow exactly these and nothing else.

const COMMANDS: &[&str] = &[
    "start",
    "open_blog",
    "new_blog_folder",
    "choose_folder",
    "new_blog",
    "try_sample",
    "choose_export",
    "import_folder",
    "import_blog",
    "watch",
    "read_post",
    "save_post",
    "preview",
    "misspelled",
    "spelling_suggestions",
    "versions",
    "read_version",
    "forget_unsaved",
    "set_field",
    "new_post",
    "rename_post",
    "delete_post",
    "insert_image",
    "save_image",
    "tag_slugs",
    "plan_retag",
    "retag",
    "undo_retag",
    "export_blog",
    "show_folder",
    "search_text",
    "save_settings",
    "recovered",
    "discard_recovered",
    "publish_targets",
    "save_target",
    "test_target",
    "trust_host",
    "publish_blog",
    "cancel_publish",
    "open_site",
    "commit_sources",
    "pull_sources",
    "push_sources",
];

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest)).expect("the Tauri build step");
}

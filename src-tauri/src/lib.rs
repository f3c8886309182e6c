//! Hanji's desktop app: a Tauri window around the core. Commands translate
//! between the UI and the core (`commands`); the preview iframe is served by
//! the `preview:` protocol; the open blog is watched and its changes are
//! streamed to the UI (`state`).

pub mod commands;
pub mod dialogs;
pub mod error;
pub mod progress;
pub mod protocol;
pub mod state;
pub mod store;
pub mod view;

use std::path::PathBuf;

use tauri::{Manager, Runtime};

use dialogs::Dialogs;
use hanji::{History, Journal, TrashCan};
use state::AppState;
use store::Store;

/// The app's commands and protocol on `builder`, with `state`.
pub fn app<R: Runtime>(builder: tauri::Builder<R>, state: AppState) -> tauri::Builder<R> {
    builder
        .manage(state)
        .register_asynchronous_uri_scheme_protocol(protocol::SCHEME, |context, request, responder| {
            let app = context.app_handle().clone();
            // Rendering may take a moment: not on the webview's thread.
            std::thread::spawn(move || responder.respond(protocol::respond(&app.state::<AppState>(), &request)));
        })
        .invoke_handler(tauri::generate_handler![
            commands::start,
            commands::open_blog,
            commands::new_blog_folder,
            commands::choose_folder,
            commands::new_blog,
            commands::try_sample,
            commands::choose_export,
            commands::import_folder,
            commands::import_blog,
            commands::watch,
            commands::read_post,
            commands::save_post,
            commands::preview,
            commands::misspelled,
            commands::spelling_suggestions,
            commands::versions,
            commands::read_version,
            commands::forget_unsaved,
            commands::set_field,
            commands::new_post,
            commands::rename_post,
            commands::delete_post,
            commands::insert_image,
            commands::save_image,
            commands::tag_slugs,
            commands::plan_retag,
            commands::retag,
            commands::undo_retag,
            commands::export_blog,
            commands::show_folder,
            commands::search_text,
            commands::save_settings,
            commands::recovered,
            commands::discard_recovered,
            commands::publish_targets,
            commands::save_target,
            commands::test_target,
            commands::trust_host,
            commands::publish_blog,
            commands::cancel_publish,
            commands::open_site,
            commands::commit_sources,
            commands::pull_sources,
            commands::push_sources,
        ])
}

/// Runs the app: the blog in `start` (the command line's), else the last one.
pub fn run(start: Option<PathBuf>) {
    let folder = config_folder();
    let journal = folder.as_ref().map(|f| Journal::new(f.join("journal")));
    let history = folder.as_ref().map(|f| History::new(f.join("history")));
    let state = AppState::new(Store::open(folder), start, Dialogs::from_env(), TrashCan::System, journal, history);
    app(tauri::Builder::default(), state)
        .setup(|app| {
            // The first blog is read while the window and its page start.
            let handle = app.handle().clone();
            std::thread::Builder::new()
                .name("hanji first blog".into())
                .spawn(move || drop(handle.state::<AppState>().open_first(None)))?;
            main_window(app.handle())?;
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("the Hanji window");
}

/// The editor window. It never leaves the app's own pages: a link followed
/// anywhere in it (the preview included) goes nowhere, and a link to the web
/// that the author clicks in the preview opens in the system's browser.
fn main_window<R: Runtime>(app: &tauri::AppHandle<R>) -> tauri::Result<tauri::WebviewWindow<R>> {
    let window = tauri::WebviewWindowBuilder::new(app, "main", tauri::WebviewUrl::App("index.html".into()))
        .title("Hanji")
        .inner_size(1360.0, 860.0)
        .min_inner_size(720.0, 480.0)
        // Images dropped on the editor reach the page, not Tauri.
        .disable_drag_drop_handler()
        .on_navigation(protocol::stays_in_app)
        .on_new_window(|url, _| {
            if matches!(url.scheme(), "http" | "https" | "mailto")
                && let Err(e) = opener::open_browser(url.as_str())
            {
                eprintln!("hanji: cannot open {url} in the browser: {e}");
            }
            tauri::webview::NewWindowResponse::Deny
        })
        .build()?;
    window.with_webview(|webview| drawing(&webview))?;
    Ok(window)
}

/// Without a GPU (no render node: a virtual machine, a server, Xvfb)
/// WebKitGTK's accelerated path runs its GL on the CPU (Mesa's llvmpipe), and
/// each frame of the window costs tens of milliseconds more than drawing it
/// on the CPU directly: keystroke to preview took a median of 82 ms against
/// 31 ms so on a 2-core machine (the guide, docs/posts/speed.md). With a GPU, WebKit's own
/// choice stands.
#[cfg(target_os = "linux")]
fn drawing(webview: &tauri::webview::PlatformWebview) {
    use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
    // Render nodes are numbered from 128, one a GPU.
    let has_gpu = (128..136).any(|n| hanji::exists(std::path::Path::new(&format!("/dev/dri/renderD{n}"))));
    if !has_gpu && let Some(settings) = webview.inner().settings() {
        settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
    }
}

#[cfg(not(target_os = "linux"))]
fn drawing(_: &tauri::webview::PlatformWebview) {}

/// Where the app keeps its settings: the core's `config_dir`.
fn config_folder() -> Option<PathBuf> {
    hanji::config_dir()
}

//! The commands the UI calls. Each one confines its paths to the open blog,
//! calls the core (mostly the open blog's `Session`), and returns a
//! serializable result or an `AppError`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State, WebviewWindow};

use hanji::front_matter::{FieldValue, remove_field, set_field as set_front_matter_field};
use hanji::{ExportOptions, PostDate, version_of};

use crate::error::Result;
use crate::progress::{LoadingReport, Paced};
use crate::state::{AppState, OpenBlog};
use crate::view::{
    self, AppError, BlogView, ErrorKind, ExportProgress, ExportSummary, Heading, ImportReport, Imported, Loading,
    PostText, Preview, PublishDone, PublishInfo, Recovered, RetagDone, RetagPlan, Saved, Settings, StartInfo,
    TargetForm, TargetView, VersionItem, WatchUpdate,
};

/// Opens the blog to start with (the command line's, else the last one,
/// else nothing), off the window's thread, telling `progress` how far
/// reading it has come: the window is drawn meanwhile.
#[tauri::command]
pub async fn start<R: Runtime>(app: AppHandle<R>, progress: Channel<Loading>) -> Result<StartInfo> {
    off_the_window(move || start_info(&app.state::<AppState>(), progress)).await
}

fn start_info(state: &AppState, progress: Channel<Loading>) -> StartInfo {
    let settings = state.store.settings();
    let strings = |paths: &[PathBuf]| paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(open) = state.blog.lock().expect("app state").clone() {
        // Open already: read while the window started, or the UI was reloaded.
        return StartInfo { blog: Some(open.view()), recent: strings(&state.store.recent()), settings, error: None };
    }
    let (blog, error) = match state.open_first(Some(progress)) {
        Some(Ok(open)) => (Some(open.view()), None),
        Some(Err(error)) => (None, Some(error)),
        None => (None, None),
    };
    StartInfo { blog, recent: strings(&state.store.recent()), settings, error }
}

/// Opens the blog at `path` (asked for with a folder dialog without it),
/// telling `progress` how far reading it has come.
#[tauri::command]
pub async fn open_blog<R: Runtime>(
    window: WebviewWindow<R>,
    state: State<'_, AppState>,
    path: Option<String>,
    progress: Channel<Loading>,
) -> Result<Option<BlogView>> {
    let root = match path {
        Some(path) => PathBuf::from(path),
        None => match state.dialogs.pick_folder(&window, "Open a blog folder").await {
            Some(root) => root,
            None => return Ok(None),
        },
    };
    let app = window.app_handle().clone();
    off_the_window(move || {
        let state = app.state::<AppState>();
        let report = LoadingReport::default();
        report.listen(progress);
        Ok(Some(state.open(&root, report.progress(&root))?.view()))
    })
    .await?
}

/// Opens the blog at `root` in place of the one open (off the window's thread).
async fn open_at<R: Runtime>(app: AppHandle<R>, root: PathBuf, progress: Channel<Loading>) -> Result<BlogView> {
    off_the_window(move || {
        let state = app.state::<AppState>();
        let report = LoadingReport::default();
        report.listen(progress);
        Ok(state.open(&root, report.progress(&root))?.view())
    })
    .await?
}

/// Where new blogs and the sample's copy go unless the author picks a
/// folder: the user's documents (`$HANJI_DOCUMENTS_DIR` for tests), else home.
fn documents<R: Runtime>(app: &AppHandle<R>) -> Result<PathBuf> {
    if let Some(folder) = std::env::var_os("HANJI_DOCUMENTS_DIR") {
        return Ok(folder.into());
    }
    use tauri::path::BaseDirectory;
    let documents = app.path().document_dir().or_else(|_| app.path().resolve("", BaseDirectory::Home));
    documents.map_err(|e| AppError::new(ErrorKind::NotFound, format!("no documents folder to make the blog in: {e}")))
}

/// The folder a new blog titled `title` goes to: a new one named for it in
/// `parent` (the user's documents when none is given).
#[tauri::command]
pub fn new_blog_folder<R: Runtime>(app: AppHandle<R>, title: String, parent: Option<String>) -> Result<String> {
    let parent = match parent {
        Some(parent) => PathBuf::from(parent),
        None => documents(&app)?,
    };
    Ok(hanji::fresh_folder(&parent, title.trim()).to_string_lossy().into_owned())
}

/// Asks for a folder (a system dialog); None if cancelled.
#[tauri::command]
pub async fn choose_folder<R: Runtime>(window: WebviewWindow<R>, state: State<'_, AppState>) -> Result<Option<String>> {
    let chosen = state.dialogs.pick_folder(&window, "Choose a folder").await;
    Ok(chosen.map(|folder| folder.to_string_lossy().into_owned()))
}

/// Makes a new blog in `folder` (which must be new or empty) and opens it.
#[tauri::command]
pub async fn new_blog<R: Runtime>(
    app: AppHandle<R>,
    title: String,
    locale: String,
    author: String,
    folder: String,
    progress: Channel<Loading>,
) -> Result<BlogView> {
    // Now by the clock scheduled posts are judged by (`HANJI_NOW` in tests).
    let now = hanji::Clock::from_env().unwrap_or_default().now();
    let blog = hanji::NewBlog { title, locale, author };
    let root = off_the_window(move || hanji::new_blog(Path::new(&folder), &blog, now)).await??;
    open_at(app, root, progress).await
}

/// Opens a copy of the sample blog, made in a new folder of the user's
/// documents: the sample the app was installed with (or, run from the
/// source, `content/`) is never written to.
#[tauri::command]
pub async fn try_sample<R: Runtime>(app: AppHandle<R>, progress: Channel<Loading>) -> Result<BlogView> {
    let sample = sample_blog(&app)?;
    let to = hanji::fresh_folder(&documents(&app)?, "hanji-sample");
    let root = off_the_window(move || hanji::copy_blog(&sample, &to)).await??;
    open_at(app, root, progress).await
}

/// Asks for a hosted blog's export with the system's file dialog; None if cancelled.
#[tauri::command]
pub async fn choose_export<R: Runtime>(window: WebviewWindow<R>, state: State<'_, AppState>) -> Result<Option<String>> {
    let chosen = state.dialogs.pick_export(&window, "Import a blog's export").await;
    Ok(chosen.map(|file| file.to_string_lossy().into_owned()))
}

/// The folder an import of `source` goes to: the core's rule, in `parent`
/// (the user's documents when none is given).
#[tauri::command]
pub fn import_folder<R: Runtime>(app: AppHandle<R>, source: String, parent: Option<String>) -> Result<String> {
    let parent = match parent {
        Some(parent) => PathBuf::from(parent),
        None => documents(&app)?,
    };
    Ok(hanji::import_folder(Path::new(source.trim()), &parent).to_string_lossy().into_owned())
}

/// Imports `source` (an export file, or `velog:@user`) into `folder`, which
/// the core refuses unless it is new, empty or an earlier import of the
/// same site; `steps` hears how a Velog import is going. Then opens the new
/// blog; the report and the blog.
#[tauri::command]
pub async fn import_blog<R: Runtime>(
    app: AppHandle<R>,
    source: String,
    folder: String,
    steps: Channel<String>,
    progress: Channel<Loading>,
) -> Result<Imported> {
    let into = PathBuf::from(&folder);
    let step = hanji::ImportProgress(Arc::new(move |text: &str| drop(steps.send(text.to_string()))));
    let options = hanji::ImportOptions { into: into.clone(), progress: Some(step), ..Default::default() };
    let report = off_the_window(move || hanji::import(Path::new(source.trim()), &options)).await??;
    let report = ImportReport::new(&report, &into);
    Ok(Imported { blog: open_at(app, into, progress).await?, report })
}

/// Where the sample blog is: beside the installed app (`sample/` in its
/// resources, as `tauri.conf.json` bundles `content/`), else `content/` of
/// the source the app was built from.
fn sample_blog<R: Runtime>(app: &AppHandle<R>) -> Result<PathBuf> {
    use tauri::path::BaseDirectory;
    let bundled = app.path().resolve("sample", BaseDirectory::Resource).ok().filter(|p| p.join("hanji.toml").is_file());
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    bundled
        .or_else(|| built.join("hanji.toml").is_file().then_some(built))
        .ok_or_else(|| AppError::new(ErrorKind::NotFound, "the sample blog is not installed with this app"))
}

/// Runs `work` on a thread of its own (reading a blog; git, the settings
/// file, the keychain), so that the window is drawn and answers meanwhile.
async fn off_the_window<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    tauri::async_runtime::spawn_blocking(work).await.map_err(|e| AppError::new(ErrorKind::Io, format!("stopped: {e}")))
}

#[tauri::command]
pub fn watch(state: State<'_, AppState>, channel: Channel<WatchUpdate>) -> Result<()> {
    state.open_blog()?.listen(channel);
    Ok(())
}

#[tauri::command]
pub fn read_post(state: State<'_, AppState>, path: String) -> Result<PostText> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    read_text(&open, &file)
}

fn read_text(open: &OpenBlog, file: &Path) -> Result<PostText> {
    let shown = view::path_text(file);
    let opened = open.session.read_post(file).map_err(|e| AppError::from(e).at(&shown))?;
    Ok(PostText { path: shown, text: opened.text, version: opened.version })
}

/// Saves; with `version`, only over the file as it was read. An `auto`
/// save (after a pause in typing) keeps a saved version only now and then
/// (`Settings::history_every_minutes`); one the author asks for always does.
#[tauri::command]
pub fn save_post(
    state: State<'_, AppState>,
    path: String,
    text: String,
    version: Option<String>,
    auto: Option<bool>,
) -> Result<Saved> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    let version = match auto {
        Some(true) => open.session.autosave(&file, &text, version.as_deref())?,
        _ => open.session.save(&file, &text, version.as_deref())?,
    };
    Ok(Saved { path: view::path_text(&file), version })
}

/// Async, so that rendering runs beside the window's main thread, which
/// meanwhile carries the IPC and the drawing of the key just typed.
#[tauri::command]
pub async fn preview(state: State<'_, AppState>, path: String, text: String) -> Result<Preview> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    let rendered = open.session.preview(&file, text);
    // The problems follow the unsaved text, as they will be once it is saved.
    open.recheck();
    let url = preview_url(&rendered.site_path);
    let outline = rendered
        .toc
        .into_iter()
        .map(|entry| Heading { level: entry.level, id: entry.id, title: entry.title, line: entry.line })
        .collect();
    Ok(Preview {
        url,
        html: hanji::links_out_in_new_windows(&rendered.html),
        outline,
        fields: rendered.fields,
        words: rendered.words,
        reading_minutes: rendered.reading_minutes,
        problems: rendered.problems,
    })
}

/// The words of the whole post `text` that the dictionaries of `lang` (its
/// page's `<html lang>`) do not know, where the editor counts them.
#[tauri::command]
pub async fn misspelled(text: String, lang: String) -> Result<Vec<hanji::Misspelled>> {
    off_the_window(move || hanji::Spelling::for_language(&lang).misspelled(&text)).await
}

/// What the author may have meant by `word`, in a post in `lang`.
#[tauri::command]
pub async fn spelling_suggestions(word: String, lang: String) -> Result<Vec<String>> {
    off_the_window(move || hanji::Spelling::for_language(&lang).suggestions(&word, 8)).await
}

/// The address of a site page in the `preview:` protocol, as the webview names it.
fn preview_url(site_path: &str) -> String {
    let path = hanji::encode_path(site_path);
    if cfg!(any(windows, target_os = "android")) {
        format!("http://preview.localhost/{path}")
    } else {
        format!("preview://localhost/{path}")
    }
}

/// The saved versions of a post, newest first.
#[tauri::command]
pub fn versions(state: State<'_, AppState>, path: String) -> Result<Vec<VersionItem>> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    Ok(open.session.versions(&file).into_iter().map(VersionItem::from).collect())
}

/// The text of one saved version of a post.
#[tauri::command]
pub fn read_version(state: State<'_, AppState>, path: String, id: String) -> Result<String> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    Ok(open.session.read_version(&file, &id)?)
}

#[tauri::command]
pub fn forget_unsaved(state: State<'_, AppState>, path: String) -> Result<()> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    open.session.forget_unsaved(&file);
    open.recheck();
    Ok(())
}

/// Unsaved text the journal kept from before the app last closed (a crash,
/// a kill): each with the file as it is on disk now, if it is there.
#[tauri::command]
pub fn recovered(state: State<'_, AppState>) -> Result<Vec<Recovered>> {
    let open = state.open_blog()?;
    Ok(open
        .session
        .recovered()
        .into_iter()
        .map(|kept| Recovered {
            saved: read_text(&open, &kept.path).ok(),
            path: view::path_text(&kept.path),
            text: kept.text,
            kept_at: kept.kept_at,
        })
        .collect())
}

/// Throws away the journal's text of `path`.
#[tauri::command]
pub fn discard_recovered(state: State<'_, AppState>, path: String) -> Result<()> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    open.session.forget_unsaved(&file);
    Ok(())
}

/// `text` with one field changed (null removes it); every other byte kept.
#[tauri::command]
pub fn set_field(text: String, key: String, value: Value) -> Result<String> {
    let invalid = |what: &str| AppError::new(ErrorKind::Invalid, format!("`{key}` cannot be set to {what}"));
    let value = match (key.as_str(), value) {
        (_, Value::Null) => None,
        ("date", Value::String(date)) => {
            Some(FieldValue::Date(PostDate::parse(&date).ok_or_else(|| invalid("a date that is not YYYY-MM-DD"))?))
        }
        (_, Value::String(text)) => Some(FieldValue::Text(text)),
        (_, Value::Bool(flag)) => Some(FieldValue::Bool(flag)),
        (_, Value::Array(items)) => Some(FieldValue::List(
            items
                .into_iter()
                .map(|item| item.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or_else(|| invalid("a list of non-text"))?,
        )),
        (_, other) => return Err(invalid(&other.to_string())),
    };
    let edited = match value {
        Some(value) => set_front_matter_field(&text, &key, &value),
        None => remove_field(&text, &key),
    };
    edited.map_err(|e| AppError::new(ErrorKind::FrontMatter, e.to_string()))
}

#[tauri::command]
pub fn new_post(state: State<'_, AppState>, title: String) -> Result<PostText> {
    let open = state.open_blog()?;
    let bundle = state.store.settings().new_post_as_bundle;
    // Today in the blog's time zone, by the clock its scheduled posts are
    // judged by (`HANJI_NOW` in tests): a new post is not scheduled.
    let zone = open.session.blog().config.time_zone();
    let today = hanji::Clock::from_env().unwrap_or_default().now().to_zoned_datetime(zone).date();
    let made = open.session.new_post(&title, bundle, today)?;
    Ok(PostText { path: view::path_text(&made.path), version: version_of(made.text.as_bytes()), text: made.text })
}

#[tauri::command]
pub fn rename_post(state: State<'_, AppState>, path: String, slug: String) -> Result<PostText> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    let moved = open.session.rename_post(&file, &slug)?;
    Ok(PostText { path: view::path_text(&moved.path), version: version_of(moved.text.as_bytes()), text: moved.text })
}

#[tauri::command]
pub fn delete_post(state: State<'_, AppState>, path: String) -> Result<String> {
    let open = state.open_blog()?;
    let file = open.inside(&path)?;
    Ok(open.session.delete_post(&file, state.trash)?)
}

#[tauri::command]
pub async fn insert_image<R: Runtime>(
    window: WebviewWindow<R>,
    state: State<'_, AppState>,
    post: String,
) -> Result<Option<String>> {
    let open = state.open_blog()?;
    let post = open.inside(&post)?;
    let Some(source) = state.dialogs.pick_image(&window).await else { return Ok(None) };
    let bytes = hanji::read_bytes(&source)
        .map_err(|e| AppError::new(ErrorKind::Io, format!("cannot read `{}`: {e}", source.display())))?;
    let name = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Some(open.session.add_image(&post, &name, &bytes)?))
}

#[tauri::command]
pub fn save_image(state: State<'_, AppState>, post: String, name: String, bytes: Vec<u8>) -> Result<String> {
    let open = state.open_blog()?;
    let post = open.inside(&post)?;
    // Only the name's last part counts: a pasted file names no folder.
    let name = name.rsplit(['/', '\\']).next().unwrap_or_default();
    Ok(open.session.add_image(&post, name, &bytes)?)
}

/// The core's slugs of tag names, in their order, by the open blog's rule
/// (the UI makes none itself).
#[tauri::command]
pub fn tag_slugs(state: State<'_, AppState>, names: Vec<String>) -> Vec<String> {
    match state.open_blog() {
        Ok(open) => names.iter().map(|name| open.session.blog().library.tag_slug(name)).collect(),
        Err(_) => names.iter().map(|name| hanji::tag_slug(name)).collect(),
    }
}

#[tauri::command]
pub fn plan_retag(state: State<'_, AppState>, from: String, to: String) -> Result<RetagPlan> {
    let plan = state.open_blog()?.session.plan_retag(&from, &to)?;
    let to_slug = state.open_blog()?.session.blog().library.tag_slug(&plan.to);
    Ok(RetagPlan { from: plan.from, to: plan.to, to_slug, merge: plan.merge, files: view::paths(&plan.files) })
}

#[tauri::command]
pub fn retag(state: State<'_, AppState>, from: String, to: String) -> Result<RetagDone> {
    let (batch, files) = state.open_blog()?.session.retag(&from, &to)?;
    Ok(RetagDone { batch, files: view::paths(&files) })
}

#[tauri::command]
pub fn undo_retag(state: State<'_, AppState>, batch: usize) -> Result<Vec<String>> {
    Ok(view::paths(&state.open_blog()?.session.undo_retag(batch)?))
}

#[tauri::command]
pub async fn export_blog<R: Runtime>(
    window: WebviewWindow<R>,
    state: State<'_, AppState>,
    out: Option<String>,
    progress: Channel<ExportProgress>,
) -> Result<Option<ExportSummary>> {
    let open = state.open_blog()?;
    let out = match out {
        Some(out) => PathBuf::from(out),
        None => match state.dialogs.pick_folder(&window, "Export the site to…").await {
            Some(out) => out,
            None => return Ok(None),
        },
    };
    let summary = tauri::async_runtime::spawn_blocking({
        let (open, out) = (open.clone(), out.clone());
        move || export_to(&open, &out, &progress)
    })
    .await
    .map_err(|e| AppError::new(ErrorKind::Io, format!("the export stopped: {e}")))??;
    *state.exported.lock().expect("exported") = Some(PathBuf::from(&summary.out));
    Ok(Some(summary))
}

fn export_to(open: &Arc<OpenBlog>, out: &Path, progress: &Channel<ExportProgress>) -> Result<ExportSummary> {
    let paced = Paced::default();
    let report = |done: usize, total: usize| {
        if paced.due(done, total) {
            let _ = progress.send(ExportProgress { done, total });
        }
    };
    // With the posts just saved (the UI saves every post before it exports).
    let blog = open.session.settled_blog();
    let options = ExportOptions { cache_dir: hanji::cache_dir(), ..ExportOptions::default() };
    let summary = hanji::export(&blog, out, &options, &report)?;
    drop(blog);
    // The blog's problems as the status bar counts them (`hanji check`'s),
    // and what only writing the site found (a page the theme could not
    // render, an image that could not be copied).
    let mut problems = open.session.problems();
    problems.extend(summary.problems.iter().cloned());
    problems.sort();
    problems.dedup();
    let out = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    let line = summary.line(&out);
    let message = format!("{}{}", line[..1].to_uppercase(), &line[1..]);
    Ok(ExportSummary {
        out: out.to_string_lossy().into_owned(),
        written: summary.written,
        unchanged: summary.unchanged,
        removed: summary.removed,
        skipped: summary.left_out.len(),
        message,
        problems,
    })
}

/// Opens the last export's folder in the file manager (no other folder).
#[tauri::command]
pub fn show_folder(state: State<'_, AppState>, path: String) -> Result<()> {
    let exported = state.exported.lock().expect("exported").clone();
    match exported {
        Some(folder) if folder == Path::new(&path) => {
            opener::open(&folder).map_err(|e| AppError::new(ErrorKind::Io, format!("cannot show the folder: {e}")))
        }
        _ => Err(AppError::new(ErrorKind::Invalid, "only the folder of the last export can be shown").at(path)),
    }
}

#[tauri::command]
pub fn search_text(state: State<'_, AppState>, query: String) -> Result<Vec<String>> {
    Ok(view::paths(&state.open_blog()?.session.search(&query)))
}

#[tauri::command]
pub fn save_settings(state: State<'_, AppState>, settings: Settings) {
    if let Ok(open) = state.open_blog() {
        open.session.set_history_limits(settings.history_limits());
    }
    state.store.set_settings(settings);
}

/// The blog's publish targets, where secrets are kept, and its git repository.
#[tauri::command]
pub async fn publish_targets(state: State<'_, AppState>) -> Result<PublishInfo> {
    let open = state.open_blog()?;
    off_the_window(move || publish_info(&open)).await?
}

/// The blog's targets as `hanji.toml` has them now (the watcher may not
/// have read a target just saved yet).
fn targets_of(open: &OpenBlog) -> Vec<hanji::PublishTarget> {
    hanji::read_settings(open.root(), &mut Vec::new()).publish
}

fn publish_info(open: &OpenBlog) -> Result<PublishInfo> {
    let blog = open.session.blog();
    let targets = targets_of(open)
        .iter()
        .map(|target| TargetView {
            form: TargetForm::of(target),
            secret: hanji::secret_name(target).map(str::to_string),
            has_secret: hanji::keychain::secret(target).is_some(),
        })
        .collect();
    let sources = match hanji::Sources::open(open.root()) {
        Some(sources) => Some(sources.status(&blog)?),
        None => None,
    };
    Ok(PublishInfo { targets, keychain: hanji::keychain::keychain_name().to_string(), sources })
}

fn target_of(form: &TargetForm) -> Result<hanji::PublishTarget> {
    hanji::publish_target_from_fields(&form.name, &form.kind, &form.fields).map_err(|problem| AppError {
        hint: problem.hint.clone(),
        ..AppError::new(ErrorKind::Invalid, problem.message)
    })
}

fn cache_dir() -> Result<PathBuf> {
    hanji::cache_dir().ok_or_else(|| AppError::new(ErrorKind::Io, "Hanji has no cache folder: set HANJI_CACHE_DIR"))
}

/// Writes the target into the blog's hanji.toml (never its secret, which
/// goes to the keychain).
#[tauri::command]
pub async fn save_target(state: State<'_, AppState>, form: TargetForm, secret: Option<String>) -> Result<PublishInfo> {
    let open = state.open_blog()?;
    let target = target_of(&form)?;
    off_the_window(move || {
        hanji::save_publish_target(open.root(), &target)?;
        if let Some(secret) = secret.filter(|s| !s.is_empty()) {
            hanji::keychain::keep(&target, &secret).map_err(|e| AppError::new(ErrorKind::Io, e))?;
        }
        publish_info(&open)
    })
    .await?
}

/// Connects to the target from the form, signs in and reads what it holds.
#[tauri::command]
pub async fn test_target(state: State<'_, AppState>, form: TargetForm, secret: Option<String>) -> Result<String> {
    let target = target_of(&form)?;
    let cache = cache_dir()?;
    let root = state.open_blog()?.root().to_path_buf();
    tauri::async_runtime::spawn_blocking(move || {
        let given = secret.filter(|s| !s.is_empty());
        let secret = given.clone().or_else(|| hanji::keychain::secret(&target));
        let found = hanji::test_connection(&target, secret.as_deref(), &cache, &root)?;
        if let Some(secret) = given {
            let _ = hanji::keychain::keep(&target, &secret);
        }
        Ok(found)
    })
    .await
    .map_err(|e| AppError::new(ErrorKind::Io, format!("the test stopped: {e}")))?
}

/// Trusts the SSH server of the target from the form: its fingerprint.
#[tauri::command]
pub async fn trust_host(form: TargetForm) -> Result<String> {
    let target = target_of(&form)?;
    tauri::async_runtime::spawn_blocking(move || Ok(hanji::trust_host(&target, None)?))
        .await
        .map_err(|e| AppError::new(ErrorKind::Io, format!("stopped: {e}")))?
}

/// Exports the blog and sends it to the target named `name`; a `secret`
/// given is used, and kept in the keychain once the target took it.
#[tauri::command]
pub async fn publish_blog(
    state: State<'_, AppState>,
    name: String,
    secret: Option<String>,
    progress: Channel<hanji::PublishProgress>,
) -> Result<PublishDone> {
    let open = state.open_blog()?;
    let cache = cache_dir()?;
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
    *state.publishing.lock().expect("publishing") = Some(cancel.clone());
    let done = tauri::async_runtime::spawn_blocking(move || {
        // With the posts just saved (Publish saves every post first).
        let blog = open.session.settled_blog();
        let target = hanji::find_target(&targets_of(&open), Some(&name))?.clone();
        let given = secret.filter(|s| !s.is_empty());
        let options = hanji::PublishOptions {
            secret: given.clone().or_else(|| hanji::keychain::secret(&target)),
            dry_run: false,
            cache_dir: cache,
            cancel: Some(&cancel),
        };
        // A few progress messages a second are plenty for a bar.
        let last = std::sync::Mutex::new(Instant::now() - Duration::from_secs(1));
        let report = |step: hanji::PublishProgress| {
            let mut last = last.lock().expect("progress");
            let sending = matches!(&step, hanji::PublishProgress::Sending { done, total, .. } if done < total);
            if !sending || last.elapsed() >= Duration::from_millis(50) {
                *last = Instant::now();
                let _ = progress.send(step);
            }
        };
        let summary = hanji::publish(&blog, &target, &options, &report)?;
        if let Some(secret) = given {
            let _ = hanji::keychain::keep(&target, &secret);
        }
        let line = summary.line();
        Ok::<_, AppError>(PublishDone {
            target: summary.target.clone(),
            sent: summary.sent.len(),
            sent_bytes: summary.sent_bytes,
            removed: summary.removed.len(),
            unchanged: summary.unchanged,
            url: summary.url.clone(),
            message: format!("{}{}", line[..1].to_uppercase(), &line[1..]),
            problems: summary.problems,
            left_out: view::paths(&summary.left_out),
        })
    })
    .await
    .map_err(|e| AppError::new(ErrorKind::Io, format!("the publish stopped: {e}")));
    state.publishing.lock().expect("publishing").take();
    done?
}

/// Stops the publish running, between two files.
#[tauri::command]
pub fn cancel_publish(state: State<'_, AppState>) {
    if let Some(cancel) = state.publishing.lock().expect("publishing").as_ref() {
        cancel.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Opens the site's address in the browser (a published site's only).
#[tauri::command]
pub fn open_site(url: String) -> Result<()> {
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err(AppError::new(ErrorKind::Invalid, "only a web address can be opened").at(url));
    }
    opener::open_browser(&url).map_err(|e| AppError::new(ErrorKind::Io, format!("cannot open the browser: {e}")))
}

fn sources(open: &OpenBlog) -> Result<hanji::Sources> {
    hanji::Sources::open(open.root())
        .ok_or_else(|| AppError::new(ErrorKind::NotFound, "the blog folder is not in a git repository"))
}

/// Commits the blog's changes with `message`.
#[tauri::command]
pub async fn commit_sources(state: State<'_, AppState>, message: String) -> Result<PublishInfo> {
    let open = state.open_blog()?;
    off_the_window(move || {
        sources(&open)?.commit(&message)?;
        publish_info(&open)
    })
    .await?
}

/// Pulls: the files it writes reach the editor through the watcher.
#[tauri::command]
pub async fn pull_sources(state: State<'_, AppState>) -> Result<String> {
    let open = state.open_blog()?;
    tauri::async_runtime::spawn_blocking(move || Ok(sources(&open)?.pull()?.message))
        .await
        .map_err(|e| AppError::new(ErrorKind::Io, format!("the pull stopped: {e}")))?
}

#[tauri::command]
pub async fn push_sources(state: State<'_, AppState>) -> Result<String> {
    let open = state.open_blog()?;
    tauri::async_runtime::spawn_blocking(move || Ok(sources(&open)?.push()?))
        .await
        .map_err(|e| AppError::new(ErrorKind::Io, format!("the push stopped: {e}")))?
}

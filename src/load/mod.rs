//! Reading a blog folder: its settings (the tool it was made with, then
//! `hanji.toml`), its posts in parallel, its other files and its templates,
//! every problem kept as a diagnostic. The disk is read through `fs`. An
//! export reads a blog without holding its posts' texts, and with what was
//! read from each file kept between runs (`kept`).

mod kept;

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::blog::{Blog, Schedule};
use crate::config::{self, Config};
use crate::content::file::{self, MAX_POST_BYTES};
use crate::content::post::{Parsed, Post};
use crate::content::{Library, Rules};
use crate::detect;
use crate::diagnostics::{Diagnostic, Problem};
use crate::fs::{self, Stamp, TextError};
use crate::markdown::Shortcodes;
use crate::tool::Layout;
use kept::Kept;

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no blog folder at `{0}`")]
    NotFound(PathBuf),
    #[error("`{0}` is a file, not a blog folder")]
    NotAFolder(PathBuf),
    #[error("cannot read `{path}`: {source}")]
    Unreadable { path: PathBuf, source: io::Error },
}

/// Who hears how far reading a blog has come: `(posts read, posts in all)`,
/// called from the threads that read them, once for each post (the app
/// shows it while a large blog opens).
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<dyn Fn(usize, usize) + Send + Sync>>);

impl Progress {
    pub fn new(report: impl Fn(usize, usize) + Send + Sync + 'static) -> Self {
        Progress(Some(Arc::new(report)))
    }

    fn report(&self, read: usize, total: usize) {
        if let Some(report) = &self.0 {
            report(read, total);
        }
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Progress(reported)" } else { "Progress(none)" })
    }
}

/// How a blog is read.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// What each post holds of its text once it is read.
    pub texts: Texts,
    /// Where what was read from each post file is kept between runs
    /// (`fs::cache_dir()`), so that only the files that changed since are
    /// read again; None reads every file. Only with `Texts::LetGo`.
    pub cache_dir: Option<PathBuf>,
    /// Who hears how far reading the posts has come.
    pub progress: Progress,
    /// The clock scheduled posts are judged by, and `--future`.
    pub schedule: Schedule,
}

/// What a post read holds of its file's text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Texts {
    /// The text as it is: a blog read once (`check`, `hanji new`).
    #[default]
    Whole,
    /// Packed (see `Post::packed`): a blog held open for long, by the app
    /// and `hanji serve`.
    Packed,
    /// None (see `Post::without_text`): an export holds only what lists
    /// and addresses need, and reads a post again when it renders its page.
    LetGo,
}

impl Texts {
    /// `parsed` holding what these texts say.
    pub fn held(self, parsed: Parsed) -> Parsed {
        let post = match self {
            Texts::Whole => return parsed,
            Texts::Packed => parsed.post.map(Post::packed),
            Texts::LetGo => parsed.post.map(Post::without_text),
        };
        Parsed { post, ..parsed }
    }
}

/// Reads the blog in `root`. Only a missing or unreadable folder is an error:
/// every problem inside it becomes a diagnostic and the rest still loads.
pub fn load(root: &Path) -> Result<Blog, LoadError> {
    load_with(root, &LoadOptions::default())
}

/// `load`, telling `progress` of each post read.
#[cfg(test)]
fn load_reporting(root: &Path, progress: &Progress) -> Result<Blog, LoadError> {
    load_with(root, &LoadOptions { progress: progress.clone(), ..LoadOptions::default() })
}

/// Reads the blog in `root` as `options` say (see `load`).
pub fn load_with(root: &Path, options: &LoadOptions) -> Result<Blog, LoadError> {
    match fs::is_folder(root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(LoadError::NotFound(root.into())),
        Err(source) => return Err(LoadError::Unreadable { path: root.into(), source }),
        Ok(false) => return Err(LoadError::NotAFolder(root.into())),
        Ok(true) => {}
    }
    let mut problems = Vec::new();
    let config = read_config(root, &mut problems);

    let mut post_paths = Vec::new();
    let mut assets = BTreeSet::new();
    let layout = &config.layout;
    let statics = layout.static_dirs.iter().map(|dir| dir.folder.as_path());
    let walk = || {
        for folder in std::iter::once(config.posts_dir.as_path()).chain(statics) {
            for entry in fs::walk(root, folder, &mut problems) {
                let in_posts = folder == config.posts_dir;
                if in_posts && file::is_post(layout, &entry) {
                    post_paths.push(entry);
                } else if !(in_posts && file::is_passed_over(&config.layout, &entry)) {
                    assets.insert(entry);
                }
            }
        }
    };
    // What was kept is read while the folder is walked.
    let open_kept = || match (&options.cache_dir, options.texts) {
        (Some(cache_dir), Texts::LetGo) => {
            Some(Kept::open(cache_dir, &fs::absolute(root).unwrap_or_else(|_| root.into())))
        }
        _ => None,
    };
    let ((), kept) = rayon::join(walk, open_kept);
    post_paths.extend(pages(root, layout, &mut problems));
    // A file export would fail to copy, found now so that `check` names it.
    problems.extend(fs::unreadable_files(root, &assets));
    problems.extend(other_sections(root, &config));
    let (read, total) = (AtomicUsize::new(0), post_paths.len());
    options.progress.report(0, total);
    let parsed = match kept {
        Some(kept) => {
            let parsed = read_posts_kept(root, &post_paths, kept);
            options.progress.report(total, total);
            parsed
        }
        None => post_paths
            .par_iter()
            .map(|path| {
                let parsed = read_post(root, path);
                options.progress.report(read.fetch_add(1, Ordering::Relaxed) + 1, total);
                options.texts.held(parsed)
            })
            .collect(),
    };
    let rules = Rules::of(&config, options.schedule.clock.now(), options.schedule.future);
    let library = Library::from_parsed(rules, parsed);
    let templates = read_templates(root, &config, &mut problems);
    let shortcodes = read_shortcodes(root, &config, &mut problems);
    let schedule = options.schedule;
    Ok(Blog { root: root.to_path_buf(), config, library, assets, templates, shortcodes, problems, schedule })
}

/// The posts at `paths`, without their texts: what was `kept` from an
/// earlier run for the files whose stamp is the same, and the others read
/// anew (and kept for next time).
fn read_posts_kept(root: &Path, paths: &[PathBuf], mut kept: Kept) -> Vec<Parsed> {
    let stamps: Vec<Option<Stamp>> = paths.par_iter().map(|path| fs::stamp_of(&root.join(path))).collect();
    let mut taken = Vec::with_capacity(paths.len());
    let mut missing = Vec::new();
    for (path, stamp) in paths.iter().zip(stamps) {
        match stamp.and_then(|stamp| kept.take(path, stamp)) {
            Some(at) => taken.push((path, stamp, at)),
            None => missing.push((path, stamp)),
        }
    }
    let entries: Vec<Option<Parsed>> = taken.par_iter().map(|(_, _, at)| kept.parsed(*at)).collect();
    let mut found = Vec::with_capacity(paths.len());
    for ((path, stamp, _), parsed) in taken.into_iter().zip(entries) {
        match parsed {
            Some(parsed) => found.push(parsed),
            // An entry that cannot be read after all: the file is read.
            None => {
                kept.distrust(path);
                missing.push((path, stamp));
            }
        }
    }
    let read: Vec<(Parsed, Option<Vec<u8>>)> = missing
        .par_iter()
        .map(|(path, stamp)| {
            let parsed = read_post(root, path);
            // Kept only if the file is as it was before it was read.
            let line = stamp.filter(|before| fs::stamp_of(&root.join(path)) == Some(*before));
            let line = line.and_then(|stamp| kept::entry_of(path, stamp, &parsed));
            (Texts::LetGo.held(parsed), line)
        })
        .collect();
    for (parsed, line) in read {
        if let Some(line) = line {
            kept.keep(parsed.path.clone(), line);
        }
        found.push(parsed);
    }
    kept.save();
    found
}

/// The pages' files outside the posts folder (Hanji's `pages/`, Jekyll's
/// `_pages/` and top-level Markdown files): only Markdown is read there.
fn pages(root: &Path, layout: &Layout, problems: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for folder in &layout.pages_dirs {
        let files = match folder.as_os_str().is_empty() {
            true => fs::files_in(root)
                .into_iter()
                .filter_map(|f| f.strip_prefix(root).ok().map(Path::to_path_buf))
                .collect(),
            false => fs::walk(root, folder, problems),
        };
        found.extend(files.into_iter().filter(|file| layout.in_pages_dir(file) && file::is_post(layout, file)));
    }
    found
}

/// Reads the settings: how the folder is laid out and what the settings file
/// of the tool it was made with says (see `layout`), then `hanji.toml` over
/// that. Problems go to `problems`, and what could be read is used.
pub fn read_config(root: &Path, problems: &mut Vec<Diagnostic>) -> Config {
    let text = match fs::read_settings(&root.join(config::FILE_NAME)) {
        Ok(text) => text,
        Err(e) => {
            problems.push(
                Diagnostic::error(config::FILE_NAME, 1, 1, format!("cannot read the settings: {e}"))
                    .with_hint("check the file's permissions; default settings are used meanwhile"),
            );
            None
        }
    };
    let text = text.as_deref().map(|text| text.trim_start_matches('\u{feff}'));
    // A `layout` that is not one is reported with the rest of hanji.toml below.
    let wanted = text.and_then(|text| config::layout_setting(text).ok().flatten());
    let detected = detect::detect(&Disk(root), wanted);
    problems.extend(detected.problems);
    let Some(text) = text else { return detected.config };
    let config = Config::parse_over(text, detected.config.clone()).unwrap_or_else(|problem| {
        problems.push(problem.in_file(config::FILE_NAME));
        detected.config
    });
    if config.images.avif && !crate::images::AVIF_BUILT_IN {
        let line = text.lines().position(|l| l.trim_start().starts_with("avif")).map_or(1, |i| i + 1);
        problems.push(
            Diagnostic::warning(
                config::FILE_NAME,
                line,
                1,
                "this Hanji was built without AVIF: only WebP copies are made",
            )
            .with_hint("build Hanji with `cargo build --release --features avif` to make AVIF copies"),
        );
    }
    config
}

/// The sections of a blog whose tool publishes every section (Hugo) besides
/// the one Hanji is told to read (`content/til/` beside `content/posts/`),
/// each named with how many posts the tool publishes from it: none is
/// skipped in silence.
fn other_sections(root: &Path, config: &Config) -> Vec<Diagnostic> {
    let tool = config.layout.tool();
    let Some(content) = tool.publishes_every_section_of().map(Path::new) else { return Vec::new() };
    if config.posts_dir == content || !config.posts_dir.starts_with(content) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for folder in fs::folders_in(&root.join(content)) {
        let Some(name) = folder.file_name() else { continue };
        let section = content.join(name);
        if config.posts_dir.starts_with(&section) {
            continue;
        }
        let posts =
            fs::walk(root, &section, &mut Vec::new()).iter().filter(|f| file::is_post(&config.layout, f)).count();
        if posts > 0 {
            let message = format!(
                "{} publishes the {posts} post{} of the section `{}/`; Hanji reads only `{}/`",
                config.layout.kind.name(),
                if posts == 1 { "" } else { "s" },
                section.display(),
                config.posts_dir.display()
            );
            let hint = "to read every section (as Hanji does unless told otherwise), set posts_dir = \"content\" in hanji.toml";
            found.push(Diagnostic::warning(&section, 1, 1, message).with_hint(hint));
        }
    }
    found
}

/// The blog folder, as layout detection asks about it.
struct Disk<'a>(&'a Path);

impl detect::Folder for Disk<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.0.join(path).is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.0.join(path).is_dir()
    }

    fn read(&self, path: &Path) -> Result<String, String> {
        fs::read_text(self.0, path, MAX_POST_BYTES).map_err(|error| match error {
            TextError::TooBig { .. } => "it is over 5 MB".to_string(),
            TextError::NotUtf8(_) => "it is not UTF-8 text".to_string(),
            TextError::Unreadable(problem) => problem.message,
        })
    }

    fn folders(&self, path: &Path) -> Vec<PathBuf> {
        fs::folders_in(&self.0.join(path))
            .into_iter()
            .filter(|folder| !fs::is_symlink(folder))
            .filter_map(|folder| Some(folder.strip_prefix(self.0).ok()?.to_path_buf()))
            .collect()
    }
}

/// The files of the templates folder (`templates/`, or `hanji-templates/` in
/// a Zola blog), by name; its subfolders are not read.
pub fn read_templates(root: &Path, config: &Config, problems: &mut Vec<Diagnostic>) -> BTreeMap<String, String> {
    let mut templates = BTreeMap::new();
    let folder = &config.layout.templates_dir;
    let inside = fs::Inside::new(root);
    for file in fs::files_in(&root.join(folder)) {
        let Some(name) = file.file_name().map(|n| n.to_string_lossy().into_owned()) else { continue };
        let relative = folder.join(&name);
        if let Some(target) = inside.leads_out(&file) {
            problems.push(fs::outside_problem(&relative, &target));
            continue;
        }
        match fs::read_string(&file) {
            Ok(text) => {
                templates.insert(name, text);
            }
            Err(e) => {
                let hint = match e.kind() {
                    io::ErrorKind::InvalidData => "save it as UTF-8 text; the built-in one is used meanwhile",
                    _ => "let your user read the file (chmod u+r); the built-in one is used meanwhile",
                };
                problems
                    .push(Diagnostic::error(relative, 1, 1, format!("cannot read the template: {e}")).with_hint(hint));
            }
        }
    }
    templates
}

/// The shortcode templates of the blog's tool, from the layout's folders
/// (Hugo's `layouts/_shortcodes/` and `layouts/shortcodes/`, Zola's
/// `templates/shortcodes/`, Jekyll's `_includes/`, then the theme's), each
/// by the name posts call it by (see `Layout::shortcode_name`); the blog's
/// own before its theme's.
pub fn read_shortcodes(root: &Path, config: &Config, problems: &mut Vec<Diagnostic>) -> Shortcodes {
    let mut shortcodes = Shortcodes::new();
    let syntax = config.layout.tool().template_syntax();
    for folder in &config.layout.shortcode_dirs {
        for path in fs::walk(root, folder, problems) {
            let Some(name) = config.layout.shortcode_name(&path) else { continue };
            match fs::read_text(root, &path, MAX_POST_BYTES) {
                Ok(text) => shortcodes.add(syntax, &name, &path, &text),
                Err(TextError::TooBig { .. }) => problems.push(
                    Diagnostic::warning(&path, 1, 1, "shortcode template is over 5 MB; it is not read")
                        .with_hint("its shortcodes are shown as written"),
                ),
                Err(TextError::Unreadable(problem) | TextError::NotUtf8(problem)) => {
                    problems.push(problem.in_file(&path).with_hint("its shortcodes are shown as written"));
                }
            }
        }
    }
    shortcodes
}

/// Reads one post file (`path` relative to `root`) with every check a file
/// needs before it is parsed: size, readability, UTF-8, emptiness.
pub fn read_post(root: &Path, path: &Path) -> Parsed {
    let unreadable =
        |problem: Problem| Parsed { path: path.to_path_buf(), post: None, problems: vec![problem.in_file(path)] };
    let text = match fs::read_text(root, path, MAX_POST_BYTES) {
        Ok(text) => text,
        Err(TextError::TooBig { bytes }) => {
            return unreadable(
                Problem::error(1, 1, format!("file is {:.1} MB; posts over 5 MB are not read", bytes as f64 / 1e6))
                    .with_hint("split it into several posts, or move large data to static/"),
            );
        }
        Err(TextError::Unreadable(problem) | TextError::NotUtf8(problem)) => return unreadable(problem),
    };
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return unreadable(
            Problem::warning(1, 1, "file is empty")
                .with_hint("write a front matter with a title and a date, or delete the file"),
        );
    }
    Post::parse(path, &text)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn progress_counts_every_post_up_to_all_of_them() {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let progress = {
            let heard = heard.clone();
            Progress::new(move |read, total| heard.lock().unwrap().push((read, total)))
        };
        let blog = load_reporting(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/content")), &progress).unwrap();
        let mut heard = heard.lock().unwrap().clone();
        // Every file read: the posts and the pages (an About page).
        let files = blog.library.len();
        assert!(files > 10, "the sample blog");
        assert!(heard.iter().all(|&(_, total)| total == files), "{heard:?}");
        heard.sort();
        let reads: Vec<usize> = heard.iter().map(|&(read, _)| read).collect();
        assert_eq!(reads, (0..=files).collect::<Vec<_>>(), "once at the start, then once for each file read");
    }
}

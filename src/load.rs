//! Reading a blog folder from disk: settings, posts, and the other files beside
//! them. The only part of the core that reads files.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::{self, Config};
use crate::content::Library;
use crate::content::post::{Parsed, Post};
use crate::diagnostics::{Diagnostic, Problem};
use crate::layout::{self, Layout};

/// Posts larger than this are not read: no one writes 5 MB of prose, and a
/// file that large is most likely data put in the wrong folder.
pub const MAX_POST_BYTES: u64 = 5 * 1024 * 1024;

/// The folder copied to the site as it is.
pub const STATIC_DIR: &str = "static";

/// A blog folder, read.
#[derive(Debug, Clone)]
pub struct Blog {
    pub root: PathBuf,
    pub config: Config,
    pub library: Library,
    /// Files beside the posts and under `static/` (images and the like),
    /// relative to the blog folder.
    pub assets: BTreeSet<PathBuf>,
    /// Files of `templates/` by name, put over the built-in theme's.
    pub templates: BTreeMap<String, String>,
    /// Problems with `hanji.toml`, the templates and the folder itself.
    pub problems: Vec<Diagnostic>,
}

impl Blog {
    /// How the folder is laid out: a Hanji blog, or one made with Hugo, Zola,
    /// Jekyll or the Next.js starter, opened as it is.
    pub fn layout(&self) -> &Layout {
        &self.config.layout
    }

    /// Every problem known without rendering, sorted by file and line.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.library.diagnostics();
        all.extend(self.problems.iter().cloned());
        all.sort();
        all
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no blog folder at `{0}`")]
    NotFound(PathBuf),
    #[error("`{0}` is a file, not a blog folder")]
    NotAFolder(PathBuf),
    #[error("cannot read `{path}`: {source}")]
    Unreadable { path: PathBuf, source: io::Error },
}

/// Reads the blog in `root`. Only a missing or unreadable folder is an error:
/// every problem inside it becomes a diagnostic and the rest still loads.
pub fn load(root: &Path) -> Result<Blog, LoadError> {
    match fs::metadata(root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(LoadError::NotFound(root.into())),
        Err(source) => return Err(LoadError::Unreadable { path: root.into(), source }),
        Ok(meta) if !meta.is_dir() => return Err(LoadError::NotAFolder(root.into())),
        Ok(_) => {}
    }
    let mut problems = Vec::new();
    let config = read_config(root, &mut problems);

    let mut post_paths = Vec::new();
    let mut assets = BTreeSet::new();
    let layout = &config.layout;
    let statics = layout.static_dirs.iter().map(|dir| dir.folder.as_path());
    for folder in std::iter::once(config.posts_dir.as_path()).chain(statics) {
        for entry in walk(root, folder, &mut problems) {
            if folder == config.posts_dir && layout.is_post_file(&entry) {
                post_paths.push(entry);
            } else {
                assets.insert(entry);
            }
        }
    }
    // A file export would fail to copy, found now so that `check` names it.
    problems.extend(unreadable_files(root, &assets));
    let parsed: Vec<Parsed> = post_paths.par_iter().map(|path| read_post(root, path)).collect();
    let library = Library::from_parsed(config.tag_title, parsed);
    let templates = read_templates(root, &config, &mut problems);
    Ok(Blog { root: root.to_path_buf(), config, library, assets, templates, problems })
}

/// Reads the settings: how the folder is laid out and what the settings file
/// of the tool it was made with says (see `layout`), then `hanji.toml` over
/// that. Problems go to `problems`, and what could be read is used.
pub fn read_config(root: &Path, problems: &mut Vec<Diagnostic>) -> Config {
    let path = root.join(config::FILE_NAME);
    let text = match fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
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
    let detected = layout::detect(&Disk(root), wanted);
    problems.extend(detected.problems);
    let Some(text) = text else { return detected.config };
    Config::parse_over(text, detected.config.clone()).unwrap_or_else(|problem| {
        problems.push(problem.in_file(config::FILE_NAME));
        detected.config
    })
}

/// The blog folder, as layout detection asks about it.
struct Disk<'a>(&'a Path);

impl layout::Folder for Disk<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.0.join(path).is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.0.join(path).is_dir()
    }

    fn read(&self, path: &Path) -> Result<String, String> {
        let full = self.0.join(path);
        match fs::metadata(&full) {
            Ok(meta) if meta.len() > MAX_POST_BYTES => return Err("it is over 5 MB".to_string()),
            Ok(_) => {}
            Err(e) => return Err(e.to_string()),
        }
        let bytes = fs::read(full).map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
    }
}

/// The files of the templates folder (`templates/`, or `hanji-templates/` in
/// a Zola blog), by name; its subfolders are not read.
pub fn read_templates(root: &Path, config: &Config, problems: &mut Vec<Diagnostic>) -> BTreeMap<String, String> {
    let mut templates = BTreeMap::new();
    let folder = &config.layout.templates_dir;
    let Ok(entries) = fs::read_dir(root.join(folder)) else { return templates };
    let inside = Inside::new(root);
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_skipped(&name) || !entry.path().is_file() {
            continue;
        }
        let relative = folder.join(&name);
        if let Some(target) = inside.leads_out(&entry.path()) {
            problems.push(outside_problem(&relative, &target));
            continue;
        }
        match fs::read_to_string(entry.path()) {
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

/// Names the loader passes over wherever they are: hidden files and folders
/// (`.git`, `.a.md.swp`, `.#a.md`), `node_modules`, and the temp files editors
/// leave while saving (`a.md~`, `4913`, `a.md.tmp`, JetBrains' `___jb_tmp___`).
pub fn is_skipped(name: &str) -> bool {
    name.starts_with('.')
        || name == "node_modules"
        || name == "4913"
        || name.ends_with('~')
        || name.ends_with(".tmp")
        || name.ends_with("___jb_tmp___")
        || name.ends_with("___jb_old___")
}

/// The files at `path` (relative to `root`), as the loader would find them:
/// the file itself, every file under a folder, or none if nothing is there.
pub fn files_at(root: &Path, path: &Path) -> Vec<PathBuf> {
    match fs::metadata(root.join(path)) {
        Ok(meta) if meta.is_dir() => walk(root, path, &mut Vec::new()),
        Ok(meta) if meta.is_file() && Inside::new(root).leads_out(&root.join(path)).is_none() => {
            vec![path.to_path_buf()]
        }
        Ok(_) | Err(_) => Vec::new(),
    }
}

/// The files of `paths` (relative to `root`) that cannot be opened, each as an
/// error: they would be left out of an export.
fn unreadable_files<'a>(root: &Path, paths: impl IntoIterator<Item = &'a PathBuf>) -> Vec<Diagnostic> {
    let paths: Vec<&PathBuf> = paths.into_iter().collect();
    paths
        .par_iter()
        .filter_map(|path| {
            let error = fs::File::open(root.join(path)).err()?;
            Some(read_problem(&error).in_file(path.as_path()))
        })
        .collect()
}

/// The bytes of a file of the blog (an image to serve, a file to compare).
pub fn read_file(root: &Path, path: &Path) -> io::Result<Vec<u8>> {
    fs::read(root.join(path))
}

/// Markdown files are posts; Zola's and Hugo's `_index.md` section files are
/// not. (The Next.js starter's `.mdx` are posts too: see `Layout::is_post_file`.)
pub fn is_post_file(path: &Path) -> bool {
    let markdown = path.extension().is_some_and(|e| e == "md" || e == "markdown");
    let section = path.file_stem().is_some_and(|s| s == "_index");
    markdown && !section
}

/// Every file under `root/folder`, relative to `root`, skipped names left out.
/// Symlinks are followed, so a loop is reported rather than walked forever.
fn walk(root: &Path, folder: &Path, problems: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let start = root.join(folder);
    if !start.is_dir() {
        return Vec::new();
    }
    let mut files = Vec::new();
    let inside = Inside::new(root);
    let mut walker = walkdir::WalkDir::new(&start)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_skipped(&e.file_name().to_string_lossy()));
    while let Some(entry) = walker.next() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                problems.push(walk_problem(root, &error));
                continue;
            }
        };
        let relative = entry.path().strip_prefix(root).unwrap_or(entry.path());
        if entry.path_is_symlink()
            && let Some(target) = inside.leads_out(entry.path())
        {
            problems.push(outside_problem(relative, &target));
            if entry.file_type().is_dir() {
                walker.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_file() && entry.path().starts_with(root) {
            files.push(relative.to_path_buf());
        }
    }
    files
}

/// The blog folder with its symlinks resolved, to tell where a link leads.
struct Inside(Option<PathBuf>);

impl Inside {
    fn new(root: &Path) -> Self {
        Inside(fs::canonicalize(root).ok())
    }

    /// Where the symlink (or path through one) at `path` leads, if that is
    /// outside the blog folder. Such links are not followed: a blog cloned
    /// from someone else must not publish the files it points at
    /// (`static/key -> ~/.ssh/id_ed25519`), as Jekyll's safe mode and Hugo
    /// refuse them too.
    fn leads_out(&self, path: &Path) -> Option<PathBuf> {
        let root = self.0.as_ref()?;
        let target = fs::canonicalize(path).ok()?;
        (!target.starts_with(root)).then_some(target)
    }
}

fn outside_problem(path: &Path, target: &Path) -> Diagnostic {
    Diagnostic::warning(path, 1, 1, format!("symlink leads outside the blog folder, to `{}`", target.display()))
        .with_hint("it is skipped: links out of the blog are not followed; copy what it points at into the blog")
}

fn walk_problem(root: &Path, error: &walkdir::Error) -> Diagnostic {
    let path = error.path().map(|p| p.strip_prefix(root).unwrap_or(p).to_path_buf()).unwrap_or_default();
    if let Some(ancestor) = error.loop_ancestor() {
        let ancestor = ancestor.strip_prefix(root).unwrap_or(ancestor);
        Diagnostic::error(path, 1, 1, format!("symlink loop back to `{}`", ancestor.display()))
            .with_hint("remove the link or point it elsewhere; the folder is skipped")
    } else {
        let reason = error.io_error().map_or_else(|| error.to_string(), ToString::to_string);
        let link = error.path().is_some_and(|p| p.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()));
        let hint = if link {
            "the symlink leads nowhere or round in a loop: point it at a file, or remove it; it is skipped"
        } else {
            "check the permissions of the file or folder; it is skipped"
        };
        Diagnostic::error(path, 1, 1, format!("cannot read: {reason}")).with_hint(hint)
    }
}

/// Reads one post file (`path` relative to `root`) with every check a file
/// needs before it is parsed: size, readability, UTF-8, emptiness.
pub fn read_post(root: &Path, path: &Path) -> Parsed {
    let unreadable =
        |problem: Problem| Parsed { path: path.to_path_buf(), post: None, problems: vec![problem.in_file(path)] };
    let full = root.join(path);
    match fs::metadata(&full) {
        Ok(meta) if meta.len() > MAX_POST_BYTES => {
            return unreadable(
                Problem::error(
                    1,
                    1,
                    format!("file is {:.1} MB; posts over 5 MB are not read", meta.len() as f64 / 1e6),
                )
                .with_hint("split it into several posts, or move large data to static/"),
            );
        }
        Ok(_) => {}
        Err(e) => return unreadable(read_problem(&e)),
    }
    let bytes = match fs::read(&full) {
        Ok(bytes) => bytes,
        Err(e) => return unreadable(read_problem(&e)),
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let valid = std::str::from_utf8(valid).unwrap_or_default();
            let (line, column) = config::line_column(valid, valid.len());
            let utf16 = e.as_bytes().starts_with(&[0xFF, 0xFE]) || e.as_bytes().starts_with(&[0xFE, 0xFF]);
            let hint = if utf16 {
                "it is saved as UTF-16: save it as UTF-8 in your editor"
            } else {
                "save it as UTF-8 in your editor (the first bad byte is here)"
            };
            return unreadable(Problem::error(line, column, "file is not UTF-8 text").with_hint(hint));
        }
    };
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return unreadable(
            Problem::warning(1, 1, "file is empty")
                .with_hint("write a front matter with a title and a date, or delete the file"),
        );
    }
    Post::parse(path, &text)
}

pub(crate) fn read_problem(error: &io::Error) -> Problem {
    let hint = match error.kind() {
        io::ErrorKind::PermissionDenied => "let your user read the file (chmod u+r)",
        _ => "check that the file exists and can be read",
    };
    Problem::error(1, 1, format!("cannot read: {error}")).with_hint(hint)
}

//! Reading a blog folder: its settings (the tool it was made with, then
//! `hanji.toml`), its posts in parallel, its other files and its templates,
//! every problem kept as a diagnostic. The disk is read through `fs`.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::blog::{Blog, LoadOptions};
use crate::config::{self, Config};
use crate::content::file::{self, MAX_POST_BYTES};
use crate::content::post::{Parsed, Post};
use crate::content::{Library, Rules};
use crate::detect;
use crate::diagnostics::{Diagnostic, Problem};
use crate::fs::{self, TextError};
use crate::layout::{Kind, Layout};
use crate::markdown::Shortcodes;

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no blog folder at `{0}`")]
    NotFound(PathBuf),
    #[error("`{0}` is a file, not a blog folder")]
    NotAFolder(PathBuf),
    #[error("cannot read `{path}`: {source}")]
    Unreadable { path: PathBuf, source: io::Error },
}

/// Reads the blog in `root`, its scheduled posts judged by the wall clock.
pub fn load(root: &Path) -> Result<Blog, LoadError> {
    load_with(root, LoadOptions::default())
}

/// Reads the blog in `root`. Only a missing or unreadable folder is an error:
/// every problem inside it becomes a diagnostic and the rest still loads.
pub fn load_with(root: &Path, options: LoadOptions) -> Result<Blog, LoadError> {
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
    for folder in std::iter::once(config.posts_dir.as_path()).chain(statics) {
        for entry in fs::walk(root, folder, &mut problems) {
            let in_posts = folder == config.posts_dir;
            if in_posts && file::is_post(layout, &entry) {
                post_paths.push(entry);
            } else if !(in_posts && file::is_section(&entry)) {
                assets.insert(entry);
            }
        }
    }
    post_paths.extend(pages(root, layout, &mut problems));
    // A file export would fail to copy, found now so that `check` names it.
    problems.extend(fs::unreadable_files(root, &assets));
    problems.extend(other_sections(root, &config));
    let parsed: Vec<Parsed> = post_paths.par_iter().map(|path| read_post(root, path)).collect();
    let rules = Rules::of(&config, options.clock.now(), options.future);
    let library = Library::from_parsed(rules, parsed);
    let templates = read_templates(root, &config, &mut problems);
    let shortcodes = read_shortcodes(root, &config, &mut problems);
    Ok(Blog { root: root.to_path_buf(), config, library, assets, templates, shortcodes, problems, options })
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

/// The sections of a Hugo blog besides the one Hanji reads (`content/til/`
/// beside `content/posts/`), each named with how many posts Hugo publishes
/// from it: none is skipped in silence.
fn other_sections(root: &Path, config: &Config) -> Vec<Diagnostic> {
    let content = Path::new("content");
    if config.layout.kind != Kind::Hugo || config.posts_dir == content || !config.posts_dir.starts_with(content) {
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
                "Hugo publishes the {posts} post{} of the section `{}/`; Hanji reads only `{}/`",
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
/// (Hugo's `layouts/shortcodes/`, Zola's `templates/shortcodes/`, Jekyll's
/// `_includes/`, then the theme's), each by the name posts call it by (see
/// `Layout::shortcode_name`); the blog's own before its theme's.
pub fn read_shortcodes(root: &Path, config: &Config, problems: &mut Vec<Diagnostic>) -> Shortcodes {
    let mut shortcodes = Shortcodes::new();
    let syntax = file::tool_syntax(config.layout.kind);
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

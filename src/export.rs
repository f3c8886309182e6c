//! Writing the site into a folder: every page rendered in parallel, then
//! written atomically. Files whose bytes did not change are left alone, files
//! of an earlier export that are gone are removed, and nothing else is ever
//! deleted.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::blog::Blog;
use crate::diagnostics::{Diagnostic, Severity};
use crate::fs::{self, absolute, stamp_of};
use crate::images::Catalog;
use crate::markdown::HighlightCache;
use crate::site::routes::Addresses;
use crate::site::theme::Theme;
use crate::site::{Page, Site, SiteOptions};

/// How an export is made.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// Write into a folder that has files Hanji did not export there (none
    /// of them is deleted).
    pub force: bool,
    /// Where highlighted code is kept between exports (`highlight.bin` in
    /// it); None keeps nothing. Not the blog folder (it is not the author's
    /// text) and not the output (it would be published): see `fs::cache_dir`.
    pub cache_dir: Option<PathBuf>,
}

/// Left in every folder Hanji exports to: the files of that export (so the
/// next one knows what it may remove), what it was made from, and the problems
/// it found (so an export of an unchanged blog can skip the work).
pub const MARKER: &str = ".hanji-export";

/// What `.hanji-export` holds.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Record {
    /// A hash of everything the site is made from: Hanji itself, the settings,
    /// the templates, every post and every file copied.
    fingerprint: String,
    /// Each file written, with its size and modification time then, to notice
    /// a file changed or deleted in the output since.
    files: BTreeMap<String, (u64, u128)>,
    problems: Vec<Diagnostic>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{message}")]
    Refused { message: String, hint: String },
    #[error("cannot write `{path}`: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// What an export did.
#[derive(Debug, Default)]
pub struct Summary {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    /// Every problem: the blog's, the theme's, and those rendering found.
    pub problems: Vec<Diagnostic>,
    /// Posts left out because they have errors.
    pub left_out: Vec<PathBuf>,
    /// Copies of images made, and found in the cache.
    pub image_copies: (usize, usize),
    pub elapsed: Duration,
}

impl Summary {
    pub fn files(&self) -> usize {
        self.written + self.unchanged
    }

    /// One line for the author: `exported 130 files to site: 130 written, 0
    /// unchanged, 0 removed in 0.24 s`.
    pub fn line(&self, out: &Path) -> String {
        format!(
            "exported {} files to {}: {} written, {} unchanged, {} removed in {:.2} s",
            self.files(),
            out.display(),
            self.written,
            self.unchanged,
            self.removed,
            self.elapsed.as_secs_f64()
        )
    }

    /// `12 copies of images made, 30 from the cache` (`1 copy …`), or None when the pages
    /// show no image that has copies.
    pub fn images_line(&self) -> Option<String> {
        let (made, reused) = self.image_copies;
        let copies = if made == 1 { "copy" } else { "copies" };
        (made + reused > 0).then(|| format!("{made} {copies} of images made, {reused} from the cache"))
    }

    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.severity == Severity::Error).count()
    }
}

/// Called as files are rendered and written: (done, total).
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Exports `blog` into `out`. Refuses, writing nothing, an `out` that is the
/// blog folder, a parent of it, inside it (but for its `output_dir`), or a
/// folder with other files that Hanji did not export there (unless `force`).
pub fn export(blog: &Blog, out: &Path, options: &ExportOptions, progress: Progress) -> Result<Summary, ExportError> {
    let started = Instant::now();
    let out = absolute(out).map_err(|source| ExportError::Io { path: out.into(), source })?;
    let previous = check_destination(blog, &out, options.force)?;
    let highlights_file = options.cache_dir.as_ref().map(|dir| dir.join("highlight.bin"));

    let mut summary = Summary { problems: blog.diagnostics(), ..Summary::default() };
    summary.left_out = blog
        .library
        .posts()
        .filter(|p| p.has_errors || blog.library.shares_slug(&p.path))
        .map(|p| p.path.clone())
        .collect();
    let fingerprint = fingerprint(blog, &summary.problems);
    if previous.fingerprint == fingerprint
        && previous.files.iter().all(|(file, stamp)| stamp_of(&out.join(file)) == Some(*stamp))
    {
        // Made from the same files by the same Hanji, and nothing touched since:
        // every page would come out byte for byte the same.
        summary.unchanged = previous.files.len();
        summary.problems = previous.problems;
        summary.elapsed = started.elapsed();
        return Ok(summary);
    }

    let (theme, theme_problems) = Theme::new(&blog.templates);
    // Copies of the images pages show are made as the pages ask for them.
    let images = Catalog::new(&blog.root, &blog.config.images, options.cache_dir.as_deref()).preparing();
    let options = SiteOptions { search: true, services: true, ..SiteOptions::default() };
    let site = Site::new(&blog.config, &blog.library, &blog.assets, &theme, options)
        .with_images(&images)
        .with_shortcodes(&blog.shortcodes)
        .with_highlights(read_highlights(highlights_file.as_deref()))
        .with_routes();
    let placed = site.files();
    summary.problems.extend(placed.problems);
    summary.left_out.extend(placed.left_out);
    let pages = placed.pages;
    let copies = copies(blog, pages.iter().map(|(page, _)| page));
    let total = pages.len() + copies.len();
    let done = AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
    summary.problems.extend(theme_problems);

    let rendered: Vec<_> = pages
        .par_iter()
        .map(|(page, file)| {
            let result = site.render(page).map(|r| {
                let written = write_if_changed(&out.join(file), r.text.as_bytes());
                // A post's part of the search index, from the prose just rendered.
                let entry = match (page, r.post_text) {
                    (Page::Post(path), Some(text)) if site.has_search() => {
                        // Posts only: a page (an About page) is in no list, nor in the search.
                        let post = site.library.post(path).filter(|post| !post.page);
                        post.map(|post| (path.clone(), site.search_entry(post, text)))
                    }
                    _ => None,
                };
                (written, r.problems, entry)
            });
            tick();
            (file.clone(), result)
        })
        .collect();
    let mut entries = HashMap::new();
    let mut rendered: Vec<_> = rendered
        .into_iter()
        .map(|(file, result)| {
            let result = result.map(|(written, problems, entry)| {
                entries.extend(entry);
                (written, problems)
            });
            (file, result)
        })
        .collect();
    if site.has_search() {
        let index = site.search_index(|post| {
            entries.remove(&post.path).unwrap_or_else(|| site.search_entry(post, site.post_text(post)))
        });
        let addresses = site.addresses();
        let written: Vec<_> = index
            .files
            .par_iter()
            .map(|(name, text)| {
                let file = addresses.search_file(name);
                let written = write_if_changed(&out.join(&file), text.as_bytes());
                (file, Ok((written, Vec::new())))
            })
            .collect();
        rendered.extend(written);
    }
    let mut copied: Vec<_> = copies
        .par_iter()
        .map(|(from, file)| {
            // A file that cannot be read is left out and named, as a post with
            // an error is: the rest of the site is still written.
            let written = fs::read_file(&blog.root, from)
                .map(|bytes| write_if_changed(&out.join(file), &bytes))
                .map_err(|error| fs::read_problem(&error).in_file(from.as_path()));
            tick();
            (file.clone(), written)
        })
        .collect();
    copied.extend(image_copies(&site, &images, &out));
    summary.image_copies = images.counts();

    let mut files = BTreeSet::new();
    let mut count = |file: String, written: Result<bool, ExportError>| -> Result<(), ExportError> {
        if written? {
            summary.written += 1;
        } else {
            summary.unchanged += 1;
        }
        files.insert(file);
        Ok(())
    };
    for (file, result) in rendered {
        match result {
            Ok((written, problems)) => {
                summary.problems.extend(problems);
                count(file, written)?;
            }
            // A page the theme cannot render is left out and reported.
            Err(error) => summary.problems.push(error.to_diagnostic()),
        }
    }
    for (file, written) in copied {
        match written {
            Ok(written) => count(file, written)?,
            Err(problem) => summary.problems.push(problem),
        }
    }
    let old_files: BTreeSet<String> = previous.files.into_keys().collect();
    summary.removed = remove_stale(&out, &old_files, &files)?;
    summary.problems.sort();
    summary.problems.dedup();
    let record = Record {
        fingerprint,
        files: files.into_iter().filter_map(|f| Some((f.clone(), stamp_of(&out.join(&f))?))).collect(),
        problems: summary.problems.clone(),
    };
    let record = serde_json::to_vec(&record).expect("a record serializes");
    write_if_changed(&out.join(MARKER), &record)?;
    keep_highlights(highlights_file.as_deref(), site.highlights());
    summary.elapsed = started.elapsed();
    Ok(summary)
}

fn read_highlights(file: Option<&Path>) -> HighlightCache {
    file.and_then(|file| fs::read(file).ok()).map_or_else(HighlightCache::new, |b| HighlightCache::from_bytes(&b))
}

/// Saves the cache for the next export. It is only a cache: if it cannot be
/// written, the next export highlights again, so a failure is not reported.
fn keep_highlights(file: Option<&Path>, highlights: &HighlightCache) {
    if let Some(file) = file {
        let _ = write_if_changed(file, &highlights.to_bytes());
    }
}

/// A file copied into the site: written or not, or the problem reading it.
type Copied = Result<Result<bool, ExportError>, Diagnostic>;

/// The copies of the images the pages show (each made or found in the cache
/// as a page asked for it), written beside each image's own copy in the site.
fn image_copies(site: &Site, images: &Catalog, out: &Path) -> Vec<(String, Copied)> {
    let addresses = site.addresses();
    let copies: Vec<(String, PathBuf, crate::images::Made)> = images
        .prepared()
        .into_iter()
        .filter_map(|(image, prepared)| Some((addresses.asset(&image)?, image, prepared)))
        .flat_map(|(site_path, image, prepared)| {
            let copies = prepared.copies.into_iter();
            copies.map(move |(copy, made)| (addresses.image_copy(&site_path, copy), image.clone(), made))
        })
        .collect();
    copies
        .par_iter()
        .map(|(file, image, made)| {
            let written = made
                .bytes()
                .map(|bytes| write_if_changed(&out.join(file), &bytes))
                .map_err(|error| fs::read_problem(&error).in_file(image.as_path()));
            (file.clone(), written)
        })
        .collect()
}

/// The files copied as they are: `static/` and the files beside shown posts.
fn copies<'a>(blog: &Blog, pages: impl Iterator<Item = &'a Page>) -> Vec<(PathBuf, String)> {
    let shown: BTreeSet<&Path> =
        pages.filter_map(|p| if let Page::Post(path) = p { Some(path.as_path()) } else { None }).collect();
    // Files in the folder of a draft's bundle stay private with it.
    let private: Vec<&Path> =
        blog.library.posts().filter(|p| p.bundle && !shown.contains(p.path.as_path())).map(|p| p.folder()).collect();
    blog.assets
        .iter()
        .filter(|asset| !private.iter().any(|folder| asset.starts_with(folder)))
        .filter_map(|asset| Some((asset.clone(), Addresses::new(&blog.config, &blog.library).asset(asset)?)))
        .collect()
}

/// What the previous export into `out` left, if `out` is fit to export into.
fn check_destination(blog: &Blog, out: &Path, force: bool) -> Result<Record, ExportError> {
    let refuse = |message: String, hint: &str| ExportError::Refused { message, hint: hint.to_string() };
    let root = absolute(&blog.root).map_err(|source| ExportError::Io { path: blog.root.clone(), source })?;
    let configured = root.join(&blog.config.output_dir);
    if out == root {
        return Err(refuse(
            format!("`{}` is the blog folder itself", out.display()),
            "export to another folder, e.g. --out ../site",
        ));
    }
    if root.starts_with(out) {
        return Err(refuse(
            format!("`{}` holds the blog folder", out.display()),
            "export to a folder outside the blog, e.g. --out ../site",
        ));
    }
    if out.starts_with(&root) && out != configured {
        return Err(refuse(
            format!("`{}` is inside the blog folder", out.display()),
            &format!("export outside the blog, or into its output folder `{}`", blog.config.output_dir.display()),
        ));
    }
    match fs::is_empty_folder(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Record::default()),
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
            Err(refuse(format!("`{}` is a file", out.display()), "export to a folder"))
        }
        Err(source) => Err(ExportError::Io { path: out.into(), source }),
        Ok(empty) => match fs::read(&out.join(MARKER)) {
            Ok(bytes) => {
                // A record that cannot be read still marks the folder as ours;
                // then nothing is removed and everything is written again.
                let mut record: Record = serde_json::from_slice(&bytes).unwrap_or_default();
                record.files.retain(|f, _| is_plain_relative(f));
                Ok(record)
            }
            Err(_) if empty || force => Ok(Record::default()),
            Err(_) => Err(refuse(
                format!("`{}` has files that Hanji did not export", out.display()),
                "export to an empty or new folder, or add --force to write over it (no file is deleted)",
            )),
        },
    }
}

/// Writes `bytes` to `path` unless it holds them already; true if written.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, ExportError> {
    fs::write_if_changed(path, bytes).map_err(|source| ExportError::Io { path: path.into(), source })
}

/// A hash of everything the site is made from (and which posts are held back
/// at the moment the blog was read). Files copied as they are count
/// by size and modification time (reading every image would cost more than
/// copying it); the running `hanji` by the same, so a new build renders again.
fn fingerprint(blog: &Blog, diagnostics: &[Diagnostic]) -> String {
    let mut hasher = DefaultHasher::new();
    let program = std::env::current_exe().ok().and_then(|exe| stamp_of(&exe));
    (env!("CARGO_PKG_VERSION"), program).hash(&mut hasher);
    format!("{:?}", blog.config).hash(&mut hasher);
    blog.templates.hash(&mut hasher);
    blog.shortcodes.hash(&mut hasher);
    for post in blog.library.posts() {
        // Whether it is held back too: the same files export otherwise once
        // a scheduled post's moment has come.
        (&post.path, post.source(), post.held).hash(&mut hasher);
    }
    for asset in &blog.assets {
        (asset, stamp_of(&blog.root.join(asset))).hash(&mut hasher);
    }
    format!("{diagnostics:?}").hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// Removes the files the previous export wrote that this one did not, and
/// the folders that leaves empty. Nothing else.
fn remove_stale(out: &Path, previous: &BTreeSet<String>, current: &BTreeSet<String>) -> Result<usize, ExportError> {
    let mut removed = 0;
    for file in previous.difference(current) {
        let path = out.join(file);
        match fs::remove_file(&path) {
            Ok(true) => removed += 1,
            Ok(false) => {}
            Err(source) => return Err(ExportError::Io { path, source }),
        }
        fs::remove_empty_folders(&path, out);
    }
    Ok(removed)
}

/// A file name from the marker that stays inside the output folder.
fn is_plain_relative(line: &str) -> bool {
    !line.is_empty() && Path::new(line).components().all(|c| matches!(c, Component::Normal(_)))
}

//! Publishing: the site exported, then sent to a target (`[publish.NAME]`),
//! only the files whose bytes changed since the last publish the target
//! confirmed. The export is the one thing that makes the site; this module
//! sends it. The kinds of target are behind one trait (`remote::Remote`):
//! a git branch (`git`), a bucket (`bucket`), an SFTP server (`sftp`), a
//! folder (`folder`). What to send is worked out purely (`plan`) from the
//! record of the last publish (`record`), kept on the target. Secrets come
//! from the system's keychain (`keychain`), never from the blog.

mod bucket;
mod error;
mod folder;
pub(crate) mod git;
pub mod keychain;
mod known_hosts;
mod plan;
mod progress;
mod record;
mod remote;
mod sftp;
pub(crate) mod ssh;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::blog::Blog;
use crate::config::{PublishTarget, TargetKind};
use crate::diagnostics::{Diagnostic, Severity};
use crate::export::{self, ExportError, ExportOptions};
use crate::fs;
use crate::site::routes::Addresses;

pub use error::{Fault, PublishError};
pub use progress::Progress;

use plan::{Plan, SiteFile};
use record::{Journal, Record, Sent};
use remote::{Remote, Upload};

/// How a publish is made.
#[derive(Debug, Clone)]
pub struct PublishOptions<'a> {
    /// The target's secret (token, password, passphrase, secret key), if
    /// it needs one; see `keychain`.
    pub secret: Option<String>,
    /// Only work out what would be sent and removed.
    pub dry_run: bool,
    /// Hanji's cache folder (`fs::cache_dir`): the site is exported there,
    /// and the hashes and journals are kept there.
    pub cache_dir: PathBuf,
    /// Set to stop the publish between two files.
    pub cancel: Option<&'a AtomicBool>,
}

/// What a publish did (or, dry, would do).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub target: String,
    pub dry_run: bool,
    /// Site paths sent, in the order sent.
    pub sent: Vec<String>,
    pub sent_bytes: u64,
    /// Site paths removed from the target.
    pub removed: Vec<String>,
    /// Files the target already held as they are.
    pub unchanged: usize,
    /// The export's problems: warnings (published anyway) and the errors of
    /// the posts left out.
    pub problems: Vec<Diagnostic>,
    /// Posts left out because they have errors.
    pub left_out: Vec<PathBuf>,
    /// The site's address, to open.
    pub url: Option<String>,
    pub export_time: Duration,
    pub elapsed: Duration,
}

impl Summary {
    /// `published to pages: 12 files sent (340 KB), 1 removed, 120 unchanged in 1.2 s`.
    pub fn line(&self) -> String {
        let verb = if self.dry_run { "would send" } else { "sent" };
        let removed = if self.dry_run { "would be removed" } else { "removed" };
        let head = if self.dry_run { "dry run of" } else { "published to" };
        format!(
            "{head} {}: {} {} {verb} ({}), {} {removed}, {} unchanged in {:.2} s",
            self.target,
            self.sent.len(),
            if self.sent.len() == 1 { "file" } else { "files" },
            bytes_text(self.sent_bytes),
            self.removed.len(),
            self.unchanged,
            self.elapsed.as_secs_f64()
        )
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.problems.iter().filter(|p| p.severity == Severity::Warning)
    }
}

/// `340 KB`, `1.2 MB`.
pub fn bytes_text(bytes: u64) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{} KB", b.div_ceil(1024)),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

/// The target named `name` among the blog's `targets`, or its only one.
pub fn find_target<'a>(targets: &'a [PublishTarget], name: Option<&str>) -> Result<&'a PublishTarget, PublishError> {
    let names = || targets.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ");
    match name {
        Some(name) => targets.iter().find(|t| t.name == name).ok_or_else(|| {
            let hint = if targets.is_empty() {
                format!("add [publish.{name}] to hanji.toml (see the guide's Publish), or set it up in the app")
            } else {
                format!("the blog's targets are: {}", names())
            };
            PublishError::new(Fault::Settings, format!("the blog has no publish target `{name}`"), hint)
        }),
        None => match targets {
            [only] => Ok(only),
            [] => Err(PublishError::new(
                Fault::Settings,
                "the blog has no publish target",
                "add one to hanji.toml, e.g. [publish.site] with kind = \"folder\" and path = \"/media/usb/blog\" \
                 (see the guide's Publish), or set it up in the app",
            )),
            _ => Err(PublishError::new(
                Fault::Settings,
                "the blog has more than one publish target",
                format!("name one with --target: {}", names()),
            )),
        },
    }
}

/// What secret a target asks for, in the author's words, or None if it
/// needs none (a folder; a key without a passphrase is tried first).
pub fn secret_name(target: &PublishTarget) -> Option<&'static str> {
    match &target.kind {
        TargetKind::Git { remote, key, .. } if git::is_ssh(remote) => key.as_ref().map(|_| "the SSH key's passphrase"),
        TargetKind::Git { remote, .. } if git::is_local(remote) => None,
        TargetKind::Git { .. } => Some("an access token"),
        TargetKind::Bucket { .. } => Some("the secret access key"),
        TargetKind::Sftp { key: Some(_), .. } => Some("the SSH key's passphrase"),
        TargetKind::Sftp { .. } => Some("the password"),
        TargetKind::Folder { .. } => None,
    }
}

/// Connects to the target, signs in and reads what it holds, sending
/// nothing: a line saying what was found.
pub fn test_connection(
    target: &PublishTarget,
    secret: Option<&str>,
    cache_dir: &Path,
    blog_root: &Path,
) -> Result<String, PublishError> {
    let mut remote = connect(target, secret, cache_dir, Some(blog_root), false)?;
    let record = remote.record()?.as_deref().and_then(Record::from_bytes);
    remote.listing(&record.as_ref().map(|r| r.files.clone()).unwrap_or_default())?;
    Ok(match record {
        Some(record) => format!("connected: {} files of an earlier publish are there", record.files.len()),
        None => "connected: nothing published there by Hanji yet".to_string(),
    })
}

/// Trusts the SSH server of a git (over SSH) or SFTP target: its host key
/// is added to Hanji's own known hosts, if no other key is known for it; a
/// changed key only when `changed_to` names the new key's fingerprint. The
/// key's fingerprint, for the author.
pub fn trust_host(target: &PublishTarget, changed_to: Option<&str>) -> Result<String, PublishError> {
    match &target.kind {
        TargetKind::Sftp { host, port, known_hosts, .. } => {
            ssh::trust_host(&ssh::known_hosts(known_hosts.as_deref()), host, *port, changed_to)
        }
        TargetKind::Git { remote, known_hosts, .. } if git::is_ssh(remote) => {
            let (host, port) = ssh::host_of_git_remote(remote).ok_or_else(|| {
                PublishError::new(Fault::Settings, format!("`{remote}` names no host"), "check the remote's address")
            })?;
            ssh::trust_host(&ssh::known_hosts(known_hosts.as_deref()), &host, port, changed_to)
        }
        _ => Err(PublishError::new(
            Fault::Settings,
            format!("the target `{}` is not reached over SSH", target.name),
            "only git over SSH and SFTP targets have a host to trust",
        )),
    }
}

/// The target, reached and signed in to. `claim`: a publish that will
/// write there (not a dry run, nor a test of the connection).
fn connect(
    target: &PublishTarget,
    secret: Option<&str>,
    cache_dir: &Path,
    blog_root: Option<&Path>,
    claim: bool,
) -> Result<Box<dyn Remote>, PublishError> {
    Ok(match &target.kind {
        TargetKind::Folder { path } => {
            // A relative folder is beside the blog, not wherever Hanji runs.
            let path = match blog_root {
                Some(root) if path.is_relative() && !path.starts_with("~") => root.join(path),
                _ => expand_home(path),
            };
            Box::new(folder::Folder::open(&path, blog_root, claim)?)
        }
        TargetKind::Git { .. } => Box::new(git::Branch::open(target, secret, &cache_dir.join("publish").join("git"))?),
        TargetKind::Sftp { .. } => Box::new(sftp::Server::open(target, secret)?),
        TargetKind::Bucket { .. } => Box::new(bucket::Bucket::open(target, secret)?),
    })
}

/// `~/x` as the home folder's `x`.
pub(crate) fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// Where a blog's site is exported for publishing, with its hashes and
/// journals: in Hanji's cache, not in the blog (never in its sources or
/// their git history) and not its `output_dir` (which the author may use
/// for their own copy).
pub fn work_folder(cache_dir: &Path, blog_root: &Path) -> PathBuf {
    let root = fs::absolute(blog_root).unwrap_or_else(|_| blog_root.to_path_buf());
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().chars().filter(|c| c.is_alphanumeric() || *c == '-').take(32).collect())
        .unwrap_or_default();
    let id = git2::Oid::hash_object(git2::ObjectType::Blob, root.to_string_lossy().as_bytes())
        .map(|oid| oid.to_string()[..12].to_string())
        .unwrap_or_default();
    cache_dir.join("publish").join(format!("{name}-{id}"))
}

/// An export's error as the publish's.
fn export_error(cache_dir: &Path) -> impl Fn(ExportError) -> PublishError + '_ {
    move |error| match error {
        ExportError::Refused { message, hint } => PublishError::new(Fault::Export, message, hint),
        error => PublishError::new(
            Fault::Export,
            format!("the site could not be exported for publishing: {error}"),
            format!("check the cache folder `{}` (free space, permissions)", cache_dir.display()),
        ),
    }
}

/// Exports `blog`, then sends the site to `target`.
pub fn publish(
    blog: &Blog,
    target: &PublishTarget,
    options: &PublishOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Summary, PublishError> {
    let started = Instant::now();
    // One export or publish of a blog at a time: held until the site is sent.
    let _lock = export::lock(blog, Some(&options.cache_dir)).map_err(export_error(&options.cache_dir))?;
    let work = work_folder(&options.cache_dir, &blog.root);
    let site_dir = work.join("site");
    let export_options = ExportOptions { cache_dir: Some(options.cache_dir.clone()), ..ExportOptions::default() };
    let exported = export::export_locked(blog, &site_dir, &export_options, &|done, total| {
        progress(Progress::Exporting { done, total })
    })
    .map_err(export_error(&options.cache_dir))?;
    let mut summary = Summary {
        target: target.name.clone(),
        dry_run: options.dry_run,
        problems: exported.problems,
        left_out: exported.left_out,
        url: Some(target.url.clone().unwrap_or_else(|| blog.config.base_url.clone())).filter(|u| u.contains("://")),
        export_time: exported.elapsed,
        ..Summary::default()
    };
    progress(Progress::Exported {
        problems: summary.problems.clone(),
        left_out: summary.left_out.iter().map(|p| p.to_string_lossy().into_owned()).collect(),
    });
    let site = site_files(&site_dir, &work.join("hashes.json"))?;

    progress(Progress::Connecting);
    let mut remote =
        connect(target, options.secret.as_deref(), &options.cache_dir, Some(&blog.root), !options.dry_run)?;
    let record_bytes = remote.record()?.unwrap_or_default();
    let record = Record::from_bytes(&record_bytes).unwrap_or_default();
    let record_id = Record::id(&record_bytes);
    let journal = Journal::new(work.clone(), &format!("{}.journal", safe_name(&target.name)));
    let mut known = record.files.clone();
    let confirmed = if remote.confirms_each_file() { journal.read(&record_id) } else { Vec::new() };
    for (path, sent) in &confirmed {
        match sent {
            Some(sent) => known.insert(path.clone(), sent.clone()),
            None => known.remove(path),
        };
    }
    let listing = remote.listing(&known)?;
    let plan = plan::plan(&site, &known, &listing);
    summary.unchanged = plan.unchanged.len();
    if options.dry_run {
        summary.sent = plan.send.iter().map(|f| f.path.clone()).collect();
        summary.sent_bytes = plan.bytes();
        summary.removed = plan.remove.clone();
        summary.elapsed = started.elapsed();
        return Ok(summary);
    }
    let cancelled = || options.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let journal_fault = |e: std::io::Error| {
        PublishError::new(
            Fault::Failed,
            format!("cannot keep the publish's journal `{}`: {e}", journal.path().display()),
            "check the cache folder (free space, permissions)",
        )
    };
    if remote.confirms_each_file() {
        journal.begin(&record_id, &confirmed).map_err(journal_fault)?;
    }

    // Sending: each confirmed file goes into the new record and the journal.
    let mut new_record = Record::default();
    for file in &plan.unchanged {
        let stamp = known.get(&file.path).map(|s| s.stamp.clone()).unwrap_or_default();
        new_record.files.insert(file.path.clone(), Sent { hash: file.hash.clone(), stamp });
    }
    let uploads: Vec<Upload> = plan
        .send
        .iter()
        .enumerate()
        .map(|(at, f)| Upload {
            path: f.path.clone(),
            file: site_dir.join(&f.path),
            size: f.size,
            hash: f.hash.clone(),
            wave: if at < plan.new { 0 } else { 2 } + u8::from(plan::links_out(&f.path)),
        })
        .collect();
    let total_bytes = plan.bytes();
    let total = uploads.len();
    progress(Progress::Sending { path: String::new(), done: 0, total, bytes: 0, total_bytes });
    let mut journal_error = None;
    {
        let each = remote.confirms_each_file();
        let mut confirm = |upload: &Upload, stamp: String| {
            let sent = Sent { hash: upload.hash.clone(), stamp };
            if each && let Err(e) = journal.sent(&upload.path, &sent) {
                journal_error = Some(e);
                return false;
            }
            new_record.files.insert(upload.path.clone(), sent);
            summary.sent.push(upload.path.clone());
            summary.sent_bytes += upload.size;
            progress(Progress::Sending {
                path: upload.path.clone(),
                done: summary.sent.len(),
                total,
                bytes: summary.sent_bytes,
                total_bytes,
            });
            !cancelled()
        };
        remote.send(&uploads, &mut confirm)?;
    }
    if let Some(e) = journal_error {
        return Err(journal_fault(e));
    }
    if cancelled() {
        return Err(cancelled_error(&summary, remote.confirms_each_file()));
    }

    // Removing, last: no page of the new site links to these.
    let remove_total = plan.remove.len();
    {
        let each = remote.confirms_each_file();
        let mut removed = |path: &str| {
            if each && let Err(e) = journal.removed(path) {
                journal_error = Some(e);
                return false;
            }
            summary.removed.push(path.to_string());
            progress(Progress::Removing { done: summary.removed.len(), total: remove_total });
            !cancelled()
        };
        remote.remove(&plan.remove, &mut removed)?;
    }
    if let Some(e) = journal_error {
        return Err(journal_fault(e));
    }
    if cancelled() {
        return Err(cancelled_error(&summary, remote.confirms_each_file()));
    }
    // What Hanji sent before and could not remove stays in the record, to
    // be removed next time.
    for path in plan.remove.iter().filter(|p| !summary.removed.contains(p)) {
        if let Some(sent) = known.get(path) {
            new_record.files.insert(path.clone(), sent.clone());
        }
    }

    let message = commit_message(blog, &plan, &summary, record.files.is_empty());
    remote.finish(&new_record.to_bytes(), &message, &|p| progress(p))?;
    journal.finish();
    summary.elapsed = started.elapsed();
    Ok(summary)
}

fn cancelled_error(summary: &Summary, each: bool) -> PublishError {
    let message = if each {
        format!(
            "publishing was cancelled after {} of the changed files were sent; the target has them, and the rest of \
             the site as it was",
            summary.sent.len()
        )
    } else {
        "publishing was cancelled: nothing was pushed, the branch is as it was".to_string()
    };
    PublishError::new(Fault::Cancelled, message, "publish again to finish: what was sent is not sent again")
}

/// A target's name as part of a file name.
fn safe_name(name: &str) -> String {
    name.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// The hashes of the site's files, worked out again only for the files
/// whose size or time changed since the last publish.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Hashes {
    files: HashMap<String, (fs::Stamp, String)>,
}

/// Every file of the exported site in `dir` with its hash.
fn site_files(dir: &Path, hashes_file: &Path) -> Result<Vec<SiteFile>, PublishError> {
    let listed = fs::files_under(dir).map_err(|e| {
        PublishError::new(
            Fault::Export,
            format!("cannot read the exported site in `{}`: {e}", dir.display()),
            "check the cache folder (permissions), then publish again",
        )
    })?;
    let old: Hashes = fs::read(hashes_file).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
    let files: Vec<(SiteFile, Option<fs::Stamp>)> = listed
        .into_par_iter()
        .filter_map(|(path, size)| {
            let site_path = path.to_string_lossy().replace('\\', "/");
            let hanjis_own = |part: &str| part.starts_with(".hanji-") || fs::is_temp_file(part.as_ref());
            if site_path.split('/').any(hanjis_own) {
                return None; // the export's own record (`.hanji-export`), and temp files
            }
            let full = dir.join(&path);
            let stamp = fs::stamp_of(&full);
            let hash = match (old.files.get(&site_path), stamp) {
                (Some((was, hash)), Some(now)) if *was == now => hash.clone(),
                _ => blob_hash(&fs::read(&full).ok()?),
            };
            Some((SiteFile { path: site_path, hash, size }, stamp))
        })
        .collect();
    let hashes = Hashes {
        files: files
            .iter()
            .filter_map(|(file, stamp)| stamp.map(|stamp| (file.path.clone(), (stamp, file.hash.clone()))))
            .collect(),
    };
    // Only a cache: if it cannot be kept, the next publish hashes again.
    // Only a cache: the next publish hashes again what it cannot find here.
    if let (Some(folder), Some(name)) = (hashes_file.parent(), hashes_file.file_name().and_then(|n| n.to_str()))
        && let (Ok(folder), Ok(name)) = (fs::Folder::open(folder, true), fs::SitePath::new(name))
    {
        let _ = folder.write_if_changed(&name, &serde_json::to_vec(&hashes).unwrap_or_default());
    }
    Ok(files.into_iter().map(|(file, _)| file).collect())
}

/// The hash of a file's bytes: the id git gives them as a blob, so a git
/// target compares them with its tree directly.
fn blob_hash(bytes: &[u8]) -> String {
    git2::Oid::hash_object(git2::ObjectType::Blob, bytes).map(|oid| oid.to_string()).unwrap_or_default()
}

/// A commit message naming what changed: the posts whose pages were sent
/// or removed, by title, and the counts.
fn commit_message(blog: &Blog, plan: &Plan, summary: &Summary, first: bool) -> String {
    let addresses = Addresses::new(&blog.config, &blog.library);
    let titles: BTreeMap<String, &str> =
        blog.library.posts().map(|post| (format!("{}index.html", addresses.post(post)), post.title.as_str())).collect();
    let changed: Vec<&str> = plan.send.iter().filter_map(|f| titles.get(&f.path).copied()).collect();
    let posts = blog.library.posts().filter(|p| !p.page && !p.draft && !p.has_errors && p.held.is_none()).count();
    let mut subject = match changed.as_slice() {
        _ if first => format!("Publish the site: {posts} posts"),
        [] => "Publish the site".to_string(),
        [one] => format!("Publish \u{201c}{one}\u{201d}"),
        [first, rest @ ..] => format!("Publish \u{201c}{first}\u{201d} and {} more posts", rest.len()),
    };
    if subject.chars().count() > 72 {
        subject = subject.chars().take(69).collect::<String>() + "...";
    }
    let mut body = format!(
        "\n\n{} files sent, {} removed, {} unchanged.\n",
        summary.sent.len(),
        plan.remove.len(),
        plan.unchanged.len()
    );
    if changed.len() > 1 {
        body.push_str("\nPosts changed:\n");
        for title in changed.iter().take(20) {
            body.push_str(&format!("- {title}\n"));
        }
        if changed.len() > 20 {
            body.push_str(&format!("- and {} more\n", changed.len() - 20));
        }
    }
    body.push_str("\nPublished by Hanji.\n");
    subject + &body
}

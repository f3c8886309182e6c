//! The blog's sources through git, when the blog folder is in a git
//! repository: which posts changed since the last commit, a commit of them
//! (with a message made from their titles), pull and push. A pull writes
//! the files it changes, and the watcher follows them like any outside
//! edit; a pull that would write over uncommitted changes, or whose merge
//! has conflicts, writes nothing and says which posts.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use git2::build::CheckoutBuilder;
use git2::{
    BranchType, ErrorCode, FetchOptions, IndexAddOption, PushOptions, Repository, Signature, Status as GitStatus,
    StatusOptions,
};

use crate::blog::Blog;
use crate::fs;
use crate::publish::git::{Access, git_error};
use crate::publish::{Fault, PublishError, keychain, ssh};

/// How a file changed since the last commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Change {
    Added,
    Modified,
    Deleted,
    /// Both sides of a merge changed it: git's conflict markers may be in it.
    Conflicted,
}

/// A changed file of the blog.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Changed {
    /// Relative to the blog folder.
    pub path: String,
    pub change: Change,
    /// The post's title, if it is a post.
    pub title: Option<String>,
}

/// The blog's repository as it stands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "SourcesStatus"))]
pub struct Status {
    /// The branch checked out (None: no commit yet, or a detached HEAD).
    pub branch: Option<String>,
    /// Where Pull and Push go: `origin/main`; None without one.
    pub upstream: Option<String>,
    /// Commits here and not there, and there and not here (as last fetched).
    pub ahead: usize,
    pub behind: usize,
    /// The blog's files changed since the last commit, posts first.
    pub changed: Vec<Changed>,
    /// A commit message made from the changed posts' titles.
    pub message: String,
}

/// What a pull did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Pulled {
    /// Files the pull wrote, relative to the blog folder.
    pub files: Vec<String>,
    /// A line for the author.
    pub message: String,
}

/// The blog folder's repository.
pub struct Sources {
    repo: Repository,
    /// The blog folder inside the repository's working folder: `""` or `site/`.
    within: String,
}

fn failed(doing: &str, error: &git2::Error) -> PublishError {
    PublishError::new(Fault::Failed, format!("cannot {doing}: {}", error.message()), "try again")
}

impl Sources {
    /// The repository the blog folder is in; None if it is in none.
    pub fn open(root: &Path) -> Option<Sources> {
        let repo = Repository::discover(root).ok()?;
        let workdir = fs::absolute(repo.workdir()?).ok()?;
        let root = fs::absolute(root).ok()?;
        let within = root.strip_prefix(&workdir).ok()?.to_string_lossy().replace('\\', "/");
        let within = if within.is_empty() { within } else { format!("{within}/") };
        Some(Sources { repo, within })
    }

    /// A path of the repository as a path of the blog; None if outside it.
    fn in_blog<'a>(&self, path: &'a str) -> Option<&'a str> {
        path.strip_prefix(self.within.as_str())
    }

    fn branch(&self) -> Option<String> {
        let head = self.repo.head().ok()?;
        if head.is_branch() { head.shorthand().ok().map(str::to_string) } else { None }
    }

    /// The upstream's remote name and branch, e.g. (`origin`, `main`).
    fn upstream(&self) -> Option<(String, String)> {
        let branch = self.branch()?;
        let local = self.repo.find_branch(&branch, BranchType::Local).ok()?;
        match local.upstream() {
            Ok(upstream) => {
                let name = upstream.name().ok()??.to_string();
                let (remote, branch) = name.split_once('/')?;
                Some((remote.to_string(), branch.to_string()))
            }
            // No upstream set: the usual `origin` and the same name.
            Err(_) => self.repo.find_remote("origin").ok().map(|_| ("origin".to_string(), branch)),
        }
    }

    pub fn status(&self, blog: &Blog) -> Result<Status, PublishError> {
        let mut options = StatusOptions::new();
        options.include_untracked(true).recurse_untracked_dirs(true).include_ignored(false);
        if !self.within.is_empty() {
            options.pathspec(&self.within);
        }
        let statuses = self.repo.statuses(Some(&mut options)).map_err(|e| failed("read the repository", &e))?;
        let mut changed: Vec<Changed> = statuses
            .iter()
            .filter_map(|entry| {
                let path = self.in_blog(entry.path().ok()?)?.to_string();
                let s = entry.status();
                let change = if s.contains(GitStatus::CONFLICTED) {
                    Change::Conflicted
                } else if s.intersects(GitStatus::WT_NEW | GitStatus::INDEX_NEW) {
                    Change::Added
                } else if s.intersects(GitStatus::WT_DELETED | GitStatus::INDEX_DELETED) {
                    Change::Deleted
                } else if s.intersects(
                    GitStatus::WT_MODIFIED
                        | GitStatus::INDEX_MODIFIED
                        | GitStatus::WT_RENAMED
                        | GitStatus::INDEX_RENAMED
                        | GitStatus::WT_TYPECHANGE,
                ) {
                    Change::Modified
                } else {
                    return None;
                };
                let title = blog.library.post(Path::new(&path)).map(|post| post.title.clone());
                Some(Changed { path, change, title })
            })
            .collect();
        changed.sort_by(|a, b| (a.title.is_none(), &a.path).cmp(&(b.title.is_none(), &b.path)));
        let upstream = self.upstream();
        let (ahead, behind) = upstream
            .as_ref()
            .and_then(|(remote, branch)| {
                let local = self.repo.head().ok()?.target()?;
                let theirs = self.repo.refname_to_id(&format!("refs/remotes/{remote}/{branch}")).ok()?;
                self.repo.graph_ahead_behind(local, theirs).ok()
            })
            .unwrap_or((0, 0));
        Ok(Status {
            branch: self.branch(),
            upstream: upstream.map(|(remote, branch)| format!("{remote}/{branch}")),
            ahead,
            behind,
            message: commit_message(&changed),
            changed,
        })
    }

    /// Commits every change in the blog folder (new files, edits and
    /// deletions) with `message`, as the author git knows (`user.name`).
    pub fn commit(&self, message: &str) -> Result<String, PublishError> {
        if message.trim().is_empty() {
            return Err(PublishError::new(Fault::Settings, "the commit message is empty", "write what changed"));
        }
        let signature = self.repo.signature().map_err(|_| {
            PublishError::new(
                Fault::Settings,
                "git does not know your name and email for the commit",
                "set them once: git config --global user.name \"Your Name\" and git config --global user.email you@example.com",
            )
        })?;
        let mut index = self.repo.index().map_err(|e| failed("read the index", &e))?;
        if index.has_conflicts() {
            return Err(PublishError::new(
                Fault::Rejected,
                "the repository is in the middle of a merge with conflicts",
                "resolve them with git first (git status shows which files)",
            ));
        }
        let spec = if self.within.is_empty() { ".".to_string() } else { self.within.clone() };
        index.add_all([spec.as_str()], IndexAddOption::DEFAULT, None).map_err(|e| failed("stage the changes", &e))?;
        index.update_all([spec.as_str()], None).map_err(|e| failed("stage the changes", &e))?;
        index.write().map_err(|e| failed("write the index", &e))?;
        let tree_id = index.write_tree().map_err(|e| failed("write the commit's tree", &e))?;
        let tree = self.repo.find_tree(tree_id).map_err(|e| failed("write the commit's tree", &e))?;
        let parent = self.repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        if parent.as_ref().is_some_and(|p| p.tree_id() == tree_id) {
            return Err(PublishError::new(
                Fault::Settings,
                "nothing changed since the last commit",
                "edit a post first",
            ));
        }
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        let id = self
            .repo
            .commit(Some("HEAD"), &signature, &signature, message.trim(), &tree, &parents)
            .map_err(|e| failed("commit", &e))?;
        Ok(id.to_string())
    }

    fn access(&self, remote: &str) -> Result<Access, PublishError> {
        let found = self.repo.find_remote(remote).map_err(|_| {
            PublishError::new(
                Fault::Settings,
                format!("the repository has no remote `{remote}`"),
                "add one: git remote add origin <address>",
            )
        })?;
        let url = found.pushurl().ok().flatten().or(found.url().ok()).unwrap_or_default().to_string();
        Ok(Access {
            secret: keychain::secret_of(&keychain::account_of_remote(&url)),
            user: None,
            key: None,
            known_hosts: ssh::known_hosts(None),
            remote: url,
        })
    }

    /// Fetches the upstream, then brings its commits here: a fast-forward,
    /// or a merge commit when both sides have new commits. Nothing is
    /// written if that would write over uncommitted changes, or if the
    /// merge has conflicts: the author is told which files.
    pub fn pull(&self) -> Result<Pulled, PublishError> {
        let (remote_name, branch) = self.upstream().ok_or_else(|| {
            PublishError::new(
                Fault::Settings,
                "the branch has no upstream to pull from",
                "push it once with git (git push -u origin main), or add a remote named origin",
            )
        })?;
        let access = self.access(&remote_name)?;
        let refused = RefCell::new(None);
        let err = |e: git2::Error, doing: &str| {
            refused.borrow_mut().take().unwrap_or_else(|| git_error(&access.remote, &branch, e, doing))
        };
        {
            let mut remote = self.repo.find_remote(&remote_name).map_err(|e| err(e, "reach"))?;
            let mut options = FetchOptions::new();
            options.remote_callbacks(access.callbacks(&refused));
            let refspec = format!("+refs/heads/{branch}:refs/remotes/{remote_name}/{branch}");
            remote.fetch(&[refspec.as_str()], Some(&mut options), None).map_err(|e| err(e, "pull from"))?;
        }
        let theirs_ref = format!("refs/remotes/{remote_name}/{branch}");
        let theirs =
            self.repo.find_reference(&theirs_ref).and_then(|r| r.peel_to_commit()).map_err(|e| err(e, "read"))?;
        let annotated = self.repo.find_annotated_commit(theirs.id()).map_err(|e| err(e, "read"))?;
        let (analysis, _) = self.repo.merge_analysis(&[&annotated]).map_err(|e| err(e, "merge"))?;
        if analysis.is_up_to_date() {
            return Ok(Pulled { files: Vec::new(), message: "already up to date".to_string() });
        }
        let ours = self.repo.head().and_then(|h| h.peel_to_commit()).ok();
        let (tree, merge) = match &ours {
            Some(ours) if !analysis.is_fast_forward() => {
                let index = self.repo.merge_commits(ours, &theirs, None).map_err(|e| err(e, "merge"))?;
                if index.has_conflicts() {
                    let files: Vec<String> = index
                        .conflicts()
                        .map_err(|e| err(e, "merge"))?
                        .filter_map(Result::ok)
                        .filter_map(|c| c.our.or(c.their))
                        .map(|entry| String::from_utf8_lossy(&entry.path).into_owned())
                        .filter_map(|path| self.in_blog(&path).map(str::to_string))
                        .collect();
                    return Err(PublishError::new(
                        Fault::Rejected,
                        format!(
                            "both this copy and {remote_name}/{branch} changed {}: nothing was pulled, and your files are as they were",
                            files.join(", ")
                        ),
                        "merge them with git (git pull, then edit the conflicts), or keep one side: copy your version \
                         aside, then pull again after committing",
                    ));
                }
                let mut index = index;
                let tree = index.write_tree_to(&self.repo).map_err(|e| err(e, "merge"))?;
                (tree, true)
            }
            _ => (theirs.tree_id(), false),
        };
        let tree = self.repo.find_tree(tree).map_err(|e| err(e, "read"))?;
        let before = ours.as_ref().and_then(|c| c.tree().ok());
        let diff = self.repo.diff_tree_to_tree(before.as_ref(), Some(&tree), None).map_err(|e| err(e, "read"))?;
        let files: Vec<String> = diff
            .deltas()
            .filter_map(|d| d.new_file().path().or(d.old_file().path()).map(|p| p.to_string_lossy().into_owned()))
            .filter_map(|path| self.in_blog(&path).map(str::to_string))
            .collect();
        // Safe: a file with uncommitted changes that the pull would write
        // stops the checkout before anything is written.
        let mut checkout = CheckoutBuilder::new();
        checkout.safe();
        if let Err(error) = self.repo.checkout_tree(tree.as_object(), Some(&mut checkout)) {
            if error.code() == ErrorCode::Conflict {
                return Err(PublishError::new(
                    Fault::Rejected,
                    format!("pulling would write over changes you have not committed: {}", error.message()),
                    "commit your changes first (Commit), then pull again",
                ));
            }
            return Err(err(error, "write the pulled files of"));
        }
        let head = self.repo.head().map_err(|e| err(e, "read"))?;
        let head_name = head.name().unwrap_or("HEAD").to_string();
        let new_head = if merge {
            let signature = self
                .repo
                .signature()
                .or_else(|_| Signature::now("Hanji", "hanji@localhost"))
                .map_err(|e| err(e, "sign"))?;
            let ours = ours.expect("a merge has our side");
            let message = format!("Merge {remote_name}/{branch} into {}", self.branch().unwrap_or_default());
            self.repo
                .commit(None, &signature, &signature, &message, &tree, &[&ours, &theirs])
                .map_err(|e| err(e, "commit"))?
        } else {
            theirs.id()
        };
        self.repo.reference(&head_name, new_head, true, "hanji: pull").map_err(|e| err(e, "update the branch of"))?;
        let mut index = self.repo.index().map_err(|e| err(e, "read"))?;
        index.read_tree(&tree).and_then(|()| index.write()).map_err(|e| err(e, "write the index of"))?;
        let message = format!(
            "pulled {} changed {} from {remote_name}/{branch}",
            files.len(),
            if files.len() == 1 { "file" } else { "files" }
        );
        Ok(Pulled { files, message })
    }

    /// Pushes the branch to its upstream; never forced. If the upstream has
    /// commits this copy does not, the push is refused: pull first.
    pub fn push(&self) -> Result<String, PublishError> {
        let (remote_name, branch) = self.upstream().ok_or_else(|| {
            PublishError::new(Fault::Settings, "the branch has no upstream to push to", "add a remote named origin")
        })?;
        let local = self.branch().ok_or_else(|| {
            PublishError::new(Fault::Settings, "no branch is checked out", "check out a branch with git")
        })?;
        let access = self.access(&remote_name)?;
        let refused = RefCell::new(None);
        let rejected: RefCell<Option<String>> = RefCell::new(None);
        let result = {
            let mut callbacks = access.callbacks(&refused);
            callbacks.push_update_reference(|_, status| {
                if let Some(status) = status {
                    *rejected.borrow_mut() = Some(status.to_string());
                }
                Ok(())
            });
            let mut options = PushOptions::new();
            options.remote_callbacks(callbacks);
            let mut remote = self.repo.find_remote(&remote_name).map_err(|e| failed("reach the remote", &e))?;
            let refspec = format!("refs/heads/{local}:refs/heads/{branch}");
            remote.push(&[refspec.as_str()], Some(&mut options))
        };
        let pull_first = || {
            PublishError::new(
                Fault::Rejected,
                format!(
                    "{remote_name}/{branch} has commits this copy does not have (written on another machine?): the push was refused"
                ),
                "Pull first, then Push again",
            )
        };
        if let Err(error) = result {
            if let Some(kept) = refused.borrow_mut().take() {
                return Err(kept);
            }
            let e = git_error(&access.remote, &branch, error, "push to");
            return Err(if e.fault == Fault::Rejected { pull_first() } else { e });
        }
        if rejected.borrow().is_some() {
            return Err(pull_first());
        }
        // The remote-tracking branch now is where the push put it.
        if let Ok(id) = self.repo.refname_to_id(&format!("refs/heads/{local}")) {
            let _ = self.repo.reference(&format!("refs/remotes/{remote_name}/{branch}"), id, true, "hanji: push");
        }
        Ok(format!("pushed {local} to {remote_name}/{branch}"))
    }

    /// The repository's working folder.
    pub fn folder(&self) -> Option<PathBuf> {
        self.repo.workdir().map(Path::to_path_buf)
    }
}

/// `Add “A”; update “B” and “C”`, from the changed posts (or their files).
pub fn commit_message(changed: &[Changed]) -> String {
    let name = |c: &Changed| match &c.title {
        Some(title) => format!("\u{201c}{title}\u{201d}"),
        None => c.path.clone(),
    };
    let posts: Vec<&Changed> = changed.iter().filter(|c| c.title.is_some()).collect();
    let shown: Vec<&Changed> = if posts.is_empty() { changed.iter().collect() } else { posts };
    let mut parts = Vec::new();
    for (change, verb) in [
        (Change::Added, "Add"),
        (Change::Modified, "Update"),
        (Change::Deleted, "Delete"),
        (Change::Conflicted, "Resolve"),
    ] {
        let names: Vec<String> = shown.iter().filter(|c| c.change == change).map(|c| name(c)).collect();
        let listed = match names.as_slice() {
            [] => continue,
            [one] => one.clone(),
            [a, b] => format!("{a} and {b}"),
            [a, rest @ ..] => format!("{a} and {} more", rest.len()),
        };
        let verb = if parts.is_empty() { verb.to_string() } else { verb.to_lowercase() };
        parts.push(format!("{verb} {listed}"));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(path: &str, change: Change, title: Option<&str>) -> Changed {
        Changed { path: path.into(), change, title: title.map(str::to_string) }
    }

    #[test]
    fn the_message_names_the_posts() {
        let message = commit_message(&[
            changed("posts/a.md", Change::Added, Some("분산 학습")),
            changed("posts/b.md", Change::Modified, Some("B")),
            changed("posts/c.md", Change::Modified, Some("C")),
            changed("static/x.png", Change::Added, None),
        ]);
        assert_eq!(message, "Add \u{201c}분산 학습\u{201d}; update \u{201c}B\u{201d} and \u{201c}C\u{201d}");
        assert_eq!(commit_message(&[changed("hanji.toml", Change::Modified, None)]), "Update hanji.toml");
    }
}

//! A git branch target (GitHub Pages' `gh-pages`, a `<user>.github.io`
//! repository, GitLab or Codeberg Pages, a self-hosted remote): the branch
//! is fetched into a bare repository in Hanji's cache, the new site is
//! written as one commit on top of it (files Hanji did not publish stay in
//! its tree), and that commit is pushed. Never forced: if the branch moved
//! meanwhile the push is refused, and the next publish builds on what is
//! there. The switch is atomic: the branch holds the old site or the new.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git2::build::TreeUpdateBuilder;
use git2::{
    CertificateCheckStatus, Cred, CredentialType, ErrorClass, ErrorCode, FetchOptions, FileMode, ObjectType,
    PushOptions, RemoteCallbacks, Repository, Signature, TreeWalkMode, TreeWalkResult,
};

use super::error::{Fault, PublishError};
use super::plan::Listing;
use super::progress::Progress;
use super::record::{RECORD, Sent};
use super::remote::{Confirm, Remote, Removed, Upload};
use super::{expand_home, ssh};
use crate::config::{PublishTarget, TargetKind};
use crate::fs;

/// Where the fetched branch is kept in the cache's repository.
const FETCHED: &str = "refs/hanji/fetched";
/// The commit to push.
const PUBLISHED: &str = "refs/heads/hanji-publish";

/// Whether a remote is reached over SSH.
pub fn is_ssh(remote: &str) -> bool {
    remote.starts_with("ssh://")
        || remote.starts_with("git+ssh://")
        || (!remote.contains("://") && remote.contains('@') && remote.contains(':'))
}

/// Whether a remote is a repository on this machine (a path or `file://`).
pub fn is_local(remote: &str) -> bool {
    remote.starts_with("file://") || remote.starts_with('/') || remote.starts_with('~') || remote.starts_with('.')
}

/// How to reach a remote and sign in to it: what publishing to a branch
/// and the blog's own sources (`sources`) share.
pub struct Access {
    pub remote: String,
    /// The user name sent with a token.
    pub user: Option<String>,
    /// The SSH key; else the SSH agent's.
    pub key: Option<PathBuf>,
    pub known_hosts: super::known_hosts::KnownHosts,
    /// The token, or the key's passphrase.
    pub secret: Option<String>,
}

pub struct Branch {
    repo: Repository,
    access: Access,
    remote: String,
    branch: String,
    /// The branch's commit as fetched; None for a branch not made yet.
    parent: Option<git2::Oid>,
    updates: TreeUpdateBuilder,
    /// Site path → blob, as the fetched tree has them.
    tree: BTreeMap<String, git2::Oid>,
    changes: usize,
}

impl Branch {
    pub fn open(target: &PublishTarget, secret: Option<&str>, cache: &Path) -> Result<Self, PublishError> {
        let TargetKind::Git { remote, branch, user, key, known_hosts } = &target.kind else {
            unreachable!("a git target")
        };
        let remote =
            if remote.starts_with('~') { expand_home(Path::new(remote)).display().to_string() } else { remote.clone() };
        let id = git2::Oid::hash_object(ObjectType::Blob, format!("{remote}\n{branch}").as_bytes())
            .map(|oid| oid.to_string()[..16].to_string())
            .unwrap_or_default();
        let folder = cache.join(id);
        let failed = |e: git2::Error| {
            PublishError::new(
                Fault::Failed,
                format!("cannot keep the branch in Hanji's cache (`{}`): {}", folder.display(), e.message()),
                "check the cache folder (free space, permissions), or delete that folder and publish again",
            )
        };
        // A publish killed halfway leaves its locks; this folder is Hanji's alone.
        for lock in ["refs/hanji/fetched.lock", "refs/heads/hanji-publish.lock", "packed-refs.lock", "config.lock"] {
            let _ = fs::remove_file(&folder.join(lock));
        }
        let repo = match Repository::open_bare(&folder) {
            Ok(repo) => repo,
            Err(_) => Repository::init_bare(&folder).map_err(failed)?,
        };
        Ok(Branch {
            repo,
            access: Access {
                remote: remote.clone(),
                user: user.clone(),
                key: key.as_deref().map(expand_home),
                known_hosts: ssh::known_hosts(known_hosts.as_deref()),
                secret: secret.map(str::to_string),
            },
            remote,
            branch: branch.clone(),
            parent: None,
            updates: TreeUpdateBuilder::new(),
            tree: BTreeMap::new(),
            changes: 0,
        })
    }

    fn callbacks<'a>(&'a self, refused: &'a RefCell<Option<PublishError>>) -> RemoteCallbacks<'a> {
        self.access.callbacks(refused)
    }

    /// A git error in the author's words, or the one a callback kept.
    fn error(&self, error: git2::Error, refused: &RefCell<Option<PublishError>>, doing: &str) -> PublishError {
        if let Some(kept) = refused.borrow_mut().take() {
            return kept;
        }
        git_error(&self.remote, &self.branch, error, doing)
    }
}

impl Access {
    /// The callbacks every network step needs: credentials (tried once
    /// each: a refused one is an error, not a loop), the host key.
    pub fn callbacks<'a>(&'a self, refused: &'a RefCell<Option<PublishError>>) -> RemoteCallbacks<'a> {
        let mut callbacks = RemoteCallbacks::new();
        let mut tried = CredentialType::empty();
        callbacks.credentials(move |_url, user_from_url, allowed| {
            let fresh = allowed - tried;
            if fresh.contains(CredentialType::SSH_KEY) {
                tried |= CredentialType::SSH_KEY;
                let user = user_from_url.or(self.user.as_deref()).unwrap_or("git");
                return match &self.key {
                    Some(key) => Cred::ssh_key(user, ssh::public_key_of(key).as_deref(), key, self.secret.as_deref()),
                    None => Cred::ssh_key_from_agent(user),
                };
            }
            if fresh.contains(CredentialType::USER_PASS_PLAINTEXT) {
                tried |= CredentialType::USER_PASS_PLAINTEXT;
                let user = self.user.as_deref().or(user_from_url).unwrap_or("x-access-token");
                return match &self.secret {
                    Some(token) => Cred::userpass_plaintext(user, token),
                    None => {
                        *refused.borrow_mut() = Some(secret_error(&self.remote, "no access token is known for it"));
                        Err(git2::Error::from_str("no token"))
                    }
                };
            }
            if fresh.contains(CredentialType::USERNAME) {
                tried |= CredentialType::USERNAME;
                return Cred::username(user_from_url.or(self.user.as_deref()).unwrap_or("git"));
            }
            *refused.borrow_mut() = Some(secret_error(&self.remote, "it refused the credentials"));
            Err(git2::Error::from_str("authentication failed"))
        });
        callbacks.certificate_check(move |cert, host| {
            let Some(hostkey) = cert.as_hostkey() else {
                // HTTPS: the system's certificates, checked by libgit2.
                return Ok(CertificateCheckStatus::CertificatePassthrough);
            };
            let port = ssh::host_of_git_remote(&self.remote).map_or(22, |(_, port)| port);
            let (Some(key), Some(sha256)) = (hostkey.hostkey(), hostkey.hash_sha256()) else {
                return Ok(CertificateCheckStatus::CertificatePassthrough);
            };
            match ssh::check_host(&self.known_hosts, host, port, key, sha256) {
                Ok(()) => Ok(CertificateCheckStatus::CertificateOk),
                Err(error) => {
                    *refused.borrow_mut() = Some(error);
                    Err(git2::Error::from_str("host key"))
                }
            }
        });
        callbacks
    }
}

fn secret_error(remote: &str, why: &str) -> PublishError {
    PublishError::new(
        Fault::Secret,
        format!("cannot sign in to `{remote}`: {why}"),
        "enter the token (or the key's passphrase) again; a token needs permission to push to the repository",
    )
}

/// A git error in the author's words: what happened and what to do.
pub fn git_error(remote: &str, branch: &str, error: git2::Error, doing: &str) -> PublishError {
    let text = error.message().to_string();
    let lower = text.to_ascii_lowercase();
    let (fault, hint): (Fault, String) = if error.code() == ErrorCode::NotFastForward
        || lower.contains("non-fast-forward")
        || lower.contains("fetch first")
        || lower.contains("rejected")
    {
        (
            Fault::Rejected,
            format!(
                "the branch `{branch}` moved on the remote while publishing (someone or something else pushed to it): \
                 publish again, and the new site is made on top of what is there now; their commits are kept"
            ),
        )
    } else if error.code() == ErrorCode::Auth || lower.contains("authentication") || lower.contains("401") {
        (Fault::Secret, "enter the token (or the key's passphrase) again".into())
    } else if lower.contains("403") || lower.contains("permission") || lower.contains("denied") {
        (Fault::Denied, "use a token or key that may push to this repository".into())
    } else if error.code() == ErrorCode::Certificate {
        (Fault::HostKey, "check that the address is your server's".into())
    } else if lower.contains("not found") || lower.contains("does not appear to be a git repository") {
        (Fault::Settings, "check the `remote` address of the target; the repository must exist".into())
    } else if matches!(error.class(), ErrorClass::Net | ErrorClass::Os | ErrorClass::Http | ErrorClass::Ssh)
        && (lower.contains("connect") || lower.contains("resolve") || lower.contains("refused"))
    {
        (Fault::Unreachable, "check the address and your network connection, then publish again".into())
    } else if lower.contains("no space") {
        (Fault::Full, "free some space, then publish again".into())
    } else if matches!(error.class(), ErrorClass::Net | ErrorClass::Ssh | ErrorClass::Http) {
        (Fault::Dropped, "publish again: the branch holds the old site or the new one, never half".into())
    } else {
        (Fault::Failed, "publish again; if it happens again, check the target's settings".into())
    };
    PublishError::new(fault, format!("cannot {doing} `{remote}`: {text}"), hint)
}

impl Remote for Branch {
    fn record(&mut self) -> Result<Option<Vec<u8>>, PublishError> {
        let refused = RefCell::new(None);
        let fetched = {
            if let Ok(mut old) = self.repo.find_reference(FETCHED) {
                let _ = old.delete();
            }
            let mut remote = self.repo.remote_anonymous(&self.remote).map_err(|e| self.error(e, &refused, "reach"))?;
            let mut options = FetchOptions::new();
            options.remote_callbacks(self.callbacks(&refused));
            options.download_tags(git2::AutotagOption::None);
            let refspec = format!("+refs/heads/{}:{FETCHED}", self.branch);
            remote
                .fetch(&[refspec.as_str()], Some(&mut options), None)
                .map_err(|e| self.error(e, &refused, "fetch"))?;
            self.repo.find_reference(FETCHED).ok().and_then(|r| r.target())
        };
        self.parent = fetched;
        let mut tree = BTreeMap::new();
        let mut record = None;
        if let Some(commit) = fetched {
            let commit_tree =
                self.repo.find_commit(commit).and_then(|c| c.tree()).map_err(|e| self.error(e, &refused, "read"))?;
            commit_tree
                .walk(TreeWalkMode::PreOrder, |folder, entry| {
                    if entry.kind() == Some(ObjectType::Blob) {
                        tree.insert(format!("{folder}{}", entry.name().unwrap_or_default()), entry.id());
                    }
                    TreeWalkResult::Ok
                })
                .map_err(|e| self.error(e, &refused, "read"))?;
            if let Some(id) = tree.remove(RECORD) {
                record = self.repo.find_blob(id).ok().map(|blob| blob.content().to_vec());
            }
        }
        self.tree = tree;
        Ok(record)
    }

    fn listing(&mut self, _known: &BTreeMap<String, Sent>) -> Result<Listing, PublishError> {
        let files = self.tree.iter().map(|(path, id)| (path.clone(), id.to_string())).collect();
        Ok(Listing { files: Some(files), stamps_are_hashes: true })
    }

    fn confirms_each_file(&self) -> bool {
        false
    }

    fn send(&mut self, files: &[Upload], confirm: Confirm) -> Result<(), PublishError> {
        for upload in files {
            let bytes = upload.bytes()?;
            let refused = RefCell::new(None);
            let id = self.repo.blob(&bytes).map_err(|e| self.error(e, &refused, "write into the cache of"))?;
            self.updates.upsert(upload.path.as_str(), id, FileMode::Blob);
            self.changes += 1;
            if !confirm(upload, id.to_string()) {
                break;
            }
        }
        Ok(())
    }

    fn remove(&mut self, paths: &[String], removed: Removed) -> Result<(), PublishError> {
        for path in paths {
            if self.tree.contains_key(path) {
                self.updates.remove(path.as_str());
                self.changes += 1;
            }
            if !removed(path) {
                break;
            }
        }
        Ok(())
    }

    fn finish(&mut self, record: &[u8], message: &str, progress: &dyn Fn(Progress)) -> Result<(), PublishError> {
        let refused = RefCell::new(None);
        let parent =
            self.parent.map(|id| self.repo.find_commit(id)).transpose().map_err(|e| self.error(e, &refused, "read"))?;
        if self.changes == 0 && parent.is_some() {
            return Ok(()); // the branch holds this site already: no empty commit
        }
        let record_id = self.repo.blob(record).map_err(|e| self.error(e, &refused, "write into the cache of"))?;
        self.updates.upsert(RECORD, record_id, FileMode::Blob);
        let baseline = match &parent {
            Some(commit) => commit.tree(),
            None => self.repo.treebuilder(None).and_then(|b| b.write()).and_then(|id| self.repo.find_tree(id)),
        }
        .map_err(|e| self.error(e, &refused, "read"))?;
        let tree_id =
            self.updates.create_updated(&self.repo, &baseline).map_err(|e| self.error(e, &refused, "build"))?;
        let tree = self.repo.find_tree(tree_id).map_err(|e| self.error(e, &refused, "build"))?;
        let signature = self
            .repo
            .signature()
            .or_else(|_| Signature::now("Hanji", "hanji@localhost"))
            .map_err(|e| self.error(e, &refused, "sign"))?;
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        let commit = self
            .repo
            .commit(None, &signature, &signature, message, &tree, &parents)
            .map_err(|e| self.error(e, &refused, "commit for"))?;
        self.repo
            .reference(PUBLISHED, commit, true, "hanji publish")
            .map_err(|e| self.error(e, &refused, "commit for"))?;

        let rejected: RefCell<Option<String>> = RefCell::new(None);
        {
            let mut callbacks = self.callbacks(&refused);
            callbacks.push_transfer_progress(|_, _, bytes| progress(Progress::Finishing { bytes: bytes as u64 }));
            callbacks.push_update_reference(|_, status| {
                if let Some(status) = status {
                    *rejected.borrow_mut() = Some(status.to_string());
                }
                Ok(())
            });
            let mut options = PushOptions::new();
            options.remote_callbacks(callbacks);
            let mut remote = self.repo.remote_anonymous(&self.remote).map_err(|e| self.error(e, &refused, "reach"))?;
            // No `+`: never forced.
            let refspec = format!("{PUBLISHED}:refs/heads/{}", self.branch);
            remote.push(&[refspec.as_str()], Some(&mut options)).map_err(|e| self.error(e, &refused, "push to"))?;
        }
        if let Some(status) = rejected.into_inner() {
            return Err(git_error(
                &self.remote,
                &self.branch,
                git2::Error::new(ErrorCode::NotFastForward, ErrorClass::Reference, format!("rejected: {status}")),
                "push to",
            ));
        }
        Ok(())
    }
}

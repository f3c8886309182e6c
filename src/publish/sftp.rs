//! An SFTP target (a plain web host): the site's folder on a server, over
//! SSH with a key or a password (libssh2, through the `ssh2` crate: the same
//! library git's SSH transport uses). Each file is written beside its place
//! under a temp name and renamed over it, so a reader gets the old file or
//! the new one.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use ssh2::{ErrorCode, FileStat, Session, Sftp};

use super::error::{Fault, PublishError};
use super::plan::Listing;
use super::progress::Progress;
use super::record::{RECORD, Sent};
use super::remote::{Confirm, Remote, Removed, Upload};
use super::{expand_home, ssh};
use crate::config::{PublishTarget, TargetKind};

// The SFTP status codes (draft-ietf-secsh-filexfer-02) this module tells apart.
const NO_SUCH_FILE: i32 = 2;
const PERMISSION_DENIED: i32 = 3;
const FAILURE: i32 = 4;
const NO_CONNECTION: i32 = 6;
const CONNECTION_LOST: i32 = 7;
const NO_SPACE: i32 = 14;
const QUOTA_EXCEEDED: i32 = 15;

pub struct Server {
    host: String,
    root: PathBuf,
    // Dropped before the session it runs in.
    sftp: Sftp,
    _session: Session,
    /// Folders known to be there, so each is made once.
    folders: BTreeSet<PathBuf>,
}

impl Server {
    pub fn open(target: &PublishTarget, secret: Option<&str>) -> Result<Self, PublishError> {
        let TargetKind::Sftp { host, port, user, path, key, known_hosts } = &target.kind else {
            unreachable!("an sftp target")
        };
        let session = ssh::handshake(host, *port)?;
        let (key_bytes, _) = session.host_key().ok_or_else(|| {
            PublishError::new(Fault::Failed, format!("the server {host} showed no host key"), "check the address")
        })?;
        let sha256 = session.host_key_hash(ssh2::HashType::Sha256).unwrap_or_default().to_vec();
        ssh::check_host(&ssh::known_hosts(known_hosts.as_deref()), host, *port, key_bytes, &sha256)?;
        let signed_in = match (key, secret) {
            (Some(key), passphrase) => {
                let key = expand_home(key);
                session.userauth_pubkey_file(user, ssh::public_key_of(&key).as_deref(), &key, passphrase)
            }
            (None, Some(password)) => session.userauth_password(user, password),
            (None, None) => session.userauth_agent(user),
        };
        if let Err(error) = signed_in {
            let what = match key {
                Some(_) => "the key (or its passphrase)",
                None if secret.is_some() => "the password",
                None => "the SSH agent's keys (no password is known)",
            };
            return Err(PublishError::new(
                Fault::Secret,
                format!("{host} did not let `{user}` in with {what}: {}", error.message()),
                "check the user name and enter the password (or the key's passphrase) again",
            ));
        }
        let sftp = session.sftp().map_err(|e| ssh::ssh_error(&e, host))?;
        let root = PathBuf::from(path);
        match sftp.stat(&root) {
            Ok(stat) if stat.is_dir() => {}
            Ok(_) => {
                return Err(PublishError::new(
                    Fault::Settings,
                    format!("`{path}` on {host} is a file, not a folder"),
                    "set `path` to the folder the web server serves",
                ));
            }
            Err(_) => {
                return Err(PublishError::new(
                    Fault::Settings,
                    format!("the folder `{path}` is not on {host}"),
                    "make the folder on the server (or correct `path`), then publish again",
                ));
            }
        }
        Ok(Server { host: host.clone(), root, sftp, _session: session, folders: BTreeSet::new() })
    }

    fn fault(&self, doing: &str, path: &Path, error: &ssh2::Error) -> PublishError {
        let code = match error.code() {
            ErrorCode::SFTP(code) => code,
            ErrorCode::Session(_) => return ssh::ssh_error(error, &self.host),
        };
        let (fault, hint) = match code {
            NO_SPACE | QUOTA_EXCEEDED => (
                Fault::Full,
                "the server's disk is full: free some space there, then publish again; what was sent is kept",
            ),
            PERMISSION_DENIED => {
                (Fault::Denied, "let this user write to the site's folder on the server, then publish again")
            }
            NO_CONNECTION | CONNECTION_LOST => {
                (Fault::Dropped, "the connection dropped: publish again; what was sent is kept, and the rest is sent")
            }
            // OpenSSH's server says only "failure" when its disk is full.
            FAILURE => (
                Fault::Failed,
                "the server refused to write: its disk may be full or the folder not writable; check, then publish again",
            ),
            _ => (Fault::Failed, "publish again; if it happens again, check the server"),
        };
        PublishError::new(
            fault,
            format!("cannot {doing} `{}` on {}: {}", path.display(), self.host, error.message()),
            hint,
        )
    }

    fn stamp(stat: &FileStat) -> String {
        format!("{}:{}", stat.size.unwrap_or(0), stat.mtime.unwrap_or(0))
    }

    /// Makes `folder` and those above it under the root, as needed.
    fn make_folders(&mut self, folder: &Path) -> Result<(), PublishError> {
        let mut missing = Vec::new();
        for above in folder.ancestors().take_while(|f| f.starts_with(&self.root) && *f != self.root) {
            if self.folders.contains(above) {
                break;
            }
            missing.push(above.to_path_buf());
        }
        for folder in missing.into_iter().rev() {
            if let Err(error) = self.sftp.mkdir(&folder, 0o755)
                && !self.sftp.stat(&folder).is_ok_and(|s| s.is_dir())
            {
                return Err(self.fault("make the folder", &folder, &error));
            }
            self.folders.insert(folder);
        }
        Ok(())
    }

    /// Writes `bytes` at `path`: a temp file beside it, renamed over it.
    fn put(&mut self, path: &Path, bytes: &[u8]) -> Result<FileStat, PublishError> {
        let folder = path.parent().unwrap_or(&self.root).to_path_buf();
        self.make_folders(&folder)?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temp = folder.join(format!(".{name}.hanji-tmp"));
        let mut file = self.sftp.create(&temp).map_err(|e| self.fault("write", &temp, &e))?;
        if let Err(error) = file.write_all(bytes).and_then(|()| file.flush()) {
            drop(file);
            let _ = self.sftp.unlink(&temp);
            let error = ssh2::Error::from_errno(ErrorCode::SFTP(match error.raw_os_error() {
                Some(28) => NO_SPACE,
                _ => FAILURE,
            }));
            return Err(self.fault("write", path, &error));
        }
        drop(file);
        if self.sftp.rename(&temp, path, None).is_err() {
            // SFTP renames only onto a free name (OpenSSH's server links, then
            // unlinks): the old file steps aside first, for one round trip.
            let aside = folder.join(format!(".{name}.hanji-old"));
            let _ = self.sftp.unlink(&aside);
            let replaced = self.sftp.rename(path, &aside, None).and_then(|()| self.sftp.rename(&temp, path, None));
            if let Err(error) = replaced {
                let _ = self.sftp.rename(&aside, path, None);
                let _ = self.sftp.unlink(&temp);
                return Err(self.fault("replace", path, &error));
            }
            let _ = self.sftp.unlink(&aside);
        }
        self.sftp.stat(path).map_err(|e| self.fault("check", path, &e))
    }
}

impl Remote for Server {
    fn record(&mut self) -> Result<Option<Vec<u8>>, PublishError> {
        let record_path = self.root.join(RECORD);
        match self.sftp.open(&record_path) {
            Ok(mut file) => {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| {
                    let error = ssh2::Error::from_errno(ErrorCode::SFTP(if e.kind() == std::io::ErrorKind::NotFound {
                        NO_SUCH_FILE
                    } else {
                        FAILURE
                    }));
                    self.fault("read", &record_path, &error)
                })?;
                Ok(Some(bytes))
            }
            Err(error) if error.code() == ErrorCode::SFTP(NO_SUCH_FILE) => Ok(None),
            Err(error) => Err(self.fault("read", &record_path, &error)),
        }
    }

    fn listing(&mut self, known: &BTreeMap<String, Sent>) -> Result<Listing, PublishError> {
        // What the record's files look like now: one listing per folder.
        let folders: BTreeSet<&str> = known.keys().map(|p| p.rsplit_once('/').map_or("", |(f, _)| f)).collect();
        let mut files = BTreeMap::new();
        for folder in folders {
            let path = if folder.is_empty() { self.root.clone() } else { self.root.join(folder) };
            let Ok(entries) = self.sftp.readdir(&path) else { continue };
            self.folders.insert(path.clone());
            for (entry, stat) in entries.into_iter().filter(|(_, stat)| stat.is_file()) {
                if let Ok(relative) = entry.strip_prefix(&self.root) {
                    files.insert(relative.to_string_lossy().into_owned(), Self::stamp(&stat));
                }
            }
        }
        Ok(Listing { files: Some(files), stamps_are_hashes: false })
    }

    fn confirms_each_file(&self) -> bool {
        true
    }

    fn send(&mut self, files: &[Upload], confirm: Confirm) -> Result<(), PublishError> {
        for upload in files {
            let bytes = upload.bytes()?;
            let stat = self.put(&self.root.join(&upload.path), &bytes)?;
            if !confirm(upload, Self::stamp(&stat)) {
                break;
            }
        }
        Ok(())
    }

    fn remove(&mut self, paths: &[String], removed: Removed) -> Result<(), PublishError> {
        for path in paths {
            let full = self.root.join(path);
            match self.sftp.unlink(&full) {
                Ok(()) => {}
                Err(error) if error.code() == ErrorCode::SFTP(NO_SUCH_FILE) => {}
                Err(error) => return Err(self.fault("remove", &full, &error)),
            }
            // The folders it leaves empty; a folder with anything in it stays.
            for folder in full.ancestors().skip(1).take_while(|f| f.starts_with(&self.root) && *f != self.root) {
                if self.sftp.rmdir(folder).is_err() {
                    break;
                }
                self.folders.remove(folder);
            }
            if !removed(path) {
                break;
            }
        }
        Ok(())
    }

    fn finish(&mut self, record: &[u8], _message: &str, _progress: &dyn Fn(Progress)) -> Result<(), PublishError> {
        self.put(&self.root.join(RECORD), record).map(|_| ())
    }
}

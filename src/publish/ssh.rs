//! What git over SSH and SFTP share: the server's host key checked against
//! the hosts the author trusts (`known_hosts`), and trusting a new one when
//! the author says so.

use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine;
use ssh2::{HashType, Session};

use super::error::{Fault, PublishError};
use super::expand_home;
use super::known_hosts::{self, Known, KnownHosts};

/// The public half of a private key file, if it is beside it (`key.pub`):
/// given with the key, so it need not be worked out from an encrypted one.
pub fn public_key_of(key: &Path) -> Option<PathBuf> {
    let public = PathBuf::from(format!("{}.pub", key.display()));
    crate::fs::exists(&public).then_some(public)
}

/// How long connecting may take before the host counts as unreachable.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// The known hosts of a target: Hanji's own (which trusting a host adds
/// to), OpenSSH's `~/.ssh/known_hosts` and the file the target's
/// `known_hosts` names, those two read only.
pub fn known_hosts(setting: Option<&Path>) -> KnownHosts {
    let own = crate::fs::config_dir().unwrap_or_else(|| PathBuf::from(".hanji")).join("known_hosts");
    let mut others = vec![expand_home(Path::new("~/.ssh/known_hosts"))];
    others.extend(setting.map(expand_home));
    KnownHosts { own, others }
}

/// `SHA256:…`, as `ssh` shows a host key's fingerprint.
pub fn fingerprint(sha256: &[u8]) -> String {
    format!("SHA256:{}", base64::engine::general_purpose::STANDARD_NO_PAD.encode(sha256))
}

/// Whether `key` is the known key of `host:port`; an error saying what to
/// do if it is not known, or if another key is known (the server changed,
/// or someone is in between).
pub fn check_host(known: &KnownHosts, host: &str, port: u16, key: &[u8], sha256: &[u8]) -> Result<(), PublishError> {
    let shown = known_hosts::host_name(host, port);
    let new = fingerprint(sha256);
    match known.check(host, port, key) {
        Known::Match => Ok(()),
        Known::Changed { known: old } => Err(changed(&shown, &old, &new)),
        Known::Revoked => Err(PublishError::new(
            Fault::HostKey,
            format!("the key the server {shown} showed ({new}) is revoked in your known hosts"),
            "do not publish there: ask the server's owner for its new key",
        )),
        Known::NotFound => Err(PublishError::new(
            Fault::HostKey,
            format!("the server {shown} is not known yet; its key's fingerprint is {new}"),
            format!(
                "if that is your server's fingerprint, trust it (the app's Trust button, or `hanji publish --trust-host`), \
                 which adds it to `{}`",
                known.own.display()
            ),
        )),
    }
}

/// The error of a key that changed: both fingerprints, and the separate
/// step that trusts the new one.
fn changed(shown: &str, old: &str, new: &str) -> PublishError {
    PublishError::new(
        Fault::HostKey,
        format!(
            "the server {shown} shows another key ({new}) than the one known for it ({old}): the server was set up \
             again, or someone is in between"
        ),
        format!(
            "ask the server's owner whether its key changed to {new}; only if it did, trust the new key with \
             `hanji publish --trust-changed-host {new}`"
        ),
    )
}

/// Connects to `host:port` and adds the key it shows to Hanji's own known
/// hosts, if no other key is known for it; a key that changed is put in
/// place of the old only when `changed_to` is its fingerprint, as the
/// author read it. The key's fingerprint.
pub fn trust_host(known: &KnownHosts, host: &str, port: u16, changed_to: Option<&str>) -> Result<String, PublishError> {
    let session = handshake(host, port)?;
    let (key, _) = session.host_key().ok_or_else(|| no_key(host))?;
    let new = fingerprint(session.host_key_hash(HashType::Sha256).ok_or_else(|| no_key(host))?);
    let written = match known.check(host, port, key) {
        Known::Match => return Ok(new),
        Known::NotFound => known.trust(host, port, key),
        Known::Changed { known: old } if changed_to == Some(new.as_str()) => {
            let _ = old;
            known.replace(host, port, key)
        }
        Known::Changed { known: old } => {
            let shown = known_hosts::host_name(host, port);
            return Err(match changed_to {
                Some(given) => PublishError::new(
                    Fault::HostKey,
                    format!("the server {shown} shows the key {new}, not {given}; nothing was trusted"),
                    "check the fingerprint with the server's owner",
                ),
                None => changed(&shown, &old, &new),
            });
        }
        Known::Revoked => {
            return Err(PublishError::new(
                Fault::HostKey,
                format!("the key the server {host} showed ({new}) is revoked in your known hosts"),
                "do not publish there: ask the server's owner for its new key",
            ));
        }
    };
    written.map_err(|e| {
        PublishError::new(
            Fault::Failed,
            format!("cannot write `{}`: {e}", known.own.display()),
            "check the permissions of Hanji's settings folder",
        )
    })?;
    Ok(new)
}

fn no_key(host: &str) -> PublishError {
    PublishError::new(Fault::Failed, format!("the server {host} showed no host key"), "check the address and port")
}

/// A TCP connection to `host:port` and the SSH handshake over it.
pub fn handshake(host: &str, port: u16) -> Result<Session, PublishError> {
    let unreachable = |why: String| {
        PublishError::new(
            Fault::Unreachable,
            format!("cannot reach {host} on port {port}: {why}"),
            "check the host name and port, and your network connection, then try again",
        )
    };
    let address = (host, port)
        .to_socket_addrs()
        .map_err(|e| unreachable(e.to_string()))?
        .next()
        .ok_or_else(|| unreachable("the name has no address".to_string()))?;
    let tcp = TcpStream::connect_timeout(&address, CONNECT_TIMEOUT).map_err(|e| unreachable(e.to_string()))?;
    let mut session = Session::new().map_err(|e| ssh_error(&e, host))?;
    session.set_tcp_stream(tcp);
    session.set_timeout(60_000);
    session.handshake().map_err(|e| unreachable(format!("no SSH server answered ({e})")))?;
    Ok(session)
}

/// An SSH error in the author's words.
pub fn ssh_error(error: &ssh2::Error, host: &str) -> PublishError {
    let text = error.to_string();
    let lower = text.to_ascii_lowercase();
    let (fault, hint) = if lower.contains("timed out") || lower.contains("socket") || lower.contains("disconnect") {
        (Fault::Dropped, "the connection dropped: publish again; what was sent is kept, and the rest is sent")
    } else if lower.contains("auth") || lower.contains("passphrase") || lower.contains("password") {
        (Fault::Secret, "check the user name, key or password, and enter the password or passphrase again")
    } else {
        (Fault::Failed, "try again; if it happens again, check the server's settings")
    };
    PublishError::new(fault, format!("{host}: {text}"), hint)
}

/// Host and port of an SSH git remote: `ssh://user@host:port/path` or
/// `user@host:path`.
pub fn host_of_git_remote(remote: &str) -> Option<(String, u16)> {
    if let Some(rest) = remote.strip_prefix("ssh://").or_else(|| remote.strip_prefix("git+ssh://")) {
        let authority = rest.split('/').next()?;
        let host_port = authority.rsplit('@').next()?;
        return Some(match host_port.rsplit_once(':') {
            Some((host, port)) => (host.trim_matches(['[', ']']).to_string(), port.parse().ok()?),
            None => (host_port.to_string(), 22),
        });
    }
    let (before, _) = remote.split_once(':')?;
    Some((before.rsplit('@').next()?.to_string(), 22))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_remotes() {
        assert_eq!(host_of_git_remote("git@github.com:me/blog.git"), Some(("github.com".into(), 22)));
        assert_eq!(host_of_git_remote("ssh://git@127.0.0.1:2222/srv/site.git"), Some(("127.0.0.1".into(), 2222)));
        assert_eq!(host_of_git_remote("ssh://host/x.git"), Some(("host".into(), 22)));
        assert_eq!(fingerprint(&[0; 32]), "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    }
}

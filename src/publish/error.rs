//! Why a publish stopped, in words for the author: what happened and what
//! to do. `Fault` lets the app react (ask for a secret again, offer to
//! trust a host).

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Fault {
    /// `[publish.NAME]` is wrong or missing.
    Settings,
    /// The export could not be written.
    Export,
    /// No secret is known, or the target refused it: ask for it again.
    Secret,
    /// The server's host key is not known (or changed).
    HostKey,
    /// The host could not be reached.
    Unreachable,
    /// The target refused the change (a push rejected: the branch moved).
    Rejected,
    /// The target does not let this user do it (a bucket's permissions).
    Denied,
    /// The target's disk is full.
    Full,
    /// The connection dropped halfway.
    Dropped,
    /// The author cancelled.
    Cancelled,
    /// Anything else the target said.
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishError {
    pub fault: Fault,
    /// What happened.
    pub message: String,
    /// What to do.
    pub hint: String,
}

impl PublishError {
    /// Any secret in an address written in the message or hint (a token in
    /// a remote's URL: `https://user:TOKEN@host/…`) is left out, so that it
    /// is never shown, logged or sent to the app.
    pub fn new(fault: Fault, message: impl Into<String>, hint: impl Into<String>) -> Self {
        PublishError { fault, message: without_secrets(&message.into()), hint: without_secrets(&hint.into()) }
    }
}

/// `text` with the credentials of every URL in it hidden: the password of
/// `scheme://user:password@host`, or the whole of `https://token@host` (a
/// token given as the user name, as GitHub's are), become `***`; the user
/// of `ssh://git@host` is a name, and stays.
pub fn without_secrets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (before, after) = rest.split_at(at + 3);
        let web = before[..at].rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '+').next().unwrap_or("");
        let web = web.eq_ignore_ascii_case("http") || web.eq_ignore_ascii_case("https");
        out.push_str(before);
        // The authority ends at the first `/`, space, quote or backtick.
        let end = after.find(|c: char| c == '/' || c.is_whitespace() || "`'\"<>".contains(c)).unwrap_or(after.len());
        let authority = &after[..end];
        match authority.rfind('@') {
            Some(sign) => {
                let userinfo = &authority[..sign];
                match userinfo.split_once(':') {
                    Some((user, _)) => out.push_str(&format!("{user}:***")),
                    None if web => out.push_str("***"),
                    None => out.push_str(userinfo),
                }
                out.push_str(&authority[sign..]);
            }
            None => out.push_str(authority),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for PublishError {}

/// The usual words for the ways a connection fails, from an I/O error.
pub fn io_fault(error: &std::io::Error) -> Fault {
    use std::io::ErrorKind::*;
    match error.kind() {
        StorageFull | QuotaExceeded => Fault::Full,
        PermissionDenied | ReadOnlyFilesystem => Fault::Denied,
        ConnectionRefused | HostUnreachable | NetworkUnreachable | TimedOut | AddrNotAvailable => Fault::Unreachable,
        ConnectionReset | ConnectionAborted | BrokenPipe | UnexpectedEof | NotConnected => Fault::Dropped,
        _ => Fault::Failed,
    }
}

/// The hint that goes with a fault when the kind says nothing better.
pub fn hint_of(fault: Fault) -> &'static str {
    match fault {
        Fault::Full => "free some space on the target, then publish again: what was sent is kept",
        Fault::Denied => "let this user write there, then publish again",
        Fault::Unreachable => "check the address and your network connection, then publish again",
        Fault::Dropped => "publish again: what was sent is kept, and the rest is sent",
        Fault::Secret => "enter the password or token again",
        _ => "publish again; if it happens again, check the target's settings",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_in_addresses_are_never_shown() {
        let error = PublishError::new(
            Fault::Rejected,
            "cannot push to `https://me:ghp_S3cr3t@github.com/me/blog.git`: unexpected http status code: 403",
            "check https://ghp_0nly@github.com/me/blog.git and git@github.com:me/blog.git",
        );
        assert_eq!(
            error.message,
            "cannot push to `https://me:***@github.com/me/blog.git`: unexpected http status code: 403"
        );
        assert_eq!(error.hint, "check https://***@github.com/me/blog.git and git@github.com:me/blog.git");
        assert_eq!(without_secrets("ssh://git@host:22/x and plain text"), "ssh://git@host:22/x and plain text");
        assert_eq!(without_secrets("ssh://git:pw@host/x"), "ssh://git:***@host/x");
        assert_eq!(without_secrets("https://example.com/a@b"), "https://example.com/a@b", "an @ after the host");
    }
}

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
    pub fn new(fault: Fault, message: impl Into<String>, hint: impl Into<String>) -> Self {
        PublishError { fault, message: message.into(), hint: hint.into() }
    }
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

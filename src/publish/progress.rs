//! What a publish tells while it runs, for a progress bar.

use crate::diagnostics::Diagnostic;

/// A step of a publish, with how far it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "step", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PublishProgress"))]
pub enum Progress {
    /// The site is exported (files rendered and written).
    Exporting { done: usize, total: usize },
    /// The site is exported: its problems, shown before anything is sent
    /// (posts with warnings are published; posts with errors, named in
    /// `left_out`, are not).
    Exported { problems: Vec<Diagnostic>, left_out: Vec<String> },
    /// Connecting to the target and reading what it holds.
    Connecting,
    /// Files sent so far, and their bytes; `path` is the one just sent
    /// ("" before the first).
    Sending {
        path: String,
        done: usize,
        total: usize,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        bytes: u64,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        total_bytes: u64,
    },
    /// Files the site no longer has, removed from the target.
    Removing { done: usize, total: usize },
    /// The last step: the record (for git, the commit and the push).
    Finishing {
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        bytes: u64,
    },
}

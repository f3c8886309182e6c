//! Hanji's core: a blog folder becomes posts, tags and rendered pages.
//!
//! Nothing here knows of Tauri or of the command line; `load` is the only module
//! that reads the disk.

pub mod author;
pub mod check;
pub mod config;
pub mod content;
pub mod diagnostics;
pub mod export;
pub mod layout;
pub mod links;
pub mod load;
pub mod markdown;
pub mod preview;
pub mod serve;
pub mod site;
pub mod slug;
pub mod watch;

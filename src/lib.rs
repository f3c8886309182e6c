//! Hanji's core: a blog folder becomes posts, tags and rendered pages.
//!
//! Nothing here knows of Tauri or of the command line. The modules are
//! layered; each uses only modules of the layers before it, and
//! `tests/blog/layers.rs` keeps it so:
//!
//! 1. leaves: `text`, `slug`, `diagnostics`, `digest`, `defaults`,
//!    `front_matter` (reading and editing it), `clock` (the time scheduled
//!    posts are judged by), `tool` (each tool's rules, and how a folder is laid out)
//! 2. disk: `fs`, the only module that reads or writes files
//! 3. settings: `config`
//! 4. rendering: `markdown`, `search` (the search tokens and index files),
//!    `images` (images sized for the screen: their copies and the cache)
//! 5. content: `content` (post files, front matter, posts, the library)
//! 6. site: `site` (pages and their addresses both ways, links, theme, stale pages)
//! 7. model: `blog`
//! 8. detection: `detect` (the blog's tool found, and its settings read)
//! 9. actions: `load`, `author`, `watch`, `preview`, `export`, `check`,
//!    `session`, `serve`, `publish` (the site sent to a target), `sources`
//!    (the blog's own git repository), `import` (a hosted blog's export made a
//!    Hanji blog)
//!
//! What the command line, the app, the tests and the benchmarks use is
//! re-exported below; the rest stays inside.

mod author;
mod blog;
mod check;
mod clock;
mod config;
mod content;
mod defaults;
mod detect;
mod diagnostics;
mod digest;
mod export;
pub mod front_matter;
mod fs;
mod images;
mod import;
mod load;
pub mod markdown;
mod preview;
mod publish;
mod search;
mod serve;
mod session;
mod site;
mod slug;
mod sources;
mod text;
mod tool;
mod watch;

// The blog and what it is made of.
pub use blog::{Blog, Schedule};
pub use clock::Clock;
pub use config::{Config, PublishTarget, TagTitle, TargetKind, from_fields as publish_target_from_fields};
pub use content::post::Parsed;
pub use content::{Held, Library, Post, PostDate, Rules, Tag, TagCount};
pub use diagnostics::{Diagnostic, Severity};
pub use slug::{slug, tag_slug};
pub use tool::{Kind, Layout};

// Reading, checking, exporting, serving.
pub use check::{Checker, HeldPost, NextExport, Touched, check, next_export};
pub use export::{ExportError, ExportOptions, Summary as ExportSummary, export, lock as lock_blog};
pub use load::{
    LoadError, LoadOptions, Progress as LoadProgress, Texts as LoadTexts, load, load_with, read_config as read_settings,
};
pub use serve::{ServeError, ServeOptions, Server};

// Publishing: the site sent to a target, and the keychain its secrets are in.
pub use publish::keychain;
pub use publish::{
    Fault, Progress as PublishProgress, PublishError, PublishOptions, Summary as PublishSummary, bytes_text,
    find_target, publish, secret_name, test_connection, trust_host, work_folder,
};

// The blog's sources through git.
pub use sources::{
    Change, Changed, Pulled, Sources, Status as SourcesStatus, commit_message as sources_commit_message,
};

// The site and its addresses.
pub use site::routes::{Addresses, Found, Page, Routes, Target};
pub use site::stale::StalePages;
pub use site::theme::Theme;
pub use site::url::{encode_path, percent_decode};
pub use site::{RenderedPage, Site, SiteOptions};

// Images sized for the screen: what a preview (or a test) sizes them with.
pub use images::Catalog as ImageCatalog;

// Search: the token rule the index and the browser share, and the index.
pub use search::index::{Index as SearchIndex, Served as ServedSearchIndex};
pub use search::kept::{KeptIndex, Update as SearchUpdate, Updated as SearchUpdated};
pub use search::tokens as search_tokens;

// Leaving a hosted blog: its export made a Hanji blog.
pub use import::{
    Converted as ImportedHtml, ImportError, ImportOptions, Note as ImportNote, Progress as ImportProgress,
    RECORD as IMPORT_RECORD, Report as ImportReport, VELOG_API, folder_for as import_folder, import,
    to_markdown as html_to_markdown, velog_user,
};

// The app's editing session and what it does to the blog's files.
pub use author::history::{Cause as VersionCause, History, Limits as HistoryLimits, Replaced, Version};
pub use author::journal::{Journal, Kept};
pub use author::new_blog::{NewBlog, copy_blog, fresh_folder, new_blog};
pub use author::new_post::NewPost;
pub use author::retag::RetagPlan;
pub use author::settings::save_publish_target;
pub use author::spelling::{Misspelled, Spelling};
pub use author::trash::TrashCan;
pub use author::{AuthorError, inside, save_post};
pub use fs::{
    OwnWrites, SitePath, cache_dir, clean_temp_files, config_dir, exists, read as read_bytes, version_of,
    write_atomically,
};
pub use preview::{Answer, Fields, PostPreview, content_type, links_out_in_new_windows, post_preview};
pub use session::{Opened, Session, SessionOptions};

// Following the folder.
pub use watch::{Batch, ChangeSet, FileChange, Rename, TagChange, Update, Watch, WatchError, WatchOptions, WatchState};
pub use watch::{apply, rescan};

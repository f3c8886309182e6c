//! What a blog is made of: its post files, their front matter, posts, and the
//! library that indexes them.

pub mod file;
pub mod front_matter;
pub mod library;
pub mod post;
mod text;

pub use front_matter::PostDate;
pub use library::{Library, Rules, Tag, TagCount};
pub use post::{Held, Post};

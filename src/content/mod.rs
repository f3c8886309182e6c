//! What a blog is made of: its post files, their front matter, posts, and the
//! library that indexes them.

pub mod file;
pub mod library;
pub mod post;
mod text;

pub use crate::front_matter::{self, PostDate};
pub use library::{Library, Rules, Tag, TagCount};
pub use post::{Held, Post};

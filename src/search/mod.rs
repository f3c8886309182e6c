//! Search of the published blog: the rule that makes words into tokens (the
//! index's and the reader's query alike, `tokens`), each post's part of the
//! index (`entry`), and the index of the site's posts written as scripts
//! under `search/`, which the browser's `search.js` loads and queries with
//! no server: its shards (`shards`), made from every post's entry
//! (`postings`) or updated for the posts that changed from the state kept
//! between exports (`kept`, `store`), or held in memory (`index`).

pub mod entry;
pub mod index;
pub mod kept;
mod lexicon;
mod postings;
pub mod shards;
mod store;
pub mod tokens;

pub use store::digest;

/// The browser's side: the same token rule, the query, the results page.
/// Every page of a site with search loads it.
pub const SCRIPT: &str = include_str!("search.js");

//! Search of the published blog: the rule that makes words into tokens (the
//! index's and the reader's query alike, `tokens`), and the index of the
//! site's posts written as scripts under `search/` (`index`), which the
//! browser's `search.js` loads and queries with no server.

pub mod index;
pub mod tokens;

/// The browser's side: the same token rule, the query, the results page.
/// Every page of a site with search loads it.
pub const SCRIPT: &str = include_str!("search.js");

//! Search of the published blog: the rule that makes words into tokens (the
//! index's and the reader's query alike, `tokens`), each post's part of the
//! index (`entry`), and the index of the site's posts, written as the
//! scripts the browser's `search.js` loads from `search/` (never fetched,
//! so it works from `file://`):
//!
//! - `index.js`: how many posts there are, and each shard's first token (a
//!   shard's file is named by its first token's hash, which the browser
//!   works out);
//! - `index/<name>.js`, the shards (`shards`): the tokens in order, cut
//!   into runs of about `shards::SHARD_BYTES`, each token with its posts, so
//!   a query loads only the shards of its tokens (for a prefix, the run of
//!   shards its tokens are in). A token's posts are `[post, code, post,
//!   code, …]`, each post number counted from the one before; the code is
//!   `weight × 8 + fields`, the fields 1 for the title, 2 for a tag and 4
//!   for the summary, the weight (0–15) how much the text counts, from how
//!   often the token is there and how long the post is;
//! - `posts/<n>.js`, one for every `kept::GROUP` posts: what a result shows
//!   of each (title, link, date, tags, summary) and passages of its text to
//!   show matches in.
//!
//! Posts are numbered oldest first, so a new post takes the next number and
//! the others keep theirs; everything a post's entry and codes hold comes
//! from that post alone, so an edited post changes its group's file and the
//! shards of the tokens it gained, lost or has more or less often. The
//! index is made from every post's entry as the entries come (`postings`),
//! or updated for the posts that changed from the state kept between
//! exports (`kept`, `store`); `index` holds it in memory for `hanji serve`.

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

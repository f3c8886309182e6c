//! Related posts: the published posts that share a post's tags, each shared
//! tag counting more the rarer it is, so two posts on `rdma` are closer than
//! two on `gpu`. Never a draft, a held back post, a page, the post itself or
//! another part of its series (its page lists those already).

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::ffi::OsStr;

use crate::content::library::newest_first;
use crate::content::{Library, Post};

/// What a shared tag counts: less the more posts have it. A tag of two posts
/// counts 0.91, of ten 0.42, of a hundred 0.22. It depends on the tag alone,
/// not on the size of the blog, so a preview ranks as the export does.
pub fn weight(posts_with_tag: usize) -> f64 {
    1.0 / (1.0 + posts_with_tag as f64).ln()
}

/// The published posts of some tags, numbered, with each tag's posts as
/// numbers: every post's related posts are worked out over it. A tag of a
/// large blog has thousands of posts; a post's rarer tags are visited
/// first, and a common tag not at all once no post it could bring in would
/// rank among the closest (`related`).
pub struct RelatedIndex<'a> {
    posts: Vec<&'a Post>,
    /// By the post's path (its bytes: hashing a path by its parts costs more).
    numbers: HashMap<&'a OsStr, u32>,
    /// The slug of each post's series, if it is in one.
    series: Vec<Option<String>>,
    /// By slug: the tag's weight, and its published posts' numbers, sorted.
    tags: HashMap<String, (f64, Vec<u32>)>,
}

impl<'a> RelatedIndex<'a> {
    /// The index of these tags (by slug, with their posts): drafts, posts
    /// with errors and pages among them are left out, and posts that share
    /// a slug are expected to be left out already (as the site's lists and
    /// the library's tags leave them).
    pub fn new<'t>(library: &Library, tags: impl IntoIterator<Item = (&'t str, &'t [&'a Post])>) -> Self
    where
        'a: 't,
    {
        let shown = |post: &&&'a Post| !post.draft && !post.has_errors && !post.page;
        let tags: Vec<(&str, &[&'a Post])> = tags.into_iter().collect();
        // Posts are numbered in the order ties rank in, the library's (newer
        // first, then by file): a tag's posts, sorted by number, are visited
        // best first.
        let mut once = HashSet::new();
        let mut posts: Vec<&'a Post> = tags
            .iter()
            .flat_map(|(_, posts)| posts.iter().filter(shown))
            .copied()
            .filter(|post| once.insert(post.path.as_os_str()))
            .collect();
        posts.sort_by(|x, y| newest_first(x, y));
        let numbers: HashMap<&'a OsStr, u32> =
            posts.iter().enumerate().map(|(number, post)| (post.path.as_os_str(), number as u32)).collect();
        let series = posts.iter().map(|post| library.series_slug_of(post)).collect();
        let tags = tags
            .into_iter()
            .map(|(slug, posts)| {
                let mut members: Vec<u32> =
                    posts.iter().filter(shown).map(|post| numbers[post.path.as_os_str()]).collect();
                members.sort_unstable();
                (slug.to_string(), (weight(members.len()), members))
            })
            .collect();
        RelatedIndex { posts, numbers, series, tags }
    }

    /// The index of `post`'s own tags only, from the library: enough for
    /// that post's related posts (a preview renders one post).
    pub fn of_post(library: &'a Library, post: &Post) -> Self {
        let slugs: BTreeSet<String> = library.tag_slugs_of(post).collect();
        let tags: Vec<(String, Vec<&'a Post>)> = slugs
            .into_iter()
            .map(|slug| {
                let posts = library.tag(&slug).map(|tag| tag.posts.iter().filter_map(|p| library.post(p)).collect());
                (slug, posts.unwrap_or_default())
            })
            .collect();
        Self::new(library, tags.iter().map(|(slug, posts)| (slug.as_str(), posts.as_slice())))
    }

    /// Up to `limit` posts related to `post`, closest first (ties: the
    /// newer first, then by file). A post's score is the sum of the weights
    /// of the tags it shares with `post`, added in the order of their slugs.
    pub fn related(&self, library: &Library, post: &Post, limit: usize) -> Vec<&'a Post> {
        if limit == 0 || post.page {
            return Vec::new();
        }
        let own = self.numbers.get(post.path.as_os_str()).copied();
        let series = library.series_slug_of(post);
        let slugs: BTreeSet<String> = library.tag_slugs_of(post).collect();
        // The post's tags in the order of their slugs (the order scores add
        // in), but for those without a published post, which bring none.
        let tags: Vec<&(f64, Vec<u32>)> =
            slugs.iter().filter_map(|slug| self.tags.get(slug)).filter(|(_, members)| !members.is_empty()).collect();
        let score_of = |number: u32| {
            let shared = tags.iter().filter(|(_, members)| members.binary_search(&number).is_ok());
            shared.fold(0.0, |score, (weight, _)| score + weight)
        };
        // Closest first; on a tie, the lower number (see `new`).
        let order =
            |(a, x): &(f64, u32), (b, y): &(f64, u32)| b.partial_cmp(a).unwrap_or(Ordering::Equal).then(x.cmp(y));
        // Rarest (heaviest) first: a post none of the tags visited so far
        // has scores at most the weights of the tags still to visit.
        let mut visits: Vec<usize> = (0..tags.len()).collect();
        visits.sort_by_key(|&n| (tags[n].1.len(), n));
        let mut still_to_visit: f64 = tags.iter().map(|(weight, _)| weight).sum();
        let mut visited = vec![false; tags.len()];
        SEEN.with(|seen| {
            let mut seen = seen.borrow_mut();
            let size = seen.len().max(self.posts.len());
            seen.resize(size, false);
            let mut touched = Vec::new();
            // The best `limit`, kept in order as the candidates come.
            let mut best: Vec<(f64, u32)> = Vec::with_capacity(limit + 1);
            for n in visits {
                // Sums added in another order may differ in their last bits:
                // a margin keeps the bound above any of them.
                if best.len() == limit && best[limit - 1].0 > still_to_visit * (1.0 + 1e-9) + 1e-12 {
                    break;
                }
                let (weight, members) = tags[n];
                still_to_visit -= weight;
                // The most a post first met in this tag can score: this tag's
                // and the later ones' weights, added as `score_of` adds them
                // (a sum of more of the same terms, in the same order, is
                // never less in floating point).
                let most = tags
                    .iter()
                    .zip(&visited)
                    .filter(|(_, visited)| !**visited)
                    .fold(0.0, |score, ((weight, _), _)| score + weight);
                visited[n] = true;
                for &number in members {
                    // The rest of this tag's posts rank after this one: once
                    // none could pass the last kept, none is looked at. (A
                    // post passed over in an earlier tag could not pass it
                    // then, and the kept only get closer.)
                    if best.len() == limit {
                        let (last, last_number) = best[limit - 1];
                        if last > most || (last == most && last_number < number) {
                            break;
                        }
                    }
                    if std::mem::replace(&mut seen[number as usize], true) {
                        continue;
                    }
                    touched.push(number);
                    let excluded = Some(number) == own || (series.is_some() && self.series[number as usize] == series);
                    if excluded {
                        continue;
                    }
                    let candidate = (score_of(number), number);
                    if best.len() == limit && order(&candidate, &best[limit - 1]) != Ordering::Less {
                        continue;
                    }
                    let at = best.partition_point(|kept| order(kept, &candidate) == Ordering::Less);
                    best.insert(at, candidate);
                    best.truncate(limit);
                }
            }
            for number in touched {
                seen[number as usize] = false;
            }
            best.into_iter().map(|(_, number)| self.posts[number as usize]).collect()
        })
    }
}

thread_local! {
    /// Each thread's marks of the posts a call has seen, by number, all
    /// false between calls: a page is rendered on one thread, and clearing
    /// a blog's worth per page would cost more than the visit.
    static SEEN: std::cell::RefCell<Vec<bool>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::library::of_texts;
    use std::path::Path;

    fn titles(posts: &[&Post]) -> Vec<String> {
        posts.iter().map(|p| p.title.clone()).collect()
    }

    /// Every published tag of `library` with its posts, as the site has them.
    fn every_tag(library: &Library) -> Vec<(String, Vec<&Post>)> {
        let posts = |tag: &crate::content::Tag| tag.posts.iter().filter_map(|p| library.post(p)).collect();
        library.tags(false).into_iter().map(|tag| (tag.slug.clone(), posts(&tag))).collect()
    }

    fn related<'a>(library: &'a Library, path: &str, limit: usize) -> Vec<&'a Post> {
        let post = library.post(Path::new(path)).unwrap();
        RelatedIndex::of_post(library, post).related(library, post, limit)
    }

    #[test]
    fn rare_tags_count_more_and_drafts_never() {
        let post = |title: &str, date: &str, tags: &str| format!("---\ntitle: {title}\ndate: {date}\ntags: [{tags}]\n");
        let files = [
            ("posts/a.md", post("A", "2026-01-01", "rdma, gpu") + "---\n"),
            ("posts/b.md", post("B", "2026-01-02", "gpu") + "---\n"),
            ("posts/c.md", post("C", "2026-01-03", "gpu") + "---\n"),
            ("posts/d.md", post("D", "2026-01-04", "rdma") + "---\n"),
            ("posts/e.md", post("E", "2026-01-05", "rdma, gpu") + "draft: true\n---\n"),
            ("posts/f.md", post("F", "2026-01-06", "cooking") + "---\n"),
        ];
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let library = of_texts(&files);
        assert_eq!(titles(&related(&library, "posts/a.md", 3)), ["D", "C", "B"], "rdma (2 posts) beats gpu (3)");
        assert_eq!(titles(&related(&library, "posts/a.md", 1)), ["D"]);
        assert!(related(&library, "posts/a.md", 0).is_empty());
        assert!(related(&library, "posts/f.md", 3).is_empty(), "no shared tag, nothing related");
        assert!(weight(2) > weight(10) && weight(10) > weight(100));

        // The index of the whole blog ranks as the post's own tags' does.
        let tags = every_tag(&library);
        let whole = RelatedIndex::new(&library, tags.iter().map(|(s, p)| (s.as_str(), p.as_slice())));
        let a = library.post(Path::new("posts/a.md")).unwrap();
        assert_eq!(titles(&whole.related(&library, a, 3)), ["D", "C", "B"]);
    }

    #[test]
    fn parts_of_the_same_series_are_not_related_posts() {
        let library = of_texts(&[
            ("posts/a.md", "---\ntitle: A\ndate: 2026-01-01\ntags: [nccl]\nseries: NCCL\n---\n"),
            ("posts/b.md", "---\ntitle: B\ndate: 2026-01-02\ntags: [nccl]\nseries: NCCL\n---\n"),
            ("posts/c.md", "---\ntitle: C\ndate: 2026-01-03\ntags: [nccl]\n---\n"),
        ]);
        assert_eq!(titles(&related(&library, "posts/a.md", 3)), ["C"]);
        assert_eq!(titles(&related(&library, "posts/c.md", 3)), ["B", "A"], "a post in no series has them all");
    }

    /// Every post's related posts as the plain way finds them: each shown
    /// post scored by all the tags it shares, the best by score, date, file.
    fn plainly<'a>(library: &'a Library, post: &Post, limit: usize) -> Vec<&'a Post> {
        let slugs: BTreeSet<String> = library.tag_slugs_of(post).collect();
        let series = library.series_slug_of(post);
        let shown = |p: &&Post| !p.draft && !p.has_errors && !p.page && p.path != post.path;
        let mut scored: Vec<(f64, &Post)> = library
            .posts()
            .filter(shown)
            .filter(|p| series.is_none() || library.series_slug_of(p) != series)
            .map(|p| {
                let theirs: BTreeSet<String> = library.tag_slugs_of(p).collect();
                let score = slugs
                    .iter()
                    .filter(|slug| theirs.contains(*slug))
                    .filter_map(|slug| library.tag(slug))
                    .map(|tag| weight(tag.posts.iter().filter_map(|p| library.post(p)).filter(|p| !p.draft).count()))
                    .fold(0.0, |sum, w| sum + w);
                (score, p)
            })
            .filter(|(score, _)| *score > 0.0)
            .collect();
        scored.sort_by(|(a, x), (b, y)| {
            b.partial_cmp(a).unwrap().then_with(|| y.date.cmp(&x.date)).then_with(|| x.path.cmp(&y.path))
        });
        scored.into_iter().take(limit).map(|(_, p)| p).collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Visiting the rarest tags first, and common ones only while they
        /// could still bring in a closer post, finds what scoring every
        /// post finds, ties and drafts and series included.
        #[test]
        fn the_related_posts_are_those_every_posts_score_gives(
            posts in proptest::collection::vec(
                (proptest::collection::vec(0usize..12, 0..5), 1u8..6, proptest::bool::weighted(0.1), 0u8..4),
                1..60,
            ),
            limit in 0usize..5,
        ) {
            // Tags of uneven use, as a blog's are: low numbers far more often.
            let texts: Vec<(String, String)> = posts
                .iter()
                .enumerate()
                .map(|(n, (tags, day, draft, series))| {
                    let tags: Vec<String> = tags.iter().map(|t| format!("t{}", t * t / 12)).collect();
                    let series = if *series == 0 { "series: S\n".to_string() } else { String::new() };
                    let text = format!(
                        "---\ntitle: P{n}\ndate: 2026-01-0{day}\ntags: [{}]\ndraft: {draft}\n{series}---\n",
                        tags.join(", ")
                    );
                    (format!("posts/p{n:02}.md"), text)
                })
                .collect();
            let files: Vec<(&str, &str)> = texts.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
            let library = of_texts(&files);
            let tags = every_tag(&library);
            let whole = RelatedIndex::new(&library, tags.iter().map(|(s, p)| (s.as_str(), p.as_slice())));
            for post in library.posts().filter(|p| !p.draft) {
                proptest::prop_assert_eq!(
                    titles(&whole.related(&library, post, limit)),
                    titles(&plainly(&library, post, limit)),
                    "{}", post.title
                );
            }
        }
    }
}

//! Related posts: the published posts that share a post's tags, each shared
//! tag counting more the rarer it is, so two posts on `rdma` are closer than
//! two on `gpu`. Never a draft, a held back post, a page, the post itself or
//! another part of its series (its page lists those already).

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use crate::content::{Library, Post};

/// What a shared tag counts: less the more posts have it. A tag of two posts
/// counts 0.91, of ten 0.42, of a hundred 0.22. It depends on the tag alone,
/// not on the size of the blog, so a preview ranks as the export does.
pub fn weight(posts_with_tag: usize) -> f64 {
    1.0 / (1.0 + posts_with_tag as f64).ln()
}

/// The published posts of some tags, numbered, with each tag's posts as
/// numbers: every post's related posts are worked out over it. A tag of a
/// large blog has thousands of posts, which each of its posts' pages
/// visits, so a visit is a number and an addition, not a post's fields.
pub struct RelatedIndex<'a> {
    posts: Vec<&'a Post>,
    numbers: HashMap<&'a Path, u32>,
    /// The slug of each post's series, if it is in one.
    series: Vec<Option<String>>,
    /// By slug: the tag's weight, and its published posts.
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
        let mut index =
            RelatedIndex { posts: Vec::new(), numbers: HashMap::new(), series: Vec::new(), tags: HashMap::new() };
        for (slug, posts) in tags {
            let members: Vec<u32> = posts
                .iter()
                .filter(|post| !post.draft && !post.has_errors && !post.page)
                .map(|post| index.number(library, post))
                .collect();
            index.tags.insert(slug.to_string(), (weight(members.len()), members));
        }
        index
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

    fn number(&mut self, library: &Library, post: &'a Post) -> u32 {
        if let Some(&number) = self.numbers.get(post.path.as_path()) {
            return number;
        }
        let number = self.posts.len() as u32;
        self.posts.push(post);
        self.numbers.insert(&post.path, number);
        self.series.push(library.series_slug_of(post));
        number
    }

    /// Up to `limit` posts related to `post`, closest first (ties: the
    /// newer first, then by file).
    pub fn related(&self, library: &Library, post: &Post, limit: usize) -> Vec<&'a Post> {
        if limit == 0 || post.page {
            return Vec::new();
        }
        let own = self.numbers.get(post.path.as_path()).copied();
        let series = library.series_slug_of(post);
        let slugs: BTreeSet<String> = library.tag_slugs_of(post).collect();
        let order = |(a, x): &(f64, &Post), (b, y): &(f64, &Post)| {
            b.partial_cmp(a)
                .unwrap_or(Ordering::Equal)
                .then_with(|| y.date.cmp(&x.date))
                .then_with(|| x.path.cmp(&y.path))
        };
        SCORES.with(|scores| {
            let mut scores = scores.borrow_mut();
            let size = scores.len().max(self.posts.len());
            scores.resize(size, 0.0);
            let mut touched = Vec::new();
            for (weight, members) in slugs.iter().filter_map(|slug| self.tags.get(slug)) {
                for &number in members {
                    let score = &mut scores[number as usize];
                    if *score == 0.0 {
                        touched.push(number);
                    }
                    *score += weight;
                }
            }
            // The best `limit`, kept in order as the candidates come.
            let mut best: Vec<(f64, &'a Post)> = Vec::with_capacity(limit + 1);
            for number in touched {
                let score = std::mem::take(&mut scores[number as usize]);
                let excluded = Some(number) == own || (series.is_some() && self.series[number as usize] == series);
                let candidate = (score, self.posts[number as usize]);
                if excluded || (best.len() == limit && order(&candidate, &best[limit - 1]) != Ordering::Less) {
                    continue;
                }
                let at = best.partition_point(|kept| order(kept, &candidate) == Ordering::Less);
                best.insert(at, candidate);
                best.truncate(limit);
            }
            best.into_iter().map(|(_, post)| post).collect()
        })
    }
}

thread_local! {
    /// Each thread's scores by post number, all zero between calls: a page
    /// is rendered on one thread, and zeroing a blog's worth per page would
    /// cost more than the sums.
    static SCORES: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::library::of_texts;

    fn titles(posts: &[&Post]) -> Vec<String> {
        posts.iter().map(|p| p.title.clone()).collect()
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
        let tags: Vec<(String, Vec<&Post>)> = library
            .tags(false)
            .into_iter()
            .map(|tag| (tag.slug.clone(), tag.posts.iter().filter_map(|p| library.post(p)).collect()))
            .collect();
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
}

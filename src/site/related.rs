//! Related posts: the published posts that share a post's tags, each shared
//! tag counting more the rarer it is, so two posts on `rdma` are closer than
//! two on `gpu`. Never a draft, a held back post, a page, the post itself or
//! another part of its series (its page lists those already).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::Path;

use crate::content::{Library, Post};

/// What a shared tag counts: less the more posts have it. A tag of two posts
/// counts 0.91, of ten 0.42, of a hundred 0.22. It depends on the tag alone,
/// not on the size of the blog, so a preview ranks as the export does.
pub fn weight(posts_with_tag: usize) -> f64 {
    1.0 / (1.0 + posts_with_tag as f64).ln()
}

/// Up to `limit` posts related to `post`, closest first (ties: the newer
/// first). `members` gives the posts of a tag (by slug), of which only the
/// published ones count.
pub fn related<'a>(
    library: &'a Library,
    post: &Post,
    limit: usize,
    members: impl Fn(&str) -> Vec<&'a Post>,
) -> Vec<&'a Post> {
    if limit == 0 || post.page {
        return Vec::new();
    }
    let series = library.series_slug_of(post);
    let mut scores: HashMap<&Path, (f64, &'a Post)> = HashMap::new();
    let slugs: std::collections::BTreeSet<String> = library.tag_slugs_of(post).collect();
    for slug in slugs {
        let Some(count) = library.tag_count(&slug) else { continue };
        let weight = weight(count.count);
        for other in members(&slug) {
            let excluded = other.path == post.path
                || other.draft
                || other.has_errors
                || other.page
                || library.shares_slug(&other.path)
                || (series.is_some() && library.series_slug_of(other) == series);
            if !excluded {
                scores.entry(other.path.as_path()).or_insert((0.0, other)).0 += weight;
            }
        }
    }
    let mut ranked: Vec<(f64, &Post)> = scores.into_values().collect();
    ranked.sort_by(|(a, x), (b, y)| {
        b.partial_cmp(a).unwrap_or(Ordering::Equal).then_with(|| y.date.cmp(&x.date)).then_with(|| x.path.cmp(&y.path))
    });
    ranked.into_iter().take(limit).map(|(_, post)| post).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::library::of_texts;

    fn titles(posts: &[&Post]) -> Vec<String> {
        posts.iter().map(|p| p.title.clone()).collect()
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
        let members = |slug: &str| {
            library.tag(slug).map(|t| t.posts.iter().filter_map(|p| library.post(p)).collect()).unwrap_or_default()
        };
        let a = library.post(Path::new("posts/a.md")).unwrap();
        assert_eq!(titles(&related(&library, a, 3, members)), ["D", "C", "B"], "rdma (2 posts) beats gpu (3)");
        assert_eq!(titles(&related(&library, a, 1, members)), ["D"]);
        assert!(related(&library, a, 0, members).is_empty());
        let f = library.post(Path::new("posts/f.md")).unwrap();
        assert!(related(&library, f, 3, members).is_empty(), "no shared tag, nothing related");
        assert!(weight(2) > weight(10) && weight(10) > weight(100));
    }

    #[test]
    fn parts_of_the_same_series_are_not_related_posts() {
        let library = of_texts(&[
            ("posts/a.md", "---\ntitle: A\ndate: 2026-01-01\ntags: [nccl]\nseries: NCCL\n---\n"),
            ("posts/b.md", "---\ntitle: B\ndate: 2026-01-02\ntags: [nccl]\nseries: NCCL\n---\n"),
            ("posts/c.md", "---\ntitle: C\ndate: 2026-01-03\ntags: [nccl]\n---\n"),
        ]);
        let members = |slug: &str| {
            library.tag(slug).map(|t| t.posts.iter().filter_map(|p| library.post(p)).collect()).unwrap_or_default()
        };
        let a = library.post(Path::new("posts/a.md")).unwrap();
        assert_eq!(titles(&related(&library, a, 3, members)), ["C"]);
    }
}

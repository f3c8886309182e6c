//! What templates see: the site, the posts and tags as plain values. The names
//! here are the variables documented in the guide's Theme (docs/posts/theme.md).

use serde::Serialize;

use crate::config::{Analytics, AnalyticsProvider, Comments, CommentsProvider};
use crate::content::{Post, PostDate, Tag};
use crate::markdown::TocEntry;

use super::dates::DateFormat;
use super::routes::{Addresses, numbered};
use super::url;

#[derive(Debug, Clone, Hash, Serialize)]
pub struct SiteInfo {
    pub title: String,
    pub description: String,
    pub base_url: String,
    pub locale: String,
    /// The language part of the locale, for `<html lang>`: `ko`.
    pub lang: String,
    pub author: String,
    /// The site's pages (an About page), for the navigation, by address.
    pub pages: Vec<PostLink>,
    /// Whether any post has a category (the navigation links `categories/`).
    pub categories: bool,
    /// Whether any post is a part of a series (the navigation links `series/`).
    pub series: bool,
    /// The site's feed: `feed.xml` (`index.xml` in a Hugo blog).
    pub feed: String,
}

/// The page being written.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct PageInfo {
    /// `home`, `post`, `tags`, `tag` or `404`.
    pub kind: &'static str,
    /// Site path: `tags/nccl/`.
    pub path: String,
    /// Full address, for `<link rel="canonical">` and Open Graph.
    pub url: String,
    /// For `<title>`: the page's own title, or empty on the home page.
    pub title: String,
    pub description: String,
    /// Site path of the feed that matches this page.
    pub feed: String,
}

#[derive(Debug, Clone, Hash, Serialize)]
pub struct TagLink {
    pub name: String,
    pub slug: String,
    pub path: String,
}

impl TagLink {
    pub fn of(name: &str, addresses: &Addresses) -> Self {
        let slug = addresses.library.tag_slug(name);
        Self { path: addresses.tag(&slug), name: name.to_string(), slug }
    }

    pub fn of_category(name: &str, addresses: &Addresses) -> Self {
        let slug = addresses.library.tag_slug(name);
        Self { path: addresses.category(&slug), name: name.to_string(), slug }
    }
}

/// One tag in the sidebar and on the tags page.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct TagInfo {
    pub name: String,
    pub slug: String,
    /// The heading of its page ("Nccl").
    pub title: String,
    pub count: usize,
    pub path: String,
    pub feed: String,
}

impl TagInfo {
    pub fn of(tag: &Tag, with_drafts: bool, addresses: &Addresses) -> Self {
        Self {
            name: tag.name.clone(),
            slug: tag.slug.clone(),
            title: tag.title.clone(),
            count: if with_drafts { tag.count + tag.draft_count } else { tag.count },
            path: addresses.tag(&tag.slug),
            feed: addresses.tag_feed(&tag.slug),
        }
    }

    /// A series, which has a page but no feed of its own, and is titled by
    /// its name as the posts spell it.
    pub fn of_series(series: &Tag, with_drafts: bool, addresses: &Addresses) -> Self {
        let path = addresses.series(&series.slug);
        let feed = addresses.page(&super::Page::Feed);
        Self { path, feed, title: series.name.clone(), ..Self::of(series, with_drafts, addresses) }
    }

    /// A category, which has a page but no feed of its own.
    pub fn of_category(category: &Tag, with_drafts: bool, addresses: &Addresses) -> Self {
        let path = addresses.category(&category.slug);
        Self { path, feed: addresses.page(&super::Page::Feed), ..Self::of(category, with_drafts, addresses) }
    }
}

/// A post as lists show it.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct PostSummary {
    pub title: String,
    pub path: String,
    /// `2026-07-17`, for `<time datetime>`; empty if the post has no date.
    pub date: String,
    /// The date written for the site's locale: `2026년 7월 17일`.
    pub date_text: String,
    pub updated: String,
    pub tags: Vec<TagLink>,
    pub categories: Vec<TagLink>,
    pub summary: String,
    pub draft: bool,
    /// Why a post that is no draft is held back (`scheduled`), or empty.
    pub held: String,
    /// When a scheduled post is published (`2026-12-24T09:00`, in the blog's
    /// time zone), and as the locale writes it (`2026년 12월 24일 09:00`);
    /// empty for any other post.
    pub publish_date: String,
    pub publish_date_text: String,
    pub authors: Vec<String>,
}

impl PostSummary {
    pub fn of(post: &Post, dates: &DateFormat, addresses: &Addresses) -> Self {
        Self {
            title: post.title.clone(),
            path: addresses.post(post),
            date: post.date.map(|d| d.date.to_string()).unwrap_or_default(),
            date_text: post.date.map(|d| dates.format(d.date)).unwrap_or_default(),
            updated: post.updated.map(|d| d.date.to_string()).unwrap_or_default(),
            tags: post.tags.iter().map(|t| TagLink::of(t, addresses)).collect(),
            categories: post.categories.iter().map(|c| TagLink::of_category(c, addresses)).collect(),
            summary: post.summary.clone().unwrap_or_default(),
            draft: post.draft,
            held: post.held.map(|held| held.name().to_string()).unwrap_or_default(),
            publish_date: post.publish_date.map(|d| d.to_string()).unwrap_or_default(),
            publish_date_text: post
                .publish_date
                .map(|d| match d.time {
                    Some(time) => format!("{} {}", dates.format(d.date), time.strftime("%H:%M")),
                    None => dates.format(d.date),
                })
                .unwrap_or_default(),
            authors: post.authors.clone(),
        }
    }
}

/// A neighbour of a post, for "newer" and "older" links.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct PostLink {
    pub title: String,
    pub path: String,
}

impl PostLink {
    pub fn of(post: &Post, addresses: &Addresses) -> Self {
        Self { title: post.title.clone(), path: addresses.post(post) }
    }
}

/// A related post, as a post's page lists it.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct RelatedPost {
    pub title: String,
    pub path: String,
    /// `2026-07-17`, and as the locale writes it; empty if it has no date.
    pub date: String,
    pub date_text: String,
}

impl RelatedPost {
    /// The post as a list shows it has all a related post shows.
    pub fn of(summary: &PostSummary) -> Self {
        Self {
            title: summary.title.clone(),
            path: summary.path.clone(),
            date: summary.date.clone(),
            date_text: summary.date_text.clone(),
        }
    }
}

/// A post's own page.
#[derive(Debug, Clone, Serialize)]
pub struct PostPage {
    #[serde(flatten)]
    pub summary: PostSummary,
    /// The rendered Markdown (HTML).
    pub content: String,
    pub toc: Vec<TocEntry>,
    pub reading_minutes: usize,
    pub word_count: usize,
    pub newer: Option<PostLink>,
    pub older: Option<PostLink>,
    /// The series the post is a part of, or none.
    pub series: Option<PostSeries>,
    /// Other posts with the tags it has, the rarest tags counting most.
    pub related: Vec<RelatedPost>,
    /// The image above the post (`cover:`), as a `<picture>`, or none.
    pub cover: Option<Cover>,
    /// Full addresses of the front matter's `images`, for Open Graph.
    pub images: Vec<String>,
    pub canonical_url: Option<String>,
    pub layout: Option<String>,
    /// Front matter keys Hanji does not know, as written.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// A post's series, as its page shows it: "part 2 of 5", the parts, and the
/// parts before and after it.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct PostSeries {
    pub name: String,
    pub slug: String,
    /// The series' page.
    pub path: String,
    /// This post's place in the series, from 1, and how many parts it has.
    pub part: usize,
    pub total: usize,
    /// Every part, first first.
    pub posts: Vec<SeriesPart>,
    pub previous: Option<PostLink>,
    pub next: Option<PostLink>,
}

/// One part of a series.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct SeriesPart {
    pub title: String,
    pub path: String,
    /// The post whose page this is.
    pub current: bool,
    pub draft: bool,
}

/// A series on its own page (and on the page of every series): its posts,
/// first first.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct SeriesInfo {
    pub name: String,
    pub slug: String,
    pub path: String,
    pub count: usize,
    pub posts: Vec<PostSummary>,
}

/// A post's cover image.
#[derive(Debug, Clone, Serialize)]
pub struct Cover {
    /// The `<picture>` (or `<img>`) to show.
    pub html: String,
    /// Where the image is, from the page, and its full address (for Open Graph).
    pub src: String,
    pub url: String,
    pub alt: String,
}

/// `comments`: the settings of `[comments]`, with their defaults filled in
/// (the provider's own theme that follows the reader's light or dark, the
/// site's language).
#[derive(Debug, Clone, Serialize)]
pub struct CommentsInfo {
    /// `giscus` or `utterances`.
    pub provider: &'static str,
    #[serde(flatten)]
    pub settings: Comments,
}

impl CommentsInfo {
    pub fn of(comments: &Comments, lang: &str) -> Option<Self> {
        let provider = match comments.provider? {
            CommentsProvider::Giscus => "giscus",
            CommentsProvider::Utterances => "utterances",
        };
        let mut settings = comments.clone();
        if settings.theme.is_empty() {
            settings.theme =
                if provider == "giscus" { "preferred_color_scheme" } else { "preferred-color-scheme" }.into();
        }
        if settings.lang.is_empty() {
            settings.lang = lang.to_string();
        }
        if settings.mapping.is_empty() {
            settings.mapping = "pathname".into();
        }
        Some(Self { provider, settings })
    }
}

/// `analytics`: the settings of `[analytics]`, with the provider's script
/// address and Plausible's domain (`base_url`'s host) filled in.
#[derive(Debug, Clone, Serialize)]
pub struct AnalyticsInfo {
    /// `plausible`, `umami` or `google`.
    pub provider: &'static str,
    pub script: String,
    pub domain: String,
    pub website_id: String,
    pub id: String,
}

impl AnalyticsInfo {
    pub fn of(analytics: &Analytics, base_url: &str) -> Option<Self> {
        let provider = match analytics.provider? {
            AnalyticsProvider::Plausible => "plausible",
            AnalyticsProvider::Umami => "umami",
            AnalyticsProvider::Google => "google",
        };
        let host = base_url.split_once("://").map_or("", |(_, rest)| rest.split(['/', ':']).next().unwrap_or(""));
        let domain = if analytics.domain.is_empty() { host.to_string() } else { analytics.domain.clone() };
        Some(Self {
            provider,
            script: analytics.script_url(),
            domain,
            website_id: analytics.website_id.clone(),
            id: analytics.id.clone(),
        })
    }
}

#[derive(Debug, Clone, Hash, Serialize)]
pub struct Pagination {
    pub current: usize,
    pub total: usize,
    /// Site paths of the neighbouring pages; none at either end (the first
    /// page of the home list is "", the front page).
    pub previous: Option<String>,
    pub next: Option<String>,
}

impl Pagination {
    /// Pages of a list whose first page is at `first` (`tags/nccl/`) and
    /// the others at `first` + `page/<n>/`. None when there is only one.
    pub fn of(first: &str, current: usize, total: usize) -> Option<Self> {
        let path = |n: usize| numbered(first, n);
        (total > 1).then(|| Self {
            current,
            total,
            previous: (current > 1).then(|| path(current - 1)),
            next: (current < total).then(|| path(current + 1)),
        })
    }
}

/// One entry of a feed.
#[derive(Debug, Clone, Hash, Serialize)]
pub struct FeedItem {
    pub title: String,
    pub url: String,
    /// RFC 2822, as RSS wants: `Fri, 17 Jul 2026 00:00:00 +0000`.
    pub published: String,
    pub summary: String,
    pub tags: Vec<String>,
}

impl FeedItem {
    pub fn of(post: &Post, base_url: &str, addresses: &Addresses) -> Self {
        Self {
            title: post.title.clone(),
            url: url::absolute(base_url, &addresses.post(post)),
            published: post.date.map(rfc2822).unwrap_or_default(),
            summary: post.summary.clone().unwrap_or_default(),
            tags: post.tags.clone(),
        }
    }
}

/// The date as written, at the time written (or midnight), in UTC's format:
/// the calendar date is never shifted.
pub fn rfc2822(date: PostDate) -> String {
    let time = date.time.unwrap_or_default(); // midnight
    let moment = date.date.to_datetime(time);
    format!("{} +0000", moment.strftime("%a, %d %b %Y %H:%M:%S"))
}

#[derive(Debug, Clone, Hash, Serialize)]
pub struct SitemapEntry {
    pub url: String,
    /// `2026-07-17`, or empty.
    pub lastmod: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::{date, time};

    #[test]
    fn pagination_edges() {
        assert!(Pagination::of("tags/a/", 1, 1).is_none());
        let first = Pagination::of("tags/a/", 1, 3).unwrap();
        assert_eq!((first.previous.as_deref(), first.next.as_deref()), (None, Some("tags/a/page/2/")));
        let middle = Pagination::of("tags/a/", 2, 3).unwrap();
        assert_eq!((middle.previous.as_deref(), middle.next.as_deref()), (Some("tags/a/"), Some("tags/a/page/3/")));
        let second = Pagination::of("", 2, 3).unwrap();
        assert_eq!(second.previous.as_deref(), Some(""));
        let last = Pagination::of("", 3, 3).unwrap();
        assert_eq!((last.previous.as_deref(), last.next.as_deref()), (Some("page/2/"), None));
    }

    #[test]
    fn feed_dates_keep_the_calendar_day() {
        assert_eq!(rfc2822(PostDate { date: date(2026, 7, 17), time: None }), "Fri, 17 Jul 2026 00:00:00 +0000");
        assert_eq!(
            rfc2822(PostDate { date: date(2026, 3, 17), time: Some(time(23, 30, 0, 0)) }),
            "Tue, 17 Mar 2026 23:30:00 +0000"
        );
    }
}

//! What a page is made from, before it is rendered: its plan. A page's text
//! is a function of its plan, of what every page of the site shares (the
//! settings, the theme and the site's values: `Site::shared_digest`) and,
//! for a post's page, of the post's text and the answers its links got
//! (`LinkAnswer`; an image sized for the screen is answered by its file and
//! that file's stamp, which fix its size and copies). Nothing else goes into a page: `Site::render_plan` reads
//! nothing but these. So an export that finds a page's plan (and those) as
//! they were last time knows the page is as it wrote it then.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Mutex;

use super::context::{
    FeedItem, PageInfo, Pagination, PostLink, PostSeries, PostSummary, RelatedPost, SeriesInfo, SitemapEntry, TagInfo,
};
use super::images::Pictures;
use crate::content::Post;
use crate::digest::Digest;
use crate::fs::Stamp;
use crate::markdown::{Link, LinkResolver, PictureResolver, Sizing};

/// What one page is made from.
#[derive(Debug, Hash)]
pub struct Plan<'s> {
    /// The way from the page to the site's top (`../../`).
    pub root: String,
    pub body: Body<'s>,
}

#[derive(Debug, Hash)]
pub enum Body<'s> {
    /// Sent as it is: the style sheet, the search's script.
    Text(&'s str),
    /// A page of a template, with the page's own values.
    Page {
        template: &'static str,
        info: PageInfo,
        values: Values<'s>,
    },
    /// A post's (or a page's) own page (boxed: it is the largest).
    Post(Box<PostPlan<'s>>),
    Feed(Feed),
    Sitemap(Vec<SitemapEntry>),
    Robots {
        sitemap: String,
    },
    /// Nothing is there (a tag without posts, a post not in the library).
    Empty,
}

/// What a template page shows besides what every page gets.
#[derive(Debug, Hash)]
pub enum Values<'s> {
    None,
    /// A page of a list of posts (the front page, a tag's or category's).
    List {
        tag: Option<&'s TagInfo>,
        category: Option<&'s TagInfo>,
        posts: Vec<Cow<'s, Listed>>,
        pagination: Option<Pagination>,
        sidebar: Option<Sidebar<'s>>,
    },
    Tags(Vec<&'s TagInfo>),
    Categories(Vec<&'s TagInfo>),
    /// Every series with its parts (the page of every series).
    AllSeries(Vec<SeriesInfo>),
    /// One series with its parts.
    Series(SeriesInfo),
    /// An old address of a post: its site path and full address.
    Alias {
        to: String,
        url: String,
    },
}

/// A post as lists show it, with the digest of that: a plan names the posts
/// it shows by their digests (a list page shows five, and there are
/// thousands of list pages).
#[derive(Debug, Clone)]
pub struct Listed {
    pub summary: PostSummary,
    pub digest: Digest,
}

impl Listed {
    pub fn new(summary: PostSummary) -> Listed {
        Listed { digest: crate::digest::of(&summary), summary }
    }
}

impl Hash for Listed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.digest.hash(state);
    }
}

/// Templates see the summary itself.
impl serde::Serialize for Listed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.summary.serialize(serializer)
    }
}

/// The sidebar of a list page: every tag (named by their digest, the same
/// for every page) with the one shown marked.
#[derive(Debug, Hash)]
pub struct Sidebar<'s> {
    pub tags: Digest,
    pub current: &'s str,
}

/// A feed: its title, addresses and newest posts.
#[derive(Debug, Hash)]
pub struct Feed {
    pub title: String,
    pub url: String,
    pub link: String,
    pub updated: String,
    pub items: Vec<FeedItem>,
}

/// A post's page: the post (by its file and the digest of its text, which
/// fixes everything read from it), as lists show it, its neighbours, its
/// series and related posts (the other posts' titles, addresses and dates)
/// and the template that renders it.
#[derive(Debug)]
pub struct PostPlan<'s> {
    pub post: &'s Post,
    pub path: String,
    pub summary: Cow<'s, Listed>,
    pub newer: Option<PostLink>,
    pub older: Option<PostLink>,
    /// Boxed: most posts are in no series.
    pub series: Option<Box<PostSeries>>,
    pub related: Vec<RelatedPost>,
    pub template: String,
}

impl<'s> PostPlan<'s> {
    /// The same plan for `post`, another copy of the post (with its text).
    pub fn with_post<'p>(&'p self, post: &'p Post) -> PostPlan<'p> {
        PostPlan {
            post,
            path: self.path.clone(),
            summary: Cow::Borrowed(&*self.summary),
            newer: self.newer.clone(),
            older: self.older.clone(),
            series: self.series.clone(),
            related: self.related.clone(),
            template: self.template.clone(),
        }
    }
}

impl Hash for PostPlan<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let post = self.post;
        (&post.path, post.text_digest(), post.held, post.draft, post.page, post.has_errors).hash(state);
        (&self.path, &self.summary, &self.newer, &self.older, &self.template).hash(state);
        (&self.series, &self.related).hash(state);
    }
}

/// A link or image of a post, and what the site made of it: the page
/// depends on these answers, which other posts and files decide.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct LinkAnswer {
    pub asked: Asked,
    pub dest: String,
    pub answer: LinkTo,
}

/// What a page asked of `dest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Asked {
    /// Where a link leads.
    Link,
    /// Where an image is.
    Image,
    /// How an image is sized for the screen (its `<picture>`).
    Picture,
}

/// A [`Link`], as kept; or, for a picture, the image file it shows and
/// that file's stamp (its size, format and copies follow from its bytes
/// and the image settings, which every page shares).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LinkTo {
    Keep,
    Rewrite(String),
    Broken(String, Option<String>),
    Picture(Option<PathBuf>, Option<Stamp>),
}

impl From<&Link> for LinkTo {
    fn from(link: &Link) -> LinkTo {
        match link {
            Link::Keep => LinkTo::Keep,
            Link::Rewrite(to) => LinkTo::Rewrite(to.clone()),
            Link::Broken { message, hint } => LinkTo::Broken(message.clone(), hint.clone()),
        }
    }
}

/// What a post's page asked of the site, and the image files whose copies
/// it shows (the export writes those copies).
#[derive(Debug, Default)]
pub struct Answers {
    pub links: Vec<LinkAnswer>,
    pub pictured: Vec<PathBuf>,
}

/// A resolver that writes down what it was asked and what it answered.
pub struct Recorded<'r> {
    pub inner: &'r dyn LinkResolver,
    /// Sizes images for the screen, when the site has their catalog.
    pub pictures: Option<&'r Pictures<'r>>,
    answers: Mutex<Answers>,
}

impl<'r> Recorded<'r> {
    pub fn new(inner: &'r dyn LinkResolver, pictures: Option<&'r Pictures<'r>>) -> Self {
        Recorded { inner, pictures, answers: Mutex::default() }
    }

    fn note(&self, asked: Asked, dest: &str, answer: LinkTo) {
        let answer = LinkAnswer { asked, dest: dest.to_string(), answer };
        self.answers.lock().expect("link answers").links.push(answer);
    }

    pub fn into_answers(self) -> Answers {
        self.answers.into_inner().expect("link answers")
    }
}

impl LinkResolver for Recorded<'_> {
    fn resolve_link(&self, dest: &str) -> Link {
        let link = self.inner.resolve_link(dest);
        self.note(Asked::Link, dest, LinkTo::from(&link));
        link
    }

    fn resolve_image(&self, dest: &str) -> Link {
        let link = self.inner.resolve_image(dest);
        self.note(Asked::Image, dest, LinkTo::from(&link));
        link
    }
}

impl PictureResolver for Recorded<'_> {
    fn picture(&self, dest: &str) -> Sizing {
        let Some(pictures) = self.pictures else { return Sizing::AsItIs };
        let sizing = pictures.picture(dest);
        let (file, stamp) = pictures.file_of(dest);
        if let (Sizing::Picture(_), Some(file)) = (&sizing, &file) {
            self.answers.lock().expect("link answers").pictured.push(file.clone());
        }
        self.note(Asked::Picture, dest, LinkTo::Picture(file, stamp));
        sizing
    }
}

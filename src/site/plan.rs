//! What a page is made from, before it is rendered: its plan. A page's text
//! is a function of its plan, of what every page of the site shares (the
//! settings, the theme and the site's values: `Site::shared_digest`) and,
//! for a post's page, of the post's text and the answers its links got
//! (`LinkAnswer`). Nothing else goes into a page: `Site::render_plan` reads
//! nothing but these. So an export that finds a page's plan (and those) as
//! they were last time knows the page is as it wrote it then.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use super::context::{FeedItem, PageInfo, Pagination, PostLink, PostSummary, SitemapEntry, TagInfo};
use crate::content::Post;
use crate::digest::Digest;
use crate::markdown::{Link, LinkResolver};

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
    /// A post's (or a page's) own page.
    Post(PostPlan<'s>),
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
        posts: Vec<Cow<'s, PostSummary>>,
        pagination: Option<Pagination>,
        sidebar: Option<Sidebar<'s>>,
    },
    Tags(Vec<&'s TagInfo>),
    Categories(Vec<&'s TagInfo>),
    /// An old address of a post: its site path and full address.
    Alias {
        to: String,
        url: String,
    },
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
/// fixes everything read from it), as lists show it, its neighbours and the
/// template that renders it.
#[derive(Debug)]
pub struct PostPlan<'s> {
    pub post: &'s Post,
    pub path: String,
    pub summary: Cow<'s, PostSummary>,
    pub newer: Option<PostLink>,
    pub older: Option<PostLink>,
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
            template: self.template.clone(),
        }
    }
}

impl Hash for PostPlan<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let post = self.post;
        (&post.path, post.text_digest(), post.held, post.draft, post.page, post.has_errors).hash(state);
        (&self.path, &self.summary, &self.newer, &self.older, &self.template).hash(state);
    }
}

/// A link or image of a post, and what the site made of it: the page
/// depends on these answers, which other posts and files decide.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct LinkAnswer {
    pub image: bool,
    pub dest: String,
    pub answer: LinkTo,
}

/// A [`Link`], as kept.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LinkTo {
    Keep,
    Rewrite(String),
    Broken(String, Option<String>),
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

/// A resolver that writes down what it was asked and what it answered.
pub struct Recorded<'r> {
    pub inner: &'r dyn LinkResolver,
    pub answers: Mutex<Vec<LinkAnswer>>,
}

impl<'r> Recorded<'r> {
    pub fn new(inner: &'r dyn LinkResolver) -> Self {
        Recorded { inner, answers: Mutex::default() }
    }

    fn note(&self, image: bool, dest: &str, link: Link) -> Link {
        let answer = LinkAnswer { image, dest: dest.to_string(), answer: LinkTo::from(&link) };
        self.answers.lock().expect("link answers").push(answer);
        link
    }

    pub fn into_answers(self) -> Vec<LinkAnswer> {
        self.answers.into_inner().expect("link answers")
    }
}

impl LinkResolver for Recorded<'_> {
    fn resolve_link(&self, dest: &str) -> Link {
        self.note(false, dest, self.inner.resolve_link(dest))
    }

    fn resolve_image(&self, dest: &str) -> Link {
        self.note(true, dest, self.inner.resolve_image(dest))
    }
}

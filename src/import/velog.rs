//! A Velog account, read from Velog's public GraphQL API at import time
//! (Velog has no export): `posts(username, cursor, limit)` lists the posts,
//! newest first, a page at a time (the cursor is the last post's id), and
//! `post(username, url_slug)` gives each one's Markdown body, tags, series,
//! dates and thumbnail (the queries Velog's own web client sends). Every
//! image the body shows, and the thumbnail, is downloaded into the post's
//! bundle and its link rewritten. What was fetched is kept in the new
//! blog's folder as it comes (`.hanji-import-velog.json` and the images
//! under `.hanji-import-velog/`), so an import the network cut short
//! continues where it stopped when run again; the import removes them once
//! the blog is written.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::StreamExt;

use super::report::Report;
use super::{Entry, Export, ImportError, ImportOptions, slug_of, unique};
use crate::fs::{Durable, Folder, SitePath};

/// Velog's API, unless `HANJI_VELOG_API` (or the app's setting) names another.
pub const API: &str = "https://v2.velog.io/graphql";

/// What is kept between runs (see the module).
pub const CACHE: &str = ".hanji-import-velog.json";
const CACHE_FILES: &str = ".hanji-import-velog";

/// Posts asked for in one page of the list (what Velog's client asks).
const PAGE: usize = 20;
/// Requests under way at once.
const AT_ONCE: usize = 8;

const POSTS: &str = "query Posts($cursor: ID, $username: String, $limit: Int) { posts(cursor: $cursor, username: $username, limit: $limit) { id url_slug } }";
const POST: &str = "query ReadPost($username: String, $url_slug: String) { post(username: $username, url_slug: $url_slug) { id title released_at updated_at tags body short_description is_markdown is_private thumbnail url_slug series { id name url_slug } } }";

/// The user a source names: `velog:@user`, `velog:user`, or the address of
/// the blog (`https://velog.io/@user`, with or without a post after it).
pub(crate) fn user_of(source: &str) -> Option<String> {
    let rest = source
        .strip_prefix("velog:")
        .or_else(|| source.split_once("velog.io/").map(|(_, rest)| rest).filter(|_| source.contains("://")))?;
    let user = rest.trim_start_matches('@').split('/').next().unwrap_or("");
    let valid = !user.is_empty() && user.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    valid.then(|| user.to_string())
}

/// The API's address: `options.api`, else `HANJI_VELOG_API`, else Velog's.
fn api(options: &ImportOptions) -> String {
    options.api.clone().or_else(|| std::env::var("HANJI_VELOG_API").ok()).unwrap_or_else(|| API.to_string())
}

#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Cache {
    user: String,
    /// The posts listed so far, newest first: (id, url_slug).
    listed: Vec<(String, String)>,
    /// Where the list goes on from (the last post's id).
    cursor: Option<String>,
    listed_all: bool,
    /// url_slug → the post as the API gave it.
    posts: BTreeMap<String, Post>,
    /// Image address → its file under `.hanji-import-velog/`, or why it could not be had.
    images: BTreeMap<String, Result<String, String>>,
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Post {
    id: String,
    title: String,
    url_slug: String,
    #[serde(default)]
    released_at: Option<String>,
    #[serde(default)]
    updated_at: Option<String>,
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    short_description: Option<String>,
    #[serde(default)]
    is_markdown: Option<bool>,
    #[serde(default)]
    is_private: Option<bool>,
    #[serde(default)]
    thumbnail: Option<String>,
    #[serde(default)]
    series: Option<Series>,
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Series {
    #[serde(default)]
    name: String,
}

#[derive(Debug, serde::Deserialize)]
struct Listed {
    id: String,
    url_slug: String,
}

/// Why a request did not give what was asked.
#[derive(Debug)]
enum Failure {
    /// The network or the server: worth asking again later.
    Network(String),
    /// The answer is not what Velog answers: asking again will not help.
    Answer(String),
}

/// Reads the account `user` (see the module); what it fetched is kept in
/// `options.into` until the blog is written.
pub(crate) fn read(user: &str, options: &ImportOptions, report: &mut Report) -> Result<Export, ImportError> {
    let source = format!("velog:@{user}");
    let into = options.into.as_path();
    let io = |source: std::io::Error| ImportError::Io { path: into.to_path_buf(), source };
    let folder = Folder::open(into, true).map_err(io)?;
    let mut cache = load_cache(&folder, user);
    let api = api(options);
    let progress = |text: &str| {
        if let Some(progress) = &options.progress {
            (progress.0)(text);
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(io)?;
    let result = runtime.block_on(fetch(&api, user, &mut cache, &folder, &progress));
    save_cache(&folder, &cache).map_err(io)?;
    match result {
        Ok(()) => {}
        Err(Failure::Network(reason)) => {
            return Err(ImportError::Interrupted {
                account: source,
                reason,
                fetched: cache.posts.len(),
                listed: cache.listed.len(),
                into: into.to_path_buf(),
            });
        }
        Err(Failure::Answer(reason)) => return Err(ImportError::Unreadable { path: source.into(), reason }),
    }
    if cache.listed.is_empty() {
        return Err(ImportError::Unknown {
            path: source.into(),
            reason: format!("Velog has no public posts of @{user} (is the name right?)"),
        });
    }
    let entries = entries(user, &cache, &folder, report);
    Ok(Export {
        platform: "Velog",
        site: format!("https://velog.io/@{user}"),
        title: format!("{user}.log"),
        description: String::new(),
        locale: "ko-KR".into(),
        entries,
    })
}

/// Removes what `read` kept between runs, once the blog is written.
pub(crate) fn forget(into: &std::path::Path) {
    if let Ok(folder) = Folder::open(into, false) {
        if let Ok(path) = SitePath::new(CACHE) {
            let _ = folder.remove(&path);
        }
        if let Ok(path) = SitePath::new(CACHE_FILES) {
            folder.remove_folder(&path);
        }
    }
}

/// Whether `name` is one of the files `read` keeps between runs.
pub(crate) fn is_cache(name: &str) -> bool {
    name == CACHE || name.starts_with(&format!("{CACHE_FILES}/"))
}

fn load_cache(folder: &Folder, user: &str) -> Cache {
    let kept = SitePath::new(CACHE)
        .ok()
        .and_then(|path| folder.read(&path).ok())
        .and_then(|bytes| serde_json::from_slice::<Cache>(&bytes).ok())
        .filter(|cache| cache.user == user);
    kept.unwrap_or_else(|| Cache { user: user.to_string(), ..Cache::default() })
}

fn save_cache(folder: &Folder, cache: &Cache) -> std::io::Result<()> {
    let bytes = serde_json::to_vec(cache).unwrap_or_default();
    let path =
        SitePath::new(CACHE).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()))?;
    folder.write(&path, &bytes, Durable::Replaced)
}

/// Lists the posts and fetches each one not fetched yet, with its images.
async fn fetch(
    api: &str,
    user: &str,
    cache: &mut Cache,
    folder: &Folder,
    progress: &dyn Fn(&str),
) -> Result<(), Failure> {
    let client = super::download::client().map_err(Failure::Network)?;
    while !cache.listed_all {
        let variables = serde_json::json!({ "username": user, "cursor": cache.cursor, "limit": PAGE });
        let data = graphql(&client, api, POSTS, variables).await?;
        let page: Vec<Listed> = serde_json::from_value(data.get("posts").cloned().unwrap_or_default())
            .map_err(|e| Failure::Answer(format!("the list of posts is not what Velog answers: {e}")))?;
        let known: HashSet<String> = cache.listed.iter().map(|(id, _)| id.clone()).collect();
        let fresh: Vec<&Listed> = page.iter().filter(|p| !known.contains(&p.id)).collect();
        if fresh.is_empty() {
            cache.listed_all = true;
            break;
        }
        cache.listed.extend(fresh.iter().map(|p| (p.id.clone(), p.url_slug.clone())));
        cache.cursor = page.last().map(|p| p.id.clone());
        cache.listed_all = page.len() < PAGE;
        progress(&format!("velog: {} posts listed", cache.listed.len()));
    }
    let todo: Vec<String> =
        cache.listed.iter().filter(|(_, slug)| !cache.posts.contains_key(slug)).map(|(_, slug)| slug.clone()).collect();
    let total = cache.listed.len();
    let down = Arc::new(AtomicBool::new(false));
    let known_images: HashSet<String> = cache.images.keys().cloned().collect();
    let mut results = futures_util::stream::iter(todo.into_iter().map(|slug| {
        let (client, down, known_images) = (&client, down.clone(), &known_images);
        async move {
            if down.load(Ordering::Relaxed) {
                return Err(Failure::Network("skipped: the connection was lost".into()));
            }
            let result = post_with_images(client, api, user, &slug, known_images).await;
            if matches!(result, Err(Failure::Network(_))) {
                down.store(true, Ordering::Relaxed);
            }
            result
        }
    }))
    .buffer_unordered(AT_ONCE);
    let mut first_failure = None;
    let mut since_saved = 0;
    while let Some(result) = results.next().await {
        match result {
            Ok((post, images)) => {
                for (url, image) in images {
                    let kept = match image {
                        Ok(bytes) => keep_image(folder, &url, &bytes),
                        Err(reason) => Err(reason),
                    };
                    cache.images.insert(url, kept);
                }
                cache.posts.insert(post.url_slug.clone(), post);
                since_saved += 1;
                if since_saved >= 25 {
                    // So that a run killed outright loses little.
                    let _ = save_cache(folder, cache);
                    since_saved = 0;
                }
                if cache.posts.len().is_multiple_of(20) || cache.posts.len() == total {
                    progress(&format!("velog: {}/{total} posts fetched", cache.posts.len()));
                }
            }
            Err(failure) => {
                if first_failure.is_none() || matches!(failure, Failure::Answer(_)) {
                    first_failure = Some(failure);
                }
            }
        }
    }
    first_failure.map_or(Ok(()), Err)
}

/// One post and the images its body and thumbnail show (those not had yet):
/// each image's bytes, or why it cannot be had (gone from the server).
async fn post_with_images(
    client: &reqwest::Client,
    api: &str,
    user: &str,
    slug: &str,
    known: &HashSet<String>,
) -> Result<(Post, Vec<(String, Result<Vec<u8>, String>)>), Failure> {
    let data = graphql(client, api, POST, serde_json::json!({ "username": user, "url_slug": slug })).await?;
    let value = data.get("post").cloned().unwrap_or_default();
    if value.is_null() {
        return Err(Failure::Answer(format!("Velog does not know the post `{slug}` it listed")));
    }
    let mut post: Post = serde_json::from_value(value)
        .map_err(|e| Failure::Answer(format!("the post `{slug}` is not what Velog answers: {e}")))?;
    if post.url_slug.is_empty() {
        post.url_slug = slug.to_string();
    }
    let mut images = Vec::new();
    let mut wanted = image_urls(post.body.as_deref().unwrap_or(""));
    wanted.extend(post.thumbnail.iter().filter(|t| super::download::is_web(t)).cloned());
    let mut seen = HashSet::new();
    for url in wanted {
        if known.contains(&url) || !seen.insert(url.clone()) {
            continue;
        }
        images.push((url.clone(), super::download::get(client, &url).await.map_err(Failure::Network)?));
    }
    Ok((post, images))
}

/// Asks the API; the answer's `data`.
async fn graphql(
    client: &reqwest::Client,
    api: &str,
    query: &str,
    variables: serde_json::Value,
) -> Result<serde_json::Value, Failure> {
    let body = serde_json::json!({ "query": query, "variables": variables }).to_string();
    let mut last = String::new();
    // A request the network drops is asked once more before the run stops.
    for attempt in 0..2 {
        if attempt > 0 {
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let sent = client.post(api).header("content-type", "application/json").body(body.clone()).send().await;
        let response = match sent {
            Ok(response) => response,
            Err(e) => {
                last = format!("{api}: {e}");
                continue;
            }
        };
        let status = response.status();
        let bytes = match response.bytes().await {
            Ok(bytes) => bytes,
            Err(e) => {
                last = format!("{api}: {e}");
                continue;
            }
        };
        if status.is_server_error() || status.as_u16() == 429 {
            last = format!("{api} answered {status}");
            continue;
        }
        let answer: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| Failure::Answer(format!("{api} answered {status} with something not JSON ({e})")))?;
        if let Some(errors) = answer.get("errors").filter(|e| !e.is_null()) {
            return Err(Failure::Answer(format!("{api} refused the query: {errors}")));
        }
        return answer
            .get("data")
            .cloned()
            .ok_or_else(|| Failure::Answer(format!("{api} answered {status} without `data`")));
    }
    Err(Failure::Network(last))
}

/// The addresses of the images a Markdown body shows: `![alt](url)` and
/// `<img src="url">`.
fn image_urls(body: &str) -> Vec<String> {
    let mut urls = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("](") {
        let before = &rest[..at];
        let after = &rest[at + 2..];
        let end = after.find([')', ' ', '\n']).unwrap_or(after.len());
        if before.rfind("![").is_some_and(|open| !before[open..].contains('\n'))
            && super::download::is_web(&after[..end])
        {
            urls.push(after[..end].to_string());
        }
        rest = &after[end.min(after.len())..];
    }
    let mut rest = body;
    while let Some(at) = rest.find("<img") {
        let tag = &rest[at..rest[at..].find('>').map_or(rest.len(), |end| at + end)];
        if let Some(src) =
            tag.split("src=\"").nth(1).and_then(|s| s.split('"').next()).filter(|s| super::download::is_web(s))
        {
            urls.push(src.to_string());
        }
        rest = &rest[at + 4..];
    }
    urls
}

/// Keeps a downloaded image under `.hanji-import-velog/`; its file's name there.
fn keep_image(folder: &Folder, url: &str, bytes: &[u8]) -> Result<String, String> {
    let name = format!("{CACHE_FILES}/{:032x}", crate::digest::of_bytes(url.as_bytes()));
    let path = SitePath::new(&name).map_err(|e| e.to_string())?;
    folder.write(&path, bytes, Durable::Flushed).map_err(|e| format!("cannot keep it: {e}"))?;
    Ok(name)
}

/// The fetched posts as entries, newest first.
fn entries(user: &str, cache: &Cache, folder: &Folder, report: &mut Report) -> Vec<Entry> {
    let mut taken = HashSet::new();
    let mut out = Vec::new();
    for (_, slug) in &cache.listed {
        let Some(post) = cache.posts.get(slug) else { continue };
        let source = format!("https://velog.io/@{user}/{slug}");
        let name = if SitePath::new(slug).is_ok() && !slug.contains('/') && !slug.starts_with('.') {
            slug.clone()
        } else {
            slug_of(&post.title, "post")
        };
        let mut entry = Entry {
            title: post.title.clone(),
            slug: unique(name, &mut taken),
            date: post.released_at.clone(),
            updated: post.updated_at.clone().filter(|u| Some(u) != post.released_at.as_ref()),
            draft: post.is_private == Some(true),
            tags: post.tags.clone().unwrap_or_default(),
            summary: post.short_description.clone().filter(|s| !s.trim().is_empty()),
            series: post.series.as_ref().map(|s| s.name.clone()).filter(|n| !n.is_empty()),
            source: source.clone(),
            ..Entry::default()
        };
        if !entry.draft {
            entry.aliases.push(format!("/@{user}/{slug}"));
        }
        let mut body = post.body.clone().unwrap_or_default();
        if post.is_markdown == Some(false) {
            let converted = super::html::to_markdown(&body);
            body = converted.markdown;
            report.note(&source, "written in Velog's old HTML editor: converted to Markdown");
        }
        let mut wanted = image_urls(&body);
        wanted.extend(post.thumbnail.iter().filter(|t| super::download::is_web(t)).cloned());
        for url in wanted {
            let Some(kept) = cache.images.get(&url) else { continue };
            let bytes = kept.as_ref().ok().and_then(|name| SitePath::new(name).ok()).and_then(|p| folder.read(&p).ok());
            let Some(bytes) = bytes else {
                let why = kept.as_ref().err().cloned().unwrap_or_else(|| "its download is gone".into());
                report.note(&source, super::download::not_downloaded(&url, &why));
                continue;
            };
            let file = entry.add_file(&super::download::name_in(&url), bytes);
            body = body.replace(&url, &file);
            if post.thumbnail.as_deref() == Some(url.as_str()) {
                entry.cover = Some(file);
            }
        }
        entry.body = body;
        out.push(entry);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_names_a_velog_user() {
        assert_eq!(user_of("velog:@velopert").as_deref(), Some("velopert"));
        assert_eq!(user_of("velog:velopert").as_deref(), Some("velopert"));
        assert_eq!(user_of("https://velog.io/@my_name/some-post").as_deref(), Some("my_name"));
        assert_eq!(user_of("velog:@"), None);
        assert_eq!(user_of("velog:@a/../../b").as_deref(), Some("a"));
        assert_eq!(user_of("velog:@a b"), None);
        assert_eq!(user_of("wordpress.xml"), None);
        assert_eq!(user_of("notes/velog.io/x"), None);
    }

    #[test]
    fn images_are_found_in_markdown_and_html() {
        let body = "![a](https://velog.velcdn.com/images/u/post/1/a.png)\n[link](https://example.com/x.png)\n<img src=\"https://images.velog.io/b.jpg\" width=\"3\">\n![local](a.png) ![t](https://x.io/c.gif \"title\")";
        assert_eq!(
            image_urls(body),
            ["https://velog.velcdn.com/images/u/post/1/a.png", "https://x.io/c.gif", "https://images.velog.io/b.jpg"]
        );
    }
}

//! WordPress's export, WXR (Tools → Export: RSS 2.0 with the `wp:`
//! elements of wordpress.org/export/1.2/), read with `quick-xml`: posts and
//! pages with their status (drafts, private and password-protected posts
//! become drafts), categories and tags, authors by their display name, dates
//! with the offset `post_date` and `post_date_gmt` give, the excerpt, the
//! featured image (`_thumbnail_id`), old permalinks as aliases, and images
//! of the old site taken from a copy of its `wp-content/uploads`, or else
//! downloaded (`download`). A link by WordPress's own number (`/?p=12`,
//! `/?page_id=2`) leads to the old address of the post it names, which the
//! new blog keeps; comments are not imported, and the report says how many.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use quick_xml::events::Event;

use super::download::{self, Downloader};
use super::report::Report;
use super::{Entry, Export, html, shortcodes, slug_of, unique};

/// Whether `text` is a WXR file.
pub(crate) fn is_wxr(text: &str) -> bool {
    let head = &text[..crate::text::floor_char_boundary(text, text.len().min(8192))];
    head.contains("<rss") && (head.contains("wordpress.org/export/") || head.contains("<wp:wxr_version>"))
}

/// One `<item>` as the file has it.
#[derive(Debug, Default)]
struct Item {
    title: String,
    link: String,
    creator: String,
    content: String,
    excerpt: String,
    id: u64,
    date: String,
    date_gmt: String,
    modified: String,
    modified_gmt: String,
    name: String,
    status: String,
    kind: String,
    parent: u64,
    password: String,
    attachment_url: String,
    /// Approved comments.
    comments: usize,
    /// (domain, name)
    terms: Vec<(String, String)>,
    meta: Vec<(String, String)>,
}

/// The channel: the site and its items.
#[derive(Debug, Default)]
struct Channel {
    title: String,
    link: String,
    description: String,
    language: String,
    /// Author login → display name.
    authors: HashMap<String, String>,
    items: Vec<Item>,
}

/// Reads the WXR `text`; images are taken from `uploads` (a copy of the
/// old site's `wp-content/uploads`) when given, else downloaded by
/// `downloader` (None: their links stay).
pub(crate) fn read(
    text: &str,
    uploads: Option<&Path>,
    downloader: Option<&Downloader>,
    report: &mut Report,
) -> Result<Export, String> {
    let channel = parse(text)?;
    let mut attachments: HashMap<u64, (String, String)> = HashMap::new();
    let mut children: HashMap<u64, Vec<u64>> = HashMap::new();
    for item in channel.items.iter().filter(|i| i.kind == "attachment") {
        attachments.insert(item.id, (item.attachment_url.clone(), html::text(&item.title)));
        children.entry(item.parent).or_default().push(item.id);
    }
    let site = channel.link.trim_end_matches('/').to_string();
    // Each published post's and page's old address by its number, which the new blog keeps.
    let permalinks: HashMap<u64, String> = channel
        .items
        .iter()
        .filter(|i| matches!(i.kind.as_str(), "post" | "page") && matches!(i.status.as_str(), "publish" | "future"))
        .filter(|i| i.password.is_empty())
        .filter_map(|i| site_path(&i.link, &site).filter(|p| !p.is_empty()).map(|p| (i.id, format!("/{p}/"))))
        .collect();
    let old = OldSite { address: &site, permalinks: &permalinks };
    let mut taken = HashSet::new();
    let mut pages_taken = HashSet::new();
    let mut entries = Vec::new();
    for item in &channel.items {
        if !matches!(item.kind.as_str(), "post" | "page") {
            continue;
        }
        let source = format!("item {} \"{}\" ({})", item.id, html::text(&item.title), item.link);
        if matches!(item.status.as_str(), "trash" | "auto-draft" | "inherit") {
            report.note(&source, format!("a {} {}: not imported", item.status, item.kind));
            continue;
        }
        let context = shortcodes::Context {
            attachments: &attachments,
            children: children.get(&item.id).map(Vec::as_slice).unwrap_or(&[]),
        };
        let taken = if item.kind == "page" { &mut pages_taken } else { &mut taken };
        let images = Images { uploads, downloader, ..Images::default() };
        let entry = entry(item, &channel, &old, &context, images, taken, &source, report);
        entries.push(entry);
    }
    Ok(Export {
        platform: "WordPress",
        site,
        title: html::text(&channel.title),
        description: html::text(&channel.description),
        locale: locale(&channel.language),
        entries,
    })
}

/// The old site: its address, and the old address of each post and page
/// that the new blog keeps, by WordPress's number.
struct OldSite<'a> {
    address: &'a str,
    permalinks: &'a HashMap<u64, String>,
}

impl OldSite<'_> {
    /// The number a link names in WordPress's own form (`/?p=12`,
    /// `https://old.example/?page_id=2`), on this site.
    fn numbered(&self, url: &str) -> Option<u64> {
        let strip = |url: &str| url.split_once("://").map_or(url, |(_, rest)| rest).to_string();
        let rest = strip(url);
        let path = match rest.strip_prefix(&strip(self.address)) {
            Some(path) => path.to_string(),
            None if url.starts_with('/') && !url.starts_with("//") => url.to_string(),
            None => return None,
        };
        let (before, query) = path.split_once('?')?;
        if !matches!(before, "" | "/" | "/index.php") {
            return None;
        }
        let query = query.split('#').next().unwrap_or("");
        query.split('&').find_map(|pair| match pair.split_once('=') {
            Some(("p" | "page_id", id)) => id.parse().ok(),
            _ => None,
        })
    }
}

/// `en` → `en-US`, `ko-KR` as it is.
fn locale(language: &str) -> String {
    match language.trim() {
        "" | "en" => "en-US".into(),
        "ko" => "ko-KR".into(),
        other => other.to_string(),
    }
}

#[allow(clippy::too_many_arguments, reason = "one item and what it refers to")]
fn entry(
    item: &Item,
    channel: &Channel,
    site: &OldSite,
    context: &shortcodes::Context,
    mut images: Images,
    taken: &mut HashSet<String>,
    source: &str,
    report: &mut Report,
) -> Entry {
    let page = item.kind == "page";
    let mut title = html::text(&item.title);
    if title.is_empty() {
        title = crate::text::percent_decode(&item.name).replace('-', " ");
        report.note(source, format!("no title: titled \"{title}\" after its address"));
    } else if item.title.contains('<') {
        report.note(source, "the title's markup (HTML) is plain text here");
    }
    let old_path = site_path(&item.link, site.address);
    let slug = match (&old_path, page) {
        (Some(path), true) if !path.is_empty() => {
            path.split('/').map(crate::text::percent_decode).collect::<Vec<_>>().join("/")
        }
        _ => match crate::text::percent_decode(&item.name) {
            name if name.is_empty() => slug_of(&title, if page { "page" } else { "post" }),
            name => name,
        },
    };
    let slug = unique(slug, taken);
    let draft = match item.status.as_str() {
        "publish" | "future" => false,
        "private" => {
            report.note(source, "private on WordPress: a draft here, so that it is not published");
            true
        }
        "draft" | "pending" => true,
        other => {
            report.note(source, format!("status `{other}`: imported as a draft"));
            true
        }
    };
    let draft = draft || {
        let protected = !item.password.is_empty();
        if protected {
            report.note(
                source,
                "password-protected on WordPress: a draft here (a static page cannot ask for a password)",
            );
        }
        protected
    };
    if item.status == "future" {
        report.note(source, "scheduled on WordPress: published from its date");
    }
    let mut entry = Entry {
        page,
        title,
        slug,
        date: date(&item.date, &item.date_gmt),
        updated: date(&item.modified, &item.modified_gmt),
        draft,
        source: source.to_string(),
        ..Entry::default()
    };
    if entry.updated == entry.date {
        entry.updated = None;
    }
    for (domain, name) in &item.terms {
        let name = html::text(name);
        match domain.as_str() {
            "post_tag" if !entry.tags.contains(&name) => entry.tags.push(name),
            "category" if name != "Uncategorized" && !entry.categories.contains(&name) => entry.categories.push(name),
            _ => {}
        }
    }
    if !item.creator.is_empty() {
        entry.authors.push(channel.authors.get(&item.creator).cloned().unwrap_or_else(|| item.creator.clone()));
    }
    let summary = html::text(&item.excerpt);
    entry.summary = (!summary.is_empty()).then_some(summary);
    if !page
        && !draft
        && let Some(path) = old_path.filter(|p| !p.is_empty())
    {
        entry.aliases.push(format!("/{}/", crate::text::percent_decode(&path)));
    }
    let cover = item
        .meta
        .iter()
        .find(|(key, _)| key == "_thumbnail_id")
        .and_then(|(_, id)| id.trim().parse::<u64>().ok())
        .and_then(|id| context.attachments.get(&id));
    let mut notes = Vec::new();
    let body_html = shortcodes::to_html(&item.content, context, &mut notes);
    let mut shown = html::image_sources(&body_html);
    shown.extend(cover.map(|(url, _)| url.clone()));
    images.download(&shown);
    if let Some((url, _)) = cover {
        entry.cover = Some(images.take(url, true, &mut entry).unwrap_or_else(|| url.clone()));
    }
    let mut unknown = Vec::new();
    let converted = html::convert(&body_html, &mut |url, image| match site.numbered(url).filter(|_| !image) {
        Some(id) => match site.permalinks.get(&id) {
            Some(permalink) => Some(permalink.clone()),
            None => {
                unknown.push((url.to_string(), id));
                None
            }
        },
        None => images.take(url, image, &mut entry),
    });
    entry.body = converted.markdown;
    // A note met more than once (a dynamic block used three times) is said once, counted.
    let mut counted: Vec<(String, usize)> = Vec::new();
    for note in notes {
        match counted.iter_mut().find(|(seen, _)| *seen == note) {
            Some((_, n)) => *n += 1,
            None => counted.push((note, 1)),
        }
    }
    for (note, n) in counted {
        report.note(source, if n > 1 { format!("{note} ({n} times)") } else { note });
    }
    report.conversion(source, &converted.kept_html, &converted.dropped);
    if !images.remote.is_empty() {
        report.note(
            source,
            format!(
                "{} file(s) stay on the old site ({}): give --uploads with a copy of its wp-content/uploads",
                images.remote.len(),
                images.remote.join(", ")
            ),
        );
    }
    for url in images.missing {
        report.note(source, format!("{url} is not in the uploads folder: the link stays on the old site"));
    }
    for (url, why) in images.failed {
        report.note(source, download::not_downloaded(&url, &why));
    }
    for (url, id) in unknown {
        report.note(
            source,
            format!("the link {url} names item {id}, not a published post or page of the export: it stays, and leads nowhere after the move"),
        );
    }
    if item.comments > 0 {
        report.note(
            source,
            format!(
                "{} comment(s) not imported (a static site keeps none; see Comments for giscus or utterances)",
                item.comments
            ),
        );
    }
    entry
}

/// The files one post shows or links to, taken into its bundle: from the
/// old site's uploads, else (images only) downloaded.
#[derive(Default)]
struct Images<'a> {
    uploads: Option<&'a Path>,
    downloader: Option<&'a Downloader>,
    /// Upload path, or downloaded image's address → how the post links to it.
    files: HashMap<String, String>,
    /// Images downloaded for the post: address → bytes, or why not.
    downloaded: HashMap<String, Result<Vec<u8>, String>>,
    /// Images left on the old site, for want of `--uploads` (offline).
    remote: Vec<String>,
    /// Files not in the uploads folder (and not downloaded).
    missing: Vec<String>,
    /// Images whose download failed: address, why.
    failed: Vec<(String, String)>,
}

impl Images<'_> {
    /// Downloads those of the images `shown` that the uploads do not hold.
    fn download(&mut self, shown: &[String]) {
        let Some(downloader) = self.downloader else { return };
        let wanted: Vec<String> = shown
            .iter()
            .filter(|url| download::is_web(url) && self.upload(url).is_none() && !self.downloaded.contains_key(*url))
            .cloned()
            .collect();
        if !wanted.is_empty() {
            self.downloaded.extend(downloader.fetch(&wanted));
        }
    }

    /// The bytes of the upload at `url` in the uploads folder, and its path there.
    fn upload(&self, url: &str) -> Option<(String, Vec<u8>)> {
        let upload = upload_path(url)?;
        let path = Path::new(&upload);
        let bytes = crate::fs::is_plain(path).then(|| crate::fs::read(&self.uploads?.join(path)).ok()).flatten()?;
        Some((upload, bytes))
    }

    /// How the post links to the file at `url` (taken into the entry), or
    /// None to keep the URL (not an upload nor an image, or not had).
    fn take(&mut self, url: &str, image: bool, entry: &mut Entry) -> Option<String> {
        let upload = upload_path(url);
        for key in [upload.as_deref(), Some(url)].into_iter().flatten() {
            if let Some(link) = self.files.get(key) {
                return Some(link.clone());
            }
        }
        if let Some((upload, bytes)) = self.upload(url) {
            let link = entry.add_file(upload.rsplit('/').next().unwrap_or("file"), bytes);
            self.files.insert(upload, link.clone());
            return Some(link);
        }
        match self.downloaded.get(url).filter(|_| image) {
            Some(Ok(bytes)) => {
                let link = entry.add_file(&download::name_in(url), bytes.clone());
                self.files.insert(url.to_string(), link.clone());
                return Some(link);
            }
            Some(Err(why)) => {
                if !self.failed.iter().any(|(failed, _)| failed == url) {
                    self.failed.push((url.to_string(), why.clone()));
                }
                return None;
            }
            None => {}
        }
        if upload.is_some() {
            let list = if self.uploads.is_some() { &mut self.missing } else { &mut self.remote };
            if (image || self.uploads.is_some()) && !list.contains(&url.to_string()) {
                list.push(url.to_string());
            }
        }
        None
    }
}

/// The path of an upload under `wp-content/uploads/` (or of a
/// WordPress.com site's `*.files.wordpress.com`), without its query
/// (`?w=604`, a resized copy), decoded.
fn upload_path(url: &str) -> Option<String> {
    let url = url.split(['?', '#']).next()?;
    let rest =
        url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")).or_else(|| url.strip_prefix("//"))?;
    let (host, path) = rest.split_once('/')?;
    let path = match path.split_once("wp-content/uploads/") {
        Some((_, after)) => after,
        None if host.ends_with(".files.wordpress.com") => path,
        None => return None,
    };
    let path = crate::text::percent_decode(path);
    (!path.is_empty() && !path.ends_with('/')).then_some(path)
}

/// The path of `link` under the site at `site` (`https://a.example/2010/01/x/`
/// → `2010/01/x`); None for a link with a query (`/?p=12`, a draft's).
fn site_path(link: &str, site: &str) -> Option<String> {
    let strip = |url: &str| url.split_once("://").map(|(_, rest)| rest.to_string()).unwrap_or_else(|| url.to_string());
    let (link, site) = (strip(link.trim()), strip(site));
    let rest = link.strip_prefix(&site).or_else(|| link.split_once('/').map(|(_, path)| path))?;
    if rest.contains('?') || rest.contains('#') {
        return None;
    }
    Some(rest.split('/').filter(|part| !part.is_empty()).collect::<Vec<_>>().join("/"))
}

/// `2010-08-06 08:09:39` with the offset from its GMT twin:
/// `2010-08-06T08:09:39-07:00`; without an offset when the GMT time is
/// missing (`0000-00-00 00:00:00`, as a draft has it).
fn date(local: &str, gmt: &str) -> Option<String> {
    let parse = |text: &str| text.trim().replace(' ', "T").parse::<jiff::civil::DateTime>().ok();
    let local = parse(local)?;
    let shown = local.strftime("%Y-%m-%dT%H:%M:%S").to_string();
    let Some(gmt) = parse(gmt) else { return Some(shown) };
    let seconds = local.duration_since(gmt).as_secs();
    // To the quarter hour, as time zones are.
    let minutes = ((seconds as f64 / 900.0).round() as i64) * 15;
    if minutes.abs() > 18 * 60 {
        return Some(shown);
    }
    let sign = if minutes < 0 { '-' } else { '+' };
    Some(format!("{shown}{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60))
}

/// The channel of a WXR file.
fn parse(text: &str) -> Result<Channel, String> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut channel = Channel::default();
    let mut stack: Vec<String> = Vec::new();
    let mut value = String::new();
    let mut item: Option<Item> = None;
    let mut author: (String, String) = Default::default();
    let mut meta: (String, String) = Default::default();
    let mut term_domain = String::new();
    let broken = |reader: &quick_xml::Reader<&[u8]>, error: &dyn std::fmt::Display| {
        let at = usize::try_from(reader.error_position()).unwrap_or(0).min(text.len());
        let at = crate::text::floor_char_boundary(text, at);
        let (line, _) = crate::text::line_column(text, at);
        format!("the XML is broken at line {line}: {error}")
    };
    loop {
        let event = reader.read_event().map_err(|e| broken(&reader, &e))?;
        match event {
            Event::Start(start) => {
                let name = String::from_utf8_lossy(start.name().as_ref()).into_owned();
                value.clear();
                match name.as_str() {
                    "item" => item = Some(Item::default()),
                    "category" => {
                        term_domain = start
                            .attributes()
                            .flatten()
                            .find(|a| a.key.as_ref() == b"domain")
                            .map(|a| String::from_utf8_lossy(&a.value).into_owned())
                            .unwrap_or_default();
                    }
                    _ => {}
                }
                stack.push(name);
            }
            Event::Empty(_) => value.clear(),
            Event::Text(text) => value.push_str(&text.xml10_content().map_err(|e| broken(&reader, &e))?),
            Event::CData(data) => value.push_str(&data.decode().map_err(|e| broken(&reader, &e))?),
            Event::GeneralRef(reference) => {
                let name = reference.decode().map_err(|e| broken(&reader, &e))?;
                match reference.resolve_char_ref() {
                    Ok(Some(c)) => value.push(c),
                    _ => match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(resolved) => value.push_str(resolved),
                        None => {
                            value.push('&');
                            value.push_str(&name);
                            value.push(';');
                        }
                    },
                }
            }
            Event::End(_) => {
                let name = stack.pop().unwrap_or_default();
                let parent = stack.last().map(String::as_str).unwrap_or("");
                let text = std::mem::take(&mut value);
                if name == "item" {
                    if let Some(done) = item.take() {
                        channel.items.push(done);
                    }
                    continue;
                }
                match (parent, item.as_mut()) {
                    ("item", Some(item)) => field(item, &name, text, &term_domain),
                    ("wp:comment", Some(item)) if name == "wp:comment_approved" && text.trim() == "1" => {
                        item.comments += 1;
                    }
                    ("wp:postmeta", Some(item)) => match name.as_str() {
                        "wp:meta_key" => meta.0 = text,
                        "wp:meta_value" => {
                            meta.1 = text;
                            item.meta.push(std::mem::take(&mut meta));
                        }
                        _ => {}
                    },
                    ("wp:author", _) => match name.as_str() {
                        "wp:author_login" => author.0 = text,
                        "wp:author_display_name" => author.1 = text,
                        _ => {}
                    },
                    ("channel", None) => match name.as_str() {
                        "title" => channel.title = text,
                        "link" => channel.link = text,
                        "description" => channel.description = text,
                        "language" => channel.language = text,
                        "wp:author" => {
                            let (login, display) = std::mem::take(&mut author);
                            let display = if display.trim().is_empty() { login.clone() } else { display };
                            channel.authors.insert(login, display);
                        }
                        _ => {}
                    },
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if channel.items.is_empty() && channel.link.is_empty() {
        return Err("it has no <channel> with items: is it a whole WordPress export?".into());
    }
    Ok(channel)
}

/// One field of an item.
fn field(item: &mut Item, name: &str, text: String, term_domain: &str) {
    let number = |text: &str| text.trim().parse().unwrap_or(0);
    match name {
        "title" => item.title = text,
        "link" => item.link = text.trim().to_string(),
        "dc:creator" => item.creator = text.trim().to_string(),
        "content:encoded" => item.content = text,
        "excerpt:encoded" => item.excerpt = text,
        "wp:post_id" => item.id = number(&text),
        "wp:post_date" => item.date = text,
        "wp:post_date_gmt" => item.date_gmt = text,
        "wp:post_modified" => item.modified = text,
        "wp:post_modified_gmt" => item.modified_gmt = text,
        "wp:post_name" => item.name = text.trim().to_string(),
        "wp:status" => item.status = text.trim().to_string(),
        "wp:post_type" => item.kind = text.trim().to_string(),
        "wp:post_parent" => item.parent = number(&text),
        "wp:post_password" => item.password = text,
        "wp:attachment_url" => item.attachment_url = text.trim().to_string(),
        "category" => item.terms.push((term_domain.to_string(), text)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_keep_the_offset_of_their_gmt_twin() {
        assert_eq!(date("2010-08-06 08:09:39", "2010-08-06 15:09:39").as_deref(), Some("2010-08-06T08:09:39-07:00"));
        assert_eq!(date("2024-01-01 09:00:00", "2024-01-01 00:00:00").as_deref(), Some("2024-01-01T09:00:00+09:00"));
        assert_eq!(date("2024-01-01 05:30:00", "2024-01-01 00:00:00").as_deref(), Some("2024-01-01T05:30:00+05:30"));
        assert_eq!(date("2013-04-09 11:20:39", "0000-00-00 00:00:00").as_deref(), Some("2013-04-09T11:20:39"));
        assert_eq!(date("0000-00-00 00:00:00", ""), None);
    }

    #[test]
    fn old_addresses_and_uploads_are_read_from_urls() {
        let site = "https://old.example";
        assert_eq!(site_path("https://old.example/2010/08/06/hello/", site).as_deref(), Some("2010/08/06/hello"));
        assert_eq!(site_path("https://old.example//greek/x/", site).as_deref(), Some("greek/x"));
        assert_eq!(site_path("https://old.example/?p=1164", site), None);
        assert_eq!(
            upload_path("https://old.example/wp-content/uploads/2013/09/a%20b.jpg?w=300").as_deref(),
            Some("2013/09/a b.jpg")
        );
        assert_eq!(
            upload_path("https://x.files.wordpress.com/2008/06/100_5478.jpg").as_deref(),
            Some("2008/06/100_5478.jpg")
        );
        assert_eq!(upload_path("https://codex.wordpress.org/Embeds"), None);
    }

    #[test]
    fn links_by_number_are_read_on_the_site_only() {
        let permalinks = HashMap::new();
        let site = OldSite { address: "https://old.example", permalinks: &permalinks };
        assert_eq!(site.numbered("https://old.example/?p=12"), Some(12));
        assert_eq!(site.numbered("http://old.example/?page_id=2#top"), Some(2));
        assert_eq!(site.numbered("/?p=7&preview=true"), Some(7));
        assert_eq!(site.numbered("https://old.example/index.php?p=3"), Some(3));
        assert_eq!(site.numbered("https://other.example/?p=12"), None);
        assert_eq!(site.numbered("https://old.example/2010/x/?p=12"), None);
        assert_eq!(site.numbered("https://old.example/?s=p"), None);
    }

    #[test]
    fn a_broken_file_says_where() {
        let error = parse("<rss><channel>\n<item><title>a</titel></item></channel></rss>").unwrap_err();
        assert!(error.contains("line 2"), "{error}");
    }
}

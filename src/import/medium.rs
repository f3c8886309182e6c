//! Medium's export (Settings → Security and apps → Download your
//! information: a ZIP with one HTML file per story under `posts/`, drafts
//! named `draft_…`): each story's title, subtitle, body, date, author and
//! canonical address, tags where the file links them; embedded gists become
//! links to them. The export holds no images: each one a story shows is
//! downloaded from Medium's servers into its bundle (`download`), or, offline
//! or failing, stays there (noted).

use std::collections::HashSet;

use super::archive::Archive;
use super::download::{self, Downloader};
use super::report::Report;
use super::{Entry, Export, html, slug_of, unique};

/// Whether the archive is a Medium export: HTML files under `posts/`.
pub(crate) fn is_medium(archive: &Archive) -> bool {
    archive.names().any(|name| post_file(name).is_some())
}

/// The file name of a story (`posts/2019-03-01_Title-abc123.html`, also
/// under a top folder the ZIP was made with).
fn post_file(name: &str) -> Option<&str> {
    let (folder, file) = name.rsplit_once('/')?;
    let in_posts = folder == "posts" || folder.ends_with("/posts");
    (in_posts && file.ends_with(".html")).then_some(file)
}

/// Reads every story of the export.
pub(crate) fn read(
    archive: &mut Archive,
    downloader: Option<&Downloader>,
    report: &mut Report,
) -> Result<Export, String> {
    for name in &archive.hostile {
        report.note(name, "an entry whose name leads out of the export: not read");
    }
    let names: Vec<String> = archive.names().filter(|n| post_file(n).is_some()).map(str::to_string).collect();
    let mut taken = HashSet::new();
    let mut entries = Vec::new();
    let mut author = String::new();
    for name in names {
        let file = post_file(&name).unwrap_or_default().to_string();
        let text = archive.text(&name)?;
        let entry = story(&file, &text, &mut taken, downloader, report);
        if author.is_empty()
            && let Some(first) = entry.authors.first()
        {
            author = first.clone();
        }
        entries.push(entry);
    }
    if entries.is_empty() {
        return Err("it has no stories under `posts/`".into());
    }
    let site = entries
        .iter()
        .find_map(|e| {
            e.aliases.first().and_then(|a| a.split('/').nth(1).filter(|p| p.starts_with('@'))).map(str::to_string)
        })
        .map(|user| format!("https://medium.com/{user}"))
        .unwrap_or_else(|| "https://medium.com".into());
    let title = if author.is_empty() { "Medium".to_string() } else { author };
    Ok(Export { platform: "Medium", site, title, description: String::new(), locale: "en-US".into(), entries })
}

/// One story's file.
fn story(
    file: &str,
    text: &str,
    taken: &mut HashSet<String>,
    downloader: Option<&Downloader>,
    report: &mut Report,
) -> Entry {
    let source = format!("posts/{file}");
    let document = html::parse(text);
    let first = |tag: &'static str, class: &'static str| {
        html::find_all(&document, &move |t, node| t == tag && (class.is_empty() || html::has_class(node, class)))
            .into_iter()
            .next()
    };
    let field = |name: &'static str| {
        html::find_all(&document, &move |t, node| {
            t == "section" && html::attr(node, "data-field").as_deref() == Some(name)
        })
        .into_iter()
        .next()
    };
    let title = first("h1", "p-name").map(|n| html::node_text(&n)).unwrap_or_default();
    let subtitle = field("subtitle").map(|n| html::node_text(&n)).filter(|s| !s.is_empty());
    let canonical = first("a", "p-canonical").and_then(|n| html::attr(&n, "href"));
    let published = first("time", "dt-published").and_then(|n| html::attr(&n, "datetime"));
    let author = first("a", "p-author").map(|n| html::node_text(&n)).filter(|a| !a.is_empty());
    let draft = file.starts_with("draft_");
    let title = if title.is_empty() {
        report.note(&source, "no title: titled after its file");
        file.trim_end_matches(".html").to_string()
    } else {
        title
    };
    // Named after the title, as Medium names the file (its date and id left out).
    let slug = unique(slug_of(&title, "story"), taken);
    let mut entry = Entry {
        title: title.clone(),
        slug,
        date: published,
        draft,
        summary: subtitle.clone(),
        authors: author.into_iter().collect(),
        source: source.clone(),
        ..Entry::default()
    };
    // Tags, where the file links them (`https://medium.com/tag/<name>`).
    for link in html::find_all(&document, &|t, node| {
        t == "a" && html::attr(node, "href").is_some_and(|h| h.contains("medium.com/tag/"))
    }) {
        let name = html::node_text(&link);
        if !name.is_empty() && !entry.tags.contains(&name) {
            entry.tags.push(name);
        }
    }
    if let Some(canonical) = &canonical
        && !draft
        && let Some((_, path)) = canonical.split_once("://").and_then(|(_, rest)| rest.split_once('/'))
    {
        entry.aliases.push(format!("/{}", crate::text::percent_decode(path.trim_end_matches('/'))));
        if let Some(id) = path.rsplit('-').next().filter(|id| is_id(id)) {
            entry.aliases.push(format!("/p/{id}"));
        }
    }
    let Some(body) = field("body") else {
        report.note(&source, "no body section (`data-field=\"body\"`): imported without text");
        return entry;
    };
    // The title and subtitle Medium repeats at the top of the body.
    for node in html::find_all(&body, &|t, node| {
        (t == "h3" && html::has_class(node, "graf--title")) || (t == "h4" && html::has_class(node, "graf--subtitle"))
    }) {
        let text = html::node_text(&node);
        if text == title || Some(&text) == subtitle.as_ref() {
            html::remove(&node);
        }
    }
    for node in html::find_all(&body, &|t, node| t == "div" && html::has_class(node, "section-divider")) {
        html::remove(&node);
    }
    let mut notes = Vec::new();
    let body_html = gists_as_links(&html::inner_html(&body), &mut notes);
    let mut remote = 0;
    let mut failed = Vec::new();
    let shown: Vec<String> = html::image_sources(&body_html).into_iter().filter(|url| download::is_web(url)).collect();
    let downloaded = downloader.map(|downloader| downloader.fetch(&shown)).unwrap_or_default();
    let mut files = std::collections::HashMap::new();
    let converted = html::convert(&body_html, &mut |url, image| {
        if !image {
            return None;
        }
        if let Some(link) = files.get(url) {
            return Some(String::clone(link));
        }
        match downloaded.get(url) {
            Some(Ok(bytes)) => {
                let link = entry.add_file(&download::name_in(url), bytes.clone());
                files.insert(url.to_string(), link.clone());
                Some(link)
            }
            Some(Err(why)) => {
                if !failed.iter().any(|(seen, _)| seen == url) {
                    failed.push((url.to_string(), why.clone()));
                }
                None
            }
            None => {
                if url.contains("medium.com/") {
                    remote += 1;
                }
                None
            }
        }
    });
    entry.body = converted.markdown;
    for note in notes {
        report.note(&source, note);
    }
    report.conversion(&source, &converted.kept_html, &converted.dropped);
    for (url, why) in failed {
        report.note(&source, download::not_downloaded(&url, &why));
    }
    if remote > 0 {
        report.note(&source, format!("{remote} image(s) stay on Medium's servers (the export has none of its images, and --offline downloads none)"));
    }
    entry
}

/// `<script src="https://gist.github.com/u/id.js"></script>` (how the
/// export keeps an embedded gist) as a link to the gist.
fn gists_as_links(body: &str, notes: &mut Vec<String>) -> String {
    const START: &str = "<script src=\"https://gist.github.com/";
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find(START) {
        out.push_str(&rest[..at]);
        let after = &rest[at + START.len()..];
        let Some(end) = after.find("</script>") else { break };
        let path = after[..after.find('"').unwrap_or(0)].trim_end_matches(".js");
        let url = format!("https://gist.github.com/{path}");
        notes.push(format!("the embedded gist {url} is a link to it (its code is on GitHub, not in the export)"));
        out.push_str(&format!("<p><a href=\"{url}\">{url}</a></p>"));
        rest = &after[end + "</script>".len()..];
    }
    out.push_str(rest);
    out
}

fn is_id(text: &str) -> bool {
    (10..=12).contains(&text.len()) && text.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stories_are_the_html_files_under_posts() {
        assert!(is_id("abc123def456") && !is_id("Plain") && !is_id("ABC123DEF456"));
        assert!(post_file("posts/draft_A-1a2b3c4d5e6f.html").is_some());
        assert!(post_file("medium-export/posts/2019-03-01_A.html").is_some());
        assert!(post_file("profile/profile.html").is_none());
    }

    #[test]
    fn gists_become_links() {
        let mut notes = Vec::new();
        let out =
            gists_as_links(r#"<figure><script src="https://gist.github.com/u/abc.js"></script></figure>"#, &mut notes);
        assert_eq!(
            out,
            r#"<figure><p><a href="https://gist.github.com/u/abc">https://gist.github.com/u/abc</a></p></figure>"#
        );
        assert_eq!(notes.len(), 1);
    }
}

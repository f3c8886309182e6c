//! Tistory's backup (Settings → Data management → Backup): the blog as
//! TTXML, the `<blog type="tattertools/1.1">` format Tistory inherited from
//! Tattertools and Textcube (whose exporter, `interface/owner/data/backup`,
//! is the format's definition), as an `.xml` file or inside a `.zip`. Each
//! `<post>`, `<notice>` and `<page>` with its id, address (`slogan`),
//! visibility, dates (Unix seconds), category, tags and attachments (their
//! bytes in base64 when the backup was made with files). Tistory's own
//! markup in the body becomes HTML first: image tokens
//! (`[##_1C|name|attrs|caption_##]`, `[##_Image|kage@…|…_##]`,
//! `[##_ImageGrid|…_##]`, `[##_Gallery|…_##]`), file tokens
//! (`[##_File|…_##]`), `[##_ATTACH_PATH_##]`, and the editor's "more" boxes
//! (`data-ke-type="moreLess"`) as `<details>`. Attachments are files of the
//! post's bundle; images on Kakao's servers (`kage@`, which the backup does
//! not hold) stay there, and the report says so.

use std::collections::HashSet;

use base64::Engine;
use quick_xml::events::Event;

use super::archive::Archive;
use super::report::Report;
use super::{Entry, Export, file_name, html, slug_of, unique};

/// Where Tistory serves `kage@` images from.
const KAKAO_CDN: &str = "https://blog.kakaocdn.net/dn/";

/// How deep the XML may nest (TTXML nests categories two deep and comments
/// two deep; anything near this is not a backup).
const DEPTH_LIMIT: usize = 64;

/// Whether `text` is a TTXML backup.
pub(crate) fn is_ttxml(text: &str) -> bool {
    let head = &text[..crate::text::floor_char_boundary(text, text.len().min(4096))];
    head.contains("<blog") && head.contains("tattertools/")
}

/// The TTXML file inside a ZIP, if it holds one.
pub(crate) fn ttxml_in(archive: &mut Archive) -> Option<String> {
    let names: Vec<String> =
        archive.names().filter(|n| n.to_ascii_lowercase().ends_with(".xml")).map(str::to_string).collect();
    names.into_iter().find(|name| archive.read(name).is_ok_and(|bytes| is_ttxml(&String::from_utf8_lossy(&bytes))))
}

/// An element of the XML: its name, attributes, text and children.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    text: String,
    children: Vec<Element>,
}

impl Element {
    fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The text of the child `name`, trimmed; empty if there is none.
    fn field(&self, name: &str) -> String {
        self.child(name).map(|c| c.text.trim().to_string()).unwrap_or_default()
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// The XML as a tree (its root element).
fn parse(text: &str) -> Result<Element, String> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack: Vec<Element> = vec![Element::default()];
    let broken = |reader: &quick_xml::Reader<&[u8]>, error: &dyn std::fmt::Display| {
        let at = usize::try_from(reader.error_position()).unwrap_or(0).min(text.len());
        let (line, _) = crate::text::line_column(text, crate::text::floor_char_boundary(text, at));
        format!("the XML is broken at line {line}: {error}")
    };
    let element = |start: &quick_xml::events::BytesStart, reader: &quick_xml::Reader<&[u8]>| Element {
        name: String::from_utf8_lossy(start.name().as_ref()).into_owned(),
        attrs: start
            .attributes()
            .flatten()
            .map(|a| {
                let value = a
                    .decoded_and_normalized_value(quick_xml::XmlVersion::Implicit1_0, reader.decoder())
                    .map(|v| v.into_owned())
                    .unwrap_or_default();
                (String::from_utf8_lossy(a.key.as_ref()).into_owned(), value)
            })
            .collect(),
        ..Element::default()
    };
    loop {
        let event = reader.read_event().map_err(|e| broken(&reader, &e))?;
        let top = stack.len() - 1;
        match event {
            Event::Start(start) => {
                if stack.len() > DEPTH_LIMIT {
                    return Err(format!("the XML nests deeper than {DEPTH_LIMIT} elements"));
                }
                stack.push(element(&start, &reader));
            }
            Event::Empty(start) => stack[top].children.push(element(&start, &reader)),
            Event::Text(text) => stack[top].text.push_str(&text.xml10_content().map_err(|e| broken(&reader, &e))?),
            Event::CData(data) => stack[top].text.push_str(&data.decode().map_err(|e| broken(&reader, &e))?),
            Event::GeneralRef(reference) => {
                let name = reference.decode().map_err(|e| broken(&reader, &e))?;
                match reference.resolve_char_ref() {
                    Ok(Some(c)) => stack[top].text.push(c),
                    _ => match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(resolved) => stack[top].text.push_str(resolved),
                        None => stack[top].text.push_str(&format!("&{name};")),
                    },
                }
            }
            Event::End(_) => {
                if stack.len() < 2 {
                    return Err(broken(&reader, &"a closing tag without its opening one"));
                }
                let done = stack.pop().unwrap_or_default();
                let parent = stack.len() - 1;
                stack[parent].children.push(done);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err("the XML ends before its elements are closed (a file cut short?)".into());
    }
    let mut document = stack.pop().unwrap_or_default();
    document.children.retain(|c| c.name == "blog");
    document.children.pop().ok_or_else(|| "it has no `<blog>` element".to_string())
}

/// Reads a TTXML backup.
pub(crate) fn read(text: &str, report: &mut Report) -> Result<Export, String> {
    let blog = parse(text)?;
    let setting = blog.child("setting");
    let name = setting.map(|s| s.field("name")).unwrap_or_default();
    let site = match setting.map(|s| s.field("secondaryDomain")).filter(|d| !d.is_empty()) {
        Some(domain) if setting.is_some_and(|s| s.field("defaultDomain") == "1") => format!("https://{domain}"),
        _ if !name.is_empty() => format!("https://{name}.tistory.com"),
        _ => "https://tistory.com".to_string(),
    };
    let time_zone = setting
        .map(|s| s.field("timezone"))
        .and_then(|tz| jiff::tz::TimeZone::get(&tz).ok())
        .unwrap_or_else(|| jiff::tz::TimeZone::get("Asia/Seoul").unwrap_or(jiff::tz::TimeZone::UTC));
    let mut taken = HashSet::new();
    let mut entries = Vec::new();
    for element in &blog.children {
        let kind = match element.name.as_str() {
            "post" => Kind::Post,
            "notice" => Kind::Notice,
            "page" => Kind::Page,
            _ => continue,
        };
        entries.push(entry(element, kind, &time_zone, &mut taken, report));
    }
    if entries.is_empty() {
        return Err("it has no posts (no `<post>` elements in `<blog>`)".into());
    }
    let title = setting.map(|s| s.field("title")).filter(|t| !t.is_empty()).unwrap_or_else(|| name.clone());
    let locale = match setting.map(|s| s.field("language")).unwrap_or_default().as_str() {
        "" | "ko" | "ko-KR" => "ko-KR".to_string(),
        other => other.replace('_', "-"),
    };
    Ok(Export {
        platform: "Tistory",
        site,
        title: if title.is_empty() { "Tistory".into() } else { title },
        description: setting.map(|s| html::text(&s.field("description"))).unwrap_or_default(),
        locale,
        entries,
    })
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Post,
    Notice,
    Page,
}

/// One attachment of a post: its name on Tistory, its file in the bundle and bytes.
struct Attachment {
    name: String,
    file: String,
    bytes: Option<Vec<u8>>,
    /// Its bytes are in the backup but cannot be read (noted already).
    damaged: bool,
}

/// One post, notice or page.
fn entry(
    element: &Element,
    kind: Kind,
    time_zone: &jiff::tz::TimeZone,
    taken: &mut HashSet<String>,
    report: &mut Report,
) -> Entry {
    let id = element.field("id");
    let title = element.field("title");
    let label = match kind {
        Kind::Post => "post",
        Kind::Notice => "notice",
        Kind::Page => "page",
    };
    let source = format!("{label} {id} \"{title}\"");
    let title = if title.is_empty() {
        report.note(&source, "no title: titled by its number");
        format!("{label} {id}")
    } else {
        title
    };
    let slogan = element
        .attr("slogan")
        .map(str::to_string)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| title.split_whitespace().collect::<Vec<_>>().join("-"));
    let mut entry = Entry {
        page: kind == Kind::Page,
        title: title.clone(),
        slug: unique(slug_of(&slogan, label), taken),
        source: source.clone(),
        ..Entry::default()
    };
    let date = |field: &str| {
        element
            .field(field)
            .parse::<i64>()
            .ok()
            .filter(|&seconds| seconds > 0)
            .and_then(|seconds| jiff::Timestamp::from_second(seconds).ok())
            .map(|at| at.to_zoned_datetime(time_zone.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string())
    };
    entry.date = date("published").or_else(|| date("created"));
    entry.updated = date("modified").filter(|m| Some(m) != entry.date.as_ref());
    match element.field("visibility").as_str() {
        "public" | "syndicated" | "2" | "3" | "" => {}
        "protected" | "1" => {
            entry.draft = true;
            report.note(&source, "protected by a password on Tistory: a draft here (a static page cannot ask for one)");
        }
        other => {
            entry.draft = true;
            report.note(&source, format!("{other} on Tistory: a draft here"));
        }
    }
    if kind != Kind::Page {
        let category = element.field("category");
        if !category.is_empty() {
            entry.categories.push(category);
        }
        for tag in element.all("tag") {
            let tag = tag.text.trim();
            if !tag.is_empty() && !entry.tags.iter().any(|t| t == tag) {
                entry.tags.push(tag.to_string());
            }
        }
    }
    if !entry.draft && !id.is_empty() {
        match kind {
            Kind::Post => {
                entry.aliases.push(format!("/{id}"));
                entry.aliases.push(format!("/entry/{slogan}"));
            }
            Kind::Notice => entry.aliases.push(format!("/notice/{id}")),
            Kind::Page => entry.aliases.push(format!("/pages/{slogan}")),
        }
    }
    let attachments = attachments(element, &source, report);
    let body = element.child("content").map(|c| c.text.as_str()).unwrap_or_default();
    let mut notes = Vec::new();
    let body = editor_blocks(&expand_tokens(body, &attachments, &mut notes));
    let mut kakao = 0;
    let converted = html::convert(&body, &mut |url, image| {
        if let Some(attachment) = attachment_of(url, &attachments) {
            return attachment.bytes.as_ref().map(|_| attachment.file.clone());
        }
        if image && url.contains("kakaocdn.net/") {
            kakao += 1;
        }
        None
    });
    entry.body = converted.markdown;
    for attachment in attachments.iter().filter(|a| a.bytes.is_none() && !a.damaged) {
        report.note(
            &source,
            format!(
                "the attachment {} is not in the backup (made without files?): links to it stay as they were",
                attachment.name
            ),
        );
    }
    entry.files = attachments.into_iter().filter_map(|a| a.bytes.map(|bytes| (a.file, bytes))).collect();
    for note in notes {
        report.note(&source, note);
    }
    report.conversion(&source, &converted.kept_html, &converted.dropped);
    if kakao > 0 {
        report.note(
            &source,
            format!(
                "{kakao} image(s) stay on Kakao's servers ({KAKAO_CDN}…): Tistory's backup does not hold images the new editor uploaded"
            ),
        );
    }
    entry
}

/// The post's attachments, each with a file name of its own in the bundle.
fn attachments(element: &Element, source: &str, report: &mut Report) -> Vec<Attachment> {
    let mut taken = HashSet::new();
    let mut out = Vec::new();
    for attachment in element.all("attachment") {
        let name = attachment.field("name");
        if name.is_empty() {
            continue;
        }
        let label = attachment.field("label");
        let file = unique(file_name(&label, &name), &mut taken);
        let mut damaged = false;
        let bytes = match attachment.child("content").map(|c| c.text.as_str()) {
            None => None,
            Some(encoded) => {
                let compact: String = encoded.chars().filter(|c| !c.is_ascii_whitespace()).collect();
                match base64::engine::general_purpose::STANDARD.decode(compact.as_bytes()) {
                    Ok(bytes) => Some(bytes),
                    Err(e) => {
                        report.note(source, format!("the attachment {name} is damaged in the backup ({e}): left out"));
                        damaged = true;
                        None
                    }
                }
            }
        };
        out.push(Attachment { name, file, bytes, damaged });
    }
    out
}

/// The attachment a link in the body points to: by its name alone, after
/// `[##_ATTACH_PATH_##]/`, or as the last part of a Tistory address.
fn attachment_of<'a>(url: &str, attachments: &'a [Attachment]) -> Option<&'a Attachment> {
    let last = url.split(['?', '#']).next().unwrap_or("").rsplit('/').next().unwrap_or("");
    attachments.iter().find(|a| a.name == url || (!last.is_empty() && a.name == last))
}

/// The body with Tistory's tokens as the HTML they show.
fn expand_tokens(body: &str, attachments: &[Attachment], notes: &mut Vec<String>) -> String {
    let body = body.replace("[##_ATTACH_PATH_##]/", "");
    let mut out = String::with_capacity(body.len());
    let mut rest = body.as_str();
    while let Some(at) = rest.find("[##_") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let Some(end) = after.find("_##]") else {
            out.push_str(&rest[at..]);
            rest = "";
            break;
        };
        let token = &after[..end];
        match token_html(token, attachments) {
            Some(html) => out.push_str(&html),
            None => {
                let kind = token.split('|').next().unwrap_or("");
                notes.push(format!("Tistory's `[##_{kind}…_##]` has no counterpart here: kept as text"));
                out.push_str(&format!("<p><code>{}</code></p>", escape(&format!("[##_{token}_##]"))));
            }
        }
        rest = &after[end + 4..];
    }
    out.push_str(rest);
    out
}

/// The HTML a token shows, or None for a kind Hanji does not know.
fn token_html(token: &str, attachments: &[Attachment]) -> Option<String> {
    let parts: Vec<&str> = token.split('|').collect();
    let kind = parts.first().copied().unwrap_or("");
    let is_file = |part: &str| part.starts_with("kage@") || attachments.iter().any(|a| a.name == part);
    let src = |part: &str| match part.strip_prefix("kage@") {
        Some(path) => format!("{KAKAO_CDN}{path}"),
        None => part.to_string(),
    };
    let legacy_images =
        kind.len() == 2 && kind.as_bytes()[0].is_ascii_digit() && matches!(kind.as_bytes()[1], b'L' | b'C' | b'R');
    match kind {
        _ if legacy_images || matches!(kind, "Image" | "ImageGrid" | "Gallery") => {
            // Each file is followed by its attributes (an attribute list, or
            // the new editor's JSON) and, in the old tokens, a caption.
            let mut figures = Vec::new();
            let mut index = 1;
            while index < parts.len() {
                let part = parts[index];
                if !is_file(part) {
                    index += 1;
                    continue;
                }
                let following: Vec<&str> = parts[index + 1..].iter().take_while(|p| !is_file(p)).copied().collect();
                let meta = Meta::of(&following, kind == "Image" || kind == "ImageGrid");
                figures.push(image_html(&src(part), &meta));
                index += 1 + following.len();
            }
            (!figures.is_empty()).then(|| format!("\n{}\n", figures.join("\n")))
        }
        "File" => {
            let part = parts.iter().skip(1).find(|p| is_file(p))?;
            let meta = Meta::of(&parts[2.min(parts.len())..], false);
            let name = meta.filename.clone().unwrap_or_else(|| part.rsplit('/').next().unwrap_or(part).to_string());
            Some(format!("<p><a href=\"{}\">{}</a></p>", escape(&src(part)), escape(&name)))
        }
        _ => None,
    }
}

/// What a token says of one image.
#[derive(Debug, Default)]
struct Meta {
    caption: Option<String>,
    alt: Option<String>,
    filename: Option<String>,
}

impl Meta {
    /// From the parts after a file: `width="…" filename="…"`, or JSON
    /// (`{"originWidth":…,"caption":"…","alt":"…"}`), then a caption
    /// (old tokens) where `caption_follows`' opposite holds.
    fn of(parts: &[&str], new_editor: bool) -> Meta {
        let mut meta = Meta::default();
        for (i, part) in parts.iter().enumerate() {
            let part = part.trim();
            if part.starts_with('{') {
                if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(part) {
                    let text = |key: &str| map.get(key).and_then(|v| v.as_str()).map(str::to_string);
                    meta.caption = text("caption").filter(|c| !c.is_empty());
                    meta.alt = text("alt").filter(|c| !c.is_empty());
                    meta.filename = text("filename");
                }
            } else if part.contains("=\"") {
                meta.filename = attribute(part, "filename").or(meta.filename);
                meta.alt = attribute(part, "alt").or(meta.alt);
            } else if !part.is_empty() && i > 0 && !new_editor && meta.caption.is_none() {
                meta.caption = Some(part.to_string());
            } else if !part.is_empty() && i > 1 && new_editor && meta.caption.is_none() {
                // `[##_Image|kage@…|style|attrs|caption|_##]` (the editor of 2019–2021).
                meta.caption = Some(part.to_string());
            }
        }
        meta
    }
}

/// The value of `name="…"` in an attribute list.
fn attribute(list: &str, name: &str) -> Option<String> {
    let start = list.find(&format!("{name}=\""))? + name.len() + 2;
    let end = list[start..].find('"')? + start;
    Some(list[start..end].to_string()).filter(|v| !v.is_empty())
}

fn image_html(src: &str, meta: &Meta) -> String {
    let alt = meta.alt.as_deref().or(meta.caption.as_deref()).unwrap_or("");
    let img = format!("<img src=\"{}\" alt=\"{}\">", escape(src), escape(alt));
    match &meta.caption {
        Some(caption) => format!("<figure>{img}<figcaption>{}</figcaption></figure>", escape(caption)),
        None => format!("<p>{img}</p>"),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The editor's blocks that need a script or its style sheet, as HTML that
/// shows the same without: a "more" box (`<div data-ke-type="moreLess">`
/// with its button and `moreless-content`) as `<details>`, a link card
/// (`<figure data-ke-type="opengraph">`) as a link with its title and
/// description.
fn editor_blocks(body: &str) -> String {
    if !body.contains("moreLess") && !body.contains("opengraph") {
        return body.to_string();
    }
    let document = html::parse(body);
    let kind = |node: &std::rc::Rc<markup5ever_rcdom::Node>| html::attr(node, "data-ke-type").unwrap_or_default();
    for node in html::find_all(&document, &|t, n| t == "div" && kind(n) == "moreLess") {
        let summary = html::attr(&node, "data-text-more").filter(|s| !s.is_empty()).unwrap_or_else(|| "더보기".into());
        let content = html::find_all(&node, &|t, n| t == "div" && html::has_class(n, "moreless-content"))
            .first()
            .map(html::inner_html)
            .unwrap_or_else(|| html::inner_html(&node));
        html::replace_with_html(&node, &format!("<details><summary>{}</summary>{content}</details>", escape(&summary)));
    }
    for node in html::find_all(&document, &|t, n| t == "figure" && kind(n) == "opengraph") {
        let text_of = |class: &'static str| {
            html::find_all(&node, &move |_, n| html::has_class(n, class))
                .first()
                .map(html::node_text)
                .unwrap_or_default()
        };
        let url = html::attr(&node, "data-og-url")
            .or_else(|| html::find_all(&node, &|t, _| t == "a").first().and_then(|a| html::attr(a, "href")))
            .unwrap_or_default();
        let title = Some(text_of("og-title")).filter(|t| !t.is_empty()).unwrap_or_else(|| url.clone());
        let description = text_of("og-desc");
        let mut card = format!("<p><a href=\"{}\">{}</a>", escape(&url), escape(&title));
        if !description.is_empty() {
            card.push_str(&format!(": {}", escape(&description)));
        }
        card.push_str("</p>");
        html::replace_with_html(&node, &card);
    }
    html::inner_html(&document)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attachment(name: &str, file: &str) -> Attachment {
        Attachment { name: name.into(), file: file.into(), bytes: Some(vec![1]), damaged: false }
    }

    #[test]
    fn image_tokens_of_every_editor_become_images() {
        let attachments = [attachment("cfile30.uf.11613F345148691C3095BD.png", "nextforge.png")];
        let mut notes = Vec::new();
        // The old editor's token (doortts/tistory-backup-extractor's fixture).
        let old = expand_tokens(
            r#"[##_1C|cfile30.uf.11613F345148691C3095BD.png|width="665" height="361" filename="nextforge.png" filemime="image/jpeg"|_##]"#,
            &attachments,
            &mut notes,
        );
        assert_eq!(old.trim(), r#"<p><img src="cfile30.uf.11613F345148691C3095BD.png" alt=""></p>"#);
        // The new editor's token with a caption in its JSON.
        let new = expand_tokens(
            r#"[##_Image|kage@cGOlMg/btsgne9VeuQ/90DFG1vvQ5VTZDgsqssTn0/img.png|CDM|1.3|{"originWidth":586,"originHeight":238,"style":"alignCenter","caption":"파이썬 튜터로 돌려서 확인한 일부분"}_##]"#,
            &attachments,
            &mut notes,
        );
        assert_eq!(
            new.trim(),
            "<figure><img src=\"https://blog.kakaocdn.net/dn/cGOlMg/btsgne9VeuQ/90DFG1vvQ5VTZDgsqssTn0/img.png\" alt=\"파이썬 튜터로 돌려서 확인한 일부분\"><figcaption>파이썬 튜터로 돌려서 확인한 일부분</figcaption></figure>"
        );
        // The 2019 editor's token: attribute list, then empty parts.
        let mid = expand_tokens(
            r#"[##_Image|kage@kKgAW/btqAwjydC1o/FHUMXMCYMTyACAeyT6cKDK/img.png|widthContent|data-origin-width="0" data-origin-height="0"|||_##]"#,
            &attachments,
            &mut notes,
        );
        assert!(mid.contains("<p><img src=\"https://blog.kakaocdn.net/dn/kKgAW/"), "{mid}");
        // Two images in one old token, each with a caption.
        let two = expand_tokens(
            "[##_2C|cfile30.uf.11613F345148691C3095BD.png|width=\"1\"|첫째|kage@a/b/img.png|width=\"2\"|둘째_##]",
            &attachments,
            &mut notes,
        );
        assert_eq!(two.matches("<figure>").count(), 2, "{two}");
        assert!(two.contains("<figcaption>둘째</figcaption>"), "{two}");
        assert!(notes.is_empty(), "{notes:?}");
        // A kind Hanji does not know is kept as text and named.
        let unknown = expand_tokens("a [##_Movie|x|y_##] b [##_unclosed", &attachments, &mut notes);
        assert_eq!(unknown, "a <p><code>[##_Movie|x|y_##]</code></p> b [##_unclosed");
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn file_names_are_plain() {
        assert_eq!(file_name("fix_modify_change.png", "cfile22.uf.x.png"), "fix_modify_change.png");
        assert_eq!(file_name("../../etc/passwd", "x.png"), "passwd");
        assert_eq!(file_name("", "cfile22.uf.x.png"), "cfile22.uf.x.png");
        assert_eq!(file_name("..", ".."), "file");
        assert_eq!(file_name("a?b.png", ""), "a_b.png");
    }

    #[test]
    fn broken_and_hostile_xml_is_refused_with_a_reason() {
        assert!(parse("<blog type=\"tattertools/1.1\"><post>").unwrap_err().contains("cut short"));
        assert!(parse("</x>").is_err());
        let deep = format!("<blog>{}", "<a>".repeat(100));
        assert!(parse(&deep).unwrap_err().contains("deeper"));
        assert!(parse("<other/>").unwrap_err().contains("no `<blog>`"));
    }

    #[test]
    fn more_boxes_and_link_cards_need_no_script() {
        let card = editor_blocks(
            r#"<figure data-ke-type="opengraph" data-og-url="https://example.com/a"><a href="https://example.com/a"><div class="og-image">&nbsp;</div><div class="og-text"><p class="og-title">A</p><p class="og-desc">About a</p></div></a></figure>"#,
        );
        assert!(card.contains(r#"<p><a href="https://example.com/a">A</a>: About a</p>"#), "{card}");
        let html = editor_blocks(
            r#"<div data-ke-type="moreLess" data-text-more="더보기" data-text-less="닫기"><a class="btn-toggle-moreless">더보기</a><div class="moreless-content"><p>숨은 글</p></div></div>"#,
        );
        assert!(html.contains("<details><summary>더보기</summary><p>숨은 글</p></details>"), "{html}");
    }
}

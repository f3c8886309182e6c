//! Site paths and the links between pages. A site path names a page or file
//! from the site's top: `posts/a/`, `tags/분산-학습/page/2/`, `feed.xml`.
//! Links are relative, so the site works under any base path and from `file://`.

pub use crate::text::percent_decode;

/// The file a site path is written to: `posts/a/` → `posts/a/index.html`.
pub fn file_of(site_path: &str) -> String {
    format!("{site_path}{}", index_of(site_path))
}

/// What a site path's file adds to it: `index.html` for a folder.
fn index_of(site_path: &str) -> &'static str {
    if site_path.is_empty() || site_path.ends_with('/') { "index.html" } else { "" }
}

/// The way from a page back to the site's top: `posts/a/` → `../../`.
pub fn root_of(site_path: &str) -> String {
    "../".repeat(site_path.matches('/').count())
}

/// A link from a page whose way to the top is `root` to `site_path`, with each
/// segment percent-encoded. Folders get `index.html`, which `file://` needs.
pub fn link(root: &str, site_path: &str) -> String {
    // Every list page writes hundreds of these: one allocation each.
    let mut link = String::with_capacity(root.len() + site_path.len() + "index.html".len());
    link.push_str(root);
    encode_path_into(&mut link, site_path);
    link.push_str(index_of(site_path));
    link
}

/// The full address of a page: `base_url` + the encoded site path (folders
/// without `index.html`, as search engines and feed readers expect).
pub fn absolute(base_url: &str, site_path: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let mut address = String::with_capacity(base.len() + 1 + site_path.len());
    address.push_str(base);
    address.push('/');
    encode_path_into(&mut address, site_path);
    address
}

/// The path part of `base_url`: `https://me.github.io/blog/` → `/blog/`.
pub fn base_path(base_url: &str) -> String {
    let path = match base_url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None => base_url,
    };
    let path = path.trim_matches('/');
    if path.is_empty() { "/".to_string() } else { format!("/{path}/") }
}

/// Percent-encodes everything but unreserved characters and `/`.
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    encode_path_into(&mut out, path);
    out
}

/// `encode_path`, written at the end of `out`.
fn encode_path_into(out: &mut String, path: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let unreserved = |byte: u8| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/');
    // Most paths need no escape: copied whole.
    let Some(first) = path.bytes().position(|byte| !unreserved(byte)) else {
        out.push_str(path);
        return;
    };
    out.push_str(&path[..first]);
    for byte in path[first..].bytes() {
        if unreserved(byte) {
            out.push(byte as char);
        } else {
            out.extend(['%', HEX[usize::from(byte >> 4)] as char, HEX[usize::from(byte & 15)] as char]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("%EB%B6%84%EC%82%B0.md"), "분산.md");
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }

    #[test]
    fn files_roots_and_links() {
        assert_eq!(file_of(""), "index.html");
        assert_eq!(file_of("tags/rust/"), "tags/rust/index.html");
        assert_eq!(file_of("feed.xml"), "feed.xml");
        assert_eq!(root_of(""), "");
        assert_eq!(root_of("posts/a/"), "../../");
        assert_eq!(root_of("tags/a/page/2/"), "../../../../");
        assert_eq!(root_of("tags/a/feed.xml"), "../../");
        assert_eq!(link("../../", "tags/분산-학습/"), "../../tags/%EB%B6%84%EC%82%B0-%ED%95%99%EC%8A%B5/index.html");
        assert_eq!(link("", "style.css"), "style.css");
        assert_eq!(link("", "posts/c++ notes/"), "posts/c%2B%2B%20notes/index.html");
    }

    #[test]
    fn base_paths() {
        assert_eq!(base_path("https://me.github.io/blog/"), "/blog/");
        assert_eq!(base_path("https://me.github.io/blog"), "/blog/");
        assert_eq!(base_path("https://example.com"), "/");
        assert_eq!(base_path("https://example.com/"), "/");
        assert_eq!(base_path("/"), "/");
        assert_eq!(base_path("/docs/"), "/docs/");
    }

    #[test]
    fn absolute_addresses() {
        assert_eq!(absolute("https://me.github.io/blog/", "posts/a/"), "https://me.github.io/blog/posts/a/");
        assert_eq!(absolute("https://example.com", ""), "https://example.com/");
        assert_eq!(absolute("/", "tags/"), "/tags/");
    }
}

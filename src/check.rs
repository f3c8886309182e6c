//! Checks that need the whole blog: links between posts, images beside them,
//! and what rendering each post finds (math that does not parse).

use std::path::{Component, Path, PathBuf};

use rayon::prelude::*;

use crate::content::Post;
use crate::diagnostics::Diagnostic;
use crate::load::{Blog, STATIC_DIR};
use crate::markdown::{self, Link, LinkResolver, Options};

/// Every problem in the blog, sorted by file and line.
pub fn check(blog: &Blog) -> Vec<Diagnostic> {
    let mut all = blog.diagnostics();
    let rendered: Vec<Vec<Diagnostic>> = blog
        .library
        .posts()
        .collect::<Vec<_>>()
        .par_iter()
        .map(|post| {
            let links = Links { blog, post };
            let options = Options { first_line: post.body_line, links: Some(&links), ..Options::default() };
            markdown::render(post.body(), &options).problems.into_iter().map(|p| p.in_file(&post.path)).collect()
        })
        .collect();
    all.extend(rendered.into_iter().flatten());
    all.sort();
    all.dedup();
    all
}

/// Resolves the links and images of one post against the blog: a link to
/// another post's file becomes that post's URL; a file that is not there is a
/// broken link.
pub struct Links<'a> {
    pub blog: &'a Blog,
    pub post: &'a Post,
}

impl LinkResolver for Links<'_> {
    fn resolve_link(&self, dest: &str) -> Link {
        self.resolve(dest, "link")
    }

    fn resolve_image(&self, dest: &str) -> Link {
        self.resolve(dest, "image")
    }
}

impl Links<'_> {
    fn resolve(&self, dest: &str, what: &str) -> Link {
        if is_external(dest) || dest.is_empty() || dest.starts_with('#') {
            return Link::Keep;
        }
        let (path, fragment) = match dest.find(['#', '?']) {
            Some(i) => dest.split_at(i),
            None => (dest, ""),
        };
        let decoded = percent_decode(path);
        let target = if let Some(site_path) = decoded.strip_prefix('/') {
            if what == "link" {
                // Site paths (`/tags/rust/`) name pages, not files.
                return Link::Keep;
            }
            normalize(&Path::new(STATIC_DIR).join(site_path))
        } else {
            normalize(&self.post.folder().join(&decoded))
        };
        let Some(target) = target else {
            return Link::Broken {
                message: format!("{what} `{dest}` leads outside the blog folder"),
                hint: Some("link to a file inside the blog, or use a full https:// address".into()),
            };
        };
        if let Some(post) = self.blog.library.post(&target) {
            return Link::Rewrite(format!("{}{fragment}", post.url()));
        }
        if self.blog.assets.contains(&target) || self.blog.root.join(&target).is_dir() {
            return Link::Keep;
        }
        let hint = if crate::load::is_post_file(&target) {
            format!("no post at `{}`; check the file name", target.display())
        } else {
            format!("no file at `{}`; check the name, or put the file there", target.display())
        };
        Link::Broken { message: format!("{what} `{dest}` leads nowhere"), hint: Some(hint) }
    }
}

/// `https:`, `mailto:`, `//cdn…`: not files of the blog.
fn is_external(dest: &str) -> bool {
    if dest.starts_with("//") {
        return true;
    }
    match dest.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !scheme.contains('/')
        }
        None => false,
    }
}

/// `a/./b/../c` → `a/c`; None if `..` climbs out of the blog.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// `%EB%B6%84` → `분`; malformed escapes are left as they are.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (bytes.get(i + 1).and_then(|b| hex(*b)), bytes.get(i + 2).and_then(|b| hex(*b)))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_links() {
        assert!(is_external("https://pytorch.org"));
        assert!(is_external("mailto:me@example.com"));
        assert!(is_external("//cdn.example.com/x.png"));
        assert!(!is_external("other.md"));
        assert!(!is_external("../b/index.md"));
        assert!(!is_external("./a:b.md"));
    }

    #[test]
    fn normalizing() {
        assert_eq!(normalize(Path::new("posts/b/../a.md")), Some(PathBuf::from("posts/a.md")));
        assert_eq!(normalize(Path::new("posts/./x/./y.png")), Some(PathBuf::from("posts/x/y.png")));
        assert_eq!(normalize(Path::new("posts/../../etc/passwd")), None);
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("%EB%B6%84%EC%82%B0.md"), "분산.md");
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }
}

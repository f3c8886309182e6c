//! Where a link or image in a post leads: another post (by its file), a file
//! beside the post or in a static folder (`static/`, or the layout's), a page
//! of the site, or nowhere.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::routes::{Addresses, Routes};
use super::url::{self, base_path, percent_decode};
use crate::config::Config;
use crate::content::file::is_post;
use crate::content::{Library, Post};
use crate::markdown::{Link, LinkResolver};

/// Resolves the links and images of one post. Links to another post's file
/// become that post's page; files become their place in the site; all of it
/// relative to the page being written (`root` leads from it to the site's top).
#[derive(Clone, Copy)]
pub struct Links<'a> {
    pub config: &'a Config,
    pub library: &'a Library,
    pub assets: &'a BTreeSet<PathBuf>,
    pub post: &'a Post,
    pub root: &'a str,
    /// The site's addresses, to check links written as site paths
    /// (`/tags/rust/`) against; None leaves them unchecked (rendering a
    /// page does not need them; `hanji check` gives them).
    pub routes: Option<&'a Routes>,
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
    pub fn addresses(&self) -> Addresses<'_> {
        Addresses::new(self.config, self.library)
    }

    /// Where a link written as a site path leads, as a site path: the site's
    /// own base path (`/blog/` of `https://me.github.io/blog/`) may start it,
    /// and where the routes are known, it is the address of what is there
    /// (`2018/08/15/a-post` → `….html`, as the live site serves it), or
    /// broken if nothing is.
    fn in_site(&self, site_path: &str, dest: &str) -> Result<String, Link> {
        let base = base_path(&self.config.base_url);
        let within = site_path.strip_prefix(base.trim_start_matches('/')).filter(|_| base != "/").unwrap_or(site_path);
        let Some(routes) = self.routes else { return Ok(within.to_string()) };
        routes.address_of(within).or_else(|| routes.address_of(site_path)).ok_or_else(|| Link::Broken {
            message: format!("link `{dest}` leads to no page of the site"),
            hint: Some("check the address against the exported site, or link to the post's file (`other.md`)".into()),
        })
    }

    fn resolve(&self, dest: &str, what: &str) -> Link {
        if is_external(dest) || dest.is_empty() || dest.starts_with('#') {
            return Link::Keep;
        }
        let (path, fragment) = match dest.find(['#', '?']) {
            Some(i) => dest.split_at(i),
            None => (dest, ""),
        };
        let decoded = percent_decode(path);
        if let Some(site_path) = decoded.strip_prefix('/')
            && what == "link"
        {
            // Site paths (`/tags/rust/`) name pages: kept under the site's root.
            return match self.in_site(site_path, dest) {
                Ok(address) => Link::Rewrite(format!("{}{fragment}", url::link(self.root, &address))),
                Err(broken) => broken,
            };
        }
        let target = self.file_of(&decoded);
        let Some(target) = target else {
            return Link::Broken {
                message: format!("{what} `{dest}` leads outside the blog folder"),
                hint: Some("link to a file inside the blog, or use a full https:// address".into()),
            };
        };
        if let Some(post) = self.library.post(&target) {
            return Link::Rewrite(format!("{}{fragment}", url::link(self.root, &self.addresses().post(post))));
        }
        if self.assets.contains(&target)
            && let Some(site_path) = self.addresses().asset(&target)
        {
            return Link::Rewrite(format!("{}{fragment}", url::link(self.root, &site_path)));
        }
        let hint = if is_post(&self.config.layout, &target) {
            format!("no post at `{}`; check the file name", target.display())
        } else {
            format!("no file at `{}`; check the name, or put the file there", target.display())
        };
        Link::Broken { message: format!("{what} `{dest}` leads nowhere"), hint: Some(hint) }
    }
}

impl Links<'_> {
    /// The blog's file at `decoded` (a path as the post writes it, decoded):
    /// beside the post, or, for a site path (`/images/a.png`), in the static
    /// folder that has it (else the first that could). None if it climbs
    /// out of the blog.
    fn file_of(&self, decoded: &str) -> Option<PathBuf> {
        let Some(site_path) = decoded.strip_prefix('/') else {
            return normalize(&self.post.folder().join(decoded));
        };
        let candidates = self.config.layout.static_files(site_path);
        let found = candidates.iter().filter_map(|c| normalize(c)).find(|c| self.assets.contains(c));
        found.or_else(|| normalize(candidates.first().map_or(Path::new(site_path), PathBuf::as_path)))
    }

    /// The file of the blog an image written `dest` shows, if it is one.
    pub fn image_file(&self, dest: &str) -> Option<PathBuf> {
        if is_external(dest) || dest.is_empty() || dest.starts_with('#') {
            return None;
        }
        let path = dest.split(['#', '?']).next().unwrap_or(dest);
        self.file_of(&percent_decode(path)).filter(|file| self.assets.contains(file))
    }
}

/// `https:`, `mailto:`, `//cdn…`: not files of the blog.
fn is_external(dest: &str) -> bool {
    if dest.starts_with("//") {
        return true;
    }
    match dest.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
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

    use crate::content::library::of_texts as library;

    #[test]
    fn links_resolve_relative_to_the_page() {
        let config = Config::default();
        let lib = library(&[
            ("posts/a.md", "---\ntitle: A\n---\n"),
            ("posts/b/index.md", "---\ntitle: B\n---\n"),
            ("posts/분산.md", "---\ntitle: C\n---\n"),
        ]);
        let assets: BTreeSet<PathBuf> = ["posts/b/d.png", "static/logo.png"].iter().map(PathBuf::from).collect();
        let post = lib.post(Path::new("posts/b/index.md")).unwrap();
        let links = Links { config: &config, library: &lib, assets: &assets, post, root: "../../", routes: None };
        let rewrite = |l: Link| match l {
            Link::Rewrite(url) => url,
            Link::Keep => "keep".into(),
            Link::Broken { message, .. } => format!("broken: {message}"),
        };
        assert_eq!(rewrite(links.resolve_link("../a.md#part")), "../../posts/a/index.html#part");
        assert_eq!(
            rewrite(links.resolve_link("../%EB%B6%84%EC%82%B0.md")),
            "../../posts/%EB%B6%84%EC%82%B0/index.html"
        );
        assert_eq!(rewrite(links.resolve_image("d.png")), "../../posts/b/d.png");
        assert_eq!(rewrite(links.resolve_image("/logo.png")), "../../logo.png");
        assert_eq!(
            rewrite(links.resolve_link("/tags/rust/")),
            "../../tags/rust/index.html",
            "folders get index.html, as file:// needs"
        );
        assert_eq!(rewrite(links.resolve_link("https://x.org")), "keep");
        assert_eq!(rewrite(links.resolve_link("../nope.md")), "broken: link `../nope.md` leads nowhere");
        assert_eq!(
            rewrite(links.resolve_image("../../../x.png")),
            "broken: image `../../../x.png` leads outside the blog folder"
        );
    }
}

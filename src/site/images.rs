//! A post's images as its page offers them: the image file a post's image
//! leads to (as its links do), what the image catalog knows of it, and the
//! addresses of its copies, for the `<picture>` the Markdown writer makes.

use std::path::PathBuf;

use crate::fs::Stamp;
use crate::images::{Catalog, Copy, Facts, Looked, Plan};
use crate::markdown::{Picture, PictureResolver, Sizing};

use super::links::Links;
use super::url;

/// Sizes one post's images for the screen.
pub struct Pictures<'a> {
    pub links: Links<'a>,
    pub catalog: &'a Catalog,
}

impl PictureResolver for Pictures<'_> {
    fn picture(&self, dest: &str) -> Sizing {
        let Some(file) = self.links.image_file(dest) else { return Sizing::AsItIs };
        let facts = match self.catalog.look(&file) {
            Looked::Facts(facts) => facts,
            Looked::AsItIs => return Sizing::AsItIs,
            Looked::Problem { message, hint } => return Sizing::Problem { message, hint: Some(hint) },
        };
        let Some(site_path) = self.links.addresses().asset(&file) else { return Sizing::AsItIs };
        match self.catalog.plan(&file, &facts) {
            Ok(Some(plan)) => Sizing::Picture(self.offer(&site_path, &facts, &plan)),
            Ok(None) => Sizing::Size { width: facts.width, height: facts.height },
            Err(error) => Sizing::Problem {
                message: format!("image `{dest}` could not be resized ({error}); it is shown as it is"),
                hint: Some("save it again from an image editor, or replace it".into()),
            },
        }
    }
}

impl Pictures<'_> {
    /// The image file `dest` shows, if it is one of the blog's, and its
    /// stamp: what a page's picture of it is made from (with the settings).
    pub fn file_of(&self, dest: &str) -> (Option<PathBuf>, Option<Stamp>) {
        let file = self.links.image_file(dest);
        let stamp = file.as_deref().and_then(|file| self.catalog.stamp(file));
        (file, stamp)
    }

    /// The picture of the image at `site_path`: a `<source>` per format of
    /// the plan, and the `<img>` in the image's own format, the image itself
    /// as its widest entry where it is no wider than the widths asked for.
    fn offer(&self, site_path: &str, facts: &Facts, plan: &Plan) -> Picture {
        let addresses = self.links.addresses();
        let link = |path: &str| srcset_url(&url::link(self.links.root, path));
        let entry = |width: u32, path: &str| format!("{} {width}w", link(path));
        let copy = |width: u32, format| addresses.image_copy(site_path, Copy { width, format });
        let sources = plan
            .sources
            .iter()
            .map(|&format| {
                let entries: Vec<String> = plan.widths.iter().map(|&w| entry(w, &copy(w, format))).collect();
                (format.mime(), entries.join(", "))
            })
            .collect();
        let fallback: Vec<(u32, String)> = plan
            .widths
            .iter()
            .map(|&w| (w, if w == plan.own_width { site_path.to_string() } else { copy(w, plan.fallback) }))
            .collect();
        let (_, widest) = fallback.last().expect("a plan has a width");
        let srcset = match fallback.len() {
            1 => String::new(),
            _ => fallback.iter().map(|(w, path)| entry(*w, path)).collect::<Vec<_>>().join(", "),
        };
        Picture {
            width: facts.width,
            height: facts.height,
            sources,
            src: link(widest),
            srcset,
            sizes: self.catalog.settings().sizes.clone(),
        }
    }
}

/// An address as a `srcset` candidate takes it: a comma or a space would
/// end it, so both are percent-encoded.
fn srcset_url(link: &str) -> String {
    link.replace(',', "%2C").replace(' ', "%20")
}

//! Checks that need the whole blog: links between posts, images beside them,
//! and what rendering each post finds (math that does not parse, another
//! tool's syntax that Hanji does not render).

use rayon::prelude::*;

use crate::blog::Blog;
use crate::diagnostics::Diagnostic;
use crate::markdown::{self, Options};
use crate::site::links::Links;
use crate::site::routes::Routes;
use crate::site::theme::Theme;
use crate::site::{Site, SiteOptions};

/// Every problem in the blog, sorted by file and line.
pub fn check(blog: &Blog) -> Vec<Diagnostic> {
    let mut all = blog.diagnostics();
    let posts: Vec<_> = blog.library.posts().collect();
    // Links written as site paths are checked against the site as it is
    // published; a draft's, against the site with the drafts in it.
    let theme = Theme::new(&blog.templates).0;
    let site = |drafts| {
        let options = SiteOptions { drafts, search: true, ..SiteOptions::default() };
        Site::new(&blog.config, &blog.library, &blog.assets, &theme, options)
    };
    let published_site = site(false);
    // Posts and pages the export would leave out, as it names them.
    all.extend(published_site.files().problems);
    let (published, with_drafts) = (Routes::of(&published_site), Routes::of(&site(true)));
    let rendered: Vec<Vec<Diagnostic>> = posts
        .par_iter()
        .map(|post| {
            let routes = Some(if post.draft { &with_drafts } else { &published });
            let (config, library, assets) = (&blog.config, &blog.library, &blog.assets);
            let links = Links { config, library, assets, post, root: "", routes };
            let options = Options {
                first_line: post.body_line,
                links: Some(&links),
                syntax: post.file().syntax(&blog.config.layout),
                shortcodes: Some(&blog.shortcodes),
                ..Options::default()
            };
            markdown::render(post.body(), &options).problems.into_iter().map(|p| p.in_file(&post.path)).collect()
        })
        .collect();
    all.extend(rendered.into_iter().flatten());
    all.sort();
    all.dedup();
    all
}

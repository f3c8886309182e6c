//! Checks that need the whole blog: links between posts, images beside them,
//! and what rendering each post finds (math that does not parse, another
//! tool's syntax that Hanji does not render).

use rayon::prelude::*;

use crate::blog::Blog;
use crate::diagnostics::Diagnostic;
use crate::markdown::{self, Options};
use crate::site::links::Links;

/// Every problem in the blog, sorted by file and line.
pub fn check(blog: &Blog) -> Vec<Diagnostic> {
    let mut all = blog.diagnostics();
    let posts: Vec<_> = blog.library.posts().collect();
    let rendered: Vec<Vec<Diagnostic>> = posts
        .par_iter()
        .map(|post| {
            let links = Links { config: &blog.config, library: &blog.library, assets: &blog.assets, post, root: "" };
            let options = Options {
                first_line: post.body_line,
                links: Some(&links),
                syntax: post.file().syntax(&blog.config.layout),
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

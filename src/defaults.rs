//! Front matter defaults by scope, as Jekyll has them (`defaults:` in
//! `_config.yml`, Jekyll's `FrontmatterDefaults`): the values a post or page
//! takes where its own front matter is silent, for the files whose path and
//! type a set's scope names. Read by `detect`, applied by the library.

use serde::Serialize;
use serde_json::{Map, Value};

/// One set of defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DefaultSet {
    /// `scope.path` without a leading `/` (`""`: every file). A path with
    /// `*` is a glob over the blog's files.
    pub path: String,
    /// `scope.type`: `posts`, `pages`, `drafts`, or any type when None.
    pub kind: Option<String>,
    /// `values`, as JSON text (so that the set can be compared and kept).
    pub values: String,
}

impl DefaultSet {
    /// A set as `_config.yml` writes it, or None if it is not one Jekyll
    /// takes (`valid?`: `values` must be a mapping). The singular types
    /// Jekyll once had (`post`) are its plural ones (`update_deprecated_types`).
    pub fn read(set: &Value) -> Option<DefaultSet> {
        let values = set.get("values")?.as_object()?;
        let scope = set.get("scope").and_then(Value::as_object);
        let path = scope.and_then(|s| s.get("path")).and_then(Value::as_str).unwrap_or_default();
        let kind = scope.and_then(|s| s.get("type")).and_then(Value::as_str).map(|kind| match kind {
            "post" => "posts".to_string(),
            "page" => "pages".to_string(),
            "draft" => "drafts".to_string(),
            other => other.to_string(),
        });
        Some(DefaultSet { path: sanitize(path).to_string(), kind, values: Value::Object(values.clone()).to_string() })
    }

    fn values(&self) -> Map<String, Value> {
        serde_json::from_str(&self.values).unwrap_or_default()
    }

    /// Jekyll's `applies?`: the type matches (or the scope names none) and
    /// the file's path starts with the scope's (`path_is_subpath?`, a plain
    /// prefix of the text); a glob scope matches what it names, and the
    /// files below it.
    fn applies(&self, path: &str, kind: &str) -> bool {
        if self.kind.as_deref().is_some_and(|k| k != kind) {
            return false;
        }
        if self.path.is_empty() {
            return true;
        }
        if self.path.contains('*') {
            return glob_prefix(&self.path, path);
        }
        path.starts_with(&self.path)
    }

    /// Jekyll's `has_precedence?`: a longer scope path wins; of two equally
    /// long, one with a type wins over one without.
    fn wins_over(&self, old: &DefaultSet) -> bool {
        if self.path.len() != old.path.len() {
            return self.path.len() >= old.path.len();
        }
        self.kind.is_some() || old.kind.is_none()
    }
}

/// Every default value for the file at `path` (relative to the blog, `/`
/// between folders) of type `kind` (`posts`, `pages`): Jekyll's `all`, each
/// matching set in order merged over the values so far when it has
/// precedence, under them when it has not (mappings merged deeply, as
/// `Utils.deep_merge_hashes`).
pub fn for_file(sets: &[DefaultSet], path: &str, kind: &str) -> Map<String, Value> {
    let mut defaults = Map::new();
    let mut old: Option<&DefaultSet> = None;
    for set in sets.iter().filter(|set| set.applies(path, kind)) {
        if old.is_none_or(|old| set.wins_over(old)) {
            deep_merge(&mut defaults, set.values());
            old = Some(set);
        } else {
            let mut under = set.values();
            deep_merge(&mut under, defaults);
            defaults = under;
        }
    }
    defaults
}

/// `over`'s values put into `into`, mappings merged key by key.
fn deep_merge(into: &mut Map<String, Value>, over: Map<String, Value>) {
    for (key, value) in over {
        match (into.get_mut(&key), value) {
            (Some(Value::Object(mine)), Value::Object(theirs)) => deep_merge(mine, theirs),
            (_, value) => {
                into.insert(key, value);
            }
        }
    }
}

/// Jekyll's `sanitize_path`: a path's leading `/` taken off.
fn sanitize(path: &str) -> &str {
    path.strip_prefix('/').unwrap_or(path)
}

/// Whether `path` is below (or is) a path the glob `pattern` matches: `*`
/// stands for any characters within one folder's name, as in `Dir.glob`.
fn glob_prefix(pattern: &str, path: &str) -> bool {
    let parts: Vec<&str> = pattern.trim_end_matches('/').split('/').collect();
    let names: Vec<&str> = path.split('/').collect();
    names.len() >= parts.len() && parts.iter().zip(&names).all(|(part, name)| matches_name(part, name))
}

fn matches_name(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((before, after)) => {
            let Some(rest) = name.strip_prefix(before) else { return false };
            (0..=rest.len()).filter(|&at| rest.is_char_boundary(at)).any(|at| matches_name(after, &rest[at..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sets(value: Value) -> Vec<DefaultSet> {
        value.as_array().unwrap().iter().filter_map(DefaultSet::read).collect()
    }

    #[test]
    fn chirpy_s_defaults_give_posts_their_permalink_and_pages_none() {
        let sets = sets(json!([
            { "scope": { "path": "", "type": "posts" }, "values": { "layout": "post", "permalink": "/posts/:title/" } },
            { "scope": { "path": "_drafts" }, "values": { "comments": false } },
            { "scope": { "path": "", "type": "tabs" }, "values": { "layout": "page", "permalink": "/:title/" } },
        ]));
        let post = for_file(&sets, "_posts/2024-01-01-a.md", "posts");
        assert_eq!(post.get("permalink"), Some(&json!("/posts/:title/")));
        assert_eq!(post.get("layout"), Some(&json!("post")));
        assert!(for_file(&sets, "about.md", "pages").is_empty());
    }

    #[test]
    fn the_longer_scope_wins_whatever_its_place() {
        let sets = sets(json!([
            { "scope": { "path": "_posts/tech" }, "values": { "permalink": "/tech/:title/" } },
            { "scope": { "path": "" }, "values": { "permalink": "/:title/", "author": "me" } },
        ]));
        let tech = for_file(&sets, "_posts/tech/2024-01-01-a.md", "posts");
        assert_eq!(tech.get("permalink"), Some(&json!("/tech/:title/")));
        assert_eq!(tech.get("author"), Some(&json!("me")));
        let other = for_file(&sets, "_posts/2024-01-01-b.md", "posts");
        assert_eq!(other.get("permalink"), Some(&json!("/:title/")));
    }

    #[test]
    fn of_equal_paths_the_one_with_a_type_wins_and_mappings_merge() {
        let sets = sets(json!([
            { "scope": { "path": "", "type": "post" }, "values": { "share": { "x": true }, "toc": true } },
            { "scope": { "path": "" }, "values": { "share": { "y": true }, "toc": false } },
        ]));
        let post = for_file(&sets, "_posts/2024-01-01-a.md", "posts");
        assert_eq!(post.get("toc"), Some(&json!(true)));
        assert_eq!(post.get("share"), Some(&json!({ "x": true, "y": true })));
    }

    #[test]
    fn a_path_scope_is_a_prefix_and_a_glob_a_pattern() {
        let sets = sets(json!([
            { "scope": { "path": "/docs" }, "values": { "a": 1 } },
            { "scope": { "path": "notes/*/draft" }, "values": { "b": 2 } },
            { "values": "not a mapping" },
        ]));
        assert_eq!(sets.len(), 2);
        assert_eq!(for_file(&sets, "docs/x.md", "pages").get("a"), Some(&json!(1)));
        assert_eq!(for_file(&sets, "docsite/x.md", "pages").get("a"), Some(&json!(1)), "a prefix of the text");
        assert_eq!(for_file(&sets, "notes/2024/draft/x.md", "pages").get("b"), Some(&json!(2)));
        assert!(!for_file(&sets, "notes/2024/final/x.md", "pages").contains_key("b"));
    }
}

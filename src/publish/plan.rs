//! What a publish sends and removes, worked out from the site's files (each
//! with the hash of its bytes), what Hanji knows it sent before (the record,
//! with a stopped publish's journal over it) and what the target holds now.
//! Pure: no disk, no network.

use std::collections::{BTreeMap, BTreeSet};

use super::record::Sent;

/// A file of the exported site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    /// Its site path, `posts/a/index.html`.
    pub path: String,
    pub hash: String,
    pub size: u64,
}

/// What the target holds now, as far as it tells.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Site path → stamp, for the files looked at; None if the target was
    /// not asked (then the record is trusted).
    pub files: Option<BTreeMap<String, String>>,
    /// The stamps are the hashes of the files' bytes (git blob ids): a file
    /// whose stamp is its hash holds exactly those bytes, record or not.
    pub stamps_are_hashes: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// In the order to send them: files new to the target first (no page
    /// of the site there links to them yet), then changed files, assets
    /// before the pages that link to them.
    pub send: Vec<SiteFile>,
    /// How many of `send`, at its start, are new to the target.
    pub new: usize,
    /// Files Hanji sent before that the site no longer has: removed last.
    pub remove: Vec<String>,
    /// Files the target already holds as they are.
    pub unchanged: Vec<SiteFile>,
    /// Files Hanji sent before, no longer in the site, already gone.
    pub gone: Vec<String>,
}

impl Plan {
    pub fn bytes(&self) -> u64 {
        self.send.iter().map(|f| f.size).sum()
    }
}

/// Pages and the files that list pages (feeds, the sitemap, the search's
/// list of shards) link to other files: they go after what they link to.
pub fn links_out(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".html") || lower.ends_with(".htm") || lower.ends_with(".xml") || lower == "search/index.js"
}

pub fn plan(site: &[SiteFile], known: &BTreeMap<String, Sent>, listing: &Listing) -> Plan {
    let mut plan = Plan::default();
    let on_target = |path: &str| listing.files.as_ref().map(|files| files.get(path));
    let mut new = Vec::new();
    let mut changed = Vec::new();
    for file in site {
        let there = on_target(&file.path);
        let holds_it = match (known.get(&file.path), there) {
            // The target's own word, where its stamps are the hashes.
            (_, Some(Some(stamp))) if listing.stamps_are_hashes => *stamp == file.hash,
            (_, Some(None)) => false,
            (Some(sent), Some(Some(stamp))) => {
                sent.hash == file.hash && (sent.stamp.is_empty() || sent.stamp == *stamp)
            }
            (Some(sent), None) => sent.hash == file.hash,
            (None, _) => false,
        };
        if holds_it {
            plan.unchanged.push(file.clone());
        } else if matches!(there, Some(None)) || (there.is_none() && !known.contains_key(&file.path)) {
            new.push(file.clone());
        } else {
            changed.push(file.clone());
        }
    }
    let order = |a: &SiteFile, b: &SiteFile| (links_out(&a.path), &a.path).cmp(&(links_out(&b.path), &b.path));
    new.sort_by(order);
    changed.sort_by(order);
    plan.new = new.len();
    plan.send = new.into_iter().chain(changed).collect();
    let in_site: BTreeSet<&str> = site.iter().map(|f| f.path.as_str()).collect();
    for path in known.keys().filter(|p| !in_site.contains(p.as_str())) {
        match on_target(path) {
            Some(None) => plan.gone.push(path.clone()),
            _ => plan.remove.push(path.clone()),
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, hash: &str) -> SiteFile {
        SiteFile { path: path.into(), hash: hash.into(), size: 10 }
    }

    fn sent(hash: &str, stamp: &str) -> Sent {
        Sent { hash: hash.into(), stamp: stamp.into() }
    }

    fn paths(files: &[SiteFile]) -> Vec<&str> {
        files.iter().map(|f| f.path.as_str()).collect()
    }

    #[test]
    fn a_first_publish_sends_everything_assets_first() {
        let site =
            [file("index.html", "1"), file("a.png", "2"), file("posts/a/index.html", "3"), file("feed.xml", "4")];
        let plan = plan(&site, &BTreeMap::new(), &Listing::default());
        assert_eq!(paths(&plan.send), ["a.png", "feed.xml", "index.html", "posts/a/index.html"]);
        assert!(plan.remove.is_empty() && plan.unchanged.is_empty());
        assert_eq!(plan.bytes(), 40);
    }

    #[test]
    fn only_changed_bytes_are_sent_and_only_what_hanji_sent_is_removed() {
        let known = BTreeMap::from([
            ("index.html".to_string(), sent("1", "s1")),
            ("posts/a/index.html".to_string(), sent("3", "s3")),
            ("posts/old/index.html".to_string(), sent("9", "s9")),
        ]);
        let site = [file("index.html", "1b"), file("posts/a/index.html", "3"), file("posts/new/index.html", "5")];
        let plan = plan(&site, &known, &Listing::default());
        // The new post before the home page that now links to it.
        assert_eq!(paths(&plan.send), ["posts/new/index.html", "index.html"]);
        assert_eq!(plan.new, 1);
        assert_eq!(paths(&plan.unchanged), ["posts/a/index.html"]);
        assert_eq!(plan.remove, ["posts/old/index.html"], "never a file Hanji did not send");
    }

    #[test]
    fn the_target_is_believed_over_the_record() {
        let known = BTreeMap::from([
            ("a.html".to_string(), sent("1", "s1")),
            ("b.html".to_string(), sent("2", "s2")),
            ("c.html".to_string(), sent("3", "s3")),
            ("gone.html".to_string(), sent("4", "s4")),
        ]);
        let listing = Listing {
            // b was changed on the server since, c deleted there.
            files: Some(BTreeMap::from([("a.html".into(), "s1".into()), ("b.html".into(), "other".into())])),
            stamps_are_hashes: false,
        };
        let site = [file("a.html", "1"), file("b.html", "2"), file("c.html", "3")];
        let plan = plan(&site, &known, &listing);
        assert_eq!(paths(&plan.unchanged), ["a.html"]);
        assert_eq!(paths(&plan.send), ["c.html", "b.html"], "c is new to the target, b changed there");
        assert_eq!(plan.gone, ["gone.html"]);
        assert!(plan.remove.is_empty());
    }

    #[test]
    fn content_stamps_need_no_record() {
        let listing = Listing {
            files: Some(BTreeMap::from([("a.html".into(), "1".into()), ("b.html".into(), "x".into())])),
            stamps_are_hashes: true,
        };
        let plan = plan(&[file("a.html", "1"), file("b.html", "2")], &BTreeMap::new(), &listing);
        assert_eq!(paths(&plan.unchanged), ["a.html"]);
        assert_eq!(paths(&plan.send), ["b.html"]);
    }
}

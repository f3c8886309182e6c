//! The library kept current one change at a time equals the library loaded
//! fresh from the final files, whatever the changes were.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hanji::Library;
use hanji::Post;
use hanji::Rules;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Change {
    Write { file: usize, text: String },
    Remove { file: usize },
    Rename { from: usize, to: usize },
}

const FILES: [&str; 5] = ["posts/a.md", "posts/b.md", "posts/c/index.md", "posts/d.md", "posts/e.md"];

fn text() -> impl Strategy<Value = String> {
    let tags = prop::sample::subsequence(vec!["nccl", "NCCL", "rust", "분산 학습", "분산  학습", "cuda"], 0..4);
    (0u8..4, tags, any::<bool>(), 1u8..28, prop::option::of("[a-c]{1,2}")).prop_map(|(kind, tags, draft, day, slug)| {
        match kind {
            // A file whose front matter cannot be read at all.
            0 => "---\ntitle: [unclosed\n".to_string(),
            // A bad date: a post with an error.
            1 => format!("---\ntitle: T\ndate: 2026-02-{day}x\ntags: [{}]\n---\n", tags.join(", ")),
            _ => format!(
                "---\ntitle: T{day}\ndate: 2026-03-{day:02}\ntags: [{}]\ndraft: {draft}\n{}---\nBody {day}.\n",
                tags.join(", "),
                slug.map(|s| format!("slug: {s}\n")).unwrap_or_default(),
            ),
        }
    })
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (0..FILES.len(), text()).prop_map(|(file, text)| Change::Write { file, text }),
        1 => (0..FILES.len()).prop_map(|file| Change::Remove { file }),
        1 => (0..FILES.len(), 0..FILES.len()).prop_map(|(from, to)| Change::Rename { from, to }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn incremental_updates_equal_a_fresh_load(changes in prop::collection::vec(change(), 1..25)) {
        let mut disk: BTreeMap<PathBuf, String> = BTreeMap::new();
        let mut library = Library::new(Rules::default());
        for change in changes {
            match change {
                Change::Write { file, text } => {
                    let path = PathBuf::from(FILES[file]);
                    library.insert(Post::parse(&path, &text));
                    disk.insert(path, text);
                }
                Change::Remove { file } => {
                    let path = PathBuf::from(FILES[file]);
                    library.remove(&path);
                    disk.remove(&path);
                }
                Change::Rename { from, to } => {
                    let (from, to) = (PathBuf::from(FILES[from]), PathBuf::from(FILES[to]));
                    if from == to || !disk.contains_key(&from) {
                        continue;
                    }
                    // A rename over an existing file replaces it, as on disk.
                    let text = disk.remove(&from).unwrap();
                    library.remove(&to);
                    if !library.rename(&from, &to) {
                        library.insert(Post::parse(&to, &text));
                    }
                    disk.insert(to, text);
                }
            }
        }
        let fresh = Library::from_parsed(
            Rules::default(),
            disk.iter().map(|(path, text)| Post::parse(path, text)),
        );
        prop_assert_eq!(&library, &fresh);
        prop_assert_eq!(library.tags(true), fresh.tags(true));
        prop_assert_eq!(library.diagnostics(), fresh.diagnostics());
    }
}

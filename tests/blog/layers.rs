//! The core's map: its modules form layers, each using only the layers
//! before it (no cycle), and only `fs` touches the disk. Read from the source,
//! so a `use crate::…` that breaks the layering fails here, naming it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module may use modules of earlier layers and
/// the modules before it in its own layer. The guide's "Working on Hanji" says the same.
const LAYERS: &[(&str, &[&str])] = &[
    ("leaves", &["text", "slug", "diagnostics", "digest", "defaults", "front_matter", "clock", "tool"]),
    ("disk", &["fs"]),
    ("settings", &["config"]),
    ("rendering", &["markdown", "search", "images"]),
    ("content", &["content"]),
    ("site", &["site"]),
    ("model", &["blog"]),
    ("detection", &["detect"]),
    (
        "actions",
        &["load", "author", "watch", "preview", "export", "publish", "sources", "check", "session", "serve", "import"],
    ),
];

/// Where each module stands: its place in the order above.
fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().flat_map(|(_, modules)| modules.iter()).position(|m| *m == module)
}

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

/// A file's code without its tests (from the first `#[cfg(test)]` on, or all
/// of a `tests.rs`).
fn code_of(file: &Path) -> String {
    if file.file_name().is_some_and(|n| n == "tests.rs") || file.components().any(|c| c.as_os_str() == "tests") {
        return String::new();
    }
    let text = std::fs::read_to_string(file).unwrap();
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The top-level module a file of `src/` belongs to: `src/site/routes.rs` → `site`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The modules a piece of code names as `crate::<module>`.
fn used_modules(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `hanji_crate::…`, not this crate
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            used.extend(group.split(',').map(|item| item.trim().split("::").next().unwrap_or("").to_string()));
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            used.insert(name);
        }
    }
    used.retain(|m| !m.is_empty());
    used
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for file in sources(&src) {
        let module = module_of(&src, &file);
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = rank(&module) else {
            wrong.push(format!("{}: the module `{module}` is in no layer; add it to LAYERS", file.display()));
            continue;
        };
        seen.insert(module.clone());
        for used in used_modules(&code_of(&file)) {
            match rank(&used) {
                Some(theirs) if theirs < own || used == module => {}
                _ => wrong.push(format!("{}: `{module}` uses `crate::{used}`", file.display())),
            }
        }
    }
    assert!(wrong.is_empty(), "modules that break the layering:\n{}", wrong.join("\n"));
    let all: BTreeSet<String> = LAYERS.iter().flat_map(|(_, m)| m.iter().map(|m| m.to_string())).collect();
    assert_eq!(seen, all, "every layer's module exists");
}

#[test]
fn the_layering_test_sees_what_it_should() {
    let uses = used_modules(
        "use crate::fs::{self, OwnWrites};\nuse crate::{blog::Blog, site};\nlet x = crate::slug::slug(y);",
    );
    assert_eq!(uses, ["blog", "fs", "site", "slug"].map(String::from).into());
    assert!(used_modules("hanji_crate::x; // not ours").is_empty());
    assert!(rank("fs") < rank("content") && rank("site") < rank("session") && rank("nothing").is_none());
}

#[test]
fn only_fs_touches_the_disk() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut wrong = Vec::new();
    for file in sources(&src).into_iter().chain(sources(&root.join("src-tauri/src"))) {
        if file.starts_with(src.join("fs")) {
            continue;
        }
        let code = code_of(&file);
        for (number, line) in code.lines().enumerate() {
            if line.contains("std::fs") || line.contains("walkdir::") || line.contains("tempfile::") {
                wrong.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "reads or writes files outside `fs`:\n{}", wrong.join("\n"));
}

/// Where a line of code branches on which tool made the blog: it names one
/// (`Kind::Hugo`) or compares the blog's kind (`layout.kind == …`, `match layout.kind`).
fn branches_on_a_tool(line: &str) -> bool {
    const TOOLS: &[&str] = &["Kind::Hanji", "Kind::Hugo", "Kind::Zola", "Kind::Jekyll", "Kind::NextStarter"];
    let compact: String = line.split_whitespace().collect();
    TOOLS.iter().any(|tool| line.contains(tool))
        || compact.contains("layout.kind==")
        || compact.contains("layout.kind!=")
        || (compact.starts_with("match") && compact.contains("layout.kind{"))
}

/// Everything Hanji knows of a tool is in that tool's module of `src/tool/`;
/// the rest of the core and the app ask the blog's tool (`layout.tool()`)
/// and branch on none.
#[test]
fn only_a_tools_own_module_knows_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut wrong = Vec::new();
    for file in sources(&src).into_iter().chain(sources(&root.join("src-tauri/src"))) {
        if file.starts_with(src.join("tool")) {
            continue;
        }
        for (number, line) in code_of(&file).lines().enumerate() {
            if branches_on_a_tool(line) {
                wrong.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "branches on a tool outside `src/tool/`; ask `layout.tool()` instead:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_tool_test_sees_a_branch() {
    assert!(branches_on_a_tool("if config.layout.kind == Kind::Zola {"));
    assert!(branches_on_a_tool("match self.layout.kind {"));
    assert!(branches_on_a_tool("let hugo = matches!(kind, Kind::Hugo);"));
    assert!(branches_on_a_tool("if self.layout.kind != other {"));
    assert!(!branches_on_a_tool("match &error.kind {"));
    assert!(!branches_on_a_tool("let name = config.layout.kind.name();"));
    assert!(!branches_on_a_tool("let tool = config.layout.tool();"));
}

//! What the app's test files share: copying the sample blog, listing files.

use std::path::{Path, PathBuf};

/// The sample blog beside the source.
pub const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../content");

/// Copies the folder `from` to `to`, files and subfolders.
pub fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file under `dir` (none if it is not there).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries.flatten().flat_map(|e| if e.path().is_dir() { files_under(&e.path()) } else { vec![e.path()] }).collect()
}

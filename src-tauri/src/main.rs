//! `hanji-app [BLOG FOLDER]`: opens the desktop app on a blog.

// No console window behind the app on Windows.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    let start = std::env::args_os().nth(1).map(std::path::PathBuf::from);
    hanji_app::run(start);
}

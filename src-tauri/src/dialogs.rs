//! The system's file dialogs (rfd, asynchronous, parented to the window) and
//! the seam that keeps them out of tests: with `HANJI_DIALOG_ANSWER` set,
//! every dialog answers that path at once instead of opening.

use std::path::PathBuf;

use tauri::{Runtime, WebviewWindow};

#[derive(Debug, Clone)]
pub enum Dialogs {
    System,
    /// Every dialog answers this path (tests).
    Answer(PathBuf),
}

impl Dialogs {
    pub fn from_env() -> Self {
        match std::env::var_os("HANJI_DIALOG_ANSWER") {
            Some(path) => Dialogs::Answer(path.into()),
            None => Dialogs::System,
        }
    }

    pub async fn pick_folder<R: Runtime>(&self, window: &WebviewWindow<R>, title: &str) -> Option<PathBuf> {
        match self {
            Dialogs::Answer(path) => Some(path.clone()),
            Dialogs::System => {
                let dialog = rfd::AsyncFileDialog::new().set_title(title).set_parent(window);
                dialog.pick_folder().await.map(|f| f.path().to_path_buf())
            }
        }
    }

    pub async fn pick_image<R: Runtime>(&self, window: &WebviewWindow<R>) -> Option<PathBuf> {
        match self {
            Dialogs::Answer(path) => Some(path.clone()),
            Dialogs::System => {
                let dialog = rfd::AsyncFileDialog::new()
                    .set_title("Insert image")
                    .add_filter("Images", &["png", "jpg", "jpeg", "gif", "webp", "svg", "avif"])
                    .set_parent(window);
                dialog.pick_file().await.map(|f| f.path().to_path_buf())
            }
        }
    }

    /// A hosted blog's export: WordPress's `.xml`, a Medium or Tistory `.zip`.
    pub async fn pick_export<R: Runtime>(&self, window: &WebviewWindow<R>, title: &str) -> Option<PathBuf> {
        match self {
            Dialogs::Answer(path) => Some(path.clone()),
            Dialogs::System => {
                let dialog = rfd::AsyncFileDialog::new()
                    .set_title(title)
                    .add_filter("Exports", &["xml", "zip"])
                    .set_parent(window);
                dialog.pick_file().await.map(|f| f.path().to_path_buf())
            }
        }
    }
}

//! The UI's IPC types are generated from the Rust ones (`view.rs`, with
//! ts-rs): this test fails when `ui/src/lib/ipc.ts` is not what the Rust
//! types make, so the two cannot drift. `HANJI_WRITE_IPC=1 cargo test -p
//! hanji-app --test ipc` writes it anew.

use std::path::Path;

const IPC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ui/src/lib/ipc.ts");

#[test]
fn the_uis_types_are_the_rust_types() {
    let generated = hanji_app::view::typescript();
    if std::env::var_os("HANJI_WRITE_IPC").is_some() {
        std::fs::write(IPC, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(Path::new(IPC)).unwrap_or_default();
    assert!(
        committed == generated,
        "ui/src/lib/ipc.ts is not what src-tauri/src/view.rs makes: run \
         `HANJI_WRITE_IPC=1 cargo test -p hanji-app --test ipc` and commit it"
    );
}

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

/// Every command the app registers is declared to Tauri and allowed to the
/// window, and no other: a command missing from either is refused in the real
/// app (the mock runtime of the command tests does not check).
#[test]
fn every_command_is_declared_and_allowed() {
    let read = |file: &str| std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let lib = read("src/lib.rs");
    let mut registered: Vec<String> = lib
        .split("commands::")
        .skip(1)
        .map(|rest| rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
        .collect();
    registered.sort();
    let build = read("build.rs");
    let list = &build[build.find("COMMANDS").unwrap()..build.find("];").unwrap()];
    let mut declared: Vec<String> = list.split('"').skip(1).step_by(2).map(str::to_string).collect();
    declared.sort();
    let capability = read("capabilities/main.json");
    let mut allowed: Vec<String> = capability
        .split('"')
        .filter_map(|word| word.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect();
    allowed.sort();
    assert!(registered.len() > 20, "{registered:?}");
    assert_eq!(declared, registered, "build.rs declares the registered commands");
    assert_eq!(allowed, registered, "capabilities/main.json allows the registered commands");
}

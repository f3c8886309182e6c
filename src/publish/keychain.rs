//! Secrets (tokens, passwords, passphrases, secret keys) in the system's
//! keychain, never in the blog, its git history or the app's settings: the
//! desktop's Secret Service (GNOME Keyring, KWallet) where there is one,
//! else the kernel's keyutils keyring (a headless machine; it keeps secrets
//! until the machine restarts). `HANJI_KEYRING=keyutils` chooses keyutils.
//! A secret is kept per place (the remote, the server and user, the bucket
//! and key), not per blog, so every blog publishing there shares it.

use std::sync::{Arc, OnceLock};

use keyring_core::{Entry, Error};

use super::git;
use crate::config::{PublishTarget, TargetKind};

/// The keychain's service name for Hanji's secrets.
const SERVICE: &str = "hanji-publish";

/// The store: chosen once per process.
fn store() -> Result<&'static Arc<keyring_core::CredentialStore>, String> {
    static STORE: OnceLock<Result<Arc<keyring_core::CredentialStore>, String>> = OnceLock::new();
    STORE
        .get_or_init(|| {
            let wanted = std::env::var("HANJI_KEYRING").unwrap_or_default();
            if wanted != "keyutils"
                && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
                && let Ok(store) = dbus_secret_service_keyring_store::Store::new()
            {
                let store: Arc<keyring_core::CredentialStore> = store;
                // A bus without a Secret Service running fails here.
                let probe = Entry::new_in_store(&store, SERVICE, "probe").and_then(|e| e.get_password());
                if matches!(probe, Ok(_) | Err(Error::NoEntry)) {
                    return Ok(store);
                }
            }
            linux_keyutils_keyring_store::Store::new()
                .map(|store| store as Arc<keyring_core::CredentialStore>)
                .map_err(|e| format!("no keychain is available: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Which keychain holds the secrets: `Secret Service`, `keyutils`.
pub fn keychain_name() -> String {
    match store() {
        Ok(store) => store.vendor(),
        Err(error) => error,
    }
}

/// The name a target's secret is kept under: where it leads, not the blog.
pub fn account(target: &PublishTarget) -> String {
    match &target.kind {
        TargetKind::Git { remote, key: Some(key), .. } if git::is_ssh(remote) => format!("ssh-key:{}", key.display()),
        TargetKind::Git { remote, user: None, .. } => account_of_remote(remote),
        TargetKind::Git { remote, user: Some(user), .. } => format!("git:{user}@{remote}"),
        TargetKind::Bucket { endpoint, bucket, access_key, .. } => {
            format!("bucket:{access_key}@{}/{bucket}", endpoint.as_deref().unwrap_or("s3"))
        }
        TargetKind::Sftp { key: Some(key), .. } => format!("ssh-key:{}", key.display()),
        TargetKind::Sftp { host, port, user, .. } => format!("sftp:{user}@{host}:{port}"),
        TargetKind::Folder { path } => format!("folder:{}", path.display()),
    }
}

/// The name a git remote's token is kept under (a publish target's, and
/// the blog's own repository's).
pub fn account_of_remote(remote: &str) -> String {
    format!("git:@{remote}")
}

fn entry(target: &PublishTarget) -> Result<Entry, String> {
    entry_of(&account(target))
}

fn entry_of(account: &str) -> Result<Entry, String> {
    Entry::new_in_store(store()?, SERVICE, account).map_err(|e| e.to_string())
}

/// The secret kept under `account`, if any.
pub fn secret_of(account: &str) -> Option<String> {
    entry_of(account).ok()?.get_password().ok()
}

/// Keeps a secret under `account` (the blog's own remote's token).
pub fn keep_for(account: &str, secret: &str) -> Result<(), String> {
    entry_of(account)?.set_password(secret).map_err(|e| format!("the keychain ({}) refused it: {e}", keychain_name()))
}

/// The target's secret: `HANJI_PUBLISH_SECRET` if set (for CI, where no
/// keychain is), else the keychain's; None if neither has one.
pub fn secret(target: &PublishTarget) -> Option<String> {
    if let Ok(secret) = std::env::var("HANJI_PUBLISH_SECRET") {
        return Some(secret);
    }
    entry(target).ok()?.get_password().ok()
}

/// Keeps the target's secret in the keychain.
pub fn keep(target: &PublishTarget, secret: &str) -> Result<(), String> {
    entry(target)?.set_password(secret).map_err(|e| format!("the keychain ({}) refused it: {e}", keychain_name()))
}

/// Forgets the target's secret (a wrong one, before asking again).
pub fn forget(target: &PublishTarget) -> Result<(), String> {
    match entry(target)?.delete_credential() {
        Ok(()) | Err(Error::NoEntry) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

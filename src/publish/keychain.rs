//! Secrets (tokens, passwords, passphrases, secret keys) in the system's
//! keychain, never in the blog, its git history or the app's settings: the
//! desktop's Secret Service (GNOME Keyring, KWallet) through `keyring-core`
//! where there is one, else the kernel's keyutils (`linux-keyutils`): the
//! user's keyring, shared by the user's processes, kept until the machine
//! restarts (a headless machine, a server without a desktop).
//! `HANJI_KEYRING=keyutils` chooses keyutils. A secret is kept per place
//! (the remote, the server and user, the bucket and key), not per blog, so
//! every blog publishing there shares it.

use std::sync::{Arc, OnceLock};

use keyring_core::Entry;
use linux_keyutils::{KeyError, KeyRing, KeyRingIdentifier};

use super::git;
use crate::config::{PublishTarget, TargetKind};

/// The keychain's service name for Hanji's secrets.
const SERVICE: &str = "hanji-publish";

enum Keychain {
    SecretService(Arc<keyring_core::CredentialStore>),
    Keyutils,
}

/// The keychain: chosen once per process.
fn keychain() -> &'static Keychain {
    static KEYCHAIN: OnceLock<Keychain> = OnceLock::new();
    KEYCHAIN.get_or_init(|| {
        let wanted = std::env::var("HANJI_KEYRING").unwrap_or_default();
        if wanted != "keyutils"
            && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
            && let Ok(store) = dbus_secret_service_keyring_store::Store::new()
        {
            let store: Arc<keyring_core::CredentialStore> = store;
            // A bus without a Secret Service running fails here.
            let probe = Entry::new_in_store(&store, SERVICE, "probe").and_then(|e| e.get_password());
            if matches!(probe, Ok(_) | Err(keyring_core::Error::NoEntry)) {
                return Keychain::SecretService(store);
            }
        }
        Keychain::Keyutils
    })
}

/// Which keychain holds the secrets, for messages.
pub fn keychain_name() -> &'static str {
    match keychain() {
        Keychain::SecretService(_) => "the Secret Service",
        Keychain::Keyutils => "the kernel's keyutils keyring",
    }
}

fn user_keyring() -> Result<KeyRing, KeyError> {
    KeyRing::from_special_id(KeyRingIdentifier::User, true)
}

fn description(account: &str) -> String {
    format!("{SERVICE}:{account}")
}

/// The secret kept under `account`, if any.
pub fn secret_of(account: &str) -> Option<String> {
    match keychain() {
        Keychain::SecretService(store) => Entry::new_in_store(store, SERVICE, account).ok()?.get_password().ok(),
        Keychain::Keyutils => {
            let key = user_keyring().ok()?.search(&description(account)).ok()?;
            String::from_utf8(key.read_to_vec().ok()?).ok()
        }
    }
}

/// Keeps a secret under `account`.
pub fn keep_for(account: &str, secret: &str) -> Result<(), String> {
    let refused = |e: String| format!("{} refused it: {e}", keychain_name());
    match keychain() {
        Keychain::SecretService(store) => Entry::new_in_store(store, SERVICE, account)
            .and_then(|entry| entry.set_password(secret))
            .map_err(|e| refused(e.to_string())),
        Keychain::Keyutils => user_keyring()
            .and_then(|ring| ring.add_key(&description(account), secret.as_bytes()))
            .map(|_| ())
            .map_err(|e| refused(format!("{e:?}"))),
    }
}

/// Forgets the secret kept under `account`.
pub fn forget_for(account: &str) -> Result<(), String> {
    match keychain() {
        Keychain::SecretService(store) => {
            match Entry::new_in_store(store, SERVICE, account).and_then(|e| e.delete_credential()) {
                Ok(()) | Err(keyring_core::Error::NoEntry) => Ok(()),
                Err(e) => Err(e.to_string()),
            }
        }
        Keychain::Keyutils => match user_keyring().and_then(|ring| ring.search(&description(account))) {
            Ok(key) => key.invalidate().map_err(|e| format!("{e:?}")),
            Err(_) => Ok(()),
        },
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

/// The target's secret: `HANJI_PUBLISH_SECRET` if set (for CI, where no
/// keychain is), else the keychain's; None if neither has one.
pub fn secret(target: &PublishTarget) -> Option<String> {
    if let Ok(secret) = std::env::var("HANJI_PUBLISH_SECRET") {
        return Some(secret);
    }
    secret_of(&account(target))
}

/// Keeps the target's secret in the keychain.
pub fn keep(target: &PublishTarget, secret: &str) -> Result<(), String> {
    keep_for(&account(target), secret)
}

/// Forgets the target's secret (a wrong one, before asking again).
pub fn forget(target: &PublishTarget) -> Result<(), String> {
    forget_for(&account(target))
}

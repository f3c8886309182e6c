//! The SSH servers the author trusts, read the way OpenSSH reads
//! `known_hosts` (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT": comma-separated
//! host patterns with `*`, `?` and `!`, `[host]:port` for other ports,
//! hashed names `|1|salt|hmac`, `@revoked` and `@cert-authority` markers).
//!
//! Hanji reads OpenSSH's file and any file a target's settings name, and
//! never writes either: a server the author trusts is added to Hanji's own
//! file (`known_hosts` in its settings folder), one line appended in one
//! write. A key that changed is refused with the old and the new
//! fingerprints; only the author's own step (`--trust-changed-host
//! FINGERPRINT`) puts the new one in Hanji's file in place of the old.

use std::path::{Path, PathBuf};

use base64::Engine;

use crate::fs::{self, Durable, Folder, SitePath};

/// One key known for some hosts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    patterns: Vec<String>,
    key_type: String,
    key: Vec<u8>,
    revoked: bool,
}

/// What the known hosts say of a server's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Known {
    /// That key is known for that host.
    Match,
    /// Another key of the same type is known: the server changed, or
    /// someone is in between. The known key's fingerprint.
    Changed { known: String },
    /// The key is revoked (`@revoked`).
    Revoked,
    /// The host is not known.
    NotFound,
}

/// The known hosts files, Hanji's own first (its word wins: a key the
/// author replaced there is the one trusted).
#[derive(Debug, Clone)]
pub struct KnownHosts {
    /// Hanji's own, which trusting a host appends to.
    pub own: PathBuf,
    /// Read only: OpenSSH's, and the one a target's settings name.
    pub others: Vec<PathBuf>,
}

/// How a host is named in `known_hosts`: `host`, or `[host]:port`.
pub fn host_name(host: &str, port: u16) -> String {
    if port == 22 { host.to_string() } else { format!("[{host}]:{port}") }
}

/// `SHA256:…` of a key blob, as `ssh` shows it.
pub fn fingerprint_of(key: &[u8]) -> String {
    super::ssh::fingerprint(ring::digest::digest(&ring::digest::SHA256, key).as_ref())
}

impl KnownHosts {
    /// What the files say of `key` (its blob, as the server sent it) for
    /// `host:port`. A file that cannot be read knows nothing.
    pub fn check(&self, host: &str, port: u16, key: &[u8]) -> Known {
        let name = host_name(host, port);
        let key_type = key_type_of(key);
        for file in std::iter::once(&self.own).chain(&self.others) {
            let entries = read(file);
            let of_host: Vec<&Entry> = entries.iter().filter(|e| matches_host(&e.patterns, &name)).collect();
            if of_host.iter().any(|e| e.revoked && e.key == key) {
                return Known::Revoked;
            }
            if of_host.iter().any(|e| !e.revoked && e.key == key) {
                return Known::Match;
            }
            if let Some(other) = of_host.iter().find(|e| !e.revoked && Some(e.key_type.as_str()) == key_type.as_deref())
            {
                return Known::Changed { known: fingerprint_of(&other.key) };
            }
        }
        Known::NotFound
    }

    /// Adds `key` for `host:port` to Hanji's own file, one line in one
    /// write at its end; the file (and its folder) made if missing.
    pub fn trust(&self, host: &str, port: u16, key: &[u8]) -> std::io::Result<()> {
        let (folder, name) = self.own_folder()?;
        let line = line_of(&host_name(host, port), key);
        // A file that does not end its last line gets one first.
        let needs_newline = folder.read(&name).is_ok_and(|bytes| !bytes.is_empty() && !bytes.ends_with(b"\n"));
        let text = if needs_newline { format!("\n{line}") } else { line };
        folder.append(&name, text.as_bytes())
    }

    /// Puts `key` for `host:port` in Hanji's own file in place of every
    /// other key it has for that host (its other lines kept as they are).
    pub fn replace(&self, host: &str, port: u16, key: &[u8]) -> std::io::Result<()> {
        let (folder, name) = self.own_folder()?;
        let host = host_name(host, port);
        let old = folder.read(&name).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        let mut text: String = old
            .lines()
            .filter(|line| parse(line).is_none_or(|entry| !matches_host(&entry.patterns, &host)))
            .map(|line| format!("{line}\n"))
            .collect();
        text.push_str(&line_of(&host, key));
        folder.write(&name, text.as_bytes(), Durable::Flushed)
    }

    fn own_folder(&self) -> std::io::Result<(Folder, SitePath)> {
        let parent = self.own.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = self.own.file_name().and_then(|n| n.to_str()).unwrap_or("known_hosts");
        let name = SitePath::new(name).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        Ok((Folder::open(parent, true)?, name))
    }
}

/// `host ssh-ed25519 AAAA… added by Hanji`.
fn line_of(host: &str, key: &[u8]) -> String {
    let key_type = key_type_of(key).unwrap_or_else(|| "ssh-unknown".into());
    let encoded = base64::engine::general_purpose::STANDARD.encode(key);
    format!("{host} {key_type} {encoded} added by Hanji\n")
}

/// The type a key blob names first (`ssh-ed25519`), as SSH encodes it: a
/// length, then the name.
fn key_type_of(key: &[u8]) -> Option<String> {
    let len = u32::from_be_bytes(key.get(..4)?.try_into().ok()?) as usize;
    let name = key.get(4..4usize.checked_add(len)?)?;
    String::from_utf8(name.to_vec()).ok()
}

fn read(file: &Path) -> Vec<Entry> {
    let Ok(text) = fs::read_string(file) else { return Vec::new() };
    text.lines().filter_map(parse).collect()
}

/// One line, as sshd(8) reads it; None for a comment, a blank line or one
/// it cannot read (which does not stop the lines after it).
fn parse(line: &str) -> Option<Entry> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut fields = line.split_whitespace();
    let mut first = fields.next()?;
    let mut revoked = false;
    if let Some(marker) = first.strip_prefix('@') {
        match marker {
            "revoked" => revoked = true,
            // A certificate authority signs host keys; Hanji checks keys.
            _ => return None,
        }
        first = fields.next()?;
    }
    let key_type = fields.next()?.to_string();
    let key = base64::engine::general_purpose::STANDARD.decode(fields.next()?).ok()?;
    let patterns = first.split(',').map(str::to_string).collect();
    Some(Entry { patterns, key_type, key, revoked })
}

/// Whether `host` (as `host_name` writes it) is one of `patterns`: a
/// hashed name, or patterns with wildcards, any negated one ruling it out
/// (match_hostname in OpenSSH's match.c).
fn matches_host(patterns: &[String], host: &str) -> bool {
    let mut matched = false;
    for pattern in patterns {
        if let Some(hashed) = pattern.strip_prefix("|1|") {
            matched |= hashed_is(hashed, host);
            continue;
        }
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, pattern.as_str()),
        };
        if wildcard(&pattern.to_ascii_lowercase(), &host.to_ascii_lowercase()) {
            if negated {
                return false;
            }
            matched = true;
        }
    }
    matched
}

/// `salt|hmac`: HMAC-SHA1 of the name under the salt, both in base64.
fn hashed_is(hashed: &str, host: &str) -> bool {
    let Some((salt, mac)) = hashed.split_once('|') else { return false };
    let decode = |text: &str| base64::engine::general_purpose::STANDARD.decode(text).ok();
    let (Some(salt), Some(mac)) = (decode(salt), decode(mac)) else { return false };
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, &salt);
    ring::hmac::verify(&key, host.as_bytes(), &mac).is_ok()
}

/// `*` any run, `?` any one character (match_pattern in OpenSSH's match.c).
fn wildcard(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key blob of `kind` with `body`.
    fn key(kind: &str, body: &[u8]) -> Vec<u8> {
        let mut blob = (kind.len() as u32).to_be_bytes().to_vec();
        blob.extend(kind.as_bytes());
        blob.extend(body);
        blob
    }

    fn encoded(key: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(key)
    }

    #[test]
    fn hosts_are_found_as_openssh_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (key("ssh-ed25519", b"a"), key("ssh-ed25519", b"b"));
        let rsa = key("ssh-rsa", b"r");
        // A hashed name for `[127.0.0.1]:2222`, made as `ssh-keygen -H` makes one.
        let salt = b"0123456789abcdefghij";
        let mac = ring::hmac::sign(
            &ring::hmac::Key::new(ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, salt),
            b"[127.0.0.1]:2222",
        );
        let hashed = format!("|1|{}|{}", encoded(salt), encoded(mac.as_ref()));
        let text = format!(
            "# mine\n\nnot a line\ngit.example.com,10.0.0.1 ssh-ed25519 {}\n*.example.org,!bad.example.org ssh-ed25519 {}\n\
             {hashed} ssh-ed25519 {}\n@revoked old.example.com ssh-ed25519 {}\n@cert-authority *.corp ssh-ed25519 {}\n",
            encoded(&a),
            encoded(&a),
            encoded(&b),
            encoded(&a),
            encoded(&b)
        );
        let openssh = dir.path().join("openssh");
        std::fs::write(&openssh, &text).unwrap();
        let hosts = KnownHosts { own: dir.path().join("own/known_hosts"), others: vec![openssh.clone()] };
        assert_eq!(hosts.check("git.example.com", 22, &a), Known::Match);
        assert_eq!(hosts.check("10.0.0.1", 22, &a), Known::Match, "the second name of a line");
        assert_eq!(hosts.check("blog.example.org", 22, &a), Known::Match, "a wildcard");
        assert_eq!(hosts.check("bad.example.org", 22, &a), Known::NotFound, "a negated pattern rules it out");
        assert_eq!(hosts.check("127.0.0.1", 2222, &b), Known::Match, "a hashed name");
        assert_eq!(hosts.check("127.0.0.1", 22, &b), Known::NotFound, "another port is another host");
        assert_eq!(hosts.check("git.example.com", 22, &b), Known::Changed { known: fingerprint_of(&a) });
        assert_eq!(hosts.check("git.example.com", 22, &rsa), Known::NotFound, "a key of a new type is asked about");
        assert_eq!(hosts.check("old.example.com", 22, &a), Known::Revoked);
        assert_eq!(hosts.check("x.corp", 22, &b), Known::NotFound, "certificate authorities are not host keys");

        // Trusting appends to Hanji's own file; OpenSSH's is never written.
        hosts.trust("new.example.com", 2200, &b).unwrap();
        assert_eq!(hosts.check("new.example.com", 2200, &b), Known::Match);
        assert_eq!(std::fs::read_to_string(&openssh).unwrap(), text);
        // A changed key: Hanji's own word wins once the author replaces it.
        hosts.replace("git.example.com", 22, &b).unwrap();
        assert_eq!(hosts.check("git.example.com", 22, &b), Known::Match);
        assert_eq!(std::fs::read_to_string(&openssh).unwrap(), text, "still untouched");
        let own = std::fs::read_to_string(dir.path().join("own/known_hosts")).unwrap();
        assert!(own.contains("[new.example.com]:2200 ssh-ed25519 "), "the other line kept: {own}");
        assert_eq!(own.lines().count(), 2);
    }

    #[test]
    fn wildcards_match_as_in_openssh() {
        assert!(wildcard("*.example.com", "a.b.example.com"));
        assert!(wildcard("host?", "host1"));
        assert!(!wildcard("host?", "host12"));
        assert!(wildcard("*", ""));
        assert!(!wildcard("a*b", "ac"));
    }
}

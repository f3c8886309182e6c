//! `[publish.NAME]` in `hanji.toml`: where `hanji publish` and the app's
//! Publish send the site. Each table names a `kind` (a git branch, a bucket,
//! an SFTP server, a folder) and that kind's settings. Never a secret: a
//! token, password or passphrase is kept in the system's keychain, and a key
//! that looks like one is refused with a hint saying so.

use std::path::PathBuf;

use crate::diagnostics::Problem;

/// One place the site is published to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PublishTarget {
    /// The `NAME` of `[publish.NAME]`.
    pub name: String,
    pub kind: TargetKind,
    /// The site's address once published, shown after a publish; else the
    /// blog's `base_url`.
    pub url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// A branch of a git remote (GitHub Pages' `gh-pages`, a
    /// `<user>.github.io` repository), over HTTPS with a token or SSH with a key.
    Git {
        /// `https://github.com/me/me.github.io.git`, `git@github.com:me/blog.git`,
        /// `ssh://git@host/blog.git`, or a folder holding a repository.
        remote: String,
        branch: String,
        /// The user name sent with an HTTPS token (GitHub takes any).
        user: Option<String>,
        /// The SSH private key; else the SSH agent's keys.
        key: Option<PathBuf>,
        /// The SSH hosts known; else `~/.ssh/known_hosts`.
        known_hosts: Option<PathBuf>,
    },
    /// An S3-compatible bucket: AWS S3, Cloudflare R2, Backblaze B2, MinIO.
    Bucket {
        bucket: String,
        /// The service's address; none for AWS S3 itself.
        endpoint: Option<String>,
        region: String,
        /// A folder inside the bucket; "" for its top.
        prefix: String,
        /// The access key's ID (its secret is in the keychain).
        access_key: String,
    },
    /// A folder on a server reached over SFTP, with a key or a password.
    Sftp {
        host: String,
        port: u16,
        user: String,
        /// The folder the site goes into (the web server's document root).
        path: String,
        /// The SSH private key; else a password, else the SSH agent.
        key: Option<PathBuf>,
        known_hosts: Option<PathBuf>,
    },
    /// A folder: a mounted drive, a synced folder.
    Folder { path: PathBuf },
}

impl TargetKind {
    /// `git`, `bucket`, `sftp` or `folder`, as `kind = …` names it.
    pub fn name(&self) -> &'static str {
        match self {
            TargetKind::Git { .. } => "git",
            TargetKind::Bucket { .. } => "bucket",
            TargetKind::Sftp { .. } => "sftp",
            TargetKind::Folder { .. } => "folder",
        }
    }
}

impl PublishTarget {
    /// The target's settings as text, as `hanji.toml` and the app's form
    /// have them (`kind` aside); defaults included.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let path = |p: &std::path::Path| p.display().to_string();
        let mut fields: Vec<(&'static str, Option<String>)> = match &self.kind {
            TargetKind::Git { remote, branch, user, key, known_hosts } => vec![
                ("remote", Some(remote.clone())),
                ("branch", Some(branch.clone())),
                ("user", user.clone()),
                ("key", key.as_deref().map(path)),
                ("known_hosts", known_hosts.as_deref().map(path)),
            ],
            TargetKind::Bucket { bucket, endpoint, region, prefix, access_key } => vec![
                ("bucket", Some(bucket.clone())),
                ("endpoint", endpoint.clone()),
                ("region", Some(region.clone())),
                ("prefix", Some(prefix.clone()).filter(|p| !p.is_empty())),
                ("access_key", Some(access_key.clone())),
            ],
            TargetKind::Sftp { host, port, user, path: folder, key, known_hosts } => vec![
                ("host", Some(host.clone())),
                ("port", Some(port.to_string())),
                ("user", Some(user.clone())),
                ("path", Some(folder.clone())),
                ("key", key.as_deref().map(path)),
                ("known_hosts", known_hosts.as_deref().map(path)),
            ],
            TargetKind::Folder { path: folder } => vec![("path", Some(path(folder)))],
        };
        fields.push(("url", self.url.clone()));
        fields.into_iter().filter_map(|(key, value)| Some((key, value?))).collect()
    }
}

/// A target from the app's form: `kind` and its settings as text (empty
/// ones left out), checked as `hanji.toml`'s are.
pub fn from_fields(name: &str, kind: &str, fields: &[(String, String)]) -> Result<PublishTarget, Problem> {
    let bare = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !bare {
        return Err(Problem::error(1, 1, format!("`{name}` cannot name a target"))
            .with_hint("use letters, digits, - and _ only, e.g. github-pages"));
    }
    let mut table = toml::Table::new();
    table.insert("kind".into(), toml::Value::String(kind.to_string()));
    for (key, value) in fields.iter().filter(|(_, v)| !v.trim().is_empty()) {
        let value = match (key.as_str(), value.trim().parse::<i64>()) {
            ("port", Ok(port)) => toml::Value::Integer(port),
            _ => toml::Value::String(value.trim().to_string()),
        };
        table.insert(key.clone(), value);
    }
    target("", name, &table)
}

/// `text` (`hanji.toml`) with `[publish.NAME]` set to `target`, everything
/// else as written.
pub fn set_target(text: &str, target: &PublishTarget) -> Result<String, Problem> {
    let mut document: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| Problem::error(1, 1, format!("hanji.toml does not parse: {e}")))?;
    let publish = document.entry("publish").or_insert(toml_edit::table());
    let Some(publish) = publish.as_table_mut() else {
        return Err(
            Problem::error(1, 1, "`publish` in hanji.toml is not a table").with_hint("make it [publish.NAME] tables")
        );
    };
    publish.set_implicit(true);
    let mut table = toml_edit::Table::new();
    table.insert("kind", toml_edit::value(target.kind.name()));
    for (key, value) in target.fields() {
        match (key, value.parse::<i64>()) {
            ("port", Ok(port)) => table.insert(key, toml_edit::value(port)),
            _ => table.insert(key, toml_edit::value(value)),
        };
    }
    publish.insert(&target.name, toml_edit::Item::Table(table));
    Ok(document.to_string())
}

const KINDS: &[&str] = &["git", "bucket", "sftp", "folder"];

/// The settings each kind takes (besides `kind` and `url`).
fn keys_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "git" => &["remote", "branch", "user", "key", "known_hosts"],
        "bucket" => &["bucket", "endpoint", "region", "prefix", "access_key"],
        "sftp" => &["host", "port", "user", "path", "key", "known_hosts"],
        _ => &["path"],
    }
}

/// Names that hold a secret: never in a file that may be shared or committed.
const SECRETS: &[&str] =
    &["token", "password", "passphrase", "secret", "secret_key", "secret_access_key", "access_token", "pass"];

/// The targets of `[publish.*]` in `text`, whose parsed table is `table`.
pub fn targets(text: &str, table: &toml::Table) -> Result<Vec<PublishTarget>, Problem> {
    let Some(publish) = table.get("publish") else { return Ok(Vec::new()) };
    let at = |name: Option<&str>, key: &str| position(text, name, key);
    let Some(publish) = publish.as_table() else {
        let (line, column) = at(None, "publish");
        return Err(Problem::error(line, column, "`publish` should be a table of targets")
            .with_hint("write [publish.NAME] with a kind = \"git\", \"bucket\", \"sftp\" or \"folder\""));
    };
    let mut targets = Vec::new();
    for (name, value) in publish {
        let Some(settings) = value.as_table() else {
            let (line, column) = at(None, name);
            return Err(Problem::error(line, column, format!("`publish.{name}` should be a table"))
                .with_hint(format!("write [publish.{name}] on a line of its own, then its settings")));
        };
        targets.push(target(text, name, settings)?);
    }
    Ok(targets)
}

fn target(text: &str, name: &str, settings: &toml::Table) -> Result<PublishTarget, Problem> {
    let at = |key: &str| position(text, Some(name), key);
    let error = |key: &str, message: String, hint: String| {
        let (line, column) = at(key);
        Problem::error(line, column, message).with_hint(hint)
    };
    let kinds = KINDS.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ");
    let kind = match settings.get("kind") {
        None => {
            return Err(error(
                "",
                format!("the publish target `{name}` has no `kind`"),
                format!("add kind = one of {kinds}"),
            ));
        }
        Some(kind) => kind.as_str().unwrap_or_default().to_string(),
    };
    if !KINDS.contains(&kind.as_str()) {
        let hint = match super::nearest(&kind, KINDS) {
            Some(known) => format!("did you mean \"{known}\"?"),
            None => format!("write one of {kinds}"),
        };
        return Err(error("kind", format!("`{kind}` is not a kind of publish target"), hint));
    }
    let known = keys_of(&kind);
    let unknown = settings.keys().find(|k| !["kind", "url"].contains(&k.as_str()) && !known.contains(&k.as_str()));
    if let Some(key) = unknown {
        let lower = key.to_ascii_lowercase();
        let hint = if SECRETS.iter().any(|s| lower == *s || lower.ends_with(&format!("_{s}"))) {
            "secrets are never kept in hanji.toml (it may be shared or committed): Hanji asks for it when it \
             publishes and keeps it in the system's keychain; remove this line"
                .to_string()
        } else {
            match super::nearest(key, known) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!("a {kind} target takes: kind, url, {}", known.join(", ")),
            }
        };
        return Err(error(key, format!("unknown setting `{key}` in [publish.{name}]"), hint));
    }
    let text_of = |key: &str| -> Result<Option<String>, Problem> {
        match settings.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
            Some(toml::Value::String(_)) => Err(error(
                key,
                format!("`{key}` in [publish.{name}] is empty"),
                "write a value, or leave it out".into(),
            )),
            Some(_) => Err(error(
                key,
                format!("`{key}` in [publish.{name}] should be text"),
                format!("write {key} = \"…\", quoted"),
            )),
        }
    };
    let required = |key: &str, example: &str| -> Result<String, Problem> {
        text_of(key)?.ok_or_else(|| {
            error("", format!("the {kind} target `{name}` needs `{key}`"), format!("add {key} = \"{example}\""))
        })
    };
    let url = text_of("url")?;
    let kind = match kind.as_str() {
        "git" => TargetKind::Git {
            remote: required("remote", "https://github.com/me/me.github.io.git")?,
            branch: text_of("branch")?.unwrap_or_else(|| "gh-pages".to_string()),
            user: text_of("user")?,
            key: text_of("key")?.map(PathBuf::from),
            known_hosts: text_of("known_hosts")?.map(PathBuf::from),
        },
        "bucket" => TargetKind::Bucket {
            bucket: required("bucket", "my-blog")?,
            endpoint: text_of("endpoint")?,
            region: text_of("region")?.unwrap_or_else(|| "us-east-1".to_string()),
            prefix: text_of("prefix")?.unwrap_or_default().trim_matches('/').to_string(),
            access_key: required("access_key", "AKIA…")?,
        },
        "sftp" => TargetKind::Sftp {
            host: required("host", "example.com")?,
            port: match settings.get("port") {
                None => 22,
                Some(toml::Value::Integer(port)) if (1..=65535).contains(port) => *port as u16,
                Some(_) => {
                    return Err(error(
                        "port",
                        format!("`port` in [publish.{name}] is not a port"),
                        "write a number from 1 to 65535, unquoted, or leave it out for 22".into(),
                    ));
                }
            },
            user: required("user", "me")?,
            path: required("path", "/var/www/blog")?,
            key: text_of("key")?.map(PathBuf::from),
            known_hosts: text_of("known_hosts")?.map(PathBuf::from),
        },
        _ => TargetKind::Folder { path: PathBuf::from(required("path", "/media/usb/blog")?) },
    };
    Ok(PublishTarget { name: name.to_string(), kind, url })
}

/// Where `key = …` stands inside `[publish.NAME]` (the table's header for
/// an empty key), else inside the `[publish]` table; (1, 1) if not found.
fn position(text: &str, name: Option<&str>, key: &str) -> (usize, usize) {
    let headers: Vec<String> = match name {
        Some(name) => vec![format!("[publish.{name}]"), format!("[publish.\"{name}\"]")],
        None => vec!["[publish]".to_string()],
    };
    let mut inside = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            let header: String = trimmed.split('#').next().unwrap_or("").split_whitespace().collect();
            inside = headers.contains(&header);
            if inside && key.is_empty() {
                return (index + 1, 1);
            }
            continue;
        }
        if inside && !key.is_empty() {
            let unquoted = trimmed.trim_start_matches(['"', '\'']);
            if let Some(rest) = unquoted.strip_prefix(key)
                && rest.trim_start_matches(['"', '\'']).trim_start().starts_with('=')
            {
                return (index + 1, line.len() - line.trim_start().len() + 1);
            }
        }
    }
    (1, 1)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::config::Config;

    fn by_name(targets: &[PublishTarget]) -> BTreeMap<&str, &PublishTarget> {
        targets.iter().map(|t| (t.name.as_str(), t)).collect()
    }

    fn parse(text: &str) -> Result<Vec<PublishTarget>, Problem> {
        Config::parse(text).map(|c| c.publish)
    }

    #[test]
    fn every_kind_reads() {
        let text = r#"title = "Blog"

[publish.pages]
kind = "git"
remote = "https://github.com/me/me.github.io.git"
url = "https://me.github.io/"

[publish.bucket]
kind = "bucket"
bucket = "blog"
endpoint = "http://127.0.0.1:9000"
access_key = "AKIA"
prefix = "/site/"

[publish.host]
kind = "sftp"
host = "example.com"
port = 2222
user = "me"
path = "/var/www"

[publish.usb]
kind = "folder"
path = "/media/usb/blog"
"#;
        let targets = parse(text).unwrap();
        let by = by_name(&targets);
        assert_eq!(by.len(), 4);
        match &by["pages"].kind {
            TargetKind::Git { branch, remote, .. } => {
                assert_eq!(branch, "gh-pages", "the default branch");
                assert!(remote.ends_with(".git"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(by["pages"].url.as_deref(), Some("https://me.github.io/"));
        assert!(
            matches!(&by["bucket"].kind, TargetKind::Bucket { prefix, region, .. } if prefix == "site" && region == "us-east-1")
        );
        assert!(matches!(&by["host"].kind, TargetKind::Sftp { port: 2222, .. }));
        assert!(matches!(&by["usb"].kind, TargetKind::Folder { path } if path == &PathBuf::from("/media/usb/blog")));
    }

    #[test]
    fn a_target_from_the_form_is_written_into_hanji_toml_keeping_the_rest() {
        let fields =
            |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let target = from_fields(
            "host",
            "sftp",
            &fields(&[("host", "example.com"), ("port", "2222"), ("user", "me"), ("path", "/www"), ("key", "")]),
        )
        .unwrap();
        assert!(matches!(target.kind, TargetKind::Sftp { port: 2222, key: None, .. }));
        let text = "# my blog\ntitle = \"Blog\"  # its name\n";
        let written = set_target(text, &target).unwrap();
        assert!(written.starts_with(text), "{written}");
        assert_eq!(Config::parse(&written).unwrap().publish, vec![target.clone()]);
        let moved = PublishTarget { kind: TargetKind::Folder { path: "/media/usb".into() }, ..target };
        let again = set_target(&written, &moved).unwrap();
        assert_eq!(Config::parse(&again).unwrap().publish, vec![moved], "the target is replaced, not added");

        let problem =
            from_fields("host", "sftp", &fields(&[("host", "h"), ("user", "u"), ("path", "/"), ("password", "x")]))
                .unwrap_err();
        assert!(problem.hint.unwrap().contains("keychain"));
        assert!(from_fields("my target", "folder", &fields(&[("path", "/x")])).is_err());
    }

    #[test]
    fn a_secret_is_refused_with_a_hint() {
        let text = "[publish.pages]\nkind = \"git\"\nremote = \"https://x/y.git\"\ntoken = \"ghp_abc\"\n";
        let problem = parse(text).unwrap_err();
        assert_eq!((problem.line, problem.column), (4, 1));
        assert_eq!(problem.message, "unknown setting `token` in [publish.pages]");
        assert!(problem.hint.unwrap().contains("keychain"));
        let text = "[publish.host]\nkind = \"sftp\"\nhost = \"h\"\nuser = \"u\"\npath = \"/\"\npassword = \"x\"\n";
        assert!(parse(text).unwrap_err().hint.unwrap().contains("keychain"));
    }

    #[test]
    fn mistakes_name_their_line_and_the_fix() {
        let text = "title = \"x\"\n\n[publish.pages]\nkind = \"git\"\nremote = \"r\"\nbrnach = \"main\"\n";
        let problem = parse(text).unwrap_err();
        assert_eq!((problem.line, problem.message.as_str()), (6, "unknown setting `brnach` in [publish.pages]"));
        assert_eq!(problem.hint.as_deref(), Some("did you mean `branch`?"));

        let problem = parse("[publish.x]\nkind = \"gti\"\n").unwrap_err();
        assert_eq!((problem.line, problem.hint.as_deref()), (2, Some("did you mean \"git\"?")));

        let problem = parse("[publish.x]\npath = \"/a\"\n").unwrap_err();
        assert_eq!((problem.line, problem.message.as_str()), (1, "the publish target `x` has no `kind`"));

        let problem = parse("[publish.x]\nkind = \"bucket\"\nbucket = \"b\"\n").unwrap_err();
        assert_eq!(problem.message, "the bucket target `x` needs `access_key`");

        let problem = parse("[publish.x]\nkind = \"sftp\"\nhost = \"h\"\nuser = \"u\"\npath = \"/\"\nport = 70000\n")
            .unwrap_err();
        assert_eq!(problem.line, 6);
        assert!(Config::parse("publish = 3").is_err());
    }
}

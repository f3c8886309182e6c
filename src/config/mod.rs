//! `hanji.toml`: the site's settings, with defaults for everything. In a blog
//! made with another tool, the defaults are what its own settings say (see
//! `layout`), and `hanji.toml` is read over them. `publish` reads the
//! `[publish.NAME]` targets.

pub mod publish;

mod images;
mod services;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use images::Images;
pub use services::{Analytics, AnalyticsProvider, Comments, CommentsProvider};

use crate::diagnostics::Problem;
use crate::text::line_column;
use crate::tool::{Kind, Layout};
pub use publish::{PublishTarget, TargetKind, from_fields, set_target};

/// The name of the settings file at the top of a blog folder.
pub const FILE_NAME: &str = "hanji.toml";

/// How a tag's page heading is written from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TagTitle {
    /// `nccl` → `Nccl`, as tailwind-nextjs-starter-blog shows it.
    #[default]
    Capitalize,
    /// The tag exactly as the posts spell it.
    AsIs,
}

impl TagTitle {
    pub fn apply(self, name: &str) -> String {
        match self {
            TagTitle::AsIs => name.to_string(),
            TagTitle::Capitalize => {
                let mut chars = name.chars();
                match chars.next() {
                    Some(first) => first.to_uppercase().chain(chars).collect(),
                    None => String::new(),
                }
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    pub title: String,
    pub description: String,
    pub base_url: String,
    /// BCP 47, e.g. `ko-KR`; dates on pages are written for it.
    pub locale: String,
    pub author: String,
    pub posts_per_page: usize,
    /// Where the posts are, relative to the blog folder.
    pub posts_dir: PathBuf,
    pub tag_title: TagTitle,
    /// How many of the newest posts the feeds carry.
    pub feed_limit: usize,
    /// Where `hanji export` writes when no `--out` is given, inside the blog
    /// folder; the loader never reads it.
    pub output_dir: PathBuf,
    /// The address of each post: a pattern of `:year`, `:month`, `:day`,
    /// `:slug` (or `:title`), `:categories` (`/:year/:month/:slug/`), or one
    /// of Jekyll's styles (`date`, `pretty`, `ordinal`, `none`). None: the
    /// layout's own (see `site::routes`). A Jekyll blog's `permalink` is read
    /// into it.
    pub permalink: Option<String>,
    /// Categories are tags too, in one list with them, rather than a
    /// taxonomy with pages of its own.
    pub categories_are_tags: bool,
    /// Whether the exported site has its search: a box on every page, a
    /// results page and the index the browser searches (see `search`).
    pub search: bool,
    /// The blog's time zone (`Asia/Seoul`), in which a post's date comes:
    /// a post dated later is scheduled until then. None is the computer's.
    pub time_zone: Option<String>,
    /// How many related posts (by shared tags) a post's page lists; 0 none.
    pub related_posts: usize,
    /// How images are sized for the screen.
    pub images: Images,
    /// Comments under each exported post, if a provider is named.
    pub comments: Option<Comments>,
    /// Analytics on every exported page, if a provider is named.
    pub analytics: Option<Analytics>,
    /// How the folder is laid out: detected, or named by `layout = "hugo"`.
    /// Not itself a setting (only its kind is), so not (de)serialized.
    #[serde(skip)]
    pub layout: Layout,
    /// Where the site is published: `[publish.NAME]` tables (see `publish`).
    #[serde(skip)]
    pub publish: Vec<PublishTarget>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            title: "My blog".to_string(),
            description: String::new(),
            base_url: "/".to_string(),
            locale: "en-US".to_string(),
            author: String::new(),
            posts_per_page: 5,
            posts_dir: PathBuf::from("posts"),
            tag_title: TagTitle::Capitalize,
            feed_limit: 20,
            output_dir: PathBuf::from("public"),
            permalink: None,
            categories_are_tags: false,
            search: true,
            time_zone: None,
            related_posts: 3,
            images: Images::default(),
            comments: None,
            analytics: None,
            layout: Layout::default(),
            publish: Vec::new(),
        }
    }
}

const KEYS: &[&str] = &[
    "title",
    "description",
    "base_url",
    "locale",
    "author",
    "posts_per_page",
    "posts_dir",
    "tag_title",
    "feed_limit",
    "output_dir",
    "permalink",
    "categories_are_tags",
    "search",
    "time_zone",
    "related_posts",
    "images",
    "comments",
    "analytics",
    "layout",
    "publish",
];

/// `layout = "auto"`, the default: the layout is detected from the folder.
const AUTO: &str = "auto";

impl Config {
    /// The blog's time zone: `time_zone`, else the computer's.
    pub fn time_zone(&self) -> jiff::tz::TimeZone {
        self.time_zone
            .as_deref()
            .and_then(|zone| jiff::tz::TimeZone::get(zone).ok())
            .unwrap_or_else(jiff::tz::TimeZone::system)
    }

    /// Reads `hanji.toml` text. Every problem names its line; an unknown key
    /// suggests the nearest known one.
    pub fn parse(text: &str) -> Result<Config, Problem> {
        Config::parse_over(text, Config::default())
    }

    /// Reads `hanji.toml` text over `base` (the settings detected in a blog
    /// made with another tool): each setting the text has replaces the
    /// base's, the others stay.
    pub fn parse_over(text: &str, base: Config) -> Result<Config, Problem> {
        let table: toml::Table = toml::from_str(text).map_err(|e| toml_problem(text, &e))?;
        for key in table.keys() {
            if !KEYS.contains(&key.as_str()) {
                let (line, column) = key_position(text, key);
                let problem = Problem::error(line, column, format!("unknown setting `{key}`"));
                return Err(match nearest(key, KEYS) {
                    Some(known) => problem.with_hint(format!("did you mean `{known}`?")),
                    None => problem.with_hint(format!("known settings: {}", KEYS.join(", "))),
                });
            }
        }
        layout_setting(text)?;
        let targets = publish::targets(text, &table)?;
        let parsed: Config = toml::from_str(text).map_err(|e| toml_problem(text, &e))?;
        let mut config = base;
        for key in table.keys() {
            config.take(key, &parsed);
        }
        config.publish = targets;
        config.validate(text)?;
        Ok(config)
    }

    /// Takes the setting `key` from `other`.
    fn take(&mut self, key: &str, other: &Config) {
        match key {
            "title" => self.title.clone_from(&other.title),
            "description" => self.description.clone_from(&other.description),
            "base_url" => self.base_url.clone_from(&other.base_url),
            "locale" => self.locale.clone_from(&other.locale),
            "author" => self.author.clone_from(&other.author),
            "posts_per_page" => self.posts_per_page = other.posts_per_page,
            "posts_dir" => self.posts_dir.clone_from(&other.posts_dir),
            "tag_title" => self.tag_title = other.tag_title,
            "feed_limit" => self.feed_limit = other.feed_limit,
            "output_dir" => self.output_dir.clone_from(&other.output_dir),
            "permalink" => self.permalink.clone_from(&other.permalink),
            "categories_are_tags" => self.categories_are_tags = other.categories_are_tags,
            "search" => self.search = other.search,
            "time_zone" => self.time_zone.clone_from(&other.time_zone),
            "related_posts" => self.related_posts = other.related_posts,
            "images" => self.images.clone_from(&other.images),
            "comments" => self.comments.clone_from(&other.comments),
            "analytics" => self.analytics.clone_from(&other.analytics),
            // Chosen before the folder is read: see `layout_setting`.
            _ => {}
        }
    }

    fn validate(&self, text: &str) -> Result<(), Problem> {
        let at = |key: &str| key_position(text, key);
        if self.posts_per_page == 0 {
            let (line, column) = at("posts_per_page");
            return Err(Problem::error(line, column, "`posts_per_page` must be at least 1")
                .with_hint("write posts_per_page = 5, or leave it out"));
        }
        if !is_language_tag(&self.locale) {
            let (line, column) = at("locale");
            return Err(Problem::error(line, column, format!("`{}` is not a locale", self.locale))
                .with_hint("write a BCP 47 tag such as \"ko-KR\" or \"en-US\""));
        }
        for (key, folder) in [("posts_dir", &self.posts_dir), ("output_dir", &self.output_dir)] {
            let outside = folder.is_absolute()
                || folder.components().any(|c| matches!(c, std::path::Component::ParentDir))
                || folder.as_os_str().is_empty();
            if outside {
                let (line, column) = at(key);
                return Err(Problem::error(line, column, format!("`{key}` must be a folder inside the blog"))
                    .with_hint("write a relative path such as \"posts\""));
            }
        }
        if let Some(zone) = &self.time_zone
            && jiff::tz::TimeZone::get(zone).is_err()
        {
            let (line, column) = at("time_zone");
            return Err(Problem::error(line, column, format!("`{zone}` is not a time zone"))
                .with_hint("write an IANA name such as \"Asia/Seoul\", \"America/New_York\" or \"UTC\""));
        }
        if let Some((key, message, hint)) = self.images.problem() {
            let (line, column) = key_position(text, key);
            return Err(Problem::error(line, column, message).with_hint(hint));
        }
        let services = [
            ("comments", self.comments.as_ref().map(Comments::missing)),
            ("analytics", self.analytics.as_ref().map(Analytics::missing)),
        ];
        for (table, missing) in services {
            if let Some(missing) = missing.filter(|m| !m.is_empty()) {
                let (line, column) = table_position(text, table);
                let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
                return Err(Problem::error(line, column, format!("`[{table}]` needs {}", names.join(" and ")))
                    .with_hint(format!(
                        "see `[{table}]` in the guide (Comments and analytics) for what each provider needs"
                    )));
            }
        }
        let overlap = |other: &Path| self.output_dir.starts_with(other) || other.starts_with(&self.output_dir);
        let statics = &self.layout.static_dirs;
        if overlap(&self.posts_dir) || statics.iter().any(|dir| overlap(&dir.folder)) {
            let (line, column) = at("output_dir");
            let folders: Vec<String> = statics.iter().map(|dir| format!("`{}/`", dir.folder.display())).collect();
            return Err(Problem::error(
                line,
                column,
                format!("`output_dir` overlaps the posts or {}", folders.join(", ")),
            )
            .with_hint(format!("export to a folder of its own, such as \"{}\"", self.free_output_dir())));
        }
        Ok(())
    }

    /// The default export folder for this layout.
    fn free_output_dir(&self) -> &'static str {
        self.layout.tool().output_dir()
    }
}

/// The layout `hanji.toml` names with `layout = "hugo"`; None for `"auto"` or
/// when it names none, and the folder is looked at to find it.
pub fn layout_setting(text: &str) -> Result<Option<Kind>, Problem> {
    let table: toml::Table = toml::from_str(text).map_err(|e| toml_problem(text, &e))?;
    let Some(value) = table.get("layout") else { return Ok(None) };
    let names: Vec<&str> = std::iter::once(AUTO).chain(Kind::ALL.iter().map(|k| k.setting())).collect();
    let (line, column) = key_position(text, "layout");
    let Some(name) = value.as_str() else {
        return Err(Problem::error(line, column, "`layout` should be text")
            .with_hint(format!("write one of {}", quoted(&names))));
    };
    if name == AUTO {
        return Ok(None);
    }
    match Kind::from_setting(name) {
        Some(kind) => Ok(Some(kind)),
        None => {
            let problem = Problem::error(line, column, format!("`{name}` is not a layout"));
            Err(match nearest(name, &names) {
                Some(known) => problem.with_hint(format!("did you mean \"{known}\"?")),
                None => problem.with_hint(format!("write one of {}", quoted(&names))),
            })
        }
    }
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
}

/// `ko`, `ko-KR`, `zh-Hant-TW`: letters and digits in hyphen-separated parts.
pub(crate) fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split(['-', '_']);
    let language = parts.next().unwrap_or("");
    (2..=8).contains(&language.len())
        && language.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn toml_problem(text: &str, error: &toml::de::Error) -> Problem {
    let (line, column) = error.span().map(|s| line_column(text, s.start)).unwrap_or((1, 1));
    let message = error.message().trim().replace("usize", "a whole number");
    // Name the setting when the error is about its value.
    let key = text.lines().nth(line - 1).and_then(|l| l.split_once('=')).map(|(k, _)| k.trim().trim_matches('"'));
    let message = match key {
        Some(key) if KEYS.contains(&key) => format!("`{key}`: {message}"),
        _ => message,
    };
    Problem::error(line, column, message)
        .with_hint("see the settings in the guide (The blog folder): strings are quoted, numbers are not")
}

/// Where `key = …` stands in the text, for pointing at a setting.
fn key_position(text: &str, key: &str) -> (usize, usize) {
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let unquoted = trimmed.trim_start_matches(['"', '\'']);
        if let Some(rest) = unquoted.strip_prefix(key) {
            let rest = rest.trim_start_matches(['"', '\'']).trim_start();
            if rest.starts_with('=') {
                return (index + 1, line.len() - trimmed.len() + 1);
            }
        }
    }
    (1, 1)
}

/// Where the table `[name]` (or `name = {…}`) starts in the text.
fn table_position(text: &str, name: &str) -> (usize, usize) {
    let header = format!("[{name}]");
    match text.lines().position(|line| line.trim() == header) {
        Some(index) => (index + 1, 1),
        None => key_position(text, name),
    }
}

/// The known name closest to `word`, if it is close enough to be a typo.
pub(crate) fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known.iter().map(|k| (edit_distance(word, k), *k)).filter(|(d, k)| *d <= 2.max(k.len() / 3)).min().map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_gives_defaults() {
        let config = Config::parse("").unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.locale, "en-US");
        assert_eq!(config.posts_per_page, 5);
        assert_eq!(config.posts_dir, PathBuf::from("posts"));
    }

    #[test]
    fn reads_every_setting() {
        let text = r#"
title = "분산 학습 노트"
description = "GPU"
base_url = "https://me.github.io/blog/"
locale = "ko-KR"
author = "Kim"
posts_per_page = 10
posts_dir = "content/posts"
tag_title = "as-is"
"#;
        let config = Config::parse(text).unwrap();
        assert_eq!(config.title, "분산 학습 노트");
        assert_eq!(config.base_url, "https://me.github.io/blog/");
        assert_eq!(config.locale, "ko-KR");
        assert_eq!(config.posts_per_page, 10);
        assert_eq!(config.posts_dir, PathBuf::from("content/posts"));
        assert_eq!(config.tag_title, TagTitle::AsIs);
    }

    #[test]
    fn unknown_key_names_it_and_suggests_the_nearest() {
        let problem = Config::parse("title = \"x\"\nlocal = \"ko-KR\"\n").unwrap_err();
        assert_eq!((problem.line, problem.column), (2, 1));
        assert!(problem.message.contains("`local`"), "{}", problem.message);
        assert_eq!(problem.hint.as_deref(), Some("did you mean `locale`?"));

        let problem = Config::parse("zzzzzz = 1\n").unwrap_err();
        assert!(problem.hint.unwrap().contains("posts_per_page"));
    }

    #[test]
    fn wrong_type_points_at_the_value() {
        let problem = Config::parse("title = \"x\"\nposts_per_page = \"ten\"\n").unwrap_err();
        assert_eq!(problem.line, 2);
        assert!(
            problem.message.contains("posts_per_page") || problem.message.contains("integer"),
            "{}",
            problem.message
        );
    }

    #[test]
    fn syntax_error_points_at_its_line() {
        let problem = Config::parse("title = \"x\"\nlocale = ko-KR\n").unwrap_err();
        assert_eq!(problem.line, 2);
    }

    #[test]
    fn bad_values_are_refused() {
        assert_eq!(Config::parse("posts_per_page = 0").unwrap_err().line, 1);
        assert!(Config::parse("locale = \"korean please\"").is_err());
        assert!(Config::parse("posts_dir = \"../elsewhere\"").is_err());
        assert!(Config::parse("tag_title = \"shout\"").is_err());
        assert!(Config::parse("locale = \"zh-Hant-TW\"").is_ok());
    }

    #[test]
    fn tag_titles() {
        assert_eq!(TagTitle::Capitalize.apply("nccl"), "Nccl");
        assert_eq!(TagTitle::Capitalize.apply("분산-학습"), "분산-학습");
        assert_eq!(TagTitle::Capitalize.apply(""), "");
        assert_eq!(TagTitle::AsIs.apply("nccl"), "nccl");
    }

    #[test]
    fn nearest_names() {
        assert_eq!(nearest("tittle", KEYS), Some("title"));
        assert_eq!(nearest("postsperpage", KEYS), Some("posts_per_page"));
        assert_eq!(nearest("banana", KEYS), None);
    }

    #[test]
    fn settings_given_are_read_over_the_detected_ones() {
        let detected = Config {
            title: "From hugo.toml".into(),
            locale: "en-US".into(),
            posts_dir: "content/posts".into(),
            output_dir: "hanji-public".into(),
            layout: Layout::of(Kind::Hugo),
            ..Config::default()
        };
        let config = Config::parse_over("locale = \"ko-KR\"\n", detected.clone()).unwrap();
        assert_eq!(config.locale, "ko-KR");
        assert_eq!(config.title, "From hugo.toml", "not set in hanji.toml: kept");
        assert_eq!(config.posts_dir, PathBuf::from("content/posts"));
        assert_eq!(config.layout.kind, Kind::Hugo);
        assert_eq!(Config::parse_over("", detected.clone()).unwrap(), detected);
    }

    #[test]
    fn output_dir_may_not_be_a_static_folder_of_the_layout() {
        let next = Config { layout: Layout::of(Kind::NextStarter), ..Config::default() };
        let problem = Config::parse_over("output_dir = \"public\"\n", next).unwrap_err();
        assert_eq!(problem.line, 1);
        assert_eq!(problem.message, "`output_dir` overlaps the posts or `public/`");
        assert_eq!(problem.hint.as_deref(), Some("export to a folder of its own, such as \"hanji-public\""));
    }

    #[test]
    fn time_zone_images_and_services_are_read_and_checked() {
        let config = Config::parse(
            "time_zone = \"Asia/Seoul\"\nrelated_posts = 5\n[images]\nwidths = [640, 320]\navif = true\n\
             [comments]\nprovider = \"utterances\"\nrepo = \"me/blog\"\n[analytics]\nprovider = \"umami\"\nwebsite_id = \"u\"\n",
        )
        .unwrap();
        assert_eq!(config.time_zone().iana_name(), Some("Asia/Seoul"));
        assert_eq!(config.related_posts, 5);
        assert_eq!(config.images.sorted_widths(), [320, 640]);
        assert!(config.images.avif && config.images.webp, "the rest of [images] keeps its defaults");
        assert_eq!(config.comments.unwrap().provider, Some(CommentsProvider::Utterances));
        assert_eq!(config.analytics.unwrap().script_url(), "https://cloud.umami.is/script.js");

        let problem = |text: &str| Config::parse(text).unwrap_err();
        let zone = problem("title = \"x\"\ntime_zone = \"Mars/Olympus\"\n");
        assert_eq!((zone.line, zone.message.as_str()), (2, "`Mars/Olympus` is not a time zone"));
        let quality = problem("[images]\nquality = 0\n");
        assert_eq!((quality.line, quality.message.as_str()), (2, "`quality` is 0; it must be from 1 to 100"));
        assert_eq!(problem("[images]\nwidths = []\n").line, 2);
        let unknown = problem("[images]\nwidht = 3\n");
        assert!(unknown.message.contains("unknown field `widht`"), "{}", unknown.message);
        let missing = problem("title = \"x\"\n\n[analytics]\nprovider = \"google\"\n");
        assert_eq!((missing.line, missing.message.as_str()), (3, "`[analytics]` needs `id`"));
        assert_eq!(problem("[comments]\nrepo = \"me/blog\"\n").message, "`[comments]` needs `provider`");
    }

    #[test]
    fn the_layout_setting() {
        assert_eq!(layout_setting("title = \"x\"").unwrap(), None);
        assert_eq!(layout_setting("layout = \"auto\"").unwrap(), None);
        assert_eq!(layout_setting("layout = \"next-starter\"").unwrap(), Some(Kind::NextStarter));
        let problem = layout_setting("title = \"x\"\nlayout = \"hugp\"\n").unwrap_err();
        assert_eq!((problem.line, problem.message.as_str()), (2, "`hugp` is not a layout"));
        assert_eq!(problem.hint.as_deref(), Some("did you mean \"hugo\"?"));
        let problem = Config::parse("layout = 3").unwrap_err();
        assert_eq!(problem.message, "`layout` should be text");
        assert!(Config::parse("layout = \"jekyll\"").is_ok(), "a known layout is a known setting");
    }
}

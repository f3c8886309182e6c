//! Detection and settings of each layout, from folders given as text.

use std::path::{Path, PathBuf};

use super::*;
use crate::diagnostics::Severity;
use crate::tool::{FakeFolder, StaticDir};

fn detected(files: Vec<(&'static str, &'static str)>) -> Detected {
    detect(&FakeFolder(files), None)
}

#[test]
fn a_folder_of_no_other_tool_is_a_hanji_blog() {
    let found = detected(vec![("hanji.toml", ""), ("posts/a.md", ""), ("content/x.md", "")]);
    assert_eq!(found.config, Config::default());
    assert_eq!(found.config.layout.describe(Path::new("posts")), None);
    assert!(found.problems.is_empty());
}

#[test]
fn hugo_is_found_by_its_settings_and_read() {
    let settings = "baseURL = 'https://h.example/'\nlanguageCode = 'en-us'\ntitle = 'H'\n\
                    [params]\ndescription = 'About'\n[params.author]\nname = 'Kim'\n";
    let found = detected(vec![("hugo.toml", settings), ("content/posts/a.md", ""), ("content/blog/b.md", "")]);
    let config = &found.config;
    assert_eq!(config.layout.kind, Kind::Hugo);
    assert_eq!(config.layout.settings_file.as_deref(), Some(Path::new("hugo.toml")));
    assert_eq!(config.posts_dir, PathBuf::from("content"), "every section, as Hugo publishes them");
    assert_eq!(config.layout.new_posts_dir(&config.posts_dir), Path::new("content/posts"), "the first posts section");
    assert_eq!(config.output_dir, PathBuf::from("hanji-public"), "not Hugo's own public/");
    assert_eq!(
        (config.title.as_str(), config.base_url.as_str(), config.locale.as_str()),
        ("H", "https://h.example/", "en-US")
    );
    assert_eq!((config.description.as_str(), config.author.as_str()), ("About", "Kim"));
    assert_eq!(
        config.layout.describe(&config.posts_dir).as_deref(),
        Some("detected a Hugo blog (hugo.toml): posts in content")
    );
    assert!(found.problems.is_empty(), "{:?}", found.problems);
}

#[test]
fn hugo_s_locale_is_read_before_the_language_code_it_replaced() {
    let settings = "title = 'H'\nlanguageCode = 'en-us'\nlocale = 'ko-kr'\n";
    assert_eq!(detected(vec![("hugo.toml", settings)]).config.locale, "ko-KR");
    assert_eq!(detected(vec![("hugo.toml", "title = 'H'\nlocale = 'en-gb'\n")]).config.locale, "en-GB");
}

#[test]
fn hugo_keys_match_in_any_case_and_yaml_works() {
    let settings = "BaseURL: https://y.example/\ntitle: Y\nparams:\n  author: Lee\n";
    let found = detected(vec![("config.yaml", settings), ("content/post/a.md", "")]);
    assert_eq!(found.config.layout.kind, Kind::Hugo);
    assert_eq!(found.config.layout.new_posts_dir(&found.config.posts_dir), Path::new("content/post"));
    assert_eq!(found.config.base_url, "https://y.example/");
    assert_eq!(found.config.author, "Lee");
}

#[test]
fn config_toml_is_zolas_when_it_has_base_url() {
    let zola = "base_url = \"https://z.example\"\ntitle = \"Z\"\ndefault_language = \"ko\"\n\
                [[taxonomies]]\nname = \"tags\"\n[extra]\nauthor = \"Park\"\n";
    let found = detected(vec![("config.toml", zola), ("content/blog/a.md", "")]);
    let config = &found.config;
    assert_eq!(config.layout.kind, Kind::Zola);
    assert_eq!(config.posts_dir, PathBuf::from("content"));
    assert_eq!(config.layout.templates_dir, PathBuf::from("hanji-templates"), "Zola's templates/ are Tera");
    assert_eq!((config.title.as_str(), config.locale.as_str(), config.author.as_str()), ("Z", "ko", "Park"));

    let hugo = "baseurl = \"https://h.example\"\n[params]\nbase_url = \"not at the top\"\n";
    let found = detected(vec![("config.toml", hugo), ("content/a.md", "")]);
    assert_eq!(found.config.layout.kind, Kind::Hugo);
    assert_eq!(found.config.posts_dir, PathBuf::from("content"), "no posts section: all of content/");

    let without_content = detected(vec![("config.toml", zola), ("posts/a.md", "")]);
    assert_eq!(without_content.config.layout.kind, Kind::Hanji, "a config.toml alone is not a blog of theirs");
}

#[test]
fn jekyll_settings_make_the_base_url_from_url_and_baseurl() {
    let settings = "title: J\nurl: \"https://j.example\"\nbaseurl: \"/blog\"\nlang: en_GB\nauthor:\n  name: Choi\n";
    let found = detected(vec![("_config.yml", settings), ("_posts/2026-01-01-a.md", "")]);
    let config = &found.config;
    assert_eq!(config.layout.kind, Kind::Jekyll);
    assert_eq!(config.posts_dir, PathBuf::from("_posts"));
    assert_eq!(config.base_url, "https://j.example/blog");
    assert_eq!((config.locale.as_str(), config.author.as_str()), ("en-GB", "Choi"));
    let only_posts = detected(vec![("_posts/2026-01-01-a.md", "")]);
    assert_eq!(only_posts.config.layout.kind, Kind::Jekyll);
    assert_eq!(only_posts.config.layout.settings_file, None);
}

#[test]
fn next_starter_is_found_by_its_site_metadata() {
    let metadata = "const siteMetadata = {\n  title: 'N',\n  siteUrl: 'https://n.example',\n  locale: 'ko-KR',\n}\n";
    let found = detected(vec![("data/siteMetadata.js", metadata), ("data/blog/a.mdx", ""), ("hugo.toml", "")]);
    let config = &found.config;
    assert_eq!(config.layout.kind, Kind::NextStarter);
    assert_eq!(config.posts_dir, PathBuf::from("data/blog"));
    assert_eq!((config.title.as_str(), config.locale.as_str()), ("N", "ko-KR"));
    assert_eq!(config.layout.static_dirs, [StaticDir { folder: "public".into(), site_path: String::new() }]);
    assert_eq!(
        config.layout.describe(&config.posts_dir).as_deref(),
        Some("detected a Next.js starter blog (data/siteMetadata.js): posts in data/blog")
    );
}

#[test]
fn hanji_toml_can_name_the_layout() {
    let folder = FakeFolder(vec![("hugo.toml", "title = 'H'"), ("posts/a.md", "")]);
    let hanji = detect(&folder, Some(Kind::Hanji));
    assert_eq!(hanji.config.layout.kind, Kind::Hanji);
    assert_eq!(hanji.config.title, "My blog", "the other tool's settings are not read");
    let zola = detect(&FakeFolder(vec![("content/a.md", "")]), Some(Kind::Zola));
    assert_eq!(zola.config.layout.kind, Kind::Zola);
    assert_eq!(zola.config.layout.settings_file, None);
    assert_eq!(
        zola.config.layout.describe(&zola.config.posts_dir).as_deref(),
        Some("a Zola blog, as hanji.toml says: posts in content")
    );
}

#[test]
fn a_broken_settings_file_is_reported_at_its_line_and_defaults_are_used() {
    let found = detected(vec![("hugo.toml", "title = 'ok'\nbaseURL = \n"), ("content/posts/a.md", "")]);
    assert_eq!(found.config.layout.kind, Kind::Hugo, "still a Hugo blog");
    assert_eq!(found.config.title, "My blog");
    assert_eq!(found.problems.len(), 1);
    let problem = &found.problems[0];
    assert_eq!((problem.path.as_path(), problem.line, problem.severity), (Path::new("hugo.toml"), 2, Severity::Error));
    assert!(problem.hint.as_deref().unwrap().contains("Hugo"), "{problem:?}");

    let found = detected(vec![("_config.yml", "title: [unclosed\n"), ("_posts/x.md", "")]);
    assert_eq!(found.problems[0].path, PathBuf::from("_config.yml"));
}

#[test]
fn a_locale_that_is_not_one_is_a_warning_naming_the_key() {
    let found = detected(vec![("hugo.toml", "title = 'T'\nlanguageCode = 'English please'\n")]);
    assert_eq!(found.config.locale, "en-US");
    let problem = &found.problems[0];
    assert_eq!((problem.line, problem.column, problem.severity), (2, 1, Severity::Warning));
    assert_eq!(problem.message, "`languageCode` is not a locale: `English please`");
}

#[test]
fn locales_are_written_the_bcp_47_way() {
    assert_eq!(normalize_locale("en-us"), "en-US");
    assert_eq!(normalize_locale("EN_gb"), "en-GB");
    assert_eq!(normalize_locale("zh-hant-tw"), "zh-Hant-TW");
    assert_eq!(normalize_locale("ko"), "ko");
}

#[test]
fn settings_files_of_every_tool_are_known() {
    for file in ["hugo.toml", "config.toml", "config/_default/hugo.toml", "_config.yml", "data/siteMetadata.js"] {
        assert!(is_settings_file(Path::new(file)), "{file}");
    }
    assert!(!is_settings_file(Path::new("content/config.toml")));
    assert!(!is_settings_file(Path::new("hanji.toml")), "hanji.toml is Hanji's own");
}

#[test]
fn hugo_and_jekyll_name_the_time_zone_scheduled_posts_come_in() {
    let hugo = detected(vec![("hugo.toml", "title = 'H'\ntimeZone = 'Asia/Seoul'\n"), ("content/posts/a.md", "")]);
    assert_eq!(hugo.config.time_zone.as_deref(), Some("Asia/Seoul"));
    let jekyll = detected(vec![("_config.yml", "title: J\ntimezone: America/New_York\n"), ("_posts/a.md", "")]);
    assert_eq!(jekyll.config.time_zone.as_deref(), Some("America/New_York"));
    let wrong = detected(vec![("_config.yml", "title: J\ntimezone: Nowhere/Land\n"), ("_posts/a.md", "")]);
    assert_eq!(wrong.config.time_zone, None, "the computer's, meanwhile");
    let problem = &wrong.problems[0];
    assert_eq!((problem.line, problem.severity), (2, Severity::Warning));
    assert!(problem.message.contains("`timezone` is not a time zone: `Nowhere/Land`"), "{}", problem.message);
}

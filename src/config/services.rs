//! The services a published site may use, as `hanji.toml` names them:
//! comments under each post (giscus, utterances) and analytics (Plausible,
//! Umami, Google Analytics). Values only: the theme writes them into the
//! exported pages (`comments.html`, `analytics.html`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommentsProvider {
    /// GitHub Discussions, through giscus.app.
    Giscus,
    /// GitHub issues, through utteranc.es.
    Utterances,
}

/// `[comments]`: the discussion under each post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Comments {
    pub provider: Option<CommentsProvider>,
    /// The GitHub repository the comments are kept in: `me/blog`.
    pub repo: String,
    /// giscus: the repository's id (`R_…`, from giscus.app).
    pub repo_id: String,
    /// giscus: the Discussions category, and its id (`DIC_…`).
    pub category: String,
    pub category_id: String,
    /// How a page finds its discussion (giscus `data-mapping`, utterances
    /// `issue-term`): `pathname` (the default), `url`, `title`, `og:title`.
    pub mapping: String,
    /// giscus: reactions on the post itself.
    pub reactions: bool,
    /// The provider's theme; empty follows the reader's light or dark setting.
    pub theme: String,
    /// utterances: the label given to the issues it opens.
    pub label: String,
    /// giscus: the language of its interface; empty is the site's.
    pub lang: String,
}

impl Default for Comments {
    fn default() -> Self {
        Self {
            provider: None,
            repo: String::new(),
            repo_id: String::new(),
            category: String::new(),
            category_id: String::new(),
            mapping: "pathname".into(),
            reactions: true,
            theme: String::new(),
            label: String::new(),
            lang: String::new(),
        }
    }
}

impl Comments {
    /// The settings a provider cannot do without that are missing, by name.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        let Some(provider) = self.provider else { return vec!["provider"] };
        if self.repo.is_empty() {
            missing.push("repo");
        }
        if provider == CommentsProvider::Giscus {
            if self.repo_id.is_empty() {
                missing.push("repo_id");
            }
            if self.category_id.is_empty() {
                missing.push("category_id");
            }
        }
        missing
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalyticsProvider {
    Plausible,
    Umami,
    /// Google Analytics 4 (gtag.js).
    Google,
}

/// `[analytics]`: who counts the readers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Analytics {
    pub provider: Option<AnalyticsProvider>,
    /// Plausible: the site's domain there; empty is `base_url`'s host.
    pub domain: String,
    /// The script's address, for a Plausible or Umami of your own; empty is
    /// the provider's (`https://plausible.io/js/script.js`,
    /// `https://cloud.umami.is/script.js`).
    pub script: String,
    /// Umami: the website's id.
    pub website_id: String,
    /// Google Analytics: the measurement id, `G-…`.
    pub id: String,
}

impl Analytics {
    /// The settings a provider cannot do without that are missing, by name.
    pub fn missing(&self) -> Vec<&'static str> {
        match self.provider {
            None => vec!["provider"],
            Some(AnalyticsProvider::Plausible) => Vec::new(),
            Some(AnalyticsProvider::Umami) if self.website_id.is_empty() => vec!["website_id"],
            Some(AnalyticsProvider::Google) if self.id.is_empty() => vec!["id"],
            Some(_) => Vec::new(),
        }
    }

    /// The provider's script, unless `script` names another.
    pub fn script_url(&self) -> String {
        if !self.script.is_empty() {
            return self.script.clone();
        }
        match self.provider {
            Some(AnalyticsProvider::Plausible) => "https://plausible.io/js/script.js".into(),
            Some(AnalyticsProvider::Umami) => "https://cloud.umami.is/script.js".into(),
            Some(AnalyticsProvider::Google) => format!("https://www.googletagmanager.com/gtag/js?id={}", self.id),
            None => String::new(),
        }
    }
}

//! Images an import fetches from the web (the old site's, a CDN's), for every
//! importer that needs them: Velog's posts, and the images a WordPress or
//! Medium export links to but does not hold. Only `http` and `https`
//! addresses are asked for, a redirect too (never a local file), at most
//! `IMAGE_LIMIT` bytes of each, read as they come; the file it becomes in a
//! bundle is named by `Entry::add_file` (a plain name, through `SitePath`).

use std::collections::HashMap;
use std::time::Duration;

use futures_util::StreamExt;

/// The largest image downloaded.
pub(crate) const IMAGE_LIMIT: usize = 32 << 20;
/// Downloads under way at once.
const AT_ONCE: usize = 8;
/// Redirects followed for one image.
const REDIRECTS: usize = 5;

/// Whether `url` is an address on the web (`http://` or `https://` with a
/// host): the only ones an import asks for.
pub(crate) fn is_web(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
}

/// The name an image's address gives it: its last part, decoded (made a
/// plain file name by `Entry::add_file`).
pub(crate) fn name_in(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("");
    crate::text::percent_decode(path.rsplit('/').next().unwrap_or(""))
}

/// The report's words for an image that stays where it was.
pub(crate) fn not_downloaded(url: &str, why: &str) -> String {
    format!("the image {url} could not be downloaded ({why}): its link stays")
}

/// The client every import's requests go through: its timeouts, its name,
/// and redirects followed only to `http`/`https` addresses.
pub(crate) fn client() -> Result<reqwest::Client, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let redirects = reqwest::redirect::Policy::custom(|attempt| {
        if attempt.previous().len() >= REDIRECTS {
            attempt.error(format!("more than {REDIRECTS} redirects"))
        } else if !is_web(attempt.url().as_str()) {
            let to = attempt.url().scheme().to_string();
            attempt.error(format!("a redirect to a `{to}:` address, not the web"))
        } else {
            attempt.follow()
        }
    });
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(60))
        .redirect(redirects)
        .user_agent(concat!("hanji/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| e.to_string())
}

/// One image: Ok(its bytes), Ok(Err(why)) when the server or the address
/// says no (which asking again will not change: gone, too large, not on
/// the web), Err(why) when the network failed (worth asking again).
pub(crate) async fn get(client: &reqwest::Client, url: &str) -> Result<Result<Vec<u8>, String>, String> {
    if !is_web(url) {
        return Ok(Err("not an http or https address".into()));
    }
    let too_large = || format!("larger than {} MB", IMAGE_LIMIT >> 20);
    let mut response = match client.get(url).send().await {
        Ok(response) => response,
        // A redirect refused is the address's doing, not the network's.
        Err(e) if e.is_redirect() => return Ok(Err(error_text(&e))),
        Err(e) => return Err(format!("{url}: {}", error_text(&e))),
    };
    let status = response.status();
    if status.is_server_error() || status.as_u16() == 429 {
        return Err(format!("{url}: the server answered {status}"));
    }
    if status.is_redirection() {
        // A redirect the client would not follow: to an address not on the web.
        let to = response.headers().get("location").and_then(|l| l.to_str().ok()).unwrap_or("");
        let scheme = reqwest::Url::parse(to).map(|u| u.scheme().to_string()).unwrap_or_default();
        return Ok(Err(format!("a redirect to a `{scheme}:` address, not the web")));
    }
    if !status.is_success() {
        return Ok(Err(format!("the server answered {status}")));
    }
    if response.content_length().is_some_and(|n| n > IMAGE_LIMIT as u64) {
        return Ok(Err(too_large()));
    }
    let mut bytes = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) if bytes.len() + chunk.len() > IMAGE_LIMIT => return Ok(Err(too_large())),
            Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
            Ok(None) => return Ok(Ok(bytes)),
            Err(e) => return Err(format!("{url}: {}", error_text(&e))),
        }
    }
}

/// The error and its causes, which reqwest keeps apart (`error sending
/// request` alone does not say that the connection was refused).
fn error_text(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

/// Downloads for an importer that reads a file (WordPress, Medium): one
/// client and one runtime for the whole import.
pub(crate) struct Downloader {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
}

impl Downloader {
    pub(crate) fn new() -> Result<Self, String> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        Ok(Downloader { runtime, client: client()? })
    }

    /// Each of `urls` (asked at most once each, several at a time): its
    /// bytes, or why it could not be had.
    pub(crate) fn fetch(&self, urls: &[String]) -> HashMap<String, Result<Vec<u8>, String>> {
        let mut wanted: Vec<&String> = urls.iter().collect();
        wanted.sort();
        wanted.dedup();
        self.runtime.block_on(
            futures_util::stream::iter(wanted.into_iter().map(|url| async move {
                let got = get(&self.client, url).await;
                (
                    url.clone(),
                    got.and_then(|answer| answer)
                        .map_err(|why| why.trim_start_matches(&format!("{url}: ")).to_string()),
                )
            }))
            .buffer_unordered(AT_ONCE)
            .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_addresses_are_asked_for() {
        assert!(is_web("https://cdn-images-1.medium.com/max/800/1*4E0B.jpeg"));
        assert!(is_web("http://127.0.0.1:8080/a.png"));
        for url in
            ["file:///etc/passwd", "ftp://x/a.png", "/wp-content/uploads/a.png", "data:image/png;base64,AA", "https://"]
        {
            assert!(!is_web(url), "{url}");
        }
    }
}

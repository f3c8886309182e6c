//! The `preview:` protocol: the preview iframe's pages, answered by the open
//! blog's session (the author's unsaved texts over the saved ones).
//! Every answer carries a CSP that runs no script at all, so HTML in a post
//! cannot reach the app; the iframe is sandboxed as well.

use std::borrow::Cow;

use tauri::http::{Request, Response, header};

use hanji::Answer;

use crate::state::AppState;

pub const SCHEME: &str = "preview";

/// No script, no plugins, no forms, no frames; styles, images, fonts and
/// media from the preview itself (and images from the web, as the site has).
pub const CSP: &str = "default-src 'none'; script-src 'none'; style-src preview: http://preview.localhost 'unsafe-inline'; \
img-src preview: http://preview.localhost data: https: http:; font-src preview: http://preview.localhost data:; \
media-src preview: http://preview.localhost https:; object-src 'none'; frame-src 'none'; form-action 'none'; \
base-uri 'none'; sandbox allow-popups";

/// Where the window may go: the app's own pages and the preview's (inside
/// its frame). Anything else a page tries to open is refused.
pub fn stays_in_app(url: &tauri::Url) -> bool {
    match url.scheme() {
        "tauri" | SCHEME => true,
        "http" | "https" => matches!(url.host_str(), Some("tauri.localhost" | "preview.localhost")),
        "about" => url.as_str() == "about:blank" || url.as_str() == "about:srcdoc",
        _ => false,
    }
}

pub fn respond(state: &AppState, request: &Request<Vec<u8>>) -> Response<Cow<'static, [u8]>> {
    let site_path = hanji::percent_decode(request.uri().path().trim_start_matches('/'));
    let answer = match state.open_blog() {
        Ok(open) => open.session.answer(&site_path),
        Err(error) => Answer {
            status: 503,
            content_type: hanji::content_type("a.txt"),
            body: error.message.into_bytes(),
            location: None,
        },
    };
    let html = answer.is_html();
    let body = match html {
        true => hanji::links_out_in_new_windows(&String::from_utf8_lossy(&answer.body)).into_bytes(),
        false => answer.body,
    };
    let mut response = Response::builder()
        .status(answer.status)
        .header(header::CONTENT_TYPE, answer.content_type)
        .header(header::CONTENT_SECURITY_POLICY, CSP)
        .header(header::CACHE_CONTROL, if html { "no-store" } else { "max-age=5" })
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    if let Some(location) = answer.location {
        response = response.header(header::LOCATION, location);
    }
    response.body(Cow::Owned(body)).expect("a valid response")
}

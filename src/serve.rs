//! `hanji serve`: the site previewed in a browser, on this machine or a phone
//! on the same network. Pages are rendered on request, from the blog the
//! watch keeps current, by `Site::render` (the export's code); served HTML
//! pages get one small script that reloads them when a change makes them
//! stale (server-sent events). The export never has that script.
//!
//! A web page the author visits must not read the served blog (its drafts
//! too): requests whose `Host` names another site (DNS rebinding) are
//! refused, the live-reload stream checks `Origin`, every answer carries
//! security headers (a CSP under which only the server's own script runs),
//! and at most one page or image per core is rendered at once.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::Stream;
use tokio::sync::{Semaphore, broadcast, watch};

use crate::session::{Session, SessionOptions};
use crate::site::SiteOptions;
use crate::site::routes::Target;
use crate::site::url::percent_decode;
use crate::watch::{StalePages, Update, WatchError, WatchOptions};

/// Where the live-reload script listens. Not a page of any blog: site paths
/// never start with `__`.
const EVENTS: &str = "/__hanji/events";

/// How many past changes a page that connects late is checked against.
const HISTORY: usize = 64;

/// A file of the blog larger than this is sent a piece at a time.
const STREAMED_BYTES: u64 = 4 << 20;

#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The address to listen on; 127.0.0.1 is this machine only, 0.0.0.0
    /// lets a phone on the same network in.
    pub bind: IpAddr,
    /// Tried first; if it is taken, the next ones, then any free port. 0 is
    /// any free port at once.
    pub port: u16,
    /// Show drafts, marked, as the app's preview does.
    pub drafts: bool,
    pub watch: WatchOptions,
    /// Where copies of images are kept (see `SessionOptions::cache_dir`).
    pub cache_dir: Option<std::path::PathBuf>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 4000,
            drafts: false,
            watch: WatchOptions::default(),
            cache_dir: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Watch(#[from] WatchError),
    #[error("cannot listen on {address}: {source}")]
    Listen { address: String, source: io::Error },
    #[error("the server stopped: {0}")]
    Io(#[from] io::Error),
}

/// A preview server, bound to its port and watching its blog; `run` serves.
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
    preview: Arc<Preview>,
    drafts: bool,
}

impl Server {
    /// Loads and watches the blog at `root` and takes a port. `on_update`
    /// hears every update of the watch (for the command line to print).
    pub fn bind(
        root: &Path,
        options: ServeOptions,
        mut on_update: impl FnMut(&Update) + Send + 'static,
    ) -> Result<Server, ServeError> {
        let listener = listen(options.bind, options.port)
            .map_err(|source| ServeError::Listen { address: format!("{}:{}", options.bind, options.port), source })?;
        let address = listener.local_addr()?;
        let preview = Arc::new(Preview::new());
        let watching = preview.clone();
        // Served as exported, search and all.
        let site = SiteOptions { drafts: options.drafts, search: true, ..SiteOptions::default() };
        let session = Session::open(
            root,
            SessionOptions { watch: options.watch, site, cache_dir: options.cache_dir, ..SessionOptions::default() },
            move |update, _| {
                watching.update(update);
                on_update(update);
            },
        )?;
        let _ = preview.session.set(session);
        Ok(Server { listener, address, preview, drafts: options.drafts })
    }

    /// What the author must know when the server is reachable from other
    /// machines: None when it listens on this machine only.
    pub fn warning(&self) -> Option<String> {
        let ip = self.address.ip();
        (!ip.is_loopback()).then(|| {
            format!(
                "WARNING: listening on {ip}, beyond this machine: anyone on your network can read this blog while it \
                 is served{}. Use --bind 127.0.0.1 to keep it to this machine.",
                if self.drafts { ", drafts included" } else { "" }
            )
        })
    }

    /// The address to open in a browser.
    pub fn url(&self) -> String {
        let host = match self.address.ip() {
            // Listening everywhere: this machine is one of the places.
            ip if ip.is_unspecified() => "localhost".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        format!("http://{host}:{}/", self.address.port())
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Serves until `shutdown` completes, then closes every connection
    /// (the live-reload streams too) and returns.
    pub fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
        let Server { listener, preview, address, .. } = self;
        runtime.block_on(async move {
            listener.set_nonblocking(true)?;
            let listener = tokio::net::TcpListener::from_std(listener)?;
            let (stop, stopped) = watch::channel(false);
            let cores = std::thread::available_parallelism().map_or(2, usize::from);
            let hosts = Hosts { bound: address.ip(), port: address.port() };
            let state = Served { preview, stopped, hosts, renders: Arc::new(Semaphore::new(cores)) };
            let app = Router::new()
                .route(EVENTS, get(events))
                .fallback(get(page))
                .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
                .with_state(state);
            axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    shutdown.await;
                    let _ = stop.send(true);
                })
                .await
        })?;
        Ok(())
    }
}

/// The port `port` on `bind`, or the next free one, or any free one.
fn listen(bind: IpAddr, port: u16) -> io::Result<TcpListener> {
    if port != 0 {
        for port in port..=port.saturating_add(10) {
            match TcpListener::bind((bind, port)) {
                Ok(listener) => return Ok(listener),
                Err(e) if e.kind() == io::ErrorKind::AddrInUse => continue,
                Err(e) => return Err(e),
            }
        }
    }
    TcpListener::bind((bind, 0))
}

#[derive(Clone)]
struct Served {
    preview: Arc<Preview>,
    stopped: watch::Receiver<bool>,
    hosts: Hosts,
    /// One permit a core: pages and images rendered at once.
    renders: Arc<Semaphore>,
}

/// The names the server answers to: the address it is bound to (any of
/// this machine's, as an IP, when bound to all of them), and `localhost`,
/// on its port. A name a page's own site resolved to this machine (DNS
/// rebinding) is none of them.
#[derive(Debug, Clone, Copy)]
struct Hosts {
    bound: IpAddr,
    port: u16,
}

impl Hosts {
    fn allows(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host, Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        let name = name.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        if name == "localhost" || name.ends_with(".localhost") {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => self.bound.is_unspecified() || ip == self.bound || (self.bound.is_loopback() && ip.is_loopback()),
            Err(_) => false,
        }
    }

    /// Whether a request's `Origin` is this server (or it has none, as a
    /// page of the same origin may not send one).
    fn allows_origin(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else { return true };
        let origin = origin.to_str().unwrap_or_default();
        origin.strip_prefix("http://").is_some_and(|host| !host.contains('/') && self.allows(host))
    }
}

/// Refuses a request for another site's name, and gives every answer the
/// security headers (a page's own CSP is set where it is rendered).
async fn guard(State(served): State<Served>, request: Request, next: Next) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let mut response = if served.hosts.allows(host) {
        next.run(request).await
    } else {
        let text = "hanji serve answers only requests for localhost or the address it listens on";
        (StatusCode::MISDIRECTED_REQUEST, text).into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(NO_SCRIPT_CSP));
    }
    response
}

/// What a served page may load: its site's own files, images and media from
/// anywhere, frames from HTTPS sites; scripts only the site's own and the
/// live-reload one (by its nonce): a script written in a post does not run
/// here (as in the app's preview), so nothing in a blog can read the
/// served pages for another site.
fn page_csp(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: https: http:; media-src 'self' https:; frame-src https:; connect-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The CSP of every other answer: no script at all.
const NO_SCRIPT_CSP: &str = "default-src 'self'; script-src 'none'; object-src 'none'; frame-ancestors 'none'";

/// A fresh nonce for one page's live-reload script.
fn nonce() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher
        .write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos());
    format!("{:016x}", hasher.finish())
}

/// What the server knows between requests.
struct Preview {
    /// The blog, watched, with its theme and addresses.
    session: OnceLock<Arc<Session>>,
    live: Mutex<Live>,
    reloads: broadcast::Sender<Arc<Reload>>,
}

/// The changes open pages are told about.
#[derive(Default)]
struct Live {
    /// Counts the changes; a page knows the one it was rendered at.
    version: u64,
    history: VecDeque<Arc<Reload>>,
    /// Why the blog cannot be shown: its folder is gone.
    gone: Option<String>,
}

#[derive(Debug)]
struct Reload {
    version: u64,
    everything: bool,
    stale: StalePages,
}

impl Reload {
    /// Whether the page showing `target` is stale after this change. A page
    /// at no address of the site (a 404, a post renamed away) is, after any.
    fn affects(&self, target: Option<&Target>) -> bool {
        self.everything || target.is_none_or(|target| self.stale.contains(target))
    }
}

impl Live {
    /// Whether a page rendered at `version` is out of date already.
    fn stale_since(&self, version: u64, target: Option<&Target>) -> bool {
        if version >= self.version {
            return false;
        }
        match self.history.front() {
            // Changes since then were forgotten: to be sure, reload.
            Some(oldest) if oldest.version > version + 1 => true,
            None => true,
            _ => self.history.iter().any(|r| r.version > version && r.affects(target)),
        }
    }
}

impl Preview {
    fn new() -> Self {
        let (reloads, _) = broadcast::channel(256);
        Preview { session: OnceLock::new(), live: Mutex::default(), reloads }
    }

    /// Called by the session, on the watch's thread, after the blog changed
    /// and its theme and addresses were built again.
    fn update(&self, update: &Update) {
        let reload = match update {
            Update::Changed(set) => {
                self.live.lock().expect("live").gone = None;
                // Pages show images and link to other posts by file; which
                // pages those are is not known, so such changes reload all.
                let everything = !set.assets.is_empty()
                    || !set.added.is_empty()
                    || !set.removed.is_empty()
                    || !set.renamed.is_empty();
                Reload { version: 0, everything, stale: set.stale.clone() }
            }
            Update::Gone { message } => {
                self.live.lock().expect("live").gone = Some(message.clone());
                Reload { version: 0, everything: true, stale: StalePages::default() }
            }
            Update::Back { .. } => {
                self.live.lock().expect("live").gone = None;
                Reload { version: 0, everything: true, stale: StalePages::default() }
            }
            Update::Notice { .. } => return,
        };
        let mut live = self.live.lock().expect("live");
        live.version += 1;
        let reload = Arc::new(Reload { version: live.version, ..reload });
        live.history.push_back(reload.clone());
        if live.history.len() > HISTORY {
            live.history.pop_front();
        }
        // Sent under the lock, so that a page connecting now either sees it
        // in the history or receives it.
        let _ = self.reloads.send(reload);
    }

    /// The response to a request for `site_path` (decoded, without the
    /// leading `/`).
    fn respond(&self, site_path: &str) -> Response {
        let (version, gone) = {
            let live = self.live.lock().expect("live");
            (live.version, live.gone.clone())
        };
        if let Some(message) = gone {
            return problem_page(
                StatusCode::SERVICE_UNAVAILABLE,
                "The blog folder is gone",
                &message,
                site_path,
                version,
            );
        }
        let Some(session) = self.session.get() else {
            return (StatusCode::SERVICE_UNAVAILABLE, "starting").into_response();
        };
        let answer = session.answer(site_path);
        let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if let Some(location) = answer.location {
            return (status, [(header::LOCATION, location)]).into_response();
        }
        if !answer.is_html() {
            return (status, [(header::CONTENT_TYPE, answer.content_type)], answer.body).into_response();
        }
        let nonce = nonce();
        let body = with_live_reload(&String::from_utf8_lossy(&answer.body), site_path, version, &nonce);
        let csp = page_csp(&nonce);
        (status, [(header::CONTENT_TYPE, answer.content_type), (header::CONTENT_SECURITY_POLICY, csp.as_str())], body)
            .into_response()
    }

    /// A file of the blog larger than `STREAMED_BYTES` at `site_path`, sent
    /// a piece at a time: a large static file is never held whole.
    fn large_file(&self, site_path: &str) -> Option<Response> {
        let session = self.session.get()?;
        let Some(Target::Asset(file)) = session.target(site_path) else { return None };
        let (mut opened, size) = crate::fs::open_read(session.root(), &file).ok()?;
        if size <= STREAMED_BYTES {
            return None;
        }
        let (send, receive) = tokio::sync::mpsc::channel::<io::Result<axum::body::Bytes>>(4);
        std::thread::spawn(move || {
            use std::io::Read;
            let mut buffer = vec![0; 1 << 16];
            loop {
                let piece = match opened.read(&mut buffer) {
                    Ok(0) => return,
                    Ok(n) => Ok(axum::body::Bytes::copy_from_slice(&buffer[..n])),
                    Err(e) => Err(e),
                };
                let failed = piece.is_err();
                if send.blocking_send(piece).is_err() || failed {
                    return;
                }
            }
        });
        let stream = futures_util::stream::unfold(receive, |mut receive| async move {
            receive.recv().await.map(|piece| (piece, receive))
        });
        let content_type = crate::preview::content_type(site_path);
        let headers = [(header::CONTENT_TYPE, content_type.to_string()), (header::CONTENT_LENGTH, size.to_string())];
        Some((StatusCode::OK, headers, axum::body::Body::from_stream(stream)).into_response())
    }

    /// What the page at `site_path` shows, as the site is now.
    fn target(&self, site_path: &str) -> Option<Target> {
        self.session.get().and_then(|session| session.target(site_path))
    }
}

async fn page(State(served): State<Served>, uri: Uri) -> Response {
    let path = percent_decode(uri.path().trim_start_matches('/'));
    if let Some(streamed) = served.preview.large_file(&path) {
        return streamed;
    }
    let preview = served.preview.clone();
    // Requests wait their turn here: a burst of them (eight large images at
    // once) renders a core's worth at a time, not all at once.
    let Ok(permit) = served.renders.clone().acquire_owned().await else {
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping").into_response();
    };
    tokio::task::spawn_blocking(move || {
        let response = preview.respond(&path);
        drop(permit);
        response
    })
    .await
    .unwrap_or_else(|e| (StatusCode::INTERNAL_SERVER_ERROR, format!("rendering failed: {e}")).into_response())
}

#[derive(serde::Deserialize)]
struct Listen {
    path: String,
    version: u64,
}

/// The live-reload stream of one open page: one `reload` message when a
/// change makes it stale (at once, if one did since it was rendered).
async fn events(State(served): State<Served>, headers: HeaderMap, listen: Query<Listen>) -> Response {
    if !served.hosts.allows_origin(&headers) {
        return (StatusCode::FORBIDDEN, "the live-reload stream is for this server's own pages").into_response();
    }
    live_reload(served, listen.0).into_response()
}

fn live_reload(served: Served, listen: Listen) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    // What the page shows, as the site is now: a later change is checked against it.
    let target = served.preview.target(&listen.path);
    let (receiver, stale) = {
        let live = served.preview.live.lock().expect("live");
        (served.preview.reloads.subscribe(), live.stale_since(listen.version, target.as_ref()))
    };
    let state = (receiver, served.stopped, target, stale);
    let stream = futures_util::stream::unfold(state, |(mut receiver, mut stopped, target, stale)| async move {
        let reload = || Ok(Event::default().data("reload"));
        if stale {
            return Some((reload(), (receiver, stopped, target, false)));
        }
        loop {
            let message = tokio::select! {
                message = receiver.recv() => Some(message),
                _ = stopped.wait_for(|stop| *stop) => None,
            };
            match message {
                // The server stops: end the stream, so the connection closes.
                None | Some(Err(broadcast::error::RecvError::Closed)) => return None,
                Some(Ok(change)) if !change.affects(target.as_ref()) => continue,
                // Stale, or so many changes came that some were missed.
                Some(_) => return Some((reload(), (receiver, stopped, target, false))),
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// The page with the script that reloads it, before `</body>`, allowed by
/// its `nonce` (the page's CSP names it).
fn with_live_reload(html: &str, site_path: &str, version: u64, nonce: &str) -> String {
    let path = serde_json::to_string(site_path).unwrap_or_default().replace("</", "<\\/");
    let script = format!(
        "<script nonce=\"{nonce}\">\n// Hanji preview: reload when this page changes (hanji serve only, never exported).\n\
         new EventSource(\"{EVENTS}?version={version}&path=\" + encodeURIComponent({path})).onmessage = () => location.reload();\n\
         </script>\n"
    );
    match html.rfind("</body>") {
        Some(at) => format!("{}{script}{}", &html[..at], &html[at..]),
        None => format!("{html}{script}"),
    }
}

/// A page of the server's own: why the blog cannot be shown; it reloads
/// when the blog changes.
fn problem_page(status: StatusCode, title: &str, text: &str, site_path: &str, version: u64) -> Response {
    let nonce = nonce();
    let body = with_live_reload(&crate::preview::problem_page(title, text, &[]), site_path, version, &nonce);
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8".to_string()),
        (header::CONTENT_SECURITY_POLICY, page_csp(&nonce)),
    ];
    (status, headers, body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let html = with_live_reload("<html><body><p>x</p></body></html>", "posts/a/", 7, "n0");
        let script = html.find("<script nonce=\"n0\">").unwrap();
        assert!(script > html.find("<p>x</p>").unwrap() && script < html.find("</body>").unwrap());
        assert!(html.contains("version=7&path=\" + encodeURIComponent(\"posts/a/\")"));
        assert!(with_live_reload("plain", "", 1, "n").starts_with("plain<script nonce"));
        assert!(!with_live_reload("x", "</script><b>", 1, "n").contains("</script><b>"), "no way out of the script");
    }

    #[test]
    fn only_names_of_this_server_are_answered() {
        let local = Hosts { bound: IpAddr::V4(Ipv4Addr::LOCALHOST), port: 4000 };
        for host in ["localhost:4000", "127.0.0.1:4000", "LOCALHOST:4000", "[::1]:4000", "blog.localhost:4000"] {
            assert!(local.allows(host), "{host}");
        }
        for host in
            ["evil.example:4000", "localhost:4001", "localhost", "192.168.1.9:4000", "", "127.0.0.1.nip.io:4000"]
        {
            assert!(!local.allows(host), "{host}");
        }
        let everywhere = Hosts { bound: IpAddr::V4(Ipv4Addr::UNSPECIFIED), port: 4000 };
        assert!(everywhere.allows("192.168.1.9:4000"), "a phone on the network, by the machine's address");
        assert!(!everywhere.allows("rebind.evil.example:4000"), "never a name that is not this machine's");
        let origin = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ORIGIN, HeaderValue::from_str(value).unwrap());
            local.allows_origin(&headers)
        };
        assert!(origin("http://localhost:4000"));
        assert!(!origin("http://evil.example:4000"));
        assert!(!origin("https://localhost:4000"));
        assert!(!origin("null"));
        assert!(local.allows_origin(&HeaderMap::new()), "a same-origin request may send none");
    }

    #[test]
    fn a_late_page_learns_what_it_missed() {
        let post = |file: &str| Target::Page(crate::site::Page::Post(file.into()));
        let reload = |version, file: &str| {
            Arc::new(Reload {
                version,
                everything: false,
                stale: StalePages { files: [file.into()].into(), ..StalePages::default() },
            })
        };
        let live = Live { version: 3, history: [reload(2, "posts/a.md"), reload(3, "posts/b.md")].into(), gone: None };
        assert!(live.stale_since(1, Some(&post("posts/a.md"))));
        assert!(!live.stale_since(2, Some(&post("posts/a.md"))));
        assert!(live.stale_since(2, Some(&post("posts/b.md"))));
        assert!(!live.stale_since(3, Some(&post("posts/b.md"))));
        assert!(live.stale_since(2, None), "a page at no address: any change");
        let tags = Target::Page(crate::site::Page::Tags);
        assert!(live.stale_since(0, Some(&tags)), "changes before the history: reload to be sure");
    }
}

//! `hanji serve`: the site previewed in a browser, on this machine or a phone
//! on the same network. Pages are rendered on request, from the blog the
//! watch keeps current, by `Site::render` (the export's code); served HTML
//! pages get one small script that reloads them when a change makes them
//! stale (server-sent events). The export never has that script.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::Stream;
use tokio::sync::{broadcast, watch};

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
        Ok(Server { listener, address, preview })
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
        let Server { listener, preview, .. } = self;
        runtime.block_on(async move {
            listener.set_nonblocking(true)?;
            let listener = tokio::net::TcpListener::from_std(listener)?;
            let (stop, stopped) = watch::channel(false);
            let state = Served { preview, stopped };
            let app = Router::new().route(EVENTS, get(events)).fallback(get(page)).with_state(state);
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
        let body = match answer.is_html() {
            true => with_live_reload(&String::from_utf8_lossy(&answer.body), site_path, version).into_bytes(),
            false => answer.body,
        };
        (status, [(header::CONTENT_TYPE, answer.content_type)], body).into_response()
    }

    /// What the page at `site_path` shows, as the site is now.
    fn target(&self, site_path: &str) -> Option<Target> {
        self.session.get().and_then(|session| session.target(site_path))
    }
}

async fn page(State(served): State<Served>, uri: Uri) -> Response {
    let path = percent_decode(uri.path().trim_start_matches('/'));
    let preview = served.preview.clone();
    tokio::task::spawn_blocking(move || preview.respond(&path))
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
async fn events(
    State(served): State<Served>,
    Query(listen): Query<Listen>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
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

/// The page with the script that reloads it, before `</body>`.
fn with_live_reload(html: &str, site_path: &str, version: u64) -> String {
    let path = serde_json::to_string(site_path).unwrap_or_default().replace("</", "<\\/");
    let script = format!(
        "<script>\n// Hanji preview: reload when this page changes (hanji serve only, never exported).\n\
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
    let body = with_live_reload(&crate::preview::problem_page(title, text, &[]), site_path, version);
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let html = with_live_reload("<html><body><p>x</p></body></html>", "posts/a/", 7);
        let script = html.find("<script>").unwrap();
        assert!(script > html.find("<p>x</p>").unwrap() && script < html.find("</body>").unwrap());
        assert!(html.contains("version=7&path=\" + encodeURIComponent(\"posts/a/\")"));
        assert!(with_live_reload("plain", "", 1).starts_with("plain<script>"));
        assert!(!with_live_reload("x", "</script><b>", 1).contains("</script><b>"), "no way out of the script");
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

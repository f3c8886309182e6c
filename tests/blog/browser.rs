//! A real headless Chromium, driven over WebDriver (chromedriver), for the
//! tests that look at pages as a reader's browser shows them.

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const DEADLINE: Duration = Duration::from_secs(30);

/// A browser driven over WebDriver (chromedriver); the browser and the
/// driver are ended when this is dropped, even if the test failed.
pub struct Browser {
    driver: Child,
    url: String,
    session: String,
    /// The browser's profile, removed after the browser is ended.
    _profile: tempfile::TempDir,
}

impl Browser {
    pub fn start() -> Self {
        Self::start_with(true)
    }

    /// A browser that runs no page's script (`scripts` false), as a reader
    /// with JavaScript turned off.
    pub fn start_with(scripts: bool) -> Self {
        let chromium = program(&["chromium", "chromium-browser", "google-chrome"]);
        let chromedriver = program(&["chromedriver"]);
        let (Some(chromium), Some(chromedriver)) = (chromium, chromedriver) else {
            panic!(
                "this test needs Chromium and its driver: `make test-deps` installs them (apt-get install chromium chromium-driver)"
            );
        };
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so the browsers it starts end with it.
            .process_group(0)
            .spawn()
            .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let user_data = format!("--user-data-dir={}", profile.path().display());
        let mut browser =
            Browser { driver, url: format!("http://127.0.0.1:{port}"), session: String::new(), _profile: profile };
        let deadline = Instant::now() + DEADLINE;
        while browser.call("GET", "/status", None).ok().and_then(|v| v["ready"].as_bool()) != Some(true) {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--no-first-run", user_data,
                ],
                "prefs": { "profile.managed_default_content_settings.javascript": if scripts { 1 } else { 2 } },
            },
        }}});
        let session = browser.call("POST", "/session", Some(capabilities)).expect("a browser session");
        browser.session = session["sessionId"].as_str().expect("a session id").to_string();
        browser
    }

    /// One WebDriver command; the `value` of its answer.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.url);
        let agent: ureq::Agent =
            ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(DEADLINE)).build().into();
        let response = match (method, body) {
            ("GET", _) => agent.get(&url).call(),
            ("DELETE", _) => agent.delete(&url).call(),
            (_, body) => agent.post(&url).send_json(body.unwrap_or(json!({}))),
        };
        let mut response = response.map_err(|e| e.to_string())?;
        let ok = response.status().is_success();
        let answer: Value = response.body_mut().read_json().map_err(|e| e.to_string())?;
        if ok { Ok(answer["value"].clone()) } else { Err(answer["value"].to_string()) }
    }

    pub fn session(&self, command: &str, body: Value) -> Result<Value, String> {
        self.call("POST", &format!("/session/{}/{command}", self.session), Some(body))
    }

    pub fn script(&self, script: &str) -> Result<Value, String> {
        self.session("execute/sync", json!({"script": script, "args": []}))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), None);
        }
        // The driver and every browser process it started, by group id.
        let group = format!("-{}", self.driver.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The first of `names` found on the PATH.
fn program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| is_program(p)))
}

fn is_program(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl Browser {
    /// Opens `url` and waits until the page has loaded.
    pub fn open(&self, url: &str) {
        self.session("url", json!({ "url": url })).unwrap_or_else(|e| panic!("cannot open {url}: {e}"));
    }

    /// Runs `script` (its `return`, awaited if a promise) until it gives
    /// something other than null or false; fails naming `what` at the deadline.
    pub fn wait_for(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let answer = self.script(script);
            if let Ok(value) = &answer
                && !value.is_null()
                && *value != json!(false)
            {
                return value.clone();
            }
            assert!(Instant::now() < deadline, "never saw {what}: {answer:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `text` into the element `css` finds, as a reader would.
    pub fn type_into(&self, css: &str, text: &str) {
        let found = self.session("element", json!({ "using": "css selector", "value": css })).expect(css);
        let id = found.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("an element id");
        self.session(&format!("element/{id}/value"), json!({ "text": text })).expect("typed");
    }
}

impl Browser {
    /// The page's document as the browser has it now.
    pub fn source(&self) -> String {
        let source = self.call("GET", &format!("/session/{}/source", self.session), None).expect("the page source");
        source.as_str().unwrap_or_default().to_string()
    }
}

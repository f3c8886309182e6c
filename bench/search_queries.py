#!/usr/bin/env python3
"""The search of an exported site, measured in headless Chromium over file://
(driven through chromedriver's WebDriver API): for each query, in a fresh
page, the first query's time (loading the index's scripts it needs, from
index.js to the posts shown) and the bytes of every file it loaded; then the
same query again in that page (nothing left to load). Also the index's share
of the site's bytes, each file gzipped as a web server sends it.

    python3 bench/search_queries.py SITE_FOLDER
"""
import gzip, json, os, socket, statistics, subprocess, sys, tempfile, time, urllib.parse, urllib.request

QUERIES = [
    "분산 학습", "분산학습", "학습을", "메모리 복사", "병목", "측정", "네트워크가", "정적 사이트",
    "kernels", "latency", "scheduling", "allocator", "percentile", "checkpoint stalls", "warmup",
    "NCCL_ALGO", "pulldown_cmark", "GPU 메모리", "all-reduce 시간", "tag histogram",
]


def gzip_share(site):
    total = index = 0
    for folder, _, files in os.walk(site):
        for name in files:
            path = os.path.join(folder, name)
            size = len(gzip.compress(open(path, "rb").read(), 6))
            total += size
            if os.path.relpath(path, site).startswith("search" + os.sep):
                index += size
    return index, total


class Driver:
    def __init__(self):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.profile = tempfile.mkdtemp()
        self.process = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except OSError:
                time.sleep(0.05)
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", f"--user-data-dir={self.profile}"]
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.load(response)["value"]

    def open(self, url):
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def script(self, text):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": text, "args": []})

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.process.kill()
            self.process.wait()


# One query, timed in the page: the search (which loads what it needs) and
# the files of the first ten posts found, as the results page shows them.
TIMED = """
const q = %s;
const t0 = performance.now();
const found = await window.hanjiSearch.search(q);
await window.hanjiSearch.posts(found.posts.slice(0, 10));
const ms = performance.now() - t0;
const scripts = [...document.scripts].map((s) => s.src).filter((s) => s);
return [ms, found.posts.length, scripts];
"""


def main():
    site = os.path.abspath(sys.argv[1])
    index, total = gzip_share(site)
    print(f"## Index size\nsearch/ gzipped {index / 1e6:.2f} MB of the site's {total / 1e6:.2f} MB "
          f"(each file gzipped, level 6): the index adds {index / (total - index) * 100:.1f} % to the site without it\n")
    page = "file://" + urllib.parse.quote(os.path.join(site, "search", "index.html"))
    driver = Driver()
    rows = []
    try:
        for q in QUERIES:
            driver.open(page)
            for _ in range(100):
                if driver.script("return window.hanjiSearch !== undefined;"):
                    break
                time.sleep(0.02)
            first_ms, found, scripts = driver.script(TIMED % json.dumps(q))
            again_ms, _, _ = driver.script(TIMED % json.dumps(q))
            paths = [urllib.parse.unquote(urllib.parse.urlparse(s).path) for s in scripts]
            loaded = sum(os.path.getsize(p) for p in paths) + os.path.getsize(os.path.join(site, "search", "index.html"))
            rows.append((q, found, first_ms, again_ms, loaded, len(paths)))
    finally:
        driver.close()
    print("## Queries in headless Chromium over file://, one fresh page each")
    print("| query | posts found | first query ms | again ms | bytes loaded by the first query (page + scripts) | files |")
    print("|---|---:|---:|---:|---:|---:|")
    for q, found, first, again, loaded, files in rows:
        print(f"| {q} | {found} | {first:.1f} | {again:.1f} | {loaded:,} | {files} |")
    med = lambda i: statistics.median(r[i] for r in rows)
    print(f"\nmedian: first query {med(2):.1f} ms, again {med(3):.1f} ms, first query loads {med(4) / 1024:.0f} KB "
          f"(largest {max(r[4] for r in rows) / 1024:.0f} KB)")


if __name__ == "__main__":
    main()

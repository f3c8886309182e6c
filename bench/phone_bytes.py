"""Bytes of images a phone downloads to read every post of an exported site.

Serves SITE over HTTP (python's http.server, on a free port), opens each
post page in headless Chromium through chromedriver with a phone's screen
(390x844 CSS pixels at 3 device pixels each, an iPhone 14's; `--dpr` and
`--width` change it), scrolls to the bottom so lazy images load, and sums
the encoded bytes of every image the page fetched (Resource Timing). Both
servers are started here and stopped by their PIDs.

    python3 bench/phone_bytes.py SITE [--width 390] [--dpr 3]
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["value"]


def wait_for(port):
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"nothing listens on {port}")


MEASURE = """
const done = arguments[0];
let y = 0;
const step = () => {
  y += innerHeight / 2;
  scrollTo(0, y);
  if (y < document.body.scrollHeight) { setTimeout(step, 60); return; }
  setTimeout(() => {
    const images = performance.getEntriesByType('resource')
      .filter(e => e.initiatorType === 'img' || /\\.(png|jpe?g|webp|avif|gif|svg)$/.test(new URL(e.name).pathname));
    done(images.map(e => [new URL(e.name).pathname, e.encodedBodySize]));
  }, 800);
};
step();
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("--dpr", type=float, default=3)
    args = parser.parse_args()
    site = Path(args.site)
    posts = sorted(p.parent.relative_to(site) for p in site.glob("posts/*/index.html"))

    http_port, driver_port = free_port(), free_port()
    http = subprocess.Popen([sys.executable, "-m", "http.server", str(http_port), "--bind", "127.0.0.1"],
                            cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = subprocess.Popen(["chromedriver", f"--port={driver_port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(http_port)
        wait_for(driver_port)
        base = f"http://127.0.0.1:{driver_port}"
        options = {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-cache"],
            "mobileEmulation": {"deviceMetrics": {"width": args.width, "height": args.height,
                                                  "pixelRatio": args.dpr, "mobile": True}},
        }
        total, rows = 0, []
        for post in posts:
            session = call(base, "POST", "/session",
                           {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})["sessionId"]
            try:
                call(base, "POST", f"/session/{session}/timeouts", {"script": 30000})
                call(base, "POST", f"/session/{session}/url",
                     {"url": f"http://127.0.0.1:{http_port}/{post.as_posix()}/index.html"})
                images = call(base, "POST", f"/session/{session}/execute/async", {"script": MEASURE, "args": []})
            finally:
                call(base, "DELETE", f"/session/{session}")
            size = sum(bytes_ for _, bytes_ in images)
            total += size
            rows.append((post.as_posix(), size, images))
        for post, size, images in rows:
            if size:
                print(f"{size:>10,}  {post}")
                for name, bytes_ in images:
                    print(f"{'':>12}{bytes_:>10,}  {name}")
        print(f"{total:>10,}  bytes of images for {len(posts)} posts at {args.width}x{args.height} CSS px, "
              f"{args.dpr} device px each")
    finally:
        for process in (driver, http):
            os.kill(process.pid, signal.SIGTERM)
            process.wait()


if __name__ == "__main__":
    main()

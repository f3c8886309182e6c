#!/usr/bin/env bash
# Lighthouse's performance score of one exported post (by default the sample
# blog's image-heavy onboarding checklist), served over HTTP, on Lighthouse's
# phone (Moto G Power, slow 4G and a slowed CPU, simulated): RUNS runs, each
# score printed with the page's Largest Contentful Paint, Total Blocking Time,
# Cumulative Layout Shift and image bytes, then the median score.
#
#   bash bench/lighthouse_post.sh SITE LIGHTHOUSE_CLI [POST] [RUNS]
#
# SITE is an exported site (`make html` leaves the sample blog's in
# .cache/sample-site); LIGHTHOUSE_CLI is lighthouse's cli/index.js (`make
# a11y` installs it into .cache/lighthouse). Scores move with the machine's
# load: a measurement, not a test.
set -euo pipefail
site=$(cd "$1" && pwd)
cli=$2
post=${3:-posts/gpu-cluster-onboarding-checklist/}
runs=${4:-3}
work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 "$port" --directory "$site" >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
    sleep 0.1
done
for run in $(seq "$runs"); do
    CHROME_PATH=${CHROME_PATH:-$(command -v chromium)} node "$cli" "http://127.0.0.1:$port/${post}index.html" --quiet \
        --only-categories=performance --output=json --output-path="$work/report-$run.json" \
        --chrome-flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$work/profile-$run"
done
python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
scores = []
for run in range(1, int(sys.argv[2]) + 1):
    report = json.load(open(f"{sys.argv[1]}/report-{run}.json"))
    audits = report["audits"]
    score = report["categories"]["performance"]["score"] * 100
    scores.append(score)
    images = sum(item["transferSize"] for item in audits["network-requests"]["details"]["items"]
                 if item.get("resourceType") == "Image")
    print(f"performance {score:.0f}: LCP {audits['largest-contentful-paint']['displayValue']}, "
          f"TBT {audits['total-blocking-time']['displayValue']}, CLS {audits['cumulative-layout-shift']['displayValue']}, "
          f"images {images:,} bytes")
print(f"median performance score: {statistics.median(scores):.0f}")
PY

#!/usr/bin/env bash
# Lighthouse's accessibility score of the exported sample blog's search page,
# with results on it, served over HTTP under a sub-path; fails below 95.
#
#   tests/search/accessibility.sh SITE LIGHTHOUSE_CLI
#
# SITE is an exported sample blog (`make html` leaves one in
# .cache/sample-site); LIGHTHOUSE_CLI is lighthouse's cli/index.js (`make a11y`
# installs it into .cache/lighthouse).
set -euo pipefail
site=$(cd "$1" && pwd)
cli=$2
minimum=0.95
work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/root"
ln -s "$site" "$work/root/blog"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 "$port" --directory "$work/root" >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
    sleep 0.1
done
# "분산 학습": Korean words, marked in titles, tags and passages.
url="http://127.0.0.1:$port/blog/search/index.html?q=%EB%B6%84%EC%82%B0%20%ED%95%99%EC%8A%B5"
CHROME_PATH=${CHROME_PATH:-$(command -v chromium)} node "$cli" "$url" --quiet \
    --only-categories=accessibility --output=json --output-path="$work/report.json" \
    --chrome-flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$work/profile"
python3 - "$work/report.json" "$minimum" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
score = report["categories"]["accessibility"]["score"]
failed = [a["title"] for a in report["audits"].values() if a.get("scoreDisplayMode") == "binary" and a.get("score") == 0]
print(f"Lighthouse accessibility of the search page: {score * 100:.0f}" + (f"; failed: {'; '.join(failed)}" if failed else ""))
sys.exit(0 if score >= float(sys.argv[2]) else 1)
PY

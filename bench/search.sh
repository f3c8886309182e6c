#!/usr/bin/env bash
# Measures search on the synthetic 10,000-post blog (bench/README.md, "Search"):
# the export with search on against the same export with `search = false`
# (cold: output folder and highlight cache emptied before each run, the two
# alternating), the index's share of the site's gzip bytes, and, in headless
# Chromium over file://, each query's time and the bytes the first query loads.
#
#   bash bench/search.sh
#
# Environment:
#   BENCH_DIR   work folder: corpus, outputs, caches       (default /tmp/hanji-bench)
#   RUNS        exports of each kind                       (default 5)
#   POSTS       corpus size                                (default 10000)
#   CARGO       cargo command                              (default cargo)
#   CARGO_TARGET_DIR is respected when finding the hanji binary.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/hanji-bench}
RUNS=${RUNS:-5}
POSTS=${POSTS:-10000}
CARGO=${CARGO:-cargo}

. "$here/lib.sh"
case $RUNS in '' | *[!0-9]* | 0) say "RUNS must be a positive integer"; exit 1 ;; esac
for tool in python3 chromium chromedriver /usr/bin/time; do
    command -v "$tool" >/dev/null || { say "search.sh needs $tool (make test-deps installs chromium and chromedriver; apt-get install time)"; exit 1; }
done

hanji=$(release_hanji search)

corpus=$BENCH_DIR/search-corpus-$POSTS
if [ ! -f "$corpus/.complete" ]; then
    rm -rf "$corpus"
    python3 "$here/gen_corpus.py" --posts "$POSTS" --out "$corpus" --format yaml --seed 1 >&2
    touch "$corpus/.complete"
fi
settings() {
    printf 'title = "Bench"\nbase_url = "https://example.com/"\nposts_per_page = 10\nlocale = "en-US"\nsearch = %s\n' "$1" >"$corpus/hanji.toml"
}

# One cold export; prints "wall user system peak-KB".
export_once() {
    local out=$BENCH_DIR/search-out-$1
    settings "$1"
    rm -rf "$out" "$BENCH_DIR/search-cache"
    HANJI_CACHE_DIR=$BENCH_DIR/search-cache /usr/bin/time -f '%e %U %S %M' -o "$BENCH_DIR/time.txt" \
        "$hanji" export "$corpus" --out "$out" --force --quiet >/dev/null 2>"$BENCH_DIR/export-$1.log" || true
    cat "$BENCH_DIR/time.txt"
}

on=() off=()
for run in $(seq "$RUNS"); do
    on+=("$(export_once true)")
    off+=("$(export_once false)")
    say "run $run: search on ${on[-1]}; off ${off[-1]}  (wall user sys KB)"
done
settings true

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
field() { printf '%s\n' "${@:2}" | awk -v f="$1" '{ print $f }' | median; }
wall_on=$(field 1 "${on[@]}") wall_off=$(field 1 "${off[@]}")
cpu_on=$(printf '%s\n' "${on[@]}" | awk '{ print $2 + $3 }' | median)
cpu_off=$(printf '%s\n' "${off[@]}" | awk '{ print $2 + $3 }' | median)
echo "## Export of $POSTS posts, cold, median of $RUNS runs"
echo "| | wall s | CPU s | peak MB |"
echo "|---|---:|---:|---:|"
echo "| search = false | $wall_off | $cpu_off | $(( $(field 4 "${off[@]}" | cut -d. -f1) / 1024 )) |"
echo "| search on | $wall_on | $cpu_on | $(( $(field 4 "${on[@]}" | cut -d. -f1) / 1024 )) |"
awk -v a="$wall_on" -v b="$wall_off" -v c="$cpu_on" -v d="$cpu_off" \
    'BEGIN { printf "search adds %.1f %% wall, %.1f %% CPU\n\n", (a / b - 1) * 100, (c / d - 1) * 100 }'

python3 "$here/search_queries.py" "$BENCH_DIR/search-out-true"

#!/usr/bin/env bash
# Times `hanji export` against Hugo on the same synthetic blog (1,000 and
# 10,000 posts): wall seconds, CPU seconds and peak RSS of full exports, plus
# Hanji's export with a warm highlight cache and its re-export with nothing
# changed. See bench/README.md.
#
#   bash bench/compare.sh
#
# Environment:
#   BENCH_DIR   work folder: corpora, outputs, logs    (default /tmp/hanji-bench)
#   OUT_DIR     where both tools write their sites     (default $BENCH_DIR)
#               e.g. /dev/shm/hanji-bench times the tools, not the disk
#   RUNS        runs of each tool per corpus size      (default 5)
#   SIZES       corpus sizes, space-separated          (default "1000 10000")
#   HUGO_SITE   the Hugo site (config + layouts)       (default bench/hugo-site)
#   HUGO_CONFIG Hugo's --config, relative to the site  (default: none, i.e. hugo.toml)
#               e.g. hugo.toml,rss20.toml caps Hugo's feeds at 20 items, as Hanji's
#   MAX_LOAD    wait (30 min at most) until the 1-minute load average is below it
#   CARGO       cargo command                          (default cargo)
#   CARGO_TARGET_DIR is respected when finding the hanji binary.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/hanji-bench}
OUT_DIR=${OUT_DIR:-$BENCH_DIR}
RUNS=${RUNS:-5}
SIZES=${SIZES:-1000 10000}
HUGO_SITE=${HUGO_SITE:-$here/hugo-site}
HUGO_CONFIG=${HUGO_CONFIG:-}
MAX_LOAD=${MAX_LOAD:-}
CARGO=${CARGO:-cargo}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

say() { printf '%s\n' "$*" >&2; }
die() {
    say "compare.sh: $*"
    exit 1
}

case $RUNS in '' | *[!0-9]* | 0) die "RUNS must be a positive integer, not '$RUNS'" ;; esac
[ -n "${SIZES// /}" ] || die "SIZES is empty"
for n in $SIZES; do
    case $n in *[!0-9]* | 0) die "SIZES must be positive integers, not '$n'" ;; esac
done
[ -f "$HUGO_SITE/hugo.toml" ] || die "no Hugo site at $HUGO_SITE (expected hugo.toml there)"
command -v python3 >/dev/null || die "python3 is missing"

# --- tools -------------------------------------------------------------------

missing=()
command -v hugo >/dev/null || missing+=(hugo)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} with apt-get"
    $SUDO apt-get update -q >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
fi

say "building hanji (release)"
(cd "$repo" && "$CARGO" build --release --locked) >&2
target_dir=${CARGO_TARGET_DIR:-$repo/target}
case $target_dir in /*) ;; *) target_dir=$repo/$target_dir ;; esac
[ -x "$target_dir/release/hanji" ] || die "built, but no binary at $target_dir/release/hanji"
# Time a copy: another build in the same target folder must not swap the
# binary in the middle of the runs.
mkdir -p "$BENCH_DIR/bin"
hanji=$BENCH_DIR/bin/hanji
cp "$target_dir/release/hanji" "$hanji"
rev=$(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo 'unknown commit')
(cd "$repo" && git diff --quiet HEAD 2>/dev/null) || rev="$rev + uncommitted changes"

# --- corpora -----------------------------------------------------------------
# One folder per size, read by both tools as it is:
#   $BENCH_DIR/corpus-N/posts/*.md   written by gen_corpus.py
#   $BENCH_DIR/corpus-N/hanji.toml   written here
# Hanji takes the folder as the blog (posts from posts/); Hugo takes it as
# --contentDir, where posts/ is its `posts` section.

mkdir -p "$BENCH_DIR" "$OUT_DIR"
for n in $SIZES; do
    corpus=$BENCH_DIR/corpus-$n
    if [ ! -f "$corpus/.complete" ]; then
        say "generating the $n-post corpus in $corpus"
        rm -rf "$corpus"
        python3 "$here/gen_corpus.py" --posts "$n" --out "$corpus" --format yaml --seed 1
        touch "$corpus/.complete" # dot files are skipped by both tools
    fi
    # posts_per_page = 10 as Hugo's `paginate = 10`; title and base URL as hugo.toml.
    cat >"$corpus/hanji.toml" <<'EOF'
title = "Bench blog"
base_url = "https://bench.example.org/"
locale = "en-US"
posts_per_page = 10
EOF
done

# Hugo writes a lock file (and resources/) into its site folder: use a copy.
site=$BENCH_DIR/hugo-site
rm -rf "$site"
cp -r "$HUGO_SITE" "$site"
chmod -R u+w "$site"
hugo_args=(--quiet -s "$site")
[ -z "$HUGO_CONFIG" ] || hugo_args+=(--config "$HUGO_CONFIG")

# Hanji keeps highlighted code between exports in its cache folder: use one of
# our own, emptied before every cold run.
export HANJI_CACHE_DIR=$BENCH_DIR/hanji-cache

# --- runs --------------------------------------------------------------------

results=$BENCH_DIR/results.tsv # size, tool, run, wall s, user s, sys s, peak KB
counts=$BENCH_DIR/files.tsv    # size, tool, files, .html files
: >"$results"
: >"$counts"
log=$BENCH_DIR/last-run.log

# timed SIZE TOOL RUN CMD...: runs CMD under /usr/bin/time, appends a row.
timed() {
    local size=$1 tool=$2 run=$3
    shift 3
    local tf=$BENCH_DIR/time.txt
    if ! /usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" >"$log" 2>&1; then
        say "FAILED: $tool on $size posts (run $run): $*"
        say "--- its errors (full output in $log):"
        grep -iE 'error|panic' "$log" | head -n 40 >&2 || true
        say "--- its last lines:"
        tail -n 5 "$log" >&2
        [ -s "$tf" ] && cat "$tf" >&2
        exit 1
    fi
    local wall user sys kb
    read -r wall user sys kb < <(tail -n 1 "$tf")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$tool" "$run" "$wall" "$user" "$sys" "$kb" >>"$results"
    say "  $size posts  $tool  run $run: ${wall} s, $((kb / 1024)) MB"
}

if [ -n "$MAX_LOAD" ]; then
    for ((i = 0; i < 180; i++)); do
        awk -v max="$MAX_LOAD" '{ exit !($1 < max) }' /proc/loadavg && break
        [ "$i" -gt 0 ] || say "waiting for the load average to drop below $MAX_LOAD"
        sleep 10
    done
fi

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for n in $SIZES; do
    corpus=$BENCH_DIR/corpus-$n
    out_h=$OUT_DIR/out-hanji-$n
    out_g=$OUT_DIR/out-hugo-$n
    say "$n posts: $RUNS runs, alternating hanji and hugo"
    for ((r = 1; r <= RUNS; r++)); do
        # Everything from scratch: empty output, empty highlight cache.
        rm -rf "$out_h" "$HANJI_CACHE_DIR"
        timed "$n" hanji "$r" "$hanji" export "$corpus" --out "$out_h" --force --quiet
        # The same export again into the same folder: nothing changed.
        timed "$n" "hanji, again" "$r" "$hanji" export "$corpus" --out "$out_h" --force --quiet
        # Empty output, but highlighted code kept from the runs above.
        rm -rf "$out_h"
        timed "$n" "hanji, warm cache" "$r" "$hanji" export "$corpus" --out "$out_h" --force --quiet
        rm -rf "$out_g"
        timed "$n" hugo "$r" hugo "${hugo_args[@]}" --contentDir "$corpus" -d "$out_g"
    done
    for tool in hanji hugo; do
        out=$OUT_DIR/out-$tool-$n
        printf '%s\t%s\t%s\t%s\n' "$n" "$tool" "$(find "$out" -type f | wc -l)" \
            "$(find "$out" -type f -name '*.html' | wc -l)" >>"$counts"
    done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report ------------------------------------------------------------------

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo) RAM"
echo "load:    $load_start before the runs, $load_end after (1, 5, 15-minute averages)"
echo "sites:   written under $OUT_DIR ($(df --output=fstype "$OUT_DIR" | tail -1))"
echo "hanji:   $("$hanji" --version), built from $rev"
echo "hugo:    $(hugo version | cut -d' ' -f1-2)${HUGO_CONFIG:+ with --config $HUGO_CONFIG}"
echo "runs:    $RUNS of each, alternating; hanji and hugo start from an empty output folder every run"
echo

python3 - "$results" "$counts" "$SIZES" <<'EOF'
import statistics as st, sys

def rows(path):
    return [l.split("\t") for l in open(path).read().splitlines() if l]

data = {}
for size, tool, run, wall, user, sys_, kb in rows(sys.argv[1]):
    data.setdefault((size, tool), []).append((float(wall), float(user) + float(sys_), int(kb)))
print("| corpus | tool | median s | min s | max s | median CPU s | median peak MB | hugo / this (median s) |")
print("|---:|---|---:|---:|---:|---:|---:|---:|")
for size in sys.argv[3].split():
    hugo = st.median(w for w, _, _ in data[(size, "hugo")])
    for tool in ("hanji", "hanji, warm cache", "hanji, again", "hugo"):
        runs = data[(size, tool)]
        wall = [w for w, _, _ in runs]
        med = st.median(wall)
        cpu = st.median(c for _, c, _ in runs)
        mb = st.median(kb for _, _, kb in runs) / 1024
        ratio = "%.1f×" % (hugo / med) if med > 0 else "—"
        print("| %s | %s | %.2f | %.2f | %.2f | %.2f | %.0f | %s |"
              % (f"{int(size):,}", tool, med, min(wall), max(wall), cpu, mb, ratio))
print()
print("| corpus | tool | files written | of them .html |")
print("|---:|---|---:|---:|")
for size, tool, files, html in rows(sys.argv[2]):
    print("| %s | %s | %s | %s |" % (f"{int(size):,}", tool, f"{int(files):,}", f"{int(html):,}"))
EOF

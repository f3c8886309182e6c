#!/usr/bin/env bash
# Times `hanji export` after the edits an author makes, on the synthetic
# 10,000-post blog: a cold export (no cache, empty folder), an export of the
# unchanged blog, one after one post's body changes, and one after one post's
# tags change, each into the same folder with the cache the last one kept.
# Prints the median wall, CPU (user + sys) and peak memory of each kind, and
# how many pages each rendered. See bench/README.md, "Incremental export".
#
#   bash bench/incremental.sh
#
# Environment:
#   BENCH_DIR   work folder: corpus, output, cache        (default /tmp/hanji-bench)
#   RUNS        rounds of edits                           (default 5)
#   POSTS       corpus size                               (default 10000)
#   CARGO       cargo command                             (default cargo)
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
for tool in python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { say "incremental.sh needs $tool (apt-get install time)"; exit 1; }
done

hanji=$(release_hanji incremental)

# A corpus of our own: the edits below change it.
corpus=$BENCH_DIR/incremental-corpus-$POSTS
# The post edited, as generated (each round starts from it), beside the corpus.
original=$corpus.post.md
if [ ! -f "$corpus/.complete" ] || [ ! -f "$original" ]; then
    rm -rf "$corpus"
    python3 "$here/gen_corpus.py" --posts "$POSTS" --out "$corpus" --format yaml --seed 1 >&2
    printf 'title = "Bench blog"\nbase_url = "https://bench.example.org/"\nposts_per_page = 10\n' >"$corpus/hanji.toml"
    find "$corpus/posts" -name '*.md' | sort | sed -n "$((POSTS / 2))p" | xargs -I{} cp {} "$original"
    touch "$corpus/.complete"
fi
out=$BENCH_DIR/incremental-out
export HANJI_CACHE_DIR=$BENCH_DIR/incremental-cache
results=$BENCH_DIR/incremental.tsv # kind, wall s, user s, sys s, peak KB, pages rendered
: >"$results"

# One export, timed: appends its line to the results.
timed() {
    local kind=$1 log=$BENCH_DIR/incremental.log
    # What the last export wrote reaches the disk first, not during this one.
    sync
    /usr/bin/time -f '%e %U %S %M' -o "$BENCH_DIR/time.txt" "$hanji" export "$corpus" --out "$out" >"$log" 2>&1
    local rendered
    rendered=$(sed -n 's/.*; \([0-9]*\) pages\? rendered.*/\1/p' "$log" | tail -1)
    printf '%s\t%s\t%s\n' "$kind" "$(tr ' ' '\t' <"$BENCH_DIR/time.txt")" "$rendered" >>"$results"
}

# The post edited: one in the middle of the blog, the same each round.
post=$(find "$corpus/posts" -name '*.md' | sort | sed -n "$((POSTS / 2))p")
for run in $(seq "$RUNS"); do
    say "round $run of $RUNS"
    # Each round edits the post as generated: the tag it adds is new.
    cp "$original" "$post"
    rm -rf "$out" "$HANJI_CACHE_DIR"
    timed cold
    # Files are trusted by their stamps once older than the clock's grain.
    sleep 2.1
    timed unchanged
    printf '\nAnother paragraph, round %s: 분산 학습을 다시 잰다.\n' "$run" >>"$post"
    sleep 2.1
    timed "body edited"
    sed -i "0,/^tags: \[/s//tags: [\"round-$run\", /" "$post"
    sleep 2.1
    timed "tags changed"
done

python3 - "$results" "$POSTS" <<'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
print(f"## Export of {int(sys.argv[2]):,} posts after each kind of change, median of {len(rows) // 4} rounds")
print("| change | wall s | CPU s | peak MB | pages rendered |")
print("|---|---:|---:|---:|---:|")
for kind in ["cold", "unchanged", "body edited", "tags changed"]:
    runs = [r for r in rows if r[0] == kind]
    med = lambda i: statistics.median(float(r[i]) for r in runs)
    cpu = statistics.median(float(r[2]) + float(r[3]) for r in runs)
    rendered = statistics.median(int(r[5] or 0) for r in runs)
    print(f"| {kind} | {med(1):.2f} | {cpu:.2f} | {med(4) / 1024:.0f} | {rendered:.0f} |")
EOF

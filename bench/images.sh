#!/usr/bin/env bash
# Measures what sizing images for the screen adds to an export
# (bench/README.md, "Images"), on the sample blog and on the synthetic
# 10,000-post blog with IMAGES of its posts showing a photo each: the export
# with `[images] resize = false` (the images copied as they are) against the
# same with copies made into an empty cache (cold) and from a full one (a
# second export into a new folder, which makes nothing), RUNS times each,
# alternating; whole-process wall, user and system time, and peak memory.
#
#   bash bench/images.sh
#
# The corpus's photos are the sample blog's two photos (2400 and 2000 pixels
# across), each file given its own bytes at the end (which decoders ignore),
# so every one is an image of its own to the cache, and as much work as a
# photo of that size.
#
# Environment:
#   BENCH_DIR   work folder: corpus, outputs, caches       (default /tmp/hanji-bench)
#   RUNS        exports of each kind                       (default 3)
#   POSTS       corpus size                                (default 10000)
#   IMAGES      posts of the corpus that show a photo      (default 200)
#   CARGO       cargo command                              (default cargo)
#   CARGO_TARGET_DIR is respected when finding the hanji binary.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/hanji-bench}
RUNS=${RUNS:-3}
POSTS=${POSTS:-10000}
IMAGES=${IMAGES:-200}
CARGO=${CARGO:-cargo}

. "$here/lib.sh"
for tool in python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { say "images.sh needs $tool (apt-get install time)"; exit 1; }
done

hanji=$(release_hanji images)

corpus=$BENCH_DIR/images-corpus-$POSTS-$IMAGES
if [ ! -f "$corpus/.complete" ]; then
    rm -rf "$corpus"
    python3 "$here/gen_corpus.py" --posts "$POSTS" --out "$corpus" --format yaml --seed 1 >&2
    python3 - "$corpus" "$IMAGES" "$repo/content/static/images" <<'PY'
import sys
from pathlib import Path
corpus, count, photos = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
sources = [(photos / name).read_bytes() for name in ("gpu-rack.jpg", "ib-cables.jpg")]
images = corpus / "static" / "images"
images.mkdir(parents=True, exist_ok=True)
posts = sorted((corpus / "posts").rglob("*.md"))[:count]
for n, post in enumerate(posts):
    name = f"photo-{n:04}.jpg"
    # Bytes of its own after the JPEG's end: another image to the cache.
    (images / name).write_bytes(sources[n % 2] + f"hanji bench {n}".encode())
    with post.open("a") as f:
        f.write(f"\n\n![Photo {n}](/images/{name})\n")
PY
    touch "$corpus/.complete"
fi

# Exports BLOG with images resized or not; prints "wall user system peak-KB".
export_once() {
    local blog=$1 resize=$2 cache=$3 out=$BENCH_DIR/images-out
    printf 'title = "Bench"\nbase_url = "https://example.com/"\n[images]\nresize = %s\n' "$resize" >"$blog/hanji.toml"
    rm -rf "$out"
    HANJI_CACHE_DIR=$cache /usr/bin/time -f '%e %U %S %M' -o "$BENCH_DIR/time.txt" \
        "$hanji" export "$blog" --out "$out" --force --quiet >/dev/null 2>"$BENCH_DIR/images-export.log" || true
    cat "$BENCH_DIR/time.txt"
}

# A cache with highlighted code and no copies of images: every export below
# starts from one, so that only the images differ.
fresh_cache() {
    rm -rf "$BENCH_DIR/images-cache"
    mkdir -p "$BENCH_DIR/images-cache"
    cp "$BENCH_DIR/images-highlight/highlight.bin" "$BENCH_DIR/images-cache/" 2>/dev/null || true
}

measure() {
    local name=$1 blog=$2
    local off=() cold=() warm=()
    rm -rf "$BENCH_DIR/images-highlight"
    export_once "$blog" false "$BENCH_DIR/images-highlight" >/dev/null
    for run in $(seq "$RUNS"); do
        say "$name: run $run of $RUNS"
        fresh_cache
        off+=("$(export_once "$blog" false "$BENCH_DIR/images-cache")")
        fresh_cache
        cold+=("$(export_once "$blog" true "$BENCH_DIR/images-cache")")
        grep -h "copies\|copy of" "$BENCH_DIR/images-export.log" >&2 || true
        warm+=("$(export_once "$blog" true "$BENCH_DIR/images-cache")")
        grep -h "copies\|copy of" "$BENCH_DIR/images-export.log" >&2 || true
    done
    python3 - "$name" "${off[*]}" "${cold[*]}" "${warm[*]}" <<'PY'
import statistics, sys
name = sys.argv[1]
def runs(text):
    values = list(map(float, text.split()))
    return [values[i:i + 4] for i in range(0, len(values), 4)]
print(f"{name}: median of {len(runs(sys.argv[2]))} runs (wall s, user s, system s, peak MB)")
for label, text in (("resize = false", sys.argv[2]), ("copies made (cold cache)", sys.argv[3]), ("copies from the cache", sys.argv[4])):
    rows = runs(text)
    wall, user, system, peak = (statistics.median(column) for column in zip(*rows))
    print(f"  {label:<26} wall {wall:6.2f}  user {user:6.2f}  sys {system:5.2f}  user+sys {user + system:6.2f}  peak {peak / 1024:6.0f}")
PY
}

sample=$BENCH_DIR/images-sample
rm -rf "$sample"
cp -r "$repo/content" "$sample"
say "load: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "sample blog" "$sample"
measure "$POSTS posts, $IMAGES with a photo" "$corpus"
say "load: $(cut -d' ' -f1-3 /proc/loadavg)"

# What the benchmark scripts share; sourced, not run. Expects `repo`,
# `BENCH_DIR` and `CARGO` to be set.

say() { printf '%s\n' "$*" >&2; }

# Builds hanji (release) and copies it to $BENCH_DIR/hanji-NAME, so that
# another build cannot replace it halfway through the runs; prints the copy.
release_hanji() {
    local name=$1 target_dir
    say "building hanji (release)"
    (cd "$repo" && "$CARGO" build --release --locked -p hanji) >&2
    target_dir=${CARGO_TARGET_DIR:-$repo/target}
    case $target_dir in /*) ;; *) target_dir=$repo/$target_dir ;; esac
    mkdir -p "$BENCH_DIR"
    cp "$target_dir/release/hanji" "$BENCH_DIR/hanji-$name"
    printf '%s\n' "$BENCH_DIR/hanji-$name"
}

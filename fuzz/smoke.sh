#!/usr/bin/env bash
# Builds every fuzz target and runs each for SECONDS (default 20) on its
# committed corpus plus the crash inputs kept in regressions/. Exits non-zero
# as soon as a target crashes, leaks, times out or runs out of memory; the
# input is left in fuzz/artifacts/<target>/.
#
#   fuzz/smoke.sh          # 20 s per target
#   fuzz/smoke.sh 300      # 5 min per target
#
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz --locked`).
set -euo pipefail

seconds="${1:-20}"
cd "$(dirname "$0")"

targets=(front_matter markdown edit_round_trip addresses)
cargo +nightly fuzz build -O

for target in "${targets[@]}"; do
    # The run grows a scratch copy, so the committed corpus stays minimized.
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    inputs=("$scratch" "corpus/$target")
    if [[ -d "regressions/$target" ]]; then
        inputs+=("regressions/$target")
    fi
    echo "fuzz: $target for ${seconds}s"
    if ! cargo +nightly fuzz run -O "$target" "${inputs[@]}" -- \
        -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 >"$scratch/log" 2>&1; then
        tail -n 60 "$scratch/log" >&2
        echo "fuzz: $target found a crash; see fuzz/artifacts/$target/" >&2
        exit 1
    fi
    grep -E '^(Done|stat::number_of_executed_units)' "$scratch/log" || true
    rm -rf "$scratch"
done
echo "fuzz: every target ran ${seconds}s without a crash"

#!/usr/bin/env bash
# Holds Hanji to the corpus of real blogs beside the repository
# (../shared/realblogs, or REALBLOGS): builds the CLI and runs the corpus's own
# runner, fidelity.py, which copies each blog, runs `hanji tags` and `hanji
# export` on the copy and compares posts, tags, pages and addresses with what
# the blog's own tool publishes. Not part of `make test`: the corpus lives
# outside the repository. Its last line is the figure to quote:
#
#   bash bench/fidelity.sh                 # every blog
#   bash bench/fidelity.sh jekyll-heaths2  # some
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
REALBLOGS=${REALBLOGS:-$repo/../shared/realblogs}
CARGO=${CARGO:-cargo}
[ -f "$REALBLOGS/fidelity.py" ] || { echo "no corpus at $REALBLOGS (set REALBLOGS)" >&2; exit 2; }
(cd "$repo" && $CARGO build --quiet --locked --bin hanji)
target=$(cd "$repo" && $CARGO metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
exec python3 "$REALBLOGS/fidelity.py" "$target/debug/hanji" "$@"

#!/usr/bin/env bash
# Measures `hanji publish` to each kind of target, on the sample blog and on
# the synthetic 10,000-post blog: files and bytes sent, and the time taken,
# for the first publish, a publish of the unchanged blog, and a publish after
# one post is edited. The targets are real and on this machine: a folder, a
# bare git repository (on disk), OpenSSH's sshd (SFTP) and moto's S3 server
# (`make test-deps` installs both), each started here and stopped by PID.
#
#   bash bench/publish.sh
#
# Environment:
#   BENCH_DIR   work folder: corpus, targets, caches      (default /tmp/hanji-bench-publish)
#   POSTS       corpus size                                (default 10000)
#   KINDS       kinds to measure                           (default "folder git sftp bucket")
#   PROFILE     the build measured: release or dev           (default release)
#   CARGO_TARGET_DIR is respected when finding the hanji binary.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/hanji-bench-publish}
POSTS=${POSTS:-10000}
KINDS=${KINDS:-folder git sftp bucket}
PROFILE=${PROFILE:-release}
hanji=${CARGO_TARGET_DIR:-$repo/target}/$([ "$PROFILE" = dev ] && echo debug || echo release)/hanji
moto=$repo/.cache/moto/bin

say() { printf '%s\n' "$*" >&2; }
[ -x /usr/sbin/sshd ] && [ -x "$moto/moto_server" ] || { say "publish.sh needs sshd and moto: make test-deps"; exit 1; }
command -v /usr/bin/time >/dev/null || { say "publish.sh needs /usr/bin/time (apt-get install time)"; exit 1; }
(cd "$repo" && cargo build --profile "$PROFILE" --quiet --bin hanji)

rm -rf "$BENCH_DIR"
mkdir -p "$BENCH_DIR"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# sshd, for SFTP, with keys of its own.
ssh_dir=$BENCH_DIR/sshd
mkdir -p "$ssh_dir" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/user_key"
cp "$ssh_dir/user_key.pub" "$ssh_dir/authorized_keys"
ssh_port=$(free_port)
cat >"$ssh_dir/sshd_config" <<EOF
Port $ssh_port
ListenAddress 127.0.0.1
HostKey $ssh_dir/host_key
PidFile $ssh_dir/sshd.pid
AuthorizedKeysFile $ssh_dir/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
/usr/sbin/sshd -D -E "$ssh_dir/log" -f "$ssh_dir/sshd_config" &
pids+=($!)
echo "[127.0.0.1]:$ssh_port $(cut -d' ' -f1,2 "$ssh_dir/host_key.pub")" >"$ssh_dir/known_hosts"

# moto, without signatures checked (the tests check them).
s3_port=$(free_port)
"$moto/moto_server" -H 127.0.0.1 -p "$s3_port" >/dev/null 2>&1 &
pids+=($!)
sleep 3

export HANJI_PUBLISH_SECRET=bench-secret
settings() { # kind name → the [publish.NAME] table
    local kind=$1 name=$2 place=$BENCH_DIR/targets/$2
    case $kind in
    folder) mkdir -p "$place"; printf 'kind = "folder"\npath = "%s"\n' "$place" ;;
    git) git init -q --bare "$place.git"; printf 'kind = "git"\nremote = "%s.git"\n' "$place" ;;
    sftp) mkdir -p "$place"; printf 'kind = "sftp"\nhost = "127.0.0.1"\nport = %s\nuser = "%s"\npath = "%s"\nkey = "%s"\nknown_hosts = "%s"\n' \
        "$ssh_port" "$(id -un)" "$place" "$ssh_dir/user_key" "$ssh_dir/known_hosts" ;;
    bucket) "$moto/python" -c "import boto3; boto3.client('s3', endpoint_url='http://127.0.0.1:$s3_port', region_name='us-east-1', aws_access_key_id='a', aws_secret_access_key='b').create_bucket(Bucket='$name')"
        printf 'kind = "bucket"\nbucket = "%s"\nendpoint = "http://127.0.0.1:%s"\naccess_key = "bench"\n' "$name" "$s3_port" ;;
    esac
}

# One publish: "files bytes seconds user+sys".
publish() { # blog name
    local out
    out=$( { HANJI_CACHE_DIR=$BENCH_DIR/cache /usr/bin/time -f 'TIME %e %U %S' "$hanji" publish --quiet --target "$2" "$1" >/dev/null; } 2>&1 )
    local line=$(grep '^published to' <<<"$out") time=$(grep '^TIME' <<<"$out")
    [ -n "$line" ] || { say "$out"; exit 1; }
    # published to x: N files sent (B), R removed, U unchanged in S s
    local files=$(sed -E 's/.*: ([0-9]+) files? sent.*/\1/' <<<"$line")
    local bytes=$(sed -E 's/.*sent \(([^)]*)\).*/\1/' <<<"$line")
    read -r _ wall user sys <<<"$time"
    printf '%s\t%s\t%s s\t%.2f s\n' "$files" "$bytes" "$wall" "$(echo "$user + $sys" | bc)"
}

measure() { # label blog post-to-edit
    local label=$1 blog=$2 post=$3
    for kind in $KINDS; do
        local name=$label-$kind
        printf '\n[publish.%s]\n%s' "$name" "$(settings "$kind" "$name")" >>"$blog/hanji.toml"
        printf '%s\t%s\tfirst\t%s\n' "$label" "$kind" "$(publish "$blog" "$name")"
        printf '%s\t%s\tunchanged\t%s\n' "$label" "$kind" "$(publish "$blog" "$name")"
        printf '\nEdited for the %s benchmark.\n' "$kind" >>"$blog/$post"
        printf '%s\t%s\tone post edited\t%s\n' "$label" "$kind" "$(publish "$blog" "$name")"
    done
}

printf 'blog\tkind\tpublish\tfiles\tbytes\twall\tuser+sys\n'
cp -r "$repo/content" "$BENCH_DIR/sample"
measure sample "$BENCH_DIR/sample" posts/rust-async-cancellation.md
python3 "$repo/bench/gen_corpus.py" --posts "$POSTS" --out "$BENCH_DIR/c10k" --seed 1 >/dev/null
measure c10k "$BENCH_DIR/c10k" "$(cd "$BENCH_DIR/c10k" && grep -L 'draft: true' posts/*.md | head -1)"

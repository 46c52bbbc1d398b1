#!/usr/bin/env bash
# Instructions per operation (callgrind: the same count whatever else the machine does) of the
# guarded cases: P1 (integer and string keys), P2 and P5 depth 50, encode and decode in v3 and v2.
# Each case runs K1 and K2 times (Bench --list); the difference divided by K2 - K1 is per op.
#     Benchmarks/instructions.sh [PAYLOAD-FILTER]
# BENCH_BIN=PATH measures a Bench binary built elsewhere (another commit's library).
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${BENCH_BIN:-}" ]; then swift build -c release --product Bench > /dev/null; fi
bin=${BENCH_BIN:-.build/release/Bench}
filter=${1:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
        "$bin" --allocs "$1" "$2" "$3" > /dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$out/cg"
}
echo "| payload | case | instructions per op |"
echo "|---|---|---:|"
"$bin" --list | while IFS=$'\t' read -r payload case k1 k2; do
    case "$payload" in P1-*|P2-*|P5-depth-50) ;; *) continue ;; esac
    case "$case" in v3.encode|v3.decode|v2.encode|v2.decode) ;; *) continue ;; esac
    [[ -n "$filter" && "$payload" != *"$filter"* ]] && continue
    a=$(count "$payload" "$case" "$k1")
    b=$(count "$payload" "$case" "$k2")
    echo "| $payload | $case | $(( (b - a) / (k2 - k1) )) |"
done

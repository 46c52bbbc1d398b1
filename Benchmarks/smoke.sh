#!/usr/bin/env bash
# CI smoke check for the benchmarks (run from anywhere):
#   1. build `Bench` in release (only that product: the ordo-one/benchmark target is not needed);
#   2. a quick run of every case: every coder's round trip is checked first, a mismatch fails;
#   3. `Bench --smoke`: P2 v3 encode and decode timed interleaved with the floor coder; fails if
#      encoding takes more than SMOKE_MAX_RATIO (default 3) times the floor, or decoding more than
#      SMOKE_MAX_DECODE_RATIO (default 3). A gross-regression guard only: the ratio is measured on a
#      shared machine, in about a second. Both measure 1.1-1.5× (Docs/Performance.md), well inside 3;
#   4. `Mixed --deep-check`: P1 on a thread that decoded deep values first, against a fresh thread;
#      fails over SMOKE_MAX_DEEP_RATIO (default 2) times;
#   5. `Mixed --stack-check`: a tree at the default node limit is written on a 512 KiB stack (the
#      size of a secondary thread on Apple systems), values at the default depth (512) are decoded
#      and encoded on a 1 MiB stack, protobuf's (100) on 512 KiB; on 512 KiB, the default depth is
#      encoded on every path and deep input is refused for the stack rather than overflowing it; a
#      stack overflow fails the step.
# Extra arguments go to the quick run (e.g. a payload filter).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks --product Bench
swift build -c release --package-path Benchmarks --product Mixed
bench=Benchmarks/.build/release/Bench
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Progress goes to stderr: show it only if the quick run fails.
"$bench" --quick "$@" > /dev/null 2> "$log" || { cat "$log" >&2; exit 1; }
"$bench" --smoke --max-ratio "${SMOKE_MAX_RATIO:-3}" --max-decode-ratio "${SMOKE_MAX_DECODE_RATIO:-3}"
Benchmarks/.build/release/Mixed --deep-check --max-ratio "${SMOKE_MAX_DEEP_RATIO:-2}"
Benchmarks/.build/release/Mixed --stack-check

#!/usr/bin/env bash
# Builds the fuzzer (release, libFuzzer + AddressSanitizer) and runs it on the seed corpus.
#
#   ./run.sh [SECONDS] [extra libFuzzer args...]      e.g. ./run.sh 900 -jobs=1 -dict=...
#
# SECONDS defaults to 600. Crashes, timeouts and OOMs are written to ./artifacts/ (git-ignored);
# minimize one with:  .build/release/FuzzDecode -minimize_crash=1 -runs=10000 artifacts/crash-...
# and keep it in crashers/ once reported. Set FUZZ_ROUNDTRIP=0 to check only the decode contract.
set -euo pipefail
cd "$(dirname "$0")"
SECS="${1:-600}"
shift || true

# Flags, learned the hard way on Swift 6.3.1 / Linux:
# - `--sanitize=fuzzer` (SwiftPM) links libFuzzer's main instead of renaming the entry point
#   (with only `-Xswiftc -sanitize=fuzzer` the link fails: undefined FuzzDecode_main);
# - `-Xswiftc -sanitize=fuzzer,address` as ONE flag: swiftc keeps only the last `-sanitize=`
#   flag, and `--sanitize=fuzzer --sanitize=address` comes out in random order (a Set), so
#   half the builds got coverage without ASan and the other half ASan without coverage;
# - `--disable-dead-strip`: with --gc-sections the linker drops the coverage counters.
build() {
    nice -n 10 swift build -c release --sanitize=fuzzer --disable-dead-strip \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library "$@"
}
instrumented() {
    local out
    out=$(SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 .build/release/FuzzDecode -runs=0 2>&1 || true)
    [[ "$out" == *"inline 8-bit counters"* ]]
}
build
instrumented || { echo "run.sh: no coverage counters in .build/release/FuzzDecode" >&2; exit 1; }

python3 make_corpus.py corpus >/dev/null
mkdir -p artifacts
# The Swift runtime's own crash reporter can hang under libFuzzer's signal handling: let
# libFuzzer and ASan print the (symbolized) stack instead.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=0}"
exec nice -n 10 .build/release/FuzzDecode corpus \
    -max_total_time="$SECS" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=5 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix=artifacts/ "$@"

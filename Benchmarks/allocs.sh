#!/usr/bin/env bash
# Heap allocations per operation, counted with valgrind.
#
# For every (payload, case) listed by `Bench --list`, run `Bench --allocs PAYLOAD CASE K` under
# `valgrind --tool=memcheck` twice, with K = k1 and K = k2 iterations (10 and 110 for small
# payloads, fewer for large ones: the counts are exact, so fewer iterations lose nothing),
# read "total heap usage: N allocs, F frees, B bytes allocated", and report
#     allocs/op = (N(k2) - N(k1)) / (k2 - k1)      bytes/op likewise.
# Everything before and after the loop (start-up, building the payload, the round-trip check
# of that one case) is the same in both runs and cancels out.
#
# Usage: Benchmarks/allocs.sh [FILTER]      (FILTER: substring of payload names, as for Bench)
#   JOBS=2 Benchmarks/allocs.sh              run two valgrinds at once (do not time anything meanwhile)
# Writes Benchmarks/allocs.tsv (ALLOCS_OUT to change), prints a Markdown table; then
#   swift run -c release --package-path Benchmarks Bench --alloc-table Benchmarks/allocs.tsv
# fills the allocs/op column of the main table.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# A copy of the binary made below (so a rebuild during the run cannot change it), or the build.
BIN="${ALLOCS_BIN:-$here/.build/release/Bench}"
# Dictionary order must not change between the two runs.
export SWIFT_DETERMINISTIC_HASHING=1

heap() { # payload case k -> "allocs bytes", or "n/a"
    local out
    out="$(valgrind --tool=memcheck --leak-check=no "$BIN" --allocs "$1" "$2" "$3" 2>&1 || true)"
    if grep -q '^n/a' <<<"$out"; then echo "n/a"; return; fi
    if ! grep -q '^ran' <<<"$out"; then
        echo "allocs.sh: $1 $2 K=$3 failed:" >&2
        tail -5 <<<"$out" >&2
        echo "error"
        return
    fi
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs, [0-9,]* frees, \([0-9,]*\) bytes allocated.*/\1 \2/p' <<<"$out" | tr -d ,
}

if [[ "${1:-}" == "--one" ]]; then # internal: one line of the table
    payload="$2" case="$3" k1="$4" k2="$5"
    a="$(heap "$payload" "$case" "$k1")"
    b="$(heap "$payload" "$case" "$k2")"
    if [[ "$a" == "n/a" || "$b" == "n/a" || "$a" == "error" || "$b" == "error" ]]; then
        r="n/a"; [[ "$a" == "error" || "$b" == "error" ]] && r="error"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$payload" "$case" "$r" "$r" "$k1" "$k2"
    else
        read -r a1 b1 <<<"$a"
        read -r a2 b2 <<<"$b"
        awk -v p="$payload" -v c="$case" -v a1="$a1" -v a2="$a2" -v b1="$b1" -v b2="$b2" -v k1="$k1" -v k2="$k2" '
            function fmt(x) { return (x == int(x)) ? sprintf("%d", x) : sprintf("%.1f", x) }
            BEGIN { d = k2 - k1; printf "%s\t%s\t%s\t%s\t%d\t%d\n", p, c, fmt((a2 - a1) / d), fmt((b2 - b1) / d), k1, k2 }'
    fi
    exit 0
fi

command -v valgrind >/dev/null || { echo "allocs.sh: valgrind is not installed" >&2; exit 1; }
filter="${1:-}"
out="${ALLOCS_OUT:-$here/allocs.tsv}"
# Retry: a source file edited during the build makes swift build fail.
for attempt in 1 2 3; do
    swift build -c release --package-path "$here" >&2 && break
    [[ $attempt == 3 ]] && { echo "allocs.sh: build failed" >&2; exit 1; }
    sleep 10
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$BIN" "$work/Bench"
export ALLOCS_BIN="$work/Bench"
BIN="$ALLOCS_BIN"

list="$("$BIN" --list | awk -F '\t' -v f="$filter" 'index(tolower($1), tolower(f)) > 0')"
echo "allocs.sh: $(wc -l <<<"$list") cases, 2 valgrind runs each, ${JOBS:-1} at a time" >&2
tmp="$work/lines"
# xargs keeps no order; number the lines and sort back.
awk '{ print NR "\t" $0 }' <<<"$list" |
    xargs -P "${JOBS:-1}" -L 1 bash -c 'line="$("$0" --one "$2" "$3" "$4" "$5")"; printf "%s\t%s\n" "$1" "$line"; echo "  $2 $3" >&2' "$0" >"$tmp"
{
    printf '# payload\tcase\tallocs/op\tbytes/op\tk1\tk2\n'
    sort -n "$tmp" | cut -f 2-
} >"$out"
echo "allocs.sh: wrote $out" >&2

echo "| payload | case | allocs/op | bytes allocated/op |"
echo "|---|---|---:|---:|"
grep -v '^#' "$out" | awk -F '\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'

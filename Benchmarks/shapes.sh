#!/usr/bin/env bash
# Instructions per operation (callgrind) for the shapes of Sources/Shapes: each shape encoded and
# decoded in v3, K = 4 against K = 1, the difference divided by 3; and the share spent in the
# runtime's metadata and conformance look-ups (what unspecialized generic code pays per call).
#     Benchmarks/shapes.sh [SHAPE ...]
# SHAPES_BIN=PATH runs a Shapes binary built elsewhere (another commit's library) instead.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${SHAPES_BIN:-}" ]; then swift build -c release --product Shapes > /dev/null; fi
bin=${SHAPES_BIN:-.build/release/Shapes}
shapes=("$@")
if [ ${#shapes[@]} -eq 0 ]; then mapfile -t shapes < <("$bin" --list); fi
echo "| shape | operation | instructions per op | runtime look-ups |"
echo "|---|---|---:|---:|"
for shape in "${shapes[@]}"; do
    for op in encode decode; do
        for k in 1 4; do
            SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="/tmp/shapes.$k.out" \
                "$bin" "$shape" v3 "$op" "$k" > /dev/null 2>&1
        done
        python3 - "$shape" "$op" <<'PY'
import re, subprocess, sys
def load(path):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", path],
                         capture_output=True, text=True).stdout
    costs = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)", line)
        if m and "=>" not in line:
            costs[m.group(2)] = costs.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return costs
one, four = load("/tmp/shapes.1.out"), load("/tmp/shapes.4.out")
per_op = {k: (four.get(k, 0) - one.get(k, 0)) / 3 for k in set(one) | set(four)}
lookups = re.compile(r"getGenericMetadata|MetadataCache|getCache|conformsTo|ConformanceState|dynamicCast|"
                     r"swift_getWitnessTable|instantiateGeneric|LockingConcurrentMap|ConcurrentReadableHashMap|"
                     r"awaitSatisfying")
total = per_op.get("PROGRAM TOTALS", 0)
spent = sum(v for k, v in per_op.items() if lookups.search(k))
print(f"| {sys.argv[1]} | {sys.argv[2]} | {total:,.0f} | {spent / max(total, 1) * 100:.1f}% |")
PY
    done
done

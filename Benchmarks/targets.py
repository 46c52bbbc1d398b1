#!/usr/bin/env python3
"""The performance targets of Docs/Performance.md, over several runs of `Bench`.

One run's ratios move by 10% and more on this kind of machine (a shared virtual machine: the
floor's own P1 time has measured 333 to 619 ns from run to run), so a target is judged on the
median of several runs, each run a separate process, and the spread is shown next to it.

    Benchmarks/targets.py [--runs N] [--bench PATH] [--keep DIR] [FILTER]
    Benchmarks/targets.py --from RUN.md [RUN.md ...]

Each run is `Bench [FILTER]`; its Markdown table (stdout) is read back. `--keep DIR` saves
each run's output; `--from` reads saved outputs instead of running. Prints a Markdown table:
per target, the ratio of each run, their median, and whether the median meets the target.
Ratios are of median times within one run (TreeCodable ÷ floor, v2 ÷ v3, transcode ÷ (v2
decode + v3 encode)), so a slow moment of the machine moves both sides of a ratio.
"""

import os
import statistics
import subprocess
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}

# payload, operation, limit of TreeCodable v3 ÷ floor (the table).
FLOOR_TARGETS = [
    ("P2-records-1000", "encode", 1.3),
    ("P2-records-1000", "decode", 1.5),
    ("P1-message-intkeys", "encode", 2.0),
    ("P1-message-intkeys", "decode", 2.0),
    ("P1-message-stringkeys", "encode", 2.5),
    ("P1-message-stringkeys", "decode", 2.5),
    ("P4-strings-10k", "encode", 1.5),
    ("P4-strings-10k", "decode", 2.0),
    ("P4-dictionary-1000", "encode", 2.0),
    ("P4-dictionary-1000", "decode", 2.5),
    ("P5-depth-50", "encode", 2.0),
    ("P5-depth-50", "decode", 2.0),
    ("P5-depth-10000", "encode", 2.0),
    ("P5-depth-10000", "decode", 2.0),
]
V2_LIMIT = 1.10
TRANSCODE_LIMIT = 1.0


def parse(text):
    """{(payload, operation, coder): seconds per op} from one run's Markdown table."""
    times = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 6 or not cells[1].startswith("P"):
            continue
        parts = cells[4].split()
        if len(parts) != 2 or parts[1] not in UNITS:
            continue
        try:
            value = float(parts[0].replace(",", ""))
        except ValueError:
            continue
        times[(cells[1], cells[2], cells[3])] = value * UNITS[parts[1]]
    return times


def ratios(times):
    """{(target name, limit): ratio} for one run; targets whose rows are missing are left out."""
    out = {}

    def t(payload, operation, coder):
        return times.get((payload, operation, coder))

    for payload, operation, limit in FLOOR_TARGETS:
        ours, floor = t(payload, operation, "TreeCodable v3"), t(payload, operation, "floor")
        if ours and floor:
            out[(f"{payload} {operation} ÷ floor", f"≤ {limit}")] = ours / floor
    for payload in sorted({key[0] for key in times}):
        for operation in ("encode", "decode"):
            v2, v3 = t(payload, operation, "TreeCodable v2"), t(payload, operation, "TreeCodable v3")
            if v2 and v3:
                out[(f"{payload} {operation} v2 ÷ v3", f"≤ {V2_LIMIT}")] = v2 / v3
        transcode = t(payload, "transcode", "BinaryTranscoder v2→v3")
        v2_decode, v3_encode = t(payload, "decode", "TreeCodable v2"), t(payload, "encode", "TreeCodable v3")
        if transcode and v2_decode and v3_encode:
            out[(f"{payload} transcode ÷ (v2 decode + v3 encode)", f"≤ {TRANSCODE_LIMIT}")] = transcode / (
                v2_decode + v3_encode
            )
    return out


def main(argv):
    runs, bench, keep, sources, filters = 5, "Benchmarks/.build/release/Bench", None, [], []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--runs":
            runs = int(args.pop(0))
        elif arg == "--bench":
            bench = args.pop(0)
        elif arg == "--keep":
            keep = args.pop(0)
        elif arg == "--from":
            sources, args = args, []
        else:
            filters.append(arg)
    texts = []
    if sources:
        for path in sources:
            with open(path, encoding="utf-8") as f:
                texts.append(f.read())
    else:
        if keep:
            os.makedirs(keep, exist_ok=True)
        for i in range(runs):
            print(f"run {i + 1} of {runs}", file=sys.stderr)
            result = subprocess.run([bench, *filters], capture_output=True, text=True, check=True)
            texts.append(result.stdout)
            if keep:
                with open(os.path.join(keep, f"run{i + 1}.md"), "w", encoding="utf-8") as f:
                    f.write(result.stdout)
    per_run = [ratios(parse(text)) for text in texts]
    names = [key for key in per_run[0] if all(key in r for r in per_run)]
    print(f"| target | limit | median of {len(per_run)} runs | each run | met |")
    print("|---|---|---:|---|---|")
    for name, limit in names:
        values = [r[(name, limit)] for r in per_run]
        median = statistics.median(values)
        met = "yes" if median <= float(limit.split()[1]) else "**no**"
        each = ", ".join(f"{v:.2f}" for v in values)
        print(f"| {name} | {limit} | {median:.2f} | {each} | {met} |")


if __name__ == "__main__":
    main(sys.argv[1:])

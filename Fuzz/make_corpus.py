#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus: the conformance vectors, each prefixed with the selector byte
that makes FuzzDecode decode it as the matching type (see Sources/FuzzDecode/Cases.swift).

Selector byte: bit 0 = format (0 v3, 1 v2); bit 1 = v3: decode from a Data slice, v2: nil index
sets; bits 2...7 = the case index. Usage: python3 make_corpus.py [--plans] [OUTPUT_DIR] (default:
corpus/).

With --plans (for FUZZ_MODE=stream/file, whose inputs have two plan bytes after the selector),
each seed gets each of PLANS after its selector byte. run.sh turns those into streams of two
framed elements with FUZZ_MODE=seeds (the framing needs the library's BinaryStreamEncoder).
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "BinarySerializationTests", "Fixtures")

# Case indices of Cases.swift `fuzzCases` (append-only there, so these stay valid).
CASES = {
    "SMessage": 0, "Optionals": 1, "IntKeyed": 2, "Message": 3, "[String:Int]": 4, "[Int:String]": 5,
    "[Int?]": 6, "[[Int]]": 7, "[[String]]": 8, "Assoc": 9, "AssocIntKeys": 10, "Expr": 11, "Tree": 12,
    "Foundation": 13, "Date": 14, "UUID": 15, "Set<String>": 16, "SIMD2<Float>": 17, "SIMD4<Int32>": 18,
    "Nested": 19, "AllPrimitives": 20, "Wrapped": 21, "UnkeyedMix": 22, "ManualNested": 23, "Derived": 24,
    "[Bool:Int]": 25, "Int??": 26, "[Int??]": 27, "[String?]": 28, "[SMessage]": 29, "[SMessage?]": 30,
    "String": 31, "Int": 32, "[Int]": 33, "[String]": 34, "Data": 35, "[UInt8]": 36, "[Double]": 37,
    "[Bool]": 38, "Plain": 39, "IntRaw": 40, "[IntRaw]": 41, "SingleWrapped": 42,
    "[FixedSizeEncoded<Int32>]": 43, "[String:[Int]]": 44, "[Int:SMessage]": 45, "WithCollections": 46,
    "Nest": 47, "UnkeyedInts": 48, "Double": 49, "UInt64": 50, "Int32": 51, "Int?": 52, "SMessage?": 53,
    "[Int]?": 54, "[Date]": 55, "[Assoc]": 56, "Set<Int>": 57, "[Int64]": 58, "[UInt32]": 59,
    "[Float]": 60, "[Int16]": 61, "Bool": 62, "[Data]": 63,
}

# Vector name (exact, or the part before the first '.') -> case name, where they differ.
ALIASES = {
    "SMessage.defaults": "SMessage", "Message.seed": "Message", "Message.nilOwner": "Message",
    "Optionals.allNil": "Optionals", "Optionals.allSet": "Optionals",
    "v3.UnkeyedMix.seed": "UnkeyedMix", "v3.Wrapped": "Wrapped",
    "v3.[FixedSizeEncoded<Int32>]": "[FixedSizeEncoded<Int32>]", "v2.[FixedSize<Int32>]": "[FixedSizeEncoded<Int32>]",
    "String?.abc": None, "String?.nil": None,
    "[String:String].empty": "[String:Int]", "[String:Int].numericKeys": "[String:Int]",
}


def base_name(name):
    """"[Int].1000" -> "[Int]", "[Int]?.some" -> "[Int]?", "Int.-1" -> "Int", "Set<Int>.5" -> "Set<Int>"."""
    if name.startswith("["):
        depth = 0
        for i, c in enumerate(name):
            depth += {"[": 1, "]": -1}.get(c, 0)
            if depth == 0:
                end = i + 1
                while end < len(name) and name[end] == "?":
                    end += 1
                return name[:end]
    return name.split(".")[0]


def case_for(name):
    if name in ALIASES:
        return ALIASES[name]
    if name in CASES:
        return name
    base = base_name(name)
    return base if base in CASES else None


# Plan bytes (little-endian UInt16, see StreamPlan in Sources/FuzzDecode/Modes.swift): byte-wise
# chunks; chunks <= 4 twice over; chunks <= 32 eight times over (file: 24); chunks <= 512 with a
# small element-size limit and skipsTruncatedLastElement.
PLANS = [0x0000, 0x0205, 0x040E, 0x0733]


def main():
    args = sys.argv[1:]
    plans = "--plans" in args
    args = [a for a in args if a != "--plans"]
    out = args[0] if args else os.path.join(HERE, "corpus")
    os.makedirs(out, exist_ok=True)
    written, skipped = 0, []
    for fmt, bit in (("v3", 0), ("v2", 1)):
        with open(os.path.join(FIXTURES, f"{fmt}.jsonl")) as f:
            vectors = [json.loads(line) for line in f if line.strip()]
        for v in vectors:
            case = case_for(v["name"])
            if case is None:
                skipped.append(f"{fmt}:{v['name']}")
                continue
            body = bytes.fromhex(v["hex"])
            selectors = [CASES[case] << 2 | bit]
            if fmt == "v3":
                selectors.append(CASES[case] << 2 | 2)  # the same bytes decoded from a Data slice
            if plans:
                selectors = [CASES[case] << 2 | bit | (2 if fmt == "v2" else 0)]  # v2: also nil index sets
                selectors = sorted({CASES[case] << 2 | bit} | set(selectors))
            for sel in selectors:
                for plan in (PLANS if plans else [None]):
                    head = bytes([sel]) + (b"" if plan is None else plan.to_bytes(2, "little"))
                    data = head + body
                    digest = hashlib.sha1(data).hexdigest()[:12]
                    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in v["name"])
                    with open(os.path.join(out, f"{fmt}-{safe}-{head.hex()}-{digest}"), "wb") as g:
                        g.write(data)
                    written += 1
    print(f"wrote {written} seeds to {out}; {len(skipped)} vectors have no fuzz case: {' '.join(skipped)}")


if __name__ == "__main__":
    main()

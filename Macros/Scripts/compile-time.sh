#!/usr/bin/env bash
# Compile time of a module of 100 structs with and without @TreeCodable: swiftc -c on one file,
# debug (-Onone) and release (-O), with the macro plugin this package built.
# Run from Macros/ after `swift build`: Scripts/compile-time.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
build=.build/debug
runs=${1:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import random, sys
r = random.Random(1)
types = ["Int", "String", "Double", "Bool", "Int32", "UInt64", "[Int]", "[String]", "String?", "Int?"]
shapes = []
for n in range(100):
    fields = [r.choice(types) for _ in range(r.randint(3, 10))]
    nested = r.randrange(n) if n > 0 and r.random() < 0.4 else None
    shapes.append((fields, nested))
for name, attribute in (("with", "@TreeCodable\n"), ("without", "")):
    out = ["import TreeCodableMacros", ""]
    for n, (fields, nested) in enumerate(shapes):
        out.append(f"{attribute}struct T{n}: Codable, Equatable {{")
        out += [f"    var f{m}: {t}" for m, t in enumerate(fields)]
        if nested is not None:
            out.append(f"    var nested: T{nested}")
        out.append("}")
    open(f"{sys.argv[1]}/{name}.swift", "w").write("\n".join(out) + "\n")
PY
for optimization in -Onone -O; do
    for file in without with; do
        for _ in $(seq "$runs"); do
            /usr/bin/time -f "$file $optimization %U s user %e s wall" swiftc -c "$optimization" -parse-as-library \
                -module-name CompileTime -I "$build/Modules" \
                -load-plugin-executable "$build/TreeCodableMacrosPlugin-tool#TreeCodableMacrosPlugin" \
                "$dir/$file.swift" -o "$dir/$file.o"
        done
    done
done

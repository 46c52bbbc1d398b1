// Shapes: common Codable shapes outside the payloads (enums with associated values,
// optionals, dictionaries of structs, sets, nested arrays, raw-value enums, generic types),
// encoded or decoded K times in a loop, for instruction counts under callgrind
// (Benchmarks/shapes.sh runs K = 1 and K = 4 and prints the difference per operation).
//
//     Shapes SHAPE v3|v2 encode|decode K
import BinarySerialization
import Foundation

enum Shape: Codable, Equatable { case circle(radius: Double), rect(w: Int, h: Int), label(String), empty }
struct Point: Codable, Equatable { var x: Int; var y: Int }
struct Optionals: Codable, Equatable {
    var a: String?
    var b: Int?
    var c: Double?
    var d: [Int]?
    var e: Point?
    var f: Bool?
}
enum Color: String, Codable { case red, green, blue }
struct Wrapper<T: Codable & Equatable>: Codable, Equatable { var value: T; var list: [T] }

/// One shape's value, bound to its type: encodes it, or decodes its bytes, `k` times.
struct Runner {
    let run: (BinaryFormat, Bool, Int) throws -> Void

    init<T: Codable>(_ value: T) {
        run = { format, decode, k in
            let data = try BinaryEncoder(format: format).encode(value)
            for _ in 0..<k {
                if decode {
                    _ = try BinaryDecoder(format: format).decode(T.self, from: data)
                } else {
                    _ = try BinaryEncoder(format: format).encode(value)
                }
            }
        }
    }
}

let n = 1_000
let shapes: [String: Runner] = [
    "enums": Runner((0..<n).map { [Shape.circle(radius: Double($0)), .rect(w: $0, h: -$0), .label("l\($0)"), .empty][$0 % 4] }),
    "optionals": Runner(
        (0..<n).map { i in
            Optionals(
                a: i % 2 == 0 ? "s\(i)" : nil, b: i % 3 == 0 ? nil : i, c: 1.5, d: i % 5 == 0 ? nil : [i],
                e: i % 2 == 0 ? Point(x: i, y: i) : nil, f: true)
        }),
    "dictionary-of-structs": Runner(Dictionary(uniqueKeysWithValues: (0..<n).map { ("key\($0)", Point(x: $0, y: 1)) })),
    "dictionary-of-arrays": Runner(Dictionary(uniqueKeysWithValues: (0..<n).map { ("key\($0)", [$0, 1, 2]) })),
    "int-keyed-dictionary": Runner(Dictionary(uniqueKeysWithValues: (0..<n).map { ($0, "v\($0)") })),
    "set-of-strings": Runner(Set((0..<n).map { "s\($0)" })),
    "nested-arrays": Runner((0..<n).map { [$0, $0 + 1, $0 + 2] }),
    "optional-ints": Runner((0..<n).map { $0 % 3 == 0 ? nil : $0 } as [Int?]),
    "raw-value-enums": Runner((0..<n).map { [Color.red, .green, .blue][$0 % 3] }),
    "generic-structs": Runner((0..<n).map { Wrapper(value: $0, list: [$0]) }),
]

let args = CommandLine.arguments
if args.count == 2, args[1] == "--list" {
    for name in shapes.keys.sorted() { print(name) }
    exit(0)
}
guard args.count == 5, let runner = shapes[args[1]], ["v3", "v2"].contains(args[2]),
    ["encode", "decode"].contains(args[3]), let k = Int(args[4])
else {
    FileHandle.standardError.write(Data("usage: Shapes SHAPE v3|v2 encode|decode K  (or --list)\n".utf8))
    exit(2)
}
do {
    try runner.run(args[2] == "v2" ? .v2 : .v3, args[3] == "decode", k)
} catch {
    FileHandle.standardError.write(Data("\(args[1]): \(error)\n".utf8))
    exit(1)
}

// A writer that the record-file tests start as a child process and kill with SIGKILL.
//
//     FileAppendChild <file> <v3|v2> <writer> <seed> <count> <large>
//
// Appends `count` records (forever when `count` is 0) to `file`, each with one `write`, and after
// each `write` returns prints the record's index on its own line, unbuffered: a printed index is
// an acknowledged record. With `large` 1, one record in sixteen is large, so that a kill can land
// inside a write.
import BinarySerialization
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One appended record; the tests decode the same fields.
struct Record: Codable, Equatable {
    var writer: Int
    var index: Int
    var payload: [UInt8]
}

/// A small deterministic generator (SplitMix64), so that a seed gives the same records.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Writes the whole line to standard output with `write`, so nothing waits in a buffer.
func acknowledge(_ index: Int) {
    let line = Array("\(index)\n".utf8)
    var done = 0
    while done < line.count {
        let written = line[done...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if written <= 0 { exit(3) }
        done += written
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let writer = Int(arguments[3]), let seed = UInt64(arguments[4]),
    let count = Int(arguments[5])
else {
    FileHandle.standardError.write(Data("usage: FileAppendChild <file> <v3|v2> <writer> <seed> <count> <large>\n".utf8))
    exit(2)
}
let format: BinaryFormat = arguments[2] == "v2" ? .v2 : .v3
let withLarge = arguments[6] == "1"
var random = SplitMix64(state: seed)
do {
    let encoder = try BinaryFileEncoder<Record>(
        fileAt: URL(fileURLWithPath: arguments[1]), encoder: BinaryEncoder(format: format))
    var index = 0
    while count == 0 || index < count {
        // One record in sixteen is 16 to 192 KiB (if asked for), the others up to 200 bytes.
        let large = random.next() % 16 == 0 && withLarge
        let size = Int(large ? 16_384 + random.next() % 180_224 : random.next() % 200)
        let fill = UInt8(truncatingIfNeeded: index)
        try encoder.write(Record(writer: writer, index: index, payload: [UInt8](repeating: fill, count: size)))
        acknowledge(index)
        index += 1
    }
    try encoder.close()
} catch {
    FileHandle.standardError.write(Data("FileAppendChild: \(error)\n".utf8))
    exit(1)
}

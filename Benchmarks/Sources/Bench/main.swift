// Bench: TreeCodable against the Codable floor (Floor.swift), Foundation's JSON coder and
// hand-written code, all timed interleaved in the same run.
//
//   swift run -c release --package-path Benchmarks Bench [--quick] [--no-v2] [--plist]
//                                                         [--alloc-table FILE] [FILTER]
//   Bench --smoke                      P2 only; exits 1 if v3 encode or decode takes > 3× the floor
//   Bench --list                       payload, case and valgrind iteration counts (for allocs.sh)
//   Bench --allocs PAYLOAD CASE K      run exactly K iterations of one case (under valgrind)
//
// Prints a Markdown table on stdout; progress goes to stderr.
import BenchSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: Bench [--quick] [--no-v2] [--plist] [--alloc-table FILE] [FILTER]
           Bench --smoke [--max-ratio R] [--max-decode-ratio D]
           Bench --list
           Bench --allocs PAYLOAD CASE ITERATIONS

      --quick              few, short samples: a smoke run (about 10 s)
      --no-v2              leave out the v2 rows
      --plist              add Foundation's binary property-list coder
      --smoke              CI guard: time P2 v3 encode/decode and the floor coder together;
                           exit 1 if TreeCodable takes more than R (default 3) times the floor
                           (decoding: D times, default R)
      --alloc-table FILE   fill the allocations column from FILE (written by allocs.sh)
      FILTER               run only payloads whose name contains FILTER (case-insensitive)
      --list               print "payload<TAB>case<TAB>k1<TAB>k2" for every case
      --allocs P C K       build payload P, then run case C exactly K times (for valgrind)
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Bench: \(message)\n".utf8))
    exit(1)
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - Arguments

var quick = false
var skipV2 = false
var plist = false
var smoke = false
var smokeMaxRatio = 3.0
var smokeMaxDecodeRatio: Double?
var allocTablePath: String?
var filter: String?
var listMode = false
var allocsRequest: (payload: String, caseID: String, iterations: Int)?

do {
    var args = Array(CommandLine.arguments.dropFirst())
    while !args.isEmpty {
        let arg = args.removeFirst()
        switch arg {
        case "--quick": quick = true
        case "--no-v2": skipV2 = true
        case "--plist": plist = true
        case "--smoke": smoke = true
        case "--max-ratio":
            guard let r = args.first.flatMap(Double.init), r > 0 else { fail("--max-ratio needs a positive number") }
            smokeMaxRatio = r
            args.removeFirst()
        case "--max-decode-ratio":
            guard let r = args.first.flatMap(Double.init), r > 0 else {
                fail("--max-decode-ratio needs a positive number")
            }
            smokeMaxDecodeRatio = r
            args.removeFirst()
        case "--list": listMode = true
        case "--alloc-table":
            guard !args.isEmpty else { fail("--alloc-table needs a file") }
            allocTablePath = args.removeFirst()
        case "--allocs":
            guard args.count >= 3, let k = Int(args[2]), k >= 0 else { fail("--allocs needs PAYLOAD CASE ITERATIONS") }
            allocsRequest = (args[0], args[1], k)
            args.removeFirst(3)
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            if arg.hasPrefix("-") || filter != nil { fail("unexpected argument \(arg)\n\(usage)") }
            filter = arg
        }
    }
}

let specs = payloadSpecs()

// MARK: - --list

if listMode {
    for spec in specs {
        for id in allCaseIDs where spec.hasHand || !id.hasPrefix("hand.") {
            print("\(spec.name)\t\(id)\t\(spec.allocIterations.0)\t\(spec.allocIterations.1)")
        }
    }
    exit(0)
}

// MARK: - --allocs

if let request = allocsRequest {
    guard let spec = specs.first(where: { $0.name == request.payload }) else { fail("no payload \(request.payload)") }
    var status: Int32 = 0
    onBigStack {
        do {
            let cases = try spec.build(BuildOptions(only: request.caseID, skipV2: false))
            guard let c = cases.first else { fail("no case \(request.caseID) in \(request.payload)") }
            guard let body = c.body else {
                print("n/a\t\(c.note ?? "")")
                status = 3
                return
            }
            for _ in 0..<request.iterations { try body() }
            print("ran\t\(request.iterations)")
        } catch {
            fail("\(error)")
        }
    }
    exit(status)
}

// MARK: - --smoke

if smoke {
    // A gross-regression guard for CI: the four cases timed interleaved, so a loaded machine
    // slows them alike; the ratio, not the time, is checked.
    guard let spec = specs.first(where: { $0.name == "P2-records-1000" }) else { fail("no P2 payload") }
    var failed = false
    onBigStack {
        do {
            let ids: Set = ["v3.encode", "v3.decode", "floor.encode", "floor.decode"]
            let cases = try spec.build(BuildOptions(skipV2: true, subset: ids))
            let smokeConfig = RunConfig(
                sampleNanoseconds: 5_000_000, samples: 15, budgetNanoseconds: 200_000_000, minimumSamples: 9)
            let timings = try measureTogether(smokeConfig, cases.map { $0.body! })
            var byID: [String: Double] = [:]
            for (c, t) in zip(cases, timings) { byID[c.id] = t.median }
            for direction in ["encode", "decode"] {
                guard let ours = byID["v3.\(direction)"], let floor = byID["floor.\(direction)"] else {
                    fail("smoke: missing \(direction) timings")
                }
                let ratio = ours / floor
                let limit = direction == "decode" ? smokeMaxDecodeRatio ?? smokeMaxRatio : smokeMaxRatio
                let ok = ratio <= limit
                if !ok { failed = true }
                print(String(format: "smoke: P2 v3 %@ %@/op, floor %@/op, ratio %.2f× (limit %.2f×) %@",
                             direction, formatTime(ours), formatTime(floor), ratio, limit, ok ? "ok" : "FAIL"))
            }
        } catch {
            fail("smoke: \(error)")
        }
    }
    exit(failed ? 1 : 0)
}

// MARK: - Allocation table (from allocs.sh)

/// "payload|case" -> allocations per op (text as written by the script).
var allocations: [String: String] = [:]
if let path = allocTablePath {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 3 else { continue }
        allocations["\(fields[0])|\(fields[1])"] = fields[2]
    }
}

// MARK: - Run

struct Row {
    var payload: String
    var family: String
    var c: Case
    var timing: Timing?
}

let config = quick ? RunConfig.quick : RunConfig.full
let selected = specs.filter { spec in
    guard let filter else { return true }
    return spec.name.lowercased().contains(filter.lowercased())
}
if selected.isEmpty { fail("no payload matches \(filter ?? "")") }

var rows: [Row] = []
let started = now()
onBigStack {
    for spec in selected {
        progress("\(spec.name): checking round trips")
        var cases: [Case]
        do {
            cases = try spec.build(BuildOptions(skipV2: skipV2, plist: plist))
        } catch {
            fail("correctness check failed, aborting. \(error)")
        }
        let timed = cases.filter { $0.body != nil }
        progress("\(spec.name): timing \(timed.count) cases together")
        let timings: [Timing]
        do {
            timings = try measureTogether(config, timed.map { $0.body! })
        } catch {
            fail("\(spec.name) threw while timing: \(error)")
        }
        var next = 0
        for c in cases {
            var stored = c
            stored.body = nil
            guard c.body != nil else {
                rows.append(Row(payload: spec.name, family: spec.family, c: stored, timing: nil))
                continue
            }
            let t = timings[next]
            next += 1
            progress("  \(c.id): \(formatTime(t.median))/op (\(t.samples) samples × \(t.iterationsPerSample))")
            rows.append(Row(payload: spec.name, family: spec.family, c: stored, timing: t))
        }
        cases.removeAll()
    }
}
let totalSeconds = Double(now() - started) / 1e9

// MARK: - Table

func row(_ payload: String, _ id: String) -> Row? {
    rows.first { $0.payload == payload && $0.c.id == id }
}

func median(_ payload: String, _ id: String) -> Double? {
    row(payload, id)?.timing?.median
}

/// The baseline time a row is compared with: the same direction, or decode + encode for a transcode.
func baseline(_ payload: String, _ prefix: String, _ direction: Direction) -> Double? {
    switch direction {
    case .encode, .decode:
        return median(payload, "\(prefix).\(direction.rawValue)")
    case .transcode:
        guard let d = median(payload, "\(prefix).decode"), let e = median(payload, "\(prefix).encode") else { return nil }
        return d + e
    }
}

var lines: [String] = []
lines.append("| payload | operation | coder | median time/op | ops/s | MB/s | ÷ floor | vs JSON | size (bytes) | allocs/op | spread |")
lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
var notes: [String] = []
for r in rows {
    let allocs = allocations["\(r.payload)|\(r.c.id)"] ?? "–"
    let size = r.c.size.map(String.init) ?? "–"
    guard let t = r.timing else {
        lines.append("| \(r.payload) | \(r.c.operation) | \(r.c.coder) | n/a | | | | | \(size) | \(allocs) | |")
        if let note = r.c.note, !notes.contains(note) { notes.append(note) }
        continue
    }
    let opsPerSecond = 1e9 / t.median
    // encodeTree and decode(fromTree:) touch no bytes: no MB/s.
    let treeOnly = r.c.id.hasPrefix("tree.")
    let mbps = treeOnly ? "–" : r.c.size.map { formatMBps(Double($0) * opsPerSecond) } ?? "–"
    let floor = r.c.id.hasPrefix("floor.") ? "1.00×" : baseline(r.payload, "floor", r.c.direction).map { formatRatio(t.median / $0) } ?? "–"
    let json = baseline(r.payload, "json", r.c.direction).map { formatRatio($0 / t.median) } ?? "–"
    let spread = String(format: "±%.0f%%", t.spread * 100)
    lines.append(
        "| \(r.payload) | \(r.c.operation) | \(r.c.coder) | \(formatTime(t.median)) | \(formatRate(opsPerSecond)) | \(mbps) | \(floor) | \(json) | \(size) | \(allocs) | \(spread) |")
}

print("## Results (\(quick ? "quick" : "full") mode)\n")
print(lines.joined(separator: "\n"))
print("""

    ÷ floor = this time / the floor coder's time in the same direction (1.00× = the cost of \
    Codable alone; a transcode is compared with floor decode + floor encode). vs JSON = JSON time / \
    this time (> 1: faster than JSON; a transcode against JSON decode + encode). MB/s = the coder's own \
    bytes (the size column; the input for decodeTree and transcode) × ops/s / 10⁶; encodeTree and \
    decode(fromTree:) touch no bytes (size column: the v3 size, for reference). spread = half the \
    interquartile range of the samples, relative to the median.
    """)
if !notes.isEmpty {
    print("\nn/a:")
    for note in notes { print("- \(note)") }
}

// MARK: - Summary: TreeCodable ÷ floor

print("\n## TreeCodable ÷ floor\n")
print("| payload | v3 encode | v3 decode | v2 encode | v2 decode | floor encode | floor decode |")
print("|---|---:|---:|---:|---:|---:|---:|")
for spec in selected {
    let fe = median(spec.name, "floor.encode")
    let fd = median(spec.name, "floor.decode")
    func cell(_ id: String, _ base: Double?) -> String {
        guard let t = median(spec.name, id), let base else { return "–" }
        return formatRatio(t / base)
    }
    print("| \(spec.name) | \(cell("v3.encode", fe)) | \(cell("v3.decode", fd)) | \(cell("v2.encode", fe)) | \(cell("v2.decode", fd)) | \(fe.map(formatTime) ?? "–") | \(fd.map(formatTime) ?? "–") |")
}

// MARK: - P5 per-node cost

let p5 = rows.filter { $0.family == "P5" }
if !p5.isEmpty {
    print("\n## P5 cost per node\n")
    print("| operation | coder | " + selected.filter { $0.family == "P5" }.map { "depth \($0.nodes!)" }.joined(separator: " | ") + " |")
    let depthSpecs = selected.filter { $0.family == "P5" }
    print("|---|---|" + String(repeating: "---:|", count: depthSpecs.count))
    for id in allCaseIDs {
        guard let first = p5.first(where: { $0.c.id == id }) else { continue }
        let cells = depthSpecs.map { spec -> String in
            guard let t = median(spec.name, id) else { return "n/a" }
            return formatTime(t / Double(spec.nodes!))
        }
        print("| \(first.c.operation) | \(first.c.coder) | " + cells.joined(separator: " | ") + " |")
    }
}

print(String(format: "\n(%@ mode; %d payloads, %d rows, %.0f s)", quick ? "quick" : "full", selected.count, rows.count, totalSeconds))

// Bench: TreeCodable against Foundation's JSON and property-list coders and hand-written code.
//
//   swift run -c release --package-path Benchmarks Bench [--quick] [--no-v2]
//                                                         [--alloc-table FILE] [FILTER]
//   Bench --list                       payload, case and valgrind iteration counts (for allocs.sh)
//   Bench --allocs PAYLOAD CASE K      run exactly K iterations of one case (under valgrind)
//
// Prints a Markdown table on stdout; progress goes to stderr.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: Bench [--quick] [--no-v2] [--alloc-table FILE] [FILTER]
           Bench --list
           Bench --allocs PAYLOAD CASE ITERATIONS

      --quick              few, short samples: a smoke run (about 10 s)
      --no-v2              leave out the v2 rows
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
            cases = try spec.build(BuildOptions(skipV2: skipV2))
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

var lines: [String] = []
lines.append("| payload | operation | coder | median time/op | ops/s | MB/s | vs JSON | vs hand-written | size (bytes) | allocs/op | spread |")
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
    // encodeTree and decode(fromTree:) touch no bytes: no MB/s, and no ratio to a whole coder.
    let treeOnly = r.c.id.hasPrefix("tree.")
    let mbps = treeOnly ? "–" : r.c.size.map { formatMBps(Double($0) * opsPerSecond) } ?? "–"
    let json = treeOnly ? "–" : median(r.payload, "json.\(r.c.direction.rawValue)").map { formatRatio($0 / t.median) } ?? "–"
    let hand = treeOnly ? "–" : median(r.payload, "hand.\(r.c.direction.rawValue)").map { formatRatio($0 / t.median) } ?? "–"
    let spread = String(format: "±%.0f%%", t.spread * 100)
    lines.append(
        "| \(r.payload) | \(r.c.operation) | \(r.c.coder) | \(formatTime(t.median)) | \(formatRate(opsPerSecond)) | \(mbps) | \(json) | \(hand) | \(size) | \(allocs) | \(spread) |")
}

print("## Results (\(quick ? "quick" : "full") mode)\n")
print(lines.joined(separator: "\n"))
print("""

    vs JSON = JSON time / this time for the same direction (> 1: faster than JSON); \
    vs hand-written = hand-written time / this time (> 0.5: within 2× of the hand-written limit). \
    MB/s = the coder's own encoded size (the size column) × ops/s / 10⁶; encode(tree:) uses the size \
    of the bytes of its format; encodeTree and decode(fromTree:) touch no bytes (size column: the v3 size, \
    for reference) and get no MB/s or ratios. spread = half the interquartile range \
    of the samples, relative to the median.
    """)
if !notes.isEmpty {
    print("\nn/a:")
    for note in notes { print("- \(note)") }
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

// MARK: - Targets

struct TargetResult {
    var target: String
    var format: String
    var measured: String
    var met: String
}

var targets: [TargetResult] = []

/// A ratio target: `baseline time / our time >= minimum` (or > when `strict`).
func ratioTarget(
    _ label: String, payload: String, format: String, op: String, baseline: String, minimum: Double,
    strict: Bool = false, describe: (Double) -> String
) {
    let ours = median(payload, "\(format).\(op)")
    let base = median(payload, "\(baseline).\(op)")
    let oursRow = row(payload, "\(format).\(op)")
    let baseRow = row(payload, "\(baseline).\(op)")
    if oursRow == nil && baseRow == nil {
        targets.append(TargetResult(target: label, format: format, measured: "not run", met: "–"))
        return
    }
    guard let ours, let base else {
        let missing = ours == nil ? "\(format) \(op) n/a" : "\(baseline) \(op) n/a"
        targets.append(TargetResult(target: label, format: format, measured: missing, met: "n/a"))
        return
    }
    let r = base / ours
    let met = strict ? r > minimum : r >= minimum
    targets.append(TargetResult(target: label, format: format, measured: describe(r), met: met ? "met" : "NOT met"))
}

let formats = skipV2 ? ["v3"] : ["v3", "v2"]
for format in formats {
    for payload in ["P1-message-stringkeys", "P1-message-intkeys"] {
        for op in ["encode", "decode"] {
            ratioTarget("P1 \(payload.dropFirst(11)) \(op) ≥ 5× JSON", payload: payload, format: format, op: op,
                        baseline: "json", minimum: 5) { "\(formatRatio($0)) JSON" }
        }
    }
    ratioTarget("P2 encode ≥ 8× JSONEncoder", payload: "P2-records-1000", format: format, op: "encode",
                baseline: "json", minimum: 8) { "\(formatRatio($0)) JSON" }
    ratioTarget("P2 decode ≥ 6× JSONDecoder", payload: "P2-records-1000", format: format, op: "decode",
                baseline: "json", minimum: 6) { "\(formatRatio($0)) JSON" }
    for payload in ["P3-ints-100k", "P3-doubles-100k", "P3-bools-100k"] {
        for op in ["encode", "decode"] {
            ratioTarget("\(payload) \(op) within 2× of hand-written", payload: payload, format: format, op: op,
                        baseline: "hand", minimum: 0.5) { "time = \(formatRatio(1 / $0)) hand-written" }
        }
    }
    for payload in ["P4-dictionary-1000", "P4-strings-10k", "P5-depth-50", "P5-depth-1000", "P5-depth-10000"] {
        for op in ["encode", "decode"] {
            ratioTarget("\(payload) \(op) faster than JSON", payload: payload, format: format, op: op,
                        baseline: "json", minimum: 1, strict: true) { "\(formatRatio($0)) JSON" }
        }
    }
    for op in ["encode", "decode"] {
        let label = "P5 \(op) per-node cost, depth 10,000 ≤ 1.5× depth 50"
        if let deep = median("P5-depth-10000", "\(format).\(op)"), let shallow = median("P5-depth-50", "\(format).\(op)") {
            let r = (deep / 10_000) / (shallow / 50)
            targets.append(TargetResult(
                target: label, format: format,
                measured: "\(formatTime(deep / 10_000)) vs \(formatTime(shallow / 50)) per node (\(formatRatio(r)))",
                met: r <= 1.5 ? "met" : "NOT met"))
        } else if row("P5-depth-10000", "\(format).\(op)") == nil || row("P5-depth-50", "\(format).\(op)") == nil {
            targets.append(TargetResult(target: label, format: format, measured: "not run", met: "–"))
        } else {
            targets.append(TargetResult(target: label, format: format, measured: "\(format) \(op) n/a", met: "n/a"))
        }
    }
}

print("\n## Targets\n")
print("| target | format | measured | result |")
print("|---|---|---|---|")
for t in targets {
    print("| \(t.target) | \(t.format) | \(t.measured) | \(t.met) |")
}
print(String(format: "\n(%@ mode; %d payloads, %d rows, %.0f s)", quick ? "quick" : "full", selected.count, rows.count, totalSeconds))

import BinarySerialization
import Foundation

/// What the stack must hold, in a release build (what users run: a debug build's frames are
/// several times larger). Each level of a value is a call into `init(from:)` or `encode(to:)`
/// whose frames stay on the stack while the values inside it are coded, so the stack a value
/// needs is its depth times the frames of one level: the engine's, the standard library's
/// container box and the type's own.
///
/// - `--stack-check` (CI): a hand-built tree at the default node limit (4 × `maximumDepth`
///   nested nodes) is written on a 512 KiB stack, the size of a secondary thread on Apple systems;
///   values at the default depth (512 levels) are decoded and encoded on ``valueStackBytes``;
///   protobuf values at its default depth (101 messages: the top level's and 100 nested in it) on
///   512 KiB; on 512 KiB, every value at the default depth is encoded (sorted keys and the tree
///   paths too), and decoded or refused for the stack (`decodeTree`, `decode(fromTree:)` too), and
///   100,000 levels (the depth limit raised) are refused for the stack. A stack overflow ends the
///   process: the check's failure.
/// - `--stack-depth`: the most levels each shape decodes and encodes on a 512 KiB and a 2 MiB
///   thread, found by running each attempt in a child process (`--stack-run`), and the bytes
///   of stack per level they give.
enum StackCheck {
    static let stackBytes = 512 << 10
    /// The stack that values at the default depth are checked on: 1 MiB. 512 KiB is not enough
    /// (`--stack-depth`: 376 levels of ``Chain`` decode on it).
    static let valueStackBytes = 1 << 20

    // MARK: Trees

    /// The tree: a keyed container, an unkeyed one, a single-value and an optional wrapper, in
    /// turn, `nodes` deep.
    static func tree(nodes: Int) -> BinaryValue {
        var tree: BinaryValue = .int(1)
        for i in 0..<nodes {
            switch i % 4 {
            case 0: tree = .keyed(KeyedFields([(BinaryKey(stringValue: "n"), tree)]))
            case 1: tree = .unkeyed([.int(2), tree])
            case 2: tree = .single(tree)
            default: tree = .optional(tree)
            }
        }
        return tree
    }

    /// Writes the tree on a thread with a 512 KiB stack in both formats; a stack overflow ends the
    /// process (the check's failure). Returns the byte counts.
    static func run() -> [(BinaryFormat, Int)] {
        var results: [(BinaryFormat, Int)] = []
        for format in [BinaryFormat.v3, .v2] {
            var encoder = BinaryEncoder()
            encoder.format = format
            let tree = tree(nodes: 4 * encoder.maximumDepth)
            let count = LockedCount()
            onThread(stackBytes: stackBytes) { [encoder] in
                count.set((try? encoder.encode(tree: tree).count) ?? -1)
            }
            results.append((format, count.value))
        }
        return results
    }

    // MARK: Values

    /// One level per case: `.node`'s payload container is not a level (the depth rule).
    indirect enum Deep: Codable {
        case leaf
        case node(Deep)
    }

    /// One level, and for protobuf one message, per object: the optional is not a level.
    final class Chain: Codable {
        var next: Chain?
        init(next: Chain?) { self.next = next }
        enum CodingKeys: Int, CodingKey { case next = 1 }
    }

    /// Two levels per node: the struct and its array.
    struct Tree: Codable {
        var children: [Tree]
    }

    enum Shape: String, CaseIterable {
        case indirectEnum = "indirect-enum"
        case classChain = "class-chain"
        case structArray = "struct-array"
    }

    enum Format: String, CaseIterable {
        case v3, v2, protobuf
        /// The shapes the format stores (protobuf: messages with integer keys).
        var shapes: [Shape] { self == .protobuf ? [.classChain] : Shape.allCases }
        /// The format's default `maximumDepth`, the same for its encoder and decoder.
        var defaultDepth: Int { self == .protobuf ? ProtobufDecoder().limits.maximumDepth : 512 }
        /// The most levels the default accepts: protobuf counts the messages nested in the top
        /// level's.
        var defaultLevels: Int { self == .protobuf ? defaultDepth + 1 : defaultDepth }
    }

    /// Encodes or decodes a value of `shape`, `levels` levels deep.
    struct Attempt: Sendable {
        var decoding: Bool
        var format: Format
        var shape: Shape
        var levels: Int
        /// The coders' `maximumDepth`: `levels` for the check, more for measuring the stack alone.
        var maximumDepth: Int

        func encode() throws -> Data {
            switch shape {
            case .indirectEnum:
                var value = Deep.leaf
                for _ in 1..<levels { value = .node(value) }
                return try encode(value)
            case .classChain:
                var value = Chain(next: nil)
                for _ in 1..<levels { value = Chain(next: value) }
                return try encode(value)
            case .structArray:
                var value = Tree(children: [])
                for _ in 1..<levels / 2 { value = Tree(children: [value]) }
                return try encode(value)
            }
        }

        private func encode<T: Encodable>(_ value: T) throws -> Data {
            switch format {
            case .protobuf:
                var encoder = ProtobufEncoder()
                encoder.maximumDepth = maximumDepth
                return try encoder.encode(value)
            case .v3, .v2:
                var encoder = BinaryEncoder(format: format == .v3 ? .v3 : .v2)
                encoder.maximumDepth = maximumDepth
                return try encoder.encode(value)
            }
        }

        func decode(_ data: Data) throws {
            switch shape {
            case .indirectEnum: try decode(Deep.self, data)
            case .classChain: try decode(Chain.self, data)
            case .structArray: try decode(Tree.self, data)
            }
        }

        private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws {
            switch format {
            case .protobuf:
                var decoder = ProtobufDecoder()
                decoder.limits.maximumDepth = maximumDepth
                _ = try decoder.decode(T.self, from: data)
            case .v3, .v2:
                var decoder = BinaryDecoder(format: format == .v3 ? .v3 : .v2)
                decoder.limits.maximumDepth = maximumDepth
                _ = try decoder.decode(T.self, from: data)
            }
        }

        /// Runs the attempt on a thread of `stackBytes` (the bytes to decode made first, on a
        /// large stack); `nil` when it ran, else the error it threw. A stack overflow ends the
        /// process.
        func run(stackBytes: Int) -> String? {
            let outcome = LockedText()
            let input = LockedData()
            if decoding {
                onThread(stackBytes: 256 << 20) {
                    do { input.set(try encode()) } catch { outcome.set("making the input: \(error)") }
                }
                if let failure = outcome.value { return failure }
            }
            onThread(stackBytes: stackBytes) {
                do {
                    if decoding { try decode(input.value) } else { _ = try encode() }
                } catch {
                    outcome.set("\(error)")
                }
            }
            return outcome.value
        }
    }

    /// The check: every shape at its format's default depth, decoded and encoded on
    /// ``valueStackBytes`` (protobuf on ``stackBytes``), and refused one level deeper by a coder
    /// whose limit is one less (so the values are as deep as said). Returns failures.
    static func runValues() -> [String] {
        var failures: [String] = []
        for format in Format.allCases {
            let stack = format == .protobuf ? stackBytes : valueStackBytes
            for shape in format.shapes {
                let (depth, levels) = (format.defaultDepth, format.defaultLevels)
                for decoding in [true, false] {
                    let attempt = Attempt(
                        decoding: decoding, format: format, shape: shape, levels: levels, maximumDepth: depth)
                    let what = "\(format) \(decoding ? "decode" : "encode") \(shape.rawValue), \(levels) levels"
                    if let error = attempt.run(stackBytes: stack) { failures.append("\(what): \(error)") }
                    var shallower = attempt
                    shallower.maximumDepth = depth - 1
                    if shallower.run(stackBytes: valueStackBytes) == nil {
                        failures.append("\(what): accepted with a maximum depth of \(depth - 1)")
                    }
                }
                print("\(format) \(shape.rawValue): \(levels) levels decoded and encoded on a \(stack >> 10) KiB stack")
                failures += smallStackFailures(format, shape)
            }
        }
        return failures
    }

    /// What the decoder says when the thread's stack has no room for another level.
    static let stackRefusal = "nested deeper than this thread's stack holds"

    /// On ``stackBytes``: the default depth is encoded, and decoded or refused for the stack (never
    /// a crash); 100,000 levels with the depth limit out of the way are refused for the stack.
    static func smallStackFailures(_ format: Format, _ shape: Shape) -> [String] {
        var failures: [String] = []
        let what = "\(format) \(shape.rawValue) on \(stackBytes >> 10) KiB"
        var attempt = Attempt(
            decoding: false, format: format, shape: shape, levels: format.defaultLevels,
            maximumDepth: format.defaultDepth)
        if let error = attempt.run(stackBytes: stackBytes) { failures.append("\(what): encode: \(error)") }
        attempt.decoding = true
        let outcome = attempt.run(stackBytes: stackBytes)
        if let error = outcome, !error.contains(stackRefusal) { failures.append("\(what): decode: \(error)") }
        attempt.levels = 100_000
        attempt.maximumDepth = 1 << 20
        let hostile = attempt.run(stackBytes: stackBytes)
        if !(hostile?.contains(stackRefusal) ?? false) {
            failures.append("\(what): 100,000 levels: \(hostile ?? "decoded")")
        }
        let atTheDefault = outcome == nil ? "decoded" : "refused for the stack"
        print("\(what): \(attempt.levels) levels refused for the stack; the default depth \(atTheDefault)")
        if format != .protobuf { failures += treePathFailures(format == .v3 ? .v3 : .v2, shape) }
        return failures
    }

    /// The other paths at the default depth on ``stackBytes``: sorted keys, `encodeTree` and
    /// `encode(tree:)` run; `decodeTree` and `decode(fromTree:)` run or give the stack's error.
    static func treePathFailures(_ format: BinaryFormat, _ shape: Shape) -> [String] {
        switch shape {
        case .indirectEnum:
            return treePathFailures(format, shape) {
                var value = Deep.leaf
                for _ in 1..<512 { value = .node(value) }
                return value
            }
        case .classChain:
            return treePathFailures(format, shape) {
                var value = Chain(next: nil)
                for _ in 1..<512 { value = Chain(next: value) }
                return value
            }
        case .structArray:
            return treePathFailures(format, shape) {
                var value = Tree(children: [])
                for _ in 1..<256 { value = Tree(children: [value]) }
                return value
            }
        }
    }

    private static func treePathFailures<T: Codable>(
        _ format: BinaryFormat, _ shape: Shape, _ make: @escaping @Sendable () -> T
    ) -> [String] {
        let found = LockedText()
        onThread(stackBytes: stackBytes) {
            var problems: [String] = []
            func path(_ name: String, refusable: Bool = false, _ body: () throws -> Void) {
                do { try body() } catch {
                    if !(refusable && "\(error)".contains(stackRefusal)) { problems.append("\(name): \(error)") }
                }
            }
            let value = make()
            let encoder = BinaryEncoder(format: format)
            var sorted = encoder
            sorted.sortKeysDuringEncoding = true
            let decoder = BinaryDecoder(format: format)
            path("sorted encode") { _ = try sorted.encode(value) }
            path("encodeTree, encode(tree:)") { _ = try encoder.encode(tree: encoder.encodeTree(value)) }
            path("decode(fromTree:)", refusable: true) {
                _ = try decoder.decode(T.self, fromTree: encoder.encodeTree(value))
            }
            path("decodeTree", refusable: true) { _ = try decoder.decodeTree(T.self, from: encoder.encode(value)) }
            if !problems.isEmpty { found.set(problems.joined(separator: "; ")) }
        }
        guard let problems = found.value else {
            print("\(format) \(shape.rawValue) on \(stackBytes >> 10) KiB: tree paths and sorted keys at 512 levels")
            return []
        }
        return ["\(format) \(shape.rawValue) on \(stackBytes >> 10) KiB: \(problems)"]
    }

    // MARK: Measuring

    /// `--stack-run decode|encode FORMAT SHAPE LEVELS KIB`, in a child process: exit 0 when it ran,
    /// 1 when it threw; a stack overflow kills the process.
    static func runChild(_ arguments: [String]) -> Never {
        guard arguments.count == 5, let format = Format(rawValue: arguments[1]),
            let shape = Shape(rawValue: arguments[2]), let levels = Int(arguments[3]), levels > 1,
            let kib = Int(arguments[4]), kib > 0
        else { fail("--stack-run decode|encode FORMAT SHAPE LEVELS KIB") }
        let attempt = Attempt(
            decoding: arguments[0] == "decode", format: format, shape: shape, levels: levels, maximumDepth: 1 << 20)
        exit(attempt.run(stackBytes: kib << 10) == nil ? 0 : 1)
    }

    /// The most levels that run on a stack of `kib` KiB, by bisection over child processes.
    static func mostLevels(_ direction: String, _ format: Format, _ shape: Shape, kib: Int) -> Int {
        var (ran, crashed) = (2, 1 << 16)
        while crashed - ran > 1 {
            let levels = (ran + crashed) / 2
            if runsInChild([direction, format.rawValue, shape.rawValue, "\(levels)", "\(kib)"]) {
                ran = levels
            } else {
                crashed = levels
            }
        }
        return ran
    }

    private static func runsInChild(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = Bundle.main.executableURL
        process.arguments = ["--stack-run"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fail("cannot start \(arguments): \(error)") }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// `--stack-depth`: a Markdown table of the most levels on 512 KiB and 2 MiB, and the bytes
    /// per level between the two.
    static func measure() {
        print("| Format | Shape | | Levels on 512 KiB | Levels on 2 MiB | Bytes per level | Default depth needs |")
        print("|---|---|---|---:|---:|---:|---:|")
        for format in Format.allCases {
            for shape in format.shapes {
                for direction in ["decode", "encode"] {
                    progress("\(format) \(shape.rawValue) \(direction)")
                    let small = mostLevels(direction, format, shape, kib: 512)
                    let large = mostLevels(direction, format, shape, kib: 2048)
                    let perLevel = large > small ? (1536 << 10) / (large - small) : 0
                    let needed = (512 << 10) + (format.defaultLevels - small) * perLevel
                    print(
                        "| \(format) | \(shape.rawValue) | \(direction) | \(small) | \(large) | \(perLevel) | \(needed >> 10) KiB |"
                    )
                }
            }
        }
    }
}

/// Runs `body` on a new thread with a stack of `stackBytes`, and waits for it.
///
/// On Linux the stack is memory of its own, with an inaccessible page below it: the C library
/// would otherwise give the thread a cached stack of an earlier thread, up to four times larger
/// than asked, and the check would not run on the size it names.
func onThread(stackBytes: Int, _ body: @escaping @Sendable () -> Void) {
    #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = (stackBytes + page - 1) / page * page
        guard let memory = mmap(nil, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED, mprotect(memory, page, PROT_NONE) == 0
        else { fail("cannot map a stack of \(size) bytes") }
        defer { munmap(memory, size + page) }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstack(&attributes, memory + page, size)
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                if let context { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
                return nil
            }, context)
        guard status == 0 else { fail("cannot start a thread with a stack of \(size) bytes: \(status)") }
        pthread_join(thread, nil)
    #else
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = stackBytes
        thread.start()
        done.wait()
    #endif
}

/// An `Int` handed from the writing thread back, under a lock.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int { lock.withLock { stored } }
    func set(_ value: Int) { lock.withLock { stored = value } }
}

/// A message handed from a thread back, under a lock.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    var value: String? { lock.withLock { stored } }
    func set(_ value: String) { lock.withLock { stored = value } }
}

/// Bytes handed from a thread back, under a lock.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    var value: Data { lock.withLock { stored } }
    func set(_ value: Data) { lock.withLock { stored = value } }
}

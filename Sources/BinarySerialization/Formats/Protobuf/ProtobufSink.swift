import Foundation
import TreeCoding

/// The protobuf writer: proto3 bytes from the streaming encoder's events (a value) and from a
/// protobuf tree sent as the same events (``TreeReplay``), in one pass; or, for `encodeTree`, the
/// protobuf tree of a value's events (``ProtobufTreeOutput``).
///
/// A message's length is known only once it ends: as ``V3Sink`` does, the sink writes content
/// without length prefixes, notes where each goes and how long it is, and `finish()` copies the
/// content once into the exactly sized output with the prefixes in place.
///
/// The events of a value say what the tree does not keep, as ``TypeFact``s and through the shape
/// the engine gives protobuf (a field with presence is bracketed as an optional, a dictionary is
/// sorted map entries `[1: key, 2: value]`, a set's elements come sorted): see
/// ``StreamingEncoder``. What proto3 cannot express (a string key in a message, an 8-bit integer,
/// nil in a repeated field, a oneof with two cases...) fails the sink with the rule; the value is
/// then encoded again with each context's key kept, for the error's coding path.
///
/// Mutable state is `@exclusivity(unchecked)`: a sink belongs to one run on one thread.
final class ProtobufSink: ByteSink {
    @exclusivity(unchecked) private var buffer = GrowingBuffer()
    /// One per length-delimited value written as events: where its prefix goes and its length.
    @exclusivity(unchecked) private var prefixes: [(position: Int, length: Int)] = []
    /// The open nodes, innermost last; the first is the top level (always there after a reset).
    @exclusivity(unchecked) private var contexts = ContextStack()
    @exclusivity(unchecked) private(set) var failure: SinkFailure?
    /// Whether the events are a value's (a plain signed integer's `.zigZag` leaf is `int32` or
    /// `int64`) or a protobuf tree's (`.zigZag` is `sint32` or `sint64`).
    @exclusivity(unchecked) private var fromValue = true
    /// Facts about the next event, from ``note(_:)``.
    @exclusivity(unchecked) private var nextIsOneOf = false
    @exclusivity(unchecked) private var nextEncodingChosen = false
    @exclusivity(unchecked) private var nextIsMapEntry = false
    @exclusivity(unchecked) private var maximumDepth = 0
    /// Open messages below the top level: at most `maximumDepth`, the decoder's rule.
    @exclusivity(unchecked) private var messages = 0
    /// Set for `encodeTree`: what the sink decides to write goes here instead of into bytes.
    @exclusivity(unchecked) private var tree: ProtobufTreeOutput?
    /// Set to report a failure: each open context's last key (or element index), for its path.
    @exclusivity(unchecked) private var pathKeys: [BinaryKey?]?
    @exclusivity(unchecked) private(set) var failurePath: [BinaryKey] = []
    /// Field numbers from 64 up written in the open messages, with their message's context.
    @exclusivity(unchecked) private var largeNumbers: [(message: Int, number: Int)] = []

    fileprivate enum Kind {
        case root
        /// A message: `number` is the field whose key came last and whose value has not.
        case message
        /// A repeated field `number`: `element` says what its elements are.
        case repeated
        /// `Optional.some`: the value inside is a field with presence.
        case optional
        /// A single-value container: transparent.
        case single
        /// A oneof enum's container: its keys are members, fields of the enclosing message.
        case oneOf
        /// A oneof case's container (`number` is the member): a message if its keys are field
        /// numbers, else one associated value under a name (`_0`), the member's value.
        case oneOfCase
        /// A oneof case's associated value under its name: the member's value.
        case oneOfValue
    }

    /// What a repeated field holds, set by its first element.
    fileprivate enum Element: Equatable {
        case none
        case packed(ProtobufScalarType)
        case delimited(ProtobufScalarType)
        case message
    }

    fileprivate struct Context {
        var kind: Kind
        /// The field number the context writes (see ``Kind``); 0 for none.
        var number = 0
        /// The index of this node's entry in `prefixes`, or -1 when it has none.
        var prefix = -1
        /// The bytes of prefixes nested in this node, which its length includes.
        var nestedPrefixBytes = 0
        var element = Element.none
        /// Field numbers below 64 written in this message, one bit each (larger ones are in
        /// `largeNumbers`): a oneof member and another field must not share a number.
        var small: UInt64 = 0
        /// A map entry message: field 1 is the key, which must be an integer, `Bool` or string.
        var mapEntry = false
        /// Members written in a oneof context.
        var members = 0
    }

    init() {}

    deinit { contexts.free() }

    var needsTypeFacts: Bool { true }

    private func reset(maximumDepth: Int, fromValue: Bool, tree: ProtobufTreeOutput? = nil, tracksPath: Bool = false) {
        self.maximumDepth = maximumDepth
        self.fromValue = fromValue
        // `endRun` left no tree output and no path keys; each store costs, per message encoded.
        if let tree { self.tree = tree }
        if tracksPath { pathKeys = [nil] }
        if !failurePath.isEmpty { failurePath = [] }
        failure = nil
        nextIsOneOf = false
        nextEncodingChosen = false
        nextIsMapEntry = false
        messages = 0
        if !largeNumbers.isEmpty { largeNumbers.removeAll(keepingCapacity: true) }
        contexts.removeAll()
        contexts.append(Context(kind: .root))
    }

    func endRun() {
        if tree != nil { tree = nil }
        if pathKeys != nil { pathKeys = nil }
        buffer.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes)
        prefixes.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes / 16)
        contexts.trim(to: RetentionLimits.levels)
    }

    /// `value`'s proto3 bytes, streamed.
    ///
    /// - Throws: `EncodingError` for what proto3 cannot express, with its coding path.
    static func encode<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable], maximumDepth: Int)
        throws -> Data
    {
        let options = engineOptions(userInfo, maximumDepth)
        return try StreamingScratch.with { scratch in
            let streamer = scratch.protobuf
            streamer.sink.reset(maximumDepth: maximumDepth, fromValue: true)
            if let data = streamer.run(value, options: options) { return data }
            throw error(of: value, options, streamer)
        }
    }

    /// `value`'s protobuf tree (``ProtobufTreeOutput`` gives its shape).
    ///
    /// - Throws: `EncodingError` for what proto3 cannot express, with its coding path.
    static func tree<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable], maximumDepth: Int)
        throws -> BinaryValue
    {
        let options = engineOptions(userInfo, maximumDepth)
        return try StreamingScratch.with { scratch in
            let streamer = scratch.protobuf
            let output = ProtobufTreeOutput()
            streamer.sink.reset(maximumDepth: maximumDepth, fromValue: true, tree: output)
            if streamer.run(value, options: options) != nil, let tree = output.result { return tree }
            throw error(of: value, options, streamer)
        }
    }

    private static func engineOptions(_ userInfo: [CodingUserInfoKey: any Sendable], _ maximumDepth: Int)
        -> TreeEncoder
    {
        var options = TreeEncoder()
        options.userInfo = userInfo
        options.maximumDepth = valueDepth(maximumDepth)
        return options
    }

    /// The engine's depth for protobuf's `maximumDepth` messages: protobuf bounds message nesting
    /// (the sink, the decoder's message count); the engine's bound only keeps a deep value's
    /// recursion finite (it counts values, several per message: a oneof, its case, an array...).
    static func valueDepth(_ maximumDepth: Int) -> Int {
        maximumDepth.multipliedReportingOverflow(by: 4).overflow ? Int.max : maximumDepth &* 4 &+ 8
    }

    /// Why `value` could not be written: encoded again with the coding path kept, the rule the
    /// sink refused, else the error `encode(to:)` threw, else the engine's reason to give up.
    @inline(never)
    private static func error<T: Encodable>(of value: T, _ options: TreeEncoder, _ streamer: Streamer<ProtobufSink>)
        -> any Error
    {
        let sink = streamer.sink
        sink.reset(maximumDepth: sink.maximumDepth, fromValue: true, tracksPath: true)
        _ = streamer.run(value, options: options)
        if let failure = sink.failure { return failure.error(at: sink.failurePath) }
        if let thrown = streamer.engine.takeThrownError() { return thrown }
        return EncodingError.invalidValue(
            value,
            .init(
                codingPath: [],
                debugDescription: """
                    Protobuf: \(T.self).encode(to:) uses its containers in an order the protobuf writer \
                    cannot follow (a container written to after a sibling was started, two kinds of \
                    container for one value, a key written twice, or a write after the value was finished).
                    """,
                underlyingError: ProtobufEncodingError.multipleContainersAccessed))
    }

    /// A protobuf tree's bytes (see ``ProtobufEncoder/encodeTree(_:)`` for its shape).
    static func write(_ tree: BinaryValue, maximumDepth: Int) throws -> Data {
        try StreamingScratch.with { scratch in
            let streamer = scratch.protobuf
            streamer.sink.reset(maximumDepth: maximumDepth, fromValue: false)
            return try streamer.write(tree)
        }
    }

    @inline(never)
    private func fail(_ reason: SinkFailure = .unexpectedEvent) {
        guard failure == nil else { return }
        failure = reason
        if let pathKeys { failurePath = pathKeys.compactMap { $0 } }
    }

    /// Fails with a proto3 rule, which the encoder reports with its coding path.
    @inline(never)
    private func refuse(_ code: ProtobufEncodingError, _ rule: String, _ value: Any) {
        fail(.protobuf(ProtobufRefusal(code, rule, value)))
    }

    @inline(never)
    private func refuseRoot(_ found: String) {
        refuse(.rootIsNotKeyedContainer, "the top-level value must be a message, found \(found)", found)
    }

    @inline(never)
    private func refuseElement(_ node: BinaryValue?, _ kindName: String) {
        if let node, node.isNil {
            return refuse(.nilValuesNotSupported, "a repeated field cannot be nil or optional", node)
        }
        refuse(
            .unsupportedType(kindName),
            "a repeated field must be a scalar or a message, not \(kindName) (no arrays of arrays)", node ?? kindName)
    }

    @inline(never)
    private func refuseMixedElements(_ node: Any) {
        refuse(.multipleTypesInUnkeyedContainer, "the elements of a repeated field must have one protobuf type", node)
    }

    // MARK: Where a value goes

    /// Where the next value is written.
    private enum Target {
        /// Field `number` of the message at context `message`; `present`: written even if default.
        case field(number: Int, present: Bool, message: Int)
        /// An element of the repeated field at context `repeated`.
        case element(repeated: Int)
        /// The top-level value.
        case root
        /// A oneof member's case container at context `oneOf` (its pending member).
        case oneOfCase(oneOf: Int)
    }

    /// The target of a value sent now (`found` names it), through the wrappers around it; `nil`
    /// (and the sink fails) where nothing may go.
    @inline(__always)
    private func target(_ found: @autoclosure () -> BinaryValue) -> Target? {
        var i = contexts.count &- 1
        var present = false
        var wrapped = false
        while i >= 0 {
            switch contexts[i].kind {
            case .message:
                let number = contexts[i].number
                guard number != 0 else { break }
                contexts[i].number = 0
                return .field(number: number, present: present, message: i)
            case .optional:
                guard !present else {
                    refuse(.nilValuesNotSupported, "an optional of an optional has no proto3 form", found())
                    return nil
                }
                present = true
                wrapped = true
                i &-= 1
                continue
            case .single:
                wrapped = true
                i &-= 1
                continue
            case .repeated:
                if pathKeys != nil { pathKeys?[i] = .index(pathKeys?[i]?.intValue.map { $0 &+ 1 } ?? 0) }
                guard !present else {
                    refuseElement(.optionalNone, "optional")
                    return nil
                }
                return .element(repeated: i)
            case .root:
                // The top level is a message itself, once.
                guard !wrapped, contexts[i].members == 0 else {
                    refuseRoot(!wrapped ? "a second value" : contexts[i &+ 1].kind == .optional ? "optional" : "single")
                    return nil
                }
                contexts[i].members = 1
                return .root
            case .oneOf:
                guard contexts[i].number != 0 else { break }
                return .oneOfCase(oneOf: i)
            case .oneOfCase:
                // Keyed content: a key comes first.
                break
            case .oneOfValue:
                let number = contexts[i].number
                guard number != 0 else { break }
                contexts[i].number = 0
                return .field(number: number, present: true, message: enclosingMessage(below: i))
            }
            break
        }
        if case .protobuf(let refusal)? = failure, refusal.awaitsValue { refusal.receive(found()) }
        fail()
        return nil
    }

    /// The message context that holds the fields of a oneof context at or below `i`.
    private func enclosingMessage(below i: Int) -> Int {
        var j = i
        while j > 0, contexts[j].kind != .message { j &-= 1 }
        return j
    }

    // MARK: Events

    func note(_ fact: TypeFact) {
        switch fact {
        case .oneOf: nextIsOneOf = true
        case .chosenEncoding: nextEncodingChosen = true
        case .mapEntry: nextIsMapEntry = true
        }
    }

    func value(_ node: BinaryValue) {
        let plainSigned = fromValue && !nextEncodingChosen
        nextEncodingChosen = false
        if nextIsOneOf { return fail() }
        switch node {
        case .single(let inner):
            // A single-value wrapper is transparent (`.single(.nil)` is a field holding nil).
            if case .nil = inner { return refuse(.nilValuesNotSupported, "a field cannot hold nil", node) }
            nextEncodingChosen = !plainSigned  // the fact holds for the leaf inside
            return value(inner)
        case .keyed, .unkeyed, .optional(.some):
            // Whole containers: the engine sends one only for an encoder that asked for no
            // container, which has no proto3 form; a tree's are replayed as events.
            guard !fromValue else {
                return refuse(.noContainersAccessed, "encode(to:) asked for no container: it has no proto3 form", node)
            }
            _ = TreeReplay.send(node, to: self)
            return
        default:
            break
        }
        guard let target = target(node) else { return }
        switch target {
        case .field(let number, let present, let message):
            writeField(number, node, present: present, message: message, plainSigned: plainSigned)
        case .element(let repeated):
            writeElement(node, repeated: repeated, plainSigned: plainSigned)
        case .root:
            refuseRoot(node.kindName)
        case .oneOfCase:
            fail()
        }
    }

    func strings(_ strings: [String]) {
        for string in strings { value(.string(string)) }
    }

    func key(_ key: BinaryKey) {
        let top = contexts.count &- 1
        if pathKeys != nil { pathKeys?[top] = key }
        switch contexts[top].kind {
        case .message:
            guard let number = fieldNumber(key), noteNumber(number, in: top) else { return }
            contexts[top].number = number
        case .oneOf:
            // One member, a field of the enclosing message.
            guard contexts[top].members == 0 else { return fail() }
            guard let number = fieldNumber(key), noteNumber(number, in: enclosingMessage(below: top))
            else { return }
            contexts[top].members = 1
            contexts[top].number = number
        case .oneOfCase:
            if key.intValue == nil {
                // The case's associated value under its name: the member's value.
                contexts[top].kind = .oneOfValue
                return
            }
            // Field numbers: the case is a message, the member's value.
            guard let number = fieldNumber(key) else { return }
            let member = contexts[top].number
            if let tree { tree.openMessage(member, present: true) } else { openDelimited(member, at: top) }
            contexts[top].kind = .message
            messages &+= 1
            guard noteNumber(number, in: top) else { return }
            contexts[top].number = number
        default:
            // A second name in a case's container, or a key outside a keyed container.
            fail()
        }
    }

    func begin(_ kind: SinkNodeKind) {
        if failure != nil { return }
        switch kind {
        case .optional:
            guard deeper() else { return }
            push(Context(kind: .optional))
            return
        case .single:
            guard deeper() else { return }
            push(Context(kind: .single))
            return
        case .unkeyed:
            if nextIsOneOf { return fail() }
            guard let target = target(.unkeyed([])) else { return }
            switch target {
            case .field(let number, false, _):
                guard deeper() else { return }
                push(Context(kind: .repeated, number: number))
                tree?.openRepeated(number)
            case .field:
                refuse(
                    .unsupportedType("optional repeated"),
                    "a repeated field or map has no presence in proto3: it cannot be optional", BinaryValue.unkeyed([]))
            case .element:
                refuseElement(nil, "unkeyed")
            case .root:
                refuseRoot("unkeyed")
            case .oneOfCase:
                fail()
            }
            return
        case .keyed:
            break
        }
        let isOneOf = nextIsOneOf
        nextIsOneOf = false
        defer { nextIsMapEntry = false }
        guard let target = target(.emptyKeyed) else { return }
        switch target {
        case .root:
            guard !isOneOf else {
                return refuse(
                    .rootIsNotKeyedContainer, "a oneof must be a property of a message, not the top level",
                    BinaryValue.emptyKeyed)
            }
            push(Context(kind: .message))
            tree?.openMessage(0, present: false)
        case .field(let number, let present, let message):
            if isOneOf {
                // The oneof's own key is not written: its member is a field of `message`.
                guard deeper() else { return }
                contexts[message].number = 0
                push(Context(kind: .oneOf))
                return
            }
            if number == 1, contexts[message].mapEntry { return refuseMapKey(BinaryValue.emptyKeyed) }
            openMessage(number, present: present)
        case .element(let repeated):
            guard !isOneOf else { return fail() }
            guard setElement(.message, in: repeated) else { return refuseMixedElements(BinaryValue.emptyKeyed) }
            openMessage(contexts[repeated].number, present: false)
            if nextIsMapEntry, failure == nil { contexts[contexts.count &- 1].mapEntry = true }
        case .oneOfCase(let oneOf):
            guard !isOneOf, deeper() else { return fail() }
            let member = contexts[oneOf].number
            contexts[oneOf].number = 0
            push(Context(kind: .oneOfCase, number: member))
        }
    }

    func end() {
        guard contexts.count > 1 else { return fail() }
        let closed = contexts.popLast()
        if pathKeys != nil { pathKeys?.removeLast() }
        switch closed.kind {
        case .message:
            if contexts.count > 1 { messages &-= 1 }
            if closed.number != 0 { fail() }  // a key without its value
            while let last = largeNumbers.last, last.message >= contexts.count { largeNumbers.removeLast() }
            tree?.close()
        case .oneOf:
            if closed.members != 1 || closed.number != 0 { fail() }
        case .oneOfCase:
            // No key: the member is an empty message.
            if let tree { return tree.field(closed.number, .optional(.emptyKeyed)) }
            let tag = ProtobufWire.tag(closed.number, .lengthDelimited)
            buffer.append(ProtobufVarint.size(tag) &+ 1) { w in
                w.protobufVarint(tag)
                w.byte(0)
            }
        case .oneOfValue:
            if closed.number != 0 { fail() }  // the name without a value
        case .repeated:
            tree?.close()
        case .optional, .single, .root:
            break
        }
        var nested = closed.nestedPrefixBytes
        if closed.prefix >= 0 {
            let length = buffer.count &- prefixes[closed.prefix].position &+ nested
            prefixes[closed.prefix].length = length
            nested &+= ProtobufVarint.size(UInt64(length))
        }
        contexts[contexts.count &- 1].nestedPrefixBytes &+= nested
    }

    // MARK: Writing

    /// The field number of a message key: an integer in 1...2^29 − 1; `nil` (and the sink
    /// fails) for any other key.
    @inline(__always)
    private func fieldNumber(_ key: BinaryKey) -> Int? {
        guard let number = key.intValue, ProtobufWire.fieldNumbers.contains(number) else {
            refuseKey(key)
            return nil
        }
        return number
    }

    @inline(never)
    private func refuseKey(_ key: BinaryKey) {
        if key.intValue == 0, key.stringValue == "super" {
            return refuse(.superNotSupported, "superEncoder() has no proto3 form", key.stringValue)
        }
        guard let number = key.intValue else {
            return fail(
                .protobuf(
                    ProtobufRefusal(
                        .missingIntegerKey(key.stringValue),
                        "the key has no integer value: fields need Int coding keys",
                        key.stringValue, awaitsValue: true)))
        }
        fail(
            .protobuf(
                ProtobufRefusal(
                    .integerKeyOutOfRange(number), "the field number is outside 1...536870911", number,
                    awaitsValue: true)))
    }

    /// Notes field `number` written in message context `message`; `false` (and the sink fails)
    /// if it was written before (a oneof member and another field with one number).
    @inline(__always)
    private func noteNumber(_ number: Int, in message: Int) -> Bool {
        if number < 64 {
            let bit: UInt64 = 1 &<< UInt64(number)
            if contexts[message].small & bit != 0 { return refuseClash(number) }
            contexts[message].small |= bit
            return true
        }
        if largeNumbers.contains(where: { $0.message == message && $0.number == number }) { return refuseClash(number) }
        largeNumbers.append((message, number))
        return true
    }

    @inline(never)
    private func refuseClash(_ number: Int) -> Bool {
        refuse(
            .unsupportedType("oneof"), "field number \(number) is both a oneof member and another field of the message",
            number)
        return false
    }

    /// Writes a message field's tag and opens the message, its length to come.
    private func openMessage(_ number: Int, present: Bool) {
        messages &+= 1
        guard deeper() else { return }
        push(Context(kind: .message))
        if let tree { return tree.openMessage(number, present: present) }
        openDelimited(number, at: contexts.count &- 1)
    }

    private func push(_ context: Context) {
        contexts.append(context)
        pathKeys?.append(nil)
    }

    /// Checks the nesting after a node opened; `false` (and the sink fails) past the limits:
    /// `maximumDepth` messages below the top level (what the decoder accepts, so that whatever it
    /// reads is written back), and the nodes the replay's recursion is allowed.
    private func deeper() -> Bool {
        if messages > maximumDepth {
            refuse(.unsupportedType("nesting"), "nesting deeper than the limit of \(maximumDepth)", maximumDepth)
            return false
        }
        // A message level is up to eight contexts (a oneof, its case, optionals, wrappers).
        let nodeLimit = DepthGuard.nodeLimit(maximumDepth: maximumDepth &* 2)
        if contexts.count > nodeLimit {
            fail(.tooDeep(limit: nodeLimit))
            return false
        }
        return true
    }

    /// Writes the tag of length-delimited field `number` and notes its prefix for context `i`.
    private func openDelimited(_ number: Int, at i: Int) {
        let tag = ProtobufWire.tag(number, .lengthDelimited)
        buffer.append(ProtobufVarint.size(tag)) { w in w.protobufVarint(tag) }
        prefixes.append((buffer.count, 0))
        contexts[i].prefix = prefixes.count &- 1
    }

    /// Makes `element` the kind of the repeated field at context `i`; `false` if it holds another.
    private func setElement(_ element: Element, in i: Int) -> Bool {
        if contexts[i].element == .none {
            contexts[i].element = element
            return true
        }
        return contexts[i].element == element
    }

    private func writeField(_ number: Int, _ node: BinaryValue, present: Bool, message: Int, plainSigned: Bool) {
        // A scalar, the usual field, first.
        guard let wire = ProtobufLeafWire(node, signedZigZagIsPlain: plainSigned) else {
            return writeOtherField(number, node, present: present)
        }
        if number == 1, contexts[message].mapEntry {
            switch node {
            case .float, .double, .data: return refuseMapKey(node)
            default: break
            }
        }
        if let tree {
            let leaf = node.protobufTreeLeaf(plainSigned: plainSigned)
            return tree.field(number, present ? .optional(leaf) : leaf)
        }
        if !present, wire.isDefault { return }
        writeTagged(number, wire)
    }

    /// A field that is not a scalar: absent, a packed array, unknown bytes kept by a tree.
    private func writeOtherField(_ number: Int, _ node: BinaryValue, present: Bool) {
        switch node {
        case .optional(.none):
            // An absent field is not written; nil as an optional's value has no proto3 form.
            if present { return refuse(.nilValuesNotSupported, "an optional of an optional has no proto3 form", node) }
            tree?.field(number, node)
        case .nil:
            refuse(.nilValuesNotSupported, "a field cannot hold nil", node)
        case .packed(let array):
            guard !present else {
                return refuse(
                    .unsupportedType("optional repeated"),
                    "a repeated field or map has no presence in proto3: it cannot be optional", node)
            }
            if let tree {
                guard ProtobufPacked.payloadSize(array) != nil else { return refusePacked(array) }
                return tree.field(number, node)
            }
            writePacked(number, array)
        case .unknown(let bytes):
            guard !fromValue else { return fail() }
            do {
                try ProtobufUnknownField.check(bytes, number: number)
            } catch {
                return refuse(.unsupportedType("unknown"), ProtobufUnknownField.rule(error), node)
            }
            bytes.withUnsafeBytes { raw in buffer.append(raw.count) { w in w.bytes(raw) } }
        default:
            refuseScalar(node)
        }
    }

    @inline(never)
    private func refuseMapKey(_ node: BinaryValue) {
        let kind = node == .emptyKeyed ? "a message" : node.kindName
        refuse(.unsupportedType(kind), "a map key must be an integer, Bool or String, not \(kind)", node)
    }

    @inline(never)
    private func refuseScalar(_ node: BinaryValue) {
        refuse(
            .unsupportedType(node.kindName),
            "proto3 has no scalar type for \(node.kindName) (use Int32, UInt32, Int64 or UInt64)", node)
    }

    @inline(__always)
    private func writeTagged(_ number: Int, _ wire: ProtobufLeafWire) {
        let tag = ProtobufWire.tag(number, wire.wireType)
        let payload = wire.payloadSize
        let delimited = wire.wireType == .lengthDelimited
        let size = ProtobufVarint.size(tag) &+ (delimited ? ProtobufVarint.size(UInt64(payload)) : 0) &+ payload
        buffer.append(size) { w in
            w.protobufVarint(tag)
            wire.write(to: &w, delimited: true)
        }
    }

    private func writeElement(_ node: BinaryValue, repeated i: Int, plainSigned: Bool) {
        guard let type = ProtobufScalarType(leaf: node, signedZigZagIsPlain: plainSigned),
            let wire = ProtobufLeafWire(node, signedZigZagIsPlain: plainSigned)
        else { return refuseElement(node, node.kindName) }
        if let tree {
            guard setElement(type.isPackable ? .packed(type) : .delimited(type), in: i) else {
                return refuseMixedElements(node)
            }
            return tree.element(node.protobufTreeLeaf(plainSigned: plainSigned))
        }
        if type.isPackable {
            guard setElement(.packed(type), in: i) else { return refuseMixedElements(node) }
            if contexts[i].prefix < 0 { openDelimited(contexts[i].number, at: i) }
            buffer.append(wire.payloadSize) { w in wire.write(to: &w, delimited: false) }
        } else {
            guard setElement(.delimited(type), in: i) else { return refuseMixedElements(node) }
            writeTagged(contexts[i].number, wire)
        }
    }

    @inline(never)
    private func refusePacked(_ array: PackedArray) {
        refuse(
            .unsupportedType("[\(array.elementKind.rawValue)]"),
            "proto3 has no scalar type for 8- and 16-bit integers (use Int32, UInt32, Int64 or UInt64)",
            BinaryValue.packed(array))
    }

    /// An unboxed array of plain numbers as one packed field; nothing when empty.
    private func writePacked(_ number: Int, _ array: PackedArray) {
        guard let payload = ProtobufPacked.payloadSize(array) else { return refusePacked(array) }
        guard payload > 0 else { return }
        let tag = ProtobufWire.tag(number, .lengthDelimited)
        let size = ProtobufVarint.size(tag) &+ ProtobufVarint.size(UInt64(payload)) &+ payload
        buffer.append(size) { w in
            w.protobufVarint(tag)
            w.protobufVarint(UInt64(payload))
            ProtobufPacked.write(array, to: &w)
        }
    }

    // MARK: Output

    /// A copy of the bytes with every prefix in place; `nil` if anything failed or a node is
    /// still open.
    func finish() -> Data? {
        guard failure == nil, !buffer.failed, contexts.count == 1, !nextIsOneOf else { return nil }
        let total = buffer.count &+ contexts[0].nestedPrefixBytes
        return try? Output.make(count: total) { w in
            var copied = 0
            for entry in prefixes {
                w.bytes(buffer.bytes(copied..<max(copied, entry.position)))
                w.protobufVarint(UInt64(entry.length))
                copied = max(copied, entry.position)
            }
            w.bytes(buffer.bytes(copied..<buffer.count))
        }
    }
}

extension ProtobufSink {
    /// The sink's open contexts in memory of its own: an element is read and changed without an
    /// array's uniqueness and bounds checks (three changes per field). Indices are below `count`
    /// by construction: the top level is pushed at every reset, `end()` pops only above it.
    fileprivate struct ContextStack {
        private var base = UnsafeMutablePointer<Context>.allocate(capacity: 16)
        private var capacity = 16
        private(set) var count = 0

        subscript(i: Int) -> Context {
            get { base[i] }
            nonmutating _modify { yield &base[i] }
        }

        mutating func append(_ context: Context) {
            if count == capacity { (base, capacity) = doubled(base, count: count, capacity: capacity) }
            (base + count).initialize(to: context)
            count &+= 1
        }

        /// The innermost context, removed (`count` must be above 0).
        mutating func popLast() -> Context {
            count &-= 1
            return (base + count).move()
        }

        mutating func removeAll() {
            base.deinitialize(count: count)
            count = 0
        }

        /// Gives back what a deep run made the storage grow to.
        mutating func trim(to limit: Int) {
            guard capacity > limit else { return }
            base = shrunk(base, count: count, to: limit)
            capacity = max(limit, count, 1)
        }

        func free() {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }
}

extension ProtobufSink: DirectFieldSink {
    /// The field number, as four little-endian bytes: the tag depends on the value's wire type.
    func fieldKeyBytes(_ key: BinaryKey) -> [UInt8]? {
        guard let number = key.intValue, ProtobufWire.fieldNumbers.contains(number) else { return nil }
        return withUnsafeBytes(of: UInt32(truncatingIfNeeded: number).littleEndian) { Array($0) }
    }

    /// `key(_:)` and `value(_:)` of a value's scalar field in a message.
    func field(_ key: UnsafeRawBufferPointer, _ leaf: BinaryValue) {
        guard key.count == 4 else { return fail() }
        let number = Int(UInt32(littleEndian: key.loadUnaligned(as: UInt32.self)))
        if !writesField(number, leaf) {
            self.key(BinaryKey(intValue: number))
            value(leaf)
        }
    }
}

extension ProtobufSink {
    /// `key(_:)` and `value(_:)` of a primitive field.
    func field(_ key: BinaryKey, _ leaf: BinaryValue) {
        if let number = key.intValue, writesField(number, leaf) { return }
        self.key(key)
        value(leaf)
    }

    /// Writes field `number` holding `leaf` if it is a value's scalar field in a message and
    /// returns `true`; `false` for anything else (a tree, a path being kept, a map entry, a number
    /// out of range, a value proto3 has no scalar for), which the `key(_:)` and `value(_:)` events
    /// handle.
    @inline(__always)
    private func writesField(_ number: Int, _ leaf: BinaryValue) -> Bool {
        let top = contexts.count &- 1
        guard fromValue, tree == nil, pathKeys == nil, failure == nil, !nextIsOneOf, !nextEncodingChosen,
            contexts[top].kind == .message, contexts[top].number == 0, !contexts[top].mapEntry,
            ProtobufWire.fieldNumbers.contains(number), let wire = ProtobufLeafWire(leaf, signedZigZagIsPlain: true)
        else { return false }
        if noteNumber(number, in: top), !wire.isDefault { writeTagged(number, wire) }
        return true
    }
}

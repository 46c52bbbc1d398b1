import Foundation
import TreeCoding

/// Writes a protobuf tree (see ``ProtobufTreeBuilder`` for its shape) as a proto3 message.
///
/// Two passes over the tree in the same order: the first checks every rule and computes the size
/// of each message and packed field once (kept in visiting order), the second writes into one
/// buffer of the exact size. A default scalar without presence is left out; a message field is
/// always written.
enum ProtobufWriter {
    /// The bytes of `tree`, which must be a message.
    static func serialize(_ tree: BinaryValue, maximumDepth: Int) throws -> Data {
        guard case .keyed(let fields) = tree else {
            throw ProtobufTreeBuilder.error(
                tree, [], .rootIsNotKeyedContainer, "the top-level value must be a message, found \(tree.kindName)")
        }
        var sizer = Sizer(maximumDepth: maximumDepth)
        let total = try sizer.message(fields, depth: 0)
        guard total > 0 else { return Data() }
        var data = Data(count: total)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var writer = Emitter(out: ByteWriter(base: base, capacity: total), sizes: sizer.sizes)
            writer.message(fields)
            return !writer.out.overflowed && writer.out.offset == total
        }
        guard complete else {
            throw ProtobufTreeBuilder.error(
                tree, [], .unsupportedType("tree"), "internal error: the size and write passes disagree")
        }
        return data
    }

    /// Checks `tree` as ``serialize(_:maximumDepth:)`` does, without writing.
    static func validate(_ tree: BinaryValue, maximumDepth: Int) throws {
        guard case .keyed(let fields) = tree else {
            throw ProtobufTreeBuilder.error(
                tree, [], .rootIsNotKeyedContainer, "the top-level value must be a message, found \(tree.kindName)")
        }
        var sizer = Sizer(maximumDepth: maximumDepth)
        _ = try sizer.message(fields, depth: 0)
    }

    /// The elements of a repeated field, and whether they are packed (numeric scalars).
    static func elements(of node: BinaryValue) -> (elements: [BinaryValue], packed: Bool)? {
        let elements: [BinaryValue]
        switch node {
        case .unkeyed(let e): elements = e
        case .packed(let p): elements = p.leaves
        default: return nil
        }
        let packed = elements.first.flatMap { ProtobufLeafWire($0) }.map { $0.wireType != .lengthDelimited } ?? false
        return (elements, packed)
    }
}

/// The first pass: checks and sizes.
private struct Sizer {
    let maximumDepth: Int
    /// Sizes of messages and packed payloads, in the order the second pass meets them.
    var sizes: [Int] = []

    init(maximumDepth: Int) { self.maximumDepth = maximumDepth }

    mutating func message(_ fields: KeyedFields, depth: Int) throws -> Int {
        guard depth <= maximumDepth else {
            throw ProtobufTreeBuilder.error(
                "message", [], .unsupportedType("nesting"), "nesting deeper than the limit of \(maximumDepth)")
        }
        var total = 0
        for (key, value) in fields {
            total += try WriterPath.under(key) {
                guard let number = key.intValue else {
                    throw ProtobufTreeBuilder.error(
                        value, [], .missingIntegerKey(key.stringValue),
                        "the key \"\(key.stringValue)\" has no integer value: fields need Int coding keys")
                }
                guard ProtobufWire.fieldNumbers.contains(number) else {
                    throw ProtobufTreeBuilder.error(
                        value, [], .integerKeyOutOfRange(number), "field number \(number) is outside 1...536870911")
                }
                return try field(number, value, present: false, depth: depth)
            }
        }
        return total
    }

    /// The bytes of field `number` holding `value`; `present`: written even if default.
    mutating func field(_ number: Int, _ value: BinaryValue, present: Bool, depth: Int) throws -> Int {
        switch value {
        case .optional(nil): return 0
        case .optional(let wrapped?):
            if case .optional = wrapped {
                throw ProtobufTreeBuilder.error(
                    value, [], .nilValuesNotSupported, "an optional of an optional has no proto3 form")
            }
            if ProtobufWriter.elements(of: wrapped) != nil {
                throw ProtobufTreeBuilder.error(
                    value, [], .unsupportedType("optional repeated"),
                    "a repeated field or map has no presence in proto3: it cannot be optional")
            }
            return try field(number, wrapped, present: true, depth: depth)
        case .single(let wrapped):
            return try field(number, wrapped, present: present, depth: depth)
        case .keyed(let fields):
            return try messageField(number, fields, depth: depth)
        case .unkeyed, .packed:
            return try repeated(number, value, depth: depth)
        case .unknown(let bytes):
            try ProtobufUnknownField.check(bytes, number: number)
            return bytes.count
        case .nil:
            throw ProtobufTreeBuilder.error(value, [], .nilValuesNotSupported, "a field cannot hold nil")
        default:
            guard let wire = ProtobufLeafWire(value) else {
                throw ProtobufTreeBuilder.error(
                    value, [], .unsupportedType(value.kindName),
                    "proto3 has no scalar type for \(value.kindName) (use Int32, UInt32, Int64 or UInt64)")
            }
            if !present, wire.isDefault { return 0 }
            return Self.scalarSize(number, wire)
        }
    }

    static func scalarSize(_ number: Int, _ wire: ProtobufLeafWire) -> Int {
        let tag = ProtobufVarint.size(ProtobufWire.tag(number, wire.wireType))
        let payload = wire.payloadSize
        return wire.wireType == .lengthDelimited
            ? tag + ProtobufVarint.size(UInt64(payload)) + payload : tag + payload
    }

    mutating func messageField(_ number: Int, _ fields: KeyedFields, depth: Int) throws -> Int {
        let slot = sizes.count
        sizes.append(0)
        let size = try message(fields, depth: depth + 1)
        sizes[slot] = size
        return ProtobufVarint.size(ProtobufWire.tag(number, .lengthDelimited))
            + ProtobufVarint.size(UInt64(size)) + size
    }

    mutating func repeated(_ number: Int, _ value: BinaryValue, depth: Int) throws -> Int {
        if case .packed(let array) = value {
            let payload = try Self.payloadSize(array)
            guard payload > 0 else { return 0 }
            sizes.append(payload)
            return ProtobufVarint.size(ProtobufWire.tag(number, .lengthDelimited))
                + ProtobufVarint.size(UInt64(payload)) + payload
        }
        guard let (elements, packed) = ProtobufWriter.elements(of: value), let first = elements.first else { return 0 }
        var total = 0
        for (i, element) in elements.enumerated() {
            total += try WriterPath.under(BinaryKey.index(i)) {
                guard ProtobufTreeBuilder.isElement(element) else {
                    throw ProtobufTreeBuilder.notAnElement(element, element, [], in: "a repeated field")
                }
                guard ProtobufTreeBuilder.sameElementType(first, element) else {
                    throw ProtobufTreeBuilder.error(
                        element, [], .multipleTypesInUnkeyedContainer,
                        "the elements of a repeated field must have one protobuf type")
                }
                if case .keyed(let fields) = element { return try messageField(number, fields, depth: depth) }
                guard let wire = ProtobufLeafWire(element) else { return 0 }
                return packed ? wire.payloadSize : Self.scalarSize(number, wire)
            }
        }
        guard packed else { return total }
        sizes.append(total)
        return ProtobufVarint.size(ProtobufWire.tag(number, .lengthDelimited))
            + ProtobufVarint.size(UInt64(total)) + total
    }
}

extension Sizer {
    /// The packed payload of an unboxed array of plain numbers.
    static func payloadSize(_ array: PackedArray) throws -> Int {
        switch array {
        case .bool(let a): return a.count
        case .int32(let a): return a.reduce(0) { $0 + ProtobufVarint.size(UInt64(bitPattern: Int64($1))) }
        case .int64(let a): return a.reduce(0) { $0 + ProtobufVarint.size(UInt64(bitPattern: $1)) }
        case .int(let a): return a.reduce(0) { $0 + ProtobufVarint.size(UInt64(bitPattern: Int64($1))) }
        case .uint32(let a): return a.reduce(0) { $0 + ProtobufVarint.size(UInt64($1)) }
        case .uint64(let a): return a.reduce(0) { $0 + ProtobufVarint.size($1) }
        case .uint(let a): return a.reduce(0) { $0 + ProtobufVarint.size(UInt64($1)) }
        case .float(let a): return 4 * a.count
        case .double(let a): return 8 * a.count
        case .int8, .uint8, .int16, .uint16:
            throw ProtobufTreeBuilder.error(
                array, [], .unsupportedType("[\(array.elementKind.rawValue)]"),
                "proto3 has no scalar type for 8- and 16-bit integers (use Int32, UInt32, Int64 or UInt64)")
        }
    }
}

/// The second pass: writes what the first pass checked, taking its sizes in order.
private struct Emitter {
    var out: ByteWriter
    let sizes: [Int]
    var next = 0

    init(out: ByteWriter, sizes: [Int]) {
        self.out = out
        self.sizes = sizes
    }

    /// The next size of the first pass (0 past the end, which the caller's overflow check catches).
    mutating func takeSize() -> Int {
        defer { next += 1 }
        return next < sizes.count ? sizes[next] : 0
    }

    mutating func message(_ fields: KeyedFields) {
        for (key, value) in fields {
            guard let number = key.intValue else { continue }
            field(number, value, present: false)
        }
    }

    mutating func field(_ number: Int, _ value: BinaryValue, present: Bool) {
        switch value {
        case .optional(nil): return
        case .optional(let wrapped?): field(number, wrapped, present: true)
        case .single(let wrapped): field(number, wrapped, present: present)
        case .keyed(let fields): messageField(number, fields)
        case .unkeyed, .packed: repeated(number, value)
        case .unknown(let bytes): bytes.withUnsafeBytes { out.bytes($0) }
        default:
            guard let wire = ProtobufLeafWire(value), present || !wire.isDefault else { return }
            out.protobufVarint(ProtobufWire.tag(number, wire.wireType))
            payload(wire, delimited: true)
        }
    }

    mutating func payload(_ wire: ProtobufLeafWire, delimited: Bool) {
        switch wire {
        case .varint(let v): out.protobufVarint(v)
        case .fixed32(let v): out.littleEndian(v)
        case .fixed64(let v): out.littleEndian(v)
        case .string(let s):
            if delimited { out.protobufVarint(UInt64(s.utf8.count)) }
            out.string(s)
        case .bytes(let d):
            if delimited { out.protobufVarint(UInt64(d.count)) }
            d.withUnsafeBytes { out.bytes($0) }
        }
    }

    mutating func messageField(_ number: Int, _ fields: KeyedFields) {
        let size = takeSize()
        out.protobufVarint(ProtobufWire.tag(number, .lengthDelimited))
        out.protobufVarint(UInt64(size))
        message(fields)
    }

    mutating func repeated(_ number: Int, _ value: BinaryValue) {
        if case .packed(let array) = value {
            guard array.count > 0 else { return }
            let size = takeSize()
            out.protobufVarint(ProtobufWire.tag(number, .lengthDelimited))
            out.protobufVarint(UInt64(size))
            switch array {
            case .bool(let a): for v in a { out.byte(v ? 1 : 0) }
            case .int32(let a): for v in a { out.protobufVarint(UInt64(bitPattern: Int64(v))) }
            case .int64(let a): for v in a { out.protobufVarint(UInt64(bitPattern: v)) }
            case .int(let a): for v in a { out.protobufVarint(UInt64(bitPattern: Int64(v))) }
            case .uint32(let a): for v in a { out.protobufVarint(UInt64(v)) }
            case .uint64(let a): for v in a { out.protobufVarint(v) }
            case .uint(let a): for v in a { out.protobufVarint(UInt64(v)) }
            case .float(let a): for v in a { out.littleEndian(v.bitPattern) }
            case .double(let a): for v in a { out.littleEndian(v.bitPattern) }
            case .int8, .uint8, .int16, .uint16: return  // refused by the first pass
            }
            return
        }
        guard let (elements, packed) = ProtobufWriter.elements(of: value), !elements.isEmpty else { return }
        if packed {
            // The payload's size follows the sizes of the messages inside it: there are none.
            let size = takeSize()
            out.protobufVarint(ProtobufWire.tag(number, .lengthDelimited))
            out.protobufVarint(UInt64(size))
            for element in elements {
                if let wire = ProtobufLeafWire(element) { payload(wire, delimited: false) }
            }
            return
        }
        for element in elements {
            if case .keyed(let fields) = element {
                messageField(number, fields)
            } else if let wire = ProtobufLeafWire(element) {
                out.protobufVarint(ProtobufWire.tag(number, wire.wireType))
                payload(wire, delimited: true)
            }
        }
    }
}

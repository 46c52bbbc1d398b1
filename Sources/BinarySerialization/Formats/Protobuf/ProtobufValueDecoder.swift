import Foundation
import TreeCoding

extension ProtobufDecodingContext {
    /// A value of `type` from the occurrences of its field (empty: the field is absent, and the value
    /// is the default: zero, empty, or a message of defaults).
    func decode<T: Decodable>(_ type: T.Type, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation)
        throws -> T
    {
        if let leaf = T.self as? any ProtobufLeaf.Type {
            return try decodeLeaf(leaf, occurrences, at: location, as: T.self)
        }
        if let hook = T.self as? any ProtobufDecodingHook.Type {
            guard let value = try hook.decodeProtobuf(self, occurrences, at: location) as? T else {
                throw location.typeMismatch(T.self, "internal error: a hook returned another type", offset: nil)
            }
            return value
        }
        let decoder = ProtobufValueDecoder(
            context: self, source: .field(occurrences), location: try location.deeper(maximumDepth))
        return try T(from: decoder)
    }

    /// A scalar: the last occurrence wins, as protobuf specifies for a field stored more than once.
    func decodeLeaf<T>(
        _ leafType: any ProtobufLeaf.Type, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation,
        as type: T.Type
    ) throws -> T {
        guard let scalar = leafType.protobufType else {
            throw location.invalidAccess(
                T.self, .unsupportedType("\(T.self)"),
                "proto3 has no scalar type for \(T.self) (use Int32, UInt32, Int64 or UInt64)")
        }
        let leaf: BinaryValue
        if let last = occurrences.last {
            guard last.wireType == scalar.wireType else {
                throw location.typeMismatch(
                    T.self, "expected \(scalar) (wire type \(scalar.wireType)), found wire type \(last.wireType)",
                    offset: last.tagStart)
            }
            leaf = try read(scalar, last.value, at: location)
        } else {
            leaf = scalar.defaultLeaf
        }
        return try value(leafType, leaf, at: location, offset: occurrences.last?.valueStart, as: T.self)
    }

    /// A scalar filling `range` (or, for a fixed-size or varint type, starting it).
    func read(_ scalar: ProtobufScalarType, _ range: Range<Int>, at location: ProtobufLocation) throws -> BinaryValue {
        var r = input.reader(range)
        do {
            return try scalar.read(&r)
        } catch let error as WireFormatError {
            throw location.decodingError(error)
        }
    }

    func value<T>(
        _ leafType: any ProtobufLeaf.Type, _ leaf: BinaryValue, at location: ProtobufLocation, offset: Int?,
        as type: T.Type
    ) throws -> T {
        guard let value = leafType.init(protobufLeaf: leaf) as? T else {
            throw location.typeMismatch(T.self, "\(leaf) does not fit \(T.self)", offset: offset)
        }
        return value
    }

    /// The elements of a repeated field: numeric scalars (and enums of them) packed or not (both
    /// are accepted, even mixed), anything else one element per occurrence.
    func repeated<E: Decodable>(_ type: E.Type, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation)
        throws -> [E]
    {
        if let elements = try plainNumbers(E.self, occurrences, at: location) { return elements }
        if let leaf = E.self as? any ProtobufLeaf.Type, let scalar = leaf.protobufType,
            let elements = try leaves(leaf, scalar, occurrences, at: location) as? [E]
        {
            return elements
        }
        var out: [E] = []
        out.reserveCapacity(occurrences.count)
        let packed = Self.packedScalarType(of: E.self)
        for occurrence in occurrences {
            guard let scalar = packed, occurrence.wireType == .lengthDelimited else {
                out.append(try decode(E.self, [occurrence], at: location.element(out.count)))
                continue
            }
            var r = input.reader(occurrence.value)
            while !r.isAtEnd {
                let element = try packedElement(scalar, occurrence, &r, at: location.element(out.count))
                out.append(try decode(E.self, [element], at: location.element(out.count)))
            }
        }
        return out
    }

    /// A repeated field of plain numbers (`[Double]`, `[Int32]`, `[Bool]`...), read without a leaf
    /// per element; `nil` for other element types.
    private func plainNumbers<E>(_ type: E.Type, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation)
        throws -> [E]?
    {
        switch E.self {
        case is Double.Type:
            return Self.same(
                try numbers(occurrences, .double, at: location) {
                    Double(bitPattern: try $0.littleEndian(UInt64.self))
                }, as: E.self)
        case is Float.Type:
            return Self.same(
                try numbers(occurrences, .float, at: location) {
                    Float(bitPattern: try $0.littleEndian(UInt32.self))
                }, as: E.self)
        case is Bool.Type:
            return Self.same(try numbers(occurrences, .bool, at: location) { try $0.protobufVarint() != 0 }, as: E.self)
        case is Int32.Type:
            return Self.same(
                try numbers(occurrences, .int32, at: location) { Int32(truncatingIfNeeded: try $0.protobufVarint()) },
                as: E.self)
        case is Int64.Type:
            return Self.same(
                try numbers(occurrences, .int64, at: location) { Int64(bitPattern: try $0.protobufVarint()) },
                as: E.self)
        case is Int.Type where Int.bitWidth == 64:
            return Self.same(
                try numbers(occurrences, .int64, at: location) { Int(truncatingIfNeeded: try $0.protobufVarint()) },
                as: E.self)
        case is UInt32.Type:
            return Self.same(
                try numbers(occurrences, .uint32, at: location) {
                    UInt32(truncatingIfNeeded: try $0.protobufVarint())
                }, as: E.self)
        case is UInt64.Type:
            return Self.same(try numbers(occurrences, .uint64, at: location) { try $0.protobufVarint() }, as: E.self)
        case is UInt.Type where UInt.bitWidth == 64:
            return Self.same(
                try numbers(occurrences, .uint64, at: location) { UInt(truncatingIfNeeded: try $0.protobufVarint()) },
                as: E.self)
        default:
            return nil
        }
    }

    /// `array` as `[E]` when `E` is its element type (else `nil`). A dynamic `as? [E]` from a
    /// generic context converts element by element; the types being equal, the bit cast is exact.
    @inline(__always)
    private static func same<T, E>(_ array: [T], as type: E.Type) -> [E]? {
        guard T.self == E.self else { return nil }
        return unsafeBitCast(array, to: [E].self)
    }

    /// The numbers of a repeated field of `scalar`, packed or not, each read by `read`.
    @inline(__always)
    private func numbers<T>(
        _ occurrences: [ProtobufFieldEntry], _ scalar: ProtobufScalarType, at location: ProtobufLocation,
        _ read: (inout ByteReader) throws -> T
    ) throws -> [T] {
        var out: [T] = []
        for occurrence in occurrences {
            var r = input.reader(occurrence.value)
            if occurrence.wireType == .lengthDelimited {
                if scalar.wireType == .fixed64 { out.reserveCapacity(out.count + r.remaining / 8) }
                if scalar.wireType == .fixed32 { out.reserveCapacity(out.count + r.remaining / 4) }
                while !r.isAtEnd {
                    do {
                        out.append(try read(&r))
                    } catch let error as WireFormatError {
                        throw location.element(out.count).decodingError(error)
                    }
                }
                continue
            }
            guard occurrence.wireType == scalar.wireType else {
                throw location.element(out.count).typeMismatch(
                    T.self,
                    "expected \(scalar) (wire type \(scalar.wireType)), found wire type \(occurrence.wireType)",
                    offset: occurrence.tagStart)
            }
            do {
                out.append(try read(&r))
            } catch let error as WireFormatError {
                throw location.element(out.count).decodingError(error)
            }
        }
        return out
    }

    /// The elements of a repeated scalar field, read in one loop for the element type.
    private func leaves<L: ProtobufLeaf>(
        _ type: L.Type, _ scalar: ProtobufScalarType, _ occurrences: [ProtobufFieldEntry],
        at location: ProtobufLocation
    ) throws -> [L] {
        var out: [L] = []
        out.reserveCapacity(occurrences.count)
        for occurrence in occurrences {
            if scalar.isPackable, occurrence.wireType == .lengthDelimited {
                var r = input.reader(occurrence.value)
                while !r.isAtEnd {
                    let start = r.offset
                    out.append(try element(L.self, scalar, &r, at: location.element(out.count), offset: start))
                }
                continue
            }
            guard occurrence.wireType == scalar.wireType else {
                throw location.element(out.count).typeMismatch(
                    L.self, "expected \(scalar) (wire type \(scalar.wireType)), found wire type \(occurrence.wireType)",
                    offset: occurrence.tagStart)
            }
            var r = input.reader(occurrence.value)
            out.append(try element(L.self, scalar, &r, at: location.element(out.count), offset: occurrence.valueStart))
        }
        return out
    }

    /// One scalar element at `r`. (`location` is only made into an error on the error path.)
    @inline(__always)
    private func element<L: ProtobufLeaf>(
        _ type: L.Type, _ scalar: ProtobufScalarType, _ r: inout ByteReader,
        at location: @autoclosure () -> ProtobufLocation,
        offset: Int
    ) throws -> L {
        let leaf: BinaryValue
        do {
            leaf = try scalar.read(&r)
        } catch let error as WireFormatError {
            throw location().decodingError(error)
        }
        guard let value = L(protobufLeaf: leaf) else {
            throw location().typeMismatch(L.self, "\(leaf) does not fit \(L.self)", offset: offset)
        }
        return value
    }

    /// The next element of a packed run at `r`, as an occurrence of its own: its bytes are checked
    /// here, and the element's type reads them as it would read a field.
    func packedElement(
        _ scalar: ProtobufScalarType, _ run: ProtobufFieldEntry, _ r: inout ByteReader, at location: ProtobufLocation
    ) throws -> ProtobufFieldEntry {
        let start = r.offset
        do {
            _ = try scalar.read(&r)
        } catch let error as WireFormatError {
            throw location.decodingError(error)
        }
        return ProtobufFieldEntry(
            number: run.number, wireType: scalar.wireType, tagStart: start, valueStart: start, end: r.offset)
    }

    /// The scalar type of a repeated field of `type` that may be packed: a numeric scalar, or a
    /// `RawRepresentable` (an enum) of one; `nil` for strings, bytes and messages.
    static func packedScalarType(of type: Any.Type) -> ProtobufScalarType? {
        if let leaf = type as? any ProtobufLeaf.Type {
            return leaf.protobufType.flatMap { $0.isPackable ? $0 : nil }
        }
        if let raw = type as? any RawRepresentable.Type {
            return packedScalarType(of: rawValueType(raw))
        }
        return nil
    }

    private static func rawValueType<R: RawRepresentable>(_ type: R.Type) -> Any.Type { R.RawValue.self }
}

/// Types the decoder reads without `init(from:)`: optionals, arrays, sets and dictionaries.
protocol ProtobufDecodingHook {
    static func decodeProtobuf(
        _ context: ProtobufDecodingContext, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation
    ) throws -> Self
}

extension Optional: ProtobufDecodingHook where Wrapped: Decodable {
    /// `nil` when the field is absent: a field with presence.
    static func decodeProtobuf(
        _ context: ProtobufDecodingContext, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation
    ) throws -> Self {
        if occurrences.isEmpty { return nil }
        return try context.decode(Wrapped.self, occurrences, at: location)
    }
}

extension Array: ProtobufDecodingHook where Element: Decodable {
    static func decodeProtobuf(
        _ context: ProtobufDecodingContext, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation
    ) throws -> Self {
        try context.repeated(Element.self, occurrences, at: location)
    }
}

extension Set: ProtobufDecodingHook where Element: Decodable {
    static func decodeProtobuf(
        _ context: ProtobufDecodingContext, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation
    ) throws -> Self {
        Set(try context.repeated(Element.self, occurrences, at: location))
    }
}

extension Dictionary: ProtobufDecodingHook where Key: Decodable, Value: Decodable {
    /// A map: each occurrence is an entry message, key in field 1 and value in field 2 (either may
    /// be absent: the default); a key stored twice keeps its last value.
    static func decodeProtobuf(
        _ context: ProtobufDecodingContext, _ occurrences: [ProtobufFieldEntry], at location: ProtobufLocation
    ) throws -> Self {
        var result: Self = [:]
        for (i, occurrence) in occurrences.enumerated() {
            let entryLocation = try location.element(i).deeper(context.maximumDepth)
            guard occurrence.wireType == .lengthDelimited else {
                throw entryLocation.typeMismatch(
                    Self.self,
                    "expected a map entry (wire type length-delimited), found wire type \(occurrence.wireType)",
                    offset: occurrence.tagStart)
            }
            let entry = try context.message([occurrence.value], at: entryLocation, records: false)
            let keyLocation = ProtobufLocation(
                codingPath: entryLocation.codingPath + [BinaryKey(stringValue: "key", intValue: 1)], steps: [],
                depth: entryLocation.depth)
            let key = try context.decode(Key.self, entry.occurrences(1), at: keyLocation)
            var valueLocation = entryLocation
            valueLocation.codingPath.append(BinaryKey(stringValue: "value", intValue: 2))
            valueLocation.steps = location.steps + [.mapValue(key: context.mapKeyNode(key))]
            result[key] = try context.decode(Value.self, entry.occurrences(2), at: valueLocation)
        }
        return result
    }
}

extension ProtobufDecodingContext {
    /// The tree node of a map key, which finds its entry in the tree; `.nil` when not recording.
    func mapKeyNode(_ key: Any) -> BinaryValue {
        guard recordsMessages, let encodable = key as? any Encodable else { return .nil }
        let builder = ProtobufTreeBuilder(userInfo: userInfo, maximumDepth: maximumDepth)
        return (try? builder.node(of: encodable, path: [], depth: 0)) ?? .nil
    }
}

/// The `Decoder` handed to `init(from:)`: the top-level message, or the value of a field.
final class ProtobufValueDecoder: Decoder {
    enum Source {
        case message(Range<Int>)
        case field([ProtobufFieldEntry])
    }

    let context: ProtobufDecodingContext
    let source: Source
    let location: ProtobufLocation
    var codingPath: [any CodingKey] { location.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    init(context: ProtobufDecodingContext, source: Source, location: ProtobufLocation) {
        self.context = context
        self.source = source
        self.location = location
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let ranges: [Range<Int>]
        switch source {
        case .message(let range): ranges = [range]
        case .field(let occurrences):
            for occurrence in occurrences where occurrence.wireType != .lengthDelimited {
                throw location.typeMismatch(
                    Key.self, "expected a message (wire type length-delimited), found wire type \(occurrence.wireType)",
                    offset: occurrence.tagStart)
            }
            ranges = occurrences.map(\.value)
        }
        let message = try context.message(ranges, at: location)
        return KeyedDecodingContainer(ProtobufKeyedDecoder<Key>(context: context, message: message, location: location))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .field(let occurrences) = source else {
            throw location.invalidAccess(
                [Any].self, .invalidAccess("unkeyed container at the top level"), "the top level must be a message")
        }
        return ProtobufUnkeyedDecoder(context: context, occurrences: occurrences, location: location)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard case .field(let occurrences) = source else {
            throw location.invalidAccess(
                Any.self, .invalidAccess("single value at the top level"), "the top level must be a message")
        }
        return ProtobufSingleValueDecoder(context: context, occurrences: occurrences, location: location)
    }
}

extension ProtobufLocation {
    func superError() -> DecodingError {
        invalidAccess(
            Any.self, .superNotSupported, "protocol buffers have no inheritance: superDecoder() is unsupported")
    }

    func fieldNumber(_ key: some CodingKey) throws -> Int {
        guard let number = key.intValue else {
            throw ProtobufLocation(codingPath: codingPath + [key], steps: steps, depth: depth).invalidAccess(
                Any.self, .invalidAccess("the key \"\(key.stringValue)\" has no integer value"),
                "the key \"\(key.stringValue)\" has no integer value: fields need Int coding keys")
        }
        return number
    }
}

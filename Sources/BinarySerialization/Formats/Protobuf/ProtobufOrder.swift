import Foundation
import TreeCoding

/// The order protobuf writes unordered collections in, so that equal sets and dictionaries give
/// equal bytes: numbers by value (floating point by bit pattern), `false` before `true`, strings
/// and data by their bytes.
enum ProtobufOrder {
    /// `elements` sorted; in their order if their type has none here.
    static func sorted<E>(_ elements: [E]) -> [E] {
        func by<T>(_ type: T.Type, _ precedes: (T, T) -> Bool) -> [E]? {
            (elements as? [T]).flatMap { $0.sorted(by: precedes) as? [E] }
        }
        return by(String.self) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            ?? by(Int.self, <) ?? by(Int32.self, <) ?? by(Int64.self, <) ?? by(UInt.self, <)
            ?? by(UInt32.self, <) ?? by(UInt64.self, <) ?? by(Int8.self, <) ?? by(Int16.self, <)
            ?? by(UInt8.self, <) ?? by(UInt16.self, <)
            ?? by(Bool.self) { !$0 && $1 }
            ?? by(Float.self) { $0.bitPattern < $1.bitPattern }
            ?? by(Double.self) { $0.bitPattern < $1.bitPattern }
            ?? by(Data.self) { $0.lexicographicallyPrecedes($1) } ?? elements
    }
}

/// A dictionary as protobuf writes a map: entry messages `[1: key, 2: value]` sorted by key, both
/// fields present whatever their value (as protobuf's own writers do).
struct ProtobufMapEntries<Key: Encodable & Hashable, Value: Encodable>: Encodable {
    private let keys: [Key]
    private let dictionary: [Key: Value]

    init(_ dictionary: [Key: Value]) {
        self.dictionary = dictionary
        keys = ProtobufOrder.sorted(Array(dictionary.keys))
    }

    func encode(to encoder: any Encoder) throws {
        var entries = encoder.unkeyedContainer()
        for key in keys {
            guard let value = dictionary[key] else { continue }
            try entries.encode(Entry(key: key, value: value))
        }
    }

    private struct Entry: Encodable, ProtobufMapEntryMarker {
        let key: Key
        let value: Value
        enum CodingKeys: Int, CodingKey { case key = 1, value = 2 }

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(Optional(key), forKey: .key)
            try fields.encode(Optional(value), forKey: .value)
        }
    }
}

/// A map entry as ``ProtobufMapEntries`` writes it (the engine notes ``TypeFact/mapEntry``).
protocol ProtobufMapEntryMarker {}

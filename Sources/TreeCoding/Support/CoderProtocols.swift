public import Foundation

/// An encoder that turns `Encodable` values into `Data`.
public protocol EncodesToData {
    /// Encodes `value` to bytes.
    func encode<T: Encodable>(_ value: T) throws -> Data
}

/// A decoder that turns `Data` into `Decodable` values.
public protocol DecodesFromData {
    /// Decodes a value of `type` from bytes.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

/// An encoder that turns `Encodable` values into a ``BinaryValue`` tree.
public protocol EncodesToTree {
    /// Encodes `value` to a tree.
    func encodeTree<T: Encodable>(_ value: T) throws -> BinaryValue
}

/// A decoder that turns a ``BinaryValue`` tree into `Decodable` values.
public protocol DecodesFromTree {
    /// Decodes a value of `type` from a tree.
    func decode<T: Decodable>(_ type: T.Type, fromTree tree: BinaryValue) throws -> T
}

extension DecodesFromData {
    /// Decodes a value whose type is inferred from the context.
    public func decode<T: Decodable>(from data: Data) throws -> T {
        try decode(T.self, from: data)
    }

    /// Decodes a value of `type`, or returns `nil` when `data` is empty.
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, from data: Data) throws -> T? {
        data.isEmpty ? nil : try decode(type, from: data)
    }
}

extension DecodesFromTree {
    /// Decodes a value whose type is inferred from the context.
    public func decode<T: Decodable>(fromTree tree: BinaryValue) throws -> T {
        try decode(T.self, fromTree: tree)
    }
}

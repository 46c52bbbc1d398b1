/// An integer property wrapper (`FixedSizeEncoded`, `VariableLengthEncoded`, `ZigZagEncoded`, in
/// BinarySerialization, with their byte-level protocols) as the tree coders see it: an integer
/// the tree has a leaf for is that leaf in ``encoding``; any other wrapped type (`Bool`, `Float`,
/// a conformance of the user's) is coded as if there were no wrapper.
package protocol IntegerWrapping {
    associatedtype Value: Codable
    /// The encoding the wrapper gives an integer.
    static var encoding: IntegerEncoding { get }
    var wrappedValue: Value { get }
    init(wrappedValue: Value)
}

extension IntegerWrapping {
    /// The node the wrapper makes: the leaf of ``wrapperLeaf``, or the wrapped value's own node.
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        guard let leaf = wrapperLeaf else { return try encoder.encodeValue(wrappedValue, step: step) }
        return leaf
    }

    /// The leaf of the wrapped integer in the wrapper's encoding; `nil` for a type that is not one
    /// of the tree's integer leaves.
    package var wrapperLeaf: BinaryValue? {
        guard let scalar = Value.self as? any TreeIntegerScalar.Type else { return nil }
        return scalar.leafValue(wrappedValue, Self.encoding)
    }
}

extension TreeIntegerScalar {
    /// The leaf of `value` (of any integer type) in `encoding`, if it is a `Self`.
    static func leafValue(_ value: some Any, _ encoding: IntegerEncoding) -> BinaryValue? {
        guard let v = value as? Self else { return nil }
        return leaf(v, encoding)
    }
}

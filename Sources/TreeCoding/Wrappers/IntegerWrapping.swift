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

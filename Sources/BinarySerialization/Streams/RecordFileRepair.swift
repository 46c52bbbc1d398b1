public import Foundation

/// A torn last element that a record file encoder cut off before appending.
public struct RecordFileRepair: Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public let url: URL
    /// The bytes that were cut: from the end of the last complete element to the old end of the
    /// file.
    public let range: Range<Int64>
    /// The number of bytes cut.
    public var byteCount: Int64 { range.upperBound - range.lowerBound }

    /// The file, the range and the size, as a sentence.
    public var description: String {
        "\(url.path): cut a torn last element of \(byteCount) bytes (bytes \(range.lowerBound)..<\(range.upperBound))"
    }
}

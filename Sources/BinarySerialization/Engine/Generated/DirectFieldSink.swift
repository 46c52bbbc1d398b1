internal import TreeCoding

/// A sink that takes a generated type's primitive fields in one call each (``field(_:_:)``):
/// the key's bytes, made once per type, then the value. What it writes is exactly what
/// ``EncodingSink/key(_:)`` followed by ``EncodingSink/value(_:)`` writes for the field.
/// (``BinaryFieldWriter`` calls each format's sink as its own type: through this existential, a
/// retain and a release per field.)
protocol DirectFieldSink: EncodingSink {
    /// The bytes ``EncodingSink/key(_:)`` writes for `key`; `nil` when the format has none (the
    /// type's fields then go through the events, which report it).
    func fieldKeyBytes(_ key: BinaryKey) -> [UInt8]?

    /// A primitive field of the innermost keyed node: `key` (from ``fieldKeyBytes(_:)``), then
    /// `leaf`.
    func field(_ key: UnsafeRawBufferPointer, _ leaf: BinaryValue)
}

extension DirectFieldSink {
    /// The bytes `append` writes into an empty buffer; `nil` when it has none to write.
    static func bytes(writtenBy append: (inout GrowingBuffer) -> Bool) -> [UInt8]? {
        var buffer = GrowingBuffer(initialCapacity: 16)
        guard append(&buffer), !buffer.failed else { return nil }
        return Array(buffer.bytes(0..<buffer.count))
    }
}

/// A generated type's keys as one format writes them (``DirectFieldSink/fieldKeyBytes(_:)``), laid
/// out once per type and engine (or, for reading, per type and thread).
final class FieldKeyBytes {
    /// Where each field's bytes start in `bytes`, and after the last, where they end.
    private let starts: UnsafeMutableBufferPointer<Int>
    private let bytes: UnsafeMutableRawBufferPointer
    /// The number of fields.
    let count: Int
    /// Whether no two fields have the same bytes (a reader matches a field by its bytes alone).
    let areDistinct: Bool

    /// `nil` when `bytesOf` has no bytes for one of `keys`.
    init?(_ keys: [BinaryKey], bytesOf: (BinaryKey) -> [UInt8]?) {
        var all: [UInt8] = []
        var starts = [0]
        var seen = Set<[UInt8]>()
        for key in keys {
            guard let written = bytesOf(key) else { return nil }
            seen.insert(written)
            all += written
            starts.append(all.count)
        }
        count = keys.count
        areDistinct = seen.count == keys.count
        self.starts = .allocate(capacity: starts.count)
        _ = self.starts.initialize(from: starts)
        bytes = .allocate(byteCount: max(all.count, 1), alignment: 1)
        bytes.copyBytes(from: all)
    }

    deinit {
        starts.deallocate()
        bytes.deallocate()
    }

    /// The bytes of field `field`, which the caller checked is in `0..<count`.
    @inline(__always)
    subscript(field: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[starts[field]..<starts[field &+ 1]])
    }
}

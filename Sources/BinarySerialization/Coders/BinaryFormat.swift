/// The wire format of a ``BinaryEncoder`` or ``BinaryDecoder``.
public enum BinaryFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The current format: as written by BinaryCodable 3.0.3 and later (including 4.0).
    case v3
    /// The legacy format of BinaryCodable 2.x, for reading and migrating old data.
    case v2

    /// The format's name: `v3` or `v2`.
    public var description: String { rawValue }
}

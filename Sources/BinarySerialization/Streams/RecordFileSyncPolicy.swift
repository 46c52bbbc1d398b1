/// When a record file encoder syncs (`fsync`, and `F_FULLFSYNC` on Apple systems) on its own,
/// besides `sync()` and `close()`.
///
/// A sync happens after the write that reaches either count; a count of `nil` (or below 1) is
/// never reached.
public struct RecordFileSyncPolicy: Hashable, Sendable {
    /// Sync once at least this many elements were written since the last sync.
    public var elements: Int?
    /// Sync once at least this many bytes were written since the last sync.
    public var bytes: Int?

    /// A policy that syncs after `elements` elements or `bytes` bytes, whichever comes first.
    public init(elements: Int? = nil, bytes: Int? = nil) {
        self.elements = elements
        self.bytes = bytes
    }

    /// Sync only on `sync()` and `close()`.
    public static let onClose = RecordFileSyncPolicy()
    /// Sync after every write: when `write` returns, its elements are on stable storage.
    public static let everyWrite = RecordFileSyncPolicy(elements: 1)

    /// A policy that syncs after `elements` elements or `bytes` bytes, whichever comes first.
    public static func every(elements: Int? = nil, bytes: Int? = nil) -> RecordFileSyncPolicy {
        RecordFileSyncPolicy(elements: elements, bytes: bytes)
    }

    /// Whether a sync is due after `elements` elements and `bytes` bytes since the last one.
    func isDue(elements written: Int, bytes writtenBytes: Int) -> Bool {
        if let elements, elements > 0, written >= elements { return true }
        if let bytes, bytes > 0, writtenBytes >= bytes { return true }
        return false
    }
}

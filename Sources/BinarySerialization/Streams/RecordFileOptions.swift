public import Foundation

/// How ``BinaryFileEncoder`` and ``BinaryAsyncFileEncoder`` treat the file they append to.
///
/// The defaults repair a torn last element and leave syncing to ``BinaryFileEncoder/close()``
/// and ``BinaryFileEncoder/sync()``.
public struct RecordFileOptions: Sendable {
    /// Whether an element cut short at the end of the file (what a crash or power loss during a
    /// write leaves) is cut off before appending: `true` by default.
    ///
    /// A torn element was never acknowledged (the `write` that wrote it did not return), so
    /// cutting it loses nothing a writer was told is stored, while appending after it would make
    /// every later element unreadable. With `false`, opening (or a later write that finds a torn
    /// element left by another writer) throws ``RecordFileError`` with code
    /// ``RecordFileError/Code/tornTail`` and the offset where the torn element starts; repair by
    /// opening with `true`, or by cutting the file to that offset.
    ///
    /// Bytes that are not a valid element and are followed by more bytes are never cut (code
    /// ``RecordFileError/Code/corruptElement``), whatever this says.
    public var repairsTornTail: Bool
    /// When the encoder asks the system to put the written elements on stable storage.
    public var syncPolicy: RecordFileSyncPolicy
    /// Called with each repair, when it is made (on the thread that opens or writes); the
    /// encoder's `repairs` lists them too.
    public var onRepair: (@Sendable (RecordFileRepair) -> Void)?

    /// Options with the given values; the defaults repair torn elements and sync only on
    /// `close()` and `sync()`.
    public init(
        repairsTornTail: Bool = true, syncPolicy: RecordFileSyncPolicy = .onClose,
        onRepair: (@Sendable (RecordFileRepair) -> Void)? = nil
    ) {
        self.repairsTornTail = repairsTornTail
        self.syncPolicy = syncPolicy
        self.onRepair = onRepair
    }
}

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

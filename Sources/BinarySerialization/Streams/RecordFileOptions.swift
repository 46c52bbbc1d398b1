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

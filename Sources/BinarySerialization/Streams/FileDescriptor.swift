import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls of a record file that tests replace: `write`, to fail part-way and check
/// that a failed append leaves no partial element; `truncate`, to fail the cut-back after it; and
/// `sync`, to count or fail syncs.
///
/// Every call returns a count or zero on success and `-errno` on failure, so that a replacement
/// never has to set the thread's `errno`.
package struct FileSystemCalls: Sendable {
    /// Writes up to `count` bytes at the end of the file (the descriptor is in append mode).
    package var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    /// Puts the file's data on stable storage.
    package var sync: @Sendable (_ fd: Int32) -> Int
    /// Cuts the file to `length` bytes (after a failed write).
    package var truncate: @Sendable (_ fd: Int32, _ length: Int64) -> Int

    /// The calls of the operating system.
    package static let system = FileSystemCalls(
        write: { fd, bytes, count in
            let written = sysWrite(fd, bytes, count)
            return written >= 0 ? written : -Int(errno)
        },
        sync: { fd in
            switch FileDescriptor.sync(fd) {
            case .success: return 0
            case .failure(let error): return -Int(error.code)
            }
        },
        truncate: { fd, length in
            switch FileDescriptor.truncate(fd, to: length) {
            case .success: return 0
            case .failure(let error): return -Int(error.code)
            }
        })

    /// A set of calls; those not given are the system's.
    package init(
        write: (@Sendable (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int)? = nil,
        sync: (@Sendable (_ fd: Int32) -> Int)? = nil,
        truncate: (@Sendable (_ fd: Int32, _ length: Int64) -> Int)? = nil
    ) {
        self.write = write ?? FileSystemCalls.system.write
        self.sync = sync ?? FileSystemCalls.system.sync
        self.truncate = truncate ?? FileSystemCalls.system.truncate
    }
}

/// The thin layer over the operating system's file calls that ``RecordFile`` uses: each returns
/// a result or the `errno` of the failure, and retries calls interrupted by a signal.
enum FileDescriptor {
    /// Opens `path` for reading and appending, creating it (mode 0644) if it does not exist.
    /// Returns the descriptor and whether this call created the file.
    static func openForAppending(_ path: String) -> Result<(fd: Int32, created: Bool), SystemError> {
        let flags = O_RDWR | O_APPEND | O_CLOEXEC
        let mode = mode_t(0o644)
        while true {
            let created = sysOpen(path, flags | O_CREAT | O_EXCL, mode)
            if created >= 0 { return .success((created, true)) }
            let createErrno = errno
            if createErrno == EINTR { continue }
            guard createErrno == EEXIST else { return .failure(SystemError(createErrno)) }
            let existing = sysOpen(path, flags, mode)
            if existing >= 0 { return .success((existing, false)) }
            let openErrno = errno
            // Removed between the two calls: try to create it again.
            if openErrno == EINTR || openErrno == ENOENT { continue }
            return .failure(SystemError(openErrno))
        }
    }

    /// The size of the open file.
    static func size(_ fd: Int32) -> Result<Int64, SystemError> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(SystemError(errno)) }
        return .success(Int64(info.st_size))
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; fewer only at the end of the file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<
        Int, SystemError
    > {
        guard let base = buffer.baseAddress else { return .success(0) }
        var done = 0
        while done < buffer.count {
            let (position, overflow) = offset.addingReportingOverflow(Int64(done))
            guard !overflow else { return .failure(SystemError(EOVERFLOW)) }
            let got = pread(fd, base + done, buffer.count - done, off_t(position))
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError(errno))
            }
            if got == 0 { break }
            done += got
        }
        return .success(done)
    }

    /// Writes all of `data` at the end of the file through `calls.write`, looping on short
    /// writes. Returns `nil`, or the `errno` of the failure and the bytes written before it.
    static func writeAll(_ data: Data, to fd: Int32, with calls: FileSystemCalls) -> (errno: Int32, written: Int)? {
        let write = calls.write
        return data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var done = 0
            while done < bytes.count {
                let result = write(fd, base + done, bytes.count - done)
                if result > 0 {
                    done += result
                } else if result == -Int(EINTR) {
                    continue
                } else {
                    // A write of nothing would loop forever: report it as an I/O error.
                    return (result < 0 ? Int32(clamping: -result) : EIO, done)
                }
            }
            return nil
        }
    }

    /// Cuts the file to `length` bytes.
    static func truncate(_ fd: Int32, to length: Int64) -> Result<Void, SystemError> {
        while ftruncate(fd, off_t(length)) != 0 {
            if errno != EINTR { return .failure(SystemError(errno)) }
        }
        return .success(())
    }

    /// Takes (`exclusive`) or releases the advisory whole-file lock of this open file: writers
    /// in other processes, and other descriptors of this process, wait for it.
    static func lock(_ fd: Int32, _ exclusive: Bool) -> Result<Void, SystemError> {
        while flock(fd, exclusive ? LOCK_EX : LOCK_UN) != 0 {
            if errno != EINTR { return .failure(SystemError(errno)) }
        }
        return .success(())
    }

    /// Asks the system to put the file's data on stable storage (on Apple systems past the
    /// drive's cache, which `fsync` alone does not).
    static func sync(_ fd: Int32) -> Result<Void, SystemError> {
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return .success(()) }
        #endif
        while fsync(fd) != 0 {
            if errno != EINTR { return .failure(SystemError(errno)) }
        }
        return .success(())
    }

    /// Syncs the directory at `path`, so that a file created in it survives power loss.
    static func syncDirectory(_ path: String) -> Result<Void, SystemError> {
        let fd = sysOpen(path, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { return .failure(SystemError(errno)) }
        defer { _ = sysClose(fd) }
        return sync(fd)
    }

    /// Closes the descriptor. It is closed even when this reports an error.
    static func close(_ fd: Int32) -> Result<Void, SystemError> {
        sysClose(fd) == 0 ? .success(()) : .failure(SystemError(errno))
    }
}

/// An `errno` value, with the system's text for it.
struct SystemError: Error, Hashable {
    let code: Int32

    init(_ code: Int32) { self.code = code }

    var message: String { String(cString: strerror(code)) }
}

// The system functions under names the static members above do not shadow.
private func sysOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func sysClose(_ fd: Int32) -> Int32 { close(fd) }
private func sysWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

import BinarySerialization
import Foundation

/// Where the command reads its input and writes its output: the process's standard streams,
/// or (in tests) buffers.
public struct ToolContext: Sendable {
    /// Opens standard input (`-` or no file).
    public var standardInput: @Sendable () -> any ByteSource
    /// Writes to standard output.
    public var output: @Sendable (String) -> Void
    /// Writes to standard error.
    public var errorOutput: @Sendable (String) -> Void

    /// A context with the given streams.
    public init(
        standardInput: @escaping @Sendable () -> any ByteSource,
        output: @escaping @Sendable (String) -> Void,
        errorOutput: @escaping @Sendable (String) -> Void
    ) {
        self.standardInput = standardInput
        self.output = output
        self.errorOutput = errorOutput
    }

    /// The process's standard input, output and error.
    public static let process = ToolContext(
        standardInput: { FileHandleSource(FileHandle.standardInput) },
        output: { print($0, terminator: "") },
        errorOutput: { text in
            fflush(nil)  // what was printed comes first
            FileHandle.standardError.write(Data(text.utf8))
        })

    /// The context of the command being run.
    @TaskLocal static var current = ToolContext.process
}

/// A source of bytes read in chunks.
public protocol ByteSource: AnyObject {
    /// Up to `count` more bytes; empty at the end of the input.
    func read(upTo count: Int) throws -> Data
}

/// Bytes from a file handle.
public final class FileHandleSource: ByteSource {
    let handle: FileHandle
    /// A source reading `handle`.
    public init(_ handle: FileHandle) { self.handle = handle }
    public func read(upTo count: Int) throws -> Data { try handle.read(upToCount: count) ?? Data() }
}

/// Bytes held in memory (for tests).
public final class DataSource: ByteSource {
    let data: Data
    var position = 0
    /// A source giving `data`.
    public init(_ data: Data) { self.data = data }
    public func read(upTo count: Int) throws -> Data {
        let end = min(data.count, position + count)
        defer { position = end }
        return data.subdata(in: data.startIndex + position..<data.startIndex + end)
    }
}

/// Bad input: the message is printed after `error:` and the command exits with status 1.
struct InputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The size of the chunks files and standard input are read in.
let chunkSize = 64 << 10

/// Opens the file at `path`, or standard input for `-`.
func openInput(_ path: String) throws -> any ByteSource {
    if path == "-" { return ToolContext.current.standardInput() }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError("\(path): no such file")
    }
    guard !isDirectory.boolValue else { throw InputError("\(path): is a directory") }
    do {
        return FileHandleSource(try FileHandle(forReadingFrom: URL(fileURLWithPath: path)))
    } catch {
        throw InputError("\(path): cannot be opened (\(error.localizedDescription))")
    }
}

/// The first bytes of an input, read in chunks up to a cap.
struct InputPrefix {
    /// The bytes read: all of the input when `isComplete`.
    var data: Data
    /// Whether the input ended within the cap.
    var isComplete: Bool
}

/// Reads the file at `path` (standard input for `-`) in chunks, keeping at most `cap` bytes:
/// memory stays bounded whatever the input's size.
func readInput(_ path: String, cap: Int) throws -> InputPrefix {
    let source = try openInput(path)
    var data = Data()
    do {
        while data.count <= cap {
            // One byte past the cap tells a larger input from one of exactly `cap` bytes;
            // `cap - data.count` is not negative here, and `+ 1` only runs below `chunkSize`.
            let left = cap - data.count
            let chunk = try source.read(upTo: left < chunkSize ? left + 1 : chunkSize)
            if chunk.isEmpty { return InputPrefix(data: data, isComplete: true) }
            data.append(chunk)
        }
    } catch {
        throw InputError("\(inputName(path)): cannot be read (\(error.localizedDescription))")
    }
    return InputPrefix(data: data.prefix(cap), isComplete: false)
}

/// How messages name the input at `path`.
func inputName(_ path: String) -> String { path == "-" ? "standard input" : path }

/// Writes `line` and a newline to the output.
func emit(_ line: String) { ToolContext.current.output(line + "\n") }

/// A readable account of a library error, with the byte offset (shifted by `base`) when it has one.
func describe(_ error: any Error, base: Int = 0) -> String {
    if let input = error as? InputError { return input.description }
    if let incomplete = underlyingError(error) as? IncompleteElementError {
        return
            "the input ends inside element \(incomplete.completeElements): \(plural(incomplete.leftoverBytes, "byte")) "
            + "of it arrived at byte offset \(incomplete.offset)"
    }
    var wire = error as? WireFormatError
    var text = String(describing: error)
    if let decoding = error as? DecodingError {
        switch decoding {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            text = c.debugDescription
            wire = c.underlyingError as? WireFormatError
        @unknown default: break
        }
    }
    if let wire {
        if let offset = wire.offset { return "\(wire.message) at byte offset \(base &+ offset)" }
        return wire.message
    }
    return text
}

/// The error a `DecodingError` wraps, or `error` itself.
func underlyingError(_ error: any Error) -> (any Error)? {
    switch error as? DecodingError {
    case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
        return c.underlyingError
    default:
        return error
    }
}

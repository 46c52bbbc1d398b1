import BinarySerialization
import Foundation
import Testing

/// `BinaryStreamSplitter`: the element ranges of a v3 stream, whatever the chunking, by the
/// stream decoder's own framing rule.
@Suite struct BinaryStreamSplitterTests {
    // Element 0: Int 5 (02 0a); element 1: nil (01); element 2: empty (00); element 3: "abc".
    static let stream: [UInt8] = [0x04, 0x0a, 0x0b, 0x01, 0x00, 0x06, 0x61, 0x62, 0x63]

    static func split(_ bytes: [UInt8], chunk: Int, retaining: Int = .max) throws -> [BinaryStreamSplitter.Element] {
        var splitter = BinaryStreamSplitter(retainingElementsUpTo: retaining)
        var out: [BinaryStreamSplitter.Element] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            splitter.add(bytes[start..<min(start + chunk, bytes.count)])
            while let element = try splitter.nextElement() { out.append(element) }
        }
        try splitter.finish()
        return out
    }

    @Test(arguments: 1...9) func anyChunking(_ chunk: Int) throws {
        let elements = try Self.split(Self.stream, chunk: chunk)
        #expect(elements.map(\.index) == [0, 1, 2, 3])
        #expect(elements.map(\.prefixOffset) == [0, 3, 4, 5])
        #expect(elements.map(\.range) == [1..<3, nil, 5..<5, 6..<9])
        #expect(elements.map(\.bytes) == [[0x0a, 0x0b], nil, [], [0x61, 0x62, 0x63]])
    }

    @Test func largeElementsAreSkippedNotKept() throws {
        let elements = try Self.split(Self.stream, chunk: 2, retaining: 2)
        #expect(elements.map(\.range) == [1..<3, nil, 5..<5, 6..<9])
        #expect(elements.map(\.bytes) == [[0x0a, 0x0b], nil, [], nil])
    }

    @Test func errorsNameTheElementAndTheStreamOffset() throws {
        // 2,000 empty elements, then `80 00`: an over-long varint as a prefix.
        let bytes = [UInt8](repeating: 0, count: 2_000) + [0x80, 0x00]
        #expect {
            _ = try Self.split(bytes, chunk: 100)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError,
                let wire = context.underlyingError as? WireFormatError
            else { return false }
            return wire.offset == 2_000 && wire.message == "element 2000: over-long varint"
        }
    }

    @Test func finishNamesTheIncompleteElement() throws {
        #expect {
            _ = try Self.split(Self.stream.dropLast(), chunk: 4)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError,
                let incomplete = context.underlyingError as? IncompleteElementError
            else { return false }
            return incomplete.completeElements == 3 && incomplete.offset == 5
        }
        // A skipped element cut short is reported from its prefix too.
        #expect(throws: DecodingError.self) { _ = try Self.split(Self.stream.dropLast(), chunk: 4, retaining: 0) }
    }
}

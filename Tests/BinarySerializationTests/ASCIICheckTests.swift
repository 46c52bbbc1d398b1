import Testing

@testable import BinarySerialization

/// `isASCII`, the first check of every string key read from bytes: it reads eight bytes at a
/// time, then one at a time, and must read neither past nor before the range it is given.
@Suite struct ASCIICheckTests {
    /// Ranges of every length from 0 to 20, at every offset from 0 to 8, inside a buffer whose
    /// other bytes are all 0xff: a read outside the range would see one.
    @Test func readsOnlyItsRange() {
        let buffer = [UInt8](repeating: 0xff, count: 40)
        for offset in 0...8 {
            for length in 0...20 {
                var bytes = buffer
                for i in offset..<(offset + length) { bytes[i] = UInt8(ascii: "a") }
                bytes.withUnsafeBytes { all in
                    let range = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                    #expect(isASCII(range), "offset \(offset), length \(length)")
                }
            }
        }
    }

    /// A byte of 0x80 or more is found at every position of every length.
    @Test(arguments: [0x80, 0xc3, 0xff] as [UInt8])
    func findsAByteAboveASCIIAnywhere(_ high: UInt8) {
        for length in 1...20 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = high
                bytes.withUnsafeBytes { #expect(!isASCII($0), "length \(length), position \(position)") }
            }
        }
    }
}

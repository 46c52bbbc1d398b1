public import Foundation

// The bytes of the per-type coding members are those the wire holds for the value with that
// encoding; the rules themselves are in IntegerWireRules.swift.

/// The varint of `bits`.
private func varintData(_ bits: UInt64) -> Data {
    var data = Data()
    data.reserveCapacity(9)
    forEachVarintByte(bits) { data.append($0) }
    return data
}

/// The value of the one varint that is all of `data`, if it fits `bits` bits.
private func varintBits(_ data: Data, fitting bits: Int, for type: String) throws -> UInt64 {
    let reading = data.withUnsafeBytes { readVarint($0, from: 0, end: $0.count) }
    switch reading {
    case .value(let value, let next):
        guard next == data.count else {
            throw WireFormatError(
                .trailingBytes, "\(data.count - next) bytes after the varint of \(type)", offset: next)
        }
        guard bits >= 64 || value >> UInt64(bits) == 0 else {
            throw WireFormatError(.invalidBytes, "varint \(value) does not fit \(type)", offset: 0)
        }
        return value
    case .truncated: throw WireFormatError(.truncated, "the data ends before the varint of \(type)", offset: 0)
    case .overLong: throw WireFormatError(.invalidBytes, "over-long varint", offset: 0)
    }
}

extension FixedWidthInteger {
    /// The value's bytes, little-endian.
    fileprivate var littleEndianData: Data { withUnsafeBytes(of: littleEndian) { Data($0) } }
    /// The value's bytes, big-endian.
    fileprivate var bigEndianData: Data { withUnsafeBytes(of: bigEndian) { Data($0) } }

    /// Reads exactly `MemoryLayout<Self>.size` bytes stored in the given byte order.
    fileprivate init(fixedSize data: Data, bigEndian: Bool, for type: String) throws {
        let size = MemoryLayout<Self>.size
        guard data.count == size else {
            throw WireFormatError(.invalidBytes, "\(type) takes \(size) bytes, found \(data.count)", offset: 0)
        }
        var raw = Self.zero
        withUnsafeMutableBytes(of: &raw) { target in data.withUnsafeBytes { target.copyMemory(from: $0) } }
        self = bigEndian ? Self(bigEndian: raw) : Self(littleEndian: raw)
    }
}

// MARK: Fixed size

extension Bool: FixedSizeEncodable, FixedSizeDecodable {
    /// One byte: `01` for true, `00` for false.
    public var fixedSizeEncoded: Data { Data([self ? 1 : 0]) }
    /// Reads the byte `00` or `01`.
    public init(fromFixedSize data: Data) throws {
        switch try UInt8(fixedSize: data, bigEndian: false, for: "Bool") {
        case 0: self = false
        case 1: self = true
        case let b: throw WireFormatError(.invalidBytes, "a Bool must be 0 or 1, found \(b)", offset: 0)
        }
    }
}

extension Float: FixedSizeEncodable, FixedSizeDecodable {
    /// The 4 bytes of the bit pattern, big-endian, as the wire stores a `Float`.
    public var fixedSizeEncoded: Data { bitPattern.bigEndianData }
    /// Reads 4 bytes, big-endian.
    public init(fromFixedSize data: Data) throws {
        self.init(bitPattern: try UInt32(fixedSize: data, bigEndian: true, for: "Float"))
    }
}

extension Double: FixedSizeEncodable, FixedSizeDecodable {
    /// The 8 bytes of the bit pattern, big-endian, as the wire stores a `Double`.
    public var fixedSizeEncoded: Data { bitPattern.bigEndianData }
    /// Reads 8 bytes, big-endian.
    public init(fromFixedSize data: Data) throws {
        self.init(bitPattern: try UInt64(fixedSize: data, bigEndian: true, for: "Double"))
    }
}

extension Int8: FixedSizeEncodable, FixedSizeDecodable {
    /// One byte, the bit pattern.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads one byte.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "Int8") }
}

extension UInt8: FixedSizeEncodable, FixedSizeDecodable {
    /// One byte.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads one byte.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "UInt8") }
}

extension Int16: FixedSizeEncodable, FixedSizeDecodable {
    /// 2 bytes, little-endian.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads 2 bytes, little-endian.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "Int16") }
}

extension UInt16: FixedSizeEncodable, FixedSizeDecodable {
    /// 2 bytes, little-endian.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads 2 bytes, little-endian.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "UInt16") }
}

extension Int32: FixedSizeEncodable, FixedSizeDecodable {
    /// 4 bytes, little-endian.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads 4 bytes, little-endian.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "Int32") }
}

extension UInt32: FixedSizeEncodable, FixedSizeDecodable {
    /// 4 bytes, little-endian.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads 4 bytes, little-endian.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "UInt32") }
}

extension Int64: FixedSizeEncodable, FixedSizeDecodable {
    /// 8 bytes, little-endian.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads 8 bytes, little-endian.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "Int64") }
}

extension UInt64: FixedSizeEncodable, FixedSizeDecodable {
    /// 8 bytes, little-endian.
    public var fixedSizeEncoded: Data { littleEndianData }
    /// Reads 8 bytes, little-endian.
    public init(fromFixedSize data: Data) throws { try self.init(fixedSize: data, bigEndian: false, for: "UInt64") }
}

extension Int: FixedSizeEncodable, FixedSizeDecodable {
    /// 8 bytes, little-endian, on every platform (the wire stores an `Int` as an `Int64`).
    public var fixedSizeEncoded: Data { Int64(self).littleEndianData }
    /// Reads 8 bytes, little-endian; throws if the value does not fit `Int` (32-bit platforms).
    public init(fromFixedSize data: Data) throws {
        let wide = try Int64(fixedSize: data, bigEndian: false, for: "Int")
        guard let value = Int(exactly: wide) else {
            throw WireFormatError(.invalidBytes, "\(wide) does not fit Int", offset: 0)
        }
        self = value
    }
}

extension UInt: FixedSizeEncodable, FixedSizeDecodable {
    /// 8 bytes, little-endian, on every platform (the wire stores a `UInt` as a `UInt64`).
    public var fixedSizeEncoded: Data { UInt64(self).littleEndianData }
    /// Reads 8 bytes, little-endian; throws if the value does not fit `UInt` (32-bit platforms).
    public init(fromFixedSize data: Data) throws {
        let wide = try UInt64(fixedSize: data, bigEndian: false, for: "UInt")
        guard let value = UInt(exactly: wide) else {
            throw WireFormatError(.invalidBytes, "\(wide) does not fit UInt", offset: 0)
        }
        self = value
    }
}

// MARK: Variable length

extension Int16: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the 16-bit pattern.
    public var variableLengthEncoding: Data { varintData(UInt64(UInt16(bitPattern: self))) }
    /// Reads a varint of at most 16 bits, as a bit pattern.
    public init(fromVarint data: Data) throws {
        self.init(bitPattern: UInt16(truncatingIfNeeded: try varintBits(data, fitting: 16, for: "Int16")))
    }
}

extension UInt16: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the value.
    public var variableLengthEncoding: Data { varintData(UInt64(self)) }
    /// Reads a varint of at most 16 bits.
    public init(fromVarint data: Data) throws {
        self.init(truncatingIfNeeded: try varintBits(data, fitting: 16, for: "UInt16"))
    }
}

extension Int32: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the 32-bit pattern.
    public var variableLengthEncoding: Data { varintData(UInt64(UInt32(bitPattern: self))) }
    /// Reads a varint of at most 32 bits, as a bit pattern.
    public init(fromVarint data: Data) throws {
        self.init(bitPattern: UInt32(truncatingIfNeeded: try varintBits(data, fitting: 32, for: "Int32")))
    }
}

extension UInt32: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the value.
    public var variableLengthEncoding: Data { varintData(UInt64(self)) }
    /// Reads a varint of at most 32 bits.
    public init(fromVarint data: Data) throws {
        self.init(truncatingIfNeeded: try varintBits(data, fitting: 32, for: "UInt32"))
    }
}

extension Int64: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the 64-bit pattern.
    public var variableLengthEncoding: Data { varintData(UInt64(bitPattern: self)) }
    /// Reads a varint, as a bit pattern.
    public init(fromVarint data: Data) throws {
        self.init(bitPattern: try varintBits(data, fitting: 64, for: "Int64"))
    }
}

extension UInt64: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the value.
    public var variableLengthEncoding: Data { varintData(self) }
    /// Reads a varint.
    public init(fromVarint data: Data) throws {
        self = try varintBits(data, fitting: 64, for: "UInt64")
    }
}

extension Int: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the 64-bit pattern.
    public var variableLengthEncoding: Data { varintData(UInt64(bitPattern: Int64(self))) }
    /// Reads a varint, as a 64-bit pattern; throws if the value does not fit `Int`.
    public init(fromVarint data: Data) throws {
        let wide = Int64(bitPattern: try varintBits(data, fitting: 64, for: "Int"))
        guard let value = Int(exactly: wide) else {
            throw WireFormatError(.invalidBytes, "\(wide) does not fit Int", offset: 0)
        }
        self = value
    }
}

extension UInt: VariableLengthEncodable, VariableLengthDecodable {
    /// The varint of the value.
    public var variableLengthEncoding: Data { varintData(UInt64(self)) }
    /// Reads a varint; throws if the value does not fit `UInt`.
    public init(fromVarint data: Data) throws {
        let wide = try varintBits(data, fitting: 64, for: "UInt")
        guard let value = UInt(exactly: wide) else {
            throw WireFormatError(.invalidBytes, "\(wide) does not fit UInt", offset: 0)
        }
        self = value
    }
}

// MARK: Zig-zag

extension Int16: ZigZagEncodable, ZigZagDecodable {
    /// The varint of the value zig-zag mapped in 16 bits.
    public var zigZagEncoded: Data { varintData(zigZag(self)) }
    /// Reads a varint of at most 16 bits and undoes the zig-zag mapping.
    public init(fromZigZag data: Data) throws {
        self.init(truncatingIfNeeded: unZigZag(try varintBits(data, fitting: 16, for: "Int16")))
    }
}

extension Int32: ZigZagEncodable, ZigZagDecodable {
    /// The varint of the value zig-zag mapped in 32 bits.
    public var zigZagEncoded: Data { varintData(zigZag(self)) }
    /// Reads a varint of at most 32 bits and undoes the zig-zag mapping.
    public init(fromZigZag data: Data) throws {
        self.init(truncatingIfNeeded: unZigZag(try varintBits(data, fitting: 32, for: "Int32")))
    }
}

extension Int64: ZigZagEncodable, ZigZagDecodable {
    /// The varint of the value zig-zag mapped in 64 bits.
    public var zigZagEncoded: Data { varintData(zigZag(self)) }
    /// Reads a varint and undoes the zig-zag mapping.
    public init(fromZigZag data: Data) throws {
        self = unZigZag(try varintBits(data, fitting: 64, for: "Int64"))
    }
}

extension Int: ZigZagEncodable, ZigZagDecodable {
    /// The varint of the value zig-zag mapped in 64 bits.
    public var zigZagEncoded: Data { varintData(zigZag(Int64(self))) }
    /// Reads a varint and undoes the zig-zag mapping; throws if the value does not fit `Int`.
    public init(fromZigZag data: Data) throws {
        let wide = unZigZag(try varintBits(data, fitting: 64, for: "Int"))
        guard let value = Int(exactly: wide) else {
            throw WireFormatError(.invalidBytes, "\(wide) does not fit Int", offset: 0)
        }
        self = value
    }
}

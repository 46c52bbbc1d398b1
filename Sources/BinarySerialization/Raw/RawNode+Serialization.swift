public import Foundation

extension RawNode {
    /// The bytes the node stands for: exactly the input it was read from, or, for an edited or
    /// hand-built node, its fields and elements framed as the wire format frames them (a field
    /// with a ``RawField/wireType`` is framed as v2, one without as v3).
    ///
    /// - Complexity: O(n · depth) in the size of the output.
    public func serialized() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        write(to: &out)
        return Data(out)
    }

    func write(to out: inout [UInt8]) {
        switch content {
        case .bytes(let b, _):
            out.append(contentsOf: b)
        case .unkeyed(let elements):
            for element in elements { Self.writeV3Element(element, to: &out) }
        case .keyed(let fields):
            for field in fields {
                if let wireType = field.wireType {
                    Self.writeV2Field(field, wireType: wireType, to: &out)
                } else {
                    Self.writeV3Key(field.key, to: &out)
                    Self.writeV3Element(field.value, to: &out)
                }
            }
        }
    }

    private static func writeV3Key(_ key: RawKey, to out: inout [UInt8]) {
        switch key {
        case .int(let k):
            // A raw reading's v3 key is at most Int.max (the prefix's top bit is shifted out).
            RawVarint.write(V3Framing.intKeyPrefix(Int(truncatingIfNeeded: k)), to: &out)
        case .string(let s):
            RawVarint.write(V3Framing.stringKeyPrefix(byteCount: s.utf8.count), to: &out)
            out.append(contentsOf: s.utf8)
        }
    }

    private static func writeV3Element(_ node: RawNode?, to out: inout [UInt8]) {
        guard let node else {
            out.append(V3Framing.nilByte)
            return
        }
        let body = node.serializedBytes()
        RawVarint.write(V3Framing.elementPrefix(length: body.count), to: &out)
        out.append(contentsOf: body)
    }

    private static func writeV2Key(_ key: RawKey, wireType: UInt8, to out: inout [UInt8]) {
        switch key {
        case .int(let bits):
            RawVarint.write(V2Framing.prefix(keyBits: bits, wireTypeBits: wireType), to: &out)
        case .string(let s):
            RawVarint.write(V2Framing.stringKeyPrefix(byteCount: s.utf8.count, wireTypeBits: wireType), to: &out)
            out.append(contentsOf: s.utf8)
        }
    }

    private static func writeV2Field(_ field: RawField, wireType: UInt8, to out: inout [UInt8]) {
        writeV2Key(field.key, wireType: wireType, to: &out)
        guard let value = field.value else { return }
        if wireType == 2 {
            let body = value.serializedBytes()
            RawVarint.write(UInt64(body.count), to: &out)
            out.append(contentsOf: body)
        } else {
            value.write(to: &out)
        }
    }

    /// The node's bytes as an array.
    func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        write(to: &out)
        return out
    }
}

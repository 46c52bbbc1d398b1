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
                    Self.writeKey(field.key, shift: 1, flags: 0, stringFlag: 1, to: &out)
                    Self.writeV3Element(field.value, to: &out)
                }
            }
        }
    }

    /// A key: `varint(k << shift | flags)`, or `varint(len << shift | stringFlag | flags)` + UTF-8.
    private static func writeKey(_ key: RawKey, shift: UInt64, flags: UInt64, stringFlag: UInt64, to out: inout [UInt8])
    {
        switch key {
        case .int(let k):
            RawVarint.write(k &<< shift | flags, to: &out)
        case .string(let s):
            RawVarint.write(UInt64(s.utf8.count) &<< shift | stringFlag | flags, to: &out)
            out.append(contentsOf: s.utf8)
        }
    }

    private static func writeV3Element(_ node: RawNode?, to out: inout [UInt8]) {
        guard let node else {
            out.append(1)
            return
        }
        let body = node.serializedBytes()
        RawVarint.write(UInt64(body.count) &<< 1, to: &out)
        out.append(contentsOf: body)
    }

    private static func writeV2Field(_ field: RawField, wireType: UInt8, to out: inout [UInt8]) {
        writeKey(field.key, shift: 4, flags: UInt64(wireType & 7), stringFlag: 8, to: &out)
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

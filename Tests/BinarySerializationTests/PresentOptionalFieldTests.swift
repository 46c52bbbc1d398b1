import BinarySerialization
import Foundation
import Testing

// A keyed container's `encodeIfPresent` of a present primitive writes, in protobuf, what
// `encode(Optional(value))` writes (the generic path, through `Optional`'s own `encode(to:)`: a
// field with presence, a default value written), with the same error where proto3 has no type for
// the primitive; in v3 and v2, what `encode(value)` writes (BinaryCodable's rule: the value).
@Suite struct PresentOptionalFieldTests {
    enum Path { case primitive, optional, unwrapped }

    /// Field 1 through the primitive overload of `encodeIfPresent`, or through the generic
    /// `encode(_:forKey:)` with an `Optional` or with the value unwrapped.
    struct Field<T: Codable & Equatable>: Codable, Equatable {
        var value: T?
        var path = Path.primitive
        enum CodingKeys: Int, CodingKey { case value = 1 }

        init(_ value: T?, _ path: Path = .primitive) {
            self.value = value
            self.path = path
        }

        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(T.self, forKey: .value)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch (path, value) {
            case (.primitive, _): try encodePrimitive(&container)
            case (.optional, let value?): try container.encode(Optional(value), forKey: .value)
            case (.unwrapped, let value?): try container.encode(value, forKey: .value)
            case (_, nil): break
            }
        }

        /// The primitive overload for `T` (the generic one for a type that has none).
        private func encodePrimitive(_ c: inout KeyedEncodingContainer<CodingKeys>) throws {
            switch value {
            case let v as Bool?: try c.encodeIfPresent(v, forKey: .value)
            case let v as String?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Double?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Float?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Int?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Int8?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Int16?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Int32?: try c.encodeIfPresent(v, forKey: .value)
            case let v as Int64?: try c.encodeIfPresent(v, forKey: .value)
            case let v as UInt?: try c.encodeIfPresent(v, forKey: .value)
            case let v as UInt8?: try c.encodeIfPresent(v, forKey: .value)
            case let v as UInt16?: try c.encodeIfPresent(v, forKey: .value)
            case let v as UInt32?: try c.encodeIfPresent(v, forKey: .value)
            case let v as UInt64?: try c.encodeIfPresent(v, forKey: .value)
            default: Issue.record("no primitive overload for \(T.self)")
            }
        }

        static func == (a: Self, b: Self) -> Bool { a.value == b.value }
    }

    /// Bytes, or the error's description, of `value` in each format.
    private func outcomes<T: Codable & Equatable>(_ value: Field<T>) -> [String] {
        func text(_ body: () throws -> Data) -> String {
            do { return try body().map { String(format: "%02x", $0) }.joined() } catch { return "\(error)" }
        }
        return [
            text { try BinaryEncoder().encode(value) },
            text { try BinaryEncoder(format: .v2).encode(value) },
            text { try ProtobufEncoder().encode(value) },
        ]
    }

    private func check<T: Codable & Equatable>(_ values: [T?]) {
        for value in values {
            let primitive = outcomes(Field(value))
            let optional = outcomes(Field(value, .optional))
            let unwrapped = outcomes(Field(value, .unwrapped))
            let expected = [unwrapped[0], unwrapped[1], optional[2]]
            #expect(primitive == expected, "\(T.self) \(String(describing: value))")
        }
    }

    @Test func everyPrimitiveAsTheGenericPathWritesIt() {
        check([true, false, nil])
        check(["", "hé", nil])
        check([0.0, -0.0, 1.5, nil])
        check([Float(0), Float(-2.25), nil])
        check([0, -1, Int.max, nil])
        check([Int8(0), Int8(-3), nil])
        check([Int16(0), Int16(300), nil])
        check([Int32(0), Int32.min, nil])
        check([Int64(0), Int64(-70), nil])
        check([UInt(0), UInt.max, nil])
        check([UInt8(0), UInt8(200), nil])
        check([UInt16(0), UInt16.max, nil])
        check([UInt32(0), UInt32(150), nil])
        check([UInt64(0), UInt64.max, nil])
    }

    @Test func presenceInProtobuf() throws {
        // A present default is written (field 1, varint 0); an absent field is not.
        #expect(try ProtobufEncoder().encode(Field(Int32(0))) == Data([0x08, 0x00]))
        #expect(try ProtobufEncoder().encode(Field(String?.none)) == Data())
        #expect(try ProtobufDecoder().decode(Field<Int32>.self, from: Data([0x08, 0x00])).value == 0)
        // No proto3 type: the same error as the generic path, with the field's path.
        let error = outcomes(Field(Int8(1)))[2]
        #expect(error.contains("Int8"), "\(error)")
        #expect(error.contains("Path: [1]."), "\(error)")
    }
}

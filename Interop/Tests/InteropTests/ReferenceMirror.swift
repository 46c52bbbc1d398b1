import BinarySerialization
import Foundation

// A Codable mirror of Proto/reference.proto (the reference differential's messages). Its messages
// from interop.proto (Scalars, Repeated, Maps, Inner, Color) are Mirror.swift's; a message field has
// presence in proto3, so it is an Optional here, as is each `optional` field.

struct Wrap: Codable, Equatable {
    var inner: Inner? = nil
    var scalars: Scalars? = nil
    var optU64: UInt64? = nil
    var s32: [SignedValue<Int32>] = []
    var byName: [String: Inner] = [:]

    enum CodingKeys: Int, CodingKey { case inner = 1, scalars, optU64, s32, byName }
}

/// `Root.choice`: a member of each wire type (varint, zig-zag, fixed64, length-delimited, message).
enum RootChoice: Codable, Equatable, ProtobufOneOf {
    case choiceI64(Int64)
    case choiceText(String)
    case choiceInner(Inner)
    case choiceS32(SignedValue<Int32>)
    case choiceDb(Double)
    case choiceBlob(Data)
    case choiceF64(FixedSizeEncoded<UInt64>)
    case choiceFlag(Bool)

    enum CodingKeys: Int, CodingKey {
        case choiceI64 = 10, choiceText, choiceInner, choiceS32, choiceDb, choiceBlob, choiceF64, choiceFlag
    }
}

struct Root: Codable, Equatable {
    var scalars: Scalars? = nil
    var repeated: Repeated? = nil
    var maps: Maps? = nil
    var inner: Inner? = nil
    var wrap: Wrap? = nil
    var children: [Root] = []
    var choice: RootChoice? = nil

    var optI32: Int32? = nil
    var optI64: Int64? = nil
    var optU32: UInt32? = nil
    var optU64: UInt64? = nil
    var optS32: SignedValue<Int32>? = nil
    var optS64: SignedValue<Int64>? = nil
    var optF32: FixedSizeEncoded<UInt32>? = nil
    var optF64: FixedSizeEncoded<UInt64>? = nil
    var optSf32: FixedSizeEncoded<Int32>? = nil
    var optSf64: FixedSizeEncoded<Int64>? = nil
    var optFlag: Bool? = nil
    var optFl: Float? = nil
    var optDb: Double? = nil
    var optText: String? = nil
    var optBlob: Data? = nil
    var optColor: Color? = nil

    var mid: Int32 = 0
    @SignedValue var high: Int64 = 0
    var far = ""

    enum CodingKeys: Int, CodingKey {
        case scalars = 1, repeated, maps, inner, wrap, children
        case choice = 9  // not written: the members are fields 10...17 (9 comes as an unknown field too)
        case optI32 = 30, optI64, optU32, optU64, optS32, optS64, optF32, optF64, optSf32, optSf64
        case optFlag, optFl, optDb, optText, optBlob, optColor
        case mid = 2047
        case high = 20000
        case far = 536_870_911
    }
}

import BinarySerialization
import Foundation
import InteropMessages

// A Codable mirror of each message of Proto/interop.proto, and the mapping between the two.

enum Color: Int32, Codable, Equatable, CaseIterable {
    case unspecified = 0, red = 1, blue = 2

    var proto: Interop_Color { Interop_Color(rawValue: Int(rawValue)) ?? .unspecified }
    init(_ proto: Interop_Color) { self = Color(rawValue: Int32(proto.rawValue)) ?? .unspecified }
}

struct Scalars: Codable, Equatable {
    var i32: Int32 = 0
    var i64: Int64 = 0
    var u32: UInt32 = 0
    var u64: UInt64 = 0
    @SignedValue var s32: Int32 = 0
    @SignedValue var s64: Int64 = 0
    @FixedSizeEncoded var f32: UInt32 = 0
    @FixedSizeEncoded var f64: UInt64 = 0
    @FixedSizeEncoded var sf32: Int32 = 0
    @FixedSizeEncoded var sf64: Int64 = 0
    var flag = false
    var fl: Float = 0
    var db: Double = 0
    var text = ""
    var blob = Data()
    var color = Color.unspecified

    enum CodingKeys: Int, CodingKey {
        case i32 = 1, i64, u32, u64, s32, s64, f32, f64, sf32, sf64, flag, fl, db, text, blob, color
    }

    var proto: Interop_Scalars {
        .with {
            $0.i32 = i32
            $0.i64 = i64
            $0.u32 = u32
            $0.u64 = u64
            $0.s32 = s32
            $0.s64 = s64
            $0.f32 = f32
            $0.f64 = f64
            $0.sf32 = sf32
            $0.sf64 = sf64
            $0.flag = flag
            $0.fl = fl
            $0.db = db
            $0.text = text
            $0.blob = blob
            $0.color = color.proto
        }
    }
}

struct Inner: Codable, Equatable {
    var a: Int32 = 0
    var b = ""
    enum CodingKeys: Int, CodingKey { case a = 1, b }

    var proto: Interop_Inner {
        .with {
            $0.a = a
            $0.b = b
        }
    }
}

struct Repeated: Codable, Equatable {
    var i32: [Int32] = []
    var i64: [Int64] = []
    var u32: [UInt32] = []
    var u64: [UInt64] = []
    var s32: [SignedValue<Int32>] = []
    var s64: [SignedValue<Int64>] = []
    var f32: [FixedSizeEncoded<UInt32>] = []
    var f64: [FixedSizeEncoded<UInt64>] = []
    var sf32: [FixedSizeEncoded<Int32>] = []
    var sf64: [FixedSizeEncoded<Int64>] = []
    var flag: [Bool] = []
    var fl: [Float] = []
    var db: [Double] = []
    var text: [String] = []
    var blob: [Data] = []
    var color: [Color] = []
    var unpackedI32: [Int32] = []
    var unpackedDb: [Double] = []
    var inner: [Inner] = []

    enum CodingKeys: Int, CodingKey {
        case i32 = 1, i64, u32, u64, s32, s64, f32, f64, sf32, sf64, flag, fl, db, text, blob, color
        case unpackedI32, unpackedDb, inner
    }

    var proto: Interop_Repeated {
        .with {
            $0.i32 = i32
            $0.i64 = i64
            $0.u32 = u32
            $0.u64 = u64
            $0.s32 = s32.map(\.wrappedValue)
            $0.s64 = s64.map(\.wrappedValue)
            $0.f32 = f32.map(\.wrappedValue)
            $0.f64 = f64.map(\.wrappedValue)
            $0.sf32 = sf32.map(\.wrappedValue)
            $0.sf64 = sf64.map(\.wrappedValue)
            $0.flag = flag
            $0.fl = fl
            $0.db = db
            $0.text = text
            $0.blob = blob
            $0.color = color.map(\.proto)
            $0.unpackedI32 = unpackedI32
            $0.unpackedDb = unpackedDb
            $0.inner = inner.map(\.proto)
        }
    }
}

struct Maps: Codable, Equatable {
    var sI32: [String: Int32] = [:]
    var i32S: [Int32: String] = [:]
    var u64Inner: [UInt64: Inner] = [:]
    var s32Db: [SignedValue<Int32>: Double] = [:]
    var flagBlob: [Bool: Data] = [:]
    var f32S64: [FixedSizeEncoded<UInt32>: SignedValue<Int64>] = [:]
    var i64Color: [Int64: Color] = [:]
    var sf64Fl: [FixedSizeEncoded<Int64>: Float] = [:]

    enum CodingKeys: Int, CodingKey { case sI32 = 1, i32S, u64Inner, s32Db, flagBlob, f32S64, i64Color, sf64Fl }

    var proto: Interop_Maps {
        .with {
            $0.sI32 = sI32
            $0.i32S = i32S
            $0.u64Inner = u64Inner.mapValues(\.proto)
            $0.s32Db = Dictionary(uniqueKeysWithValues: s32Db.map { ($0.key.wrappedValue, $0.value) })
            $0.flagBlob = flagBlob
            $0.f32S64 = Dictionary(uniqueKeysWithValues: f32S64.map { ($0.key.wrappedValue, $0.value.wrappedValue) })
            $0.i64Color = i64Color.mapValues(\.proto)
            $0.sf64Fl = Dictionary(uniqueKeysWithValues: sf64Fl.map { ($0.key.wrappedValue, $0.value) })
        }
    }
}

enum Choice: Codable, Equatable, ProtobufOneOf {
    case choiceI64(Int64)
    case choiceText(String)
    case choiceInner(Inner)
    case choiceS32(SignedValue<Int32>)

    enum CodingKeys: Int, CodingKey { case choiceI64 = 10, choiceText, choiceInner, choiceS32 }

    var proto: Interop_Everything.OneOf_Choice {
        switch self {
        case .choiceI64(let v): return .choiceI64(v)
        case .choiceText(let v): return .choiceText(v)
        case .choiceInner(let v): return .choiceInner(v.proto)
        case .choiceS32(let v): return .choiceS32(v.wrappedValue)
        }
    }
}

struct Everything: Codable, Equatable {
    var scalars = Scalars()
    var repeated = Repeated()
    var maps = Maps()
    var inner: Inner? = nil
    var optI32: Int32? = nil
    var optText: String? = nil
    var choice: Choice? = nil
    var children: [Everything] = []

    enum CodingKeys: Int, CodingKey {
        case scalars = 1, repeated, maps, inner, optI32, optText
        case choice = 1000  // not written: the members are fields 10...13
        case children = 20
    }

    var proto: Interop_Everything {
        .with {
            $0.scalars = scalars.proto
            $0.repeated = repeated.proto
            $0.maps = maps.proto
            if let inner { $0.inner = inner.proto }
            if let optI32 { $0.optI32 = optI32 }
            if let optText { $0.optText = optText }
            $0.choice = choice?.proto
            $0.children = children.map(\.proto)
        }
    }
}

/// A reader of `Everything` that knows fields 1, 4 and 5 only: the rest are unknown to it.
struct EverythingLite: Codable, Equatable {
    var scalars = Scalars()
    var inner: Inner? = nil
    var optI32: Int32? = nil
    enum CodingKeys: Int, CodingKey { case scalars = 1, inner = 4, optI32 = 5 }
}

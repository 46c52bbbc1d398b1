import BinarySerialization
import Foundation

/// SplitMix64: a small seeded generator, so a failing run can be repeated from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random values of the mirrored types, biased towards what breaks encoders: zero (the omitted
/// default), the extremes, negative numbers (ten-byte varints), empty strings and collections.
struct RandomValues {
    var rng: SeededGenerator
    /// Values made so far: every scalar, element, key and message counts one.
    var count = 0

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func chance(_ oneIn: UInt64) -> Bool { rng.next() % oneIn == 0 }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
        count += 1
        switch rng.next() % 8 {
        case 0: return 0
        case 1: return .max
        case 2: return .min
        case 3: return T(truncatingIfNeeded: rng.next() % 300)
        case 4: return T.isSigned ? T(truncatingIfNeeded: -Int64(rng.next() % 300)) : 1
        default: return T(truncatingIfNeeded: rng.next() >> (rng.next() % 64))
        }
    }

    mutating func float() -> Float {
        count += 1
        switch rng.next() % 6 {
        case 0: return 0
        case 1: return -0.0
        case 2:
            return [Float.infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude][Int(rng.next() % 4)]
        default:
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            return f.isNaN ? 1.5 : f  // NaN is never equal to itself
        }
    }

    mutating func double() -> Double {
        count += 1
        switch rng.next() % 6 {
        case 0: return 0
        case 1: return -0.0
        case 2:
            return [Double.infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude][Int(rng.next() % 4)]
        default:
            let d = Double(bitPattern: rng.next())
            return d.isNaN ? -2.25 : d
        }
    }

    mutating func bool() -> Bool {
        count += 1
        return rng.next() & 1 == 1
    }

    mutating func string() -> String {
        count += 1
        let alphabet: [Character] = ["a", "b", "Z", "0", " ", "é", "ß", "中", "😀", "\u{0}", "\n"]
        let length = chance(3) ? 0 : Int(rng.next() % 12)
        return String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
    }

    mutating func data() -> Data {
        count += 1
        let length = chance(3) ? 0 : Int(rng.next() % 16)
        return Data((0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    }

    mutating func color() -> Color {
        count += 1
        return Color.allCases[Int(rng.next() % 3)]
    }

    mutating func array<T>(_ make: (inout RandomValues) -> T) -> [T] {
        let n = chance(2) ? 0 : Int(rng.next() % 5)
        var out: [T] = []
        for _ in 0..<n { out.append(make(&self)) }
        return out
    }

    mutating func dictionary<K: Hashable, V>(_ key: (inout RandomValues) -> K, _ value: (inout RandomValues) -> V)
        -> [K: V]
    {
        let n = chance(2) ? 0 : Int(rng.next() % 4)
        var out: [K: V] = [:]
        for _ in 0..<n { out[key(&self)] = value(&self) }
        return out
    }

    mutating func scalars() -> Scalars {
        count += 1
        var s = Scalars()
        // Half the messages keep most fields at their defaults.
        let sparse = chance(2)
        func pick<T>(_ make: () -> T, _ zero: T) -> T { sparse && rng.next() % 4 != 0 ? zero : make() }
        s.i32 = pick({ integer(Int32.self) }, 0)
        s.i64 = pick({ integer(Int64.self) }, 0)
        s.u32 = pick({ integer(UInt32.self) }, 0)
        s.u64 = pick({ integer(UInt64.self) }, 0)
        s.s32 = pick({ integer(Int32.self) }, 0)
        s.s64 = pick({ integer(Int64.self) }, 0)
        s.f32 = pick({ integer(UInt32.self) }, 0)
        s.f64 = pick({ integer(UInt64.self) }, 0)
        s.sf32 = pick({ integer(Int32.self) }, 0)
        s.sf64 = pick({ integer(Int64.self) }, 0)
        s.flag = pick({ bool() }, false)
        s.fl = pick({ float() }, 0)
        s.db = pick({ double() }, 0)
        s.text = pick({ string() }, "")
        s.blob = pick({ data() }, Data())
        s.color = pick({ color() }, .unspecified)
        return s
    }

    mutating func inner() -> Inner {
        count += 1
        return Inner(a: integer(Int32.self), b: string())
    }

    mutating func repeated() -> Repeated {
        count += 1
        var r = Repeated()
        r.i32 = array { $0.integer(Int32.self) }
        r.i64 = array { $0.integer(Int64.self) }
        r.u32 = array { $0.integer(UInt32.self) }
        r.u64 = array { $0.integer(UInt64.self) }
        r.s32 = array { SignedValue(wrappedValue: $0.integer(Int32.self)) }
        r.s64 = array { SignedValue(wrappedValue: $0.integer(Int64.self)) }
        r.f32 = array { FixedSizeEncoded(wrappedValue: $0.integer(UInt32.self)) }
        r.f64 = array { FixedSizeEncoded(wrappedValue: $0.integer(UInt64.self)) }
        r.sf32 = array { FixedSizeEncoded(wrappedValue: $0.integer(Int32.self)) }
        r.sf64 = array { FixedSizeEncoded(wrappedValue: $0.integer(Int64.self)) }
        r.flag = array { $0.bool() }
        r.fl = array { $0.float() }
        r.db = array { $0.double() }
        r.text = array { $0.string() }
        r.blob = array { $0.data() }
        r.color = array { $0.color() }
        r.unpackedI32 = array { $0.integer(Int32.self) }
        r.unpackedDb = array { $0.double() }
        r.inner = array { $0.inner() }
        return r
    }

    mutating func maps() -> Maps {
        count += 1
        var m = Maps()
        m.sI32 = dictionary({ $0.string() }, { $0.integer(Int32.self) })
        m.i32S = dictionary({ $0.integer(Int32.self) }, { $0.string() })
        m.u64Inner = dictionary({ $0.integer(UInt64.self) }, { $0.inner() })
        m.s32Db = dictionary({ SignedValue(wrappedValue: $0.integer(Int32.self)) }, { $0.double() })
        m.flagBlob = dictionary({ $0.bool() }, { $0.data() })
        m.f32S64 = dictionary(
            { FixedSizeEncoded(wrappedValue: $0.integer(UInt32.self)) },
            { SignedValue(wrappedValue: $0.integer(Int64.self)) })
        m.i64Color = dictionary({ $0.integer(Int64.self) }, { $0.color() })
        m.sf64Fl = dictionary({ FixedSizeEncoded(wrappedValue: $0.integer(Int64.self)) }, { $0.float() })
        return m
    }

    mutating func choice() -> Choice? {
        switch rng.next() % 5 {
        case 0: return nil
        case 1: return .choiceI64(integer(Int64.self))
        case 2: return .choiceText(string())
        case 3: return .choiceInner(inner())
        default: return .choiceS32(SignedValue(wrappedValue: integer(Int32.self)))
        }
    }

    /// A message; `depth` bounds its children.
    mutating func everything(depth: Int = 0) -> Everything {
        count += 1
        var e = Everything()
        e.scalars = scalars()
        if !chance(3) { e.repeated = repeated() }
        if !chance(3) { e.maps = maps() }
        e.inner = chance(2) ? nil : inner()
        e.optI32 = chance(2) ? nil : integer(Int32.self)
        e.optText = chance(2) ? nil : string()
        e.choice = choice()
        if depth < 2, chance(4) {
            let n = Int(rng.next() % 3)
            e.children = (0..<n).map { _ in everything(depth: depth + 1) }
        }
        return e
    }
}

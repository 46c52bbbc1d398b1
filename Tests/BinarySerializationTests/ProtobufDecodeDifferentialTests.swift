import Foundation
import Testing

@testable import BinarySerialization

// The typed path (decode) against the tree path (decodeTree, then decode(fromTree:)) on random
// values and corruptions of their bytes (a byte changed, the end cut, a byte inserted, the message
// twice: merged): wherever the typed path reads a value, the tree path reads the same value, unknown
// fields, merged messages and oneofs included. (Google's implementation and swift-protobuf are the
// independent oracles, in Interop/.)
@Suite struct ProtobufDecodeDifferentialTests {
    typealias Shapes = ProtobufStreamDifferentialTests

    /// The typed path's value of `bytes`, or `nil` if it refused them.
    func streamed<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
        try? ProtobufDecoder().decode(T.self, from: Data(bytes))
    }

    func reference<T: Codable>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
        let decoder = ProtobufDecoder()
        return try? decoder.decode(T.self, fromTree: decoder.decodeTree(T.self, from: Data(bytes)))
    }

    /// Checks the one decoder on `value`'s bytes and on `mutations` corruptions of them; returns
    /// whether it took the intact bytes.
    @discardableResult
    func check<T: Codable & Equatable>(
        _ value: T, _ g: inout Shapes.Generator, seed: UInt64, mutations: Int = 4,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bool {
        // Values compare by their bytes (NaN payloads make `==` false; maps and sets are sorted).
        func same(_ a: T?, _ b: T?) -> Bool {
            (try? a.map { try ProtobufEncoder().encode($0) }) == (try? b.map { try ProtobufEncoder().encode($0) })
        }
        let bytes = [UInt8](try ProtobufEncoder().encode(value))
        let taken = streamed(T.self, bytes)
        if let taken { #expect(same(taken, value), "seed \(seed): \(value)", sourceLocation: sourceLocation) }
        for _ in 0..<mutations {
            var mutated = bytes
            switch g.next() % 4 {
            case 0 where !mutated.isEmpty:
                mutated[Int(g.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: g.next())
            case 1 where !mutated.isEmpty: mutated.removeLast(Int(g.next() % UInt64(mutated.count)) + 1)
            case 2: mutated.insert(UInt8(truncatingIfNeeded: g.next()), at: Int(g.next() % UInt64(mutated.count + 1)))
            default: mutated += mutated  // a message twice: merged
            }
            guard let lenient = streamed(T.self, mutated) else { continue }
            let strict = reference(T.self, mutated)
            #expect(
                same(strict, lenient),
                "seed \(seed): \(spacedHex(Data(mutated))) read as \(lenient), reference \(String(describing: strict))",
                sourceLocation: sourceLocation)
        }
        return taken != nil
    }

    @Test func typedAndTreePathsAgree() throws {
        let base = UInt64(ProcessInfo.processInfo.environment["PROTOBUF_SEED"] ?? "") ?? 0xdec0de
        for i in 0..<500 {
            let seed = base &+ UInt64(i)
            var g = Shapes.Generator(rng: SplitMix64(seed: seed))
            #expect(try check(g.scalars(), &g, seed: seed))
            #expect(try check(g.optionals(), &g, seed: seed))
            #expect(try check(g.repeated(), &g, seed: seed))
            #expect(try check(g.maps(), &g, seed: seed))
            #expect(try check(g.nested(), &g, seed: seed))
            #expect(try check(g.choice(), &g, seed: seed))
            #expect(try check(PBChoice(id: g.int(), pick: nil), &g, seed: seed))
        }
    }

    /// Forms other writers use: numbers unpacked, a message's fields out of order, fields the
    /// type does not know, a scalar stored twice.
    @Test func parsersAcceptedFormsAreTaken() {
        // [1, 2] as field 1 unpacked, then packed.
        #expect(streamed(PB1<[Int32]>.self, bytes("08 01 08 02")) == PB1([1, 2]))
        #expect(streamed(PB1<[Int32]>.self, bytes("08 01 0a 02 02 03")) == PB1([1, 2, 3]))
        #expect(streamed(PBInner.self, bytes("10 02 08 01")) == PBInner(a: 1, b: 2))
        #expect(streamed(PBInner.self, bytes("18 05 08 01 25 00 00 00 00")) == PBInner(a: 1, b: 0))
        #expect(streamed(PBInner.self, bytes("08 01 08 07")) == PBInner(a: 7, b: 0))
        #expect(streamed(PB1<[SignedValue<Int32>]>.self, bytes("0a 02 01 02"))?.value.map(\.wrappedValue) == [-1, 1])
        #expect(streamed(PB1<[PBColor]>.self, bytes("08 01 0a 01 02")) == PB1([.red, .blue]))
        #expect(streamed(PB1<[String]>.self, bytes("0a 01 61 0a 00")) == PB1(["a", ""]))
        // An empty packed run holds no number (found by the differential against Google's
        // implementation), while an empty length-delimited string is one element.
        #expect(streamed(PB1<[SignedValue<Int32>]>.self, bytes("0a 01 02 0a 00"))?.value.map(\.wrappedValue) == [1])
        #expect(streamed(PB1<[SignedValue<Int32>]>.self, bytes("0a 00"))?.value.isEmpty == true)
        #expect(streamed(PB1<[PBColor]>.self, bytes("0a 00 08 01 0a 00")) == PB1([.red]))
        #expect(streamed(PB1<Set<FixedSizeEncoded<Int32>>>.self, bytes("0a 00 0d 01 00 00 00"))?.value.count == 1)
        #expect(streamed(PB1<[String]>.self, bytes("0a 00 0a 00")) == PB1(["", ""]))
    }
}

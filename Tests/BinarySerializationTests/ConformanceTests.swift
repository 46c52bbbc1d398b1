import BinarySerialization
import Foundation
import Testing

/// Acceptance 1 of the core and legacy issues: every reference vector that the reference itself
/// could read back, encoded and decoded by us.
@Suite struct ConformanceTests {
    static let v3Vectors = Fixtures.v3.filter(\.roundtrip)
    static let v2Vectors = Fixtures.v2.filter(\.roundtrip)

    @Test func fixturesAreLoaded() {
        #expect(Fixtures.v3.count > 180)
        #expect(Fixtures.v2.count > 180)
        for v in Fixtures.v3 + Fixtures.v2 where v.roundtrip {
            #expect(Fixtures.casesByName[v.name] != nil, "no case for vector \(v.name)")
        }
    }

    @Test(arguments: v3Vectors.map(\.name))
    func v3Vector(_ name: String) throws {
        try check(name, vectors: Fixtures.v3, format: .v3)
    }

    @Test(arguments: v2Vectors.map(\.name))
    func v2Vector(_ name: String) throws {
        try check(name, vectors: Fixtures.v2, format: .v2)
    }

    func check(_ name: String, vectors: [Vector], format: BinaryFormat) throws {
        let vector = try #require(vectors.first { $0.name == name })
        let c = try #require(Fixtures.casesByName[name])
        let codec = ProjectCodec(format: format)
        if vector.det {
            let bytes = try c.encode(codec)
            #expect(hex(bytes) == vector.hex, "\(format) \(name): bytes differ")
        }
        #expect(try c.decodesEqual(codec, vector.bytes), "\(format) \(name): decoded value differs")
    }
}

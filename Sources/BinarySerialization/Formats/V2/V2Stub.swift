import Foundation
import TreeCoding

struct V2Options { var nilIndexSets: Bool }
enum V2Writer {
    static func serialize(_ tree: BinaryValue, nilIndexSets: Bool) throws -> Data {
        throw EncodingError.invalidValue(tree, .init(codingPath: [], debugDescription: "The v2 format is not supported yet."))
    }
}
enum V2Node {
    static func root(_ buffer: UnsafeRawBufferPointer, options: V2Options) throws -> V3Node {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The v2 format is not supported yet."))
    }
}

import SwiftSyntax

/// The text of the generated members, from a checked plan. Module-qualified names keep the code
/// independent of what else the user's file imports.
struct CodeGeneration {
    let plan: CodingPlan
    let shape: TypeShape

    /// `static var binaryCodingKeys`: the key cases in order, the positions `at:` arguments name.
    var codingKeysDecl: DeclSyntax {
        let list = plan.keys.map { "CodingKeys.\($0.spelling)" }
        let body = list.isEmpty ? "[]" : "[\n" + list.map { "    \($0)," }.joined(separator: "\n") + "\n]"
        return DeclSyntax(
            """
            \(raw: shape.accessPrefix)static var binaryCodingKeys: [any CodingKey] {
            \(raw: body)
            }
            """)
    }

    /// `encodeBinaryFields(to:)`: every keyed property, in key order; optionals with `encodeIfPresent`.
    var encodeDecl: DeclSyntax {
        let lines = plan.fields.map { field in
            let property = field.property
            let method = property.optionalWrappedType == nil ? "encode" : "encodeIfPresent"
            return "try fields.\(method)(self.\(property.storageSpelling), at: \(field.index))"
        }
        return DeclSyntax(
            """
            \(raw: shape.accessPrefix)func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {\(raw: Self.body(lines))}
            """)
    }

    /// `init(binaryFields:)`: every keyed property that synthesized `Decodable` assigns, in key order;
    /// a `let` with an initial value keeps it.
    var initDecl: DeclSyntax {
        var lines: [String] = []
        for field in plan.fields where field.property.isDecoded {
            let property = field.property
            if let wrapped = property.optionalWrappedType {
                lines.append(
                    "self.\(property.storageSpelling) = try fields.decodeIfPresent(\(wrapped.metatypeExpression), at: \(field.index))"
                )
            } else if let type = property.codedType {
                lines.append(
                    "self.\(property.storageSpelling) = try fields.decode(\(type.metatypeExpression), at: \(field.index))"
                )
            }
        }
        return DeclSyntax(
            """
            \(raw: shape.accessPrefix)init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {\(raw: Self.body(lines))}
            """)
    }

    /// The statements of a body, one a line; an empty body stays `{}`.
    private static func body(_ lines: [String]) -> String {
        lines.isEmpty ? "" : "\n" + lines.joined(separator: "\n") + "\n"
    }
}

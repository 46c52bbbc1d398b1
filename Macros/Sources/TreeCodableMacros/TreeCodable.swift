@_exported import BinarySerialization

/// Generates a conformance to `GeneratedBinaryCodable` for a `Codable` struct or final class, so
/// `BinaryEncoder` and `BinaryDecoder` write and read each field with static dispatch instead of
/// through `Encoder`/`Decoder` existentials.
///
/// The generated code does what the type's synthesized `Codable` does, key for key and in the same
/// order: the cases of its `CodingKeys` enum, or else every stored property in declaration order;
/// optionals with `encodeIfPresent`/`decodeIfPresent`; a `let` with an initial value encoded but not
/// decoded; a wrapped property `@W var x: T` as its storage `_x` of type `W<T>`. The type keeps its
/// synthesized `Codable`, which other coders go on using.
///
/// ```swift
/// @TreeCodable
/// struct Point: Codable {
///     var x: Int
///     var y: Int
///     var label: String?
/// }
/// ```
///
/// Each coded property's type must be written in its declaration. A hand-written `init(from:)` or
/// `encode(to:)`, a non-final class, an enum or an actor is refused with an error that says why.
@attached(
    extension, conformances: GeneratedBinaryCodable,
    names: named(binaryCodingKeys), named(encodeBinaryFields), named(init(binaryFields:)))
@attached(member, names: named(init(binaryFields:)))
public macro TreeCodable() = #externalMacro(module: "TreeCodableMacrosPlugin", type: "TreeCodableMacro")

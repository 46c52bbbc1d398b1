/// There is deliberately no `nil` literal: with optional subscripts, `tree[3] == nil` would then
/// compare against the `.nil` node. Write `.nil` for the node.
extension BinaryValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `true` / `false` is a ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is an ``int(_:_:)`` (zig-zag, like `Int`).
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal is a ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal is a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is an ``unkeyed(_:)`` container.
    public init(arrayLiteral elements: BinaryValue...) { self = .unkeyed(elements) }
    /// A dictionary literal is a ``keyed(_:)`` container, in literal order.
    public init(dictionaryLiteral elements: (BinaryKey, BinaryValue)...) { self = .keyed(KeyedFields(elements)) }
}

import Foundation

/// The primitives whose arrays and sets are one node: a packed array for the numbers and `Bool`
/// (``PackedElement``), an unkeyed container of leaves for `String` and `Data`.
protocol PlainTreeArrayElement: TreeScalar {
    /// The elements of the array at `step` below `parent`, stored in `node`.
    static func decodePlainTreeArray(from node: BinaryValue, parent: TreePath, step: PathStep?)
        throws -> [Self]
}

extension PlainTreeArrayElement where Self: PackedElement {
    static func decodePlainTreeArray(from node: BinaryValue, parent: TreePath, step: PathStep?)
        throws -> [Self]
    {
        try elements(of: node.treePacked(packedKind))
    }
}

extension PlainTreeArrayElement {
    /// Element by element through the unkeyed view; an element's error names its index.
    static func decodePlainTreeArray(from node: BinaryValue, parent: TreePath, step: PathStep?)
        throws -> [Self]
    {
        var view = try node.treeUnkeyedView()
        var elements: [Self] = []
        elements.reserveCapacity(view.count ?? 0)
        while !view.isAtEnd {
            let index = view.currentIndex
            do { elements.append(try plainTreeValue(of: view.nextElement())) } catch {
                throw plainTreeDecodingError(
                    error, Self.self, parent.appending(step).codingPath(appending: .index(index)))
            }
        }
        return elements
    }
}

extension Bool: PlainTreeArrayElement {}
extension Int8: PlainTreeArrayElement {}
extension UInt8: PlainTreeArrayElement {}
extension Int16: PlainTreeArrayElement {}
extension UInt16: PlainTreeArrayElement {}
extension Int32: PlainTreeArrayElement {}
extension UInt32: PlainTreeArrayElement {}
extension Int64: PlainTreeArrayElement {}
extension UInt64: PlainTreeArrayElement {}
extension Int: PlainTreeArrayElement {}
extension UInt: PlainTreeArrayElement {}
extension Float: PlainTreeArrayElement {}
extension Double: PlainTreeArrayElement {}
extension String: PlainTreeArrayElement {}
extension Data: PlainTreeArrayElement {}

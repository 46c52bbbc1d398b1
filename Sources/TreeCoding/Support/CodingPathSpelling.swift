/// How coding paths are spelled: the key of an unkeyed container's element, and a path as error
/// messages show it. One spelling for every decoder of trees.
extension BinaryKey {
    /// The coding key of the element at `index` of an unkeyed container: "Index 3", integer 3.
    package static func index(_ index: Int) -> BinaryKey {
        BinaryKey(stringValue: "Index \(index)", intValue: index)
    }
}

/// Renders a coding path the way error messages show it: `items[3].name`.
package func describe(_ path: [any CodingKey]) -> String {
    if path.isEmpty { return "<root>" }
    var out = ""
    for key in path {
        if let i = key.intValue, key.stringValue == "Index \(i)" {
            out += "[\(i)]"
        } else {
            if !out.isEmpty { out += "." }
            out += key.stringValue
        }
    }
    return out
}

import TreeCoding

/// The error for a primitive whose stored bytes run on past what it reads. A varint that took
/// nine bytes and is followed by more is corrupt (past 64 bits). At the top level (`atRoot`: not
/// framed by a length) the extra bytes follow a complete value: trailing bytes. Inside a
/// container a length framed them as one value, so the stored value is of another type.
@inline(never)
func extraBytes(after kind: ScalarKind, _ node: ByteNode, at offset: Int, atRoot: Bool) -> WireFormatError {
    let read = offset &- node.start
    if read == 9, let encoding = kind.integerEncoding, encoding != .fixed {
        return WireFormatError(.invalidBytes, "a varint longer than 64 bits", offset: node.start)
    }
    if atRoot {
        return WireFormatError(
            .trailingBytes, "trailing bytes: \(byteCount(node.end &- offset)) after \(kind.withArticle)", offset: offset
        )
    }
    return WireFormatError(
        .typeMismatch, "expected \(kind.withArticle), found \(byteCount(node.end &- node.start)) of another type",
        offset: node.start)
}

/// The error for a keyed container that ends with a lone `00`: as a key it would be key 0 with
/// no value, so it is far more likely a byte after the last field.
@inline(never)
func trailingZero(at offset: Int) -> WireFormatError {
    WireFormatError(
        .trailingBytes, "trailing bytes: a 00 after the last field (as a key, key 0 with no value)", offset: offset)
}

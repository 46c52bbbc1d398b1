/// How every keyed container finds a key: by scanning its keys up to ``scanLimit`` keys, by a
/// hash index past that. One threshold for the tree (`KeyedFields`, the tree decoder's view),
/// the byte decoder's view and both encoders' duplicate checks: for a few keys a scan costs
/// less than hashing one.
package enum KeyLookup {
    @inlinable package static var scanLimit: Int { 16 }
}

/// The first position of `0..<count` where `matches` holds, searching from `hint` (wrapping
/// around): fields are read in the order they were written, so the search usually starts on the one.
@inlinable @inline(__always)
package func firstPosition(from hint: Int, count: Int, _ matches: (Int) -> Bool) -> Int? {
    var p = hint < count ? hint : 0
    for _ in 0..<count {
        if matches(p) { return p }
        p = p + 1 == count ? 0 : p + 1
    }
    return nil
}

/// How every keyed container finds a key: by scanning its keys up to ``scanLimit`` keys, by a
/// hash index past that. One threshold for the tree (`KeyedFields`, the tree decoder's view),
/// the byte decoder's view and both encoders' duplicate checks: for a few keys a scan costs
/// less than hashing one.
package enum KeyLookup {
    package static let scanLimit = 16
}

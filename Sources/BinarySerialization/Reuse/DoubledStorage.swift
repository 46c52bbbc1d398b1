/// Moves the `count` values at `base` into new memory of twice `capacity` values, frees `base`,
/// and returns the new memory and its capacity. For storage that grows by doubling: `capacity` is at
/// most the number of values a finite input or nesting makes, far below `Int.max / 2`.
func doubled<T>(_ base: UnsafeMutablePointer<T>, count: Int, capacity: Int) -> (UnsafeMutablePointer<T>, Int) {
    let larger = capacity * 2
    let moved = UnsafeMutablePointer<T>.allocate(capacity: larger)
    moved.moveInitialize(from: base, count: count)
    base.deallocate()
    return (moved, larger)
}

/// Moves the `count` values at `base` into new memory of `capacity` values (at least `count`),
/// frees `base`, and returns the new memory: storage kept between runs gives back what a large
/// run made it grow to.
func shrunk<T>(_ base: UnsafeMutablePointer<T>, count: Int, to capacity: Int) -> UnsafeMutablePointer<T> {
    let moved = UnsafeMutablePointer<T>.allocate(capacity: max(capacity, count, 1))
    moved.moveInitialize(from: base, count: count)
    base.deallocate()
    return moved
}

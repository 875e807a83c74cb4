/// A growing run of plain values that the parser writes one at a time: an
/// append is a compare, a store and an add.
///
/// Why not an `Array`: each `append` to an array asks whether its storage
/// is shared (a runtime call) before it checks its capacity, and the parser
/// appends about three times per value it reads, which made that
/// bookkeeping a tenth of what reading a scene cost. This buffer is never
/// shared (it cannot be copied), so it has nothing to ask.
///
/// ```swift
/// var offsets = GrowableBuffer<UInt32>(capacity: 16)
/// offsets.append(7)
/// let copy = offsets.array()   // [7]
/// ```
package struct GrowableBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements have been written.
    private(set) var count = 0

    package init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Element `index`, which must be below `count`.
    package subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count)
            return base[index]
        }
        set {
            assert(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    /// Writes `element` after the last one, growing the storage if full.
    @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = element
        count += 1
    }

    /// Writes `elements` after the last one.
    package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        if count + elements.count > capacity { grow(toHold: count + elements.count) }
        if elements.count <= 16 {
            // A few elements (a container's children, most often): stores
            // in a loop cost less than calling memcpy.
            for k in 0..<elements.count { base[count + k] = elements[k] }
        } else if let source = elements.baseAddress {
            (base + count).update(from: source, count: elements.count)
        }
        count += elements.count
    }

    /// Writes elements `range` of `other` after the last one.
    package mutating func append(from other: borrowing GrowableBuffer<Element>, _ range: Range<Int>) {
        other.withElements(range) { append(contentsOf: $0) }
    }

    /// Forgets the elements from `newCount` on (the storage stays, for what
    /// is written next).
    package mutating func removeAll(from newCount: Int) {
        assert(newCount >= 0 && newCount <= count)
        count = newCount
    }

    /// Removes and returns the last element.
    package mutating func removeLast() -> Element {
        assert(count > 0)
        count -= 1
        return base[count]
    }

    /// Elements `range`, read in place.
    package func withElements<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        assert(range.lowerBound >= 0 && range.upperBound <= count)
        return try body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// A copy of the elements as an array.
    package func array() -> [Element] {
        withElements(0..<count) { Array($0) }
    }

    /// The storage, holding the elements written, handed to the caller,
    /// who frees it with `deallocate()`.
    package consuming func take() -> UnsafeMutableBufferPointer<Element> {
        let storage = UnsafeMutableBufferPointer(start: base, count: count)
        discard self
        return storage
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

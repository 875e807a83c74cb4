import Synchronization

/// Large buffers kept between frames, so that frame after frame (an
/// animation's, or a render server's stream of requests) allocates no pixel
/// memory: a buffer a frame is done with is given back, and handed out
/// again, zeroed, to the next frame that asks for about as many elements.
///
/// ```swift
/// var pixels = BufferPool.pixels.take(count: 4 * width * height)
/// // ... draw into pixels ...
/// BufferPool.pixels.giveBack(pixels)
/// ```
///
/// Buffers are matched by size class: four classes a doubling (64 KiB,
/// 80 KiB, 96 KiB, 112 KiB, 128 KiB, ...), a buffer made with room for its
/// whole class. An animated layer's surfaces and masks change size by a few
/// pixels from frame to frame; matched by exact size, each frame would
/// allocate anew and the pool would fill with sizes never asked for again.
/// A taken buffer has exactly the count asked for, in storage that may hold
/// up to a quarter more. A buffer given back with the part of it that may
/// not be zero (a frame's picture whose shapes sit in a patch of it) is
/// zeroed there alone when taken again (`DirtyRegion`: a picture's painted
/// rectangle, row by row). Only buffers of `minimumBytes` or
/// more are kept: small ones are the allocator's business. At most
/// `idleLimitBytes` wait at once; past that the pool drops the idle
/// buffers of other classes first, so a server that changes picture size
/// does not hoard the old ones. Giving back a buffer that is still shared is harmless: the next
/// taker's first write copies it (and `Statistics.made` does not see that).
package final class BufferPool<Element: BitwiseCopyable & Sendable>: Sendable {
    /// What the pool has done, for tests and benchmarks.
    package struct Statistics: Equatable, Sendable {
        /// Buffers of a pooled size that had to be allocated.
        package var made = 0
        /// Buffers handed out again.
        package var reused = 0
        /// Bytes waiting to be handed out, counted by their classes' sizes.
        package var idleBytes = 0
    }

    private struct State {
        /// Idle buffers by the bytes of their class.
        var idle: [Int: [Idle]] = [:]
        var statistics = Statistics()
        var madeByCount: [Int: Int] = [:]
    }

    /// A buffer waiting, and the elements of it that may not be zero (nil:
    /// any of them).
    private struct Idle {
        var buffer: [Element]
        var dirty: DirtyRegion?
    }

    private let state = Mutex(State())
    /// Buffers smaller than this many bytes are not kept.
    package let minimumBytes: Int
    /// The most bytes kept idle at once.
    package let idleLimitBytes: Int

    package init(minimumBytes: Int = 64 << 10, idleLimitBytes: Int = 256 << 20) {
        self.minimumBytes = minimumBytes
        self.idleLimitBytes = idleLimitBytes
    }

    /// A buffer of `count` elements, every byte zero unless `zeroed` is
    /// false (then the caller writes every element before reading any).
    package func take(count: Int, zeroed: Bool = true) -> [Element] {
        let stride = MemoryLayout<Element>.stride
        let bytes = count * stride
        guard bytes >= minimumBytes else { return Self.zeroedBuffer(count: count, capacity: count) }
        let size = Self.classBytes(holding: bytes)
        // The buffer moves out of the pool without a second reference, so
        // resizing it within its storage and zeroing it write in place.
        guard let (reused, given) = reusedBuffer(count: count, classBytes: size) else {
            return Self.zeroedBuffer(count: count, capacity: size / stride)
        }
        var buffer = reused
        // Only what was there may be dirty: appended elements are zero,
        // appended from a zeroed buffer in one copy. (Called from another
        // module this function is not specialized, and `repeatElement`'s
        // elements went in one at a time through the generic witnesses.)
        // Zero bytes are a zero element: `Element` is `BitwiseCopyable`.
        let kept = 0..<min(buffer.count, count)
        let dirty = given ?? DirtyRegion(kept)
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            buffer.append(contentsOf: Self.zeroedBuffer(count: count - buffer.count, capacity: 0))
        }
        if zeroed {
            buffer.withUnsafeMutableBytes { bytes in
                dirty.forEachRun(within: kept) { run in
                    UnsafeMutableRawBufferPointer(rebasing: bytes[run.lowerBound * stride ..< run.upperBound * stride])
                        .initializeMemory(as: UInt8.self, repeating: 0)
                }
            }
        }
        return buffer
    }

    /// A new buffer of `count` zeroed elements with room for `capacity`.
    /// Zeroed even when the caller will overwrite it: fresh memory costs
    /// its page faults either way, and nothing uninitialized escapes.
    private static func zeroedBuffer(count: Int, capacity: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: max(count, capacity)) { buffer, initialized in
            UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<(count * MemoryLayout<Element>.stride)])
                .initializeMemory(as: UInt8.self, repeating: 0)
            initialized = count
        }
    }

    /// An idle buffer of the class of `classBytes`, counting a miss of
    /// `count` elements as one made.
    private func reusedBuffer(count: Int, classBytes: Int) -> (buffer: [Element], dirty: DirtyRegion?)? {
        state.withLock { state in
            // An emptied list stays, so that giving this class back later
            // does not make a list again. The list is reached through the
            // values' index: `idle[size]?.popLast()` allocated three blocks
            // a call.
            guard let index = state.idle.index(forKey: classBytes), !state.idle.values[index].isEmpty else {
                state.statistics.made += 1
                if state.madeByCount.count < Self.maximumSizes || state.madeByCount[count] != nil {
                    state.madeByCount[count, default: 0] += 1
                }
                return nil
            }
            let idle = state.idle.values[index].removeLast()
            state.statistics.reused += 1
            state.statistics.idleBytes -= classBytes
            return (idle.buffer, idle.dirty)
        }
    }

    /// Keeps `buffer` for a later `take` of its class: the largest class
    /// its storage holds whole. `dirty`: the elements that may not be zero,
    /// every other one being zero (nil: any may not be), so that the taker
    /// who wants zeros clears those alone; a pixmap's `dirtyRegion`.
    package func giveBack(_ buffer: consuming [Element], dirty: DirtyRegion? = nil) {
        let size = Self.classBytes(heldBy: buffer.capacity * MemoryLayout<Element>.stride)
        guard size >= minimumBytes, size <= idleLimitBytes else { return }
        let idle = Idle(buffer: buffer, dirty: dirty)
        state.withLock { [idle] state in
            if state.statistics.idleBytes + size > idleLimitBytes {
                // Other classes go first; then this class's oldest.
                for key in Array(state.idle.keys) where key != size {
                    state.statistics.idleBytes -= (state.idle[key]?.count ?? 0) * key
                    state.idle[key] = nil
                }
                while state.statistics.idleBytes + size > idleLimitBytes, state.idle[size]?.isEmpty == false {
                    state.idle[size]?.removeFirst()
                    state.statistics.idleBytes -= size
                }
            }
            if let index = state.idle.index(forKey: size) {
                state.idle.values[index].append(idle)
            } else {
                state.idle[size] = [idle]
            }
            state.statistics.idleBytes += size
        }
    }

    /// The size of the smallest class that holds `bytes`: 64 bytes at
    /// least, then four classes a doubling (2^k, 1.25, 1.5 and 1.75 times it).
    package static func classBytes(holding bytes: Int) -> Int {
        guard bytes > 64 else { return 64 }
        let floor = classBytes(heldBy: bytes)
        return floor == bytes ? floor : classBytes(heldBy: floor + classStep(floor))
    }

    /// The size of the largest class no larger than `bytes` (0 under 64).
    package static func classBytes(heldBy bytes: Int) -> Int {
        guard bytes >= 64 else { return 0 }
        let step = classStep(bytes)
        return bytes / step * step
    }

    /// A quarter of the power of two at or below `bytes` (64 or more).
    private static func classStep(_ bytes: Int) -> Int {
        (1 << (Int.bitWidth - 1 - bytes.leadingZeroBitCount)) / 4
    }

    /// The most counts `madeCount` tells of.
    private static var maximumSizes: Int { 4096 }

    /// What the pool has done so far.
    package var statistics: Statistics { state.withLock { $0.statistics } }

    /// How many buffers of `count` elements the pool has had to allocate
    /// (of the first `maximumSizes` sizes asked for).
    package func madeCount(ofCount count: Int) -> Int { state.withLock { $0.madeByCount[count] ?? 0 } }

    /// Drops every idle buffer.
    package func removeAll() {
        state.withLock { state in
            state.idle = [:]
            state.statistics.idleBytes = 0
        }
    }
}

extension BufferPool where Element == UInt8 {
    /// Pixmaps' pixels, encoders' rows and other byte buffers.
    package static var pixels: BufferPool<UInt8> { pixelPool }
}

extension BufferPool where Element == UInt8 {
    /// Coverage masks, which the CPU backend makes for every path and
    /// polygon it rasterizes and gives back once they are painted: small
    /// (a star's is a few kilobytes), so kept whatever their size, and
    /// found again by size when the next frame draws the same shapes.
    package static var masks: BufferPool<UInt8> { maskPool }
}

extension BufferPool where Element == Float {
    /// Blur planes and coverage cells.
    package static var floats: BufferPool<Float> { floatPool }
}

private let pixelPool = BufferPool<UInt8>(idleLimitBytes: 128 << 20)
private let maskPool = BufferPool<UInt8>(minimumBytes: 1, idleLimitBytes: 16 << 20)
private let floatPool = BufferPool<Float>(idleLimitBytes: 64 << 20)

/// The elements of a buffer that may not be zero, every other one being
/// zero: `runs` runs of `length` elements, the first from `start`, each
/// `stride` after the one before: a picture's painted rectangle, whose rows
/// lie a row of the picture apart (a range of elements is one run).
package struct DirtyRegion: Equatable, Sendable {
    package var start: Int, length: Int, runs: Int, stride: Int

    /// `runs` runs of `length` elements from `start`, `stride` apart; runs
    /// that meet (a rectangle the picture's width) are one run.
    package init(start: Int, length: Int, runs: Int, stride: Int) {
        if runs > 1, length >= stride {
            (self.start, self.length, self.runs, self.stride) = (start, stride * (runs - 1) + length, 1, stride * (runs - 1) + length)
        } else {
            (self.start, self.length, self.runs, self.stride) = (start, length, runs, stride)
        }
    }

    /// The elements of `range`, one run.
    package init(_ range: Range<Int>) {
        self.init(start: range.lowerBound, length: range.count, runs: 1, stride: range.count)
    }

    /// Nothing dirty.
    package static let none = DirtyRegion(start: 0, length: 0, runs: 0, stride: 0)

    /// How many elements may not be zero.
    package var count: Int { length * runs }

    /// Calls `body` with each run's part within `bounds` (none empty).
    package func forEachRun(within bounds: Range<Int>, _ body: (Range<Int>) -> Void) {
        guard length > 0 else { return }
        for r in 0..<max(0, runs) {
            let first = start + r * stride
            let run = (first..<first + length).clamped(to: bounds)
            if !run.isEmpty { body(run) }
        }
    }
}

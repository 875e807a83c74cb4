import Synchronization

/// Large buffers kept between frames, so that frame after frame of the same
/// size (an animation's, or a render server's stream of requests) allocates
/// no pixel memory: a buffer a frame is done with is given back, and handed
/// out again, zeroed, to the next frame that asks for that many elements.
///
/// ```swift
/// var pixels = BufferPool.pixels.take(count: 4 * width * height)
/// // ... draw into pixels ...
/// BufferPool.pixels.giveBack(pixels)
/// ```
///
/// Buffers are matched by their exact count (a stream of frames asks for
/// the same sizes again), and only buffers of `minimumBytes` or more are
/// kept: small ones are the allocator's business. At most `idleLimitBytes`
/// wait at once; past that the pool drops the idle buffers of other sizes
/// first, so a server that changes picture size does not hoard the old
/// ones. Giving back a buffer that is still shared is harmless: the next
/// taker's first write copies it (and `Statistics.made` does not see that).
package final class BufferPool<Element: BitwiseCopyable & Sendable>: Sendable {
    /// What the pool has done, for tests and benchmarks.
    package struct Statistics: Equatable, Sendable {
        /// Buffers of a pooled size that had to be allocated.
        package var made = 0
        /// Buffers handed out again.
        package var reused = 0
        /// Bytes waiting to be handed out.
        package var idleBytes = 0
    }

    private struct State {
        var idle: [Int: [[Element]]] = [:]
        var statistics = Statistics()
        var madeByCount: [Int: Int] = [:]
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
        let bytes = count * MemoryLayout<Element>.stride
        // The buffer moves out of the pool without a second reference, so
        // zeroing it writes in place instead of copying.
        if bytes >= minimumBytes, var buffer = reusedBuffer(count: count, bytes: bytes) {
            if zeroed { buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            return buffer
        }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Zeroed even when the caller will overwrite it: fresh memory
            // costs its page faults either way, and nothing uninitialized escapes.
            UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0)
            initialized = count
        }
    }

    /// An idle buffer of `count` elements, counting a miss as one made.
    private func reusedBuffer(count: Int, bytes: Int) -> [Element]? {
        state.withLock { state in
            // An emptied list stays, so that giving this size back later
            // does not make a list again (a frame's masks are hundreds of
            // sizes, each taken and given back once). The list is reached
            // through the values' index: `idle[count]?.popLast()` allocated
            // three blocks a call.
            guard let index = state.idle.index(forKey: count), !state.idle.values[index].isEmpty else {
                state.statistics.made += 1
                if state.madeByCount.count < Self.maximumSizes || state.madeByCount[count] != nil {
                    state.madeByCount[count, default: 0] += 1
                }
                return nil
            }
            let buffer = state.idle.values[index].removeLast()
            state.statistics.reused += 1
            state.statistics.idleBytes -= bytes
            return buffer
        }
    }

    /// Keeps `buffer` for a later `take` of its count.
    package func giveBack(_ buffer: consuming [Element]) {
        let count = buffer.count
        let bytes = count * MemoryLayout<Element>.stride
        guard bytes >= minimumBytes, bytes <= idleLimitBytes else { return }
        state.withLock { [buffer] state in
            if state.statistics.idleBytes + bytes > idleLimitBytes {
                // Other sizes go first; then this size's oldest.
                for key in Array(state.idle.keys) where key != count {
                    state.statistics.idleBytes -= (state.idle[key]?.count ?? 0) * key * MemoryLayout<Element>.stride
                    state.idle[key] = nil
                }
                while state.statistics.idleBytes + bytes > idleLimitBytes, state.idle[count]?.isEmpty == false {
                    state.idle[count]?.removeFirst()
                    state.statistics.idleBytes -= bytes
                }
            }
            if state.idle.count >= Self.maximumSizes, state.idle[count] == nil {
                // Sizes seen once and not since (an animation's masks grow
                // and shrink) are forgotten.
                state.idle = state.idle.filter { !$0.value.isEmpty }
            }
            if let index = state.idle.index(forKey: count) {
                state.idle.values[index].append(buffer)
            } else {
                state.idle[count] = [buffer]
            }
            state.statistics.idleBytes += bytes
        }
    }

    /// The most sizes the pool keeps lists for (and counts in `madeCount`).
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

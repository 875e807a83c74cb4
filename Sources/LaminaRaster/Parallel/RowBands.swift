import Dispatch
import Foundation
import Synchronization

/// One frame's large pixel loops split across the cores no other frame is
/// using: bands of rows, each painted by one thread.
///
/// A frame drawn alone on a machine with idle cores gets them all (the CLI
/// rendering one picture, a render server with one request in flight); when
/// as many frames are being drawn as there are cores (`lamina frames` with a
/// worker per core, a busy server), every loop runs on its own thread and
/// nothing is split, so throughput is not paid for with contention. Rows are
/// independent in every stage that uses this, so the picture is the same
/// bytes whatever the split.
///
/// ```swift
/// try RowBands.drawingFrame {
///     RowBands.forEach(rows: 0..<height, pixels: width * height) { band in
///         for y in band { /* this row only */ }
///     }
/// }
/// ```
package enum RowBands {
    /// Frames being drawn now, in this process.
    /// (Atomics, not locks: every loop of every frame reads them, from
    /// frames on every core.)
    private static let framesInFlight = Atomic<Int>(0)

    /// A fixed number of bands for every loop, whatever its size and the
    /// cores (tests compare pictures drawn split and whole); nil decides.
    package static var forcedBands: Int? {
        get { let v = forcedBandCount.load(ordering: .relaxed); return v > 0 ? v : nil }
        set { forcedBandCount.store(newValue.map { max(1, $0) } ?? 0, ordering: .relaxed) }
    }
    private static let forcedBandCount = Atomic<Int>(0)

    /// The cores this process may use.
    package static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// The most threads one frame may use however idle the machine is; nil
    /// for every idle core. A render server with many workers may set 1
    /// (`lamina serve --frame-threads`), as libvips users set
    /// `VIPS_CONCURRENCY`: each request then stays on one core.
    package static var threadsPerFrame: Int? {
        get { let v = threadLimit.load(ordering: .relaxed); return v > 0 ? v : nil }
        set { threadLimit.store(newValue.map { max(1, $0) } ?? 0, ordering: .relaxed) }
    }
    private static let threadLimit = Atomic<Int>(0)

    /// Loops smaller than this many pixels run on one thread: starting
    /// threads costs more than they would save.
    package static let minimumPixels = 1 << 16

    /// The most bands a loop is split into, whatever the cores.
    package static let maximumBands = 8

    /// Runs `body` as one frame being drawn: loops inside it may split while
    /// cores are idle. A picture being encoded counts as one too (the PNG
    /// writer runs inside this), so that a busy server's frames and
    /// encodings do not take each other's cores.
    package static func drawingFrame<T>(_ body: () throws -> T) rethrows -> T {
        framesInFlight.add(1, ordering: .relaxed)
        defer { framesInFlight.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// The threads a frame may use now: this one, and the cores no other
    /// frame in flight is drawing on (at most `maximumBands`).
    package static var idleThreads: Int {
        if let forced = forcedBands { return forced }
        let others = max(0, framesInFlight.load(ordering: .relaxed) - 1)
        let limit = threadsPerFrame ?? maximumBands
        return max(1, min(cores - others, maximumBands, limit))
    }

    /// How many bands a loop of `rows` rows and `pixels` pixels splits into now.
    package static func bands(rows: Int, pixels: Int) -> Int {
        if let forced = forcedBands { return max(1, min(forced, rows)) }
        guard pixels >= minimumPixels, rows >= 2, cores > 1 else { return 1 }
        return max(1, min(idleThreads, rows / 8))
    }

    /// Calls `body` once for each of `count` independent jobs (a segment to
    /// compress, a draw to prepare), on as many threads as are idle, each
    /// thread taking the next few jobs not yet taken; returns when all are
    /// done. Jobs, unlike rows, are worth a thread each however few there
    /// are. Many small jobs are taken a run at a time, so that threads do
    /// not write neighbouring results (one cache line) at once.
    package static func forEachJob(count: Int, _ body: (Int) -> Void) {
        let threads = min(idleThreads, count)
        guard threads > 1 else {
            for job in 0..<count { body(job) }
            return
        }
        let run = max(1, count / (threads * 16))
        let next = Atomic(0)
        withoutActuallyEscaping(body) { body in
            // Each job is taken once; what they write is their caller's to keep apart.
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                while true {
                    let first = next.wrappingAdd(run, ordering: .relaxed).oldValue
                    guard first < count else { return }
                    for job in first..<min(count, first + run) { work(job) }
                }
            }
        }
    }

    /// Calls `body` for consecutive bands of `rows` that together cover it,
    /// on several threads when the loop is large and cores are idle; returns
    /// when every band is done. With `bandsPerThread` above 1 the rows are
    /// cut finer than the threads, for work unevenly spread over them: a
    /// thread that finishes its band early takes the next.
    package static func forEach(rows: Range<Int>, pixels: Int, bandsPerThread: Int = 1, _ body: (Range<Int>) -> Void) {
        let threads = bands(rows: rows.count, pixels: pixels)
        guard threads > 1 else { return body(rows) }
        let n = bandsPerThread > 1 && forcedBands == nil
            ? max(threads, min(threads * bandsPerThread, rows.count / 8)) : threads
        let count = rows.count
        withoutActuallyEscaping(body) { body in
            // The bands touch disjoint rows of buffers their caller owns until
            // this returns: what the closure captures is not shared otherwise.
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: n) { band in
                let start = rows.lowerBound + count * band / n, end = rows.lowerBound + count * (band + 1) / n
                if start < end { work(start..<end) }
            }
        }
    }
}

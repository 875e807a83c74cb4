// The pool of large buffers: reuse by count, zeroing, the idle limit, and
// a stream of frames that allocates no pixel memory once it is running.
import Foundation
import Testing
import LaminaRender
@testable import LaminaCPU
@testable import LaminaRaster
@testable import LaminaCore

@Suite("Buffer pool")
struct BufferPoolTests {
    /// A given-back buffer is handed out again for the same count, zeroed;
    /// small buffers and other counts are not matched with it.
    @Test func reusesBuffersOfTheSameCountZeroed() {
        let pool = BufferPool<UInt8>(minimumBytes: 1024, idleLimitBytes: 1 << 20)
        var first = pool.take(count: 4096)
        #expect(first.allSatisfy { $0 == 0 })
        first[7] = 9
        let address = first.withUnsafeBytes { $0.baseAddress }
        pool.giveBack(consume first)
        #expect(pool.statistics.idleBytes == 4096)
        let other = pool.take(count: 2048)
        #expect(other.withUnsafeBytes { $0.baseAddress } != address)
        let again = pool.take(count: 4096)
        #expect(again.withUnsafeBytes { $0.baseAddress } == address)
        #expect(again.allSatisfy { $0 == 0 })
        #expect(pool.statistics == BufferPool<UInt8>.Statistics(made: 2, reused: 1, idleBytes: 0))
        pool.giveBack([UInt8](repeating: 1, count: 100))
        #expect(pool.statistics.idleBytes == 0)
    }

    /// Past the idle limit, other sizes are dropped first, then the oldest
    /// of the same size; nothing larger than the limit is kept.
    @Test func keepsAtMostItsLimit() {
        let pool = BufferPool<UInt8>(minimumBytes: 1024, idleLimitBytes: 10_000)
        pool.giveBack([UInt8](repeating: 0, count: 3000))
        pool.giveBack([UInt8](repeating: 0, count: 3000))
        pool.giveBack([UInt8](repeating: 0, count: 4000))
        #expect(pool.statistics.idleBytes == 10_000)
        pool.giveBack([UInt8](repeating: 0, count: 4000))
        #expect(pool.statistics.idleBytes == 8000)
        pool.giveBack([UInt8](repeating: 0, count: 4000))
        #expect(pool.statistics.idleBytes == 8000)
        pool.giveBack([UInt8](repeating: 0, count: 20_000))
        #expect(pool.statistics.idleBytes == 8000)
        pool.removeAll()
        #expect(pool.statistics.idleBytes == 0)
    }

    /// Frame after frame of one scene (a shadowed layer: an offscreen pass,
    /// a blur, the output) allocates no canvas pixels once the first frames
    /// have filled the pool: each frame's image gives its pixels back when
    /// it is freed. The canvas is a size no other test draws, so their
    /// frames do not count.
    @Test func aStreamOfFramesAllocatesNoPixelMemory() throws {
        let (width, height) = (331, 207)
        var root = RenderLayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = .white
        var card = RenderLayer()
        card.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        card.transformToSuperlayer = CATransform3D(translationX: 60, y: 40, z: 0)
        card.backgroundColor = RGBA(red: 1, green: 0.5, blue: 0, alpha: 1)
        card.shadow = RenderShadow(color: .black, opacity: 0.5, offset: CGSize(width: 0, height: 6), radius: 18)
        root.sublayers = [card]
        let plan = try RenderPlanner().plan(root, canvas: RenderCanvas(width: Double(width), height: Double(height)))
        let renderer = CPURenderer()
        let canvasBytes = width * height * 4
        var first: [UInt8] = []
        var made: [Int] = []
        for frame in 0..<5 {
            let image = try renderer.render(plan)
            if frame == 0 { first = image.pixelBytes } else { #expect(image.pixelBytes == first, "frame \(frame)") }
            made.append(BufferPool.pixels.madeCount(ofCount: canvasBytes))
        }
        #expect(made[0] >= 1)
        #expect(made[2] == made[4], "the canvas pool kept allocating: \(made)")
    }
}

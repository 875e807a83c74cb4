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

    /// A coverage mask the rasterizer made goes back to `BufferPool.masks`
    /// when recycled and is what the next mask of its size is made in; a
    /// mask whose values came from elsewhere is not taken by the pool. The
    /// sizes are ones no other test asks for.
    @Test func recycledMasksAreReusedAndOthersAreLeftAlone() throws {
        let rasterizer = try CoverageRasterizer(width: 200, height: 100)
        // Pixel bounds 10 ..< 58 by 7 ..< 50: 48 x 43 = 2,064 bytes.
        let triangle = [[CGPoint(x: 10.5, y: 7.25), CGPoint(x: 57.5, y: 20), CGPoint(x: 30, y: 49.75)]]
        let size = 48 * 43
        let before = BufferPool.masks.madeCount(ofCount: size)
        let first = try rasterizer.rasterize(contours: triangle, fillRule: .nonZero)
        #expect(first.values.count == size)
        let firstValues = first.values.map { $0 }  // a copy: holding the buffer would make the next mask copy it
        let address = first.values.withUnsafeBytes { $0.baseAddress }
        (consume first).recycle()
        let second = try rasterizer.rasterize(contours: triangle, fillRule: .nonZero)
        #expect(second.values == firstValues, "the same coverage, whatever the buffer held")
        #expect(second.values.withUnsafeBytes { $0.baseAddress } == address)
        #expect(BufferPool.masks.madeCount(ofCount: size) - before <= 1, "the second mask was made in the first's buffer")

        let odd = 2_077
        let borrowed = CoverageMask(uncheckedBounds: PixelRect(width: odd, height: 1), values: [UInt8](repeating: 9, count: odd))
        let madeBefore = BufferPool.masks.madeCount(ofCount: odd)
        (consume borrowed).recycle()
        _ = BufferPool.masks.take(count: odd, zeroed: false)
        #expect(BufferPool.masks.madeCount(ofCount: odd) == madeBefore + 1, "a mask that is not the pool's stays its owner's")
    }

    /// Frame after frame of one scene, the CPU backend's coverage masks
    /// come from the pool: a turned square larger than the canvas is
    /// rasterized over the whole canvas (333 x 211, a size no other test
    /// draws), and after the first frame no mask of that size is made.
    @Test func aStreamOfFramesAllocatesNoMasks() throws {
        let (width, height) = (333, 211)
        var root = RenderLayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        var square = RenderLayer()
        square.bounds = CGRect(x: -300, y: -300, width: 600, height: 600)
        square.transformToSuperlayer = CATransform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            .concatenating(CATransform3D(translationX: 160, y: 100, z: 0))
        square.backgroundColor = RGBA(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        root.sublayers = [square]
        let plan = try RenderPlanner().plan(root, canvas: RenderCanvas(width: Double(width), height: Double(height)))
        let renderer = CPURenderer()
        var first: [UInt8] = []
        var made: [Int] = []
        for frame in 0..<5 {
            let image = try renderer.render(plan)
            if frame == 0 { first = image.pixelBytes } else { #expect(image.pixelBytes == first, "frame \(frame)") }
            made.append(BufferPool.masks.madeCount(ofCount: width * height))
        }
        #expect(made[0] >= 1, "the square was rasterized over the canvas")
        #expect(made[1] == made[4], "the mask pool kept allocating: \(made)")
    }
}

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
    /// A given-back buffer is handed out again for any count of its size
    /// class, zeroed and of exactly that count; small buffers and other
    /// classes are not matched with it.
    @Test func reusesBuffersOfTheSameClassZeroed() {
        let pool = BufferPool<UInt8>(minimumBytes: 1024, idleLimitBytes: 1 << 20)
        var first = pool.take(count: 4000)
        #expect(first.count == 4000 && first.capacity >= 4096)
        #expect(first.allSatisfy { $0 == 0 })
        first[7] = 9
        let address = first.withUnsafeBytes { $0.baseAddress }
        pool.giveBack(consume first)
        #expect(pool.statistics.idleBytes == 4096)
        let other = pool.take(count: 4097)
        #expect(other.withUnsafeBytes { $0.baseAddress } != address)
        let again = pool.take(count: 3900)
        #expect(again.withUnsafeBytes { $0.baseAddress } == address)
        #expect(again.count == 3900 && again.allSatisfy { $0 == 0 })
        #expect(pool.statistics == BufferPool<UInt8>.Statistics(made: 2, reused: 1, idleBytes: 0))
        #expect(pool.madeCount(ofCount: 4000) == 1 && pool.madeCount(ofCount: 3900) == 0)
        // Back in, lengthened to a count of its class, it is still its storage, zeroed.
        pool.giveBack(consume again)
        let longer = pool.take(count: 4096, zeroed: false)
        #expect(longer.withUnsafeBytes { $0.baseAddress } == address)
        #expect(longer.count == 4096 && longer.allSatisfy { $0 == 0 })
        pool.giveBack([UInt8](repeating: 1, count: 100))
        #expect(pool.statistics.idleBytes == 0)
    }

    /// A buffer given back with the part of it that may not be zero is
    /// zeroed there alone, and comes out all zero at any count of its
    /// class; given back without, it is zeroed whole.
    @Test func aBufferGivenBackWithItsDirtyPartIsZeroedThere() {
        let pool = BufferPool<UInt8>(minimumBytes: 1024, idleLimitBytes: 1 << 20)
        var buffer = pool.take(count: 4000)
        for i in 1000..<1500 { buffer[i] = 7 }
        let address = buffer.withUnsafeBytes { $0.baseAddress }
        pool.giveBack(consume buffer, dirty: DirtyRegion(1000..<1500))
        var again = pool.take(count: 3900)
        #expect(again.withUnsafeBytes { $0.baseAddress } == address)
        #expect(again.allSatisfy { $0 == 0 })
        // Dirty past a shorter count, then lengthened: zero all the same.
        for i in 3000..<3900 { again[i] = 5 }
        pool.giveBack(consume again, dirty: DirtyRegion(3000..<3900))
        let shorter = pool.take(count: 2000)
        #expect(shorter.allSatisfy { $0 == 0 })
        pool.giveBack(shorter, dirty: DirtyRegion.none)
        let longer = pool.take(count: 4096)
        #expect(longer.count == 4096 && longer.allSatisfy { $0 == 0 })
        // Not said: all of it may be dirty.
        var whole = longer
        for i in whole.indices { whole[i] = 3 }
        pool.giveBack(consume whole)
        #expect(pool.take(count: 4096).allSatisfy { $0 == 0 })
    }

    /// A buffer given back with a rectangle of it dirty, row by row, is
    /// zeroed there: the runs between its rows are left as they are (zero).
    @Test func aBufferGivenBackWithADirtyRectangleIsZeroedThere() {
        let pool = BufferPool<UInt8>(minimumBytes: 1024, idleLimitBytes: 1 << 20)
        var buffer = pool.take(count: 4000)
        // Rows of 100 bytes: bytes 20..<60 of rows 3..<9.
        let dirty = DirtyRegion(start: 320, length: 40, runs: 6, stride: 100)
        dirty.forEachRun(within: 0..<4000) { run in for i in run { buffer[i] = 9 } }
        #expect(buffer.filter { $0 == 9 }.count == dirty.count)
        pool.giveBack(consume buffer, dirty: dirty)
        #expect(pool.take(count: 3000).allSatisfy { $0 == 0 })
        var runs: [Range<Int>] = []
        dirty.forEachRun(within: 0..<650) { runs.append($0) }
        #expect(runs == [320..<360, 420..<460, 520..<560, 620..<650])
        // Rows the picture's width are one run.
        #expect(DirtyRegion(start: 200, length: 100, runs: 3, stride: 100) == DirtyRegion(200..<500))
    }

    /// A pixmap made transparent knows the rectangle it has been painted
    /// in; written any other way, it no longer does.
    @Test func aPixmapKnowsWhereItWasPaintedIn() throws {
        var pixmap = try Pixmap(width: 40, height: 30)
        #expect(pixmap.paintedArea?.isEmpty == true && pixmap.dirtyRegion == DirtyRegion.none)
        let rasterizer = try CoverageRasterizer(width: 40, height: 30)
        let band = try rasterizer.rasterize(contours: [[CGPoint(x: 12, y: 5.5), CGPoint(x: 30, y: 5.5), CGPoint(x: 30, y: 12.2), CGPoint(x: 12, y: 12.2)]],
                                            fillRule: .nonZero)
        let sliver = try rasterizer.rasterize(contours: [[CGPoint(x: 8, y: 20), CGPoint(x: 15, y: 20), CGPoint(x: 15, y: 21)]], fillRule: .nonZero)
        try pixmap.fill(band, with: PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        try pixmap.fill(sliver, with: PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        try pixmap.setPixel(PremultipliedColor(r: 0, g: 9, b: 0, a: 9), x: 35, y: 25)
        let area = try #require(pixmap.paintedArea)
        #expect(area.minY <= 5 && area.maxY >= 26 && area.maxY <= 30 && area.minX <= 8 && area.minX >= 6 && area.maxX >= 36 && area.maxX <= 40)
        for y in 0..<30 {
            for x in 0..<40 where !area.contains(x: x, y: y) { #expect(try pixmap.pixel(x: x, y: y) == .clear) }
        }
        #expect(pixmap.dirtyRegion == DirtyRegion(start: (area.minY * 40 + area.minX) * 4, length: area.width * 4, runs: area.height, stride: 160))
        pixmap.withUnsafeMutableData { $0[0] = 0 }
        #expect(pixmap.paintedArea == nil && pixmap.dirtyRegion == nil)
        #expect(try Pixmap(width: 4, height: 4, filledWith: PremultipliedColor(r: 1, g: 1, b: 1, a: 1)).paintedArea == nil)
    }

    /// Frames of shapes in different places, drawn one after another by
    /// one renderer (each frame's buffer cleared where the last one
    /// painted): each is the picture a new renderer draws.
    @Test func framesClearedWhereTheLastOnePaintedAreThePicturesANewRendererDraws() throws {
        func scene(row: Double, color: CGColor) -> RenderPlan {
            let root = CALayer(), layer = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
            layer.frame = CGRect(x: 10.5 + row / 3, y: row, width: 120, height: 30.25)
            layer.backgroundColor = color
            layer.cornerRadius = 6
            root.addSublayer(layer)
            // Large enough for the pool (64 KiB or more).
            return try! RenderPlanner().plan(RenderLayer(snapshotOf: root), canvas: RenderCanvas(width: 300, height: 300))
        }
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let plans = [scene(row: 20, color: red), scene(row: 200.5, color: blue), scene(row: 100, color: red), scene(row: 20, color: blue)]
        let renderer = CPURenderer()
        for _ in 0..<2 {
            for plan in plans {
                let fresh = try CPURenderer().render(plan, deadline: nil).pixelBytes
                #expect(try renderer.render(plan, deadline: nil).pixelBytes == fresh)
            }
        }
    }

    /// Four classes a doubling: a class holds every size above the one below it.
    @Test func sizeClasses() {
        typealias Pool = BufferPool<UInt8>
        #expect(Pool.classBytes(holding: 1) == 64 && Pool.classBytes(holding: 64) == 64)
        #expect(Pool.classBytes(holding: 65) == 80)
        #expect([4096, 4097, 5120, 5121, 6144, 7168, 7169].map { Pool.classBytes(holding: $0) }
                == [4096, 5120, 5120, 6144, 6144, 7168, 8192])
        #expect([63, 64, 4095, 4096, 5119, 8191].map { Pool.classBytes(heldBy: $0) } == [0, 64, 3584, 4096, 4096, 7168])
        for bytes in [65, 1000, 70_263, 274_068, 1 << 30] {
            let size = Pool.classBytes(holding: bytes)
            #expect(size >= bytes && size < bytes + bytes / 4 + 64 && Pool.classBytes(heldBy: size) == size, "\(bytes)")
        }
    }

    /// Past the idle limit, other classes are dropped first, then the
    /// oldest of the same class; nothing larger than the limit is kept.
    /// A buffer the pool did not make is kept as the largest class its
    /// storage holds.
    @Test func keepsAtMostItsLimit() {
        let pool = BufferPool<UInt8>(minimumBytes: 1024, idleLimitBytes: 10_240)
        pool.giveBack(pool.take(count: 3072))
        pool.giveBack(pool.take(count: 3000))
        pool.giveBack(pool.take(count: 4096))
        #expect(pool.statistics.idleBytes == 3072 + 4096)
        pool.giveBack(pool.take(count: 3072, zeroed: false))
        #expect(pool.statistics.idleBytes == 3072 + 4096)
        pool.giveBack(Array(repeating: 0, count: 3072))
        #expect(pool.statistics.idleBytes == 10_240)
        let room4096 = { [UInt8](unsafeUninitializedCapacity: 4096) { _, count in count = 0 } }
        pool.giveBack(room4096())
        #expect(pool.statistics.idleBytes == 8192, "the other class's two went first")
        pool.giveBack(room4096())
        #expect(pool.statistics.idleBytes == 8192, "then this class's oldest")
        pool.giveBack([UInt8](repeating: 0, count: 20_000))
        #expect(pool.statistics.idleBytes == 8192)
        pool.removeAll()
        #expect(pool.statistics.idleBytes == 0)
    }

    /// Frame after frame of one scene (a shadowed layer: an offscreen pass,
    /// a blur, the output) allocates no canvas pixels once the first frames
    /// have filled the pool: each frame's image gives its pixels back when
    /// it is freed. The canvas is of a size class no other test draws
    /// (9.8 MB: 4093 x 601), so their frames do not take its buffer.
    @Test func aStreamOfFramesAllocatesNoPixelMemory() throws {
        let (width, height) = (4093, 601)
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
        #expect(made[2] == made[4], "the canvas pool kept allocating: \(made)")
    }

    /// A coverage mask the rasterizer made goes back to `BufferPool.masks`
    /// when recycled and is what the next mask of its size is made in; a
    /// mask whose values came from elsewhere is not taken by the pool. The
    /// sizes are of classes no other test asks for (1.8 and 1.9 MB).
    @Test func recycledMasksAreReusedAndOthersAreLeftAlone() throws {
        let rasterizer = try CoverageRasterizer(width: 3100, height: 700)
        // Pixel bounds 10 ..< 3011 by 7 ..< 608: 3001 x 601 = 1,803,601 bytes.
        let triangle = [[CGPoint(x: 10.5, y: 7.25), CGPoint(x: 3010.5, y: 20), CGPoint(x: 30, y: 607.75)]]
        let size = 3001 * 601
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

        let odd = 1_900_001
        let borrowed = CoverageMask(uncheckedBounds: PixelRect(width: odd, height: 1), values: [UInt8](repeating: 9, count: odd))
        let madeBefore = BufferPool.masks.madeCount(ofCount: odd)
        (consume borrowed).recycle()
        _ = BufferPool.masks.take(count: odd, zeroed: false)
        #expect(BufferPool.masks.madeCount(ofCount: odd) == madeBefore + 1, "a mask that is not the pool's stays its owner's")
    }

    /// Frame after frame of one scene, the CPU backend's coverage masks
    /// come from the pool: a turned square larger than the canvas is
    /// rasterized over the whole canvas (4091 x 599, of a size class no
    /// other test draws), and after the first frame no mask of that size is made.
    @Test func aStreamOfFramesAllocatesNoMasks() throws {
        let (width, height) = (4091, 599)
        var root = RenderLayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        var square = RenderLayer()
        square.bounds = CGRect(x: -3000, y: -3000, width: 6000, height: 6000)
        square.transformToSuperlayer = CATransform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            .concatenating(CATransform3D(translationX: 2045, y: 300, z: 0))
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
        #expect(made[1] == made[4], "the mask pool kept allocating: \(made)")
    }
}

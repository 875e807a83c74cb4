import Foundation
import LaminaRaster
import LaminaRender
import Synchronization

/// The coverage of small solid polygon draws, worked out once per shape and
/// reused wherever the same shape lands again on whole-pixel offsets.
///
/// Interfaces repeat themselves: a grid of tiles, the cells of a list, a row
/// of buttons are the same rounded rectangle at different places. A draw's
/// coverage (its polygon's exact-area coverage, its rounded shape's, its
/// opacity: the byte each pixel's colour is scaled by) depends on where the
/// shape sits relative to the pixel grid, not on which pixels, so each draw
/// is worked out in a frame of its own whose origin is the whole pixel just
/// above and left of it, and a draw whose shape and sub-pixel placement were
/// seen before, earlier in the frame or in the frame before, is a copy of the
/// bytes found then. The thousand tiles of the bench scene are 117 shapes
/// and placements; drawn again, they work out none.
///
/// Every eligible draw goes through this frame, whether the shape is new or
/// not, so a picture does not depend on what was drawn before it. (The
/// canvas-frame arithmetic of the plain path rounds a hair differently: a
/// pixel may differ from it by one level, well inside the conformance
/// tolerance.) The coverage bytes are found by painting the draw in opaque
/// white on a transparent scratch pixmap: the alpha it leaves is exactly the
/// scale the colour gets.
final class RepeatedShapes: Sendable {
    /// The most pixels a shape's frame may have (larger draws are painted
    /// directly, in bands).
    static let maximumPixels = 1 << 16
    /// The most shapes kept (a frame of a thousand distinct ones is not
    /// repeating itself).
    static let maximumShapes = 1024

    /// The most coverage bytes kept, all shapes together.
    static let maximumBytes = 8 << 20

    /// Each shape's coverage bytes, over its frame from (0, 0), found by the
    /// hash of its key: a draw's key is written on the stack and compared
    /// with the keys of that hash, so looking a shape up allocates nothing
    /// (this runs for every eligible draw of a frame).
    private let table = Mutex(Table())

    private struct Table {
        var byHash: [Int: [Shape]] = [:]
        var count = 0
        var bytes = 0
        /// Frames ended so far; a shape notes the last one that used it.
        var frame = 0
        /// Coverages worked out since the table was made.
        var made = 0
    }

    /// A shape: the draw's geometry in its own frame, to the bit, its
    /// coverage, and the last frame that drew it.
    private struct Shape {
        let key: [UInt64]
        let coverage: [UInt8]
        var lastUsed: Int
    }

    /// Ends a frame: the shapes it drew are kept for the next, the others
    /// are forgotten. A scene drawn again (a server's stream of the same
    /// card, an animation's still parts) finds every shape it needs and
    /// works out none; a scene that moves keeps only what it still draws.
    func endFrame() {
        table.withLock { t in
            defer { t.frame += 1 }
            let frame = t.frame
            guard t.byHash.values.contains(where: { $0.contains { $0.lastUsed < frame } }) else { return }
            t.byHash = t.byHash.compactMapValues { shapes in
                let kept = shapes.filter { $0.lastUsed == frame }
                return kept.isEmpty ? nil : kept
            }
            t.count = t.byHash.values.reduce(0) { $0 + $1.count }
            t.bytes = t.byHash.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.coverage.count } }
        }
    }

    /// How many shapes are kept, and how many coverages were worked out
    /// since the table was made (for tests).
    var statistics: (kept: Int, made: Int) { table.withLock { ($0.count, $0.made) } }

    /// Where a draw's shape is worked out: its frame's place on the target
    /// (a whole-pixel origin) and the draw's matrix moved there.
    struct Placement {
        let frame: PixelRect
        let matrix: CATransform3D
    }

    /// The placement of `draw` on a target of `bounds`; nil when the draw is
    /// not one this applies to (cut, projective, large, partly off the
    /// target) and is painted directly.
    func placement(of draw: PolygonDraw, within bounds: PixelRect) -> Placement? {
        let m = draw.matrix
        guard draw.cuts.isEmpty, m.m14 == 0, m.m24 == 0, m.m44 == 1, draw.polygon.count >= 3 else { return nil }
        // The polygon's pixel box, and the whole pixel just outside it.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in draw.polygon {
            let x = Double(p.x) * Double(m.m11) + Double(p.y) * Double(m.m21) + Double(m.m41)
            let y = Double(p.x) * Double(m.m12) + Double(p.y) * Double(m.m22) + Double(m.m42)
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite,
              abs(minX) < 1e9, abs(minY) < 1e9, maxX - minX < 1e4, maxY - minY < 1e4 else { return nil }
        let originX = Int(minX.rounded(.down)) - 1, originY = Int(minY.rounded(.down)) - 1
        let width = Int((maxX - Double(originX)).rounded(.up)) + 2
        let height = Int((maxY - Double(originY)).rounded(.up)) + 2
        guard width * height <= Self.maximumPixels else { return nil }
        let frame = PixelRect(x: originX, y: originY, width: width, height: height)
        guard frame.intersection(bounds) == frame else { return nil }
        var local = m
        local.m41 = CGFloat(Double(m.m41) - Double(originX))
        local.m42 = CGFloat(Double(m.m42) - Double(originY))
        return Placement(frame: frame, matrix: local)
    }

    /// The paint of `draw` in `color` at `placement` on a target of `bounds`,
    /// through its shape's coverage (found now, or earlier in the frame).
    func paint(of draw: PolygonDraw, at placement: Placement, color: PremultipliedColor,
               within bounds: PixelRect) throws -> MaskFill? {
        guard color.a > 0 else { return nil }
        let (width, height) = (placement.frame.width, placement.frame.height)
        let coverage = try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.keyCapacity(draw)) { buffer in
            let key = UnsafeBufferPointer(rebasing: buffer[..<Self.writeKey(draw, matrix: placement.matrix, width: width,
                                                                            height: height, into: buffer)])
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(key))
            let hash = hasher.finalize()
            let known = table.withLock { t -> [UInt8]? in
                // The hash looked up once, its list reached through the values' index.
                guard let bucket = t.byHash.index(forKey: hash),
                      let index = t.byHash.values[bucket].firstIndex(where: { $0.key.elementsEqual(key) }) else { return nil }
                t.byHash.values[bucket][index].lastUsed = t.frame
                return t.byHash.values[bucket][index].coverage
            }
            if let known { return known }
            let made = try Self.coverage(of: draw, matrix: placement.matrix, width: width, height: height)
            table.withLock { t in
                t.made += 1
                guard t.count < Self.maximumShapes, t.bytes + made.count <= Self.maximumBytes,
                      t.byHash[hash]?.contains(where: { $0.key.elementsEqual(key) }) != true else { return }
                t.byHash[hash, default: []].append(Shape(key: Array(key), coverage: made, lastUsed: t.frame))
                t.count += 1
                t.bytes += made.count
            }
            return made
        }
        return try MaskFill(CoverageMask(uncheckedBounds: placement.frame, values: coverage), color: color, within: bounds)
    }

    /// The most words `writeKey` writes for `draw`.
    private static func keyCapacity(_ draw: PolygonDraw) -> Int { 20 + 2 * draw.polygon.count }

    /// Writes the key of a draw's shape (its frame's size, opacity, matrix
    /// in the frame, polygon and rounded shape, to the bit) into `bits`,
    /// which has `keyCapacity(draw)` words; returns how many it wrote.
    private static func writeKey(_ draw: PolygonDraw, matrix m: CATransform3D, width: Int, height: Int,
                                 into bits: UnsafeMutableBufferPointer<UInt64>) -> Int {
        var count = 0
        func add(_ word: UInt64) {
            bits[count] = word
            count += 1
        }
        func add(_ v: Double) { add(v.bitPattern) }
        add(UInt64(width))
        add(UInt64(height))
        add(draw.opacity)
        add(UInt64(draw.polygon.count))
        add(draw.coverage == nil ? UInt64(0) : 1)
        add(Double(m.m11)); add(Double(m.m12)); add(Double(m.m21)); add(Double(m.m22)); add(Double(m.m41)); add(Double(m.m42))
        for p in draw.polygon { add(Double(p.x)); add(Double(p.y)) }
        if let shape = draw.coverage {
            let r = shape.rect, radii = shape.radii
            add(Double(r.origin.x)); add(Double(r.origin.y)); add(Double(r.size.width)); add(Double(r.size.height))
            add(radii.minXMinY); add(radii.maxXMinY); add(radii.maxXMaxY); add(radii.minXMaxY)
            add(shape.borderWidth ?? -1)
        }
        return count
    }

    /// The draw painted in opaque white on a transparent frame: its alpha is
    /// each pixel's coverage byte.
    private static func coverage(of draw: PolygonDraw, matrix: CATransform3D, width: Int, height: Int) throws -> [UInt8] {
        var frame = try Pixmap(width: width, height: height)
        if let painting = try PolygonPainting(
            PolygonPaint(polygon: draw.polygon, transform: matrix, source: .solid(.white),
                         roundedRect: draw.coverage, alpha: draw.opacity),
            within: frame.bounds) {
            frame.paint(painting)
            painting.recycle()
        }
        var coverage = [UInt8](repeating: 0, count: width * height)
        for i in 0..<width * height { coverage[i] = frame.data[4 * i + 3] }
        return coverage
    }
}

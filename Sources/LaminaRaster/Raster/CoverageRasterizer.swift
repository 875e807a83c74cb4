import Foundation
import Synchronization

/// Turns outlines made of line segments into anti-aliased coverage masks with
/// exact-area anti-aliasing (see `CoverageAccumulator` for the method).
///
/// The rasterizer clips to `clip` (normally the target pixmap's bounds): the
/// mask it returns covers only the shape's pixel bounds inside `clip`, and its
/// working memory is proportional to that area whatever the size of the
/// geometry outside.
package struct CoverageRasterizer: Sendable {
    /// Coordinates beyond this magnitude are rejected: past it a Double no longer
    /// places an edge to a fraction of a pixel, so the result would be noise.
    package static let coordinateLimit = 1e12

    /// The pixels that may be covered.
    package let clip: PixelRect

    /// A rasterizer for a target of the given size.
    package init(width: Int, height: Int) throws {
        try Pixmap.checkSize(width, height, "rasterizer target")
        clip = PixelRect(width: width, height: height)
    }

    /// A rasterizer limited to `clip`.
    package init(clip: PixelRect) throws {
        try Pixmap.checkSize(clip.width, clip.height, "rasterizer clip")
        self.clip = clip
    }

    /// Rows per band of the accumulation buffer: small enough to stay in
    /// cache, tall enough that re-clipping long edges per band costs little
    /// and that most of an animation's shapes are one band (64 against 32:
    /// fireworks' frames 4% fewer instructions, the many-shapes benches 2%
    /// faster, Apple's 790 pictures the same to the byte).
    package static let bandRows = 64

    /// The coverage of the outline formed by `segments` under `fillRule`.
    ///
    /// The segments should form closed loops (each point where one ends, another
    /// starts); open outlines give coverage that leaks to the right of them.
    package func rasterize(_ segments: [LineSegment], fillRule: FillRule) throws -> CoverageMask {
        let work = Self.takeWork()
        defer { Self.giveBack(work) }
        return try rasterize(segments, fillRule: fillRule, using: work)
    }

    /// The coverage of closed contours, each joined back to its first
    /// point, with every point first mapped by `map` (a draw's projection
    /// to pixels). The edges are written into the rasterizer's kept working
    /// memory, so a draw makes no list of its points or edges.
    ///
    /// ```swift
    /// let mask = try CoverageRasterizer(width: 64, height: 64)
    ///     .rasterize(contours: star.contours, fillRule: .evenOdd) { matrix.apply(to: $0) }
    /// ```
    package func rasterize(
        contours: [[CGPoint]], fillRule: FillRule, mapping map: (CGPoint) -> CGPoint = { $0 }
    ) throws -> CoverageMask {
        try rasterize(anyContours: contours, fillRule: fillRule, mapping: map)
    }

    /// The coverage of one closed polygon, in pixels already.
    package func rasterize(polygon: UnsafeBufferPointer<CGPoint>, fillRule: FillRule) throws -> CoverageMask {
        try rasterize(anyContours: CollectionOfOne(polygon), fillRule: fillRule) { $0 }
    }

    /// The two above; generic here, where both are specialized (called
    /// across modules, the generic one boxed every point).
    private func rasterize<Contours: Sequence>(
        anyContours contours: Contours, fillRule: FillRule, mapping map: (CGPoint) -> CGPoint
    ) throws -> CoverageMask where Contours.Element: Collection<CGPoint> {
        let work = Self.takeWork()
        defer { Self.giveBack(work) }
        work.segments.removeAll(keepingCapacity: true)
        Self.join(contours, mapping: map, into: &work.segments)
        // A second reference to the same list, not a copy: the rasterizing
        // reads it while writing the rest of `work`.
        let segments = work.segments
        return try rasterize(segments, fillRule: fillRule, using: work)
    }

    private func rasterize(_ segments: [LineSegment], fillRule: FillRule, using work: Work) throws -> CoverageMask {
        guard let bounds = try bounds(of: segments) else { return .empty }
        // Every byte is written below, band by band.
        var values = BufferPool.masks.take(count: bounds.width * bounds.height, zeroed: false)
        values.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            Self.accumulate(segments, over: bounds, meeting: bounds.minY..<bounds.maxY, using: work) { bandTop, accumulator in
                accumulator.resolve(fillRule, into: base + (bandTop - bounds.minY) * bounds.width)
            }
        }
        return CoverageMask(uncheckedBounds: bounds, values: values, pooled: true)
    }

    /// The pixels `segments` may cover within `clip`, nil for none.
    /// - Throws: `RasterError.nonFinite` for a coordinate that is not a
    ///   number or beyond `coordinateLimit`.
    package func bounds(of segments: [LineSegment]) throws -> PixelRect? {
        let limit = Self.coordinateLimit
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for (index, s) in segments.enumerated() {
            // Written so that NaN fails too.
            guard abs(s.x0) <= limit, abs(s.y0) <= limit, abs(s.x1) <= limit, abs(s.y1) <= limit else {
                throw RasterError.nonFinite(
                    what: "segment \(index) (\(s.x0), \(s.y0)) → (\(s.x1), \(s.y1)), limit ±\(limit)")
            }
            minX = min(minX, s.x0, s.x1); maxX = max(maxX, s.x0, s.x1)
            minY = min(minY, s.y0, s.y1); maxY = max(maxY, s.y0, s.y1)
        }
        guard !segments.isEmpty else { return nil }
        // The shape's pixel bounds, clipped in floating point first so that
        // huge coordinates never reach an Int conversion.
        let left = max(minX.rounded(.down), Double(clip.minX))
        let right = min(maxX.rounded(.up), Double(clip.maxX))
        let top = max(minY.rounded(.down), Double(clip.minY))
        let bottom = min(maxY.rounded(.up), Double(clip.maxY))
        guard left < right, top < bottom else { return nil }
        return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }

    /// The edges of closed contours, each joined back to its first point,
    /// every point mapped by `map` (as `rasterize(contours:fillRule:mapping:)`
    /// joins them).
    package static func segments(ofContours contours: [[CGPoint]], mapping map: (CGPoint) -> CGPoint) -> [LineSegment] {
        var segments: [LineSegment] = []
        segments.reserveCapacity(contours.reduce(0) { $0 + $1.count })
        join(contours, mapping: map, into: &segments)
        return segments
    }

    /// Appends to `segments` each contour's points joined in order, then
    /// the last back to the first, every point mapped by `map` (a contour
    /// of fewer than two points adds none). Inlined where it is called, so
    /// that each caller's kind of contours is specialized.
    @inline(__always)
    private static func join<Contours: Sequence>(_ contours: Contours, mapping map: (CGPoint) -> CGPoint,
                                                 into segments: inout [LineSegment]) where Contours.Element: Collection<CGPoint> {
        for contour in contours where contour.count >= 2 {
            var first: CGPoint?, previous = CGPoint.zero
            for point in contour {
                let mapped = map(point)
                if first == nil { first = mapped } else { segments.append(LineSegment(from: previous, to: mapped)) }
                previous = mapped
            }
            if let first { segments.append(LineSegment(from: previous, to: first)) }
        }
    }

    /// Accumulates `segments` over `bounds` (from `bounds(of:)`) band by
    /// band, each band `bandRows` rows from the top of `bounds`, and calls
    /// `body` with each band's top row and its accumulated cells, for the
    /// bands that meet `rows`. Whoever reads the cells of a band from here
    /// reads the sums the mask is resolved from, to the last bit.
    package static func accumulate(_ segments: [LineSegment], over bounds: PixelRect, meeting rows: Range<Int>,
                                   _ body: (_ bandTop: Int, _ accumulator: borrowing CoverageAccumulator) -> Void) {
        let work = takeWork()
        defer { giveBack(work) }
        accumulate(segments, over: bounds, meeting: rows, using: work, body)
    }

    private static func accumulate(_ segments: [LineSegment], over bounds: PixelRect, meeting rows: Range<Int>, using work: Work,
                                   _ body: (_ bandTop: Int, _ accumulator: borrowing CoverageAccumulator) -> Void) {
        let (left, top) = (Double(bounds.minX), Double(bounds.minY))
        work.accumulator.reset(width: bounds.width, maximumHeight: min(bandRows, bounds.height))
        if bounds.height <= bandRows {
            // One band (most of an animation's shapes): every edge goes
            // straight to the accumulator, which drops the ones outside
            // the rows, without the band lists' sorting. The same sums
            // in the same order as through `EdgeBands`.
            work.accumulator.startBand(rows: bounds.height)
            work.accumulator.addLines(segments, minusX: left, minusY: top)
            body(bounds.minY, work.accumulator)
            return
        }
        work.bands.reset(segments, left: left, top: top, height: bounds.height, bandRows: bandRows)
        work.bands.forEachBand { bandTop, bandHeight, active in
            let band = (bounds.minY + bandTop)..<(bounds.minY + bandTop + bandHeight)
            guard band.overlaps(rows) else { return }
            work.accumulator.startBand(rows: bandHeight)
            work.accumulator.addLines(active, minusX: 0, minusY: Double(bandTop))
            body(band.lowerBound, work.accumulator)
        }
    }

    /// A rasterization's working memory: the edge lists and the band's
    /// accumulation cells. A few are kept between draws (as many as draws
    /// rasterize at once), so a frame's hundreds of paths reuse them instead
    /// of allocating their lists afresh. A class, handed out and back as
    /// one reference: as a value, each draw copied its ten lists in and
    /// out of the pool (a retain and a release each). Used by one draw at
    /// a time (taken from the pool, given back after), so its fields go
    /// unchecked for overlapping access.
    private final class Work: @unchecked Sendable {
        /// A draw's edges, when the rasterizer writes them from its contours.
        @exclusivity(unchecked) var segments: [LineSegment] = []
        @exclusivity(unchecked) var bands = EdgeBands()
        @exclusivity(unchecked) var accumulator = CoverageAccumulator(width: 0, maximumHeight: 0)
    }

    private static let idleWork = Mutex<[Work]>([])
    /// Kept working memory: at most this many, none over `maximumKeptElements`.
    private static let maximumIdleWork = 16
    private static let maximumKeptElements = 1 << 20

    private static func takeWork() -> Work {
        idleWork.withLock { $0.popLast() } ?? Work()
    }

    private static func giveBack(_ work: Work) {
        guard work.segments.capacity + work.bands.capacity + work.accumulator.capacity <= maximumKeptElements else { return }
        idleWork.withLock { idle in
            if idle.count < maximumIdleWork { idle.append(work) }
        }
    }
}

import Foundation

extension CGPath {
    /// The tolerance, in path units, to which `copy(strokingWithWidth:...)`
    /// and `copy(dashingWithPhase:lengths:transform:)` flatten curves and
    /// round joins: their results are polygons, where Core Graphics keeps
    /// curves.
    public static let copyFlatteningTolerance: CGFloat = 0.01

    /// The outline of this path stroked with the given attributes, as closed
    /// polygons to fill with the nonzero rule, then transformed by
    /// `transform` (`CGPath.copy(strokingWithWidth:lineCap:lineJoin:
    /// miterLimit:transform:)`).
    public func copy(
        strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin, miterLimit: CGFloat,
        transform: CGAffineTransform = .identity
    ) -> CGPath {
        let style = StrokeStyle(lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit)
        let outline = pathData.strokeOutline(style: style, tolerance: Self.copyFlatteningTolerance)
        return CGPath(PathData(polygons: outline).applying(transform))
    }

    /// The dashes of this path as separate subpaths of straight segments,
    /// then transformed by `transform`
    /// (`CGPath.copy(dashingWithPhase:lengths:transform:)`). A zero-length
    /// dash is a zero-length line, which round and square caps draw as a dot.
    public func copy(
        dashingWithPhase phase: CGFloat, lengths: [CGFloat], transform: CGAffineTransform = .identity
    ) -> CGPath {
        let polylines = flattened(tolerance: Self.copyFlatteningTolerance)
        let style = StrokeStyle(dashPattern: lengths, dashPhase: phase)
        var data = PathData()
        for run in StrokeRuns.runs(of: polylines, style: style) {
            data.move(to: run.points[0])
            if run.points.count == 1 { data.addLine(to: run.points[0]) }
            for p in run.points.dropFirst() { data.addLine(to: p) }
            if run.isClosed { data.closeSubpath() }
        }
        return CGPath(data.applying(transform))
    }
}

import Foundation

/// Everything that decides the shape of a stroke, with Core Graphics' and
/// `CAShapeLayer`'s names and defaults.
package struct StrokeStyle: Hashable, Sendable {
    /// The stroke's width, centred on the path; 1 by default. A width that
    /// is not positive and finite gives no outline (hairlines are the
    /// renderer's business).
    public var lineWidth: CGFloat
    /// How open ends are drawn; `.butt` by default.
    public var lineCap: CGLineCap
    /// How corners are drawn; `.miter` by default.
    public var lineJoin: CGLineJoin
    /// The longest miter, as a multiple of `lineWidth`, before a miter join
    /// is beveled instead (Core Graphics' rule: bevel when 1 / sin(φ/2)
    /// exceeds it, φ being the angle between the segments); 10 by default.
    public var miterLimit: CGFloat
    /// Lengths of dashes and gaps, alternately, repeated; an odd count
    /// repeats with dashes and gaps swapped, as in Core Graphics. Empty, or
    /// any length negative or not finite, or all zero, draws a solid line
    /// (Core Graphics ignores such a pattern).
    public var dashPattern: [CGFloat]
    /// How far into the dash pattern each subpath starts.
    public var dashPhase: CGFloat
    /// The fraction of the whole path's length where the stroke starts
    /// (`CAShapeLayer.strokeStart`), clamped to 0...1; 0 by default.
    public var strokeStart: CGFloat
    /// The fraction of the whole path's length where the stroke ends
    /// (`CAShapeLayer.strokeEnd`), clamped to 0...1; 1 by default.
    public var strokeEnd: CGFloat

    /// A stroke style; every parameter has Core Graphics' default.
    public init(
        lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter,
        miterLimit: CGFloat = 10, dashPattern: [CGFloat] = [], dashPhase: CGFloat = 0,
        strokeStart: CGFloat = 0, strokeEnd: CGFloat = 1
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dashPattern = dashPattern
        self.dashPhase = dashPhase
        self.strokeStart = strokeStart
        self.strokeEnd = strokeEnd
    }
}

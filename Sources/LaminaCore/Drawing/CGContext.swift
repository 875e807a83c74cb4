import Foundation

/// A Core Graphics drawing context with the calls a layer's `draw(in:)` and
/// its delegate's `draw(_:in:)` use.
///
/// A context does not paint pixels as it goes: it resolves each call against
/// its graphics state (CTM, colours, line style, alpha, clip) into a
/// device-space command of a `DrawingRecording`. `makeImage()` has
/// `ContextRasterizer` (Replay/) paint the recording; the renderer can also
/// take `recording` and draw it itself, at the resolution it needs.
///
/// As for Core Graphics' bitmap contexts, device space has its origin at the
/// bottom-left corner and y growing up (see `DrawingRecording`), and the
/// initial CTM is the identity. The current path is kept in device space:
/// points are transformed by the CTM when they are added, so changing the
/// CTM halfway through a path affects only what is added afterwards.
public final class CGContext {
    /// The bitmap's width in pixels.
    public let width: Int
    /// The bitmap's height in pixels.
    public let height: Int

    var state = GraphicsState()
    var savedStates: [GraphicsState] = []
    /// The current path, in device space.
    var path = PathData()
    var commands: [DrawingCommand] = []

    /// A bitmap context of `width` x `height` pixels, transparent, as
    /// `CGContext(data: nil, width:height:...)` makes one with 8-bit RGBA.
    /// Returns nil when a size is below 1.
    public init?(width: Int, height: Int) {
        guard width >= 1, height >= 1 else { return nil }
        self.width = width
        self.height = height
    }

    /// What has been drawn so far.
    package var recording: DrawingRecording {
        DrawingRecording(width: width, height: height, commands: commands)
    }

    /// An image of what has been drawn so far, painted by
    /// `ContextRasterizer` (in this module: nothing needs installing); nil
    /// when the drawing cannot be painted (a coordinate out of range).
    public func makeImage() -> CGImage? {
        ContextRasterizer().makeImage(from: recording)
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state (CTM, colours, line style, alpha,
    /// clip, interpolation, anti-aliasing).
    public func saveGState() {
        savedStates.append(state)
    }

    /// Brings back the state of the matching `saveGState()`. Without one it
    /// does nothing (Core Graphics logs an error).
    public func restoreGState() {
        if let saved = savedStates.popLast() { state = saved }
    }

    /// The current transformation matrix: user space to device space.
    public var ctm: CGAffineTransform { state.ctm }

    /// User space to device space; the CTM, for a bitmap context.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { state.ctm }

    /// A user-space point in device space.
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm) }

    /// A device-space point in user space.
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm.inverted()) }

    /// Moves the origin of user space (`CGContextTranslateCTM`).
    public func translateBy(x: CGFloat, y: CGFloat) {
        state.ctm = state.ctm.translatedBy(x: x, y: y)
    }

    /// Scales user space (`CGContextScaleCTM`).
    public func scaleBy(x: CGFloat, y: CGFloat) {
        state.ctm = state.ctm.scaledBy(x: x, y: y)
    }

    /// Rotates user space by `angle` radians (`CGContextRotateCTM`); positive
    /// angles turn +x towards +y.
    public func rotate(by angle: CGFloat) {
        state.ctm = state.ctm.rotated(by: angle)
    }

    /// Applies `transform` to user space before the CTM (`CGContextConcatCTM`).
    public func concatenate(_ transform: CGAffineTransform) {
        state.ctm = transform.concatenating(state.ctm)
    }

    /// Fills paint in `color` from now on.
    public func setFillColor(_ color: CGColor) { state.fillColor = color }
    /// Fills paint in this sRGB colour from now on.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Fills paint in this grey from now on.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(gray: gray, alpha: alpha)
    }

    /// Strokes paint in `color` from now on.
    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }
    /// Strokes paint in this sRGB colour from now on.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    /// Strokes paint in this grey from now on.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(gray: gray, alpha: alpha)
    }

    /// The stroke width in user space. Default 1.
    public func setLineWidth(_ width: CGFloat) { state.stroke.lineWidth = width }
    /// How strokes end from now on.
    public func setLineCap(_ cap: CGLineCap) { state.stroke.lineCap = cap }
    /// How stroke segments meet from now on.
    public func setLineJoin(_ join: CGLineJoin) { state.stroke.lineJoin = join }
    /// The longest miter, as a multiple of the line width. Default 10.
    public func setMiterLimit(_ limit: CGFloat) { state.stroke.miterLimit = limit }

    /// Dashes the stroke: alternating dash and gap `lengths`, starting
    /// `phase` into the pattern. Empty lengths give a solid line.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.stroke.dashPhase = phase
        state.stroke.dashPattern = lengths
    }

    /// Multiplies everything drawn afterwards by `alpha` (clamped to 0...1).
    public func setAlpha(_ alpha: CGFloat) {
        state.alpha = alpha.isFinite ? min(1, max(0, alpha)) : 0
    }

    /// Whether edges are anti-aliased. Default true.
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }

    /// How images are sampled when scaled.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }
}

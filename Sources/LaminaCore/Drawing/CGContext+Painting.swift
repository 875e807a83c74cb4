import Foundation

/// The kinds of painting `drawPath(using:)` does.
public enum CGPathDrawingMode: Int32, Hashable, Sendable, CaseIterable {
    case fill = 0
    case eoFill = 1
    case stroke = 2
    case fillStroke = 3
    case eoFillStroke = 4
}

/// Painting: each call records one or two `DrawingCommand`s. The calls that
/// paint the current path, and the rectangle and ellipse conveniences,
/// empty the current path afterwards, as Core Graphics does.
extension CGContext {

    /// Fills the current path with the fill colour.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        recordFill(path, rule: rule)
        path.removeAll()
    }

    /// Strokes the current path with the stroke colour and line style.
    public func strokePath() {
        recordStroke(path)
        path.removeAll()
    }

    /// Fills and/or strokes the current path (the fill first).
    public func drawPath(using mode: CGPathDrawingMode) {
        switch mode {
        case .fill: recordFill(path, rule: .winding)
        case .eoFill: recordFill(path, rule: .evenOdd)
        case .stroke: recordStroke(path)
        case .fillStroke: recordFill(path, rule: .winding); recordStroke(path)
        case .eoFillStroke: recordFill(path, rule: .evenOdd); recordStroke(path)
        }
        path.removeAll()
    }

    /// Fills `rect`.
    public func fill(_ rect: CGRect) { fill([rect]) }

    /// Fills each rectangle.
    public func fill(_ rects: [CGRect]) {
        var shape = PathData()
        for rect in rects { shape.addRect(rect, transform: state.ctm) }
        recordFill(shape, rule: .winding)
        path.removeAll()
    }

    /// Strokes the outline of `rect`.
    public func stroke(_ rect: CGRect) {
        var shape = PathData()
        shape.addRect(rect, transform: state.ctm)
        recordStroke(shape)
        path.removeAll()
    }

    /// Strokes the outline of `rect` with `width`, leaving the line width of
    /// the graphics state as it was.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let saved = state.stroke.lineWidth
        state.stroke.lineWidth = width
        stroke(rect)
        state.stroke.lineWidth = saved
    }

    /// Fills the ellipse that fits `rect`.
    public func fillEllipse(in rect: CGRect) {
        var shape = PathData()
        shape.addEllipse(in: rect, transform: state.ctm)
        recordFill(shape, rule: .winding)
        path.removeAll()
    }

    /// Strokes the ellipse that fits `rect`.
    public func strokeEllipse(in rect: CGRect) {
        var shape = PathData()
        shape.addEllipse(in: rect, transform: state.ctm)
        recordStroke(shape)
        path.removeAll()
    }

    /// Strokes the lines between each pair of points: 0 to 1, 2 to 3...
    public func strokeLineSegments(between points: [CGPoint]) {
        var shape = PathData()
        var i = 0
        while i + 1 < points.count {
            shape.move(to: points[i].applying(state.ctm))
            shape.addLine(to: points[i + 1].applying(state.ctm))
            i += 2
        }
        recordStroke(shape)
        path.removeAll()
    }

    /// Makes `rect` transparent, within the clip.
    public func clear(_ rect: CGRect) {
        var shape = PathData()
        shape.addRect(rect, transform: state.ctm)
        commands.append(.clear(ClearCommand(path: shape, clip: state.clip)))
    }

    /// Draws `image` into `rect`, its top row along `rect.maxY` as in Core
    /// Graphics (see `ImageCommand`).
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty, state.alpha > 0 else { return }
        commands.append(.image(ImageCommand(
            image: image, rect: rect.standardized, transform: state.ctm, alpha: state.alpha,
            interpolationQuality: state.interpolationQuality, clip: state.clip,
            antialias: state.shouldAntialias)))
    }

    // MARK: Recording

    /// The colour as painted: the graphics state's alpha multiplied in.
    private func painted(_ color: CGColor) -> CGColor {
        state.alpha == 1 ? color : color.copy(alpha: color.alpha * state.alpha)
    }

    private func recordFill(_ devicePath: PathData, rule: CGPathFillRule) {
        guard !devicePath.isEmpty else { return }
        commands.append(.fill(FillCommand(
            path: devicePath, rule: rule, color: painted(state.fillColor), clip: state.clip,
            antialias: state.shouldAntialias)))
    }

    /// Records a stroke of a device-space path, taking it back to the current
    /// user space. A singular CTM strokes nothing (no user space to stroke in).
    private func recordStroke(_ devicePath: PathData) {
        let ctm = state.ctm
        guard !devicePath.isEmpty, ctm.determinant != 0, ctm.determinant.isFinite else { return }
        commands.append(.stroke(StrokeCommand(
            path: devicePath.applying(ctm.inverted()), transform: ctm, style: state.stroke,
            color: painted(state.strokeColor), clip: state.clip, antialias: state.shouldAntialias)))
    }
}

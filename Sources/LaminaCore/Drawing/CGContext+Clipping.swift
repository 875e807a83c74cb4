import Foundation

/// Clipping: each call intersects the clip of the graphics state with a new
/// region; `restoreGState()` is the way back out, as in Core Graphics.
extension CGContext {

    /// Intersects the clip with the current path, then empties the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        state.clip.regions.append(DrawingClip.Region(path: path, rule: rule))
        path.removeAll()
    }

    /// Intersects the clip with the current path (non-zero rule).
    public func clip() { clip(using: .winding) }

    /// Intersects the clip with `rect`.
    public func clip(to rect: CGRect) {
        var shape = PathData()
        shape.addRect(rect, transform: state.ctm)
        state.clip.regions.append(DrawingClip.Region(path: shape, rule: .winding))
    }

    /// Intersects the clip with the union of `rects`.
    public func clip(to rects: [CGRect]) {
        var shape = PathData()
        for rect in rects { shape.addRect(rect, transform: state.ctm) }
        state.clip.regions.append(DrawingClip.Region(path: shape, rule: .winding))
    }

    /// Removes all clipping (`CGContextResetClip`).
    public func resetClip() { state.clip = .none }

    /// A user-space box that holds the clip: the bitmap, narrowed by the
    /// bounding box of each region.
    public var boundingBoxOfClipPath: CGRect {
        var box = CGRect(x: 0, y: 0, width: width, height: height)
        for region in state.clip.regions {
            let regionBox = region.path.boundingBoxOfPath
            box = regionBox.isNull ? .null : box.intersection(regionBox)
        }
        let inverse = state.ctm.inverted()
        return box.isNull ? box : box.applying(inverse)
    }
}

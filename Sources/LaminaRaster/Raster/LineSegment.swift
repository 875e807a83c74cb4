import Foundation

/// A directed edge of an outline, in pixel coordinates (x right, y down;
/// pixel `(i, j)` is the unit square `[i, i+1] × [j, j+1]`).
///
/// Direction matters: the winding number of a point is the number of edges
/// crossing the horizontal line through it going down minus those going up,
/// counted to its left.
package struct LineSegment: Hashable, Sendable {
    package var x0: Double
    package var y0: Double
    package var x1: Double
    package var y1: Double

    package init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    /// A segment from single-precision coordinates.
    package init(x0: Float, y0: Float, x1: Float, y1: Float) {
        self.init(x0: Double(x0), y0: Double(y0), x1: Double(x1), y1: Double(y1))
    }

    package init(from start: CGPoint, to end: CGPoint) {
        self.init(x0: Double(start.x), y0: Double(start.y), x1: Double(end.x), y1: Double(end.y))
    }
}

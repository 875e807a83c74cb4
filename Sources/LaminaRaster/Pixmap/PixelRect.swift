import Foundation
import LaminaGeometry

/// An integer rectangle of pixels: columns `x ..< x + width`, rows `y ..< y + height`.
///
/// A rectangle with a width or height of zero or less is empty.
package struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The rectangle from the origin with the given size.
    package init(width: Int, height: Int) {
        self.init(x: 0, y: 0, width: width, height: height)
    }

    /// The empty rectangle at the origin.
    package static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    package var minX: Int { x }
    package var minY: Int { y }
    /// One past the last column, saturating instead of overflowing.
    package var maxX: Int { x.saturatingAdd(width) }
    /// One past the last row, saturating instead of overflowing.
    package var maxY: Int { y.saturatingAdd(height) }

    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels in both rectangles; `.zero` when they do not meet.
    package func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x0 < x1, y0 < y1 else { return .zero }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether every pixel of `other` is in `self` (an empty `other` always is).
    /// The smallest rectangle holding both (an empty one holds nothing).
    package func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    package func contains(_ other: PixelRect) -> Bool {
        other.isEmpty
            || (other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// Whether the pixel at column `px`, row `py` is in the rectangle.
    package func contains(x px: Int, y py: Int) -> Bool {
        px >= minX && px < maxX && py >= minY && py < maxY
    }

    package var description: String { "(\(x), \(y), \(width) x \(height))" }
}

extension Int {
    /// `self + other`, pinned to the representable range instead of trapping.
    @inline(__always)
    package func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

extension PixelRect {
    /// The pixels touched by the bounding box of `points`, and one more on
    /// every side; nil for no points or a coordinate that is not finite.
    package static func covering(_ points: [CGPoint]) -> PixelRect? {
        CGRect.bounding(points).flatMap(covering)
    }

    /// The pixels touched by `box`, and one more on every side; nil for a
    /// null box or a coordinate that is not finite.
    package static func covering(_ box: CGRect) -> PixelRect? {
        guard !box.isNull else { return nil }
        let (x0, x1, y0, y1) = (Double(box.minX), Double(box.maxX), Double(box.minY), Double(box.maxY))
        let limit = Double(Int32.max)
        guard [x0, x1, y0, y1].allSatisfy({ $0.isFinite && abs($0) < limit }) else { return nil }
        let minX = Int(x0.rounded(.down)) - 1, minY = Int(y0.rounded(.down)) - 1
        let maxX = Int(x1.rounded(.up)) + 1, maxY = Int(y1.rounded(.up)) + 1
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

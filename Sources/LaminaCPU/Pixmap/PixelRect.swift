/// An integer rectangle of pixels: columns `x ..< x + width`, rows `y ..< y + height`.
///
/// A rectangle with a width or height of zero or less is empty.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The rectangle from the origin with the given size.
    public init(width: Int, height: Int) {
        self.init(x: 0, y: 0, width: width, height: height)
    }

    /// The empty rectangle at the origin.
    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Int { x }
    public var minY: Int { y }
    /// One past the last column, saturating instead of overflowing.
    public var maxX: Int { x.saturatingAdd(width) }
    /// One past the last row, saturating instead of overflowing.
    public var maxY: Int { y.saturatingAdd(height) }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels in both rectangles; `.zero` when they do not meet.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x0 < x1, y0 < y1 else { return .zero }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether every pixel of `other` is in `self` (an empty `other` always is).
    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty
            || (other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// Whether the pixel at column `px`, row `py` is in the rectangle.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= minX && px < maxX && py >= minY && py < maxY
    }

    public var description: String { "(\(x), \(y), \(width) x \(height))" }
}

extension Int {
    /// `self + other`, pinned to the representable range instead of trapping.
    @inline(__always)
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

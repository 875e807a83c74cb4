import Foundation

/// The four corner radii of a rectangle, named by the corner as Core
/// Animation's `maskedCorners` names them (y grows downwards, so `minY` is
/// the top edge in pixels when the layer is not flipped).
///
/// The one corner-radii type of the renderer: the snapshot makes them from
/// `cornerRadius` and `maskedCorners`, `RoundedRectCoverage` fits them to
/// their rect, and both backends draw the fitted ones as they are.
package struct CornerRadii: Hashable, Sendable {
    /// The corner at minimum x and y (top-left with y down).
    public var minXMinY: Double
    /// The corner at maximum x, minimum y.
    public var maxXMinY: Double
    /// The corner at maximum x and y.
    public var maxXMaxY: Double
    /// The corner at minimum x, maximum y.
    public var minXMaxY: Double

    /// Radii corner by corner.
    public init(minXMinY: Double, maxXMinY: Double, maxXMaxY: Double, minXMaxY: Double) {
        self.minXMinY = minXMinY; self.maxXMinY = maxXMinY
        self.maxXMaxY = maxXMaxY; self.minXMaxY = minXMaxY
    }

    /// The same radius at every corner (`cornerRadius`).
    public init(uniform r: Double) {
        self.init(minXMinY: r, maxXMinY: r, maxXMaxY: r, minXMaxY: r)
    }

    /// Square corners.
    public static let zero = CornerRadii(uniform: 0)

    /// Clockwise from minX-minY, as a shader's `vec4` takes them.
    public var clockwise: [Double] { [minXMinY, maxXMinY, maxXMaxY, minXMaxY] }

    /// Whether some corner is rounded. (Asked of every layer a frame:
    /// the four compared, not listed in an array made for it.)
    public var isRounded: Bool { minXMinY > 0 || maxXMinY > 0 || maxXMaxY > 0 || minXMaxY > 0 }

    /// The radii as Core Animation draws them in `rect`: each limited to half
    /// the rect's shorter side (so adjacent corners never overlap along a
    /// side), and 0 for a negative or undefined one.
    public func fitted(to rect: CGRect) -> CornerRadii {
        let limit = max(0, Double(min(abs(rect.width), abs(rect.height))) / 2)
        func fit(_ r: Double) -> Double { r > 0 ? min(r, limit) : 0 }
        return CornerRadii(minXMinY: fit(minXMinY), maxXMinY: fit(maxXMinY), maxXMaxY: fit(maxXMaxY), minXMaxY: fit(minXMaxY))
    }
}

/// Coverage of a rounded rectangle, optionally only a ring inside it.
package struct RoundedRectCoverage: Hashable, Sendable {
    /// The rectangle in local coordinates.
    public var rect: CGRect
    /// The corner radii, fitted to `rect` (`CornerRadii.fitted(to:)`) when
    /// the coverage is made: a backend draws them as they are.
    public var radii: CornerRadii
    /// When set, only the ring of this width inside the rectangle is covered
    /// (a border); its inner corners have radius `max(0, r - borderWidth)`,
    /// as Core Animation draws them.
    public var borderWidth: Double?
    /// The coverage of `rect` with `radii` (fitted to it here), or of its ring
    /// `borderWidth` wide.
    public init(rect: CGRect, radii: CornerRadii = .zero, borderWidth: Double? = nil) {
        self.rect = rect; self.radii = radii.fitted(to: rect); self.borderWidth = borderWidth
    }
}

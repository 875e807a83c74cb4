import Foundation

/// The corners of a rectangle, as UIKit names them. UIKit's y axis points
/// down, so the *top* corners are at `minY`.
public struct UIRectCorner: OptionSet, Hashable, Sendable {
    /// The corners as bits (`topLeft` = 1, `topRight` = 2, `bottomLeft` = 4, `bottomRight` = 8).
    public let rawValue: UInt
    /// The corners whose bits `rawValue` sets.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The corner at (minX, minY).
    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    /// The corner at (maxX, minY).
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    /// The corner at (minX, maxY).
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    /// The corner at (maxX, maxY).
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    /// Every corner (UIKit's value: all bits set).
    public static let allCorners = UIRectCorner(rawValue: ~0)
}

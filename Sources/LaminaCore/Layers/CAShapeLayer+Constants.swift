import Foundation

/// The fill rule of a shape layer (`CAShapeLayerFillRule`).
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Inside where the winding number is not zero (the default).
    public static let nonZero = CAShapeLayerFillRule("non-zero")
    /// Inside where the winding number is odd.
    public static let evenOdd = CAShapeLayerFillRule("even-odd")

    /// The Core Graphics rule; an unknown value counts as `.nonZero`.
    public var cgFillRule: CGPathFillRule { self == .evenOdd ? .evenOdd : .winding }
}

/// The end caps of a shape layer's stroke (`CAShapeLayerLineCap`).
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Square ends at the end points (the default).
    public static let butt = CAShapeLayerLineCap("butt")
    /// Half discs past the end points.
    public static let round = CAShapeLayerLineCap("round")
    /// Square ends half the line width past the end points.
    public static let square = CAShapeLayerLineCap("square")

    /// The Core Graphics cap; an unknown value counts as `.butt`.
    public var cgLineCap: CGLineCap {
        switch self {
        case .round: .round
        case .square: .square
        default: .butt
        }
    }
}

/// The corners of a shape layer's stroke (`CAShapeLayerLineJoin`).
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Sharp corners, beveled beyond `miterLimit` (the default).
    public static let miter = CAShapeLayerLineJoin("miter")
    /// Rounded corners.
    public static let round = CAShapeLayerLineJoin("round")
    /// Cut-off corners.
    public static let bevel = CAShapeLayerLineJoin("bevel")

    /// The Core Graphics join; an unknown value counts as `.miter`.
    public var cgLineJoin: CGLineJoin {
        switch self {
        case .round: .round
        case .bevel: .bevel
        default: .miter
        }
    }
}

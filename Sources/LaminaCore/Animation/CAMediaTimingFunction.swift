import Foundation

/// The pacing of an animation as a cubic Bézier curve from (0, 0) to (1, 1)
/// (Core Animation's `CAMediaTimingFunction`): the x axis is the fraction of
/// the duration elapsed, the y axis the fraction of the change applied.
///
/// Immutable, like Core Animation's, and compared by control points.
public final class CAMediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The two inner control points; the outer ones are (0, 0) and (1, 1).
    public let c1x: Float, c1y: Float, c2x: Float, c2y: Float
    private let curve: UnitBezier

    /// A curve with control points (c1x, c1y) and (c2x, c2y). The x values
    /// belong in 0...1; outside it they are clamped when the curve is
    /// evaluated (Core Animation refuses them), while y may overshoot.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.c1x = c1x; self.c1y = c1y; self.c2x = c2x; self.c2y = c2y
        curve = UnitBezier(x1: Double(c1x), y1: Double(c1y), x2: Double(c2x), y2: Double(c2y))
    }

    /// One of Core Animation's predefined curves.
    public convenience init(name: CAMediaTimingFunctionName) {
        let p = name.controlPoints
        self.init(controlPoints: p.0, p.1, p.2, p.3)
    }

    /// Writes control point `index` (0...3; 0 is (0, 0) and 3 is (1, 1)) as
    /// two floats, x then y, at `values`, as Core Animation's
    /// `getControlPoint(at:values:)` does. An index outside 0...3 writes nothing.
    public func getControlPoint(at index: Int, values: UnsafeMutablePointer<Float>) {
        guard let point = controlPointValues(at: index) else { return }
        values[0] = point.x
        values[1] = point.y
    }

    /// Control point `index` (0...3), or nil outside that range.
    public func controlPoint(at index: Int) -> CGPoint? {
        controlPointValues(at: index).map { CGPoint(x: CGFloat($0.x), y: CGFloat($0.y)) }
    }

    private func controlPointValues(at index: Int) -> (x: Float, y: Float)? {
        switch index {
        case 0: (0, 0)
        case 1: (c1x, c1y)
        case 2: (c2x, c2y)
        case 3: (1, 1)
        default: nil
        }
    }

    /// The fraction of the change applied when `fraction` of the duration has
    /// elapsed: y at x = `fraction` on the curve. `fraction` is clamped to
    /// 0...1, and the ends map exactly to 0 and 1.
    public func solve(forInput fraction: Double) -> Double {
        curve.solve(fraction)
    }

    public static func == (l: CAMediaTimingFunction, r: CAMediaTimingFunction) -> Bool {
        l.c1x == r.c1x && l.c1y == r.c1y && l.c2x == r.c2x && l.c2y == r.c2y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1x); hasher.combine(c1y); hasher.combine(c2x); hasher.combine(c2y)
    }

    public var description: String {
        "CAMediaTimingFunction(controlPoints: \(c1x), \(c1y), \(c2x), \(c2y))"
    }
}

/// The names of Core Animation's predefined timing curves, string-backed like
/// its constants (`CAMediaTimingFunctionName`).
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Even pacing: control points (0, 0) and (1, 1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Slow start: (0.42, 0) and (1, 1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Slow end: (0, 0) and (0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Slow start and end: (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The curve of Core Animation's implicit animations: (0.25, 0.1) and (0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")

    /// The five names Core Animation defines.
    public static let allCases: [CAMediaTimingFunctionName] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]

    /// Apple's control points for the name; an unknown name is linear.
    var controlPoints: (Float, Float, Float, Float) {
        switch self {
        case .easeIn: (0.42, 0, 1, 1)
        case .easeOut: (0, 0, 0.58, 1)
        case .easeInEaseOut: (0.42, 0, 0.58, 1)
        case .default: (0.25, 0.1, 0.25, 1)
        default: (0, 0, 1, 1)
        }
    }
}

import Foundation

/// How a keyframe animation moves between its values
/// (`CAAnimationCalculationMode`), string-backed like Core Animation's constants.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Straight interpolation between neighbouring values (the default).
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Each value held until the next key time, without interpolation.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Linear, with key times chosen so that the value changes at a constant
    /// rate; `keyTimes` and `timingFunctions` are ignored.
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// A smooth Kochanek-Bartels spline through the values, shaped by
    /// `tensionValues`, `continuityValues` and `biasValues` (all 0: a
    /// Catmull-Rom spline).
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// The cubic spline with paced key times.
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")

    /// The five modes Core Animation defines.
    public static let allCases: [CAAnimationCalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]

    /// Whether key times come from the distances between values.
    var isPaced: Bool { self == .paced || self == .cubicPaced }
    /// Whether the values are joined by a spline.
    var isCubic: Bool { self == .cubic || self == .cubicPaced }
}

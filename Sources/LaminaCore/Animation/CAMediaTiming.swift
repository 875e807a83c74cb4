import Foundation

/// Seconds, as Core Animation measures time.
///
/// CoreFoundation's `CFTimeInterval` is not exported by Foundation on Linux,
/// so Lamina declares it, with the same meaning: a `Double` of seconds.
public typealias CFTimeInterval = Double

/// The current media time: seconds of a monotonic clock that never jumps
/// (`CACurrentMediaTime`). Only differences between two readings mean anything.
public func CACurrentMediaTime() -> CFTimeInterval {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return CFTimeInterval(now.tv_sec) + CFTimeInterval(now.tv_nsec) * 1e-9
}

/// The timing properties shared by animations and layers (Core Animation's
/// `CAMediaTiming`).
///
/// Every timed object has its own local timeline, derived from its parent's:
///
///     local = (parentTime - beginTime) * speed + timeOffset
///
/// (`convertFromParentTime(_:)`). For an animation the parent is the layer it
/// is attached to; for a layer, its superlayer. An animation then plays its
/// simple `duration`, repeated by `repeatCount` or for `repeatDuration`,
/// forwards then backwards when `autoreverses`, and `fillMode` decides what it
/// shows outside that active time. `AnimationTimingModel` holds that
/// arithmetic.
public protocol CAMediaTiming: AnyObject {
    /// When the object starts, in its parent's time. Defaults to 0.
    var beginTime: CFTimeInterval { get set }
    /// The length of one simple iteration, in local seconds. Defaults to 0,
    /// which an animation treats as Core Animation's default of 0.25 s.
    var duration: CFTimeInterval { get set }
    /// How fast local time runs relative to the parent's. Defaults to 1;
    /// 0 freezes the object at `timeOffset`, a negative speed runs it backwards.
    var speed: Float { get set }
    /// A shift of the local timeline, in local seconds. Defaults to 0.
    var timeOffset: CFTimeInterval { get set }
    /// How many times the simple duration plays; fractions play a partial
    /// last iteration, `.infinity` repeats forever, and 0 means once.
    var repeatCount: Float { get set }
    /// How long, in local seconds, the object repeats for; 0 means "use
    /// `repeatCount`". Core Animation leaves setting both undefined; Lamina
    /// lets a non-zero `repeatDuration` win.
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each iteration plays forwards and then backwards, which makes
    /// an iteration last twice the `duration`.
    var autoreverses: Bool { get set }
    /// What the object shows outside its active time.
    var fillMode: CAMediaTimingFillMode { get set }
}

extension CAMediaTiming {
    /// The local time at a parent time: `(t - beginTime) * speed + timeOffset`.
    ///
    /// For a layer this is the whole conversion from its superlayer's time.
    /// An animation also wraps and repeats that time; use
    /// `AnimationTimingModel.sample(atTime:)` for it.
    public func convertFromParentTime(_ t: CFTimeInterval) -> CFTimeInterval {
        (t - beginTime) * CFTimeInterval(speed) + timeOffset
    }
}

/// What a timed object shows outside its active time (`CAMediaTimingFillMode`).
/// String-backed like Core Animation's constants, so scene files and
/// archives read the same names.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// No effect outside the active time (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// After the end, hold the value of the last active instant.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// Before the start, hold the value of the first active instant.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both `backwards` and `forwards`.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    /// The four modes Core Animation defines.
    public static let allCases: [CAMediaTimingFillMode] = [.removed, .forwards, .backwards, .both]

    /// Whether the object shows its start value before it begins.
    /// Unknown modes fill nothing, like `removed`.
    public var fillsBackwards: Bool { self == .backwards || self == .both }

    /// Whether the object holds its end value after it ends.
    public var fillsForwards: Bool { self == .forwards || self == .both }
}

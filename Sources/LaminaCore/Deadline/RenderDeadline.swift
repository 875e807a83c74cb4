/// When a render request's work must stop: a time, and a flag its owner may
/// raise (a render server whose client gave up).
///
/// Everything a request does between its bytes and its picture checks it:
/// the scene readers (`SceneDecoder`, `CAMLReader`) between layers,
/// elements, images and archive entries, the pipeline between its stages,
/// the backends between draw commands. So a request stops within one such
/// step of its deadline, wherever it is (a clock read per step costs
/// nothing measurable).
///
/// ```swift
/// let deadline = RenderDeadline(.now + .seconds(2))
/// let image = try renderer.render(plan, deadline: deadline)  // or RenderInterruption
/// ```
public struct RenderDeadline: Sendable {
    /// When the work must have stopped.
    public let instant: ContinuousClock.Instant
    private let isAbandoned: @Sendable () -> Bool

    /// A deadline at `instant`; `isAbandoned` is asked at every check too.
    public init(_ instant: ContinuousClock.Instant, isAbandoned: @escaping @Sendable () -> Bool = { false }) {
        self.instant = instant
        self.isAbandoned = isAbandoned
    }

    /// Throws when the deadline has passed or the work was abandoned.
    public func check() throws(RenderInterruption) {
        if isAbandoned() { throw RenderInterruption.abandoned }
        if ContinuousClock.now >= instant { throw RenderInterruption.deadlinePassed }
    }
}

/// Why a request's work stopped before its end (see `RenderDeadline`).
public enum RenderInterruption: Error, Sendable, Equatable, CustomStringConvertible {
    case deadlinePassed
    case abandoned

    /// Why the work stopped, in words.
    public var description: String {
        switch self {
        case .deadlinePassed: "the request's deadline passed before its work was done"
        case .abandoned: "the request was abandoned before its work was done"
        }
    }
}

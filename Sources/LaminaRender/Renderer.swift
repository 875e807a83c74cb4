import Foundation
@_exported import LaminaCore

/// A backend: executes a `RenderPlan` and returns the picture.
///
/// Backends are dumb on purpose: they fill polygons and paths, sample
/// textures, blur and mask as the plan says, in the order it says. Every
/// decision about what appears was made by `RenderPlanner`, once, for all of
/// them. A renderer may keep resources (contexts, textures, surfaces) between
/// frames; it is used from one thread at a time.
public protocol Renderer: AnyObject {
    /// A short name for messages and benchmarks (`gl`, `cpu`).
    var name: String { get }

    /// Draws the plan and returns its output: premultiplied RGBA8, top row
    /// first. `deadline` is checked before each draw command: a frame past
    /// it stops there with `RenderInterruption`, and its surfaces are freed.
    func render(_ plan: RenderPlan, deadline: RenderDeadline?) throws -> CGImage
}

extension Renderer {
    /// Draws the plan to the end, however long it takes.
    public func render(_ plan: RenderPlan) throws -> CGImage {
        try render(plan, deadline: nil)
    }
}

/// When a frame must stop drawing: a time, and a flag its owner may raise
/// (a render server whose client gave up). Backends check it between draw
/// commands, the pipeline between its stages, so a frame stops within one
/// command of it (a clock read per command costs nothing measurable).
///
/// ```swift
/// let deadline = RenderDeadline(.now + .seconds(2))
/// let image = try renderer.render(plan, deadline: deadline)  // or RenderInterruption
/// ```
public struct RenderDeadline: Sendable {
    /// When the frame must have stopped.
    public let instant: ContinuousClock.Instant
    private let isAbandoned: @Sendable () -> Bool

    /// A deadline at `instant`; `isAbandoned` is asked at every check too.
    public init(_ instant: ContinuousClock.Instant, isAbandoned: @escaping @Sendable () -> Bool = { false }) {
        self.instant = instant
        self.isAbandoned = isAbandoned
    }

    /// Throws when the deadline has passed or the frame was abandoned.
    public func check() throws(RenderInterruption) {
        if isAbandoned() { throw RenderInterruption.abandoned }
        if ContinuousClock.now >= instant { throw RenderInterruption.deadlinePassed }
    }
}

/// Why a frame stopped before its end (see `RenderDeadline`).
public enum RenderInterruption: Error, Sendable, Equatable, CustomStringConvertible {
    case deadlinePassed
    case abandoned

    /// Why the frame stopped, in words.
    public var description: String {
        switch self {
        case .deadlinePassed: "the frame's deadline passed before it was drawn"
        case .abandoned: "the frame was abandoned before it was drawn"
        }
    }
}

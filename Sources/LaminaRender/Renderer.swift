import Foundation
@_exported import LaminaCore

/// A backend: executes a `RenderPlan` and returns the picture.
///
/// Backends are dumb on purpose: they fill polygons and paths, sample
/// textures, blur and mask as the plan says, in the order it says. Every
/// decision about what appears was made by `RenderPlanner`, once, for all of
/// them. A renderer may keep resources (contexts, textures, surfaces) between
/// frames; it is used from one thread at a time.
package protocol Renderer: AnyObject {
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

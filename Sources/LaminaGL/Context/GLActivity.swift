import Foundation

/// What a context has made and read back, counted at each call that makes
/// a GL object or waits for the GPU: the check that a stream of frames
/// keeps its work on the GPU (nothing compiled or allocated per frame, one
/// readback per frame), which holds on any driver because it counts what
/// Lamina asks for, not what the driver does.
///
/// ```swift
/// let before = renderer.activity
/// _ = try renderer.render(plan)
/// renderer.activity.since(before)   // readbacks: 1, everything else 0 once warm
/// ```
package struct GLActivity: Equatable, Sendable, CustomStringConvertible {
    /// Programs linked and shaders compiled.
    public var programs = 0, shaders = 0
    /// Vertex arrays and buffers made.
    public var vertexArrays = 0, buffers = 0
    /// Textures, framebuffers and renderbuffers made (render targets and images).
    public var textures = 0, framebuffers = 0, renderbuffers = 0
    /// Sampler objects made.
    public var samplers = 0
    /// Pictures read back from the GPU (`glReadPixels`), the one stall a frame needs.
    public var readbacks = 0
    /// Time spent at readbacks waiting for the GPU to finish drawing, and
    /// then copying the picture out: a frame's whole wait for the GPU.
    public var drawingWaitNanoseconds: UInt64 = 0, readbackNanoseconds: UInt64 = 0
    /// Bytes read back.
    public var readbackBytes = 0

    public init() {}

    /// Objects of every kind made.
    public var objectsMade: Int {
        programs + shaders + vertexArrays + buffers + textures + framebuffers + renderbuffers + samplers
    }

    /// Bytes read back a second, over the readbacks counted (nil before any).
    public var readbackBytesPerSecond: Double? {
        readbackNanoseconds > 0 ? Double(readbackBytes) / (Double(readbackNanoseconds) / 1e9) : nil
    }

    /// "drawing 0.210 ms, readback 0.350 ms a readback (8571 MB/s)": the
    /// mean waits, and how fast pictures came back.
    public var waits: String {
        let n = Double(max(readbacks, 1))
        let rate = readbackBytesPerSecond.map { String(format: " (%.0f MB/s)", $0 / 1e6) } ?? ""
        return String(format: "drawing %.3f ms, readback %.3f ms a readback", Double(drawingWaitNanoseconds) / 1e6 / n,
                      Double(readbackNanoseconds) / 1e6 / n) + rate
    }

    /// What happened after `earlier`, field by field.
    public func since(_ earlier: GLActivity) -> GLActivity {
        var d = GLActivity()
        d.programs = programs - earlier.programs
        d.shaders = shaders - earlier.shaders
        d.vertexArrays = vertexArrays - earlier.vertexArrays
        d.buffers = buffers - earlier.buffers
        d.textures = textures - earlier.textures
        d.framebuffers = framebuffers - earlier.framebuffers
        d.renderbuffers = renderbuffers - earlier.renderbuffers
        d.samplers = samplers - earlier.samplers
        d.readbacks = readbacks - earlier.readbacks
        d.drawingWaitNanoseconds = drawingWaitNanoseconds - earlier.drawingWaitNanoseconds
        d.readbackNanoseconds = readbackNanoseconds - earlier.readbackNanoseconds
        d.readbackBytes = readbackBytes - earlier.readbackBytes
        return d
    }

    /// "0 objects made, 1 readback" and which kinds when some were made
    /// (the waits are `waits`).
    public var description: String {
        let kinds = [("programs", programs), ("shaders", shaders), ("vertex arrays", vertexArrays), ("buffers", buffers),
                     ("textures", textures), ("framebuffers", framebuffers), ("renderbuffers", renderbuffers),
                     ("samplers", samplers)].filter { $0.1 != 0 }
        let made = kinds.isEmpty ? "" : " (" + kinds.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ")"
        return "\(objectsMade) objects made\(made), \(readbacks) readback\(readbacks == 1 ? "" : "s")"
    }
}

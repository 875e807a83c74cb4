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

    public init() {}

    /// Objects of every kind made.
    public var objectsMade: Int {
        programs + shaders + vertexArrays + buffers + textures + framebuffers + renderbuffers + samplers
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
        return d
    }

    /// "0 objects made, 1 readback" and which kinds when some were made.
    public var description: String {
        let kinds = [("programs", programs), ("shaders", shaders), ("vertex arrays", vertexArrays), ("buffers", buffers),
                     ("textures", textures), ("framebuffers", framebuffers), ("renderbuffers", renderbuffers),
                     ("samplers", samplers)].filter { $0.1 != 0 }
        let made = kinds.isEmpty ? "" : " (" + kinds.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ")"
        return "\(objectsMade) objects made\(made), \(readbacks) readback\(readbacks == 1 ? "" : "s")"
    }
}

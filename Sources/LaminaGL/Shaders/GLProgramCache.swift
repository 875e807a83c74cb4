import CEGL

/// Programs by their pair of shader files, compiled on first use.
final class GLProgramCache {
    let context: GLContext
    let library: ShaderLibrary
    private var programs: [String: GLProgram] = [:]

    init(context: GLContext, library: ShaderLibrary) {
        self.context = context
        self.library = library
    }

    /// The program made of `vertex` and `fragment`, compiling it the first
    /// time; with `advancedBlend`, the variant that may be drawn with an
    /// advanced blend equation (`blend_support.glsl`), kept apart because
    /// the qualifier it needs slows every draw made with it.
    func program(_ vertex: ShaderFile, _ fragment: ShaderFile, advancedBlend: Bool = false) throws -> GLProgram {
        let key = "\(vertex.rawValue)|\(fragment.rawValue)\(advancedBlend ? "|advanced-blend" : "")"
        if let cached = programs[key] { return cached }
        var fragmentSource = try library.prepare(fragment)
        if advancedBlend { fragmentSource = fragmentSource.defining("LAMINA_ADVANCED_BLEND") }
        let program = try GLProgram(context: context, vertex: try library.prepare(vertex), fragment: fragmentSource)
        programs[key] = program
        return program
    }

    /// Compiles every program LaminaGL draws with, so that shader errors show
    /// up at start-up rather than at the first frame that needs one.
    func compileAll() throws {
        for fragment in [ShaderFile.fillSolid, .fillTexture, .tintAlpha, .mask, .fillPath] {
            _ = try program(.localVertex, fragment)
        }
        _ = try program(.pathWindingVertex, .pathWinding)
        _ = try program(.fullscreenVertex, .blur)
    }

    /// How many programs are compiled.
    var count: Int { programs.count }
}

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

    /// The program made of `vertex` and `fragment`, compiling it the first time.
    func program(_ vertex: ShaderFile, _ fragment: ShaderFile) throws -> GLProgram {
        let key = "\(vertex.rawValue)|\(fragment.rawValue)"
        if let cached = programs[key] { return cached }
        let program = try GLProgram(
            context: context, vertex: try library.prepare(vertex), fragment: try library.prepare(fragment))
        programs[key] = program
        return program
    }

    /// Compiles every program LaminaGL draws with, so that shader errors show
    /// up at start-up rather than at the first frame that needs one.
    func compileAll() throws {
        for fragment in [ShaderFile.fillSolid, .fillTexture, .tintAlpha, .mask] {
            _ = try program(.localVertex, fragment)
        }
        _ = try program(.fullscreenVertex, .blur)
    }

    /// How many programs are compiled.
    var count: Int { programs.count }
}

import CEGL

/// A linked vertex + fragment program, with its uniform locations looked up
/// once and remembered.
final class GLProgram {
    /// The context the program lives in.
    let context: GLContext
    /// "local.vert + fill_solid.frag".
    let label: String
    /// The GL program name.
    let name: GLuint
    private var locations: [String: GLint] = [:]

    /// Compiles and links `vertex` and `fragment`.
    /// - Throws: `GLError.shaderCompile` or `GLError.programLink` with the
    ///   driver's info log and the files involved.
    init(context: GLContext, vertex: PreparedShader, fragment: PreparedShader) throws {
        label = "\(vertex.file) + \(fragment.file)"
        try context.makeCurrent(for: "compiling \(label)")
        let vertexShader = try Self.compile(vertex, stage: GL_VERTEX_SHADER)
        defer { glDeleteShader(vertexShader) }
        let fragmentShader = try Self.compile(fragment, stage: GL_FRAGMENT_SHADER)
        defer { glDeleteShader(fragmentShader) }

        let program = glCreateProgram()
        context.activity.programs += 1
        context.activity.shaders += 2
        glAttachShader(program, vertexShader)
        glAttachShader(program, fragmentShader)
        glLinkProgram(program)
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        glDetachShader(program, vertexShader)
        glDetachShader(program, fragmentShader)
        guard status == GL_TRUE else {
            let log = Self.log(of: program, length: glGetProgramiv, read: glGetProgramInfoLog)
            glDeleteProgram(program)
            throw GLError.programLink(files: label, log: log)
        }
        self.context = context
        self.name = program
        try context.checkErrors("linking \(label)")
    }

    deinit {
        // Off the owning thread (or once lost) there is nothing safe to do:
        // the names go away with the context.
        if (try? context.makeCurrent(for: "deleting a program")) != nil {
            glDeleteProgram(name)
        }
    }

    /// The location of uniform `uniform`, or -1 when the program does not use
    /// it (setting -1 is a no-op in GL, which is what we want then).
    func location(_ uniform: String) -> GLint {
        if let known = locations[uniform] { return known }
        let found = glGetUniformLocation(name, uniform)
        locations[uniform] = found
        return found
    }

    // MARK: - Setting uniforms (the program must be in use)

    func set(_ uniform: String, _ value: Float) {
        glUniform1f(location(uniform), value)
    }

    func set(_ uniform: String, _ value: Int) {
        glUniform1i(location(uniform), GLint(truncatingIfNeeded: value))
    }

    func set(_ uniform: String, _ value: Bool) {
        glUniform1i(location(uniform), value ? 1 : 0)
    }

    func set(_ uniform: String, _ x: Float, _ y: Float) {
        glUniform2f(location(uniform), x, y)
    }

    func set(_ uniform: String, _ x: Float, _ y: Float, _ z: Float, _ w: Float) {
        glUniform4f(location(uniform), x, y, z, w)
    }

    /// A mat4 from 16 floats in GLSL's column-major order.
    func set(_ uniform: String, matrix columnMajor: [Float]) {
        glUniformMatrix4fv(location(uniform), 1, GLboolean(GL_FALSE), columnMajor)
    }

    /// A vec2 array from consecutive pairs.
    func set(_ uniform: String, vec2Array values: [Float]) {
        glUniform2fv(location(uniform), GLsizei(values.count / 2), values)
    }

    /// A vec3 array from consecutive triples.
    func set(_ uniform: String, vec3Array values: [Float]) {
        glUniform3fv(location(uniform), GLsizei(values.count / 3), values)
    }

    // MARK: - Compiling

    private static func compile(_ shader: PreparedShader, stage: Int32) throws -> GLuint {
        let object = glCreateShader(GLenum(stage))
        shader.text.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(object, 1, &pointer, nil)
        }
        glCompileShader(object)
        var status: GLint = 0
        glGetShaderiv(object, GLenum(GL_COMPILE_STATUS), &status)
        guard status == GL_TRUE else {
            let log = Self.log(of: object, length: glGetShaderiv, read: glGetShaderInfoLog)
            glDeleteShader(object)
            let file = shader.sources.count > 1 ? "\(shader.file) (sources \(shader.legend))" : shader.file
            throw GLError.shaderCompile(file: file, log: log)
        }
        return object
    }

    private static func log(
        of object: GLuint,
        length: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        read: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
    ) -> String {
        var size: GLint = 0
        length(object, GLenum(GL_INFO_LOG_LENGTH), &size)
        guard size > 1 else { return "(the driver gave no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(size))
        var written: GLsizei = 0
        read(object, size, &written, &buffer)
        let bytes = buffer.prefix(Int(max(0, min(written, size)))).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

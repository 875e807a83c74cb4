import CEGL

/// Everything that can go wrong in the GPU backend, as a value that says which
/// step failed and why. Every EGL and GL failure surfaces as one of these;
/// nothing in LaminaGL traps on bad input or on a driver refusing.
enum GLError: Error, Equatable, Sendable {
    /// An EGL call failed. `step` names the call and what it was for; `code` is
    /// the value of `eglGetError()` right after it.
    case egl(step: String, code: Int32)
    /// No EGL display could be opened and given an OpenGL ES 3 context.
    /// `attempts` lists every platform tried, each with why it failed.
    case noDisplay(attempts: [String])
    /// A platform name (from a parameter or `LAMINA_EGL_PLATFORM`) is not one
    /// of `auto`, `device`, `gbm`, `surfaceless`.
    case invalidPlatform(value: String, origin: String)
    /// `glGetError()` reported one or more errors after `step`.
    case gl(step: String, codes: [UInt32])
    /// The GL context was lost (GPU reset, driver restart, EGL_CONTEXT_LOST);
    /// nothing more can be drawn with it. Create a new context.
    case contextLost(step: String)
    /// A context was used from a thread other than the one that created it.
    case wrongThread(step: String)
    /// No folder with Lamina's shaders was found. `searched` lists each place
    /// looked at and why it did not qualify.
    case shaderDirectoryNotFound(searched: [String])
    /// A shader file could not be read or preprocessed.
    case shaderSource(file: String, reason: String)
    /// A shader did not compile. `log` is the driver's info log.
    case shaderCompile(file: String, log: String)
    /// A program did not link. `log` is the driver's info log.
    case programLink(files: String, log: String)
    /// A framebuffer was incomplete after `step`; `status` is what
    /// `glCheckFramebufferStatus` returned.
    case incompleteFramebuffer(step: String, status: UInt32)
    /// A caller passed something unusable (a size of zero, a NaN, too few
    /// vertices, a byte count that does not match the size...).
    case invalidArgument(String)
    /// The context cannot do what was asked (a texture larger than
    /// GL_MAX_TEXTURE_SIZE, a missing extension...).
    case unsupported(String)
}

extension GLError: CustomStringConvertible {
    var description: String {
        switch self {
        case let .egl(step, code):
            return "EGL: \(step) failed with \(EGLErrorCode.name(code))"
        case let .noDisplay(attempts):
            let list = attempts.map { "  - \($0)" }.joined(separator: "\n")
            return "EGL: no display with an OpenGL ES 3 context could be opened. Tried:\n\(list)"
        case let .invalidPlatform(value, origin):
            let allowed = EGLPlatformChoice.allCases.map(\.rawValue).joined(separator: ", ")
            return "EGL: unknown platform '\(value)' in \(origin); expected one of \(allowed)"
        case let .gl(step, codes):
            return "GL: \(step) raised \(codes.map(GLErrorCode.name).joined(separator: ", "))"
        case let .contextLost(step):
            return "GL: the context was lost (\(step)); create a new context"
        case let .wrongThread(step):
            return "GL: \(step) was called on a thread that does not own the context; "
                + "a GLContext is used only on the thread that created it (see GLWorkerThread)"
        case let .shaderDirectoryNotFound(searched):
            let list = searched.map { "  - \($0)" }.joined(separator: "\n")
            return "Shaders: no shader folder found (set \(ShaderLocator.environmentVariable) "
                + "to the folder holding Lamina's Shaders). Searched:\n\(list)"
        case let .shaderSource(file, reason):
            return "Shaders: cannot read \(file): \(reason)"
        case let .shaderCompile(file, log):
            return "Shaders: \(file) did not compile:\n\(log)"
        case let .programLink(files, log):
            return "Shaders: program \(files) did not link:\n\(log)"
        case let .incompleteFramebuffer(step, status):
            return "GL: framebuffer incomplete after \(step): "
                + GLErrorCode.framebufferStatusName(status)
        case let .invalidArgument(message):
            return "GL: invalid argument: \(message)"
        case let .unsupported(message):
            return "GL: unsupported: \(message)"
        }
    }
}

import CEGL

/// Names of EGL error codes, for messages a person can act on.
enum EGLErrorCode {
    static func name(_ code: Int32) -> String {
        let known: [Int32: String] = [
            EGL_SUCCESS: "EGL_SUCCESS",
            EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED",
            EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
            EGL_BAD_ALLOC: "EGL_BAD_ALLOC",
            EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE",
            EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
            EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT",
            EGL_BAD_CURRENT_SURFACE: "EGL_BAD_CURRENT_SURFACE",
            EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY",
            EGL_BAD_MATCH: "EGL_BAD_MATCH",
            EGL_BAD_NATIVE_PIXMAP: "EGL_BAD_NATIVE_PIXMAP",
            EGL_BAD_NATIVE_WINDOW: "EGL_BAD_NATIVE_WINDOW",
            EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER",
            EGL_BAD_SURFACE: "EGL_BAD_SURFACE",
            EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST",
            EGL_BAD_DEVICE_EXT: "EGL_BAD_DEVICE_EXT",
        ]
        return "\(known[code] ?? "unknown EGL error") (0x\(String(code, radix: 16, uppercase: true)))"
    }
}

/// Names of GL error codes and framebuffer statuses.
enum GLErrorCode {
    /// GL_CONTEXT_LOST is core in OpenGL ES 3.2 only; gl3.h does not define it.
    static let contextLost: GLenum = 0x0507

    static func name(_ code: GLenum) -> String {
        let known: [GLenum: String] = [
            GLenum(GL_INVALID_ENUM): "GL_INVALID_ENUM",
            GLenum(GL_INVALID_VALUE): "GL_INVALID_VALUE",
            GLenum(GL_INVALID_OPERATION): "GL_INVALID_OPERATION",
            0x0503: "GL_STACK_OVERFLOW",
            0x0504: "GL_STACK_UNDERFLOW",
            GLenum(GL_OUT_OF_MEMORY): "GL_OUT_OF_MEMORY",
            GLenum(GL_INVALID_FRAMEBUFFER_OPERATION): "GL_INVALID_FRAMEBUFFER_OPERATION",
            contextLost: "GL_CONTEXT_LOST",
        ]
        return "\(known[code] ?? "unknown GL error") (0x\(String(code, radix: 16, uppercase: true)))"
    }

    static func framebufferStatusName(_ status: GLenum) -> String {
        let known: [GLenum: String] = [
            GLenum(GL_FRAMEBUFFER_COMPLETE): "GL_FRAMEBUFFER_COMPLETE",
            GLenum(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT): "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT",
            GLenum(GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT):
                "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT",
            GLenum(GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS): "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS",
            GLenum(GL_FRAMEBUFFER_UNSUPPORTED): "GL_FRAMEBUFFER_UNSUPPORTED",
            GLenum(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE): "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE",
        ]
        return "\(known[status] ?? "unknown status") (0x\(String(status, radix: 16, uppercase: true)))"
    }
}

import CEGL

/// What a `GLContext` runs on: driver strings, limits, the EGL platform chosen
/// and the extensions available. Gathered once when the context is created.
package struct GLInfo: Sendable, Equatable {
    /// `GL_VENDOR`, e.g. "Mesa" or "NVIDIA Corporation".
    public var vendor: String
    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public var renderer: String
    /// `GL_VERSION`, e.g. "OpenGL ES 3.2 Mesa 22.3.6".
    public var version: String
    /// `GL_SHADING_LANGUAGE_VERSION`, e.g. "OpenGL ES GLSL ES 3.20".
    public var shadingLanguageVersion: String
    /// `GL_MAJOR_VERSION` and `GL_MINOR_VERSION`.
    public var majorVersion: Int
    /// The minor version of OpenGL ES the context offers.
    public var minorVersion: Int

    /// The EGL platform the context was created on.
    public var eglPlatform: EGLPlatform
    /// Which display on that platform: "device 0 (/dev/dri/renderD128)", "surfaceless".
    public var eglDisplay: String
    /// `EGL_VENDOR` and `EGL_VERSION` of the display.
    public var eglVendor: String
    /// EGL's version string.
    public var eglVersion: String
    /// The display's EGL extensions, sorted.
    public var eglExtensions: [String]

    /// `GL_MAX_SAMPLES`: the most samples a multisampled renderbuffer can have.
    public var maxSamples: Int
    /// `GL_MAX_TEXTURE_SIZE`: the largest texture width or height.
    public var maxTextureSize: Int
    /// `GL_MAX_RENDERBUFFER_SIZE`: the largest renderbuffer width or height.
    public var maxRenderbufferSize: Int
    /// The longest side a render target can have: its texture's, and its
    /// multisampled or stencil renderbuffer's.
    public var maxTargetSide: Int { min(maxTextureSize, maxRenderbufferSize) }
    /// True when the context reports GPU resets (robustness with
    /// LOSE_CONTEXT_ON_RESET), so that a reset surfaces as `contextLost`.
    public var resetNotification: Bool
    /// The OpenGL ES extensions, sorted.
    public var extensions: [String]

    /// The samples LaminaGL uses for multisampled render targets: 8 where
    /// `maxSamples` allows (GPUs: 9 levels of edge coverage, closer to the
    /// exact coverage of the CPU backend and of Core Animation), fewer
    /// where it does not (Mesa's llvmpipe: 4), 0 for none.
    public var multisampleCount: Int {
        let samples = min(8, maxSamples)
        return samples >= 2 ? samples : 0
    }

    /// Whether the driver draws on the CPU (Mesa's llvmpipe, softpipe or
    /// swrast, or SwiftShader): there the CPU backend is faster
    /// (docs/benchmarks.md), so `--backend auto` does not take it.
    public var isSoftwareRenderer: Bool {
        let name = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "swiftshader", "software rasterizer"].contains { name.contains($0) }
    }

    /// Whether the context advertises the OpenGL ES extension `name`.
    public func hasExtension(_ name: String) -> Bool {
        extensions.contains(name)
    }

    /// Whether the display advertises the EGL extension `name`.
    public func hasEGLExtension(_ name: String) -> Bool {
        eglExtensions.contains(name)
    }

    /// Reads everything from the context current on the calling thread.
    static func query(lease: EGLDisplayLease, resetNotification: Bool) -> GLInfo {
        func string(_ name: Int32) -> String {
            glGetString(GLenum(name)).map { String(cString: $0) } ?? ""
        }
        func integer(_ name: Int32) -> Int {
            var value: GLint = 0
            glGetIntegerv(GLenum(name), &value)
            return Int(value)
        }
        let extensionCount = integer(GL_NUM_EXTENSIONS)
        let extensions = (0..<extensionCount).compactMap { index in
            glGetStringi(GLenum(GL_EXTENSIONS), GLuint(index)).map { String(cString: $0) }
        }
        let eglExtensions = lease.string(EGL_EXTENSIONS).split(separator: " ").map(String.init)
        return GLInfo(
            vendor: string(GL_VENDOR),
            renderer: string(GL_RENDERER),
            version: string(GL_VERSION),
            shadingLanguageVersion: string(GL_SHADING_LANGUAGE_VERSION),
            majorVersion: integer(GL_MAJOR_VERSION),
            minorVersion: integer(GL_MINOR_VERSION),
            eglPlatform: lease.candidate.platform,
            eglDisplay: lease.candidate.label,
            eglVendor: lease.string(EGL_VENDOR),
            eglVersion: lease.string(EGL_VERSION),
            eglExtensions: eglExtensions.sorted(),
            maxSamples: integer(GL_MAX_SAMPLES),
            maxTextureSize: integer(GL_MAX_TEXTURE_SIZE),
            maxRenderbufferSize: integer(GL_MAX_RENDERBUFFER_SIZE),
            resetNotification: resetNotification,
            extensions: extensions.sorted())
    }
}

import CEGL
import Foundation

/// A headless OpenGL ES 3 context, created on the first EGL platform that
/// works (see `EGLPlatformChoice`), with no surface: it renders only into
/// framebuffer objects (EGL_KHR_surfaceless_context).
///
/// ## Threads
///
/// An EGL context is current on one thread at a time, and GL calls go to the
/// context current on the calling thread. A `GLContext` is therefore bound to
/// the thread that created it: it is not `Sendable`, and every operation
/// checks the calling thread and throws `GLError.wrongThread` elsewhere. The
/// resources made from it (textures, render targets, programs, painters) are
/// not `Sendable` either and follow the same rule. Code that runs in Swift
/// concurrency, where a task can resume on another thread after `await`,
/// should hold its context inside a `GLWorkerThread`, which creates the
/// context on a dedicated thread and runs every job there.
///
/// Several contexts may live in one process (one per thread); contexts on the
/// same EGL display share its initialization.
final class GLContext {
    /// What the context is: driver strings, limits, platform, extensions.
    let info: GLInfo

    /// True once the context was found lost; every later call throws
    /// `GLError.contextLost`.
    private(set) var isLost = false

    /// What this context has made and read back so far (the context is
    /// bound to one thread, so plain counters do).
    var activity = GLActivity()

    let lease: EGLDisplayLease
    let context: EGLContext
    private let owner: pthread_t
    private let resetStatus: GraphicsResetStatusFunction?

    /// Creates a context and makes it current on the calling thread.
    ///
    /// - Parameters:
    ///   - platform: the EGL platform to use; `nil` reads `LAMINA_EGL_PLATFORM`
    ///     from `environment` and falls back to `.automatic`.
    ///   - environment: where `LAMINA_EGL_PLATFORM` is read from.
    /// - Throws: `GLError.invalidPlatform` for an unknown platform name,
    ///   `GLError.noDisplay` listing every attempt when none gives a context.
    init(
        platform: EGLPlatformChoice? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let choice = try EGLPlatformChoice.resolve(platform, environment: environment)
        let (candidates, notes) = EGLDisplayCandidates.list(for: choice)
        var attempts = notes
        for candidate in candidates {
            do {
                let made = try Self.make(on: candidate)
                lease = made.lease
                context = made.context
                resetStatus = made.resetStatus
                info = made.info
                owner = pthread_self()
                return
            } catch {
                attempts.append("\(candidate.label): \(error)")
            }
        }
        throw GLError.noDisplay(attempts: attempts.isEmpty ? ["no EGL platform available"] : attempts)
    }

    deinit {
        // Only the owning thread can release the context from being current;
        // elsewhere eglDestroyContext defers the deletion until it is released.
        if pthread_equal(owner, pthread_self()) != 0, eglGetCurrentContext() == context {
            eglMakeCurrent(lease.display, nil, nil, nil)
        }
        eglDestroyContext(lease.display, context)
    }

    /// Makes this context current on the calling thread if it is not already.
    ///
    /// Every LaminaGL operation calls this first, so that several contexts can
    /// take turns on one thread. Call it yourself before issuing raw GL calls.
    /// - Throws: `GLError.wrongThread` off the owning thread,
    ///   `GLError.contextLost` once the context is lost.
    func makeCurrent(for step: @autoclosure () -> String = "makeCurrent") throws {
        if isLost { throw GLError.contextLost(step: step()) }
        guard pthread_equal(owner, pthread_self()) != 0 else { throw GLError.wrongThread(step: step()) }
        if eglGetCurrentContext() == context { return }
        guard eglMakeCurrent(lease.display, nil, nil, context) == EGL_TRUE else {
            let code = eglGetError()
            if code == EGL_CONTEXT_LOST {
                isLost = true
                throw GLError.contextLost(step: step())
            }
            throw GLError.egl(step: "eglMakeCurrent (\(step()))", code: code)
        }
    }

    /// Drains `glGetError` and throws if anything was raised since the last
    /// check. LaminaGL calls this after resource creation, readback and other
    /// coarse steps, not after every draw; call it at the end of a frame.
    /// - Throws: `GLError.contextLost` for GL_CONTEXT_LOST or a reported
    ///   graphics reset, otherwise `GLError.gl` with every code raised.
    func checkErrors(_ step: @autoclosure () -> String) throws {
        try makeCurrent(for: step())
        var codes: [GLenum] = []
        // A lost context may report GL_CONTEXT_LOST on every call; stop early.
        while codes.count < 8 {
            let code = glGetError()
            if code == GLenum(GL_NO_ERROR) { break }
            codes.append(code)
        }
        let reset = resetStatus?() ?? GLenum(GL_NO_ERROR)
        if codes.contains(GLErrorCode.contextLost) || reset != GLenum(GL_NO_ERROR) {
            isLost = true
            throw GLError.contextLost(step: step())
        }
        if !codes.isEmpty { throw GLError.gl(step: step(), codes: codes) }
    }

    /// Blocks until every command issued so far has executed.
    func finish() throws {
        try makeCurrent(for: "glFinish")
        glFinish()
        try checkErrors("glFinish")
    }

    // MARK: - Creation

    private struct Made {
        let lease: EGLDisplayLease
        let context: EGLContext
        let resetStatus: GraphicsResetStatusFunction?
        let info: GLInfo
    }

    /// Opens one candidate display and makes an OpenGL ES 3 context current on it.
    private static func make(on candidate: EGLDisplayCandidate) throws -> Made {
        let lease = try EGLDisplayRegistry.shared.lease(candidate)
        let display = lease.display
        let displayExtensions = extensionSet(eglQueryString(display, EGL_EXTENSIONS))
        guard displayExtensions.contains("EGL_KHR_surfaceless_context") else {
            throw GLError.unsupported("the display lacks EGL_KHR_surfaceless_context")
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            throw GLError.egl(step: "eglBindAPI(EGL_OPENGL_ES_API)", code: eglGetError())
        }
        let config = try chooseConfig(display, allowNone: displayExtensions.contains("EGL_KHR_no_config_context"))

        // Ask to be told about GPU resets when the display can, so that a reset
        // becomes GLError.contextLost instead of silently wrong pictures.
        var robust = displayExtensions.contains("EGL_EXT_create_context_robustness")
        var context: EGLContext?
        while context == nil {
            var attributes: [EGLint] = [EGL_CONTEXT_CLIENT_VERSION, 3]
            if robust {
                attributes += [EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT]
            }
            attributes.append(EGL_NONE)
            context = eglCreateContext(display, config, nil, attributes)
            if context == nil {
                let code = eglGetError()
                guard robust else { throw GLError.egl(step: "eglCreateContext (OpenGL ES 3)", code: code) }
                robust = false
            }
        }
        guard let context else { throw GLError.egl(step: "eglCreateContext (OpenGL ES 3)", code: eglGetError()) }
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            let code = eglGetError()
            eglDestroyContext(display, context)
            throw GLError.egl(step: "eglMakeCurrent without surface", code: code)
        }
        let info = GLInfo.query(lease: lease, resetNotification: robust)
        guard info.majorVersion >= 3 else {
            eglMakeCurrent(display, nil, nil, nil)
            eglDestroyContext(display, context)
            throw GLError.unsupported("OpenGL ES 3.0 is required, the context is '\(info.version)'")
        }
        return Made(
            lease: lease, context: context,
            resetStatus: robust ? loadResetStatus(info) : nil, info: info)
    }

    private static func chooseConfig(_ display: EGLDisplay?, allowNone: Bool) throws -> EGLConfig? {
        // No surface type: the context never draws to an EGL surface.
        let attributes: [EGLint] = [
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT_KHR, EGL_SURFACE_TYPE, 0, EGL_NONE,
        ]
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(display, attributes, &config, 1, &count) == EGL_TRUE else {
            throw GLError.egl(step: "eglChooseConfig (OpenGL ES 3)", code: eglGetError())
        }
        if count > 0 { return config }
        // EGL_KHR_no_config_context: EGL_NO_CONFIG_KHR is nil.
        if allowNone { return nil }
        throw GLError.egl(step: "eglChooseConfig found no OpenGL ES 3 config", code: EGL_BAD_CONFIG)
    }

    private static func loadResetStatus(_ info: GLInfo) -> GraphicsResetStatusFunction? {
        if (info.majorVersion, info.minorVersion) >= (3, 2) {
            return EGLExtensionFunctions.load("glGetGraphicsResetStatus", as: GraphicsResetStatusFunction.self)
        }
        for (ext, name) in [("GL_KHR_robustness", "glGetGraphicsResetStatusKHR"),
                            ("GL_EXT_robustness", "glGetGraphicsResetStatusEXT")]
        where info.hasExtension(ext) {
            return EGLExtensionFunctions.load(name, as: GraphicsResetStatusFunction.self)
        }
        return nil
    }
}

/// `glGetGraphicsResetStatus` (ES 3.2) and its EXT/KHR twins: gl3.h does not
/// declare it, so it is loaded at run time.
typealias GraphicsResetStatusFunction = @convention(c) () -> GLenum

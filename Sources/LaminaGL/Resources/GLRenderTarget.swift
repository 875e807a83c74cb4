import CEGL
import Dispatch
import LaminaRaster
import LaminaRender

/// An offscreen picture to draw into and then sample or read back: a
/// framebuffer with an RGBA8 texture, and optionally a multisampled
/// renderbuffer drawn into instead and resolved into the texture by a blit.
///
/// A stencil buffer (packed depth 24 / stencil 8, with as many samples as the
/// drawing buffer) is attached the first time a path is filled into the
/// target, so that targets only ever blurred or composited cost no more. It is
/// all zero between draws: path fills leave it so, and `clear` clears it.
///
/// Contents are premultiplied RGBA, top row first (see `local.vert`). A
/// multisampled target resolves itself when it is next sampled or read after
/// drawing; `resolve()` does it explicitly.
///
/// A multisampled target can also stand for a `window` of a larger,
/// single-sampled picture: drawing maps the picture's pixels onto it, and
/// `resolve(intoWindowOf:)` puts the result in its place
/// (`GLPainter.drawMultisampled`).
final class GLRenderTarget: GLTextureSource {
    let context: GLContext
    let width: Int
    let height: Int
    /// Samples per pixel of the drawing buffer; 0 when drawing goes straight
    /// into the texture.
    let samples: Int
    /// The GL texture holding the (resolved) picture.
    let texture: GLuint

    /// Framebuffer with `texture` attached: sampled and read from.
    private let textureFramebuffer: GLuint
    /// Framebuffer with the multisampled renderbuffer, when there is one.
    private let multisampleFramebuffer: GLuint
    private let multisampleBuffer: GLuint
    /// Depth-stencil renderbuffer on the drawing framebuffer; 0 until a path
    /// fill asks for one.
    private var stencilBuffer: GLuint = 0
    private var needsResolve = false
    private var hasMipmaps = false
    /// Nothing drawn since the last `clear`.
    private(set) var isClear = true

    /// The part of a larger picture a target stands for while it is a
    /// multisample tile: the picture's pixel (`x`, `y`) lands on the
    /// target's first pixel.
    struct Window: Equatable {
        var x: Int, y: Int
        var pictureWidth: Int, pictureHeight: Int
    }
    /// The window this target stands for; nil when it is its own picture.
    var window: Window?
    /// The size of the picture drawing maps onto: the window's picture, or
    /// the target itself.
    var pictureWidth: Int { window?.pictureWidth ?? width }
    var pictureHeight: Int { window?.pictureHeight ?? height }
    /// The picture's pixels drawing lands on: the window, or the whole target.
    var pictureRegion: PathWindingGeometry.Box {
        PathWindingGeometry.Box(x: window?.x ?? 0, y: window?.y ?? 0, width: width, height: height)
    }

    /// Creates a target of `width` x `height` pixels, cleared to transparent.
    /// - Parameter multisampled: draw into a `info.multisampleCount`-sample
    ///   buffer (4 where the GPU allows); ignored where it allows none.
    init(context: GLContext, width: Int, height: Int, multisampled: Bool = false) throws {
        let limit = context.info.maxTargetSide
        try GLTexture.validate(width: width, height: height, limit: limit, what: "render target")
        try context.makeCurrent(for: "creating a render target")
        self.context = context
        self.width = width
        self.height = height
        samples = multisampled ? context.info.multisampleCount : 0

        var names: GLuint = 0
        glGenTextures(1, &names)
        texture = names
        context.activity.textures += 1
        context.activity.framebuffers += 1 + (samples > 0 ? 1 : 0)
        context.activity.renderbuffers += samples > 0 ? 1 : 0
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(
            GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0,
            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glGenFramebuffers(1, &names)
        textureFramebuffer = names
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), textureFramebuffer)
        glFramebufferTexture2D(
            GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)

        if samples > 0 {
            glGenRenderbuffers(1, &names)
            multisampleBuffer = names
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), multisampleBuffer)
            glRenderbufferStorageMultisample(
                GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
            glGenFramebuffers(1, &names)
            multisampleFramebuffer = names
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), multisampleFramebuffer)
            glFramebufferRenderbuffer(
                GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), multisampleBuffer)
        } else {
            multisampleBuffer = 0
            multisampleFramebuffer = 0
        }
        // Checked once here: a target that is complete now stays complete.
        for framebuffer in [textureFramebuffer, multisampleFramebuffer] where framebuffer != 0 {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                throw GLError.incompleteFramebuffer(
                    step: "creating a \(width)x\(height) render target (\(samples) samples)", status: status)
            }
        }
        try context.checkErrors("creating a \(width)x\(height) render target")
        try clear()
    }

    deinit {
        guard (try? context.makeCurrent(for: "deleting a render target")) != nil else { return }
        let framebuffers = [textureFramebuffer, multisampleFramebuffer].filter { $0 != 0 }
        glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers)
        let renderbuffers = [multisampleBuffer, stencilBuffer].filter { $0 != 0 }
        glDeleteRenderbuffers(GLsizei(renderbuffers.count), renderbuffers)
        withUnsafePointer(to: texture) { glDeleteTextures(1, $0) }
    }

    /// Whether drawing goes to a multisampled buffer.
    var isMultisampled: Bool { samples > 0 }

    /// Whether a stencil buffer is attached (after the first path fill).
    var hasStencil: Bool { stencilBuffer != 0 }

    /// Clears the whole target to `color` (transparent by default), and its
    /// stencil, when it has one, to 0.
    func clear(to color: RGBA = .clear) throws {
        try bindForDrawing()
        // glClear honours the write masks and the scissor: open them all.
        glDisable(GLenum(GL_SCISSOR_TEST))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        let premultiplied = color.premultipliedFloats()
        glClearColor(premultiplied.x, premultiplied.y, premultiplied.z, premultiplied.w)
        var buffers = GLbitfield(GL_COLOR_BUFFER_BIT)
        if hasStencil {
            glStencilMask(0xFF)
            glDepthMask(GLboolean(GL_TRUE))
            glClearStencil(0)
            glClearDepthf(1)
            // Depth is cleared with stencil although it is never used: on
            // most GPUs a packed depth-stencil clears fastest as a whole.
            buffers |= GLbitfield(GL_STENCIL_BUFFER_BIT | GL_DEPTH_BUFFER_BIT)
        }
        glClear(buffers)
        isClear = true
    }

    /// Binds the drawing framebuffer and viewport, and notes that the texture
    /// is now out of date (to be resolved, its mipmaps rebuilt).
    func bindForDrawing() throws {
        try context.makeCurrent(for: "drawing into a render target")
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), isMultisampled ? multisampleFramebuffer : textureFramebuffer)
        if let window {
            glViewport(GLint(-window.x), GLint(-window.y), GLsizei(window.pictureWidth), GLsizei(window.pictureHeight))
        } else {
            glViewport(0, 0, GLsizei(width), GLsizei(height))
        }
        needsResolve = isMultisampled
        hasMipmaps = false
        isClear = false
    }

    /// Like `bindForDrawing`, attaching a cleared stencil buffer first if the
    /// target has none yet.
    func bindForDrawingWithStencil() throws {
        if !hasStencil {
            try attachStencil()
        }
        try bindForDrawing()
    }

    private func attachStencil() throws {
        try context.makeCurrent(for: "adding a stencil buffer to a render target")
        var name: GLuint = 0
        glGenRenderbuffers(1, &name)
        context.activity.renderbuffers += 1
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), name)
        if isMultisampled {
            // Per-sample stencil is what anti-aliases stencilled paths.
            glRenderbufferStorageMultisample(
                GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width),
                GLsizei(height))
        } else {
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width), GLsizei(height))
        }
        let framebuffer = isMultisampled ? multisampleFramebuffer : textureFramebuffer
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(
            GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), name)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            glFramebufferRenderbuffer(
                GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), 0)
            withUnsafePointer(to: name) { glDeleteRenderbuffers(1, $0) }
            throw GLError.incompleteFramebuffer(
                step: "adding a stencil buffer to a \(width)x\(height) render target (\(samples) samples)",
                status: status)
        }
        stencilBuffer = name
        try context.checkErrors("adding a stencil buffer to a \(width)x\(height) render target")
        // Only the stencil and depth are new: clearing them leaves the
        // picture alone.
        glStencilMask(0xFF)
        glDepthMask(GLboolean(GL_TRUE))
        glClearStencil(0)
        glClearDepthf(1)
        glClear(GLbitfield(GL_STENCIL_BUFFER_BIT | GL_DEPTH_BUFFER_BIT))
    }

    /// Resolves the multisampled buffer into the texture (a blit), if drawing
    /// happened since the last resolve. Single-sampled targets need nothing.
    func resolve() throws {
        guard needsResolve else { return }
        try context.makeCurrent(for: "resolving a render target")
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), multisampleFramebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), textureFramebuffer)
        glBlitFramebuffer(
            0, 0, GLint(width), GLint(height), 0, 0, GLint(width), GLint(height),
            GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        needsResolve = false
        try context.checkErrors("resolving a \(width)x\(height) render target")
    }

    /// Resolves this tile's samples into its `window` of `picture`. A window
    /// at the picture's origin is resolved straight into it; elsewhere the
    /// tile resolves into its own texture, which is copied into place (ES 3
    /// resolves only between equal rectangles).
    func resolve(intoWindowOf picture: GLRenderTarget) throws {
        guard let window, isMultisampled, picture !== self, !picture.isMultisampled else {
            throw GLError.invalidArgument("resolving a render target that is not a multisample tile of a single-sampled picture")
        }
        let w = min(width, picture.width - window.x), h = min(height, picture.height - window.y)
        guard w > 0, h > 0 else { return }
        try context.makeCurrent(for: "resolving a multisample tile")
        let atOrigin = window.x == 0 && window.y == 0
        if !atOrigin { try resolve() }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), atOrigin ? multisampleFramebuffer : textureFramebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), picture.textureFramebuffer)
        glBlitFramebuffer(
            0, 0, GLint(w), GLint(h), GLint(window.x), GLint(window.y), GLint(window.x + w), GLint(window.y + h),
            GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        needsResolve = false
        picture.hasMipmaps = false
        picture.isClear = false
        try context.checkErrors("resolving a \(w)x\(h) tile into a \(picture.width)x\(picture.height) picture")
    }

    func textureForSampling(mipmaps: Bool) throws -> GLuint {
        try resolve()
        if mipmaps && !hasMipmaps {
            try context.makeCurrent(for: "building mipmaps")
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glGenerateMipmap(GLenum(GL_TEXTURE_2D))
            hasMipmaps = true
        }
        return texture
    }

    /// The picture as premultiplied RGBA8 bytes, top row first, rows packed.
    /// The time waited for the GPU to finish drawing and the time the copy
    /// took are counted apart in the context's `activity`: a GPU behind a
    /// virtual machine drew frames in a few milliseconds and took 175 to
    /// 277 to hand them back (docs/benchmarks.md, "GL on a GPU").
    func readPixels() throws -> [UInt8] {
        try resolve()
        try context.makeCurrent(for: "reading a render target")
        // From the pool: a frame's image gives its pixels back when freed.
        var pixels = BufferPool.pixels.take(count: width * height * 4, zeroed: false)
        let start = DispatchTime.now().uptimeNanoseconds
        glFinish()
        let drawn = DispatchTime.now().uptimeNanoseconds
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), textureFramebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        pixels.withUnsafeMutableBytes { buffer in
            glReadPixels(
                0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer.baseAddress)
        }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        let read = DispatchTime.now().uptimeNanoseconds
        context.activity.readbacks += 1
        context.activity.drawingWaitNanoseconds += drawn - start
        context.activity.readbackNanoseconds += read - drawn
        context.activity.readbackBytes += pixels.count
        try context.checkErrors("reading back a \(width)x\(height) render target")
        return pixels
    }
}

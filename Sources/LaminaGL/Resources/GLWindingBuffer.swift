import CEGL

/// Where a path fill sums its edges: a 32-bit float texture that the
/// winding pass adds each edge's share of each pixel into (additive
/// blending), and that the colour pass then reads (`GLPainter.fillPaths`).
///
/// Adding floats by blending into a float buffer needs
/// `GL_EXT_color_buffer_float` and `GL_EXT_float_blend` (Mesa and the GPU
/// drivers have both); without them paths are stencilled instead. One
/// buffer serves a painter's every path: each path of a batch uses a part
/// of it as large as the part of the path drawn (`WindingBatch`), and the
/// buffer grows (by whole steps, so that it rarely does) when a batch
/// needs more.
final class GLWindingBuffer {
    let context: GLContext
    private(set) var width = 0
    private(set) var height = 0
    /// The texture and the framebuffer it is attached to; 0 until the first fill.
    private(set) var texture: GLuint = 0
    private var framebuffer: GLuint = 0

    /// The step the buffer's sides grow by.
    private static let growthStep = 256

    /// Whether `info`'s context can add floats into a float buffer by blending.
    static func isSupported(by info: GLInfo) -> Bool {
        info.hasExtension("GL_EXT_color_buffer_float") && info.hasExtension("GL_EXT_float_blend")
    }

    init(context: GLContext) {
        self.context = context
    }

    deinit {
        guard texture != 0, (try? context.makeCurrent(for: "deleting a winding buffer")) != nil else { return }
        withUnsafePointer(to: framebuffer) { glDeleteFramebuffers(1, $0) }
        withUnsafePointer(to: texture) { glDeleteTextures(1, $0) }
    }

    /// Binds the buffer for drawing into its top-left `width` x `height`
    /// texels, cleared to 0 (the viewport set to them), growing it first
    /// when it is smaller.
    func bindCleared(width: Int, height: Int) throws {
        try context.makeCurrent(for: "drawing a path's winding numbers")
        if width > self.width || height > self.height {
            try grow(toHold: width, height)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(0, 0, GLsizei(width), GLsizei(height))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    private func grow(toHold neededWidth: Int, _ neededHeight: Int) throws {
        let limit = context.info.maxTargetSide
        func rounded(_ side: Int, _ current: Int) -> Int {
            min(limit, max(current, (side + Self.growthStep - 1) / Self.growthStep * Self.growthStep))
        }
        let newWidth = rounded(neededWidth, width), newHeight = rounded(neededHeight, height)
        guard newWidth >= neededWidth, newHeight >= neededHeight else {
            throw GLError.unsupported("a path \(neededWidth)x\(neededHeight) pixels wide, over this GPU's \(limit)")
        }
        if texture == 0 {
            var name: GLuint = 0
            glGenTextures(1, &name)
            texture = name
            glGenFramebuffers(1, &name)
            framebuffer = name
            context.activity.textures += 1
            context.activity.framebuffers += 1
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R32F, GLsizei(newWidth), GLsizei(newHeight), 0,
                     GLenum(GL_RED), GLenum(GL_FLOAT), nil)
        // Read with texelFetch only, but a texture is complete only with a
        // minification filter that needs no mipmaps.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GLError.incompleteFramebuffer(step: "making a \(newWidth)x\(newHeight) winding buffer", status: status)
        }
        try context.checkErrors("making a \(newWidth)x\(newHeight) winding buffer")
        width = newWidth
        height = newHeight
    }
}

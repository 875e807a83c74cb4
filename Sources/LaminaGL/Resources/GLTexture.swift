import CEGL

/// An image uploaded to the GPU from premultiplied RGBA8 bytes, top row first.
final class GLTexture: GLTextureSource {
    let context: GLContext
    let width: Int
    let height: Int
    /// The GL texture name.
    let name: GLuint
    private var hasMipmaps = false

    /// Uploads `bytes`: `width * height * 4` bytes of premultiplied RGBA, rows
    /// top to bottom without padding.
    /// - Throws: `GLError.invalidArgument` for an empty size or a byte count
    ///   that does not match it, `GLError.unsupported` beyond
    ///   `GL_MAX_TEXTURE_SIZE`.
    convenience init(context: GLContext, width: Int, height: Int, premultipliedRGBA bytes: [UInt8]) throws {
        try self.init(context: context, width: width, height: height)
        try bytes.withUnsafeBytes { try replace(premultipliedRGBA: $0) }
    }

    /// Uploads `bytes` (see `init(context:width:height:premultipliedRGBA:)`).
    convenience init(
        context: GLContext, width: Int, height: Int, premultipliedRGBA bytes: UnsafeRawBufferPointer
    ) throws {
        try self.init(context: context, width: width, height: height)
        try replace(premultipliedRGBA: bytes)
    }

    private init(context: GLContext, width: Int, height: Int) throws {
        try Self.validate(width: width, height: height, limit: context.info.maxTextureSize, what: "texture")
        try context.makeCurrent(for: "creating a texture")
        self.context = context
        self.width = width
        self.height = height
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        name = texture
        context.activity.textures += 1
    }

    deinit {
        if (try? context.makeCurrent(for: "deleting a texture")) != nil {
            withUnsafePointer(to: name) { glDeleteTextures(1, $0) }
        }
    }

    /// Replaces the whole picture with `bytes` of the same size.
    func replace(premultipliedRGBA bytes: UnsafeRawBufferPointer) throws {
        let expected = width * height * 4
        guard bytes.count == expected else {
            throw GLError.invalidArgument(
                "a \(width)x\(height) RGBA8 texture needs \(expected) bytes, got \(bytes.count)")
        }
        try context.makeCurrent(for: "uploading a texture")
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(
            GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0,
            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        hasMipmaps = false
        try context.checkErrors("uploading a \(width)x\(height) texture")
    }

    func textureForSampling(mipmaps: Bool) throws -> GLuint {
        if mipmaps && !hasMipmaps {
            try context.makeCurrent(for: "building mipmaps")
            glBindTexture(GLenum(GL_TEXTURE_2D), name)
            glGenerateMipmap(GLenum(GL_TEXTURE_2D))
            hasMipmaps = true
        }
        return name
    }

    static func validate(width: Int, height: Int, limit: Int, what: String) throws {
        guard width > 0, height > 0 else {
            throw GLError.invalidArgument("a \(what) needs a positive size, got \(width)x\(height)")
        }
        guard width <= limit, height <= limit else {
            throw GLError.unsupported("a \(width)x\(height) \(what) exceeds this GPU's limit of \(limit)")
        }
    }
}

import CEGL

/// Something a draw can sample: an uploaded image (`GLTexture`) or what was
/// drawn into a render target (`GLRenderTarget`).
///
/// Every LaminaGL texture stores its top row first, and uv (0, 0) is the
/// top-left corner of the picture whichever kind it is.
protocol GLTextureSource: AnyObject {
    /// The context the texture belongs to.
    var context: GLContext { get }
    /// Size in texels.
    var width: Int { get }
    var height: Int { get }
    /// Makes the texture ready to sample (resolving multisampling, building
    /// mipmaps when `mipmaps` is true) and returns its GL name.
    func textureForSampling(mipmaps: Bool) throws -> GLuint
}

/// How a texture is filtered, as Core Animation's `minificationFilter` and
/// `magnificationFilter` ask (`kCAFilterNearest`, `kCAFilterLinear`,
/// `kCAFilterTrilinear`).
enum GLTextureFilter: String, Sendable, CaseIterable {
    case nearest
    case linear
    /// Linear between texels and between mipmap levels; the texture's mipmaps
    /// are built on first use. As a magnification filter it is `linear`.
    case trilinear
    /// A magnification filter only: linear between texels, read at
    /// coordinates the fill shader eases by smoothstep, so the four texels'
    /// weights are `TextureFilter.smoothLinear`'s.
    case smoothLinear
}

/// The filters for one texture read. Coordinates outside 0...1 clamp to the edge.
struct GLSampling: Sendable, Hashable {
    var minification: GLTextureFilter
    var magnification: GLTextureFilter

    init(minification: GLTextureFilter = .linear, magnification: GLTextureFilter = .linear) {
        self.minification = minification
        self.magnification = magnification
    }

    /// Linear both ways, Core Animation's default.
    static let linear = GLSampling()
    /// Nearest both ways.
    static let nearest = GLSampling(minification: .nearest, magnification: .nearest)

    /// Whether reading needs mipmaps.
    var needsMipmaps: Bool { minification == .trilinear }
    /// Whether the shader eases the coordinates it reads at (`smoothLinear`).
    var easesBetweenTexels: Bool { magnification == .smoothLinear }
}

/// GL sampler objects, one per `GLSampling`, made on first use.
final class GLSamplerCache {
    let context: GLContext
    private var samplers: [GLSampling: GLuint] = [:]

    init(context: GLContext) {
        self.context = context
    }

    deinit {
        if (try? context.makeCurrent(for: "deleting samplers")) != nil {
            let names = Array(samplers.values)
            glDeleteSamplers(GLsizei(names.count), names)
        }
    }

    func sampler(_ sampling: GLSampling) -> GLuint {
        if let known = samplers[sampling] { return known }
        var sampler: GLuint = 0
        glGenSamplers(1, &sampler)
        context.activity.samplers += 1
        let minification: Int32 = switch sampling.minification {
        case .nearest: GL_NEAREST
        case .linear, .smoothLinear: GL_LINEAR
        case .trilinear: GL_LINEAR_MIPMAP_LINEAR
        }
        let magnification: Int32 = sampling.magnification == .nearest ? GL_NEAREST : GL_LINEAR
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MIN_FILTER), minification)
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MAG_FILTER), magnification)
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        samplers[sampling] = sampler
        return sampler
    }
}

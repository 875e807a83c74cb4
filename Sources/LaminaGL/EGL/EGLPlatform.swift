import Foundation
/// The EGL platform a context was actually created on.
public enum EGLPlatform: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `EGL_EXT_platform_device`: a GPU enumerated by `eglQueryDevicesEXT`
    /// (how NVIDIA's driver is reached without a display server).
    case device
    /// `EGL_KHR_platform_gbm`: a DRM render node (`/dev/dri/renderD*`) through
    /// Mesa's generic buffer manager.
    case gbm
    /// `EGL_MESA_platform_surfaceless`: Mesa without any device, which is the
    /// llvmpipe software rasterizer on a machine without a GPU.
    case surfaceless

    /// The name as `--egl-platform` and `LAMINA_EGL_PLATFORM` spell it.
    public var description: String { rawValue }
}

/// Which EGL platform to open, as a caller or the environment asks for it.
///
/// `automatic` tries, in order: hardware EGL devices, GBM render nodes, Mesa
/// surfaceless, and last software EGL devices (Mesa's swrast device), keeping
/// the first that gives an OpenGL ES 3 context. A named platform tries only
/// that platform (for `device`, hardware devices before software ones).
public enum EGLPlatformChoice: String, Sendable, CaseIterable, CustomStringConvertible {
    case automatic = "auto"
    case device
    case gbm
    case surfaceless

    /// The environment variable that overrides `automatic` when no explicit
    /// choice is passed.
    public static let environmentVariable = "LAMINA_EGL_PLATFORM"

    /// The name as `--egl-platform` and `LAMINA_EGL_PLATFORM` spell it.
    public var description: String { rawValue }

    /// Parses `auto`, `device`, `gbm` or `surfaceless` (case-insensitive);
    /// `origin` names where the text came from for the error message.
    public init(parsing text: String, origin: String) throws {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if key == "automatic" {
            self = .automatic
            return
        }
        guard let choice = EGLPlatformChoice(rawValue: key) else {
            throw GLError.invalidPlatform(value: text, origin: origin)
        }
        self = choice
    }

    /// The choice in effect: an explicit `requested` value wins, then
    /// `LAMINA_EGL_PLATFORM` when set and not empty, then `automatic`.
    public static func resolve(
        _ requested: EGLPlatformChoice?, environment: [String: String]
    ) throws -> EGLPlatformChoice {
        if let requested { return requested }
        guard let value = environment[environmentVariable], !value.isEmpty else {
            return .automatic
        }
        return try EGLPlatformChoice(parsing: value, origin: "$\(environmentVariable)")
    }
}

import CEGL

/// EGL extension entry points, loaded through `eglGetProcAddress`.
///
/// glvnd's libEGL exports only core EGL symbols, so extension functions are
/// never linked directly: each is looked up at run time, once its extension
/// is known to be advertised, and cast to its C function type.
struct EGLExtensionFunctions: Sendable {
    /// `eglGetPlatformDisplayEXT` (EGL_EXT_platform_base).
    let getPlatformDisplay: PFNEGLGETPLATFORMDISPLAYEXTPROC?
    /// `eglQueryDevicesEXT` (EGL_EXT_device_enumeration).
    let queryDevices: PFNEGLQUERYDEVICESEXTPROC?
    /// `eglQueryDeviceStringEXT` (EGL_EXT_device_query).
    let queryDeviceString: PFNEGLQUERYDEVICESTRINGEXTPROC?
    /// Client extensions (EGL_EXT_client_extensions), empty when unsupported.
    let clientExtensions: Set<String>

    /// Loaded once per process: the client extension string and the entry
    /// points do not change while a process runs.
    static let shared = EGLExtensionFunctions()

    private init() {
        // Without EGL_EXT_client_extensions this returns NULL and sets
        // EGL_BAD_DISPLAY, which is harmless.
        let clientString = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) }
        let extensions = Set((clientString ?? "").split(separator: " ").map(String.init))
        clientExtensions = extensions

        getPlatformDisplay = extensions.contains("EGL_EXT_platform_base")
            ? Self.load("eglGetPlatformDisplayEXT", as: PFNEGLGETPLATFORMDISPLAYEXTPROC.self) : nil
        let canEnumerate = extensions.contains("EGL_EXT_device_enumeration")
            || extensions.contains("EGL_EXT_device_base")
        queryDevices = canEnumerate
            ? Self.load("eglQueryDevicesEXT", as: PFNEGLQUERYDEVICESEXTPROC.self) : nil
        let canQuery = extensions.contains("EGL_EXT_device_query")
            || extensions.contains("EGL_EXT_device_base")
        queryDeviceString = canQuery
            ? Self.load("eglQueryDeviceStringEXT", as: PFNEGLQUERYDEVICESTRINGEXTPROC.self) : nil
    }

    /// Looks up `name` and reinterprets it as the function type `F`.
    static func load<F>(_ name: String, as type: F.Type) -> F? {
        guard let pointer = eglGetProcAddress(name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }
}

/// Splits an EGL or GL extension string into names.
func extensionSet(_ string: UnsafePointer<CChar>?) -> Set<String> {
    guard let string else { return [] }
    return Set(String(cString: string).split(separator: " ").map(String.init))
}

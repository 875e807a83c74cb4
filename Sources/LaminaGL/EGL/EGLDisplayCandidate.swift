import CEGL
import Foundation

/// One way to get an EGL display, not yet opened: a GPU from device
/// enumeration, a render node for GBM, or Mesa's surfaceless platform.
struct EGLDisplayCandidate: Sendable {
    /// What was opened, for the context's info and for messages.
    let platform: EGLPlatform
    /// A person-readable name: "device 0 (/dev/dri/renderD128)", "gbm /dev/dri/renderD129".
    let label: String
    /// Identifies the underlying display so that contexts on the same display
    /// share one initialization (EGL returns the same EGLDisplay for the same
    /// native display, and terminating it would pull it from under the others).
    let key: String
    /// Mesa's swrast EGL device: used only when nothing else works.
    let isSoftware: Bool
    /// Gets the (uninitialized) display and what must be released after
    /// `eglTerminate`.
    let open: @Sendable () throws -> OpenedEGLDisplay
}

/// A display fresh from `eglGetPlatformDisplayEXT`, with the native resources
/// (a GBM device and its file) that must outlive it.
struct OpenedEGLDisplay: Sendable {
    /// The EGLDisplay as an address, so that it can cross into the registry.
    let address: UInt
    /// Releases the native resources, after `eglTerminate`.
    let releaseNative: @Sendable () -> Void
}

/// Lists the candidates for a platform choice, in the order to try them.
enum EGLDisplayCandidates {
    /// The candidates for `choice`, and a line for each platform that offered
    /// none (so that a final "no display" error says why).
    static func list(
        for choice: EGLPlatformChoice, functions: EGLExtensionFunctions = .shared
    ) -> (candidates: [EGLDisplayCandidate], notes: [String]) {
        var notes: [String] = []
        guard let getPlatformDisplay = functions.getPlatformDisplay else {
            return ([], ["EGL_EXT_platform_base is not supported by this libEGL"])
        }
        func collect(_ platform: EGLPlatform) -> [EGLDisplayCandidate] {
            let result: Result<[EGLDisplayCandidate], CandidateUnavailable>
            switch platform {
            case .device: result = devices(functions, getPlatformDisplay)
            case .gbm: result = renderNodes(functions, getPlatformDisplay)
            case .surfaceless: result = surfaceless(functions, getPlatformDisplay)
            }
            switch result {
            case let .success(found): return found
            case let .failure(reason):
                notes.append("\(platform): \(reason.message)")
                return []
            }
        }
        switch choice {
        case .automatic:
            let devices = collect(.device)
            let hardware = devices.filter { !$0.isSoftware }
            let software = devices.filter(\.isSoftware)
            if hardware.isEmpty, !software.isEmpty {
                notes.append("device: only software devices, kept as the last resort")
            }
            return (hardware + collect(.gbm) + collect(.surfaceless) + software, notes)
        case .device:
            let devices = collect(.device)
            return (devices.filter { !$0.isSoftware } + devices.filter(\.isSoftware), notes)
        case .gbm:
            return (collect(.gbm), notes)
        case .surfaceless:
            return (collect(.surfaceless), notes)
        }
    }

    struct CandidateUnavailable: Error {
        let message: String
    }

    // MARK: - EGL_EXT_platform_device

    private static func devices(
        _ functions: EGLExtensionFunctions,
        _ getPlatformDisplay: @escaping PFNEGLGETPLATFORMDISPLAYEXTPROC
    ) -> Result<[EGLDisplayCandidate], CandidateUnavailable> {
        guard functions.clientExtensions.contains("EGL_EXT_platform_device") else {
            return .failure(.init(message: "EGL_EXT_platform_device is not supported"))
        }
        guard let queryDevices = functions.queryDevices else {
            return .failure(.init(message: "EGL_EXT_device_enumeration is not supported"))
        }
        var count: EGLint = 0
        guard queryDevices(0, nil, &count) == EGL_TRUE else {
            return .failure(.init(message: "eglQueryDevicesEXT failed with \(EGLErrorCode.name(eglGetError()))"))
        }
        guard count > 0 else { return .failure(.init(message: "eglQueryDevicesEXT found no device")) }
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        guard queryDevices(count, &devices, &count) == EGL_TRUE else {
            return .failure(.init(message: "eglQueryDevicesEXT failed with \(EGLErrorCode.name(eglGetError()))"))
        }
        let found = devices.prefix(Int(count)).enumerated().compactMap { index, device -> EGLDisplayCandidate? in
            guard let device else { return nil }
            let query = { (name: Int32) -> String? in
                functions.queryDeviceString?(device, name).map { String(cString: $0) }
            }
            let extensions = Set((query(EGL_EXTENSIONS) ?? "").split(separator: " ").map(String.init))
            let isSoftware = extensions.contains("EGL_MESA_device_software")
            var names: [String] = []
            if extensions.contains("EGL_EXT_device_query_name"), let renderer = query(EGL_RENDERER_EXT) {
                names.append(renderer)
            }
            if extensions.contains("EGL_EXT_device_drm_render_node"),
                let node = query(EGL_DRM_RENDER_NODE_FILE_EXT) {
                names.append(node)
            } else if extensions.contains("EGL_EXT_device_drm"), let file = query(EGL_DRM_DEVICE_FILE_EXT) {
                names.append(file)
            }
            if isSoftware { names.append("software") }
            let label = "device \(index)" + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
            let address = UInt(bitPattern: device)
            return EGLDisplayCandidate(
                platform: .device, label: label, key: "device:\(address)", isSoftware: isSoftware
            ) {
                let display = getPlatformDisplay(
                    EGLenum(EGL_PLATFORM_DEVICE_EXT), UnsafeMutableRawPointer(bitPattern: address), nil)
                guard let display else {
                    throw GLError.egl(step: "eglGetPlatformDisplayEXT for \(label)", code: eglGetError())
                }
                return OpenedEGLDisplay(address: UInt(bitPattern: display), releaseNative: {})
            }
        }
        return .success(found)
    }

    // MARK: - EGL_KHR_platform_gbm

    /// The folder holding DRM nodes.
    static let driFolder = "/dev/dri"

    private static func renderNodes(
        _ functions: EGLExtensionFunctions,
        _ getPlatformDisplay: @escaping PFNEGLGETPLATFORMDISPLAYEXTPROC
    ) -> Result<[EGLDisplayCandidate], CandidateUnavailable> {
        guard functions.clientExtensions.contains("EGL_KHR_platform_gbm")
            || functions.clientExtensions.contains("EGL_MESA_platform_gbm")
        else {
            return .failure(.init(message: "EGL_KHR_platform_gbm is not supported"))
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: driFolder)) ?? []
        // renderD128, renderD129, ...: numeric order, which is the kernel's.
        let nodes = entries.filter { $0.hasPrefix("renderD") }
            .sorted { (Int($0.dropFirst(7)) ?? .max, $0) < (Int($1.dropFirst(7)) ?? .max, $1) }
        guard !nodes.isEmpty else {
            return .failure(.init(message: "no render node \(driFolder)/renderD*"))
        }
        return .success(nodes.map { node in
            let path = "\(driFolder)/\(node)"
            return EGLDisplayCandidate(platform: .gbm, label: "gbm \(path)", key: "gbm:\(path)", isSoftware: false) {
                try openGBM(path: path, getPlatformDisplay)
            }
        })
    }

    private static func openGBM(
        path: String, _ getPlatformDisplay: PFNEGLGETPLATFORMDISPLAYEXTPROC
    ) throws -> OpenedEGLDisplay {
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw GLError.unsupported("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard let device = gbm_create_device(descriptor) else {
            close(descriptor)
            throw GLError.unsupported("gbm_create_device failed on \(path)")
        }
        guard let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(device), nil)
        else {
            let code = eglGetError()
            gbm_device_destroy(device)
            close(descriptor)
            throw GLError.egl(step: "eglGetPlatformDisplayEXT for gbm \(path)", code: code)
        }
        let deviceAddress = UInt(bitPattern: device)
        return OpenedEGLDisplay(address: UInt(bitPattern: display)) {
            if let device = OpaquePointer(bitPattern: deviceAddress) { gbm_device_destroy(device) }
            close(descriptor)
        }
    }

    // MARK: - EGL_MESA_platform_surfaceless

    private static func surfaceless(
        _ functions: EGLExtensionFunctions,
        _ getPlatformDisplay: @escaping PFNEGLGETPLATFORMDISPLAYEXTPROC
    ) -> Result<[EGLDisplayCandidate], CandidateUnavailable> {
        guard functions.clientExtensions.contains("EGL_MESA_platform_surfaceless") else {
            return .failure(.init(message: "EGL_MESA_platform_surfaceless is not supported"))
        }
        let candidate = EGLDisplayCandidate(
            platform: .surfaceless, label: "surfaceless", key: "surfaceless", isSoftware: false
        ) {
            guard let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
                throw GLError.egl(step: "eglGetPlatformDisplayEXT for surfaceless", code: eglGetError())
            }
            return OpenedEGLDisplay(address: UInt(bitPattern: display), releaseNative: {})
        }
        return .success([candidate])
    }
}

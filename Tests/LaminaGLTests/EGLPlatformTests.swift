import Testing
@testable import LaminaGL

@Suite("EGL platform choice")
struct EGLPlatformTests {
    @Test("names parse case-insensitively, with auto and automatic")
    func parsing() throws {
        #expect(try EGLPlatformChoice(parsing: "Device", origin: "t") == .device)
        #expect(try EGLPlatformChoice(parsing: " gbm ", origin: "t") == .gbm)
        #expect(try EGLPlatformChoice(parsing: "surfaceless", origin: "t") == .surfaceless)
        #expect(try EGLPlatformChoice(parsing: "auto", origin: "t") == .automatic)
        #expect(try EGLPlatformChoice(parsing: "automatic", origin: "t") == .automatic)
        #expect(throws: GLError.invalidPlatform(value: "x11", origin: "--egl-platform")) {
            try EGLPlatformChoice(parsing: "x11", origin: "--egl-platform")
        }
    }

    @Test("a parameter wins over the environment, which wins over automatic")
    func resolution() throws {
        let environment = ["LAMINA_EGL_PLATFORM": "gbm"]
        #expect(try EGLPlatformChoice.resolve(.surfaceless, environment: environment) == .surfaceless)
        #expect(try EGLPlatformChoice.resolve(.automatic, environment: environment) == .automatic)
        #expect(try EGLPlatformChoice.resolve(nil, environment: environment) == .gbm)
        #expect(try EGLPlatformChoice.resolve(nil, environment: [:]) == .automatic)
        #expect(try EGLPlatformChoice.resolve(nil, environment: ["LAMINA_EGL_PLATFORM": ""]) == .automatic)
    }

    @Test("automatic order puts software devices last")
    func automaticOrder() {
        let (candidates, _) = EGLDisplayCandidates.list(for: .automatic)
        let platforms = candidates.map(\.platform)
        if let firstSoftware = candidates.firstIndex(where: \.isSoftware) {
            #expect(candidates[firstSoftware...].allSatisfy { $0.isSoftware })
        }
        // Hardware devices, then GBM, then surfaceless.
        let order: [EGLPlatform: Int] = [.device: 0, .gbm: 1, .surfaceless: 2]
        let ranks = candidates.filter { !$0.isSoftware }.compactMap { order[$0.platform] }
        #expect(ranks == ranks.sorted())
        #expect(platforms.count == candidates.count)
    }

    @Test("errors name the EGL and GL codes")
    func errorNames() {
        #expect("\(GLError.egl(step: "eglInitialize", code: 0x3003))".contains("EGL_BAD_ALLOC (0x3003)"))
        #expect("\(GLError.egl(step: "eglMakeCurrent", code: 0x300E))".contains("EGL_CONTEXT_LOST"))
        #expect("\(GLError.gl(step: "upload", codes: [0x0505]))".contains("GL_OUT_OF_MEMORY"))
        #expect("\(GLError.noDisplay(attempts: ["gbm: no render node"]))".contains("gbm: no render node"))
    }
}

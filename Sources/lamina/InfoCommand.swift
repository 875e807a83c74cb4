import ArgumentParser
import Lamina

/// `lamina info`: what the GPU backend runs on.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the OpenGL ES driver, EGL platform, limits and shader folder the GPU backend uses.")

    @Option(
        name: .customLong("egl-platform"),
        help: ArgumentHelp(
            "EGL platform: auto, device, gbm or surfaceless (default: $LAMINA_EGL_PLATFORM, else auto).",
            valueName: "platform"))
    var eglPlatform: String?

    @Flag(help: "Also list every OpenGL ES and EGL extension.")
    var extensions = false

    func run() throws {
        let choice = try eglPlatform.map { try EGLPlatformChoice(parsing: $0, origin: "--egl-platform") }
        let context = try GLContext(platform: choice)
        let info = context.info
        let shaderFolder: String
        do {
            shaderFolder = try ShaderLocator.locate().path
        } catch {
            shaderFolder = "not found (\(error))"
        }
        let rows: [(String, String)] = [
            ("GL vendor", info.vendor),
            ("GL renderer", info.renderer),
            ("GL version", info.version),
            ("GLSL version", info.shadingLanguageVersion),
            ("EGL platform", info.eglPlatform.rawValue),
            ("EGL display", info.eglDisplay),
            ("EGL vendor", info.eglVendor),
            ("EGL version", info.eglVersion),
            ("max samples", "\(info.maxSamples) (render targets use \(info.multisampleCount))"),
            ("max texture size", "\(info.maxTextureSize)"),
            ("max renderbuffer size", "\(info.maxRenderbufferSize)"),
            ("reset notification", info.resetNotification ? "yes" : "no"),
            ("GL extensions", "\(info.extensions.count)"),
            ("EGL extensions", "\(info.eglExtensions.count)"),
            ("shaders", shaderFolder),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        for (name, value) in rows {
            print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
        }
        if extensions {
            print("\nGL extensions:")
            info.extensions.forEach { print("  \($0)") }
            print("\nEGL extensions:")
            info.eglExtensions.forEach { print("  \($0)") }
        }
    }
}

import ArgumentParser
import Lamina

/// `lamina info`: what the GPU backend runs on; with `--fonts`, which
/// font file each name of Lamina's font table resolves to here.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the backend --backend auto draws with here, and the OpenGL ES driver, EGL platform, limits and shader folder the GPU backend uses; or (--fonts) where each font name resolves.")

    @Option(
        name: .customLong("egl-platform"),
        help: ArgumentHelp(
            "EGL platform: auto, device, gbm or surfaceless (default: $LAMINA_EGL_PLATFORM, else auto).",
            valueName: "platform"))
    var eglPlatform: String?

    @Flag(help: "Also list every OpenGL ES and EGL extension.")
    var extensions = false

    @Flag(name: .customLong("fonts"), help: "List the font table's names and the file each resolves to on this machine (fonts of LAMINA_FONTS folders included), instead.")
    var listFonts = false

    func run() throws {
        // `--fonts` is this command's flag; folders of fonts come from LAMINA_FONTS.
        try FontOptions.register(FontOptions.folders(given: []))
        if listFonts { return try printFonts() }
        let choice = try eglPlatform.map { try EGLPlatformChoice(parsing: $0, origin: "--egl-platform") }
        // What `render`, `frames` and `serve` draw with when not told.
        var reason: String?
        let auto = try LayerRenderer.choosing(.auto, eglPlatform: choice, warn: { _ in }, explain: { reason = $0 })
        let info = try GLRenderer.describeContext(platform: choice)
        let shaderFolder: String
        do {
            shaderFolder = try GLRenderer.shaderFolder().path
        } catch {
            shaderFolder = "not found (\(error))"
        }
        let rows: [(String, String)] = [
            ("--backend auto", auto.identity.description + (reason.map { ": \($0)" } ?? "")),
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

    /// Each name of `FontTable`, the family and file that draw it here, and
    /// whether that is the table's preferred family.
    private func printFonts() throws {
        // Probing the coverage families is not drawing with them: no warnings.
        FontWarnings.setHandler { _ in }
        let text = try TextRenderer()
        var rows: [(String, String, String)] = [("name", "family", "file")]
        var substituted: [String] = []
        for row in FontTable.rows {
            for name in row.names {
                let resolved = text.resolvedFont(named: name)
                let family = resolved?.family ?? "none"
                let preferred = row.preferred.contains(family)
                if !preferred { substituted.append(name) }
                rows.append((name, family + (preferred ? "" : " (not preferred: \(row.preferred.joined(separator: ", ")) missing)"),
                             resolved?.file ?? "-"))
            }
        }
        for family in FontTable.coverage {
            let resolved = text.resolvedFont(named: family)
            let present = resolved?.family == family
            rows.append(("(coverage)", family + (present ? "" : " (not installed)"), present ? resolved!.file : "-"))
        }
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let familyWidth = rows.map(\.1.count).max() ?? 0
        for (name, family, file) in rows {
            print(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + family.padding(toLength: familyWidth, withPad: " ", startingAt: 0) + "  " + file)
        }
        if !substituted.isEmpty {
            print("\n\(substituted.count) names are drawn with a fallback family here; install the preferred ones (Debian: fonts-liberation, or fonts-croscore) for the same text as everywhere else.")
        }
    }
}

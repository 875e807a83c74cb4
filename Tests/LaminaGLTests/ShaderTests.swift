import Foundation
import Testing
import LaminaRender
@testable import LaminaGL

/// A scratch folder removed when the test ends.
private final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-gl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// A copy of the real shader folder.
    func copyShaders() throws {
        let real = try ShaderLocator.locate()
        for file in ShaderFile.allCases {
            try FileManager.default.copyItem(
                at: real.appendingPathComponent(file.rawValue), to: url.appendingPathComponent(file.rawValue))
        }
    }
}

@Suite("Shader files")
struct ShaderFileTests {
    @Test("the source tree's Shaders folder is found and holds every file")
    func locateSourceTree() throws {
        let folder = try ShaderLocator.locate(environment: [:], executable: nil)
        #expect(folder.lastPathComponent == "Shaders")
        for file in ShaderFile.allCases {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file.rawValue).path))
        }
    }

    @Test("LAMINA_SHADER_DIR comes first, then folders by the executable")
    func searchOrder() throws {
        let scratch = try ScratchFolder()
        try scratch.copyShaders()
        let fromEnvironment = try ShaderLocator.locate(
            environment: ["LAMINA_SHADER_DIR": scratch.url.path], executable: nil)
        #expect(fromEnvironment.standardizedFileURL.path == scratch.url.standardizedFileURL.path)

        // An installed layout: <prefix>/bin/lamina and <prefix>/share/lamina/Shaders.
        let prefix = try ScratchFolder()
        let bin = prefix.url.appendingPathComponent("bin")
        let shared = prefix.url.appendingPathComponent("share/lamina/Shaders")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: scratch.url, to: shared)
        let installed = try ShaderLocator.locate(
            environment: [:], executable: bin.appendingPathComponent("lamina"), sourceFile: "/nowhere/a/b/c/d.swift")
        #expect(installed.standardizedFileURL.path == shared.standardizedFileURL.path)
    }

    @Test("a folder lacking files is passed over, and the error lists every place searched")
    func notFound() throws {
        let partial = try ScratchFolder()
        try partial.write("local.vert", "#version 300 es\nvoid main() {}\n")
        do {
            _ = try ShaderLocator.locate(
                environment: ["LAMINA_SHADER_DIR": partial.url.path],
                executable: URL(fileURLWithPath: "/nowhere/bin/lamina"), sourceFile: "/nowhere/a/b/c/d.swift")
            Issue.record("expected no shader folder to be found")
        } catch let GLError.shaderDirectoryNotFound(searched) {
            #expect(searched.count == 4)
            #expect(searched[0].contains(partial.url.path) && searched[0].contains("lacks fullscreen.vert"))
            #expect(searched[1].contains("/nowhere/bin/Shaders"))
            #expect(searched[2].contains("/nowhere/share/lamina/Shaders"))
            #expect(searched[3].contains("/nowhere/Shaders (source tree)"))
            let message = "\(GLError.shaderDirectoryNotFound(searched: searched))"
            #expect(message.contains("LAMINA_SHADER_DIR"))
        }
    }

    @Test("#include expands with #line directives naming each source")
    func includes() throws {
        let scratch = try ScratchFolder()
        try scratch.write("a.glsl", "float a() { return 1.0; }\n")
        try scratch.write("main.frag", "#version 300 es\nprecision highp float;\n#include \"a.glsl\"\nvoid main() {}\n")
        try scratch.write("loop.glsl", "#include \"loop.glsl\"\n")
        let library = ShaderLibrary(folder: scratch.url)
        let text = try library.expand(file: "main.frag")
        #expect(text.text.hasPrefix("#version 300 es\n"))
        #expect(text.text.contains("#line 1 1\nfloat a() { return 1.0; }"))
        #expect(text.text.contains("#line 4 0\nvoid main() {}"))
        #expect(text.legend == "0 = main.frag, 1 = a.glsl")
        #expect(throws: GLError.self) { try library.expand(file: "loop.glsl") }
        #expect(throws: GLError.self) { try library.expand(file: "missing.frag") }
        #expect(ShaderLibrary.includedName("  #include \"x.glsl\"  ") == "x.glsl")
        #expect(ShaderLibrary.includedName("#include <x.glsl>") == nil)
        #expect(ShaderLibrary.includedName("// #include \"x.glsl\"") == nil)
    }

    @Test("Gaussian taps are symmetric, sum to one and fit the shader")
    func gaussianKernel() {
        for sigma in [0.3, 1, 2.5, 10, GaussianKernel.maximumSigma] {
            let kernel = GaussianKernel(sigma: sigma)
            #expect(kernel.taps.count <= GaussianKernel.maximumTaps)
            #expect(kernel.taps.count % 2 == 1)
            let sum = kernel.taps.reduce(0) { $0 + Double($1.weight) }
            #expect(abs(sum - 1) < 1e-5, "sigma \(sigma) sums to \(sum)")
            for index in stride(from: 1, to: kernel.taps.count, by: 2) {
                #expect(kernel.taps[index].offset == -kernel.taps[index + 1].offset)
                #expect(kernel.taps[index].weight == kernel.taps[index + 1].weight)
            }
            #expect(kernel.taps.last.map { Double($0.offset.magnitude) >= 3 * sigma - 1 } ?? false)
        }
        #expect(GaussianKernel(sigma: 0) == GaussianKernel(sigma: -1))
        #expect(GaussianKernel(sigma: 0).taps.count == 1)
    }

    @Test("matrices concatenate in Core Animation's order")
    func matrices() throws {
        let moveThenScale = TestMatrix.translation(10, 0).concatenating(TestMatrix.scale(2))
        let point = moveThenScale.apply(x: 1, y: 1)
        #expect(point.x == 22 && point.y == 2 && point.w == 1)
        let clip = CATransform3D.pixelToClip(width: 100, height: 50)
        let topLeft = clip.apply(x: 0, y: 0)
        let bottomRight = clip.apply(x: 100, y: 50)
        #expect(topLeft.x == -1 && topLeft.y == -1)
        #expect(bottomRight.x == 1 && bottomRight.y == 1)
        #expect(CATransform3D.identity.uniformValues == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    }
}

@Suite("Shader programs", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct ShaderProgramTests {
    @Test("every program compiles, once")
    func compileAll() throws {
        let gl = try GLFixture()
        #expect(gl.painter.programs.count == 7)
        let first = try gl.painter.programs.program(.localVertex, .fillSolid)
        let second = try gl.painter.programs.program(.localVertex, .fillSolid)
        #expect(first === second)
        #expect(gl.painter.programs.count == 7)
    }

    @Test("a compile error names the file and carries the driver's log")
    func compileError() throws {
        let context = try GLContext()
        let scratch = try ScratchFolder()
        try scratch.copyShaders()
        try scratch.write("fill_solid.frag", """
            #version 300 es
            precision highp float;
            #include "coverage.glsl"
            out vec4 o_color;
            void main() {
                o_color = undefinedThing;
            }
            """)
        do {
            _ = try GLPainter(context: context, shaders: ShaderLibrary(folder: scratch.url))
            Issue.record("expected a compile error")
        } catch let GLError.shaderCompile(file, log) {
            #expect(file.hasPrefix("fill_solid.frag"))
            #expect(file.contains("1 = coverage.glsl"))
            #expect(log.contains("undefinedThing"))
            // Line 6 of source 0, after the included file's lines.
            #expect(log.contains("0:6"))
        }
    }

    @Test("a link error carries the driver's log")
    func linkError() throws {
        let context = try GLContext()
        let scratch = try ScratchFolder()
        try scratch.write("v.vert", "#version 300 es\nout vec2 v_missing;\nvoid main() { gl_Position = vec4(0.0); v_missing = vec2(0.0); }\n")
        try scratch.write("f.frag", "#version 300 es\nprecision highp float;\nin vec3 v_missing;\nout vec4 o;\nvoid main() { o = vec4(v_missing, 1.0); }\n")
        let library = ShaderLibrary(folder: scratch.url)
        #expect {
            try GLProgram(context: context, vertex: library.expand(file: "v.vert"), fragment: library.expand(file: "f.frag"))
        } throws: { error in
            guard case let GLError.programLink(files, log) = error else { return false }
            return files == "v.vert + f.frag" && !log.isEmpty
        }
    }
}

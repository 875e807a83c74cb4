import Foundation
import Testing
@testable import LaminaGL

@Suite("EGL context", .enabled(if: GLTestSupport.isAvailable, "no EGL display on this machine"))
struct GLContextTests {
    @Test("a context reports an OpenGL ES 3 driver and its limits")
    func info() throws {
        let context = try GLContext()
        let info = context.info
        #expect(info.majorVersion >= 3)
        #expect(info.version.hasPrefix("OpenGL ES 3"))
        #expect(info.shadingLanguageVersion.contains("GLSL ES"))
        #expect(!info.renderer.isEmpty)
        #expect(!info.vendor.isEmpty)
        #expect(!info.eglVendor.isEmpty)
        #expect(info.eglVersion.hasPrefix("1."))
        #expect(info.maxTextureSize >= 2048)
        #expect(info.maxSamples >= 4)
        #expect(info.multisampleCount == min(8, info.maxSamples))
        #expect(info.hasEGLExtension("EGL_KHR_surfaceless_context"))
        #expect(!info.extensions.isEmpty)
        #expect(info.extensions == info.extensions.sorted())
        try context.checkErrors("after querying info")
    }

    @Test("a named platform is either used or reported as unavailable", arguments: EGLPlatform.allCases)
    func namedPlatform(platform: EGLPlatform) throws {
        let choice = try EGLPlatformChoice(parsing: platform.rawValue, origin: "test")
        do {
            let context = try GLContext(platform: choice)
            #expect(context.info.eglPlatform == platform)
        } catch let GLError.noDisplay(attempts) {
            #expect(!attempts.isEmpty)
        }
    }

    @Test("LAMINA_EGL_PLATFORM picks the platform when no parameter does")
    func environmentPlatform() throws {
        let automatic = try GLContext()
        let platform = automatic.info.eglPlatform
        let chosen = try GLContext(environment: ["LAMINA_EGL_PLATFORM": platform.rawValue])
        #expect(chosen.info.eglPlatform == platform)
        #expect(chosen.info.eglDisplay == automatic.info.eglDisplay)
        #expect(throws: GLError.invalidPlatform(value: "vulkan", origin: "$LAMINA_EGL_PLATFORM")) {
            try GLContext(environment: ["LAMINA_EGL_PLATFORM": "vulkan"])
        }
    }

    @Test("a context refuses to be used from another thread")
    func wrongThread() throws {
        let context = try GLContext()
        let outcome = OutcomeBox()
        let thread = Thread { [context = UncheckedBox(context)] in
            do {
                try context.value.makeCurrent()
                outcome.set("no error")
            } catch {
                outcome.set("\(error)")
            }
        }
        thread.start()
        let message = outcome.wait()
        #expect(message.contains("does not own the context"))
        try context.makeCurrent()
    }

    @Test("contexts on one display come and go independently")
    func sharedDisplay() throws {
        let first = try GLContext()
        var second: GLContext? = try GLContext()
        #expect(second?.info.eglDisplay == first.info.eglDisplay)
        second = nil
        // The display must still be alive for the first context.
        let target = try GLRenderTarget(context: first, width: 2, height: 2)
        try target.clear(to: .white)
        #expect(try target.readPixels() == [UInt8](repeating: 255, count: 16))
    }

    @Test("two contexts take turns on one thread, and keep their objects apart")
    func twoContextsOneThread() throws {
        let first = try GLFixture()
        let second = try GLFixture()
        let texture = try GLTexture(
            context: first.context, width: 2, height: 2, premultipliedRGBA: [UInt8](repeating: 255, count: 16))
        let rect = CGRect.square(0, 0, 2)
        let input = GLTextureInput(
            texture, mapping: GLTextureMapping(localRect: rect),
            sampling: GLSampling(minification: .trilinear, magnification: .linear))
        let target = try first.target(2, 2)
        let otherTarget = try second.target(2, 2)
        try second.painter.fillPolygon(rect.polygon, transform: .identity, paint: .color(.red), into: otherTarget)
        // The second context is current: drawing in the first must switch
        // before it builds the texture's mipmaps.
        try first.painter.fillPolygon(rect.polygon, transform: .identity, paint: .texture(input), into: target)
        #expect(try target.readPixels() == [UInt8](repeating: 255, count: 16))
        #expect(try otherTarget.readPixels() == Array([[UInt8]](repeating: [255, 0, 0, 255], count: 4).joined()))
        #expect(throws: GLError.self) {
            try second.painter.fillPolygon(rect.polygon, transform: .identity, paint: .texture(input), into: otherTarget)
        }
        try first.context.checkErrors("first context")
        try second.context.checkErrors("second context")
    }

    @Test("a worker thread keeps its context and runs jobs on it")
    func workerThread() async throws {
        let worker = try GLWorkerThread { try GLContext() }
        let renderer = try await worker.perform { context in context.info.renderer }
        #expect(!renderer.isEmpty)
        let pixels = try await worker.perform { context -> [UInt8] in
            let target = try GLRenderTarget(context: context, width: 1, height: 1)
            try target.clear(to: .red)
            return try target.readPixels()
        }
        #expect(pixels == [255, 0, 0, 255])
        let again = try worker.performAndWait { context in context.info.version }
        #expect(again.hasPrefix("OpenGL ES 3"))
        await #expect(throws: GLError.invalidArgument("from the job")) {
            try await worker.perform { _ -> Int in throw GLError.invalidArgument("from the job") }
        }
    }

    @Test("a worker thread reports a failed start")
    func workerThreadFailure() {
        #expect(throws: GLError.invalidPlatform(value: "nope", origin: "test")) {
            try GLWorkerThread { () -> GLContext in
                throw GLError.invalidPlatform(value: "nope", origin: "test")
            }
        }
    }
}

/// A string handed from another thread.
private final class OutcomeBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: String?

    func set(_ newValue: String) {
        condition.lock()
        value = newValue
        condition.signal()
        condition.unlock()
    }

    func wait() -> String {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value ?? ""
    }
}

/// Deliberately smuggles a non-Sendable context to another thread, to check
/// that the context itself refuses.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

// An animated GIF in a bundle, played by a keyframe animation of `contents`.
import Foundation
import Testing
@testable import LaminaCAML
@testable import LaminaGIF
import Lamina

@Suite("CAML animated GIFs")
struct CAMLAnimatedGIFTests {
    /// A 4 x 4 GIF of red, green and blue, half a second each.
    private func trafficGIF() throws -> Data {
        let gif = try GIFEncoder(width: 4, height: 4, loopCount: 0)
        for (k, rgb) in [[255, 0, 0], [0, 255, 0], [0, 0, 255]].enumerated() {
            let pixel = rgb.map(UInt8.init) + [255]
            try gif.add(try CGImage(width: 4, height: 4, premultipliedRGBA: Array([[UInt8]](repeating: pixel, count: 16).joined())),
                        startingAt: 50 * k)
        }
        return Data(try gif.finish(endingAt: 150))
    }

    /// A `.ca` bundle of the GIF and a layer showing it with `animation`,
    /// read; the bundle's folder removed after.
    private func readBundle(_ animation: String) throws -> CAMLReader.Result {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        return try CAMLReader().read(contentsOf: try bundle(animation, in: root))
    }

    private func bundle(_ animation: String, in root: URL) throws -> URL {
        let folder = root.appendingPathComponent("Clip.ca")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try trafficGIF().write(to: folder.appendingPathComponent("clip.gif"))
        try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
              <CALayer bounds="0 0 20 20" position="10 10" geometryFlipped="1">
                <sublayers>
                  <CALayer bounds="0 0 20 20" position="10 10">
                    <contents type="CGImage" src="clip.gif"/>
                    <animations>\(animation)</animations>
                  </CALayer>
                </sublayers>
              </CALayer>
            </caml>
            """, to: folder.appendingPathComponent("main.caml"))
        return folder
    }

    private func centre(_ result: CAMLReader.Result, at time: Double) throws -> [UInt8] {
        let pixel = try #require(try LayerRenderer(backend: .cpu).render(result.scene, time: time).pixel(x: 10, y: 10))
        return [pixel.red, pixel.green, pixel.blue]
    }

    @Test func aGIFAsStillContentsShowsItsFirstPicture() throws {
        let result = try readBundle("")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(try centre(result, at: 0.8) == [255, 0, 0])
    }

    @Test func aLoneGIFInAContentsAnimationPlaysAtItsOwnSpeed() throws {
        let result = try readBundle("""
            <animation type="CAKeyframeAnimation" keyPath="contents" calculationMode="discrete" repeatCount="inf">
              <values><CGImage src="clip.gif"/></values>
            </animation>
            """)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(try centre(result, at: 0.25) == [255, 0, 0])
        #expect(try centre(result, at: 0.75) == [0, 255, 0])
        #expect(try centre(result, at: 1.25) == [0, 0, 255])
        #expect(try centre(result, at: 1.75) == [255, 0, 0], "it loops")
    }

    @Test func aGIFAmongOtherValuesPlaysInItsShareOfTheTime() throws {
        // Two values over 2 s: the GIF's three pictures in the first second.
        let result = try readBundle("""
            <animation type="CAKeyframeAnimation" keyPath="contents" calculationMode="discrete" duration="2">
              <values><CGImage src="clip.gif"/><CGImage src="clip.gif"/></values>
            </animation>
            """)
        #expect(try centre(result, at: 0.1) == [255, 0, 0])
        #expect(try centre(result, at: 0.5) == [0, 255, 0])
        #expect(try centre(result, at: 0.9) == [0, 0, 255])
        #expect(try centre(result, at: 1.1) == [255, 0, 0])
    }
}

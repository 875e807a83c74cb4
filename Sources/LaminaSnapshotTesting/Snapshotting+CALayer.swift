import Foundation
import Lamina
import SnapshotTesting

extension Snapshotting where Value == CALayer, Format == CGImage {
    /// A picture of the layer, drawn on Lamina's CPU backend at the main
    /// screen's scale and compared exactly.
    ///
    /// ```swift
    /// import Lamina
    /// import LaminaSnapshotTesting
    /// import SnapshotTesting
    /// import Testing
    ///
    /// @Test func card() {
    ///     let card = CALayer()
    ///     card.bounds = CGRect(x: 0, y: 0, width: 320, height: 200)
    ///     card.backgroundColor = UIColor.systemBlue.cgColor
    ///     card.cornerRadius = 16
    ///     assertSnapshot(of: card, as: .image)
    /// }
    /// ```
    public static var image: Snapshotting { .image() }

    /// A picture of the layer in its own coordinate space, as Core
    /// Animation's `render(in:)` draws it for Apple's `.image` strategy: its
    /// bounds from their origin, whatever its position and transform in a
    /// superlayer.
    ///
    /// ```swift
    /// assertSnapshot(of: card, as: .image(precision: 0.99, perceptualPrecision: 0.98, scale: 3))
    /// ```
    ///
    /// - Parameters:
    ///   - precision: The fraction of pixels that must match (see
    ///     `Diffing.image(precision:perceptualPrecision:)`).
    ///   - perceptualPrecision: How close a pixel's colour must be to match.
    ///   - scale: Pixels per point; `UIScreen.main.scale` (2) when nil.
    ///   - backend: `.cpu` (the default) draws the same pixels on every
    ///     machine; `.gl` draws with the GPU's driver, which may round
    ///     edges differently (use a `perceptualPrecision` below 1), and
    ///     fails the test where no EGL context can be made.
    ///   - size: The picture's size in points; the layer's bounds' size when nil.
    ///
    /// Like `render(in:)`, it shows the model's values, not its animations
    /// (see `image(at:)` for those).
    public static func image(
        precision: Float = 1, perceptualPrecision: Float = 1, scale: CGFloat? = nil,
        backend: RenderBackend = .cpu, size: CGSize? = nil
    ) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision)) { layer in
            LayerPictures(scale: scale, backend: backend, size: size).picture(of: layer, at: [nil])
        }
    }

    /// A picture of the layer with its animations at `time` seconds (the
    /// time a scene's `time` and `lamina render --time` name): one
    /// reference per time.
    ///
    /// ```swift
    /// let spinner = CALayer()
    /// spinner.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
    /// let spin = CABasicAnimation(keyPath: "transform.rotation.z")
    /// spin.toValue = 2 * Double.pi
    /// spin.duration = 1
    /// spinner.add(spin, forKey: "spin")
    /// assertSnapshot(of: spinner, as: .image(at: 0.25), named: "quarter")
    /// ```
    public static func image(
        at time: CFTimeInterval, precision: Float = 1, perceptualPrecision: Float = 1, scale: CGFloat? = nil,
        backend: RenderBackend = .cpu, size: CGSize? = nil
    ) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision)) { layer in
            LayerPictures(scale: scale, backend: backend, size: size).picture(of: layer, at: [time])
        }
    }

    /// One picture of the layer at each of `times`, side by side from left
    /// to right on one sheet: one reference for a whole animation.
    ///
    /// ```swift
    /// assertSnapshot(of: spinner, as: .frames(at: [0, 0.25, 0.5, 0.75]))
    /// ```
    public static func frames(
        at times: [CFTimeInterval], precision: Float = 1, perceptualPrecision: Float = 1, scale: CGFloat? = nil,
        backend: RenderBackend = .cpu, size: CGSize? = nil
    ) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision)) { layer in
            LayerPictures(scale: scale, backend: backend, size: size).picture(of: layer, at: times)
        }
    }
}

extension Snapshotting where Value == CALayer, Format == String {
    /// The layer as scene JSON (Lamina's scene format, see `SceneEncoder`):
    /// its tree, properties and animations as text, for diffs that review
    /// structure rather than pixels. It is the scene of what `.image`
    /// draws: `lamina render` draws it to the same picture.
    ///
    /// ```swift
    /// assertSnapshot(of: card, as: .sceneJSON)
    /// ```
    public static var sceneJSON: Snapshotting {
        Snapshotting(pathExtension: "json", diffing: .lines) { layer in
            LayerDocuments.text(of: layer) { try SceneEncoder().string(of: $0) + "\n" }
        }
    }

    /// The layer as a CAML document, the XML Core Animation stores layer
    /// trees in (see `CAMLWriter`): for diffs in Apple's own vocabulary.
    ///
    /// ```swift
    /// assertSnapshot(of: card, as: .caml)
    /// ```
    public static var caml: Snapshotting {
        Snapshotting(pathExtension: "caml", diffing: .lines) { layer in
            LayerDocuments.text(of: layer) { try CAMLWriter().write(document: $0) }
        }
    }
}

extension Snapshotting where Value == CGImage, Format == CGImage {
    /// A picture, stored as PNG and compared exactly.
    ///
    /// ```swift
    /// let picture = try LayerRenderer(backend: .cpu).render(scene)
    /// assertSnapshot(of: picture, as: .image)
    /// ```
    public static var image: Snapshotting { .image() }

    /// A picture, compared as `Diffing.image(precision:perceptualPrecision:)` says.
    ///
    /// ```swift
    /// assertSnapshot(of: picture, as: .image(perceptualPrecision: 0.98))
    /// ```
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision))
    }
}

/// Draws a layer for a picture snapshot.
struct LayerPictures {
    var scale: CGFloat?
    var backend: RenderBackend
    var size: CGSize?

    /// The layer at each of `times`, left to right (a nil time: the model,
    /// no animations). Frames of a sheet share one size: `size`, else the
    /// model's bounds (its animations may change its bounds frame to frame).
    /// What cannot be drawn fails the test with the renderer's reason (and
    /// gives a 1 x 1 picture, which matches no reference of a real layer).
    func picture(of layer: CALayer, at times: [CFTimeInterval?]) -> CGImage {
        do {
            guard !times.isEmpty else { throw SnapshotFailure("frames(at:) needs at least one time") }
            let scale = Double(scale ?? UIScreen.main.scale)
            let frameSize = size ?? (times.count > 1 ? layer.bounds.size : nil)
            let renderer = try LayerRenderer(backend: backend, fallBack: false, warn: { _ in })
            var frames: [CGImage] = []
            for time in times {
                frames.append(try renderer.renderInOwnBounds(layer, scale: scale, size: frameSize, time: time))
            }
            return try Self.sheet(frames)
        } catch {
            reportSnapshotFailure("The layer could not be drawn: \(error)")
            return SnapshotPictures.unreadable
        }
    }

    /// Pictures of one size side by side.
    static func sheet(_ frames: [CGImage]) throws -> CGImage {
        guard frames.count > 1 else { return frames[0] }
        let (w, h) = (frames[0].width, frames[0].height)
        var pixels = [UInt8](repeating: 0, count: w * frames.count * h * 4)
        for (k, frame) in frames.enumerated() {
            for row in 0..<h {
                let to = (row * w * frames.count + k * w) * 4
                pixels.replaceSubrange(to..<(to + w * 4), with: frame.pixelBytes[(row * w * 4)..<((row + 1) * w * 4)])
            }
        }
        return try CGImage(width: w * frames.count, height: h, premultipliedRGBA: pixels)
    }
}

/// Writes a layer as a document for a text snapshot.
enum LayerDocuments {
    /// `write` of the scene of `layer` drawn in its own bounds; what cannot
    /// be written fails the test with the encoder's reason.
    static func text(of layer: CALayer, _ write: (JSONValue) throws -> String) -> String {
        do {
            let document = try SceneEncoder().jsonValue(layerInOwnBounds: layer, size: layer.bounds.size)
            return try write(document)
        } catch {
            reportSnapshotFailure("The layer could not be written: \(error)")
            return "\(error)\n"
        }
    }
}

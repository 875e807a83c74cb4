import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A layer's masks (`masksProperties`) as Core Animation masks, the way
/// lottie-ios's Core Animation engine makes them: each mask a filled
/// `CAShapeLayer` of its path at its opacity; masks that add (`a`) share one
/// mask layer (their union); a mask that subtracts (`s`), intersects (`i`)
/// or is inverted is a mask of its own around the ones before it, an
/// inverted path being a huge rectangle with the path cut out (even-odd).
struct LottieMasks {
    let reader: LottiePropertyReader
    let time: LottieTime

    /// Far beyond any canvas: the outside of an inverted mask.
    private static let outside = CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5)

    /// Masks `content` (a child of `parent`) by `masks`; the masked content
    /// takes its place in `parent`.
    func apply(_ masks: [JSONValue], path: String, to content: CALayer, in parent: CALayer) throws(SceneError) {
        var current = content
        var union: CALayer?  // the mask layer additive masks join
        for (k, value) in masks.enumerated() {
            let here = "\(path)[\(k)]"
            guard let object = value.object else { throw reader.error(here, value, "expected a mask (an object)") }
            let mode = object["mode"]?.string ?? "a"
            guard mode != "n" else { continue }
            guard let shape = try reader.property(object, "pt", path: here, reader.shape) else {
                throw reader.error(here, value, "a mask needs its path \"pt\"")
            }
            if let expansion = object["x"], (expansion.object?["k"]?.number ?? 0) != 0 || expansion.object?["a"]?.number == 1 {
                reader.diagnostics.tolerated("\(here).x", "a mask's expansion is drawn as its path", file: reader.file, at: expansion.position)
            }
            guard ["a", "s", "i"].contains(mode) else {
                try reader.diagnostics.skipped("\(here).mode", "masks of mode '\(mode)' (lighten, darken, difference) are not drawn",
                                               file: reader.file, at: value.position)
                continue
            }
            // Subtracting is adding the inverse, inside what came before.
            let inverted = (object["inv"]?.bool ?? false) != (mode == "s")
            let layer = CAShapeLayer.atOrigin()
            layer.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            layer.fillRule = inverted ? .evenOdd : .nonZero
            LottieAnimator.apply(shape.map(\.pathData), to: layer, keyPath: "path", time: time) { data in
                guard inverted else { return CGPath(data) }
                var cut = PathData()
                cut.addRect(Self.outside)
                cut.append(data)
                return CGPath(cut)
            }
            LottieAnimator.apply(try reader.property(object, "o", path: here, reader.number), to: layer, keyPath: "opacity",
                                 time: time, LottieAnimator.opacity)
            let additive = mode == "a" && !inverted
            if additive, let union {
                union.addSublayer(layer)
                continue
            }
            // A level of its own around what is masked so far (the first
            // mask sits on the content itself).
            if current.mask != nil {
                let wrapper = CALayer.atOrigin()
                parent.replaceSublayer(current, with: wrapper)
                wrapper.addSublayer(current)
                current = wrapper
            }
            let holder = CALayer.atOrigin()
            holder.addSublayer(layer)
            current.mask = holder
            // Later additive masks join this one (their union); a mask that
            // adds after a subtraction is drawn as one more level.
            union = additive ? holder : nil
        }
    }
}

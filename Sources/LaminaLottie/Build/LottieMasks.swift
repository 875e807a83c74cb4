import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A layer's masks (`masksProperties`) as Core Animation masks, built as
/// lottie-ios's Core Animation engine builds them, so that they cut what
/// Apple's pictures cut:
///
/// - each mask is a filled `CAShapeLayer` of its path at its opacity; it
///   is inverted (a huge rectangle with the path cut out, even-odd) when it
///   subtracts (`s`) and is not itself inverted, or adds (`a`) and is;
/// - the first mask, and every mask that adds, joins a container (their
///   union); any other mask becomes that container's own mask (cutting
///   what the container holds so far), and the pair goes into a new
///   container, which later masks join;
/// - the last container is the layer's mask.
///
/// So `inv` on an intersecting mask changes nothing, a mask that adds
/// after a subtraction widens what shows again, and the modes Core
/// Animation has no compositing for are drawn as lottie-ios draws them:
/// lighten (`l`) as adding, darken (`da`) and difference (`f`) as cutting
/// (tolerated warnings). A mask of mode `n` is none.
struct LottieMasks {
    let reader: LottiePropertyReader
    let time: LottieTime

    /// Far beyond any canvas: the outside of an inverted mask.
    private static let outside = CGRect(x: -1e5, y: -1e5, width: 2e5, height: 2e5)

    /// Masks `content`, which has no mask of its own yet, by `masks`.
    func apply(_ masks: [JSONValue], path: String, to content: CALayer) throws(SceneError) {
        var container: CALayer?
        for (k, value) in masks.enumerated() {
            let here = "\(path)[\(k)]"
            guard let object = value.object else { throw reader.error(here, value, "expected a mask (an object)") }
            let given = object["mode"]?.string ?? "a"
            guard given != "n" else { continue }
            guard let shape = try reader.property(object, "pt", path: here, reader.shape) else {
                throw reader.error(here, value, "a mask needs its path \"pt\"")
            }
            if let expansion = object["x"], (expansion.object?["k"]?.number ?? 0) != 0 || expansion.object?["a"]?.number == 1 {
                reader.diagnostics.tolerated("\(here).x", "a mask's expansion is drawn as its path", file: reader.file, at: expansion.position)
            }
            let modePosition = object["mode"]?.position ?? value.position
            let adds: Bool
            switch given {
            case "a", "l": adds = true
            case "s", "i", "da", "f": adds = false
            default:
                try reader.diagnostics.skipped("\(here).mode", "'\(Quoted.prefix(given, limit: 20))' is no mask mode: the mask is not drawn",
                                               file: reader.file, at: modePosition)
                continue
            }
            if let mode = ["l": "lighten", "da": "darken", "f": "difference"][given] {
                reader.diagnostics.tolerated("\(here).mode", "a \(mode) mask is drawn as \(adds ? "adding" : "intersecting") (as lottie-ios draws it)",
                                             file: reader.file, at: modePosition)
            }
            let isInverted = object["inv"]?.bool ?? false
            let inverted = (given == "s" && !isInverted) || (given == "a" && isInverted)
            let layer = CAShapeLayer.atOrigin()
            layer.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            layer.fillRule = inverted ? .evenOdd : .nonZero
            let outline = shape.map(\.pathData)
            reader.warnWhereShapesCannotMorph(outline, at: "\(here).pt", position: object["pt"]?.position ?? value.position)
            LottieAnimator.apply(outline, to: layer, keyPath: "path", time: time) { data in
                guard inverted else { return CGPath(data) }
                var cut = PathData()
                cut.addRect(Self.outside)
                cut.append(data)
                return CGPath(cut)
            }
            LottieAnimator.apply(try reader.property(object, "o", path: here, reader.number), to: layer, keyPath: "opacity",
                                 time: time, LottieAnimator.opacity)
            if let held = container, !adds {
                // This mask cuts what is held so far; the pair is one level of a new container.
                held.mask = layer
                let outer = CALayer.atOrigin()
                outer.addSublayer(held)
                container = outer
            } else {
                let joined = container ?? CALayer.atOrigin()
                joined.addSublayer(layer)
                container = joined
            }
        }
        if let container { content.mask = container }
    }
}

import Foundation
import LaminaCore
import LaminaRaster

extension LayerSnapshotter {
    /// The blend mode a layer's `compositingFilter` names (source-over
    /// without one, or with a non-separable mode, as Core Animation draws
    /// it: `CAFilter.Kind.nonSeparableBlendModes`). A filter Lamina does not
    /// blend by is refused, naming the layer, as an unknown filter is.
    static func blendMode(of layer: CALayer, at path: LayerPath) throws(RenderRefusal) -> BlendMode {
        guard let value = layer.compositingFilter else { return .normal }
        if let filter = value as? CAFilter, !filter.isEnabled { return .normal }
        let kind = CAFilter.Kind(compositingFilter: value)
        if kind?.isNonSeparableBlendMode == true { return .normal }
        guard let mode = kind?.blendMode else {
            let name = kind.map { "\"\(Quoted.prefix($0.rawValue))\"" } ?? "a \(type(of: value))"
            throw RenderRefusal(at: path, "its compositingFilter \(name) is not a blend mode Lamina applies; "
                                + "expected one of \(CAFilter.Kind.blendModes.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
    }

    /// A layer's enabled `filters` (or `backgroundFilters`, `key`) as the
    /// renderer runs them: blurs, and the colour filters as matrices
    /// (consecutive ones joined into one). A filter that changes nothing (a
    /// blur of radius 0, a saturation of 1) is dropped, so it costs no
    /// surface. One of a kind Lamina does not apply is refused, naming the
    /// layer, rather than silently ignored.
    static func filters(_ list: [Any]?, key: String = "filters", at path: LayerPath) throws(RenderRefusal) -> [RenderFilter] {
        guard let list, !list.isEmpty else { return [] }
        var out: [RenderFilter] = []
        func append(_ matrix: ColorMatrix) {
            guard matrix != .identity else { return }
            if case .colorMatrix(let previous)? = out.last {
                out[out.count - 1] = .colorMatrix(previous.then(matrix))
            } else {
                out.append(.colorMatrix(matrix))
            }
        }
        for item in list {
            guard let filter = item as? CAFilter else {
                throw RenderRefusal(at: path, "its \(key) hold a \(type(of: item)), not a CAFilter")
            }
            guard filter.isEnabled else { continue }
            func amount(_ fallback: Double) -> Double {
                let v = filter.number("inputAmount") ?? fallback
                return v.isFinite ? v : fallback
            }
            switch filter.type {
            case .gaussianBlur:
                let sigma = filter.number("inputRadius") ?? 0
                if sigma.isFinite, sigma > 0 { out.append(.blur(sigma: sigma)) }
            case .colorMatrix:
                guard let values = filter.numbers("inputColorMatrix"), values.count == 20, values.allSatisfy(\.isFinite) else {
                    throw RenderRefusal(at: path, "its colorMatrix filter needs an inputColorMatrix of 20 finite numbers")
                }
                append(ColorMatrix(values))
            case .colorSaturate: append(.saturate(amount(1)))
            case .colorHueRotate:
                let angle = filter.number("inputAngle") ?? 0
                append(.hueRotate(angle.isFinite ? angle : 0))
            case .colorContrast: append(.contrast(amount(1)))
            case .colorBrightness: append(.brightness(amount(0)))
            case .colorInvert: append(.invert)
            case .colorMonochrome:
                let c = filter.color("inputColor").map(RGBA.init) ?? .white
                append(.monochrome(red: c.red, green: c.green, blue: c.blue, amount: amount(1)))
            case .luminanceToAlpha: append(.luminanceToAlpha)
            default:
                throw RenderRefusal(at: path, "its filter \(String(reflecting: filter.type.rawValue)) is not one Lamina applies (\(CAFilter.Kind.all.map(\.rawValue).joined(separator: ", ")))")
            }
        }
        return out
    }
}

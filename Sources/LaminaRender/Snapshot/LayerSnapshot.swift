import Foundation
import LaminaCore

/// Options for freezing a layer tree.
public struct SnapshotOptions: Sendable {
    /// Pixels per point of the picture: generated content (gradients) is
    /// made at this density times the layer's own `contentsScale`.
    public var rasterScale: Double = 1
    /// Curves of `shadowPath` are flattened to within this many points.
    public var shadowPathTolerance: Double = 0.1
    /// Turns what `draw(in:)` recorded into pixels. Nil uses the one
    /// installed in `CGContextRasterizerRegistry`.
    public var drawingRasterizer: (any CGContextRasterizer)?
    /// Draws the text of text layers (LaminaText's `TextRenderer`); with
    /// none, text layers show only their `contents`.
    public var textRasterizer: (any CATextLayerRasterizing)?
    /// True for a tree drawn with y growing up (macOS, a scene's
    /// `origin: bottomLeft`): pictures in `contents` (images, text, what
    /// `draw(in:)` drew) are shown with their first row at the top of the
    /// screen, the layer's max-Y edge, so they read upright as on macOS.
    public var contentsFlipped = false
    public init(rasterScale: Double = 1, drawingRasterizer: (any CGContextRasterizer)? = nil,
                textRasterizer: (any CATextLayerRasterizing)? = nil, contentsFlipped: Bool = false) {
        self.rasterScale = rasterScale
        self.contentsFlipped = contentsFlipped
        self.drawingRasterizer = drawingRasterizer
        self.textRasterizer = textRasterizer
    }
}

extension RenderLayer {
    /// Freezes `layer` and everything below it. The caller passes the
    /// presentation tree when animations are to be seen (see
    /// `CALayer.presentation(atTime:)`); layers that need display are
    /// displayed first, so `draw(in:)` content is current.
    public init(snapshotOf layer: CALayer, options: SnapshotOptions = SnapshotOptions()) {
        self = LayerSnapshotter(options: options).snapshot(layer)
    }
}

/// Reads a live layer tree into `RenderLayer` values.
struct LayerSnapshotter {
    let options: SnapshotOptions

    func snapshot(_ layer: CALayer) -> RenderLayer {
        layer.displayIfNeeded()
        var r = RenderLayer()
        r.name = layer.name
        r.kind = layer is CATransformLayer ? .transform : .ordinary
        r.bounds = layer.bounds
        r.transformToSuperlayer = layer.transformToSuperlayer
        r.isHidden = layer.isHidden
        r.opacity = Double(min(1, max(0, layer.opacity)))
        r.isDoubleSided = layer.isDoubleSided
        r.sublayers = sublayers(of: layer)
        guard r.kind == .ordinary else { return r }

        r.backgroundColor = layer.backgroundColor.map(RGBA.init)
        r.cornerRadii = cornerRadii(of: layer)
        r.borderWidth = Double(max(0, layer.borderWidth))
        r.borderColor = layer.borderColor.map(RGBA.init) ?? RGBA(red: 0, green: 0, blue: 0, alpha: 0)
        r.masksToBounds = layer.masksToBounds
        if let mask = layer.mask { r.mask = Indirect(snapshot(mask)) }
        if layer.shadowOpacity > 0, let color = layer.shadowColor {
            let path = layer.shadowPath.map { path in
                path.pathData.flattened(tolerance: options.shadowPathTolerance).filter { $0.points.count >= 3 }.map(\.points)
            }
            r.shadow = RenderShadow(
                color: RGBA(color), opacity: Double(min(1, layer.shadowOpacity)), offset: layer.shadowOffset,
                radius: Double(max(0, layer.shadowRadius)), path: path)
        }
        if !layer.allowsGroupOpacity && r.opacity < 1 {
            // Without group opacity, each sublayer fades on its own.
            r.sublayers = r.sublayers.map { var s = $0; s.opacity *= r.opacity; return s }
        }
        r.content = content(of: layer, bounds: r.bounds)
        return r
    }

    private func sublayers(of layer: CALayer) -> [RenderLayer] {
        let subs = (layer.sublayers ?? []).map(snapshot)
        guard let replicator = layer as? CAReplicatorLayer, replicator.instanceCount > 1 || replicator.instanceColor != nil else {
            return subs
        }
        return ReplicatorExpansion(replicator).expand(subs)
    }

    /// Core Animation limits the radius to half the shorter side.
    private func cornerRadii(of layer: CALayer) -> [Double] {
        let limit = Double(min(layer.bounds.width, layer.bounds.height)) / 2
        let r = min(Double(max(0, layer.cornerRadius)), limit)
        guard r > 0 else { return [0, 0, 0, 0] }
        let m = layer.maskedCorners
        return [
            m.contains(.layerMinXMinYCorner) ? r : 0, m.contains(.layerMaxXMinYCorner) ? r : 0,
            m.contains(.layerMaxXMaxYCorner) ? r : 0, m.contains(.layerMinXMaxYCorner) ? r : 0,
        ]
    }

    /// `contents` as pixels: an image, or what `draw(in:)` recorded.
    private func contentsImage(of layer: CALayer) -> CGImage? {
        switch layer.contents {
        case let image as CGImage: return image
        case let store as CABackingStore:
            return options.drawingRasterizer.map { $0.makeImage(from: store.recording) } ?? store.makeImage()
        default: return nil
        }
    }

    private func content(of layer: CALayer, bounds: CGRect) -> [RenderContent] {
        var pieces: [RenderContent] = []
        var backing: ImageContent?
        if let text = layer as? CATextLayer, let image = options.textRasterizer?.image(for: text) {
            // A text layer draws its text into its backing store, which is
            // its contents.
            backing = textContent(image, of: layer, bounds: bounds)
        } else if let image = contentsImage(of: layer) {
            var c = ImageContent(image: image, gravity: ContentsGravity(rawValue: layer.contentsGravity.rawValue) ?? .resize)
            c.contentsRect = layer.contentsRect
            c.contentsCenter = layer.contentsCenter
            c.contentsScale = Double(layer.contentsScale)
            backing = c
        }
        if var c = backing {
            c.isFlipped = options.contentsFlipped
            c.minificationFilter = TextureFilter(rawValue: layer.minificationFilter.rawValue) ?? .linear
            c.magnificationFilter = TextureFilter(rawValue: layer.magnificationFilter.rawValue) ?? .linear
            pieces.append(.image(c))
        }
        if let shape = layer as? CAShapeLayer {
            pieces += ShapeContent(shape).pieces
        }
        if let gradient = layer as? CAGradientLayer,
           let image = GradientRasterizer(gradient, pixelsPerPoint: options.rasterScale * Double(max(1, layer.contentsScale))).image() {
            var c = ImageContent(image: image, gravity: .resize)
            c.contentsScale = 1
            pieces.append(.image(c))
        }
        return pieces
    }

    /// The text image of `ceil(bounds.size * contentsScale)` pixels shown
    /// over the bounds: its fractional last pixel column and row are cropped
    /// away, so each image pixel is one backing-store pixel.
    private func textContent(_ image: CGImage, of layer: CALayer, bounds: CGRect) -> ImageContent {
        let scale = layer.contentsScale > 0 && layer.contentsScale.isFinite ? Double(layer.contentsScale) : 1
        var c = ImageContent(image: image, gravity: .resize)
        c.contentsRect = CGRect(
            x: 0, y: 0,
            width: min(1, Double(bounds.width) * scale / Double(image.width)),
            height: min(1, Double(bounds.height) * scale / Double(image.height)))
        c.contentsScale = scale
        return c
    }
}

/// A shape layer's fill and stroke as regions that flatten themselves for
/// the scale they are seen at.
struct ShapeContent {
    var pieces: [RenderContent] = []

    init(_ shape: CAShapeLayer) {
        guard let path = shape.path?.pathData, !path.isEmpty else { return }
        let box = path.boundingBox
        if let fill = shape.fillColor, fill.alpha > 0 {
            pieces.append(.fill(FillContent(
                contours: { tolerance in
                    path.flattened(tolerance: CGFloat(tolerance)).filter { $0.points.count >= 3 }.map(\.points)
                },
                evenOdd: shape.fillRule == .evenOdd, color: RGBA(fill), bounds: box)))
        }
        if let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0 {
            let style = StrokeStyle(
                lineWidth: shape.lineWidth,
                lineCap: cgLineCap(shape.lineCap),
                lineJoin: cgLineJoin(shape.lineJoin),
                miterLimit: shape.miterLimit,
                dashPattern: (shape.lineDashPattern ?? []).map { CGFloat($0.doubleValue) },
                dashPhase: shape.lineDashPhase,
                strokeStart: shape.strokeStart,
                strokeEnd: shape.strokeEnd)
            // Miters reach at most miterLimit * lineWidth / 2 beyond the path.
            let reach = Double(shape.lineWidth) / 2 * max(Double(shape.miterLimit), 1.5)
            pieces.append(.fill(FillContent(
                contours: { tolerance in path.strokeOutline(style: style, tolerance: CGFloat(tolerance)) },
                evenOdd: false, color: RGBA(stroke), bounds: box.insetBy(dx: -reach, dy: -reach))))
        }
    }
}

/// A replicator's sublayers repeated `instanceCount` times, each instance
/// moved by one more `instanceTransform` (about the replicator's anchor
/// point) and tinted by `instanceColor` plus the accumulated offsets.
struct ReplicatorExpansion {
    let count: Int
    let step: CATransform3D
    let baseColor: RGBA
    let offsets: RGBA

    init(_ r: CAReplicatorLayer) {
        count = max(0, r.instanceCount)
        let a = r.geometry.anchorInBounds
        step = CATransform3D(translationX: -a.x, y: -a.y, z: -r.anchorPointZ)
            .concatenating(r.instanceTransform)
            .concatenating(CATransform3D(translationX: a.x, y: a.y, z: r.anchorPointZ))
        baseColor = r.instanceColor.map(RGBA.init) ?? .white
        offsets = RGBA(red: Double(r.instanceRedOffset), green: Double(r.instanceGreenOffset),
                       blue: Double(r.instanceBlueOffset), alpha: Double(r.instanceAlphaOffset))
    }

    func expand(_ sublayers: [RenderLayer]) -> [RenderLayer] {
        var out: [RenderLayer] = []
        var placement = CATransform3D.identity
        for i in 0..<count {
            let k = Double(i)
            func clamp(_ v: Double) -> Double { min(1, max(0, v)) }
            let tint = RGBA(red: clamp(baseColor.red + k * offsets.red), green: clamp(baseColor.green + k * offsets.green),
                            blue: clamp(baseColor.blue + k * offsets.blue), alpha: clamp(baseColor.alpha + k * offsets.alpha))
            for sub in sublayers {
                var copy = sub
                copy.transformToSuperlayer = sub.transformToSuperlayer.concatenating(placement)
                if tint != .white { copy.tint = copy.tint.map { $0.multiplied(by: tint) } ?? tint }
                out.append(copy)
            }
            placement = placement.concatenating(step)
        }
        return out
    }
}

private func cgLineCap(_ cap: CAShapeLayerLineCap) -> CGLineCap {
    switch cap {
    case .round: return .round
    case .square: return .square
    default: return .butt
    }
}

private func cgLineJoin(_ join: CAShapeLayerLineJoin) -> CGLineJoin {
    switch join {
    case .round: return .round
    case .bevel: return .bevel
    default: return .miter
    }
}

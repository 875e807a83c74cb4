import Foundation
import LaminaCore
import LaminaRaster

/// Options for freezing a layer tree.
package struct SnapshotOptions: Sendable {
    /// Draws the text of text layers (LaminaText's `TextRenderer`); with
    /// none, text layers show only their `contents`.
    public var textRasterizer: (any CATextLayerRasterizing)?
    /// True for a tree drawn with y growing up (macOS, a scene's
    /// `origin: bottomLeft`): pictures in `contents` (images, text, what
    /// `draw(in:)` drew) are shown with their first row at the top of the
    /// screen, the layer's max-Y edge, so they read upright as on macOS.
    public var contentsFlipped = false
    /// The layers (replicator instances expanded) and backing-image pixels
    /// the snapshot may make; over either, it throws a `RenderRefusal`.
    public var budget = RenderBudget.default
    /// The time the presentation tree was taken at: a replicator's instance
    /// `i` shows its sublayers as they are `i * instanceDelay` earlier.
    public var time: CFTimeInterval = 0
    /// Options for a snapshot.
    public init(textRasterizer: (any CATextLayerRasterizing)? = nil, contentsFlipped: Bool = false,
                budget: RenderBudget = .default, time: CFTimeInterval = 0) {
        self.contentsFlipped = contentsFlipped
        self.textRasterizer = textRasterizer
        self.budget = budget
        self.time = time
    }
}

extension RenderLayer {
    /// Freezes `layer` and everything below it. The caller passes the
    /// presentation tree when animations are to be seen (see
    /// `CALayer.presentation(atTime:)`); layers that need display are
    /// displayed first, so `draw(in:)` content is current.
    /// - Throws: `RenderRefusal` when the tree asks for more layers or
    ///   backing-image pixels than `options.budget` allows, naming the layer.
    public init(snapshotOf layer: CALayer, options: SnapshotOptions = SnapshotOptions()) throws(RenderRefusal) {
        self = try LayerSnapshotter(options: options).snapshot(layer, placedIn: .itsOwnTree, at: .root)
    }

    /// Freezes the model tree of `layer` as it is at `options.time`: what
    /// `init(snapshotOf: layer.presentation(atTime: options.time))` makes,
    /// without copying the tree. Only layers with animations are copied
    /// (`presentationAlone(atTime:)`), each placed against its presented
    /// superlayer; a layer whose animations reach into its mask or
    /// sublayers has its subtree's presentation copied whole. A model layer
    /// that needs display draws its contents as it is reached (a hidden
    /// subtree is not).
    public init(snapshotOfModel layer: CALayer, options: SnapshotOptions = SnapshotOptions()) throws(RenderRefusal) {
        self.init()
        try LayerSnapshotter(options: options).snapshot(model: layer, into: &self)
    }

    /// This value as `RenderLayer()` makes it, but for the storage of its
    /// lists: `content` emptied with its room kept, `sublayers` kept whole
    /// for a snapshot to write its sublayers over, one by one, and cut to
    /// what it wrote, and `mask` kept whole for the snapshot to write the
    /// layer's mask over (`reclaimed(_:)`).
    ///
    /// Field by field, in place (a frame clears every layer it keeps):
    /// made afresh and assigned, each layer's value was built, copied over
    /// and destroyed whole. `SnapshotTests` lists the fields, so that one
    /// added to `RenderLayer` is added here too.
    mutating func clearKeepingStorage() {
        name = nil
        path = .root
        kind = .ordinary
        bounds = .zero
        transformToSuperlayer = .identity
        isHidden = false
        opacity = 1
        allowsGroupOpacity = true
        isDoubleSided = true
        backgroundColor = nil
        cornerRadii = .zero
        borderWidth = 0
        borderColor = .black
        masksToBounds = false
        maskIsInverted = false
        effects = nil
        content.removeAll(keepingCapacity: true)
        tint = nil
    }

    /// A mask tree that `clearKeepingStorage` kept, out of its box and
    /// cleared as that function clears a layer, for a snapshot to write
    /// this frame's mask over (a Lottie track matte is a whole
    /// precomposition: made afresh, its tree was built and freed every
    /// frame); `RenderLayer()` for none. `box` is nil after.
    static func reclaimed(_ box: inout Indirect<RenderLayer>?) -> RenderLayer {
        guard var spare = box?.value else { return RenderLayer() }
        // The box let go first: its lists are then the spare's alone, and
        // filled again where they lie rather than copied.
        box = nil
        spare.clearKeepingStorage()
        return spare
    }
}

/// What an animation's frames, frozen in turn, hand on to the next: the
/// last frame's tree, which the next is written over (its layers' lists of
/// content and sublayers filled again where they lie, not made and freed
/// for every frame), and the presentation copies of its animated layers,
/// filled again as the next frame's. `LayerRenderer` keeps one while it
/// draws only changes.
///
/// ```swift
/// let frames = FrameSnapshots()
/// for time in times {
///     let plan = try frames.plan(ofModel: root, options: SnapshotOptions(time: time)) { tree throws(RenderRefusal) in
///         try planner.plan(tree, canvas: canvas)
///     }
/// }
/// ```
package final class FrameSnapshots {
    private var tree = RenderLayer()
    private var spareCopies: [CALayer] = []

    package init() {}

    /// What `planning` makes of the model tree of `layer` at
    /// `options.time`, frozen as `RenderLayer(snapshotOfModel:options:)`
    /// freezes it, over the last frame's tree.
    package func plan(ofModel layer: CALayer, options: SnapshotOptions,
                      _ planning: (RenderLayer) throws(RenderRefusal) -> RenderPlan) throws(RenderRefusal) -> RenderPlan {
        let snapshotter = LayerSnapshotter(options: options)
        swap(&snapshotter.spareCopies, &spareCopies)
        defer { swap(&snapshotter.spareCopies, &spareCopies) }
        tree.clearKeepingStorage()
        try snapshotter.snapshot(model: layer, into: &tree)
        // A root that draws nothing read none of its sublayers: the last tree's are not its own.
        if tree.isHidden || tree.opacity == 0 { tree.sublayers = [] }
        return try planning(tree)
    }
}

/// Where a layer being frozen sits, for its matrix to its superlayer.
enum LayerPlacement {
    /// In the tree it belongs to: its own superlayer (a presentation copy's
    /// or a model's).
    case itsOwnTree
    /// Under a presented layer (its own superlayer may not be one), in its
    /// sublayer space (`LayerGeometry.sublayerSpace(of:isMask:)`: nil for
    /// none, a mask, or a space that adds nothing), worked out once for
    /// all its sublayers.
    case presented(sublayerSpace: CATransform3D?)

    /// Under `superlayer`, as its mask or not.
    static func presented(under superlayer: CALayer?, isMask: Bool) -> LayerPlacement {
        .presented(sublayerSpace: isMask ? nil : superlayer?.sublayerSpace)
    }
}

/// Reads a live layer tree into `RenderLayer` values, counting what it makes
/// against the budget before making it.
final class LayerSnapshotter {
    let options: SnapshotOptions
    /// Layers made so far, replicator copies included.
    private var layerCount = 0
    /// False while a replicator's delayed instances are frozen: their layers
    /// were counted as copies before any was made.
    private var countsLayers = true
    /// Pixels of backing images made so far.
    private var backingPixels = 0.0
    /// True while the tree walked is a model tree, read at `options.time`
    /// layer by layer (`RenderLayer(snapshotOfModel:)`).
    var readsModels = false
    /// Presentation copies of layers already frozen, for later layers'
    /// copies to be made in (`presentationAlone(atTime:reusing:)`). Not
    /// checked for overlapping access at run time: a snapshotter is one
    /// thread's, and the list is lent (`inout`) to one call at a time.
    @exclusivity(unchecked) var spareCopies: [CALayer] = []
    /// Where a model layer's animations of `hidden` are played to learn
    /// whether it shows at all (`CALayer.isHiddenWhenPresented`).
    private let scratch = CALayer()

    /// The largest side and area of one backing image: a denser one is made
    /// at a lower `contentsScale`, as surfaces are (see `RenderPlanner`).
    static let maxBackingSide = 16384.0
    static let maxBackingPixels = 16_777_216.0

    init(options: SnapshotOptions) { self.options = options }

    /// Freezes `node` (a model layer while `readsModels`, else a layer of
    /// the tree given) and everything below it.
    func snapshot(_ node: CALayer, placedIn placement: LayerPlacement, at path: LayerPath) throws(RenderRefusal) -> RenderLayer {
        var r = RenderLayer()
        try snapshot(node, placedIn: placement, at: path, into: &r)
        return r
    }

    /// The model tree of `layer` at `options.time`, frozen into `r` (a new
    /// `RenderLayer`, or a tree frozen before: `FrameSnapshots`), as
    /// `RenderLayer(snapshotOfModel:options:)` describes.
    func snapshot(model layer: CALayer, into r: inout RenderLayer) throws(RenderRefusal) {
        readsModels = true
        try snapshot(layer, placedIn: .presented(sublayerSpace: nil), at: .root, into: &r)
    }

    /// `snapshot(_:placedIn:at:)`, written into `r` (a new `RenderLayer`)
    /// where the caller keeps it: a sublayer straight into its
    /// superlayer's list. (Returned, each layer's value was copied into
    /// its caller's rather than moved, a dozen references retained and
    /// released a layer.)
    @inline(__always)
    func snapshot(_ node: CALayer, placedIn placement: LayerPlacement, at path: LayerPath,
                  into r: inout RenderLayer) throws(RenderRefusal) {
        try snapshot(node, placedIn: placement, at: path, modelHidden: readsModels ? readModel(node) : nil, into: &r)
    }

    /// A model layer reached while `readsModels`, before anything else is
    /// read of it: drawn if it needs display, as a transaction commit draws
    /// it (on the model, whose contents its presentation copy shares); then
    /// whether it is hidden at the time (a Lottie layer outside its in and
    /// out points is), nil where that takes a presentation copy to know.
    @inline(__always)
    private func readModel(_ node: CALayer) -> Bool? {
        node.displayIfNeeded()
        return node.isHiddenWhenPresented(atTime: options.time, scratch: scratch)
    }

    /// `snapshot(_:placedIn:at:into:)` of a node whose model `readModel`
    /// has read (`modelHidden`; nil for a tree that is not a model's).
    private func snapshot(_ node: CALayer, placedIn placement: LayerPlacement, at path: LayerPath, modelHidden hidden: Bool?,
                          into r: inout RenderLayer) throws(RenderRefusal) {
        var layer = node
        // True for a model layer hidden at the time: it is read from the
        // model, no presentation copy made, no other animation of it played.
        var hiddenWithoutCopy = false
        if readsModels {
            // Whether it shows at all comes first; a mask is read whole,
            // hidden or not.
            if hidden == true, !node.isMask {
                hiddenWithoutCopy = true
            } else if let presented = node.presentationAlone(atTime: options.time, reusing: &spareCopies, hidden: hidden) {
                layer = presented
            } else {
                // Its animations reach into its subtree: that subtree's
                // presentation, copied whole, frozen as a tree of its own.
                node.displayIfNeededRecursively()
                readsModels = false
                defer { readsModels = true }
                return try snapshot(node.presentation(atTime: options.time), placedIn: placement, at: path, into: &r)
            }
        }
        try countLayers(1, at: path)
        r.path = path
        r.name = layer.name
        // The last frame's mask tree, if `r` was one of its layers: this
        // frame's mask is written over it.
        var spareMask = r.mask
        r.mask = nil
        // Nothing of it is read: a hidden layer draws nothing, and its
        // superlayer leaves it out (`append(_:placedIn:at:to:)`).
        if hiddenWithoutCopy {
            r.isHidden = true
            return
        }
        try freeze(layer, of: node, placedIn: placement, at: path, spareMask: &spareMask, into: &r)
    }

    /// Fills `r` with `layer` (`node` itself, or its presentation copy)
    /// and everything below it; its mask is written over `spareMask`, the
    /// last frame's mask tree at this place, if any.
    private func freeze(_ layer: CALayer, of node: CALayer, placedIn placement: LayerPlacement, at path: LayerPath,
                        spareMask: inout Indirect<RenderLayer>?, into r: inout RenderLayer) throws(RenderRefusal) {
        // Done with once this layer and its subtree are frozen: a later
        // layer's presentation copy is made in it.
        defer { if layer !== node, layer.canBeRefilled { spareCopies.append(layer) } }
        let kind = LayerClass(layer)
        r.kind = kind == .other && layer is CATransformLayer ? .transform : .ordinary
        r.bounds = layer.bounds
        switch placement {
        case .itsOwnTree:
            r.transformToSuperlayer = layer.transformToSuperlayer
        case .presented(let sublayerSpace):
            r.transformToSuperlayer = LayerGeometry.placed(layer.placementTransform, in: sublayerSpace)
        }
        r.isHidden = layer.isHidden
        r.opacity = Double(min(1, max(0, layer.opacity)))
        // A hidden or fully transparent layer draws nothing, nor does
        // anything below it (its opacity multiplies theirs): its subtree is
        // not read. An animation's layers outside their time range are
        // hidden, most of a long one's. A mask is read whole.
        if r.isHidden || r.opacity == 0, !node.isMask { return }
        layer.displayIfNeeded()
        r.isDoubleSided = layer.isDoubleSided
        // A model's sublayers and mask are the node's; a presented copy has none of its own.
        let tree = readsModels ? node : layer
        try sublayers(of: tree, presented: layer, at: path, into: &r.sublayers)
        guard r.kind == .ordinary else { return }
        if kind == .other, let emitter = layer as? CAEmitterLayer {
            // Above the background and border, below the sublayers.
            r.sublayers.insert(contentsOf: try particles(of: emitter, at: path), at: 0)
        }

        r.backgroundColor = layer.backgroundColor.map(RGBA.init)
        r.cornerRadii = cornerRadii(of: layer)
        r.borderWidth = Double(max(0, layer.borderWidth))
        // Read only where a border is drawn: most layers have none.
        if r.borderWidth > 0 { r.borderColor = layer.borderColor.map(RGBA.init) ?? RGBA(red: 0, green: 0, blue: 0, alpha: 0) }
        r.masksToBounds = layer.masksToBounds
        if let mask = tree.mask {
            var frozen = RenderLayer.reclaimed(&spareMask)
            try snapshot(mask, placedIn: childPlacement(under: layer, isMask: true), at: path.appending(.mask), into: &frozen)
            r.mask = Indirect(frozen)
            r.maskIsInverted = layer.invertsMask
        }
        r.allowsGroupOpacity = layer.allowsGroupOpacity
        r.effects = try effects(of: layer, at: path)
        try content(of: layer, bounds: r.bounds, at: path, into: &r.content)
    }

    /// Freezes the sublayer `node` straight into `list`, its superlayer's
    /// sublayers, at `kept` (over what a tree frozen before left there, or
    /// as a new last element), and keeps it, counting it in `kept`, only if
    /// it draws: a sublayer that draws nothing, nor lets its subtree draw,
    /// is left out of the tree the planner walks (an animation's layers
    /// outside their time range are many of its layers). The caller cuts
    /// `list` to `kept` when done.
    private func append(_ node: CALayer, placedIn placement: LayerPlacement, at path: LayerPath,
                        to list: inout [RenderLayer], kept: inout Int) throws(RenderRefusal) {
        let hidden = readsModels ? readModel(node) : nil
        if hidden == true, !node.isMask {
            // A model layer hidden at the time (most of a long animation's
            // layers are, outside their time range): counted, as every
            // layer reached is, and no value made for it only to be dropped.
            try countLayers(1, at: path)
            return
        }
        if kept < list.count { list[kept].clearKeepingStorage() } else { list.append(RenderLayer()) }
        try snapshot(node, placedIn: placement, at: path, modelHidden: hidden, into: &list[kept])
        if !list[kept].isHidden, list[kept].opacity != 0 { kept += 1 }
    }

    /// How a sublayer or mask of `presented` is placed: against it, when the
    /// tree walked is a model tree (the sublayer's own superlayer is the model).
    private func childPlacement(under presented: CALayer, isMask: Bool) -> LayerPlacement {
        readsModels ? .presented(under: presented, isMask: isMask) : .itsOwnTree
    }

    /// The sublayers of `layer` (the tree's layer: the model while reading
    /// models), placed under `presented` (the layer as it is at the time).
    /// The frozen sublayers are written over `subs` (a tree frozen before's, or none).
    private func sublayers(of layer: CALayer, presented: CALayer, at path: LayerPath,
                           into subs: inout [RenderLayer]) throws(RenderRefusal) {
        let sublayers = layer.sublayers ?? []
        subs.reserveCapacity(sublayers.count)
        let placement = sublayers.isEmpty ? .itsOwnTree : childPlacement(under: presented, isMask: false)
        var kept = 0
        for (i, sublayer) in sublayers.enumerated() {
            try append(sublayer, placedIn: placement, at: path.appending(.sublayer(i)), to: &subs, kept: &kept)
        }
        if subs.count > kept { subs.removeLast(subs.count - kept) }
        guard LayerClass(presented) == .other, let replicator = presented as? CAReplicatorLayer,
              replicator.instanceCount > 1 || replicator.instanceColor != nil else {
            return
        }
        // Every instance past the first copies the sublayers' subtrees; an
        // instance with nothing to copy is still a step of the expansion.
        // Counted before any copy is made, so that a billion instances cost nothing.
        let instances = max(0, replicator.instanceCount)
        let subtree = max(1, subs.reduce(0) { $0 + $1.subtreeCount })
        let (copies, overflow) = (instances - 1).multipliedReportingOverflow(by: subtree)
        try countLayers(overflow ? .max : max(0, copies), at: path)
        let expansion = ReplicatorExpansion(replicator)
        // Instance i runs its sublayers' animations i * instanceDelay later:
        // it shows them as they were that much earlier (their models'
        // presentations then), frozen as the first instance is.
        let models = (layer.sublayers ?? []).map { $0.model() }
        let first = subs
        guard replicator.instanceDelay != 0, instances > 1, models.contains(where: \.treeHasAnimations) else {
            subs = expansion.expand { _ in first }
            return
        }
        // Their copies share the models' contents: drawn once, before any copy.
        for model in models { model.displayIfNeededRecursively() }
        var delayed: [[RenderLayer]] = [first]
        for instance in 1..<instances {
            let time = options.time - Double(instance) * replicator.instanceDelay
            // These layers were counted above, as copies of the first instance.
            let counting = countsLayers
            countsLayers = false
            defer { countsLayers = counting }
            var frozen: [RenderLayer] = []
            var kept = 0
            let reading = readsModels
            readsModels = false
            defer { readsModels = reading }
            for (i, model) in models.enumerated() {
                try append(model.treeHasAnimations ? model.presentation(atTime: time) : model, placedIn: .itsOwnTree,
                           at: path.appending(.sublayer(i)), to: &frozen, kept: &kept)
            }
            frozen.removeLast(frozen.count - kept)
            delayed.append(frozen)
        }
        subs = expansion.expand { delayed[$0] }
    }

    func countLayers(_ n: Int, at path: LayerPath) throws(RenderRefusal) {
        guard countsLayers else { return }
        let (sum, overflow) = layerCount.addingReportingOverflow(n)
        layerCount = overflow ? .max : sum
        if layerCount > options.budget.layers {
            throw RenderRefusal(at: path, "the tree has more than \(options.budget.layers) layers once replicators are expanded (the budget)")
        }
    }

    /// The pixels per point of a backing image of `size` points asked for at
    /// `scale`: `scale` itself, or less so that the image keeps within the
    /// largest backing image; the image's pixels count against the budget.
    private func backingScale(_ scale: Double, for size: CGSize, at path: LayerPath, what: String) throws(RenderRefusal) -> Double {
        let w = Double(size.width), h = Double(size.height)
        guard w > 0, h > 0, w.isFinite, h.isFinite, scale > 0, scale.isFinite else { return 0 }
        var s = scale
        if max(w, h) * s > Self.maxBackingSide { s = Self.maxBackingSide / max(w, h) }
        if w * h * s * s > Self.maxBackingPixels { s *= (Self.maxBackingPixels / (w * h * s * s)).squareRoot() }
        let pixels = (w * s).rounded(.up) * (h * s).rounded(.up)
        backingPixels += pixels
        if backingPixels > Double(options.budget.backingPixels) {
            throw RenderRefusal(at: path, "\(what) of \(Quoted.number((w * s).rounded(.up))) x \(Quoted.number((h * s).rounded(.up))) pixels takes the backing images over the budget of \(options.budget.backingPixels) pixels")
        }
        return s
    }

    /// The layer's shadow, filters and blend mode in one box; nil for a
    /// layer with none of them (most), for which no `RenderEffects` is made.
    private func effects(of layer: CALayer, at path: LayerPath) throws(RenderRefusal) -> Indirect<RenderEffects>? {
        if layer.setsNoEffects { return nil }
        let filters = try Self.filters(layer.filters, at: path)
        let backgroundFilters = try Self.filters(layer.backgroundFilters, key: "backgroundFilters", at: path)
        let blendMode = try Self.blendMode(of: layer, at: path)
        let shadowColor = layer.shadowOpacity > 0 ? layer.shadowColor : nil
        guard shadowColor != nil || !filters.isEmpty || !backgroundFilters.isEmpty || blendMode != .normal else { return nil }
        var effects = RenderEffects()
        if let shadowColor {
            let path = layer.shadowPath.map { path in
                let data = path.pathData
                return FillContent(outline: .fill(data), evenOdd: false, color: .white, bounds: data.boundingBox)
            }
            effects.shadow = RenderShadow(
                color: RGBA(shadowColor), opacity: Double(min(1, layer.shadowOpacity)), offset: layer.shadowOffset,
                radius: Double(max(0, layer.shadowRadius)), path: path)
        }
        effects.filters = filters
        effects.backgroundFilters = backgroundFilters
        effects.blendMode = blendMode
        return Indirect(effects)
    }

    /// `cornerRadius` at the corners `maskedCorners` names (fitted to the
    /// bounds where they are drawn: `RoundedRectCoverage`).
    private func cornerRadii(of layer: CALayer) -> CornerRadii {
        let r = Double(layer.cornerRadius)
        guard r != 0 else { return .zero }
        let m = layer.maskedCorners
        return CornerRadii(
            minXMinY: m.contains(.layerMinXMinYCorner) ? r : 0, maxXMinY: m.contains(.layerMaxXMinYCorner) ? r : 0,
            maxXMaxY: m.contains(.layerMaxXMaxYCorner) ? r : 0, minXMaxY: m.contains(.layerMinXMaxYCorner) ? r : 0)
    }

    /// A layer's `minificationFilter` or `magnificationFilter` (which code may
    /// set to any string) as the renderer's filter: an unknown one is refused,
    /// naming the layer, instead of silently drawing as another.
    private static func filter(_ raw: String, _ property: String, at path: LayerPath) throws(RenderRefusal) -> TextureFilter {
        guard let value = TextureFilter(layerFilterNamed: raw) else {
            throw unknown(raw, TextureFilter.layerFilters.map(\.rawValue), property, at: path)
        }
        return value
    }

    /// `value` when it is one of Core Animation's constants `all`.
    private static func known<C: RawRepresentable<String> & Equatable>(
        _ value: C, in all: [C], _ property: String, at path: LayerPath
    ) throws(RenderRefusal) -> C {
        guard all.contains(value) else { throw unknown(value.rawValue, all.map(\.rawValue), property, at: path) }
        return value
    }

    private static func unknown(_ raw: String, _ known: [String], _ property: String, at path: LayerPath) -> RenderRefusal {
        RenderRefusal(at: path, "its \(property) \(String(reflecting: Quoted.prefix(raw))) is not one of Core Animation's (\(known.joined(separator: ", ")))")
    }

    /// `contents` as pixels: an image, or what `draw(in:)` recorded.
    private func contentsImage(of layer: CALayer, at path: LayerPath) throws(RenderRefusal) -> CGImage? {
        // Most layers have none: nil is not tried against each kind below
        // (nor copied out of the layer to be tried).
        guard !layer.storesNoContents, let contents = layer.contents else { return nil }
        switch contents {
        case let image as CGImage: return image
        case let fade as ContentsCrossfade: return fade.from
        case let store as CABackingStore:
            let size = CGSize(width: store.recording.width, height: store.recording.height)
            guard try backingScale(1, for: size, at: path, what: "what draw(in:) drew") == 1 else {
                throw RenderRefusal(at: path, "what draw(in:) drew is \(store.recording.width) x \(store.recording.height) pixels, larger than a backing image may be (\(Int(Self.maxBackingSide)) a side, \(Int(Self.maxBackingPixels)) pixels)")
            }
            return store.makeImage()
        default: return nil
        }
    }

    /// The layer's content, appended to `pieces` (empty, with room kept from a tree frozen before).
    private func content(of layer: CALayer, bounds: CGRect, at path: LayerPath,
                         into pieces: inout [RenderContent]) throws(RenderRefusal) {
        let kind = LayerClass(layer)
        // A picture: a text layer's backing or the contents (most layers
        // have neither, and are not asked further).
        if kind == .other || !layer.storesNoContents {
            try appendPicture(of: layer, kind: kind, bounds: bounds, at: path, to: &pieces)
        }
        if kind == .shape {
            ShapeContent.append(unsafeDowncast(layer, to: CAShapeLayer.self), to: &pieces)
        } else if kind == .other, let shape = layer as? CAShapeLayer {
            ShapeContent.append(shape, to: &pieces)
        }
        if kind == .other, let gradient = layer as? CAGradientLayer, let fill = GradientFill(gradient, bounds: bounds) {
            pieces.append(.gradient(fill))
        }
    }

    /// The layer's picture, if it shows one: a text layer's backing image,
    /// or its `contents` (followed by the next picture of a crossfade).
    private func appendPicture(of layer: CALayer, kind: LayerClass, bounds: CGRect, at path: LayerPath,
                               to pieces: inout [RenderContent]) throws(RenderRefusal) {
        var backing: ImageContent?
        if kind == .other, let text = layer as? CATextLayer, let rasterizer = options.textRasterizer {
            // A text layer draws its text into its backing store, which is
            // its contents.
            let asked = layer.contentsScale > 0 && layer.contentsScale.isFinite ? Double(layer.contentsScale) : 1
            let scale = try backingScale(asked, for: bounds.size, at: path, what: "the text layer's backing image")
            if scale > 0, let image = rasterizer.image(for: text, scale: scale) {
                backing = textContent(image, bounds: bounds, scale: scale)
            }
        } else if let image = try contentsImage(of: layer, at: path) {
            var c = ImageContent(image: image, gravity: try Self.known(layer.contentsGravity, in: CALayerContentsGravity.all, "contentsGravity", at: path))
            c.contentsRect = layer.contentsRect
            c.contentsCenter = layer.contentsCenter
            c.contentsScale = Double(layer.contentsScale)
            backing = c
        }
        if var c = backing {
            c.isFlipped = options.contentsFlipped
            c.multiplyColor = layer.contentsMultiplyColor.map(RGBA.init)
            c.minificationFilter = try Self.filter(layer.minificationFilter.rawValue, "minificationFilter", at: path)
            c.magnificationFilter = try Self.filter(layer.magnificationFilter.rawValue, "magnificationFilter", at: path)
            pieces.append(.image(c))
            if let fade = layer.contents as? ContentsCrossfade, let next = fade.to, fade.fraction > 0 {
                // The next picture over the first, its alpha scaled by how far the dissolve has gone.
                var over = c
                over.image = next
                let weight = RGBA(red: 1, green: 1, blue: 1, alpha: min(1, fade.fraction))
                over.multiplyColor = c.multiplyColor.map { $0.multiplied(by: weight) } ?? weight
                pieces.append(.image(over))
            }
        }
    }

    /// The text image of `ceil(bounds.size * contentsScale)` pixels shown
    /// over the bounds: its fractional last pixel column and row are cropped
    /// away, so each image pixel is one backing-store pixel.
    private func textContent(_ image: CGImage, bounds: CGRect, scale: Double) -> ImageContent {
        var c = ImageContent(image: image, gravity: .resize)
        c.contentsRect = CGRect(
            x: 0, y: 0,
            width: min(1, Double(bounds.width) * scale / Double(image.width)),
            height: min(1, Double(bounds.height) * scale / Double(image.height)))
        c.contentsScale = scale
        return c
    }
}

/// A shape layer's fill and stroke as regions, which the planner flattens
/// for the scale they are seen at.
enum ShapeContent {
    /// Appends `shape`'s fill and stroke, those it draws, to `pieces` (one
    /// list a layer, made once, whatever it holds).
    static func append(_ shape: CAShapeLayer, to pieces: inout [RenderContent]) {
        guard let path = shape.path?.pathData, !path.isEmpty else { return }
        pieces.reserveCapacity(pieces.count + 2)
        let box = path.boundingBox
        if let fill = shape.fillColor, fill.alpha > 0 {
            pieces.append(.fill(FillContent(
                outline: .fill(path), evenOdd: shape.fillRule == .evenOdd, color: RGBA(fill), bounds: box)))
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
            // The outline lies within half the width of the path but at a
            // square cap's corners (√2 of that) and a miter's tip (at most
            // miterLimit of it): a round or bevelled stroke's box is not
            // grown by a miter it does not have (Lottie's strokes are
            // mostly round, their miter limit 10 or 4).
            let join = style.lineJoin == .miter ? max(Double(shape.miterLimit), 1) : 1
            let cap = style.lineCap == .square ? 2.0.squareRoot() : 1
            let reach = Double(shape.lineWidth) / 2 * max(join, cap)
            pieces.append(.fill(FillContent(
                outline: .stroke(path, style), evenOdd: false, color: RGBA(stroke), bounds: box.insetBy(dx: -reach, dy: -reach))))
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

    /// Every instance of the sublayers, placed and tinted; `sublayers(i)`
    /// is what instance `i` copies.
    func expand(_ sublayers: (Int) -> [RenderLayer]) -> [RenderLayer] {
        var out: [RenderLayer] = []
        var placement = CATransform3D.identity
        for i in 0..<count {
            let k = Double(i)
            func clamp(_ v: Double) -> Double { min(1, max(0, v)) }
            let tint = RGBA(red: clamp(baseColor.red + k * offsets.red), green: clamp(baseColor.green + k * offsets.green),
                            blue: clamp(baseColor.blue + k * offsets.blue), alpha: clamp(baseColor.alpha + k * offsets.alpha))
            for sub in sublayers(i) {
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

extension PathData {
    /// The contours a fill of the path covers at `tolerance`: its flattened
    /// subpaths, less those with fewer than three points (no area). For a
    /// shape layer's fill and a shadow path alike.
    func fillContours(tolerance: Double) -> [[CGPoint]] {
        flattened(tolerance: CGFloat(tolerance)).compactMap { $0.points.count >= 3 ? $0.points : nil }
    }
}

/// A layer's class as the snapshot asks it, once a layer: Lamina's own
/// `CALayer` and `CAShapeLayer` (most of a Lottie tree's layers) are none of
/// the other classes it looks for, so their casts (each a walk up the
/// class chain) are not made.
private enum LayerClass {
    /// Exactly `CALayer`.
    case plain
    /// Exactly `CAShapeLayer`.
    case shape
    /// Any other class: asked cast by cast.
    case other

    init(_ layer: CALayer) {
        let type = type(of: layer)
        self = type == CALayer.self ? .plain : type == CAShapeLayer.self ? .shape : .other
    }
}

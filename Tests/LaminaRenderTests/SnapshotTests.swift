import LaminaRaster
import Foundation
import Testing
@testable import LaminaRender

@Suite("Snapshot")
struct SnapshotTests {
    @Test func readsGeometryAndAppearance() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.position = CGPoint(x: 100, y: 50)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 50, height: 20)
        child.position = CGPoint(x: 100, y: 50)
        child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        child.cornerRadius = 40 // more than half the height: limited to 10
        child.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        child.borderWidth = 2
        child.opacity = 0.5
        child.isDoubleSided = false
        root.addSublayer(child)

        let snapshot = try RenderLayer(snapshotOf: root)
        let c = try #require(snapshot.sublayers.first)
        #expect(c.bounds == child.bounds)
        #expect(c.transformToSuperlayer == child.transformToSuperlayer)
        #expect(c.transformToSuperlayer.apply(to: .zero) == CGPoint(x: 75, y: 40))
        #expect(c.backgroundColor == RGBA(red: 1, green: 0, blue: 0, alpha: 1))
        // The snapshot keeps the radius asked for; where it is drawn, it is
        // fitted to the bounds (once, for every backend).
        #expect(c.cornerRadii == CornerRadii(minXMinY: 40, maxXMinY: 0, maxXMaxY: 40, minXMaxY: 0))
        #expect(RoundedRectCoverage(rect: c.bounds, radii: c.cornerRadii).radii
                == CornerRadii(minXMinY: 10, maxXMinY: 0, maxXMaxY: 10, minXMaxY: 0))
        #expect(c.borderWidth == 2 && c.borderColor == .black)
        #expect(c.opacity == 0.5 && !c.isDoubleSided)
    }

    /// A model tree read at a time (only its animated layers copied, each
    /// placed against its presented superlayer) freezes as its presentation
    /// tree does: a parent whose bounds origin and sublayer transform
    /// animate moves an unanimated child; a mask animated through the
    /// parent's key path (`mask.opacity`) is read from a whole copy.
    @Test func aModelTreeReadAtATimeFreezesAsItsPresentationTree() throws {
        func animation(_ keyPath: String, _ from: Any, _ to: Any) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: keyPath)
            a.fromValue = from
            a.toValue = to
            a.duration = 2
            return a
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let parent = CALayer()
        parent.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
        parent.add(animation("bounds.origin", CGPoint.zero, CGPoint(x: 40, y: 20)), forKey: "origin")
        parent.add(animation("sublayerTransform.rotation.z", 0.0, 1.0), forKey: "turn")
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
        child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let grandchild = CALayer()
        grandchild.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        grandchild.add(animation("position", CGPoint(x: 10, y: 10), CGPoint(x: 20, y: 25)), forKey: "move")
        child.addSublayer(grandchild)
        parent.addSublayer(child)
        root.addSublayer(parent)
        let masked = CALayer()
        masked.frame = CGRect(x: 120, y: 120, width: 60, height: 60)
        let mask = CALayer()
        mask.frame = masked.bounds
        masked.mask = mask
        masked.add(animation("mask.opacity", 1.0, 0.0), forKey: "fade")
        root.addSublayer(masked)
        func flattened(_ layer: RenderLayer) -> [String] {
            ["\(layer.path) \(layer.transformToSuperlayer) \(layer.bounds) \(layer.opacity)"]
                + layer.sublayers.flatMap(flattened) + (layer.mask.map { flattened($0.value) } ?? [])
        }
        let options = SnapshotOptions(time: 0.5)
        let fromCopies = try RenderLayer(snapshotOf: root.presentation(atTime: 0.5), options: options)
        let fromModel = try RenderLayer(snapshotOfModel: root, options: options)
        #expect(flattened(fromModel) == flattened(fromCopies))
        #expect(fromModel.sublayers[1].mask?.value.opacity == 0.75, "mask.opacity, a quarter of the way")
    }

    @Test func transformLayersAreMarked() throws {
        let root = CALayer()
        root.addSublayer(CATransformLayer())
        #expect(try RenderLayer(snapshotOf: root).sublayers.first?.kind == .transform)
    }

    @Test func shapeLayersBecomeFillsThatFlattenOnDemand() throws {
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        shape.strokeColor = CGColor.black
        shape.lineWidth = 4
        let snapshot = try RenderLayer(snapshotOf: shape)
        #expect(snapshot.content.count == 2)
        guard case .fill(let fill) = snapshot.content[0], case .fill(let stroke) = snapshot.content[1] else {
            Issue.record("expected a fill and a stroke"); return
        }
        #expect(!fill.evenOdd && fill.color == .black)
        // Finer tolerance, more points.
        let coarse = fill.contours(1).flatMap { $0 }.count, fine = fill.contours(0.01).flatMap { $0 }.count
        #expect(fine > coarse)
        #expect(stroke.bounds.contains(CGRect(x: -2, y: -2, width: 104, height: 104)))
        #expect(!stroke.contours(0.1).isEmpty)
    }

    /// A stroke's box holds its outline, grown from the path's by half the
    /// width, √2 of it for square caps and the miter limit's multiple for
    /// miter joins only.
    @Test(arguments: [(CAShapeLayerLineJoin.round, CAShapeLayerLineCap.round, 1.0), (.bevel, .butt, 1.0),
                      (.round, .square, 2.0.squareRoot()), (.miter, .butt, 10.0)])
    func aStrokesBoxHoldsItsOutline(join: CAShapeLayerLineJoin, cap: CAShapeLayerLineCap, factor: Double) throws {
        let shape = CAShapeLayer()
        let path = CGMutablePath()
        // A zigzag with sharp corners, open at both ends.
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 50, y: 8))
        path.addLine(to: CGPoint(x: 0, y: 16))
        path.addLine(to: CGPoint(x: 60, y: 40))
        shape.path = path
        shape.fillColor = nil
        shape.strokeColor = CGColor.black
        shape.lineWidth = 6
        shape.lineJoin = join
        shape.lineCap = cap
        let snapshot = try RenderLayer(snapshotOf: shape)
        guard case .fill(let stroke) = snapshot.content.first else { Issue.record("expected a stroke"); return }
        let reach = 3 * factor
        #expect(stroke.bounds == CGRect(x: 0, y: 0, width: 60, height: 40).insetBy(dx: -reach, dy: -reach))
        let points = stroke.contours(0.01).flatMap { $0 }
        #expect(!points.isEmpty)
        #expect(points.allSatisfy { stroke.bounds.insetBy(dx: -1e-9, dy: -1e-9).contains($0) })
    }

    @Test func replicatorInstancesAreExpanded() throws {
        let replicator = CAReplicatorLayer()
        replicator.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
        replicator.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        replicator.instanceRedOffset = -0.5
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.position = CGPoint(x: 5, y: 5)
        replicator.addSublayer(dot)
        let instances = try RenderLayer(snapshotOf: replicator).sublayers
        #expect(instances.count == 3)
        #expect(instances.map { $0.transformToSuperlayer.apply(to: .zero).x } == [0, 10, 20])
        #expect(instances[0].tint == nil)
        #expect(instances[2].tint?.red == 0)
    }

    @Test func replicatorInstancesRunTheirAnimationsInstanceDelayLater() throws {
        let replicator = CAReplicatorLayer()
        replicator.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        replicator.instanceCount = 4
        replicator.instanceDelay = 0.25
        let bar = CALayer()
        bar.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        bar.add(fade, forKey: "fade")
        replicator.addSublayer(bar)
        // At 0.6 s: instance k shows the fade at 0.6 - 0.25 k; the last has not begun (the model's 1).
        let time = 0.6
        let instances = try RenderLayer(snapshotOf: replicator.presentation(atTime: time), options: SnapshotOptions(time: time)).sublayers
        let opacities = instances.map(\.opacity)
        for (k, expected) in [0.4, 0.65, 0.9, 1.0].enumerated() {
            #expect(abs(opacities[k] - expected) < 1e-6, "instance \(k): \(opacities)")
        }
        // Without a delay, every instance shows the same moment.
        replicator.instanceDelay = 0
        #expect(Set(try RenderLayer(snapshotOf: replicator.presentation(atTime: time), options: SnapshotOptions(time: time))
            .sublayers.map(\.opacity)).count == 1)
    }

    @Test func delayedInstancesCountAgainstTheLayerBudgetOnce() throws {
        let replicator = CAReplicatorLayer()
        replicator.instanceCount = 50
        replicator.instanceDelay = 0.1
        let bar = CALayer()
        bar.add(CABasicAnimation(keyPath: "opacity"), forKey: "fade")
        replicator.addSublayer(bar)
        var budget = RenderBudget.default
        budget.layers = 51  // the replicator and its 50 instances
        #expect(try RenderLayer(snapshotOf: replicator.presentation(atTime: 1), options: SnapshotOptions(budget: budget, time: 1))
            .sublayers.count == 50)
        budget.layers = 50
        #expect(throws: RenderRefusal.self) {
            try RenderLayer(snapshotOf: replicator.presentation(atTime: 1), options: SnapshotOptions(budget: budget, time: 1))
        }
    }

    @Test func gradientsAreContentInTheLayersPoints() throws {
        let gradient = CAGradientLayer()
        gradient.bounds = CGRect(x: 10, y: 5, width: 40, height: 20)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)]
        gradient.locations = [0.25, 0.75]
        let snapshot = try RenderLayer(snapshotOf: gradient)
        guard case .gradient(let fill) = try #require(snapshot.content.first) else { Issue.record("expected a gradient"); return }
        // startPoint (0.5, 0) to endPoint (0.5, 1) of the bounds, in points.
        #expect(fill.start == (30, 5) && fill.end == (30, 25))
        #expect(fill.stops.map(\.location) == [0.25, 0.75])
        // Colours premultiplied: the half-transparent blue is (0, 0, 0.5, 0.5).
        #expect(fill.stops[1].color == (0, 0, 0.5, 0.5))
        #expect(fill.parameter(x: 0, y: 15) == 0.5)
    }
}

@Suite("A frame's layers cleared for the next")
struct ClearKeepingStorageTests {
    /// Every stored property of `RenderLayer`, in order: a field added
    /// there is cleared in `clearKeepingStorage` too, and added here.
    static let fields = ["name", "path", "kind", "bounds", "transformToSuperlayer", "isHidden", "opacity",
                         "allowsGroupOpacity", "isDoubleSided", "backgroundColor", "cornerRadii", "borderWidth",
                         "borderColor", "masksToBounds", "mask", "maskIsInverted", "effects", "content", "tint", "sublayers"]

    @Test func everyFieldIsCleared() throws {
        #expect(Mirror(reflecting: RenderLayer()).children.map { $0.label ?? "?" } == Self.fields)
        var layer = RenderLayer()
        layer.name = "set"
        layer.path = LayerPath.root.appending(.sublayer(3))
        layer.kind = .transform
        layer.bounds = CGRect(x: 1, y: 2, width: 3, height: 4)
        layer.transformToSuperlayer = CATransform3D(translationX: 5, y: 6, z: 7)
        layer.isHidden = true
        layer.opacity = 0.5
        layer.allowsGroupOpacity = false
        layer.isDoubleSided = false
        layer.backgroundColor = RGBA(red: 1, green: 0, blue: 0, alpha: 1)
        layer.cornerRadii = CornerRadii(minXMinY: 1, maxXMinY: 2, maxXMaxY: 3, minXMaxY: 4)
        layer.borderWidth = 2
        layer.borderColor = RGBA(red: 0, green: 1, blue: 0, alpha: 1)
        layer.masksToBounds = true
        layer.mask = Indirect(RenderLayer())
        layer.maskIsInverted = true
        layer.blendMode = .multiply
        let shape = CAShapeLayer()
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        layer.content = try RenderLayer(snapshotOf: shape).content
        layer.tint = RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        layer.sublayers = [RenderLayer(), RenderLayer()]
        let cleared = { () -> RenderLayer in var l = layer; l.clearKeepingStorage(); return l }()
        // Each field as a new layer has it, but the lists kept for the
        // next frame to write over: the sublayers and the mask whole,
        // the content emptied.
        let fresh = Dictionary(uniqueKeysWithValues: Mirror(reflecting: RenderLayer()).children.map { ($0.label ?? "?", "\($0.value)") })
        for child in Mirror(reflecting: cleared).children {
            let label = child.label ?? "?"
            guard !["mask", "sublayers"].contains(label) else { continue }
            #expect("\(child.value)" == fresh[label], "\(label) is \(child.value) after clearing")
        }
        #expect(cleared.sublayers.count == 2 && cleared.mask != nil)
        #expect(cleared.content.isEmpty && cleared.content.capacity >= 1)
    }
}

@Suite("Snapshot constants")
struct SnapshotConstantTests {
    private func layer(gravity: CALayerContentsGravity, filter: CALayerContentsFilter = .linear) throws -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let child = CALayer()
        child.bounds = root.bounds
        child.contents = try CGImage(width: 2, height: 2, filledWith: CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        child.contentsGravity = gravity
        child.minificationFilter = filter
        root.addSublayer(child)
        return root
    }

    @Test("Every gravity and filter of Core Animation reaches the renderer as itself")
    func knownConstants() throws {
        let gravities: [CALayerContentsGravity] = [.center, .top, .bottom, .left, .right, .topLeft, .topRight,
                                                   .bottomLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
        for gravity in gravities {
            let snapshot = try RenderLayer(snapshotOf: try layer(gravity: gravity))
            guard case .image(let content)? = snapshot.sublayers.first?.content.first else {
                Issue.record("no contents for \(gravity.rawValue)"); continue
            }
            #expect(content.gravity.rawValue == gravity.rawValue)
        }
        let snapshot = try RenderLayer(snapshotOf: try layer(gravity: .resize, filter: .trilinear))
        guard case .image(let content)? = snapshot.sublayers.first?.content.first else { Issue.record("no contents"); return }
        #expect(content.minificationFilter == .trilinear)
    }

    @Test("An unknown gravity or filter set from code is refused, naming the layer (it drew as resize)")
    func unknownConstants() throws {
        #expect {
            _ = try RenderLayer(snapshotOf: try layer(gravity: CALayerContentsGravity(rawValue: "sideways")))
        } throws: { error in
            let refusal = error as? RenderRefusal
            return refusal?.layer == LayerPath([.sublayer(0)]) && refusal?.description.contains("contentsGravity \"sideways\"") == true
        }
        #expect(throws: RenderRefusal.self) {
            _ = try RenderLayer(snapshotOf: try layer(gravity: .resize, filter: CALayerContentsFilter(rawValue: "blurry")))
        }
    }

    /// A hidden or fully transparent layer draws nothing, nor does its
    /// subtree: it is left out of its superlayer's sublayers, its subtree
    /// not read. A mask is read whole, hidden or not.
    @Test func aHiddenOrTransparentLayersSubtreeIsNotRead() throws {
        func branch() -> CALayer {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let leaf = CALayer()
            leaf.backgroundColor = layer.backgroundColor
            layer.addSublayer(leaf)
            return layer
        }
        let root = CALayer()
        let hidden = branch(), transparent = branch(), shown = branch()
        hidden.isHidden = true
        transparent.opacity = 0
        for layer in [hidden, transparent, shown] { root.addSublayer(layer) }
        let mask = branch()
        mask.isHidden = true
        shown.mask = mask
        let snapshot = try RenderLayer(snapshotOf: root)
        // Only the shown one, at its own index among the three.
        #expect(snapshot.sublayers.map(\.path) == [LayerPath.root.appending(.sublayer(2))])
        let s = try #require(snapshot.sublayers.first)
        #expect(s.sublayers.count == 1 && s.backgroundColor != nil)
        let m = try #require(s.mask?.value)
        #expect(m.isHidden && m.sublayers.count == 1 && m.backgroundColor != nil)
        // A hidden root is still the root: nothing of it is drawn.
        #expect(try RenderLayer(snapshotOf: hidden).isHidden)
        // Read at a time, a layer hidden by an animation is left out the same way.
        let blink = CAKeyframeAnimation(keyPath: "hidden")
        blink.values = [true]
        blink.duration = 1
        shown.add(blink, forKey: nil)
        let animated = try RenderLayer(snapshotOfModel: root, options: SnapshotOptions(time: 0.5))
        #expect(animated.sublayers.isEmpty)
        #expect(try RenderLayer(snapshotOfModel: root, options: SnapshotOptions(time: 1.5)).sublayers.count == 1)
        // Found hidden before any copy: its animation into its subtree is
        // not played either. A mask hidden by its animation is read whole.
        let reach = CABasicAnimation(keyPath: "sublayers")
        reach.duration = 1
        shown.add(reach, forKey: nil)
        #expect(try RenderLayer(snapshotOfModel: root, options: SnapshotOptions(time: 0.5)).sublayers.isEmpty)
        shown.removeAllAnimations()
        mask.isHidden = false
        mask.add(blink, forKey: nil)
        let masked = try RenderLayer(snapshotOfModel: root, options: SnapshotOptions(time: 0.5))
        let hiddenMask = try #require(masked.sublayers.first?.mask?.value)
        #expect(hiddenMask.isHidden && hiddenMask.sublayers.count == 1)
    }
}

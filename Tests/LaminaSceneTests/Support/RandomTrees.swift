// Random layer trees built through the public API, for round-trip tests:
// every layer type, most properties, masks, sublayers and animations, with
// values drawn from what the format can express.
import Foundation
@testable import LaminaScene
import LaminaCore

struct RandomTrees {
    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func scene() -> Scene {
        let root = CALayer()
        fill(root, type: .layer, depth: 1)
        let scale: CGFloat = random.chance(0.3) ? random.pick([0.5, 2, 3]) : 1
        return Scene(width: CGFloat(random.int(1...500)), height: CGFloat(random.int(1...500)) + 0.5,
                     scale: scale, origin: random.chance(0.3) ? .bottomLeft : .topLeft,
                     time: random.chance(0.5) ? number(0...10) : 0, rootLayer: root)
    }

    // MARK: Values

    mutating func number(_ range: ClosedRange<Double> = -100...100) -> CGFloat {
        // Mix round numbers, which print short, with arbitrary ones.
        random.chance(0.5)
            ? CGFloat(Double(random.int(Int(range.lowerBound.rounded(.up))...Int(range.upperBound.rounded(.down)))))
            : CGFloat(Double.random(in: range, using: &random))
    }

    mutating func unit() -> CGFloat { random.chance(0.3) ? random.pick([0, 0.5, 1]) : CGFloat(Double.random(in: 0...1, using: &random)) }

    mutating func point() -> CGPoint { CGPoint(x: number(), y: number()) }

    mutating func rect() -> CGRect { CGRect(x: number(), y: number(), width: number(0...300), height: number(0...300)) }

    mutating func color() -> CGColor {
        if random.chance(0.5) {
            let b = (0..<4).map { _ in CGFloat(random.int(0...255)) / 255 }
            return CGColor(red: b[0], green: b[1], blue: b[2], alpha: random.chance(0.5) ? 1 : b[3])
        }
        return CGColor(red: unit(), green: unit(), blue: unit(), alpha: random.chance(0.5) ? 1 : unit())
    }

    mutating func transform() -> CATransform3D {
        var t = CATransform3DIdentity
        for _ in 0..<random.int(0...3) {
            switch random.int(0...3) {
            case 0: t = CATransform3DTranslate(t, number(), number(), number())
            case 1: t = CATransform3DScale(t, number(0.1...3), number(0.1...3), 1)
            case 2: t = CATransform3DRotate(t, number(-7...7), number(-1...1), number(-1...1), 1)
            default: t.m34 = -1 / number(100...1000)
            }
        }
        return t
    }

    mutating func path() -> CGPath {
        let p = UIBezierPath()
        p.move(to: point())
        for _ in 0..<random.int(0...6) {
            switch random.int(0...6) {
            case 0: p.addLine(to: point())
            case 1: p.addQuadCurve(to: point(), controlPoint: point())
            case 2: p.addCurve(to: point(), controlPoint1: point(), controlPoint2: point())
            case 3: p.addArc(withCenter: point(), radius: number(0...50), startAngle: number(-7...7),
                             endAngle: number(-7...7), clockwise: random.chance(0.5))
            case 4: p.close()
            case 5: p.append(UIBezierPath(roundedRect: rect(), cornerRadius: number(0...20)))
            default: p.move(to: point())
            }
        }
        return p.cgPath
    }

    mutating func image() -> CGImage {
        let (w, h) = (random.int(1...6), random.int(1...6))
        let bytes = (0..<(w * h * 4)).map { _ in UInt8(random.int(0...255)) }
        return (try? CGImage(width: w, height: h, straightRGBA: bytes)) ?? ImageValue.solid(width: 1, height: 1, color: .black)!
    }

    mutating func text() -> Any {
        let words = ["Hello", "wörld", "Core Animation", "\"quoted\"\n", "😀", ""]
        guard random.chance(0.5) else { return random.pick(words) }
        let s = NSMutableAttributedString(string: "")
        for _ in 0..<random.int(0...3) {
            var attributes: [NSAttributedString.Key: Any] = [:]
            if random.chance(0.5) { attributes[TextRunAttribute.font] = random.pick(["Mono", "DejaVu Serif:bold"]) }
            if random.chance(0.5) { attributes[TextRunAttribute.fontSize] = number(1...72) }
            if random.chance(0.5) { attributes[TextRunAttribute.foregroundColor] = color() }
            if random.chance(0.3) { attributes[TextRunAttribute.underlineStyle] = 1 }
            s.append(NSAttributedString(string: random.pick(words) + "!", attributes: attributes))
        }
        return NSAttributedString(attributedString: s)
    }

    // MARK: Layers

    mutating func layer(depth: Int) -> CALayer {
        let type = random.pick(LayerType.allCases)
        let layer = type.makeLayer()
        fill(layer, type: type, depth: depth)
        return layer
    }

    mutating func fill(_ l: CALayer, type: LayerType, depth: Int) {
        let isRoot = depth == 1
        if random.chance(0.5) { l.name = random.pick(["a", "face 1", "ünï", ""]) }
        if !isRoot {
            if random.chance(0.8) { l.bounds = rect() }
            if random.chance(0.8) { l.position = point() }
        }
        if random.chance(0.3) { l.anchorPoint = CGPoint(x: unit(), y: unit()) }
        if random.chance(0.2) { l.anchorPointZ = number() }
        if random.chance(0.2) { l.zPosition = number() }
        if random.chance(0.4) { l.transform = transform() }
        if random.chance(0.2) { l.sublayerTransform = transform() }
        if random.chance(0.1) { l.isHidden = true }
        if random.chance(0.3) { l.opacity = Float(unit()) }
        if random.chance(0.1) { l.isDoubleSided = false }
        if random.chance(0.5) { l.backgroundColor = color() }
        if random.chance(0.2) { l.cornerRadius = number(0...30) }
        if random.chance(0.1) { l.maskedCorners = CACornerMask(rawValue: UInt(random.int(0...15))) }
        if random.chance(0.2) { l.borderWidth = number(0...5) }
        if random.chance(0.2) { l.borderColor = color() }
        if random.chance(0.2) { l.masksToBounds = true }
        if random.chance(0.2) { l.shadowColor = color() }
        if random.chance(0.2) { l.shadowOpacity = Float(unit()) }
        if random.chance(0.2) { l.shadowOffset = CGSize(width: number(), height: number()) }
        if random.chance(0.2) { l.shadowRadius = number(0...20) }
        if random.chance(0.1) { l.shadowPath = path() }
        if random.chance(0.15) { l.contents = image() }
        if random.chance(0.2) { l.contentsGravity = random.pick(SceneKeys.gravities).1 }
        if random.chance(0.1) { l.contentsScale = random.pick([2, 3, 0.5]) }
        if random.chance(0.1) { l.contentsRect = CGRect(x: unit(), y: unit(), width: unit(), height: unit()) }
        if random.chance(0.1) { l.contentsCenter = CGRect(x: unit(), y: unit(), width: unit(), height: unit()) }
        if random.chance(0.1) { l.minificationFilter = random.pick(SceneKeys.filters).1 }
        if random.chance(0.1) { l.magnificationFilter = random.pick(SceneKeys.filters).1 }
        if random.chance(0.1) { l.isGeometryFlipped = true }

        switch l {
        case let s as CAShapeLayer:
            if random.chance(0.8) { s.path = path() }
            if random.chance(0.3) { s.fillColor = random.chance(0.5) ? nil : color() }
            if random.chance(0.3) { s.fillRule = .evenOdd }
            if random.chance(0.5) { s.strokeColor = color() }
            if random.chance(0.3) { s.lineWidth = number(0...10) }
            if random.chance(0.2) { s.lineCap = random.pick(SceneKeys.lineCaps).1 }
            if random.chance(0.2) { s.lineJoin = random.pick(SceneKeys.lineJoins).1 }
            if random.chance(0.2) { s.miterLimit = number(0...20) }
            if random.chance(0.2) { s.lineDashPattern = [NSNumber(value: 1 + Double(number(0...9))), 2] }
            if random.chance(0.2) { s.lineDashPhase = number() }
            if random.chance(0.2) { s.strokeStart = unit() }
            if random.chance(0.2) { s.strokeEnd = unit() }
        case let t as CATextLayer:
            if random.chance(0.8) { t.string = text() }
            if random.chance(0.3) { t.font = random.pick(["Mono", "DejaVu Sans:bold"]) }
            if random.chance(0.3) { t.fontSize = number(1...72) }
            if random.chance(0.3) { t.foregroundColor = color() }
            if random.chance(0.2) { t.alignmentMode = random.pick(SceneKeys.alignments).1 }
            if random.chance(0.2) { t.isWrapped = true }
            if random.chance(0.2) { t.truncationMode = random.pick(SceneKeys.truncations).1 }
        case let g as CAGradientLayer:
            let n = random.int(0...4)
            if random.chance(0.8) { g.colors = (0..<n).map { _ in color() } }
            if random.chance(0.4), let count = g.colors?.count {
                g.locations = (0..<count).map { _ in NSNumber(value: Double(unit())) }
            }
            if random.chance(0.3) { g.startPoint = CGPoint(x: unit(), y: unit()) }
            if random.chance(0.3) { g.endPoint = CGPoint(x: unit(), y: unit()) }
            if random.chance(0.3) { g.type = random.pick(SceneKeys.gradientTypes).1 }
        case let r as CAReplicatorLayer:
            if random.chance(0.8) { r.instanceCount = random.int(0...5) }
            if random.chance(0.5) { r.instanceTransform = transform() }
            if random.chance(0.3) { r.instanceColor = color() }
            if random.chance(0.3) { r.instanceRedOffset = Float(number(-1...1)) }
            if random.chance(0.2) { r.instanceGreenOffset = Float(number(-1...1)) }
            if random.chance(0.2) { r.instanceBlueOffset = Float(number(-1...1)) }
            if random.chance(0.2) { r.instanceAlphaOffset = Float(number(-1...1)) }
            if random.chance(0.3) { r.instanceDelay = Double(number(0...2)) }
        default:
            break
        }
        if random.chance(0.3) { addAnimations(to: l, type: type) }
        if depth < 4 {
            if random.chance(0.15) { l.mask = layer(depth: depth + 1) }
            for _ in 0..<random.int(0...(depth == 1 ? 4 : 2)) {
                l.addSublayer(layer(depth: depth + 1))
            }
        }
    }

    // MARK: Animations

    mutating func addAnimations(to layer: CALayer, type: LayerType) {
        for _ in 0..<random.int(1...3) {
            // Interpolable key paths of the layer's type.
            let keyPaths = AnimatableProperty.keyPaths(on: type).filter { keyPath in
                switch AnimatableProperty.kind(of: keyPath, on: type) {
                case .path?, .image?, .bool?, nil: false
                default: true
                }
            }
            let keyPath = random.pick(keyPaths)
            guard let kind = AnimatableProperty.kind(of: keyPath, on: type) else { continue }
            let animation: CAPropertyAnimation
            switch random.int(0...2) {
            case 0:
                let k = CAKeyframeAnimation(keyPath: keyPath)
                let count = random.int(1...4)
                k.values = (0..<count).map { _ in value(kind) }
                if random.chance(0.5) {
                    k.keyTimes = (0..<count).map { NSNumber(value: Double($0) / Double(max(count - 1, 1))) }
                }
                animation = k
            case 1:
                let s = CASpringAnimation(keyPath: keyPath)
                s.fromValue = value(kind)
                s.toValue = value(kind)
                if random.chance(0.5) { s.mass = number(0.5...3) }
                if random.chance(0.5) { s.stiffness = number(10...300) }
                if random.chance(0.5) { s.damping = number(0...20) }
                if random.chance(0.5) { s.initialVelocity = number(-5...5) }
                animation = s
            default:
                let b = CABasicAnimation(keyPath: keyPath)
                if random.chance(0.7) { b.fromValue = value(kind) }
                if random.chance(0.7) { b.toValue = value(kind) }
                if random.chance(0.2) { b.byValue = value(kind) }
                animation = b
            }
            if random.chance(0.3) { animation.beginTime = Double(number(0...5)) }
            if random.chance(0.5) { animation.duration = Double(number(0...5)) }
            if random.chance(0.2) { animation.speed = Float(number(-2...2)) }
            if random.chance(0.2) { animation.timeOffset = Double(number(0...2)) }
            if random.chance(0.2) { animation.repeatCount = Float(number(0...5)) }
            if random.chance(0.2) { animation.autoreverses = true }
            if random.chance(0.3) { animation.fillMode = random.pick(DecodingContext.fillModes).1 }
            if random.chance(0.3) {
                animation.timingFunction = random.chance(0.5)
                    ? CAMediaTimingFunction(name: random.pick(DecodingContext.timingFunctionNames).1)
                    : CAMediaTimingFunction(controlPoints: Float(unit()), Float(number(-1...2)), Float(unit()),
                                            Float(number(-1...2)))
            }
            let key = random.chance(0.5) ? keyPath : "key \(random.int(0...999))"
            layer.add(animation, forKey: key)
        }
    }

    mutating func value(_ kind: AnimatedValueKind) -> Any {
        switch kind {
        case .number(let range):
            switch range {
            case .unit: return unit()
            case .nonNegative: return number(0...100)
            case .positive: return number(1...100)
            case .any: return number()
            }
        case .point: return point()
        case .size: return CGSize(width: number(), height: number())
        case .rect: return rect()
        case .color: return color()
        case .transform: return transform()
        case .numbers: return [NSNumber(value: Double(unit())), NSNumber(value: Double(unit()))]
        case .colors: return [color(), color()]
        case .path: return path()
        case .image: return image()
        case .bool: return random.chance(0.5)
        case .string, .constant, .cornerMask, .layer, .layers, .emitterCells, .emitterBehaviors, .filters, .any:
            preconditionFailure("the property table marks no property of kind \(kind) animatable")
        }
    }
}

import Foundation

/// A value an animation computes with, read from the `Any` that Core
/// Animation's API passes around (`fromValue`, `values`, the model value).
///
/// Numbers (`CGFloat`, `Double`, `Float`, any integer, `NSNumber`), points,
/// sizes, rectangles and colours are vectors of doubles, interpolated and
/// added component by component. Transforms interpolate through their
/// decomposition (see `TransformInterpolation`) and add by concatenation.
/// Paths interpolate point by point when they have the same elements in the
/// same order, as Core Animation's do (a shape morphing between keyframes);
/// others jump: the first shows until the segment's end, then the second.
/// Arrays of such values work element by element. Images cross-dissolve,
/// as Core Animation animates `contents`. Anything else
/// (`Bool`, strings) is opaque: it can be shown by a discrete keyframe
/// animation but not interpolated or added.
enum AnimatableValue {
    /// The shape of a vector value, which decides the type it is written back as.
    enum VectorKind: Hashable {
        case number, point, size, rect, color

        /// Components used: the first `count` lanes of a vector's `SIMD4`.
        var count: Int {
            switch self {
            case .number: 1
            case .point, .size: 2
            case .rect, .color: 4
            }
        }
    }

    /// Up to four components inline, the lanes past `kind.count` zero: an
    /// animation computes thousands of these a frame, and a value that
    /// allocated its components (an array) made each one a heap block.
    case vector(VectorKind, SIMD4<Double>)
    case transform(CATransform3D)
    case affine(CGAffineTransform)
    case path(PathData)
    case array([AnimatableValue])
    /// A picture, or one dissolving into another (`ContentsCrossfade`).
    case image(ContentsCrossfade)
    case opaque(Any)

    static func number(_ v: Double) -> AnimatableValue { .vector(.number, SIMD4(v, 0, 0, 0)) }
    static func point(_ p: CGPoint) -> AnimatableValue { .vector(.point, SIMD4(Double(p.x), Double(p.y), 0, 0)) }
    static func size(_ s: CGSize) -> AnimatableValue { .vector(.size, SIMD4(Double(s.width), Double(s.height), 0, 0)) }
    static func rect(_ r: CGRect) -> AnimatableValue {
        .vector(.rect, SIMD4(Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)))
    }
    static func color(_ c: CGColor) -> AnimatableValue {
        .vector(.color, SIMD4(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha)))
    }

    /// The value as the type a vector of its kind stands for, when it is
    /// one: what `toAny(like:)` boxes, read without the box.
    var asPoint: CGPoint? { if case let .vector(.point, c) = self { Self.cgPoint(c) } else { nil } }
    var asSize: CGSize? { if case let .vector(.size, c) = self { Self.cgSize(c) } else { nil } }
    var asRect: CGRect? { if case let .vector(.rect, c) = self { Self.cgRect(c) } else { nil } }
    var asColor: CGColor? { if case let .vector(.color, c) = self { Self.cgColor(c) } else { nil } }
    /// A number's value.
    var asNumber: Double? { if case let .vector(.number, c) = self { c[0] } else { nil } }

    private static func cgPoint(_ c: SIMD4<Double>) -> CGPoint { CGPoint(x: CGFloat(c[0]), y: CGFloat(c[1])) }
    private static func cgSize(_ c: SIMD4<Double>) -> CGSize { CGSize(width: CGFloat(c[0]), height: CGFloat(c[1])) }
    private static func cgRect(_ c: SIMD4<Double>) -> CGRect {
        CGRect(x: CGFloat(c[0]), y: CGFloat(c[1]), width: CGFloat(c[2]), height: CGFloat(c[3]))
    }
    private static func cgColor(_ c: SIMD4<Double>) -> CGColor {
        CGColor(red: CGFloat(c[0]), green: CGFloat(c[1]), blue: CGFloat(c[2]), alpha: CGFloat(c[3]))
    }

    /// Reads `value`; never fails (unknown types are opaque).
    init(_ value: Any) {
        if let exact = Self(exactly: value) {
            self = exact
            return
        }
        switch value {
        case let v as CGFloat: self = .number(Double(v))
        case let v as Double: self = .number(v)
        case let v as Float: self = .number(Double(v))
        case let v as Int: self = .number(Double(v))
        case let v as NSNumber: self = .number(v.doubleValue)
        case let p as CGPoint: self = .point(p)
        case let s as CGSize: self = .size(s)
        case let r as CGRect: self = .rect(r)
        case let c as CGColor: self = .color(c)
        case let t as CATransform3D: self = .transform(t)
        case let a as CGAffineTransform: self = .affine(a)
        case let p as CGPath: self = .path(p.pathData)
        case let i as CGImage: self = .image(ContentsCrossfade(from: i, to: nil, fraction: 0))
        case let c as ContentsCrossfade: self = .image(c)
        case let items as [Any]: self = .array(items.map(AnimatableValue.init))
        default: self = .opaque(value)
        }
    }

    /// `value` when its type is one an animation's values usually have,
    /// told by comparing the type alone: a cast that fails costs more than
    /// one that succeeds (`as? CGFloat` of a path tries bridging through
    /// `NSNumber`), and a keyframe track reads its values by the thousand.
    /// A `Bool` is a flag, not a number (Bool and NSNumber bridge both ways).
    private init?(exactly value: Any) {
        let type = type(of: value)
        if type == Bool.self {
            self = .opaque(value)
        } else if type == CGFloat.self {
            self = .number(Double(value as! CGFloat))
        } else if type == Double.self {
            self = .number(value as! Double)
        } else if type == CGPoint.self {
            self = .point(value as! CGPoint)
        } else if type == CGSize.self {
            self = .size(value as! CGSize)
        } else if type == CATransform3D.self {
            self = .transform(value as! CATransform3D)
        } else if type == CGPath.self {
            self = .path((value as! CGPath).pathData)
        } else if type == CGColor.self {
            self = .color(value as! CGColor)
        } else {
            return nil
        }
    }

    /// Whether two values have the same shape (kind, and length for arrays),
    /// so that they can be interpolated or added.
    func isCompatible(with other: AnimatableValue) -> Bool {
        // Two vectors, the usual case, told without the pair's copy the
        // switch below makes (each value copied whole, references retained).
        if case .vector(let k1, _) = self, case .vector(let k2, _) = other { return k1 == k2 }
        switch (self, other) {
        case let (.vector(k1, _), .vector(k2, _)): return k1 == k2
        case (.transform, .transform), (.affine, .affine), (.image, .image): return true
        case let (.path(a), .path(b)): return PathMorph.canMorph(a, b)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isCompatible(with: $1) }
        default: return false
        }
    }

    /// Whether an animation can go from this value to `other`: by
    /// interpolating (`isCompatible`), or by a jump, as between two paths
    /// whose elements differ (`interpolated(to:fraction:)`).
    func canAnimate(to other: AnimatableValue) -> Bool {
        if case .path = self, case .path = other { return true }
        return isCompatible(with: other)
    }

    /// What the value is, for error messages: "number", "CGPoint", "array of 3".
    var typeName: String {
        switch self {
        case let .vector(kind, _):
            switch kind {
            case .number: return "number"
            case .point: return "CGPoint"
            case .size: return "CGSize"
            case .rect: return "CGRect"
            case .color: return "CGColor"
            }
        case .transform: return "CATransform3D"
        case .affine: return "CGAffineTransform"
        case .path: return "CGPath"
        case .image: return "CGImage"
        case let .array(items): return "array of \(items.count)"
        case let .opaque(v): return "\(type(of: v))"
        }
    }

    /// Whether the value can be interpolated at all (it is not, and holds
    /// nothing, opaque).
    var isInterpolable: Bool {
        switch self {
        case .vector, .transform, .affine, .path, .image: return true
        case let .array(items): return items.allSatisfy(\.isInterpolable)
        case .opaque: return false
        }
    }

    /// The value as the Swift type an animation returns. Numbers take the
    /// type of `template` when it is a `Double`, `Float` or `NSNumber`, and
    /// are `CGFloat` otherwise; arrays take the element type of `template`
    /// where every element has it, else they are `[Any]`.
    func toAny(like template: Any?) -> Any {
        switch self {
        case let .vector(kind, c):
            switch kind {
            case .number: return Self.number(c[0], like: template)
            case .point: return Self.cgPoint(c)
            case .size: return Self.cgSize(c)
            case .rect: return Self.cgRect(c)
            case .color: return Self.cgColor(c)
            }
        case let .transform(t): return t
        case let .affine(a): return a
        case let .path(data): return CGPath(data)
        case let .image(c): return c.to == nil ? c.from : c
        case let .opaque(v): return v
        case let .array(items):
            let templates = template as? [Any]
            let elements = items.enumerated().map { index, item in
                let elementTemplate = templates.flatMap { index < $0.count ? $0[index] : $0.first }
                return item.toAny(like: elementTemplate)
            }
            return Self.typedArray(elements, like: template)
        }
    }

    private static func number(_ v: Double, like template: Any?) -> Any {
        // Exact types: casts with `is` would bridge Double and NSNumber both ways.
        guard let template else { return CGFloat(v) }
        let type = type(of: template)
        if type == Double.self { return v }
        if type == Float.self { return Float(v) }
        if type is NSNumber.Type { return NSNumber(value: v) }
        return CGFloat(v)
    }

    /// `elements` as `[CGFloat]`, `[Double]`, ... when the template array has
    /// that type and every element does, so that a caller's `as? [CGFloat]` works.
    private static func typedArray(_ elements: [Any], like template: Any?) -> Any {
        func all<T>(_: T.Type) -> [T]? {
            let typed = elements.compactMap { $0 as? T }
            return typed.count == elements.count ? typed : nil
        }
        guard let template else { return elements }
        let type = type(of: template)
        if type == [CGFloat].self, let a = all(CGFloat.self) { return a }
        if type == [Double].self, let a = all(Double.self) { return a }
        if type == [Float].self, let a = all(Float.self) { return a }
        if type == [NSNumber].self, let a = all(NSNumber.self) { return a }
        if type == [CGColor].self, let a = all(CGColor.self) { return a }
        if type == [CGPoint].self, let a = all(CGPoint.self) { return a }
        return elements
    }
}

/// `contents` part way through a cross-dissolve from one picture to
/// another, as Core Animation animates `contents` between images: what a
/// presentation layer holds between two keyframes of a linear animation of
/// `contents` (a video layer's frames). The snapshot draws `from`, then `to`
/// over it with its alpha scaled by `fraction`; for opaque pictures that is
/// exactly `from · (1 - fraction) + to · fraction`.
package final class ContentsCrossfade: @unchecked Sendable {
    /// The picture dissolving away.
    package let from: CGImage
    /// The picture dissolving in; nil: `from` alone.
    package let to: CGImage?
    /// How far the dissolve has gone, 0...1.
    package let fraction: Double

    package init(from: CGImage, to: CGImage?, fraction: Double) {
        self.from = from; self.to = to; self.fraction = fraction
    }
}

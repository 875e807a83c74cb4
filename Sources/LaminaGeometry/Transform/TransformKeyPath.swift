import Foundation

/// The transform key paths of Core Animation: `transform.rotation.x`,
/// `transform.scale`, `transform.translation.y` and their kin.
///
/// Core Animation reads and writes these through a decomposition of the
/// transform into translation, scale, rotation and perspective; writing one
/// component keeps the others. Lamina uses this decomposition:
///
///     M = S * Rx * Ry * Rz, then translation in m41...m43,
///
/// with the perspective column (`m14, m24, m34, m44`) kept as it is. (Rows are
/// applied left first, so the scale acts first, then the rotation about x,
/// then y, then z, then the translation.) Shear cannot be expressed and is
/// dropped by a write; a read of a transform without shear is exact.
package enum TransformKeyPath: String, CaseIterable, Sendable {
    case rotationX = "rotation.x"
    case rotationY = "rotation.y"
    case rotationZ = "rotation.z"
    /// The same as `rotation.z`.
    case rotation = "rotation"
    case scaleX = "scale.x"
    case scaleY = "scale.y"
    case scaleZ = "scale.z"
    /// Reads the average of the three scale factors; writes all three.
    case scale = "scale"
    case translationX = "translation.x"
    case translationY = "translation.y"
    case translationZ = "translation.z"
    /// A `CGSize` of the x and y translations.
    case translation = "translation"

    /// Parses `transform.rotation.x` (the `transform.` prefix is optional).
    public init?(keyPath: String) {
        let trimmed = keyPath.hasPrefix("transform.") ? String(keyPath.dropFirst("transform.".count)) : keyPath
        self.init(rawValue: trimmed)
    }

    /// The full key path, with the `transform.` prefix.
    public var keyPath: String { "transform." + rawValue }

    /// Whether the value is a `CGSize` (`translation`) rather than a number.
    public var isSizeValued: Bool { self == .translation }
}

/// A transform split into the parts that the key paths name.
package struct TransformDecomposition: Hashable, Sendable {
    /// `transform.translation.x`, `.y`, `.z`.
    public var translation: (x: CGFloat, y: CGFloat, z: CGFloat)
    /// `transform.scale.x`, `.y`, `.z`.
    public var scale: (x: CGFloat, y: CGFloat, z: CGFloat)
    /// Rotations in radians about x, then y, then z.
    public var rotation: (x: CGFloat, y: CGFloat, z: CGFloat)
    /// The perspective column: `m14, m24, m34, m44`.
    public var perspective: (m14: CGFloat, m24: CGFloat, m34: CGFloat, m44: CGFloat)

    /// Part for part.
    public static func == (l: Self, r: Self) -> Bool {
        l.translation == r.translation && l.scale == r.scale && l.rotation == r.rotation
            && l.perspective == r.perspective
    }

    /// Hashes every part.
    public func hash(into h: inout Hasher) {
        for v in [translation.x, translation.y, translation.z, scale.x, scale.y, scale.z,
                  rotation.x, rotation.y, rotation.z,
                  perspective.m14, perspective.m24, perspective.m34, perspective.m44] {
            h.combine(v)
        }
    }

    /// Splits `t`. A zero scale on an axis leaves that axis' rotation at 0.
    public init(_ t: CATransform3D) {
        translation = (t.m41, t.m42, t.m43)
        perspective = (t.m14, t.m24, t.m34, t.m44)
        // The rows of the upper 3x3, as tuples: an animated layer's
        // transform is split for each component written, every frame.
        var r0 = (t.m11, t.m12, t.m13), r1 = (t.m21, t.m22, t.m23), r2 = (t.m31, t.m32, t.m33)
        func length(_ r: (CGFloat, CGFloat, CGFloat)) -> CGFloat { (r.0 * r.0 + r.1 * r.1 + r.2 * r.2).squareRoot() }
        var s = (length(r0), length(r1), length(r2))
        // A mirror shows as a negative determinant; give it to the x scale so
        // that a plain scale(-1, 1, 1) reads back as exactly that.
        let det = r0.0 * (r1.1 * r2.2 - r1.2 * r2.1)
            - r0.1 * (r1.0 * r2.2 - r1.2 * r2.0)
            + r0.2 * (r1.0 * r2.1 - r1.1 * r2.0)
        if det < 0 { s.0 = -s.0 }
        scale = (s.0, s.1, s.2)
        if s.0 != 0 { r0 = (r0.0 / s.0, r0.1 / s.0, r0.2 / s.0) }
        if s.1 != 0 { r1 = (r1.0 / s.1, r1.1 / s.1, r1.2 / s.1) }
        if s.2 != 0 { r2 = (r2.0 / s.2, r2.1 / s.2, r2.2 / s.2) }
        // R = Rx * Ry * Rz has R13 = -sin(y), R23 = sin(x)cos(y), R33 = cos(x)cos(y),
        // R12 = cos(y)sin(z), R11 = cos(y)cos(z).
        let sinY = max(-1, min(1, -r0.2))
        let y = asin(sinY)
        if abs(sinY) < 1 - 1e-12 {
            rotation = (atan2(r1.2, r2.2), y, atan2(r0.1, r0.0))
        } else {
            // Gimbal lock: only x + z (or x - z) is defined; put it all in x.
            rotation = (atan2(-r2.1, r1.1), y, 0)
        }
    }

    /// Builds the transform back.
    public var transform: CATransform3D {
        // A rotation of 0 is the identity, and a product with the identity
        // is exact: skipping it changes no bit (most layers turn about z alone).
        var r = CATransform3D.identity
        if rotation.x != 0 { r = CATransform3D(rotationAngle: rotation.x, x: 1, y: 0, z: 0) }
        if rotation.y != 0 { r = r.concatenating(CATransform3D(rotationAngle: rotation.y, x: 0, y: 1, z: 0)) }
        if rotation.z != 0 { r = r.concatenating(CATransform3D(rotationAngle: rotation.z, x: 0, y: 0, z: 1)) }
        var m = CATransform3D(scaleX: scale.x, y: scale.y, z: scale.z).concatenating(r)
        m.m41 = translation.x; m.m42 = translation.y; m.m43 = translation.z
        m.m14 = perspective.m14; m.m24 = perspective.m24; m.m34 = perspective.m34; m.m44 = perspective.m44
        return m
    }
}

extension CATransform3D {
    /// The value Core Animation reads for a numeric transform key path.
    /// For `.translation`, use `translationSize`.
    package func value(for key: TransformKeyPath) -> CGFloat {
        let d = TransformDecomposition(self)
        switch key {
        case .rotationX: return d.rotation.x
        case .rotationY: return d.rotation.y
        case .rotationZ, .rotation: return d.rotation.z
        case .scaleX: return d.scale.x
        case .scaleY: return d.scale.y
        case .scaleZ: return d.scale.z
        case .scale: return (d.scale.x + d.scale.y + d.scale.z) / 3
        case .translationX, .translation: return d.translation.x
        case .translationY: return d.translation.y
        case .translationZ: return d.translation.z
        }
    }

    /// The x and y translation as a size (`transform.translation`).
    public var translationSize: CGSize { CGSize(width: m41, height: m42) }

    /// This transform with one numeric component replaced, the others kept.
    /// `.translation` takes the value for both x and y; prefer
    /// `setting(translation:)` for a size.
    package func setting(_ key: TransformKeyPath, to value: CGFloat) -> CATransform3D {
        // Translations sit in their own fields: change them without a round
        // trip through the decomposition, which would drop any shear.
        switch key {
        case .translationX: var t = self; t.m41 = value; return t
        case .translationY: var t = self; t.m42 = value; return t
        case .translationZ: var t = self; t.m43 = value; return t
        case .translation: var t = self; t.m41 = value; t.m42 = value; return t
        default: break
        }
        // A component set on the identity (a presentation copy's first
        // `transform.*` write, most often) starts from its decomposition,
        // worked out once.
        var d = self == .identity ? Self.identityDecomposition : TransformDecomposition(self)
        switch key {
        case .rotationX: d.rotation.x = value
        case .rotationY: d.rotation.y = value
        case .rotationZ, .rotation: d.rotation.z = value
        case .scaleX: d.scale.x = value
        case .scaleY: d.scale.y = value
        case .scaleZ: d.scale.z = value
        case .scale: d.scale = (value, value, value)
        case .translationX, .translationY, .translationZ, .translation: break
        }
        return d.transform
    }

    private static let identityDecomposition = TransformDecomposition(CATransform3D.identity)

    /// This transform with its x and y translation replaced.
    public func setting(translation: CGSize) -> CATransform3D {
        var t = self
        t.m41 = translation.width; t.m42 = translation.height
        return t
    }
}

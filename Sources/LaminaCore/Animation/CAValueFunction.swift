import Foundation

/// Turns the numbers an animation interpolates into the transform it applies
/// (Core Animation's `CAValueFunction`).
///
/// With `valueFunction = CAValueFunction(name: .rotateZ)`, an animation of
/// `transform` from 0 to 2π interpolates the angle and applies
/// `CATransform3DMakeRotation(angle, 0, 0, 1)`, so it turns a whole turn,
/// which interpolating two matrices (both the identity) cannot do.
///
/// Inputs: one number for the single-axis functions (`rotateX`, `scaleY`,
/// `translateZ`, ...), an array of three for `scale` and `translate`; angles
/// in radians. Any other input has no transform (nil).
public final class CAValueFunction: Hashable, Sendable {
    /// Which transform the function makes from the animated numbers.
    public let name: CAValueFunctionName

    /// The function named `name`. An unknown name gives a function that
    /// produces no transform, so an animation using it has no effect.
    public init(name: CAValueFunctionName) {
        self.name = name
    }

    /// The transform for `input`, or nil when the input does not fit the
    /// function (a wrong type or count, or an unknown name).
    public func transform(for input: Any) -> CATransform3D? {
        transform(for: AnimatableValue(input))
    }

    func transform(for input: AnimatableValue) -> CATransform3D? {
        let numbers: [Double]
        switch input {
        case let .vector(.number, c): numbers = [c[0]]
        case let .array(items):
            var values: [Double] = []
            for item in items {
                guard case let .vector(.number, c) = item else { return nil }
                values.append(c[0])
            }
            numbers = values
        default: return nil
        }
        let v = numbers.map { CGFloat($0) }
        switch (name, v.count) {
        case (.rotateX, 1): return CATransform3D(rotationAngle: v[0], x: 1, y: 0, z: 0)
        case (.rotateY, 1): return CATransform3D(rotationAngle: v[0], x: 0, y: 1, z: 0)
        case (.rotateZ, 1): return CATransform3D(rotationAngle: v[0], x: 0, y: 0, z: 1)
        case (.scale, 3): return CATransform3D(scaleX: v[0], y: v[1], z: v[2])
        case (.scaleX, 1): return CATransform3D(scaleX: v[0], y: 1, z: 1)
        case (.scaleY, 1): return CATransform3D(scaleX: 1, y: v[0], z: 1)
        case (.scaleZ, 1): return CATransform3D(scaleX: 1, y: 1, z: v[0])
        case (.translate, 3): return CATransform3D(translationX: v[0], y: v[1], z: v[2])
        case (.translateX, 1): return CATransform3D(translationX: v[0], y: 0, z: 0)
        case (.translateY, 1): return CATransform3D(translationX: 0, y: v[0], z: 0)
        case (.translateZ, 1): return CATransform3D(translationX: 0, y: 0, z: v[0])
        default: return nil
        }
    }

    /// The input that gives the identity transform: what a relative
    /// animation (only `toValue` or `byValue`) starts from, since the model
    /// value of the layer is a transform, not this function's input.
    var identityInput: AnimatableValue? {
        switch name {
        case .rotateX, .rotateY, .rotateZ, .translateX, .translateY, .translateZ: return .number(0)
        case .scaleX, .scaleY, .scaleZ: return .number(1)
        case .scale: return .array([.number(1), .number(1), .number(1)])
        case .translate: return .array([.number(0), .number(0), .number(0)])
        default: return nil
        }
    }

    public static func == (l: CAValueFunction, r: CAValueFunction) -> Bool { l.name == r.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// The names of Core Animation's value functions (`CAValueFunctionName`).
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Core Animation's `rotateX` ("rotateX").
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    /// Core Animation's `rotateY` ("rotateY").
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    /// Core Animation's `rotateZ` ("rotateZ").
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    /// Core Animation's `scale` ("scale").
    public static let scale = CAValueFunctionName(rawValue: "scale")
    /// Core Animation's `scaleX` ("scaleX").
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    /// Core Animation's `scaleY` ("scaleY").
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    /// Core Animation's `scaleZ` ("scaleZ").
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    /// Core Animation's `translate` ("translate").
    public static let translate = CAValueFunctionName(rawValue: "translate")
    /// Core Animation's `translateX` ("translateX").
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    /// Core Animation's `translateY` ("translateY").
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    /// Core Animation's `translateZ` ("translateZ").
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")

    /// The eleven names Core Animation defines.
    public static let allCases: [CAValueFunctionName] = [
        .rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ,
        .translate, .translateX, .translateY, .translateZ,
    ]
}

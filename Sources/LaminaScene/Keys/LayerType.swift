import Foundation

/// The layer classes of the scene format, by their `type` names.
enum LayerType: String, CaseIterable, Sendable {
    case layer, shape, text, transform, gradient, replicator, emitter

    /// A new layer of the class, with Core Animation's defaults.
    func makeLayer() -> CALayer {
        switch self {
        case .layer: CALayer()
        case .shape: CAShapeLayer()
        case .text: CATextLayer()
        case .transform: CATransformLayer()
        case .gradient: CAGradientLayer()
        case .replicator: CAReplicatorLayer()
        case .emitter: CAEmitterLayer()
        }
    }

    /// The type of a layer: its own class or the nearest class of the format
    /// that it inherits from (a custom subclass of `CAShapeLayer` is written
    /// as a shape).
    init(of layer: CALayer) {
        switch layer {
        case is CAShapeLayer: self = .shape
        case is CATextLayer: self = .text
        case is CATransformLayer: self = .transform
        case is CAGradientLayer: self = .gradient
        case is CAReplicatorLayer: self = .replicator
        case is CAEmitterLayer: self = .emitter
        default: self = .layer
        }
    }

    /// The class name, for messages ("a CAShapeLayer").
    var className: String {
        switch self {
        case .layer: "CALayer"
        case .shape: "CAShapeLayer"
        case .text: "CATextLayer"
        case .transform: "CATransformLayer"
        case .gradient: "CAGradientLayer"
        case .replicator: "CAReplicatorLayer"
        case .emitter: "CAEmitterLayer"
        }
    }

    static var names: [String] { allCases.map(\.rawValue) }

    /// The type's bit in a set of types held as bits.
    var bit: UInt32 {
        switch self {
        case .layer: 1
        case .shape: 2
        case .text: 4
        case .transform: 8
        case .gradient: 16
        case .replicator: 32
        case .emitter: 64
        }
    }
}

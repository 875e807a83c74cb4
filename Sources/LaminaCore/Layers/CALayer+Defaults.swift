import Foundation

/// Overridden class defaults: a subclass whose `defaultValue(forKey:)`
/// returns something other than Core Animation's default for a built-in key
/// gets that value in every new instance, as on Apple platforms.
extension CALayer {

    /// The built-in keys whose default each class overrides, found once per
    /// class: most classes override none, so `init()` then costs one lookup.
    private static let overriddenDefaultKeysByClass = Locked<[ObjectIdentifier: [String]]>([:])

    /// Writes the overridden defaults of this layer's class into the layer.
    func applyClassDefaults() {
        let cls = type(of: self)
        // Lamina's own classes override no default (an app's subclass may):
        // a decoded scene's thousands of layers skip the lookup.
        if Self.isLaminaClass(cls) { return }
        for key in CALayer.overriddenDefaultKeys(of: cls) {
            _ = cls.keyTable[key]?.write(self, cls.defaultValue(forKey: key))
        }
    }

    /// Whether `cls` is one of the classes Lamina defines, none of which
    /// overrides `defaultValue(forKey:)` (`LayerDefaultsTests` holds each
    /// to overriding no key).
    static func isLaminaClass(_ cls: CALayer.Type) -> Bool {
        cls == CALayer.self || cls == CAShapeLayer.self || cls == CATextLayer.self || cls == CAGradientLayer.self
            || cls == CAReplicatorLayer.self || cls == CATransformLayer.self || cls == CAEmitterLayer.self
    }

    /// The built-in keys for which `cls.defaultValue(forKey:)` differs from
    /// Core Animation's default.
    static func overriddenDefaultKeys(of cls: CALayer.Type) -> [String] {
        let id = ObjectIdentifier(cls)
        if let cached = overriddenDefaultKeysByClass.withLock({ $0[id] }) { return cached }
        // Asked outside the lock: an override may run any code.
        let keys = cls.keyTable.keys
            .filter { !$0.isDefault(cls.defaultValue(forKey: $0.name)) }
            .map(\.name)
        overriddenDefaultKeysByClass.withLock { $0[id] = keys }
        return keys
    }
}

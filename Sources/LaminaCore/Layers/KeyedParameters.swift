import Foundation

/// Values set by key on an object whose keys Core Animation does not fix
/// (a `CAFilter`'s `inputRadius`, a `CAEmitterBehavior`'s `stiffness`),
/// read back as the types the renderer needs.
struct KeyedParameters {
    private var values: [String: Any] = [:]

    subscript(key: String) -> Any? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The keys set, sorted.
    var keys: [String] { values.keys.sorted() }

    /// Key-value coding of an object of a kind with parameters: `type`,
    /// `name` and `enabled` are the object's own, anything else a parameter.
    func value(forKey key: String, type: String, name: String?, isEnabled: Bool) -> Any? {
        switch key {
        case "type": type
        case "name": name
        case "enabled": isEnabled
        default: values[key]
        }
    }

    /// Sets `key` as `value(forKey:type:name:isEnabled:)` reads it (the
    /// type is fixed when the object is made).
    mutating func setValue(_ value: Any?, forKey key: String, name: inout String?, isEnabled: inout Bool) {
        switch key {
        case "name": name = value as? String
        case "enabled": isEnabled = (value as? Bool) ?? isEnabled
        case "type": break
        default: values[key] = value
        }
    }

    /// The number at `key` (any Swift number or `NSNumber`), or nil.
    func number(_ key: String) -> Double? { LayerValue.number(values[key]) }

    /// The numbers at `key` (an array of numbers, a point or a size), or nil.
    func numbers(_ key: String) -> [Double]? {
        switch values[key] {
        case let p as CGPoint: [Double(p.x), Double(p.y)]
        case let s as CGSize: [Double(s.width), Double(s.height)]
        case let a as [Any]: a.compactMap(LayerValue.number)
        default: nil
        }
    }

    /// The colour at `key` (a `CGColor` or `UIColor`), or nil.
    func color(_ key: String) -> CGColor? {
        switch values[key] {
        case let c as CGColor: c
        case let c as UIColor: c.cgColor
        default: nil
        }
    }
}

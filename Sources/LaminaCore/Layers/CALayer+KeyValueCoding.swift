import Foundation

/// A key-value write that cannot be done: the key path and why.
public struct LayerKeyValueError: Error, Equatable, CustomStringConvertible {
    /// The key path as given.
    public let keyPath: String
    /// What was wrong, e.g. "expects a CGPoint, got String".
    public let reason: String

    /// An error about `keyPath`: `reason`.
    public init(keyPath: String, reason: String) {
        self.keyPath = keyPath
        self.reason = reason
    }

    public var description: String { "\(keyPath): \(reason)" }
}

/// Key-value coding, as Core Animation layers answer it.
///
/// - Every property is reachable by its Core Animation key (the Objective-C
///   property name: `"hidden"`, `"doubleSided"`, `"geometryFlipped"`).
///   Reads return the property's Swift type (`Float` for `opacity`, `CGFloat`,
///   `Bool`, `CGPoint`, `CATransform3D`, `CGColor?`...), not `NSNumber` or
///   `NSValue` (see `LayerValueType`). Writes accept any numeric type for
///   numbers and a `UIColor` for colours.
/// - Any other key is stored on the layer as it is, as Core Animation does,
///   and read back; a custom key that was never set reads as
///   `defaultValue(forKey:)` of the layer's class.
/// - Key paths go into structs (`position.x`, `bounds.size.width`,
///   `bounds.origin`, `transform.rotation.z`, `transform.scale`,
///   `transform.translation`, `sublayerTransform.rotation.y`...) and through
///   layers (`mask.opacity`). Writing part of a struct writes the whole
///   property back, so property observers run.
/// - A write of the wrong type is ignored by the Apple-named setters (Core
///   Animation raises an exception there); `setCheckedValue` throws a
///   `LayerKeyValueError` instead.
/// - A write through key-value coding of a key for which the class's
///   `needsDisplay(forKey:)` is true calls `setNeedsDisplay()`.
extension CALayer {

    /// The keys of the built-in properties of this class, in declaration
    /// order, superclass first.
    public class var layerPropertyKeys: [String] { keyTable.keys.map(\.name) }

    /// Sets `value` for `key`, or throws why it cannot.
    public func setCheckedValue(_ value: Any?, forKey key: String) throws(LayerKeyValueError) {
        try writeValue(value, forKey: key)
    }

    /// Sets `value` at `keyPath`, or throws why it cannot.
    public func setCheckedValue(_ value: Any?, forKeyPath keyPath: String) throws(LayerKeyValueError) {
        try writeValue(value, forKeyPath: keyPath)
    }

    func readValue(forKey key: String) -> Any? {
        let cls = type(of: self)
        if let property = cls.keyTable[key] { return property.read(self) }
        if let custom = customValues[key] { return custom }
        return cls.defaultValue(forKey: key)
    }

    func writeValue(_ value: Any?, forKey key: String) throws(LayerKeyValueError) {
        let cls = type(of: self)
        if let property = cls.keyTable[key] {
            guard property.write(self, value) else {
                throw LayerKeyValueError(keyPath: key, reason: "expects \(property.expected), got \(describe(value))")
            }
        } else {
            customValues[key] = value
        }
        if cls.needsDisplay(forKey: key) { setNeedsDisplay() }
    }

    func readValue(forKeyPath keyPath: String) -> Any? {
        guard let dot = keyPath.firstIndex(of: ".") else { return value(forKey: keyPath) }
        let head = String(keyPath[..<dot])
        let rest = keyPath[keyPath.index(after: dot)...]
        let headValue = value(forKey: head)
        if let layer = headValue as? CALayer { return layer.value(forKeyPath: String(rest)) }
        if Self.filterListKeys.contains(head), let (filter, parameter) = Self.filter(at: rest, in: headValue) {
            return ((headValue as? [Any])?[filter] as? CAFilter)?.value(forKey: parameter)
        }
        return StructuredKeyPath.value(at: rest, in: headValue)
    }

    /// A number written, typed, to a component of `transform` or
    /// `sublayerTransform` (`transform.rotation.z`) or a coordinate of
    /// `position` or `anchorPoint` (`position.x`), as animations write
    /// them every frame: what the general write does with the value boxed,
    /// read back and its path parsed again. False, having written nothing,
    /// for any other key path.
    func writeNumber(_ number: Double, at split: SplitKeyPath) -> Bool {
        let v = CGFloat(number)
        let key: String
        if let component = split.transformComponent {
            key = split.head
            if key == "transform" {
                transform = transform.setting(component, to: v)
            } else {
                sublayerTransform = sublayerTransform.setting(component, to: v)
            }
        } else if let component = split.pointComponent {
            key = component.key
            switch component {
            case .positionX: position.x = v
            case .positionY: position.y = v
            case .anchorPointX: anchorPoint.x = v
            case .anchorPointY: anchorPoint.y = v
            }
        } else {
            return false
        }
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        return true
    }

    /// The properties whose filters key paths reach by name: `filters.NAME.KEY`.
    static let filterListKeys: Set<String> = ["filters", "backgroundFilters"]

    /// The filter `NAME.KEY` names in `list`: its index and the key; nil
    /// when no filter has that name.
    static func filter(at path: Substring, in list: Any?) -> (index: Int, parameter: String)? {
        guard let dot = path.firstIndex(of: "."), let filters = list as? [Any] else { return nil }
        let name = path[..<dot], parameter = String(path[path.index(after: dot)...])
        guard !parameter.isEmpty, !parameter.contains("."),
              let index = filters.firstIndex(where: { ($0 as? CAFilter)?.isNamed(name) ?? false })
        else { return nil }
        return (index, parameter)
    }

    func writeValue(_ value: Any?, forKeyPath keyPath: String) throws(LayerKeyValueError) {
        try writeValue(value, at: SplitKeyPath(keyPath), keyPath: keyPath)
    }

    /// `writeValue(_:forKeyPath:)` with the key path already split (an
    /// animation's, split once); `keyPath` names it in errors.
    func writeValue(_ value: Any?, at split: SplitKeyPath, keyPath: @autoclosure () -> String) throws(LayerKeyValueError) {
        let head = split.head
        guard let rest = split.rest else {
            try writeValue(value, forKey: head)
            return
        }
        if split.transformComponent != nil || split.pointComponent != nil,
           !(split.transformComponent?.isSizeValued == true && value is CGSize), let number = LayerValue.number(value),
           writeNumber(number, at: split) {
            return
        }
        let headValue = self.value(forKey: head)
        if let layer = headValue as? CALayer {
            do {
                try layer.writeValue(value, forKeyPath: String(rest))
            } catch {
                throw LayerKeyValueError(keyPath: keyPath(), reason: error.reason)
            }
            return
        }
        if Self.filterListKeys.contains(head) {
            // The named filter, copied with the new value: the array (and
            // the filter objects a model layer shares with its presentation
            // copies) is never changed in place.
            guard var filters = headValue as? [Any], let (index, parameter) = Self.filter(at: rest, in: headValue),
                  let filter = (filters[index] as? CAFilter)?.copy()
            else {
                throw LayerKeyValueError(keyPath: keyPath(), reason: "no filter of \(head) is named '\(rest.split(separator: ".").first ?? "")'")
            }
            filter.setValue(value, forKey: parameter)
            filters[index] = filter
            try writeValue(filters, forKey: head)
            return
        }
        switch StructuredKeyPath.setting(value, at: rest, in: headValue) {
        case let .success(newValue):
            do {
                try writeValue(newValue, forKey: head)
            } catch {
                throw LayerKeyValueError(keyPath: keyPath(), reason: error.reason)
            }
        case let .failure(failure):
            throw LayerKeyValueError(keyPath: keyPath(), reason: failure.reason)
        }
    }
}

import Foundation

/// One property of `CAEmitterCell`: its key, kind, default and accessors.
/// The table of these (`CAEmitterCell.propertyTable`) backs the cell's
/// key-value coding and is what the scene format and CAML read and write,
/// as a layer's `LayerKeyTable` is for layers.
package struct EmitterCellProperty: Sendable {
    /// The key, as Core Animation spells it (`"enabled"`, not `"isEnabled"`).
    public let name: String
    /// The kind of its values.
    public let kind: LayerValueKind
    /// Reads the value, boxed as the property's Swift type.
    public let read: @Sendable (CAEmitterCell) -> Any?
    /// Writes a boxed value; false when it has the wrong type.
    public let write: @Sendable (CAEmitterCell, Any?) -> Bool
    /// Core Animation's default, boxed.
    public let defaultValue: @Sendable () -> Any?
    private let isDefault: @Sendable (Any?) -> Bool

    /// Whether `cell` holds Core Animation's default (a writer leaves it out).
    public func holdsDefault(_ cell: CAEmitterCell) -> Bool { isDefault(read(cell)) }

    fileprivate static func row<Value>(
        _ name: String, _ type: LayerValueType<Value>, range: NumberRange? = nil, kind: LayerValueKind? = nil,
        _ defaultValue: @escaping @Sendable () -> Value, _ keyPath: ReferenceWritableKeyPath<CAEmitterCell, Value> & Sendable
    ) -> EmitterCellProperty {
        var resolved = kind ?? type.kind
        if let range, case .number = resolved { resolved = .number(range) }
        return EmitterCellProperty(
            name: name, kind: resolved,
            read: { type.box($0[keyPath: keyPath]) },
            write: { cell, value in
                guard let v = type.unbox(value) else { return false }
                cell[keyPath: keyPath] = v
                return true
            },
            defaultValue: { type.box(defaultValue()) },
            isDefault: { value in type.unbox(value).map { type.equal($0, defaultValue()) } ?? false })
    }
}

extension CAEmitterCell {
    /// Every property of a cell, in Core Animation's header order.
    package static let propertyTable: [EmitterCellProperty] = [
        .row("name", LayerValue.string, { nil }, \.name),
        .row("enabled", LayerValue.bool, { true }, \.isEnabled),
        .row("birthRate", LayerValue.float, range: .nonNegative, { 0 }, \.birthRate),
        .row("lifetime", LayerValue.float, range: .nonNegative, { 0 }, \.lifetime),
        .row("lifetimeRange", LayerValue.float, range: .nonNegative, { 0 }, \.lifetimeRange),
        .row("emissionLatitude", LayerValue.cgFloat, { 0 }, \.emissionLatitude),
        .row("emissionLongitude", LayerValue.cgFloat, { 0 }, \.emissionLongitude),
        .row("emissionRange", LayerValue.cgFloat, { 0 }, \.emissionRange),
        .row("velocity", LayerValue.cgFloat, { 0 }, \.velocity),
        .row("velocityRange", LayerValue.cgFloat, { 0 }, \.velocityRange),
        .row("xAcceleration", LayerValue.cgFloat, { 0 }, \.xAcceleration),
        .row("yAcceleration", LayerValue.cgFloat, { 0 }, \.yAcceleration),
        .row("zAcceleration", LayerValue.cgFloat, { 0 }, \.zAcceleration),
        .row("scale", LayerValue.cgFloat, { 1 }, \.scale),
        .row("scaleRange", LayerValue.cgFloat, { 0 }, \.scaleRange),
        .row("scaleSpeed", LayerValue.cgFloat, { 0 }, \.scaleSpeed),
        .row("spin", LayerValue.cgFloat, { 0 }, \.spin),
        .row("spinRange", LayerValue.cgFloat, { 0 }, \.spinRange),
        .row("color", LayerValue.color, { CGColor.white }, \.color),
        .row("redRange", LayerValue.float, { 0 }, \.redRange),
        .row("greenRange", LayerValue.float, { 0 }, \.greenRange),
        .row("blueRange", LayerValue.float, { 0 }, \.blueRange),
        .row("alphaRange", LayerValue.float, { 0 }, \.alphaRange),
        .row("redSpeed", LayerValue.float, { 0 }, \.redSpeed),
        .row("greenSpeed", LayerValue.float, { 0 }, \.greenSpeed),
        .row("blueSpeed", LayerValue.float, { 0 }, \.blueSpeed),
        .row("alphaSpeed", LayerValue.float, { 0 }, \.alphaSpeed),
        .row("contents", LayerValue.any, kind: .image, { nil }, \.contents),
        .row("contentsRect", LayerValue.rect, { CGRect(x: 0, y: 0, width: 1, height: 1) }, \.contentsRect),
        .row("contentsScale", LayerValue.cgFloat, range: .positive, { 1 }, \.contentsScale),
        .row("minificationFilter", LayerValue.constant(CALayerContentsFilter.self), { .linear }, \.minificationFilter),
        .row("magnificationFilter", LayerValue.constant(CALayerContentsFilter.self), { .linear }, \.magnificationFilter),
        .row("minificationFilterBias", LayerValue.float, { 0 }, \.minificationFilterBias),
        .row("contentsFrameCount", LayerValue.int, range: .positive, { 1 }, \.contentsFrameCount),
        .row("contentsFramesPerSecond", LayerValue.double, range: .nonNegative, { 0 }, \.contentsFramesPerSecond),
        .row("contentsFrameMode", LayerValue.frameMode, kind: .constant, { "single" }, \.contentsFrameMode),
        .row("particleType", LayerValue.frameMode, kind: .constant, { "sprite" }, \.particleType),
        .row("orientationLongitude", LayerValue.cgFloat, { 0 }, \.orientationLongitude),
        .row("orientationLatitude", LayerValue.cgFloat, { 0 }, \.orientationLatitude),
        .row("orientationRange", LayerValue.cgFloat, { 0 }, \.orientationRange),
        .row("rotation", LayerValue.cgFloat, { 0 }, \.rotation),
        .row("rotationRange", LayerValue.cgFloat, { 0 }, \.rotationRange),
        .row("emitterCells", LayerValue.emitterCells, { nil }, \.emitterCells),
        .row("beginTime", LayerValue.double, { 0 }, \.beginTime),
        .row("duration", LayerValue.double, range: .nonNegative, { 0 }, \.duration),
        .row("speed", LayerValue.float, { 1 }, \.speed),
        .row("timeOffset", LayerValue.double, { 0 }, \.timeOffset),
        .row("repeatCount", LayerValue.float, range: .nonNegative, { 0 }, \.repeatCount),
        .row("repeatDuration", LayerValue.double, range: .nonNegative, { 0 }, \.repeatDuration),
        .row("autoreverses", LayerValue.bool, { false }, \.autoreverses),
        .row("fillMode", LayerValue.constant(CAMediaTimingFillMode.self), { .removed }, \.fillMode),
    ]

    /// `propertyTable` by key.
    package static let properties: [String: EmitterCellProperty] =
        Dictionary(uniqueKeysWithValues: propertyTable.map { ($0.name, $0) })
}

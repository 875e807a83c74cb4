import Foundation

/// How a text layer shortens a line that does not fit
/// (`CATextLayerTruncationMode`).
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// No truncation (the default): the text is clipped.
    public static let none = CATextLayerTruncationMode("none")
    /// An ellipsis at the start.
    public static let start = CATextLayerTruncationMode("start")
    /// An ellipsis at the end.
    public static let end = CATextLayerTruncationMode("end")
    /// An ellipsis in the middle.
    public static let middle = CATextLayerTruncationMode("middle")
}

/// How a text layer aligns its lines (`CATextLayerAlignmentMode`).
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    /// The constant whose string is `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The script's natural alignment (the default): left for left-to-right text.
    public static let natural = CATextLayerAlignmentMode("natural")
    /// Core Animation's `left` ("left").
    public static let left = CATextLayerAlignmentMode("left")
    /// Core Animation's `right` ("right").
    public static let right = CATextLayerAlignmentMode("right")
    /// Core Animation's `center` ("center").
    public static let center = CATextLayerAlignmentMode("center")
    /// Lines stretched to both edges, except the last.
    public static let justified = CATextLayerAlignmentMode("justified")
}

/// A layer that draws text (`CATextLayer`), laid out in its bounds from the
/// top-left corner on iOS.
open class CATextLayer: CALayer {
    /// The text: a `String`, an `NSAttributedString` or an `AttributedText`
    /// (whose attributes override `font`, `fontSize` and `foregroundColor`
    /// where they are given). Default nil.
    @exclusivity(unchecked) open var string: Any?

    /// The font: a family name, PostScript name or fontconfig pattern as a
    /// `String`, or LaminaText's `CGFont`/`UIFont` (`CTFont`). Default nil,
    /// which means Core Animation's default, Helvetica (drawn with a
    /// metric-compatible sans). The size comes from `fontSize`.
    @exclusivity(unchecked) open var font: Any?

    /// The font size in points. Default 36.
    @exclusivity(unchecked) open var fontSize: CGFloat = 36

    /// The text colour. Default opaque white.
    @exclusivity(unchecked) open var foregroundColor: CGColor? = CGColor.white

    /// Whether lines wrap at the bounds' width. Default false.
    @exclusivity(unchecked) open var isWrapped = false

    /// How a line that does not fit is shortened. Default `.none`.
    @exclusivity(unchecked) open var truncationMode: CATextLayerTruncationMode = .none

    /// How lines are aligned. Default `.natural`.
    @exclusivity(unchecked) open var alignmentMode: CATextLayerAlignmentMode = .natural

    /// A layer with Core Animation's defaults for this class.
    public required init() {
        super.init()
    }

    /// A copy of `layer`'s properties (see `CALayer.init(layer:)`): this
    /// class's rows of the property table included.
    public required init(layer: Any) {
        super.init(layer: layer)
    }

    override class var keyTable: LayerKeyTable { CATextLayer.textKeyTable }

    private static let textKeyTable = LayerKeyTable(inheriting: CALayer.baseKeyTable, adding: [
        .property("string", LayerValue.any, default: { nil },
                  get: { (l: CATextLayer) in l.string }, set: { $0.string = $1 }),
        .property("font", LayerValue.any, default: { nil },
                  get: { (l: CATextLayer) in l.font }, set: { $0.font = $1 }),
        .property("fontSize", LayerValue.cgFloat, range: .positive, animatable: true, default: { 36 },
                  get: { (l: CATextLayer) in l.fontSize }, set: { $0.fontSize = $1 }),
        .property("foregroundColor", LayerValue.color, animatable: true, default: { CGColor.white },
                  get: { (l: CATextLayer) in l.foregroundColor }, set: { $0.foregroundColor = $1 }),
        .property("wrapped", LayerValue.bool, default: { false },
                  get: { (l: CATextLayer) in l.isWrapped }, set: { $0.isWrapped = $1 }),
        .property("truncationMode", LayerValue.constant(CATextLayerTruncationMode.self), default: { .none },
                  get: { (l: CATextLayer) in l.truncationMode }, set: { $0.truncationMode = $1 }),
        .property("alignmentMode", LayerValue.constant(CATextLayerAlignmentMode.self), default: { .natural },
                  get: { (l: CATextLayer) in l.alignmentMode }, set: { $0.alignmentMode = $1 }),
    ])
}

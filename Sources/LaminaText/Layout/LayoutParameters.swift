import Foundation
import LaminaCore

/// What a text layer asks of layout, read from it once.
struct LayoutParameters: Hashable, Sendable {
    /// The bounds' size in points.
    var width: Double
    var height: Double
    var isWrapped: Bool
    var truncation: CATextLayerTruncationMode
    var alignment: CATextLayerAlignmentMode

    init(width: Double, height: Double, isWrapped: Bool = false, truncation: CATextLayerTruncationMode = .none,
         alignment: CATextLayerAlignmentMode = .natural) {
        self.width = width; self.height = height; self.isWrapped = isWrapped
        self.truncation = truncation; self.alignment = alignment
    }

    init(_ layer: CATextLayer) {
        self.init(
            width: Double(max(0, layer.bounds.width)), height: Double(max(0, layer.bounds.height)),
            isWrapped: layer.isWrapped, truncation: layer.truncationMode, alignment: layer.alignmentMode)
    }
}

extension TextStyle {
    /// The layer's own font, size and colour: Core Animation's defaults are
    /// Helvetica, 36 points, opaque white. A font object's size is ignored
    /// here, as `fontSize` gives the layer's; a nil colour draws black, as
    /// Core Text does without one.
    init(_ layer: CATextLayer) {
        let size = Double(layer.fontSize)
        self.init(
            fontName: layer.font.flatMap(FontValue.init)?.name ?? FontRequest.defaultName,
            fontSize: size > 0 && size.isFinite ? size : 36,
            color: layer.foregroundColor ?? .black)
    }
}

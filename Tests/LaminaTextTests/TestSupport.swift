// Helpers shared by the LaminaText tests.
import Foundation
import LaminaCore
@testable import LaminaText

/// The font the tests lay out in: DejaVu Sans, which `scripts/setup.sh`
/// installs (fonts-dejavu-core) and which has Latin, Hebrew and Arabic.
let testFont = "DejaVu Sans"

/// One renderer for the whole suite, as `LayerRenderer` shares one.
func renderer() throws -> TextRenderer { try TextRenderer.shared }

/// A text layer of `width` x `height` points with its top-left at the
/// origin.
func textLayer(
    _ string: Any?, width: CGFloat = 300, height: CGFloat = 200, font: Any? = testFont, size: CGFloat = 20,
    color: CGColor = .black, wrapped: Bool = false, alignment: CATextLayerAlignmentMode = .natural,
    truncation: CATextLayerTruncationMode = .none, scale: CGFloat = 1
) -> CATextLayer {
    let layer = CATextLayer()
    layer.frame = CGRect(x: 0, y: 0, width: width, height: height)
    layer.string = string
    layer.font = font
    layer.fontSize = size
    layer.foregroundColor = color
    layer.isWrapped = wrapped
    layer.alignmentMode = alignment
    layer.truncationMode = truncation
    layer.contentsScale = scale
    return layer
}

/// The layout of `layer`, which must have text.
func layout(_ layer: CATextLayer) throws -> TextLayout {
    guard let layout = try renderer().layout(of: layer) else {
        throw TextRenderingError("the test layer has no text")
    }
    return layout
}

/// The backing image of `layer`, which must draw something.
func image(_ layer: CATextLayer) throws -> CGImage {
    guard let image = try renderer().makeImage(of: layer) else {
        throw TextRenderingError("the test layer drew nothing")
    }
    return image
}

/// Scalars of `text` from `range` (in scalars), as a string.
func scalars(_ text: String, _ range: Range<Int>) -> String {
    String(String.UnicodeScalarView(Array(text.unicodeScalars)[range]))
}

extension CGImage {
    /// Pixels (x, y) inside `rect` (pixels) for which `test` holds.
    func pixels(in rect: CGRect? = nil, where test: (Pixel) -> Bool) -> [(x: Int, y: Int)] {
        let r = rect ?? CGRect(x: 0, y: 0, width: width, height: height)
        var found: [(x: Int, y: Int)] = []
        for y in max(0, Int(r.minY))..<min(height, Int(r.maxY.rounded(.up))) {
            for x in max(0, Int(r.minX))..<min(width, Int(r.maxX.rounded(.up))) {
                if let p = pixel(x: x, y: y), test(p) { found.append((x, y)) }
            }
        }
        return found
    }

    /// The columns and rows that hold any ink (alpha > 0), or nil.
    var inkBounds: (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        let ink = pixels { $0.alpha > 0 }
        guard let first = ink.first else { return nil }
        return ink.reduce((first.x, first.x, first.y, first.y)) {
            (min($0.0, $1.x), max($0.1, $1.x), min($0.2, $1.y), max($0.3, $1.y))
        }
    }
}

extension CGImage.Pixel {
    /// Mostly red: red well above green and blue.
    var isReddish: Bool { alpha > 100 && Int(red) > Int(green) + 80 && Int(red) > Int(blue) + 80 }
    /// Dark ink on a transparent or white image: opaque-ish and grey.
    var isDarkInk: Bool { alpha > 100 && red < 90 && green < 90 && blue < 90 }
}

/// A tolerance for comparing positions in points.
let epsilon = 1e-6

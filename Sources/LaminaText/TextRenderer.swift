import Foundation
import LaminaCore

/// Lays out and draws the text of `CATextLayer`s: fonts through fontconfig
/// (with per-character fallback), shaping through HarfBuzz, glyphs through
/// FreeType, into the backing image Core Animation would make:
/// `ceil(bounds.size * contentsScale)` pixels, so text at `contentsScale` 1
/// on a 2x canvas looks soft, as on a Retina screen.
///
/// Faces and glyph bitmaps are cached for the renderer's life (the glyph
/// cache within a byte budget), so repeated frames cost layout and
/// compositing only. One renderer serves any number of threads; each call
/// runs alone. `shared` is the one `LayerRenderer` uses.
///
/// What layout does (see `TextLayoutEngine`): paragraphs at line breaks;
/// with `isWrapped`, words wrap at the bounds' width (a word wider than it
/// is broken between characters), otherwise one line per paragraph; lines
/// stack from the top of the bounds, `ascent + descent + leading` of their
/// fonts apart; `alignmentMode` places each line (natural is left for
/// left-to-right paragraphs, right for right-to-left ones; justified
/// stretches the spaces of every line but a paragraph's last);
/// `truncationMode` shortens the last line that fits the height with "…"
/// when the text from it to the end of its paragraph is wider than the
/// bounds, and drops the lines below. Text outside the bounds is clipped.
package final class TextRenderer: CATextLayerRasterizing, @unchecked Sendable {
    // Everything below is touched only with `lock` held.
    private let lock = NSLock()
    private let fonts: FontSystem
    private let glyphs = GlyphCache()
    private var images = TextImageCache()

    /// Loads fontconfig's configuration and starts FreeType.
    /// - Throws: `TextRenderingError` when either cannot start.
    public init() throws(TextRenderingError) {
        fonts = try FontSystem()
    }

    /// The family and file that draw Latin text in the font named `name`
    /// (after `FontTable`, registered fonts and fallbacks); nil when no font
    /// is installed. `lamina info --fonts` lists these.
    public func resolvedFont(named name: String) -> (family: String, file: String)? {
        locked { fonts.resolvedFile(fontName: name) }
    }

    /// Whether the font named `name` is drawn by the family it names (or,
    /// for a name of Lamina's table, such as Helvetica, by the family the
    /// table prefers), rather than a substitute. A reader that follows
    /// Core Text, which draws a name it cannot find in Helvetica, asks this.
    public func hasFont(named name: String) -> Bool {
        locked { fonts.chain(named: name).substitution == nil }
    }

    /// The vertical metrics of the font named `name` at `size` points, as
    /// a line of Latin text in it has them: how far its baseline lies below
    /// the line's top (`ascent`), how far the line reaches below the
    /// baseline (`descent`), and the gap before the next line (`leading`).
    /// What a reader needs to place a text layer by its baseline.
    /// - Throws: `TextRenderingError` when no font can be found.
    public func lineMetrics(fontName name: String, size: Double) throws(TextRenderingError)
        -> (ascent: Double, descent: Double, leading: Double) {
        try locked { () throws(TextRenderingError) in
            var metrics = LineMetrics()
            metrics.include(try fonts.face(for: "H".unicodeScalars, fontName: name), size: size)
            return (metrics.ascent, metrics.descent, metrics.leading)
        }
    }

    private static let sharedResult = Result { () throws(TextRenderingError) in try TextRenderer() }

    /// The process's renderer, made on first use, whose caches every
    /// `LayerRenderer` shares.
    /// - Throws: `TextRenderingError` when fontconfig or FreeType cannot start.
    public static var shared: TextRenderer {
        get throws(TextRenderingError) { try sharedResult.get() }
    }

    /// The layout of `layer`'s text in its bounds; nil when `string` is not
    /// a `String`, `NSAttributedString` or `AttributedText`.
    /// - Throws: `TextRenderingError` when no font can be found.
    public func layout(of layer: CATextLayer) throws(TextRenderingError) -> TextLayout? {
        let style = TextStyle(layer)
        guard let text = StyledText(layer.string, defaultStyle: style) else { return nil }
        return try layout(text, style: style, parameters: LayoutParameters(layer))
    }

    private func layout(
        _ text: StyledText, style: TextStyle, parameters: LayoutParameters
    ) throws(TextRenderingError) -> TextLayout {
        try locked { () throws(TextRenderingError) in
            try TextLayoutEngine(fonts: fonts).layout(text, defaultStyle: style, parameters)
        }
    }

    /// `layer`'s backing image: its text laid out in its bounds and drawn at
    /// its `contentsScale`. Nil when there is no text, the bounds are empty
    /// or nothing is drawn.
    /// - Throws: `TextRenderingError` when no font can be found or the image
    ///   would be too large (over 16384 pixels a side or 2^26 in all).
    public func makeImage(of layer: CATextLayer) throws(TextRenderingError) -> CGImage? {
        guard let layout = try layout(of: layer) else { return nil }
        let scale = layer.contentsScale > 0 && layer.contentsScale.isFinite ? Double(layer.contentsScale) : 1
        return try makeImage(of: layout, scale: scale)
    }

    /// Draws a layout made by this renderer at `scale` pixels per point.
    /// - Throws: `TextRenderingError` when the image would be too large.
    public func makeImage(of layout: TextLayout, scale: Double) throws(TextRenderingError) -> CGImage? {
        try locked { () throws(TextRenderingError) in
            try LayoutRasterizer(glyphs: glyphs, faces: fonts.facesByID).image(of: layout, scale: scale)
        }
    }

    /// `CATextLayerRasterizing`: the layer's text drawn at `scale` pixels
    /// per point, with nil for failures (a snapshot draws no text rather
    /// than no picture; call `makeImage(of:)` to learn why).
    /// An unchanged text gets the same image object as before
    /// (`TextImageCache`), which the GL backend finds its texture by.
    public func image(for layer: CATextLayer, scale: Double) -> CGImage? {
        let style = TextStyle(layer)
        guard let text = StyledText(layer.string, defaultStyle: style) else { return nil }
        let parameters = LayoutParameters(layer)
        let key = TextImageCache.Key(text: text, style: style, parameters: parameters, scale: scale,
                                     registeredFonts: FontRegistry.files.count)
        if let known = locked({ images.image(for: key) }) { return known }
        guard let layout = try? layout(text, style: style, parameters: parameters) else { return nil }
        guard let image = try? makeImage(of: layout, scale: scale) else { return nil }
        locked { images.insert(image, for: key) }
        return image
    }

    /// How the caches are doing.
    public struct Statistics: Sendable, Equatable {
        /// Glyph bitmaps found in the cache, and made by FreeType.
        public var glyphHits: Int
        /// Glyph bitmaps FreeType had to make.
        public var glyphMisses: Int
        /// Glyph bitmaps held.
        public var cachedGlyphs: Int
        /// Font faces opened.
        public var openFaces: Int
        /// Text layers whose backing image was found unchanged, and made.
        public var imageHits = 0, imageMisses = 0
    }

    /// The caches' counts now.
    public var statistics: Statistics {
        locked {
            Statistics(glyphHits: glyphs.hits, glyphMisses: glyphs.misses, cachedGlyphs: glyphs.count,
                       openFaces: fonts.openFaceCount, imageHits: images.hits, imageMisses: images.misses)
        }
    }

    /// Empties the glyph and image caches (faces stay open).
    public func removeCachedGlyphs() {
        locked {
            glyphs.removeAll()
            images.removeAll()
        }
    }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

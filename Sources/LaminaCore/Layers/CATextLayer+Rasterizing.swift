import Foundation

/// Draws a text layer's text: the picture Core Animation's `CATextLayer`
/// keeps as its backing store.
///
/// LaminaCore describes text layers but cannot shape or rasterize text, and
/// the snapshot (LaminaRender) must not depend on a font stack. The text
/// module (LaminaText's `TextRenderer`) conforms to this protocol, and
/// whoever takes snapshots hands it over in the snapshot's options.
public protocol CATextLayerRasterizing: Sendable {
    /// The text of `layer` drawn into an image of
    /// `ceil(bounds.size * scale)` pixels, upright as `contents` is shown,
    /// laid out from the top-left of the bounds; nil when the layer has no
    /// text or empty bounds, or the image cannot be made.
    ///
    /// `scale` is the layer's `contentsScale`, or less when a backing store
    /// that dense would be larger than a picture may be (the snapshot
    /// decides, as it does for every backing image).
    /// Called on the task that owns the layer tree, while it is frozen.
    func image(for layer: CATextLayer, scale: Double) -> CGImage?
}

/// The attributes that a text layer reads from the runs of an
/// `NSAttributedString` in `string`, and that the scene format's runs set.
/// The raw names are Apple's where Apple has one (`NSFont`, `NSColor`,
/// `NSUnderline`), so attributed strings made in code find the same keys.
public enum TextRunAttribute {
    /// The font of the run: a family name or fontconfig pattern as a
    /// `String`, or a `UIFont`/`CTFont`/`CGFont` of the text module.
    public static let font = NSAttributedString.Key("NSFont")
    /// The font size of the run in points, a `CGFloat` (Apple folds the size
    /// into the font object; Lamina's fonts may be names, so it has its own
    /// key, which wins over a font object's size).
    public static let fontSize = NSAttributedString.Key("LaminaFontSize")
    /// The colour of the run, a `CGColor` (`NSForegroundColorAttributeName`).
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// The colour of the run as Core Text names it
    /// (`kCTForegroundColorAttributeName`), a `CGColor`.
    public static let coreTextForegroundColor = NSAttributedString.Key("CTForegroundColor")
    /// 1 (`NSUnderlineStyle.single`) for an underlined run, an `Int`; 0 for
    /// none.
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// Points added after each character of the run (`NSKernAttributeName`),
    /// a number; negative draws them closer. As in Core Text, a run with
    /// this attribute, 0 included, is drawn without the font's own kerning
    /// of pairs; without it, with.
    public static let kern = NSAttributedString.Key("NSKern")
    /// The same as Core Text names it (`kCTKernAttributeName`).
    public static let coreTextKern = NSAttributedString.Key("CTKern")
    /// 0 to draw the run without the font's optional ligatures (`fi`, `fl`:
    /// its `liga` and `clig` features), 1 (the default) with them
    /// (`NSLigatureAttributeName`), an `Int`.
    public static let ligature = NSAttributedString.Key("NSLigature")
    /// The same as Core Text names it (`kCTLigatureAttributeName`).
    public static let coreTextLigature = NSAttributedString.Key("CTLigature")
    /// The width of the glyphs' outline, in percent of the font size
    /// (`NSStrokeWidthAttributeName`), a number: positive strokes the
    /// glyphs without filling them (outlined text), negative fills them
    /// and strokes them on top, 0 (the default) only fills them.
    ///
    /// ```swift
    /// let outlined = NSAttributedString(string: "Sale", attributes: [
    ///     TextRunAttribute.strokeWidth: 3.0,              // 3% of the size, glyphs hollow
    ///     TextRunAttribute.strokeColor: CGColor.black,
    /// ])
    /// ```
    public static let strokeWidth = NSAttributedString.Key("NSStrokeWidth")
    /// The same as Core Text names it (`kCTStrokeWidthAttributeName`).
    public static let coreTextStrokeWidth = NSAttributedString.Key("CTStrokeWidth")
    /// The colour of the glyphs' outline, a `CGColor`
    /// (`NSStrokeColorAttributeName`); the run's colour when absent.
    public static let strokeColor = NSAttributedString.Key("NSStrokeColor")
    /// The same as Core Text names it (`kCTStrokeColorAttributeName`).
    public static let coreTextStrokeColor = NSAttributedString.Key("CTStrokeColor")
}

/// A font object that a text layer's `font` or a run's font attribute may
/// hold besides a name: LaminaText's `UIFont` (`CTFont`) and `CGFont`. The
/// modules below the text module see fonts through it; the scene encoder
/// writes such a font as the format's font name (and a run's size).
public protocol TextLayerFont {
    /// The name the font was made with: a family, a PostScript name or a
    /// fontconfig pattern.
    var textLayerFontName: String { get }
    /// The size in points that the font carries, or nil for a face without
    /// one (`CGFont`). A text layer takes its size from `fontSize` whatever
    /// its font says, as Core Animation does; a run takes it from its font.
    var textLayerFontSize: CGFloat? { get }
}

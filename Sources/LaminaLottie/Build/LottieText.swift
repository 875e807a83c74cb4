import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON
import LaminaText

/// A text layer (`ty` 5) as lottie-ios's Core Animation engine draws it:
/// the first keyframe of its text document (`t.d.k[0].s`): the text `t`,
/// in font `f` at size `s`, filled with `fc`, each line (lines end at a
/// carriage return, a line feed or ETX) on a baseline `lh` below the one
/// before, the first on the layer's origin, placed by the justification `j`
/// (left from the origin, right to it, or centred on it). Text in a box
/// (`sz`, `ps`) starts its first baseline a cap height below the box's top
/// and wraps at its width.
///
/// Each line is a `CATextLayer`, placed by its baseline with the font's
/// metrics from LaminaText's font table (the font the name resolves to
/// here: Liberation Sans for Helvetica, as docs/fonts.md says). A font that
/// is not installed is drawn in Helvetica, as Core Text draws a name it
/// cannot find.
/// Tracking (`tr`, thousandths of the size) is the kern Core Text adds after
/// each character (`TextRunAttribute.kern`), as lottie-ios sets it: 0 too,
/// which leaves the font's own kerning of pairs off, as on the device; so are
/// optional ligatures.
/// A stroke (`sc`, `sw`) is a second line of the same text outlined in `sc`,
/// below the fill unless `of` puts it over, as lottie-ios draws it: its
/// width goes to Core Text's stroke width attribute, which counts in
/// percent of the size, so the outline is `sw * s / 100` points wide.
/// What Core Animation's engine does not draw (text animators, later text
/// keyframes, baseline shift) is skipped with a warning.
struct LottieText {
    let reader: LottiePropertyReader
    /// The glyph outlines the file carries: text they cover is drawn from them.
    var glyphs: LottieGlyphs = .empty

    /// How sharp the lines' pictures are: pixels per point.
    static let contentsScale: CGFloat = 2

    func build(_ object: JSONObject, path: String, position: SourcePosition, into layer: CALayer) throws(SceneError) {
        guard let text = object["t"]?.object, let keys = text["d"]?.object?["k"]?.array, let first = keys.first?.object,
              let document = first["s"]?.object
        else {
            try reader.diagnostics.skipped("\(path) (text layer)", "a text layer needs a text document t.d.k[0].s",
                                           file: reader.file, at: position)
            return
        }
        if keys.count > 1 {
            try reader.diagnostics.skipped("\(path).t.d.k[1]", "text that changes over time shows its first keyframe, as lottie-ios's Core Animation engine shows it",
                                           file: reader.file, at: keys[1].position)
        }
        if let animators = text["a"]?.array, !animators.isEmpty {
            try reader.diagnostics.skipped("\(path).t.a", "text animators are not run (nor by lottie-ios's Core Animation engine)",
                                           file: reader.file, at: animators[0].position)
        }
        let string = document["t"]?.string ?? ""
        let size = document["s"]?.number ?? 0
        guard !string.isEmpty, size.isFinite, size > 0, size <= 10_000 else { return }
        var font = document["f"]?.string ?? "Helvetica"
        if glyphs.covers(string, fontName: font) {
            try buildFromGlyphs(document, string: string, size: size, fontName: font, path: path, into: layer)
            return
        }
        // lottie-ios asks Core Text for the font by its name; a name it
        // cannot find is drawn in Helvetica (regular, whatever the name's style).
        if (try? TextRenderer.shared.hasFont(named: font)) != true {
            reader.diagnostics.tolerated("\(path).t.d.k[0].s.f", "the font '\(Quoted.prefix(font, limit: 60))' is not installed: drawn in Helvetica, as Core Text draws a font it cannot find",
                                         file: reader.file, at: document["f"]?.position ?? position)
            font = "Helvetica"
        }
        var fill: [Double]?
        if let fc = document["fc"] { fill = try reader.color(fc, "\(path).t.d.k[0].s.fc") }
        var stroke: (color: [Double], width: Double)?
        if let sc = document["sc"], let width = document["sw"]?.number, width.isFinite, width > 0 {
            stroke = (try reader.color(sc, "\(path).t.d.k[0].s.sc"), width)
        }
        let strokeOnTop = document["of"]?.bool ?? false
        let justification = document["j"]?.smallInteger ?? 0
        let lineHeight = (document["lh"]?.number).flatMap { $0.isFinite ? $0 : nil } ?? size * 1.2
        // Tracking, in thousandths of the size, is the kern Core Text adds
        // after each character (lottie-ios's text layer sets it so).
        let tracking = (document["tr"]?.number).flatMap { $0.isFinite ? $0 * size / 1000 : nil } ?? 0
        if let shift = document["ls"], shift.number.map({ $0 != 0 }) ?? true {
            try reader.diagnostics.skipped("\(path).t.d.k[0].s.ls", "baseline shift is not drawn (nor by lottie-ios)",
                                           file: reader.file, at: shift.position)
        }
        // lottie-ios draws no fill without a fill colour, and no outline without a stroke.
        guard fill != nil || stroke != nil else { return }

        let metrics: (ascent: Double, descent: Double, leading: Double)
        do {
            metrics = try TextRenderer.shared.lineMetrics(fontName: font, size: size)
        } catch {
            try reader.diagnostics.skipped("\(path) (text layer)", "no font can draw it: \(error)", file: reader.file, at: position)
            return
        }
        let lines = string.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" }
        // A line's box: as wide as its glyphs can be (a glyph's advance is
        // at most about its size; twice that leaves room), as tall as a line.
        let box = document["sz"].flatMap { try? reader.vector($0, "\(path).t.d.k[0].s.sz") }
        let origin = document["ps"].flatMap { try? reader.vector($0, "\(path).t.d.k[0].s.ps") } ?? [0, 0]
        var baseline = 0.0
        if let box, box.count >= 2, box[0] > 0 {
            // Box text: the first baseline a cap height (about 0.7 of the
            // size) below the box's top, lines wrapped at its width.
            baseline = origin[1] + 0.7 * size
        }
        let height = metrics.ascent + metrics.descent + metrics.leading
        for line in lines {
            defer { baseline += lineHeight }
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            // The fill and the outline, each a layer of its own, bottom first.
            var passes: [(color: [Double], strokeWidth: Double)] = fill.map { [($0, 0)] } ?? []
            if let stroke { passes.insert((stroke.color, stroke.width), at: strokeOnTop ? passes.count : 0) }
            for pass in passes {
                let textLayer = CATextLayer()
                // As lottie-ios sets them: the tracking as the kern, 0 too
                // (so the font's own kerning of pairs is off, as Core Text
                // turns it off for any kern), and no optional ligatures.
                var attributes: [NSAttributedString.Key: Any] = [TextRunAttribute.kern: CGFloat(tracking),
                                                                 TextRunAttribute.ligature: 0]
                if pass.strokeWidth > 0 { attributes[TextRunAttribute.strokeWidth] = CGFloat(pass.strokeWidth) }
                textLayer.string = AttributedText([.init(String(line), attributes: attributes)])
                textLayer.foregroundColor = CGColor(red: pass.color[0], green: pass.color[1], blue: pass.color[2], alpha: 1)
                place(textLayer, line: line, baseline: baseline)
            }
        }

        /// Sets up a line's layer: font, size, sharpness, and its box on the baseline.
        func place(_ textLayer: CATextLayer, line: Substring, baseline: Double) {
            textLayer.font = font
            textLayer.fontSize = CGFloat(size)
            textLayer.contentsScale = Self.contentsScale
            // Lottie text is often set large and shrunk many times by its
            // composition's transforms: averaged over what each pixel covers,
            // as Apple's pictures draw it, not sampled at a point (jagged).
            textLayer.minificationFilter = .trilinear
            let width: Double
            let left: Double
            if let box, box.count >= 2, box[0] > 0 {
                width = box[0]
                left = origin[0]
                textLayer.isWrapped = true
            } else {
                width = 2 * size * Double(line.count + 1)
                left = [0: 0, 1: -width, 2: -width / 2][justification] ?? 0
            }
            textLayer.alignmentMode = [1: .right, 2: .center][justification] ?? .left
            textLayer.anchorPoint = .zero
            textLayer.frame = CGRect(x: left, y: baseline - metrics.ascent, width: width, height: height.rounded(.up) + 1)
            layer.addSublayer(textLayer)
        }
    }

    // MARK: Glyphs

    /// Text drawn from the file's glyph outlines (`chars`), as lottie-web
    /// draws it: each character's outline at `size / 100` on its line's
    /// baseline, the pen moved by its width and the tracking (`tr`,
    /// thousandths of the size); lines placed by the justification, or
    /// wrapped at a box's width; filled with `fc` and stroked with `sc` at
    /// `sw` (over the fill unless `of` is false). One path for the whole
    /// text, so it costs one layer or two.
    private func buildFromGlyphs(_ document: JSONObject, string: String, size: Double, fontName: String, path: String,
                                 into layer: CALayer) throws(SceneError) {
        let here = "\(path).t.d.k[0].s"
        let scale = size / 100
        let tracking = (document["tr"]?.number).flatMap { $0.isFinite ? $0 / 1000 * size : nil } ?? 0
        let justification = document["j"]?.smallInteger ?? 0
        let lineHeight = (document["lh"]?.number).flatMap { $0.isFinite ? $0 : nil } ?? size * 1.2
        // Box text (`sz`, `ps`): wrapped at the box's width, placed in it.
        let box = document["sz"].flatMap { try? reader.vector($0, here + ".sz") }
        let boxWidth = box.flatMap { $0.count >= 2 && $0[0] > 0 ? $0[0] : nil }
        let origin = document["ps"].flatMap { try? reader.vector($0, here + ".ps") } ?? [0, 0]
        func width(_ line: Substring) -> Double {
            line.reduce(0) { $0 + (glyphs.glyph($1, fontName: fontName)?.advance ?? 0) * scale + tracking } - (line.isEmpty ? 0 : tracking)
        }
        var lines: [Substring] = []
        for paragraph in string.split(omittingEmptySubsequences: false, whereSeparator: { "\r\n\u{3}".contains($0) }) {
            guard let boxWidth else { lines.append(paragraph); continue }
            // Wrapped at the box's width, between words.
            var current = paragraph[paragraph.startIndex..<paragraph.startIndex]
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let joined = current.isEmpty ? word : paragraph[current.startIndex..<word.endIndex]
                if !current.isEmpty, width(joined) > boxWidth {
                    lines.append(current)
                    current = word
                } else {
                    current = joined
                }
            }
            lines.append(current)
        }
        var outline = PathData()
        var baseline = boxWidth == nil ? 0 : origin[1] + 0.7 * size
        for line in lines {
            defer { baseline += lineHeight }
            let lineWidth = width(line)
            var x: Double
            if let boxWidth {
                x = origin[0] + ([1: boxWidth - lineWidth, 2: (boxWidth - lineWidth) / 2][justification] ?? 0)
            } else {
                x = [1: -lineWidth, 2: -lineWidth / 2][justification] ?? 0
            }
            for character in line {
                guard let glyph = glyphs.glyph(character, fontName: fontName) else { continue }
                outline.append(glyph.outline.applying(CGAffineTransform(scaleX: scale, y: scale)
                    .concatenating(CGAffineTransform(translationX: x, y: baseline))))
                x += glyph.advance * scale + tracking
            }
        }
        var parts: [CAShapeLayer] = []
        if let fc = document["fc"] {
            let c = try reader.color(fc, here + ".fc")
            let fill = CAShapeLayer.atOrigin()
            fill.path = CGPath(outline)
            fill.fillColor = CGColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
            parts.append(fill)
        }
        if let sc = document["sc"], let strokeWidth = document["sw"]?.number, strokeWidth.isFinite, strokeWidth > 0 {
            let c = try reader.color(sc, here + ".sc")
            let stroke = CAShapeLayer.atOrigin()
            stroke.path = CGPath(outline)
            stroke.fillColor = nil
            stroke.strokeColor = CGColor(red: c[0], green: c[1], blue: c[2], alpha: 1)
            stroke.lineWidth = strokeWidth
            stroke.lineJoin = .round
            if document["of"]?.bool == false { parts.insert(stroke, at: 0) } else { parts.append(stroke) }
        }
        for part in parts { layer.addSublayer(part) }
    }
}

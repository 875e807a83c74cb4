import Foundation
import Lamina

/// How far a new picture is from its reference, measured as
/// swift-snapshot-testing measures images on Apple's systems, so that the
/// same `precision` and `perceptualPrecision` mean the same thing on Linux.
///
/// - With `perceptualPrecision` 1 (exact colours), `precision` is the
///   fraction of bytes (RGBA, premultiplied) that must be equal.
/// - With `perceptualPrecision` below 1, a pixel matches when its colour
///   difference, CIE94 ΔE on CIELAB (sRGB, D65), is at most
///   `(1 - perceptualPrecision) * 100` (about 2 is just noticeable), and
///   `precision` is the fraction of pixels that must match. Apple's
///   strategy measures colours premultiplied, as if over black; here both
///   pictures are also composited over white and both comparisons must
///   pass, so that a change of transparency alone is seen.
///
/// Both pictures are compared as read back from PNG (the new one is
/// encoded and decoded first), as the reference was, so that the rounding
/// of premultiplied colour in PNG's straight alpha is never a difference.
struct ImageComparison {
    /// The fraction of pixels (or bytes, for exact colours) that must match.
    var precision: Float
    /// 1 - the largest ΔE / 100 a matching pixel may have.
    var perceptualPrecision: Float

    /// What was measured.
    struct Measurement {
        var width: Int
        var height: Int
        /// Pixels whose bytes differ at all.
        var differentPixels: Int
        /// Bytes that differ (the measure of exact comparison).
        var differentBytes: Int
        /// Pixels over the perceptual tolerance, over black and over white
        /// (the worse of the two counts).
        var pixelsOverTolerance: Int
        /// The largest difference of a colour or alpha byte, 0...255.
        var largestByteDifference: Int
        /// The largest ΔE94 of any pixel, over black or white.
        var largestDeltaE: Double
        /// Per pixel: 0 equal, 1 different within tolerance, 2 over it.
        var verdicts: [UInt8]
        /// Per pixel: the largest byte difference.
        var byteDifferences: [UInt8]

        var pixelCount: Int { width * height }
    }

    /// Nil when `new` matches `reference`; otherwise the failure message and
    /// the measurement it describes (nil when the sizes differ).
    func compare(_ reference: CGImage, _ new: CGImage) -> (message: String, measurement: Measurement?)? {
        guard reference.width == new.width, reference.height == new.height else {
            return ("The new picture is \(new.width) x \(new.height) pixels; the reference is \(reference.width) x \(reference.height).", nil)
        }
        if reference.pixelBytes == new.pixelBytes { return nil }
        let m = measure(reference, new)
        let percent = { (n: Int, of: Int) in String(format: "%.3g%%", 100 * Double(n) / Double(max(1, of))) }
        let detail = "\(m.differentPixels) of \(m.pixelCount) pixels differ (\(percent(m.differentPixels, m.pixelCount))), "
            + "colour or alpha by up to \(m.largestByteDifference) of 255; the largest colour difference is ΔE94 "
            + String(format: "%.2f", m.largestDeltaE) + " (perceptual precision " + String(format: "%.4f", 1 - min(m.largestDeltaE / 100, 1)) + ")."
        // The thresholds in Float arithmetic, as swift-snapshot-testing
        // computes them, so that a precision passes or fails alike there.
        if perceptualPrecision >= 1 {
            let byteCount = m.pixelCount * 4
            guard m.differentBytes > Int((1 - precision) * Float(byteCount)) else { return nil }
            let actual = 1 - Float(m.differentBytes) / Float(byteCount)
            return ("The new picture does not match the reference: \(detail) Byte precision \(actual), required \(precision).", m)
        }
        let actual = 1 - Float(m.pixelsOverTolerance) / Float(m.pixelCount)
        guard actual < precision else { return nil }
        let tolerance = (1 - Double(perceptualPrecision)) * 100
        return ("The new picture does not match the reference: \(detail) "
                + "\(m.pixelsOverTolerance) pixels (\(percent(m.pixelsOverTolerance, m.pixelCount))) are over ΔE94 "
                + String(format: "%.3g", tolerance) + " (perceptual precision \(perceptualPrecision)): pixel precision \(actual), "
                + "required \(precision).", m)
    }

    func measure(_ reference: CGImage, _ new: CGImage) -> Measurement {
        let count = reference.width * reference.height
        let tolerance = (1 - Double(perceptualPrecision)) * 100
        var m = Measurement(width: reference.width, height: reference.height, differentPixels: 0, differentBytes: 0,
                            pixelsOverTolerance: 0, largestByteDifference: 0, largestDeltaE: 0,
                            verdicts: [UInt8](repeating: 0, count: count), byteDifferences: [UInt8](repeating: 0, count: count))
        var overBlack = 0, overWhite = 0
        let a = reference.pixelBytes, b = new.pixelBytes
        for p in 0..<count {
            let o = p * 4
            var largest = 0, bytes = 0
            for k in 0..<4 {
                let d = abs(Int(a[o + k]) - Int(b[o + k]))
                if d > 0 { bytes += 1 }
                largest = max(largest, d)
            }
            guard bytes > 0 else { continue }
            m.differentPixels += 1
            m.differentBytes += bytes
            m.largestByteDifference = max(m.largestByteDifference, largest)
            m.byteDifferences[p] = UInt8(largest)
            let black = CIELab.deltaE94(CIELab(premultiplied: a, at: o, over: 0), CIELab(premultiplied: b, at: o, over: 0))
            let white = CIELab.deltaE94(CIELab(premultiplied: a, at: o, over: 1), CIELab(premultiplied: b, at: o, over: 1))
            m.largestDeltaE = max(m.largestDeltaE, black, white)
            if black > tolerance { overBlack += 1 }
            if white > tolerance { overWhite += 1 }
            m.verdicts[p] = black > tolerance || white > tolerance ? 2 : 1
        }
        m.pixelsOverTolerance = max(overBlack, overWhite)
        return m
    }

    /// A picture of where the two differ, for the eye: black where they are
    /// equal, grey by how much a pixel differs (stretched so that the
    /// largest difference is white), red where a pixel is over the
    /// tolerance that the message counts.
    static func differencePicture(_ m: Measurement) -> CGImage? {
        let stretch = 255 / Double(max(1, m.largestByteDifference))
        var pixels = [UInt8](repeating: 0, count: m.pixelCount * 4)
        for p in 0..<m.pixelCount {
            let o = p * 4
            pixels[o + 3] = 255
            switch m.verdicts[p] {
            case 2:
                pixels[o] = 255
            case 1:
                let grey = UInt8(min(255, max(64, (Double(m.byteDifferences[p]) * stretch).rounded())))
                pixels[o] = grey; pixels[o + 1] = grey; pixels[o + 2] = grey
            default:
                break
            }
        }
        return try? CGImage(width: m.width, height: m.height, premultipliedRGBA: pixels)
    }
}

/// A colour in CIELAB (D65 white), for ΔE.
struct CIELab {
    var l: Double, a: Double, b: Double

    /// The premultiplied RGBA8 pixel at `offset` of `bytes`, composited over
    /// a grey `background` (0 black, 1 white), in CIELAB.
    init(premultiplied bytes: [UInt8], at offset: Int, over background: Double) {
        let alpha = Double(bytes[offset + 3]) / 255
        func channel(_ k: Int) -> Double {
            let c = Double(bytes[offset + k]) / 255 + background * (1 - alpha)
            // sRGB's transfer function, undone.
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let r = channel(0), g = channel(1), bl = channel(2)
        // Linear sRGB to XYZ, divided by D65's white.
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * bl) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * bl
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * bl) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        l = 116 * f(y) - 16
        a = 500 * (f(x) - f(y))
        b = 200 * (f(y) - f(z))
    }

    /// CIE94 colour difference, graphic-arts weights (kL 1, K1 0.045, K2 0.015),
    /// as Core Image's `CILabDeltaE` measures it.
    static func deltaE94(_ p: CIELab, _ q: CIELab) -> Double {
        let dL = p.l - q.l
        let c1 = (p.a * p.a + p.b * p.b).squareRoot(), c2 = (q.a * q.a + q.b * q.b).squareRoot()
        let dC = c1 - c2
        let da = p.a - q.a, db = p.b - q.b
        let dH2 = max(0, da * da + db * db - dC * dC)
        let sC = 1 + 0.045 * c1, sH = 1 + 0.015 * c1
        return (dL * dL + (dC / sC) * (dC / sC) + dH2 / (sH * sH)).squareRoot()
    }
}

// Lamina's colours, and every conversion between them, in one place.
//
// Two representations, each with one job:
//
// - `RGBA`: straight (not premultiplied) sRGB components as `Double`s in
//   0...1. What a layer's colours are once frozen for drawing; what the
//   render plan carries, and what a GPU's uniforms are made from.
// - `PremultipliedColor`: 8-bit sRGB with the colour channels already
//   multiplied by alpha. The pixel format of `Pixmap`, and the form Core
//   Animation blends in: no linearisation, source-over straight on the bytes.
//
// `PremultipliedAlpha` converts whole rows of 8-bit pixels between straight
// and premultiplied alpha, for images coming in and pictures going out.
// `CGColor` (LaminaCore, Apple's name) turns into either with `init(_:)`.

/// A straight (not premultiplied) sRGB colour with components 0...1.
///
/// ```swift
/// let halfRed = RGBA(red: 1, green: 0, blue: 0, alpha: 0.5)
/// halfRed.premultiplied             // (0.5, 0, 0, 0.5)
/// PremultipliedColor(halfRed)       // rgba(128, 0, 0, 128)
/// ```
package struct RGBA: Hashable, Sendable {
    /// Straight components, 0...1 once a plan is validated.
    package var red: Double, green: Double, blue: Double, alpha: Double

    /// A colour from straight components.
    package init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Opaque white: the tint that changes nothing.
    package static let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    /// Opaque black.
    package static let black = RGBA(red: 0, green: 0, blue: 0, alpha: 1)
    /// Transparent black.
    package static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)

    /// Component-wise product (a tint, as `CAReplicatorLayer.instanceColor`).
    package func multiplied(by o: RGBA) -> RGBA {
        RGBA(red: red * o.red, green: green * o.green, blue: blue * o.blue, alpha: alpha * o.alpha)
    }

    /// The colour with its alpha multiplied by `k` (a fade).
    package func withAlpha(times k: Double) -> RGBA { RGBA(red: red, green: green, blue: blue, alpha: alpha * k) }

    /// Premultiplied components `(r·a, g·a, b·a, a)`, unrounded.
    package var premultiplied: (Double, Double, Double, Double) { (red * alpha, green * alpha, blue * alpha, alpha) }
}

/// An 8-bit sRGB colour with its channels already multiplied by alpha.
///
/// A valid value has every colour channel at most `a`; the initialisers keep
/// it so.
package struct PremultipliedColor: Hashable, Sendable, CustomStringConvertible {
    package private(set) var r: UInt8
    package private(set) var g: UInt8
    package private(set) var b: UInt8
    package private(set) var a: UInt8

    /// A colour from premultiplied channels; a channel above `a` is lowered to
    /// `a`, since no premultiplied colour can have it.
    package init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = min(r, a); self.g = min(g, a); self.b = min(b, a); self.a = a
    }

    /// A straight colour premultiplied and rounded to bytes:
    /// `round(c·a·255)` per channel. Components outside 0...1 are clamped
    /// and NaN reads as 0.
    package init(_ color: RGBA) {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        let alpha = unit(color.alpha)
        self.init(r: byte(unit(color.red) * alpha), g: byte(unit(color.green) * alpha),
                  b: byte(unit(color.blue) * alpha), a: byte(alpha))
    }

    /// A colour from straight components in 0...1 (see `init(_: RGBA)`).
    package init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.init(RGBA(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// Transparent black, the pixel every new pixmap starts with.
    package static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)
    package static let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255)
    package static let white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)

    /// `source` drawn over `destination` with the given coverage (0...255):
    /// `result = source·k + destination·(1 − source.a·k)` with `k = coverage/255`,
    /// on the sRGB bytes, rounded to nearest. The compositing loops use the
    /// same arithmetic (`blendSourceOver`).
    package static func sourceOver(
        _ source: PremultipliedColor, onto destination: PremultipliedColor, coverage: UInt8 = 255
    ) -> PremultipliedColor {
        var pixel = (destination.r, destination.g, destination.b, destination.a)
        withUnsafeMutableBytes(of: &pixel) { bytes in
            guard let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            blendSourceOver(p, source, coverage: UInt32(coverage))
        }
        return PremultipliedColor(r: pixel.0, g: pixel.1, b: pixel.2, a: pixel.3)
    }

    package var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}

/// Conversions between straight and premultiplied 8-bit alpha, correctly
/// rounded, for images read (PNG, WebP, `CGImage`'s straight pixels) and
/// pictures written.
///
/// `premultiply` is `round(c * a / 255)` and `unpremultiply` is
/// `min(255, round(p * 255 / a))` (`0` when `a == 0`). Together they make
/// premultiplied → straight → premultiplied exact for every valid
/// premultiplied component (`p <= a`): the straight value is off from
/// `p * 255 / a` by at most 1/2, which becomes at most `a / 510 < 1/2` after
/// multiplying back by `a / 255`, so rounding lands on `p` again. The other
/// way, straight → premultiplied → straight, loses precision whenever
/// `a < 255` (at `a == 1` every colour becomes 0 or 255); that loss is
/// inherent to 8-bit premultiplied storage.
package enum PremultipliedAlpha {
    /// `component * alpha / 255`, rounded to nearest.
    @inlinable
    package static func premultiply(_ component: UInt8, alpha: UInt8) -> UInt8 {
        // `x / 255` never has a fractional part of exactly 1/2 (255 is odd), so
        // adding 127 and truncating rounds to nearest.
        UInt8(truncatingIfNeeded: (UInt32(component) * UInt32(alpha) + 127) / 255)
    }

    /// `component * 255 / alpha`, rounded to nearest (halves up) and clamped to
    /// 255; `0` when `alpha` is 0. Components above alpha are not valid
    /// premultiplied colour and clamp to 255.
    package static func unpremultiply(_ component: UInt8, alpha: UInt8) -> UInt8 {
        unpremultiplyTable[Int(alpha) << 8 | Int(component)]
    }

    /// Premultiplies RGBA pixels in place (every fourth byte is alpha).
    package static func premultiplyRGBA(_ pixels: UnsafeMutableRawBufferPointer) {
        var i = 0
        while i + 3 < pixels.count {
            let a = pixels[i + 3]
            if a != 255 {
                pixels[i] = premultiply(pixels[i], alpha: a)
                pixels[i + 1] = premultiply(pixels[i + 1], alpha: a)
                pixels[i + 2] = premultiply(pixels[i + 2], alpha: a)
            }
            i += 4
        }
    }

    /// Writes the straight (un-premultiplied) form of the premultiplied RGBA
    /// pixels in `source` to `destination`, which must be at least as long.
    package static func unpremultiplyRGBA(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) {
        let count = min(source.count, destination.count) & ~3
        guard count > 0, let from = source.baseAddress, let to = destination.baseAddress else { return }
        unpremultiplyTable.withUnsafeBufferPointer { table in
            var i = 0
            while i < count {
                let pixel = from.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                let a = UInt8(truncatingIfNeeded: pixel >> 24)
                if a == 255 {
                    // Opaque (most of most pictures): the pixel as it is, in one store.
                    to.storeBytes(of: pixel, toByteOffset: i, as: UInt32.self)
                    i += 4
                    continue
                } else if a == 0 {
                    // Transparent (most of an animation's frame drawn on
                    // nothing): the table's row 0 is all zero, so the
                    // pixel is zero, in one store.
                    to.storeBytes(of: UInt32(0), toByteOffset: i, as: UInt32.self)
                    i += 4
                    continue
                } else {
                    let row = Int(a) << 8
                    destination[i] = table[row | Int(source[i])]
                    destination[i + 1] = table[row | Int(source[i + 1])]
                    destination[i + 2] = table[row | Int(source[i + 2])]
                }
                destination[i + 3] = a
                i += 4
            }
        }
    }

    /// `unpremultiply` for every (alpha, component) pair, indexed by
    /// `alpha << 8 | component`: a division per component is several times
    /// slower than this 64 KiB lookup when encoding large pictures.
    private static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for alpha in 1...255 {
            for component in 0...255 {
                let value = (component * 255 + alpha / 2) / alpha
                table[alpha << 8 | component] = UInt8(min(value, 255))
            }
        }
        return table
    }()
}

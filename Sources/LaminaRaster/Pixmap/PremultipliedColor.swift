/// An 8-bit sRGB colour with its channels already multiplied by alpha.
///
/// This is the pixel format of `Pixmap` and the colour space Core Animation
/// blends in: no linearisation, source-over straight on the stored bytes.
/// A valid value has every colour channel at most `a`; the initialisers keep it so.
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

    /// A colour from straight (unpremultiplied) components in 0...1, as
    /// `CGColor` holds them; values outside are clamped and NaN reads as 0.
    package init(red: Double, green: Double, blue: Double, alpha: Double) {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        let al = unit(alpha)
        func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        self.init(r: byte(unit(red) * al), g: byte(unit(green) * al), b: byte(unit(blue) * al), a: byte(al))
    }

    /// Transparent black, the pixel every new pixmap starts with.
    package static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)
    package static let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255)
    package static let white = PremultipliedColor(r: 255, g: 255, b: 255, a: 255)

    /// `source` drawn over `destination` with the given coverage (0...255):
    /// `result = source·k + destination·(1 − source.a·k)` with `k = coverage/255`,
    /// on the sRGB bytes, rounded to nearest. The compositing loops use the
    /// same arithmetic.
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

// The integer arithmetic every compositing loop shares. Core Animation blends
// premultiplied sRGB bytes directly (no linear-light conversion), so we do too.

/// `x / 255` rounded to nearest; exact for every `x` in `0 ... 255 * 255`.
@inline(__always)
package func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// Source-over of an already scaled premultiplied source `(r, g, b, a)` onto
/// the four bytes at `p`: `d = s + d·(255 − sa)/255`.
///
/// Cannot overflow a byte: each colour channel is at most `a`, and
/// `a + d·(255 − a)/255 ≤ 255`.
@inline(__always)
package func blendScaled(_ p: UnsafeMutablePointer<UInt8>, _ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) {
    if a == 255 {
        p[0] = UInt8(truncatingIfNeeded: r); p[1] = UInt8(truncatingIfNeeded: g)
        p[2] = UInt8(truncatingIfNeeded: b); p[3] = 255
        return
    }
    if a == 0 && (r | g | b) == 0 { return }
    let inv = 255 &- a
    p[0] = UInt8(truncatingIfNeeded: r &+ div255(UInt32(p[0]) &* inv))
    p[1] = UInt8(truncatingIfNeeded: g &+ div255(UInt32(p[1]) &* inv))
    p[2] = UInt8(truncatingIfNeeded: b &+ div255(UInt32(p[2]) &* inv))
    p[3] = UInt8(truncatingIfNeeded: a &+ div255(UInt32(p[3]) &* inv))
}

/// Source-over of `color` at coverage `k` (0...255) onto the four bytes at `p`.
@inline(__always)
package func blendSourceOver(_ p: UnsafeMutablePointer<UInt8>, _ color: PremultipliedColor, coverage k: UInt32) {
    if k == 255 {
        blendScaled(p, UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
    } else {
        blendScaled(
            p, div255(UInt32(color.r) &* k), div255(UInt32(color.g) &* k),
            div255(UInt32(color.b) &* k), div255(UInt32(color.a) &* k))
    }
}

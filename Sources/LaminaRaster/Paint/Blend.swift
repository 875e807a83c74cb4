// The integer arithmetic every compositing loop shares. Core Animation blends
// premultiplied sRGB bytes directly (no linear-light conversion), so we do too.

/// `x / 255` rounded to nearest; exact for every `x` in `0 ... 255 * 255`.
@inline(__always)
package func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

// Pixels as words: the four bytes R, G, B, A of a pixel read as one
// little-endian UInt32 (R in the low byte, A in the high one). Two channels
// share each half of a 64-bit product-free computation: R and B in the lanes
// of `0x00FF00FF`, G and A in those of `0xFF00FF00`, each lane 16 bits wide,
// so that one multiply scales two channels and `div255` rounds both exactly
// as it rounds one (every lane stays below 65536).

/// The word of premultiplied channels `(r, g, b, a)`, each 0...255.
@inline(__always)
package func pixelWord(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
    r | g << 8 | b << 16 | a << 24
}

/// Every channel of `pixel` times `k / 255` (`k` in 0...255), rounded as
/// `div255` rounds: byte for byte what scaling each channel alone gives.
@inline(__always)
package func scaled(_ pixel: UInt32, by k: UInt32) -> UInt32 {
    var rb = (pixel & 0x00FF_00FF) &* k &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ga = ((pixel >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
    ga = (ga &+ ((ga >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ga
}

/// `scaled(_:by:)` on four pixels at once: the same arithmetic in 16-bit
/// lanes, one channel each (every product and sum stays below 65536, as
/// in the word version's lanes), so the same bytes, with the 16-bit
/// multiplies every x86-64 has rather than 32-bit ones it must emulate.
@inline(__always)
package func scaled(_ pixels: SIMD4<UInt32>, by k: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let k16 = unsafeBitCast(k | (k &<< 16), to: SIMD8<UInt16>.self)
    let rb = unsafeBitCast(pixels & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* k16 &+ 0x0080
    let ga = unsafeBitCast((pixels &>> 8) & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* k16 &+ 0x0080
    let r = (rb &+ (rb &>> 8)) &>> 8
    let g = (ga &+ (ga &>> 8)) & 0xFF00
    return unsafeBitCast(r, to: SIMD4<UInt32>.self) | unsafeBitCast(g, to: SIMD4<UInt32>.self)
}

/// Source-over of four pixel words onto the sixteen bytes at `p`, each as
/// `blendWord` blends it: its two shortcuts are what the formula gives
/// anyway (an opaque source scales the destination by 0; a transparent
/// one adds 0 to the destination scaled by 255, which `div255` returns
/// exactly), so no lane needs a branch and a run blends four at a time.
@inline(__always)
package func blendWords(_ p: UnsafeMutableRawPointer, _ source: SIMD4<UInt32>) {
    let destination = p.loadUnaligned(as: SIMD4<UInt32>.self)
    p.storeBytes(of: source &+ scaled(destination, by: 255 &- (source &>> 24)), as: SIMD4<UInt32>.self)
}

/// Source-over of the solid pixel `word` over `count` pixels from `row`,
/// pixel i scaled by `scale[coverage[i]]` (`CoverageScales`): the bytes
/// `blendWord` gives pixel by pixel, four pixels at a time. Four empty
/// coverage bytes are skipped (a path's mask is mostly the empty box
/// around it), four full ones blend the word unscaled where full coverage
/// scales by 255 (a solid interior), or store it where it is opaque too
/// (what the blend gives: an opaque source leaves nothing of the
/// destination), the others are scaled lane by lane.
@inline(__always)
package func blendSolid(_ word: UInt32, coverage: UnsafePointer<UInt8>, count: Int,
                        scale: UnsafePointer<UInt32>, into row: UnsafeMutableRawPointer) {
    blendSolid(word, coverage: coverage, count: count, fullIsWhole: scale[255] == 255, into: row) { scale[Int($0)] }
}

/// `blendSolid(_:coverage:count:scale:into:)` at opacity 1, where coverage
/// m scales by m (`CoverageScales.opaque`): the bytes are the scales, no
/// table is read.
@inline(__always)
package func blendSolid(_ word: UInt32, coverage: UnsafePointer<UInt8>, count: Int, into row: UnsafeMutableRawPointer) {
    blendSolid(word, coverage: coverage, count: count, fullIsWhole: true, into: row) { UInt32($0) }
}

@inline(__always)
private func blendSolid(_ word: UInt32, coverage: UnsafePointer<UInt8>, count: Int, fullIsWhole: Bool,
                        into row: UnsafeMutableRawPointer, _ scale: (UInt8) -> UInt32) {
    let words = SIMD4<UInt32>(repeating: word)
    let fullIsWord = fullIsWhole && word >> 24 == 255
    var x = 0
    while x + 4 <= count {
        let four = UnsafeRawPointer(coverage + x).loadUnaligned(as: UInt32.self)
        if four == 0xFFFF_FFFF && fullIsWord {
            (row + x &* 4).storeBytes(of: words, as: SIMD4<UInt32>.self)
            // The rest of a run of full coverage, sixteen pixels a step:
            // a large opaque shape's interior.
            while x &+ 20 <= count {
                let next = UnsafeRawPointer(coverage + (x &+ 4))
                guard next.loadUnaligned(as: UInt64.self) & next.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == .max
                else { break }
                let p = row + (x &+ 4) &* 4
                p.storeBytes(of: words, as: SIMD4<UInt32>.self)
                p.storeBytes(of: words, toByteOffset: 16, as: SIMD4<UInt32>.self)
                p.storeBytes(of: words, toByteOffset: 32, as: SIMD4<UInt32>.self)
                p.storeBytes(of: words, toByteOffset: 48, as: SIMD4<UInt32>.self)
                x &+= 16
            }
        } else if four == 0xFFFF_FFFF && fullIsWhole {
            blendWords(row + x * 4, words)
        } else if four != 0 {
            let k = SIMD4(scale(coverage[x]), scale(coverage[x + 1]), scale(coverage[x + 2]), scale(coverage[x + 3]))
            blendWords(row + x * 4, scaled(words, by: k))
        }
        x += 4
    }
    while x < count {
        let k = scale(coverage[x])
        if k != 0 { blendWord(row + x * 4, k == 255 ? word : scaled(word, by: k)) }
        x += 1
    }
}

/// For each coverage byte m, the byte scale `m/255 · opacity` rounds to:
/// what a solid pixel of coverage m is scaled by, looked up, not computed.
package enum CoverageScales {
    /// The 256 scales at `opacity`.
    package static func at(opacity: Double) -> [UInt32] {
        (0...255).map { m in UInt32(Double(m) * (1.0 / 255) * opacity * 255 + 0.5) }
    }

    /// The scales of most draws (opacity 1: m scales by m), made once.
    package static let opaque = at(opacity: 1)
}

/// Source-over of the premultiplied pixel `source` onto `destination`:
/// `d = s + d·(255 − sa)/255` in each channel.
///
/// Cannot carry from one channel into the next: each colour channel of a
/// premultiplied pixel is at most its alpha, and `a + d·(255 − a)/255 ≤ 255`.
@inline(__always)
package func sourceOver(_ source: UInt32, onto destination: UInt32) -> UInt32 {
    let a = source >> 24
    if a == 255 { return source }
    if source == 0 { return destination }
    return source &+ scaled(destination, by: 255 &- a)
}

/// Source-over of an already scaled premultiplied source `(r, g, b, a)` onto
/// the four bytes at `p` (see `sourceOver(_:onto:)`).
@inline(__always)
package func blendScaled(_ p: UnsafeMutablePointer<UInt8>, _ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) {
    blendWord(UnsafeMutableRawPointer(p), pixelWord(r, g, b, a))
}

/// Source-over of the pixel word `source` onto the pixel at `p`.
@inline(__always)
package func blendWord(_ p: UnsafeMutableRawPointer, _ source: UInt32) {
    let a = source >> 24
    if a == 255 {
        p.storeBytes(of: source, as: UInt32.self)
    } else if source != 0 {
        p.storeBytes(of: source &+ scaled(p.loadUnaligned(as: UInt32.self), by: 255 &- a), as: UInt32.self)
    }
}

/// Source-over of `color` at coverage `k` (0...255) onto the four bytes at `p`.
@inline(__always)
package func blendSourceOver(_ p: UnsafeMutablePointer<UInt8>, _ color: PremultipliedColor, coverage k: UInt32) {
    let word = pixelWord(UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
    blendWord(UnsafeMutableRawPointer(p), k == 255 ? word : scaled(word, by: k))
}

// How a draw's pixels combine with what lies under them: source-over, or
// one of the blend modes Core Animation names in `compositingFilter`.

/// How a source pixel meets the destination under it.
///
/// `normal` is source-over, the blend of every ordinary draw. The others are
/// the separable modes of the W3C's Compositing and Blending (Level 1),
/// which Core Animation's `multiplyBlendMode`... filters and OpenGL ES 3.2's
/// advanced blend equations both follow: with `Cs`, `Cb` the straight source
/// and backdrop colours and `αs`, `αb` their alphas, and `B` applied to each
/// channel alone,
///
/// ```
/// co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)      (premultiplied)
/// αo = αs + αb·(1 − αs)
/// ```
///
/// so a mode changes only where both are present, and a transparent source
/// changes nothing. `plusLighter` (Core Animation's `plusL`) adds the
/// premultiplied channels, alpha too, up to 1. Each is linear in the
/// source's premultiplied channels (`plusLighter` up to its clamp), so a
/// pixel covered in part is the blend at full coverage faded to that part,
/// as with source-over.
package enum BlendMode: String, CaseIterable, Hashable, Sendable {
    case normal
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn
    case softLight, hardLight, difference, exclusion
    case plusLighter

    /// The premultiplied pixel `source` (channels 0...1) over `backdrop`.
    package func blend(_ source: SIMD4<Double>, over backdrop: SIMD4<Double>) -> SIMD4<Double> {
        let αs = source.w, αb = backdrop.w
        switch self {
        case .normal:
            return source + backdrop * (1 - αs)
        case .plusLighter:
            return (source + backdrop).clamped(lowerBound: .zero, upperBound: .one)
        default:
            break
        }
        guard αs > 0 else { return backdrop }
        guard αb > 0 else { return source }
        let cs = SIMD3(source.x, source.y, source.z), cb = SIMD3(backdrop.x, backdrop.y, backdrop.z)
        let straightS = (cs / αs).clamped(lowerBound: .zero, upperBound: .one)
        let straightB = (cb / αb).clamped(lowerBound: .zero, upperBound: .one)
        let mixed = SIMD3(separable(straightB.x, straightS.x), separable(straightB.y, straightS.y),
                          separable(straightB.z, straightS.z))
        let c = cs * (1 - αb) + cb * (1 - αs) + αs * αb * mixed
        let α = αs + αb * (1 - αs)
        return SIMD4(c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: α)), α)
    }

    /// The premultiplied pixel word `source` (R in the low byte) over the
    /// word `backdrop`, rounded to bytes.
    package func blend(word source: UInt32, over backdrop: UInt32) -> UInt32 {
        if self == .normal { return sourceOver(source, onto: backdrop) }
        if source >> 24 == 0 && self != .plusLighter { return backdrop }
        @inline(__always) func unit(_ w: UInt32) -> SIMD4<Double> {
            SIMD4(Double(w & 0xFF), Double(w >> 8 & 0xFF), Double(w >> 16 & 0xFF), Double(w >> 24)) / 255
        }
        let out = blend(unit(source), over: unit(backdrop)) * 255
        @inline(__always) func byte(_ v: Double) -> UInt32 { UInt32(min(255, max(0, v.rounded()))) }
        return pixelWord(byte(out.x), byte(out.y), byte(out.z), byte(out.w))
    }

    /// `B(Cb, Cs)` of a separable mode, one channel.
    private func separable(_ b: Double, _ s: Double) -> Double {
        switch self {
        case .multiply: return b * s
        case .screen: return b + s - b * s
        case .overlay: return BlendMode.hardLight.separable(s, b)
        case .darken: return min(b, s)
        case .lighten: return max(b, s)
        case .colorDodge:
            if b == 0 { return 0 }
            return s >= 1 ? 1 : min(1, b / (1 - s))
        case .colorBurn:
            if b >= 1 { return 1 }
            return s <= 0 ? 0 : 1 - min(1, (1 - b) / s)
        case .hardLight:
            return s <= 0.5 ? b * 2 * s : BlendMode.screen.separable(b, 2 * s - 1)
        case .softLight:
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        case .difference: return abs(b - s)
        case .exclusion: return b + s - 2 * b * s
        default: return s
        }
    }
}

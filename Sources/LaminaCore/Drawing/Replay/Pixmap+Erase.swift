import LaminaRaster

// Clearing: the part of the pixmap under a mask becomes transparent, partly
// so at anti-aliased edges (Porter–Duff destination-out with the coverage).

extension Pixmap {
    /// Scales every pixel by `1 − coverage`, within `clip` when there is one:
    /// what `CGContext.clear(_:)` does to the pixels it covers.
    mutating func erase(_ mask: CoverageMask, clip: CoverageMask?) {
        var area = mask.bounds.intersection(bounds)
        if let clip { area = area.intersection(clip.bounds) }
        guard !area.isEmpty else { return }
        let w = width
        withUnsafeMutableData { $0.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in area.minY..<area.maxY {
                var p = base + (y * w + area.minX) * 4
                for x in area.minX..<area.maxX {
                    var k = UInt32(mask.coverage(x: x, y: y))
                    if let clip { k = div255(k &* UInt32(clip.coverage(x: x, y: y))) }
                    if k == 255 {
                        p[0] = 0; p[1] = 0; p[2] = 0; p[3] = 0
                    } else if k != 0 {
                        // Every channel scales alike, so colour stays at most alpha.
                        let keep = 255 &- k
                        for c in 0..<4 { p[c] = UInt8(truncatingIfNeeded: div255(UInt32(p[c]) &* keep)) }
                    }
                    p += 4
                }
            }
        } }
    }
}

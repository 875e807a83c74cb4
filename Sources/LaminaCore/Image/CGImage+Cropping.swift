import Foundation

extension CGImage {
    /// The part of the image inside `rect`, as Core Graphics'
    /// `CGImage.cropping(to:)` defines it.
    ///
    /// `rect` is in pixels with the origin at the top-left pixel (y grows down
    /// the rows). It is first made integral (`rect.integral`: origin rounded
    /// down, far edges rounded up, a negative size standardised), then
    /// intersected with the image's bounds. Returns `nil` when that
    /// intersection is empty or `rect` is null or not finite.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard !rect.isNull, rect.origin.x.isFinite, rect.origin.y.isFinite,
              rect.size.width.isFinite, rect.size.height.isFinite else { return nil }
        let bounds = CGRect(x: 0, y: 0, width: CGFloat(width), height: CGFloat(height))
        let area = rect.integral.intersection(bounds)
        guard !area.isNull, !area.isEmpty else { return nil }
        // Inside the bounds, so every edge is an exact integer in 0...width/height.
        let x0 = Int(area.minX), y0 = Int(area.minY)
        let w = Int(area.maxX) - x0, h = Int(area.maxY) - y0
        if x0 == 0, y0 == 0, w == width, h == height { return self }
        var bytes = [UInt8]()
        bytes.reserveCapacity(w * h * 4)
        for row in y0..<(y0 + h) {
            let start = row * bytesPerRow + x0 * 4
            bytes.append(contentsOf: pixelBytes[start..<(start + w * 4)])
        }
        // The size and byte count are consistent by construction.
        return try? CGImage(width: w, height: h, premultipliedRGBA: bytes)
    }
}

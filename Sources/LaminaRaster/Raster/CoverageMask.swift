import LaminaGeometry

/// Per-pixel coverage, 0 (outside) ... 255 (fully inside), over a rectangle
/// of a target pixmap.
///
/// The rasterizer returns one sized to the shape's pixel bounds clipped to its
/// target, so memory follows what is visible, not the geometry. The painting
/// stages also take one as a clip mask; pixels outside `bounds` count as 0.
package struct CoverageMask: Equatable, Sendable {
    /// The pixels the mask describes, in target pixel coordinates.
    package let bounds: PixelRect
    /// `bounds.width * bounds.height` values, rows top to bottom.
    package let values: [UInt8]
    /// Whether `values` came from `BufferPool.masks` and no one else holds
    /// them, so that `recycle()` may give them back.
    private let isPooled: Bool

    /// A mask over `bounds` with the given values.
    package init(bounds: PixelRect, values: [UInt8]) throws {
        guard bounds.width >= 0, bounds.height >= 0,
            bounds.width <= Pixmap.maximumDimension, bounds.height <= Pixmap.maximumDimension
        else {
            throw RasterError.invalidDimensions(what: "coverage mask", width: bounds.width, height: bounds.height)
        }
        guard values.count == bounds.width * bounds.height else {
            throw RasterError.pixelDataSize(expected: bounds.width * bounds.height, actual: values.count)
        }
        self.bounds = bounds
        self.values = values
        isPooled = false
    }

    /// Trusted construction by the rasterizer, whose sizes are right by
    /// construction. `pooled`: the values were taken from `BufferPool.masks`
    /// for this mask alone.
    package init(uncheckedBounds bounds: PixelRect, values: [UInt8], pooled: Bool = false) {
        self.bounds = bounds
        self.values = values
        isPooled = pooled
    }

    /// Gives the values back to `BufferPool.masks` when they came from it:
    /// the caller is done with the mask (it has been painted), and the next
    /// frame's mask of the same size reuses them.
    package consuming func recycle() {
        if isPooled { BufferPool.masks.giveBack(values) }
    }

    package static func == (a: CoverageMask, b: CoverageMask) -> Bool { a.bounds == b.bounds && a.values == b.values }

    /// A mask covering nothing.
    package static let empty = CoverageMask(uncheckedBounds: .zero, values: [])

    /// The coverage of target pixel `(x, y)`: 0 outside `bounds`.
    package func coverage(x: Int, y: Int) -> UInt8 {
        guard bounds.contains(x: x, y: y) else { return 0 }
        return values[(y - bounds.minY) * bounds.width + (x - bounds.minX)]
    }

    /// The sum of all coverage as a pixel area (each value / 255).
    package var totalCoverage: Double {
        Double(values.reduce(0) { $0 + Int($1) }) / 255
    }
}

extension CoverageMask {
    /// The mask with every pixel whose centre one of `cuts` (half-planes in
    /// pixel coordinates) does not own set to 0: the piece of a split draw
    /// keeps its own pixels whole and leaves the rest whole to the others
    /// (`HalfPlane.owns`), so pieces meet without a seam.
    package func owned(by cuts: [HalfPlane]) -> CoverageMask {
        guard !cuts.isEmpty, !bounds.isEmpty else { return self }
        var values = self.values
        let b = bounds
        values.withUnsafeMutableBufferPointer { v in
            for row in 0..<b.height {
                let py = Double(b.minY + row) + 0.5
                let base = row * b.width
                for column in 0..<b.width where v[base + column] != 0 {
                    let px = Double(b.minX + column) + 0.5
                    for cut in cuts where !cut.owns(x: px, y: py) {
                        v[base + column] = 0
                        break
                    }
                }
            }
        }
        return CoverageMask(uncheckedBounds: b, values: values)
    }
}

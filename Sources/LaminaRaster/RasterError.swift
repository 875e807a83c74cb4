/// What went wrong in the CPU renderer, and where.
///
/// Every public entry point of LaminaCPU validates its input and throws one of
/// these instead of trapping, so a bad scene cannot crash a render server.
package enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A width or height is negative, too large, or their product overflows.
    case invalidDimensions(what: String, width: Int, height: Int)
    /// A pixel buffer has the wrong number of bytes.
    case pixelDataSize(expected: Int, actual: Int)
    /// A colour channel exceeds alpha, which premultiplied colour cannot have.
    case notPremultiplied(x: Int, y: Int)
    /// A pixel or rectangle lies (partly) outside the pixmap it addresses.
    case outOfBounds(what: String, rect: PixelRect, bounds: PixelRect)
    /// A coordinate or parameter is NaN or infinite, or too large to be exact.
    case nonFinite(what: String)
    /// A parameter has a value the operation cannot use.
    case invalidArgument(what: String, reason: String)

    package var description: String {
        switch self {
        case let .invalidDimensions(what, width, height):
            return "\(what): invalid size \(width) x \(height) (each side 0...\(Pixmap.maximumDimension))"
        case let .pixelDataSize(expected, actual):
            return "pixel data: expected \(expected) bytes, got \(actual)"
        case let .notPremultiplied(x, y):
            return "pixel (\(x), \(y)): a colour channel exceeds alpha; data must be premultiplied"
        case let .outOfBounds(what, rect, bounds):
            return "\(what): \(rect) is not inside \(bounds)"
        case let .nonFinite(what):
            return "\(what): not a finite number in range"
        case let .invalidArgument(what, reason):
            return "\(what): \(reason)"
        }
    }
}

/// Checks that `value` is finite, naming it in the error otherwise.
@inline(__always)
package func requireFinite(_ value: Double, _ what: @autoclosure () -> String) throws {
    guard value.isFinite else { throw RasterError.nonFinite(what: what()) }
}

/// Converts an opacity to a byte, clamping to 0...1 as Core Animation clamps
/// `opacity`; NaN is an error.
package func opacityByte(_ alpha: Double, _ what: String) throws -> UInt32 {
    guard !alpha.isNaN else { throw RasterError.nonFinite(what: what) }
    return UInt32((min(max(alpha, 0), 1) * 255).rounded())
}

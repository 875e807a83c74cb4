import Foundation

/// What a `DrawCommand.filter` pass does to a whole surface: the work of a
/// layer's `filters` once the layer is drawn offscreen.
package enum SurfaceFilter: Hashable, Sendable {
    /// A Gaussian blur of every premultiplied channel, by the method's steps
    /// (as `blurMask`, but of the colour too). Outside the source counts as
    /// transparent.
    case blur(BlurMethod)
    /// Each pixel's straight colour through the matrix, clamped, premultiplied again.
    case colorMatrix(ColorMatrix)
}

/// A colour transform of straight (not premultiplied) RGBA in 0...1, as
/// SVG's `feColorMatrix` and Core Animation's `colorMatrix` filter define
/// it: four rows of five, `out[i] = Σⱼ m[i][j] · in[j] + m[i][4]`, for red,
/// green, blue and alpha, clamped to 0...1.
///
/// ```swift
/// let grey = ColorMatrix.saturate(0)          // Rec. 709 luminance in each channel
/// let dim = grey.then(.brightness(-0.2))      // grey first, then darker
/// ```
package struct ColorMatrix: Hashable, Sendable {
    /// The 20 numbers, row by row.
    public var values: [Double]

    /// A matrix of these 20 numbers (four rows of five).
    public init(_ values: [Double]) {
        precondition(values.count == 20, "a colour matrix has 20 numbers")
        self.values = values
    }

    /// Leaves every colour as it is.
    public static let identity = ColorMatrix([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])

    /// The matrix that applies `self`, then `next` (without clamping between).
    public func then(_ next: ColorMatrix) -> ColorMatrix {
        var out = [Double](repeating: 0, count: 20)
        for i in 0..<4 {
            for j in 0..<5 {
                var sum = j == 4 ? next.values[i * 5 + 4] : 0
                for k in 0..<4 { sum += next.values[i * 5 + k] * values[k * 5 + j] }
                out[i * 5 + j] = sum
            }
        }
        return ColorMatrix(out)
    }

    /// `rgba` (straight, 0...1) through the matrix, clamped to 0...1.
    public func apply(_ rgba: SIMD4<Double>) -> SIMD4<Double> {
        var out = SIMD4<Double>()
        for i in 0..<4 {
            let row = i * 5
            let v = values[row] * rgba[0] + values[row + 1] * rgba[1] + values[row + 2] * rgba[2]
                + values[row + 3] * rgba[3] + values[row + 4]
            out[i] = min(1, max(0, v.isNaN ? 0 : v))
        }
        return out
    }

    // MARK: The filters of Core Animation (and SVG), as matrices

    /// Saturation `s` (1: unchanged, 0: grey), SVG's `saturate`.
    public static func saturate(_ s: Double) -> ColorMatrix {
        ColorMatrix([0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0, 0,
                     0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0, 0,
                     0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0, 0,
                     0, 0, 0, 1, 0])
    }

    /// Hue turned by `angle` radians, SVG's `hueRotate`.
    public static func hueRotate(_ angle: Double) -> ColorMatrix {
        let c = cos(angle), s = sin(angle)
        return ColorMatrix([0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0, 0,
                            0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0, 0,
                            0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0, 0,
                            0, 0, 0, 1, 0])
    }

    /// Contrast `k` about mid grey (1: unchanged, 0: all grey).
    public static func contrast(_ k: Double) -> ColorMatrix {
        let t = 0.5 * (1 - k)
        return ColorMatrix([k, 0, 0, 0, t, 0, k, 0, 0, t, 0, 0, k, 0, t, 0, 0, 0, 1, 0])
    }

    /// `b` added to each colour channel.
    public static func brightness(_ b: Double) -> ColorMatrix {
        ColorMatrix([1, 0, 0, 0, b, 0, 1, 0, 0, b, 0, 0, 1, 0, b, 0, 0, 0, 1, 0])
    }

    /// Each colour channel `1 - c`.
    public static let invert = ColorMatrix([-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0])

    /// The luminance (Rec. 709) in `color`'s hue, mixed with the original by `amount` (1: all monochrome).
    public static func monochrome(red: Double, green: Double, blue: Double, amount: Double) -> ColorMatrix {
        let l = [0.2126, 0.7152, 0.0722], tint = [red, green, blue]
        var m = identity.values
        for i in 0..<3 {
            for j in 0..<3 {
                m[i * 5 + j] = (1 - amount) * (i == j ? 1 : 0) + amount * tint[i] * l[j]
            }
        }
        return ColorMatrix(m)
    }

    /// Alpha from luminance, the colour black: SVG's `luminanceToAlpha`.
    public static let luminanceToAlpha = ColorMatrix([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                      0.2125, 0.7154, 0.0721, 0, 0])
}

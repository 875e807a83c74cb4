/// A 4x4 matrix in Core Animation's convention: points are row vectors
/// multiplied on the left (p' = p * M) and the sixteen values are stored row
/// by row, m11 m12 m13 m14 m21 ... m44, like the fields of `CATransform3D`.
///
/// A draw's matrix maps its local 2D points [x y 0 1] to the target's pixel
/// space homogeneously: (X, Y, Z, W), the pixel being (X/W, Y/W) with the
/// origin at the top-left and y pointing down. LaminaGL never divides on the
/// CPU; the GPU interpolates perspective-correctly.
struct GLMatrix4: Sendable, Equatable {
    /// m11 m12 m13 m14 m21 ... m44.
    let rowMajor: [Double]

    /// A matrix from its sixteen values in row-major order (m11, m12, ... m44).
    /// - Throws: `GLError.invalidArgument` unless there are sixteen finite values.
    init(rowMajor values: [Double]) throws {
        guard values.count == 16 else {
            throw GLError.invalidArgument("a 4x4 matrix needs 16 values, got \(values.count)")
        }
        guard values.allSatisfy(\.isFinite) else {
            throw GLError.invalidArgument("a 4x4 matrix has a value that is not finite: \(values)")
        }
        rowMajor = values
    }

    /// A matrix from sixteen `Float`s in row-major order.
    init(rowMajor values: [Float]) throws {
        try self.init(rowMajor: values.map(Double.init))
    }

    private init(trusted values: [Double]) {
        rowMajor = values
    }

    /// The identity.
    static let identity = GLMatrix4(trusted: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// The value at `row`, `column` (both 0-based): m(row+1)(column+1).
    subscript(row: Int, column: Int) -> Double {
        rowMajor[row * 4 + column]
    }

    /// `self * other`: applies `self` first, then `other` (row vectors).
    func concatenating(_ other: GLMatrix4) -> GLMatrix4 {
        var result = [Double](repeating: 0, count: 16)
        for row in 0..<4 {
            for column in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += self[row, k] * other[k, column] }
                result[row * 4 + column] = sum
            }
        }
        return GLMatrix4(trusted: result)
    }

    /// The homogeneous image (X, Y, Z, W) of the local point (x, y, 0, 1).
    func apply(x: Double, y: Double) -> (x: Double, y: Double, z: Double, w: Double) {
        (x * self[0, 0] + y * self[1, 0] + self[3, 0],
         x * self[0, 1] + y * self[1, 1] + self[3, 1],
         x * self[0, 2] + y * self[1, 2] + self[3, 2],
         x * self[0, 3] + y * self[1, 3] + self[3, 3])
    }

    /// The step from pixel space to clip space for a `width` x `height`
    /// target: (X, Y, Z, W) -> (2X/width - W, 2Y/height - W, 0, W). Depth is
    /// not used, so Z is flattened to 0 (inside every clip volume).
    static func pixelToClip(width: Int, height: Int) -> GLMatrix4 {
        GLMatrix4(trusted: [
            2 / Double(width), 0, 0, 0,
            0, 2 / Double(height), 0, 0,
            0, 0, 0, 0,
            -1, -1, 0, 1,
        ])
    }

    /// The values in the order `glUniformMatrix4fv` (without transpose) wants
    /// for GLSL's `matrix * column`: a row-vector matrix read column-major is
    /// its transpose, which is exactly the column-vector form.
    var uniformValues: [Float] { rowMajor.map(Float.init) }
}

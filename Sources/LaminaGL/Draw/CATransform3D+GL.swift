import Foundation
import LaminaRender

// The renderer's one 4x4 matrix, `CATransform3D`, as GL takes it. A draw's
// matrix maps its local 2D points [x y 0 1] to the target's pixel space
// homogeneously: (X, Y, Z, W), the pixel being (X/W, Y/W) with the origin at
// the top-left and y pointing down. LaminaGL never divides on the CPU; the
// GPU interpolates perspective-correctly.
extension CATransform3D {
    /// The step from pixel space to clip space for a `width` x `height`
    /// target: (X, Y, Z, W) -> (2X/width - W, 2Y/height - W, 0, W). Depth is
    /// not used, so Z is flattened to 0 (inside every clip volume).
    static func pixelToClip(width: Int, height: Int) -> CATransform3D {
        var m = CATransform3D.identity
        m.m11 = 2 / CGFloat(width); m.m22 = 2 / CGFloat(height); m.m33 = 0
        m.m41 = -1; m.m42 = -1
        return m
    }

    /// The values in the order `glUniformMatrix4fv` (without transpose) wants
    /// for GLSL's `matrix * column`: a row-vector matrix read column-major is
    /// its transpose, which is exactly the column-vector form.
    var uniformValues: [Float] { fields.map { Float($0) } }

    /// Throws unless every entry is finite (a painter's own check; the plan's
    /// matrices always pass it).
    func validateForDrawing() throws {
        guard fields.allSatisfy({ $0.isFinite }) else {
            throw GLError.invalidArgument("a 4x4 matrix has a value that is not finite: \(fields)")
        }
    }
}

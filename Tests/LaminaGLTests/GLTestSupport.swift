import LaminaRaster
import Foundation
import Testing
import LaminaRender
@testable import LaminaGL

/// Whether this machine can make an EGL context at all. GPU tests are
/// skipped (not failed) where it cannot; set LAMINA_REQUIRE_GL=1 to turn that
/// into a failure on machines that must have one.
enum GLTestSupport {
    /// Why no context could be made, or nil when one can.
    static let unavailableReason: String? = {
        do {
            _ = try GLContext()
            return nil
        } catch {
            return "\(error)"
        }
    }()

    static var isAvailable: Bool { unavailableReason == nil }

    /// Whether this run insists on a context (LAMINA_REQUIRE_GL=1).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GL"] == "1" }
}

@Test("an EGL context can be made where LAMINA_REQUIRE_GL=1 says one must", .enabled(if: GLTestSupport.isRequired))
func contextRequired() {
    #expect(GLTestSupport.unavailableReason == nil, "\(GLTestSupport.unavailableReason ?? "")")
}

/// A context and a painter, made on the calling test's thread.
struct GLFixture {
    let context: GLContext
    let painter: GLPainter

    init() throws {
        context = try GLContext()
        painter = try GLPainter(context: context)
    }

    func target(_ width: Int, _ height: Int, multisampled: Bool = false) throws -> GLRenderTarget {
        try GLRenderTarget(context: context, width: width, height: height, multisampled: multisampled)
    }
}

/// Premultiplied RGBA8 pixels read back from a target, top row first.
struct Pixels {
    let width: Int
    let height: Int
    let bytes: [UInt8]

    init(_ target: GLRenderTarget) throws {
        width = target.width
        height = target.height
        bytes = try target.readPixels()
    }

    subscript(x: Int, y: Int) -> [Int] {
        let start = (y * width + x) * 4
        return bytes[start..<start + 4].map(Int.init)
    }

    func alpha(_ x: Int, _ y: Int) -> Int { self[x, y][3] }
}

/// Matrices in Core Animation's row-vector convention, for building tests.
enum TestMatrix {
    static func make(_ values: [Double]) -> CATransform3D {
        let v = values.map { CGFloat($0) }
        return CATransform3D(m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6], m24: v[7],
                             m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13], m43: v[14], m44: v[15])
    }

    static func translation(_ x: Double, _ y: Double) -> CATransform3D {
        make([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, 0, 1])
    }

    static func scale(_ s: Double) -> CATransform3D {
        make([s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    /// CATransform3DMakeRotation(angle, 0, 1, 0).
    static func rotationY(_ angle: Double) -> CATransform3D {
        make([cos(angle), 0, -sin(angle), 0, 0, 1, 0, 0, sin(angle), 0, cos(angle), 0, 0, 0, 0, 1])
    }

    /// The book's perspective: m34 = -1 / distance.
    static func perspective(_ distance: Double) -> CATransform3D {
        make([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / distance, 0, 0, 0, 1])
    }

    /// Pixel position of local (x, y) through `matrix`.
    static func project(_ matrix: CATransform3D, _ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let p = matrix.apply(x: x, y: y)
        return (p.x / p.w, p.y / p.w)
    }
}

extension CGRect {
    static func square(_ x: Double, _ y: Double, _ size: Double) -> CGRect {
        CGRect(x: x, y: y, width: size, height: size)
    }

    /// The rect's corners, in order around it.
    var polygon: [CGPoint] {
        [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY)]
    }
}

extension RGBA {
    static let red = RGBA(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = RGBA(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = RGBA(red: 0, green: 0, blue: 1, alpha: 1)
}

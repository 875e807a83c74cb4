// Helpers shared by the LaminaCPU tests.
import Foundation
@testable import LaminaRaster
@testable import LaminaCore

/// A polygon as closed contour points.
func points(_ xy: [(Double, Double)]) -> [CGPoint] {
    xy.map { CGPoint(x: $0.0, y: $0.1) }
}

/// The coverage of pixel (x, y) as a fraction.
func fraction(_ mask: CoverageMask, _ x: Int, _ y: Int) -> Double {
    Double(mask.coverage(x: x, y: y)) / 255
}

/// The signed area of a closed polygon (shoelace).
func shoelaceArea(_ p: [CGPoint]) -> Double {
    var sum = 0.0
    for i in p.indices {
        let a = p[i], b = p[(i + 1) % p.count]
        sum += Double(a.x * b.y - b.x * a.y)
    }
    return sum / 2
}


// Helpers shared by the LaminaCPU tests.
import Foundation
@testable import LaminaCPU

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

/// A deterministic generator so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation

extension PathData {
    /// The smallest rectangle that holds every point of the path, control
    /// points included (`CGPath.boundingBox`); `CGRect.null` when empty.
    public var boundingBox: CGRect {
        var box = BoxAccumulator()
        for element in elements {
            element.forEachPoint { box.add($0) }
        }
        return box.rect
    }

    /// The smallest rectangle that holds the path itself: the end points of
    /// every element and the extreme points of every curve, but not control
    /// points that the curve does not reach (`CGPath.boundingBoxOfPath`);
    /// `CGRect.null` when empty.
    public var boundingBoxOfPath: CGRect {
        var box = BoxAccumulator()
        var current = CGPoint.zero
        for element in elements {
            switch element {
            case .moveTo(let p), .lineTo(let p):
                box.add(p)
                current = p
            case .quadCurveTo(let c, let p):
                box.add(p)
                for t in Bezier.quadExtrema(current.x, c.x, p.x) + Bezier.quadExtrema(current.y, c.y, p.y) {
                    box.add(Bezier.point(current, c, p, at: t))
                }
                current = p
            case .curveTo(let c1, let c2, let p):
                box.add(p)
                let ts = Bezier.cubicExtrema(current.x, c1.x, c2.x, p.x)
                    + Bezier.cubicExtrema(current.y, c1.y, c2.y, p.y)
                for t in ts { box.add(Bezier.point(current, c1, c2, p, at: t)) }
                current = p
            case .closeSubpath:
                break  // the closing segment ends at a point already counted
            }
        }
        return box.rect
    }
}

/// A running min/max over points.
package struct BoxAccumulator {
    package private(set) var minX = CGFloat.infinity, minY = CGFloat.infinity
    package private(set) var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity

    package init() {}

    /// The box of `points`, or nil when one of them is not finite (a NaN
    /// would be passed over by the comparisons, not held).
    ///
    /// Both coordinates at once, as one vector: the planner and the plan's
    /// validation take the box of every outline and contour they clip, a
    /// frame's worth of points. A point's `p - p` is 0 where it is finite
    /// and NaN where not, so one sum says whether all were.
    package init?(finite points: [CGPoint]) {
        let box: (low: SIMD2<Double>, high: SIMD2<Double>)? = points.withUnsafeBytes { bytes in
            var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
            var zeros = SIMD2<Double>.zero
            for offset in stride(from: 0, to: bytes.count, by: MemoryLayout<CGPoint>.stride) {
                let p = bytes.loadUnaligned(fromByteOffset: offset, as: SIMD2<Double>.self)
                // As `add`: a point replaces the bound it is beyond.
                low.replace(with: p, where: p .< low)
                high.replace(with: p, where: p .> high)
                zeros += p - p
            }
            return zeros == .zero ? (low, high) : nil
        }
        guard let box else { return nil }
        (minX, minY, maxX, maxY) = (CGFloat(box.low.x), CGFloat(box.low.y), CGFloat(box.high.x), CGFloat(box.high.y))
    }

    /// Whether no point was added.
    package var isEmpty: Bool { !(minX <= maxX) }

    package mutating func add(_ p: CGPoint) {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }

    /// The box, or `CGRect.null` when no point was added.
    package var rect: CGRect {
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

import Foundation

/// A plane `normal · p + offset >= 0` (its front side) in a scene's projected
/// space.
struct ScenePlane {
    var normal: SIMD3<Double>
    var offset: Double

    func distance(_ p: SIMD3<Double>) -> Double {
        normal.x * p.x + normal.y * p.y + normal.z * p.z + offset
    }

    var flipped: ScenePlane { ScenePlane(normal: -normal, offset: -offset) }
}

/// A convex polygon of a 3D scene: the projected outline of one scene item,
/// or a piece of it after splitting.
struct ScenePolygon {
    var points: [SIMD3<Double>]
    /// Index of the item it belongs to.
    var item: Int
    /// The half-spaces that cut this piece out of the whole item.
    var cuts: [ScenePlane] = []

    /// The polygon's plane by Newell's method, or nil when it has no area.
    var plane: ScenePlane? {
        var n = SIMD3<Double>(repeating: 0)
        var centroid = SIMD3<Double>(repeating: 0)
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            n.x += (a.y - b.y) * (a.z + b.z)
            n.y += (a.z - b.z) * (a.x + b.x)
            n.z += (a.x - b.x) * (a.y + b.y)
            centroid += a
        }
        // |n| is twice the area. A polygon seen (or made, by a singular
        // transform) edge-on has an area that is only rounding error next to
        // its size, and a normal pointing anywhere: it has no plane.
        let length = (n * n).sum().squareRoot()
        var size = 0.0
        for p in points { size = max(size, ((p - points[0]) * (p - points[0])).sum()) }
        guard length > 1e-12, length > 1e-9 * size else { return nil }
        n /= length
        centroid /= Double(points.count)
        return ScenePlane(normal: n, offset: -(n * centroid).sum())
    }
}

/// Orders the polygons of one 3D scene back to front for a viewer looking
/// down the -z axis from far away (the projected space after perspective
/// division, where Core Animation's larger z is nearer).
///
/// A BSP tree, as Chromium's compositor builds one: polygons that cut
/// through each other are split, so any arrangement, including cyclic
/// overlaps and intersecting planes, comes out right. Polygons in one plane
/// keep their input (sublayer) order.
enum DepthSorter {
    /// The polygons back to front.
    ///
    /// Splitting can multiply the polygons (planes cutting each other each
    /// cut every other), so the pieces are counted: past `budget` pieces the
    /// sort stops and throws `refusal()`. The tree is walked with a work list
    /// instead of recursion, so a scene of thousands of planes cannot
    /// overflow a thread's stack.
    static func backToFront(
        _ polygons: [ScenePolygon], budget: Int = .max, refusal: () -> RenderRefusal = { RenderRefusal(at: .root, "too many depth fragments") }
    ) throws(RenderRefusal) -> [ScenePolygon] {
        guard polygons.count > 1 else { return polygons }
        var scale = 1.0
        for p in polygons { for v in p.points { scale = max(scale, abs(v.x), abs(v.y), abs(v.z)) } }
        let epsilon = 1e-7 * scale
        var pieces = polygons.count
        guard pieces <= budget else { throw refusal() }

        enum Work { case sort([ScenePolygon]), emit([ScenePolygon]) }
        var out: [ScenePolygon] = []
        out.reserveCapacity(polygons.count)
        var work: [Work] = [.sort(polygons)]
        while let next = work.popLast() {
            guard case .sort(let polygons) = next else {
                if case .emit(let done) = next { out.append(contentsOf: done) }
                continue
            }
            guard polygons.count > 1,
                  let splitterIndex = polygons.firstIndex(where: { $0.plane != nil }),
                  let plane = polygons[splitterIndex].plane
            else {
                // One polygon, or nothing with area (all seen edge-on and
                // invisible): keep the order.
                out.append(contentsOf: polygons)
                continue
            }
            var front: [ScenePolygon] = [], back: [ScenePolygon] = [], coplanar: [ScenePolygon] = []
            for (index, polygon) in polygons.enumerated() {
                // The splitter lies in its own plane, whatever rounding says:
                // splitting it by itself would never end.
                if index == splitterIndex { coplanar.append(polygon); continue }
                // Which sides it reaches, without a list of distances: most
                // polygons lie wholly on one side and are never split.
                var hasFront = false, hasBack = false
                for point in polygon.points {
                    let distance = plane.distance(point)
                    hasFront = hasFront || distance > epsilon
                    hasBack = hasBack || distance < -epsilon
                }
                switch (hasFront, hasBack) {
                case (false, false): coplanar.append(polygon)
                case (true, false): front.append(polygon)
                case (false, true): back.append(polygon)
                case (true, true):
                    let (f, b) = split(polygon, distances: polygon.points.map(plane.distance), plane: plane)
                    if let f { front.append(f) }
                    if let b { back.append(b) }
                    if f != nil && b != nil {
                        pieces += 1
                        guard pieces <= budget else { throw refusal() }
                    }
                }
            }
            // The work list runs last-in first-out: push in reverse order.
            let (first, last) = plane.normal.z >= 0 ? (back, front) : (front, back)
            work.append(.sort(last))
            work.append(.emit(coplanar))
            work.append(.sort(first))
        }
        return out
    }

    /// The parts of a polygon on the front and back of a plane.
    private static func split(_ polygon: ScenePolygon, distances d: [Double], plane: ScenePlane) -> (ScenePolygon?, ScenePolygon?) {
        var front: [SIMD3<Double>] = [], back: [SIMD3<Double>] = []
        let n = polygon.points.count
        for i in 0..<n {
            let j = (i + 1) % n
            let a = polygon.points[i], b = polygon.points[j]
            if d[i] >= 0 { front.append(a) }
            if d[i] <= 0 { back.append(a) }
            if (d[i] > 0 && d[j] < 0) || (d[i] < 0 && d[j] > 0) {
                let t = d[i] / (d[i] - d[j])
                let p = a + (b - a) * t
                front.append(p)
                back.append(p)
            }
        }
        var f: ScenePolygon?, b: ScenePolygon?
        if front.count >= 3 {
            f = ScenePolygon(points: front, item: polygon.item, cuts: polygon.cuts + [plane])
        }
        if back.count >= 3 {
            b = ScenePolygon(points: back, item: polygon.item, cuts: polygon.cuts + [plane.flipped])
        }
        return (f, b)
    }
}

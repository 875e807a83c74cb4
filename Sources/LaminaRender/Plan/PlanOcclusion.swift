import Foundation
import LaminaCore
import LaminaRaster

// Occlusion: a draw that paints every pixel of its target opaque hides what
// its pass drew before it, as Chromium's cc culls the quads under an opaque
// one. A render server's scene mostly has one (the root's opaque background
// colour), and so has a Lottie file with a background rectangle: the draws
// under it are not drawn, and the target is not cleared for it (a canvas of
// a million pixels is 4 MB of zeros a frame).

extension RenderPlan {
    /// In each pass that makes its target anew, drops the commands before
    /// the last one that covers the target (`DrawCommand.coversOpaquely`)
    /// and marks the pass `firstDrawCovers`; then drops the passes of the
    /// surfaces only dropped commands sampled. The picture is the same to
    /// the byte: a covering draw leaves the same pixels over anything.
    mutating func dropOccludedCommands() {
        var dropped = false
        for p in passes.indices where !passes[p].continuesTarget {
            let size = self.size(of: passes[p].target)
            // By index: each draw asked in place, not copied out to be asked.
            var found: Int?
            for c in passes[p].commands.indices.reversed() where passes[p].commands[c].coversOpaquely(width: size.width, height: size.height) {
                found = c
                break
            }
            guard let cover = found else { continue }
            passes[p].firstDrawCovers = true
            if cover > 0 {
                passes[p].commands.removeFirst(cover)
                dropped = true
            }
        }
        if dropped { dropUnsampledSurfacePasses() }
    }

    /// Drops the passes of offscreen surfaces that no command samples, until
    /// none is left (a dropped pass may have been the one sampling another).
    private mutating func dropUnsampledSurfacePasses() {
        while true {
            var sampled = Set<Int>()
            for pass in passes {
                for c in pass.commands.indices {
                    for case .offscreen(let i) in pass.commands[c].sampledSurfaces { sampled.insert(i) }
                }
            }
            let before = passes.count
            passes.removeAll { pass in
                guard case .offscreen(let i) = pass.target else { return false }
                return !sampled.contains(i)
            }
            if passes.count == before { return }
        }
    }
}

extension DrawCommand {
    /// Whether the command paints every pixel of a `width` x `height` target
    /// opaque, whatever the pixel held: a polygon or a path filled with an
    /// opaque colour (or a gradient of opaque stops), source-over at full
    /// opacity, uncut, whose outline holds the whole target
    /// (`Self.fillsWhole`). What it leaves then does not depend on what was
    /// under it: source-over of an opaque pixel is the pixel.
    func coversOpaquely(width: Int, height: Int) -> Bool {
        switch self {
        case .polygon(let draw):
            draw.coversOpaquely(width: width, height: height)
        case .path(let draw):
            draw.coversOpaquely(width: width, height: height)
        case .blurMask, .filter, .backdrop:
            false
        }
    }

    /// The most points an outline tested for covering may have: a
    /// background's rectangle has four, eight once cut by a clip; a path of
    /// more is not one, and is not walked.
    static let coverTestPoints = 16

    /// Whether `contours`, mapped by `matrix` without perspective, fill the
    /// rectangle `0...width` x `0...height` once over: every edge runs along
    /// a side of the mapped points' box, so that the winding number is one
    /// number everywhere inside the box, and the area the contours enclose
    /// is the box's, so that this number is ±1 (which either fill rule
    /// fills); and the box holds the rectangle. A rectangle in any winding,
    /// with extra points along its sides, passes; a bow tie, a rectangle
    /// traced twice, a rotated square do not.
    static func fillsWhole(_ width: Int, _ height: Int, contours: some Collection<[CGPoint]>,
                           through matrix: CATransform3D) -> Bool {
        guard matrix.m14 == 0, matrix.m24 == 0, matrix.m44 == 1, contours.count <= coverTestPoints else { return false }
        let (a, b, c, d, tx, ty) = (matrix.m11, matrix.m12, matrix.m21, matrix.m22, matrix.m41, matrix.m42)
        @inline(__always) func mapped(_ p: CGPoint) -> CGPoint { CGPoint(x: p.x * a + p.y * c + tx, y: p.x * b + p.y * d + ty) }
        // The box first, nothing allocated: most draws do not hold the target.
        var points = 0
        var box = BoxAccumulator()
        for contour in contours {
            points += contour.count
            guard points <= coverTestPoints else { return false }
            for p in contour { box.add(mapped(p)) }
        }
        guard points > 0, box.minX <= 0, box.minY <= 0, box.maxX >= Double(width), box.maxY >= Double(height),
              box.maxX.isFinite, box.maxY.isFinite, box.minX.isFinite, box.minY.isFinite
        else { return false }
        // Along a side to within a millionth of a pixel: a pixel it leaves
        // out loses that much coverage, far less than a step of 1/255.
        let tolerance = 1e-6
        func onSide(_ p: CGPoint, _ q: CGPoint) -> Bool {
            (abs(p.x - box.minX) <= tolerance && abs(q.x - box.minX) <= tolerance)
                || (abs(p.x - box.maxX) <= tolerance && abs(q.x - box.maxX) <= tolerance)
                || (abs(p.y - box.minY) <= tolerance && abs(q.y - box.minY) <= tolerance)
                || (abs(p.y - box.maxY) <= tolerance && abs(q.y - box.maxY) <= tolerance)
        }
        var twiceArea = 0.0
        for contour in contours where !contour.isEmpty {
            var previous = mapped(contour[contour.count - 1])
            for p in contour {
                let point = mapped(p)
                guard onSide(previous, point) else { return false }
                twiceArea += previous.x * point.y - point.x * previous.y
                previous = point
            }
        }
        let boxArea = (box.maxX - box.minX) * (box.maxY - box.minY)
        return abs(abs(twiceArea / 2) - boxArea) <= boxArea * 1e-9
    }
}

extension PolygonDraw {
    /// `DrawCommand.coversOpaquely` for a polygon.
    func coversOpaquely(width: Int, height: Int) -> Bool {
        guard blend == .normal, opacity >= 1, coverage == nil, cuts.isEmpty, mask == nil, fill.isOpaque else { return false }
        return DrawCommand.fillsWhole(width, height, contours: CollectionOfOne(polygon), through: matrix)
    }
}

extension PathFillDraw {
    /// `DrawCommand.coversOpaquely` for a path.
    func coversOpaquely(width: Int, height: Int) -> Bool {
        guard color.alpha >= 1, cuts.isEmpty, clipPlanes.isEmpty, mask == nil else { return false }
        return DrawCommand.fillsWhole(width, height, contours: contours, through: matrix)
    }
}

extension PolygonFill {

    /// Whether every pixel the fill paints is opaque: a colour of alpha 1,
    /// or a gradient whose every stop is (a pixel's colour lies between
    /// two stops, or is the first's or the last's).
    var isOpaque: Bool {
        switch self {
        case .color(let color): color.alpha >= 1
        case .gradient(let gradient): !gradient.stops.isEmpty && gradient.stops.allSatisfy { $0.color.3 >= 1 }
        case .texture, .alphaTint, .masked: false
        }
    }
}

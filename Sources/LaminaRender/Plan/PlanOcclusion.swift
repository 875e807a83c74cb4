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
            guard let cover = passes[p].commands.lastIndex(where: { $0.coversOpaquely(width: size.width, height: size.height) })
            else { continue }
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
            guard draw.blend == .normal, draw.opacity >= 1, draw.coverage == nil, draw.cuts.isEmpty, draw.fill.isOpaque
            else { return false }
            return Self.fillsWhole(width, height, contours: CollectionOfOne(draw.polygon), through: draw.matrix)
        case .path(let draw):
            guard draw.color.alpha >= 1, draw.cuts.isEmpty, draw.clipPlanes.isEmpty else { return false }
            return Self.fillsWhole(width, height, contours: draw.contours, through: draw.matrix)
        case .blurMask, .filter, .backdrop:
            return false
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
        guard matrix.m14 == 0, matrix.m24 == 0, matrix.m44 == 1,
              contours.count <= coverTestPoints,
              contours.reduce(0, { $0 + $1.count }) <= coverTestPoints
        else { return false }
        let mapped = contours.map { contour in
            contour.map { p in
                CGPoint(x: p.x * matrix.m11 + p.y * matrix.m21 + matrix.m41, y: p.x * matrix.m12 + p.y * matrix.m22 + matrix.m42)
            }
        }
        guard let box = BoxAccumulator(finite: Array(mapped.joined()))?.rect,
              box.minX <= 0, box.minY <= 0, box.maxX >= Double(width), box.maxY >= Double(height)
        else { return false }
        // Along a side to within a millionth of a pixel: a pixel it leaves
        // out loses that much coverage, far less than a step of 1/255.
        let tolerance = 1e-6
        func onSide(_ a: CGPoint, _ b: CGPoint) -> Bool {
            (abs(a.x - box.minX) <= tolerance && abs(b.x - box.minX) <= tolerance)
                || (abs(a.x - box.maxX) <= tolerance && abs(b.x - box.maxX) <= tolerance)
                || (abs(a.y - box.minY) <= tolerance && abs(b.y - box.minY) <= tolerance)
                || (abs(a.y - box.maxY) <= tolerance && abs(b.y - box.maxY) <= tolerance)
        }
        var twiceArea = 0.0
        for contour in mapped where !contour.isEmpty {
            var previous = contour[contour.count - 1]
            for point in contour {
                guard onSide(previous, point) else { return false }
                twiceArea += previous.x * point.y - point.x * previous.y
                previous = point
            }
        }
        let boxArea = box.width * box.height
        return abs(abs(twiceArea / 2) - boxArea) <= boxArea * 1e-9
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

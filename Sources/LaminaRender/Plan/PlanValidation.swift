import Foundation
import LaminaCore
import LaminaRaster

/// The promise a plan makes its backends, kept in one place.
///
/// A backend checks its inputs and refuses what it cannot draw (a vertex
/// behind the eye, a texture over a rect of zero width, a coordinate beyond
/// what its rasterizer takes), and those refusals speak of its internals.
/// A scene can produce such draws honestly: a layer seen exactly edge-on, a
/// picture squeezed to nothing, numbers so large that a product overflows.
/// Each of these draws shows nothing, so the planner drops it here, and no
/// backend ever sees what it would have to refuse: what `validate` accepts,
/// every backend renders.
extension RenderPlan {
    /// The largest pixel coordinate a drawn vertex may have: far beyond any
    /// target (the planner cuts geometry to the target plus a guard band),
    /// well within what every rasterizer takes.
    static let coordinateLimit = 1e9

    /// Removes every draw that cannot show anything, and keeps blur radii
    /// within their surfaces.
    mutating func removeUndrawableCommands() {
        for p in passes.indices {
            let size = self.size(of: passes[p].target)
            // In place: each command kept is written over the first free
            // slot (a new list, grown as it was filled, copied every
            // command of a frame twice).
            let count = passes[p].commands.count
            var kept = 0
            for i in 0..<count {
                guard let command = Self.drawable(passes[p].commands[i], targetSize: size) else { continue }
                passes[p].commands[kept] = command
                kept += 1
            }
            passes[p].commands.removeLast(count - kept)
        }
    }

    /// A masked draw's mask path as the backends may draw it (clipped); nil
    /// when it shows nothing, and nothing of the draw then shows either.
    private static func drawable(mask: PathFillDraw) -> Indirect<PathFillDraw>? {
        guard let shown = mask.clippedIfDrawable(), shown.color.alpha > 0 else { return nil }
        return Indirect(shown)
    }

    /// `command` as the backends may draw it (clamped, clipped, its blurs
    /// within a target of `size`), or nil when it cannot show anything.
    private static func drawable(_ command: DrawCommand, targetSize size: (width: Int, height: Int)) -> DrawCommand? {
        switch command {
        case .polygon(let draw):
            guard draw.isDrawable else { return nil }
            var clamped = draw.clamped
            if let mask = draw.mask?.value {
                guard let shown = drawable(mask: mask) else { return nil }
                clamped.mask = shown
            }
            return .polygon(clamped)
        case .path(let draw):
            // Clipped once, here: the backends then find no planes
            // left to clip by (`clippedContours` is the contours).
            guard var clipped = draw.clippedIfDrawable() else { return nil }
            if let mask = draw.mask?.value {
                guard let shown = drawable(mask: mask) else { return nil }
                clipped.mask = shown
            }
            return .path(clipped)
        case .blurMask(let source, let blur):
            // The planner pads a shadow's surface by the kernel's
            // reach (3 sigma) on each side, so its sigma is at most
            // a sixth of the surface's side; a plan asking for more
            // would make a backend blur (and hold) many times the
            // surface. A non-finite sigma is no blur at all.
            let sigma = blur.sigma
            guard sigma.isFinite, sigma > 0 else { return .blurMask(source: source, blur: BlurMethod(sigma: 0)) }
            let limit = Double(max(size.width, size.height, 1)) / 6
            return sigma <= limit ? command : .blurMask(source: source, blur: BlurMethod(sigma: limit))
        case .filter(let source, .blur(let blur)):
            // As a shadow's: the planner pads a filtered surface by 3 sigma.
            let sigma = blur.sigma
            guard sigma.isFinite, sigma > 0 else { return .filter(source: source, .blur(BlurMethod(sigma: 0))) }
            let limit = Double(max(size.width, size.height, 1)) / 6
            return sigma <= limit ? command : .filter(source: source, .blur(BlurMethod(sigma: limit)))
        case .filter(_, .colorMatrix(let matrix)):
            return matrix.values.allSatisfy(\.isFinite) ? command : nil
        case .backdrop(var backdrop):
            // Its blurs within its region, as a filtered surface's; a
            // matrix that is not finite is no filter.
            guard backdrop.draw.isDrawable else { return nil }
            backdrop.draw = backdrop.draw.clamped
            let limit = Double(max(backdrop.region.width, backdrop.region.height, 1)) / 6
            backdrop.filters = backdrop.filters.compactMap { step in
                switch step.filter {
                case .blur(let blur):
                    let sigma = blur.sigma.isFinite ? min(max(blur.sigma, 0), limit) : 0
                    return (step.surface, .blur(BlurMethod(sigma: sigma)))
                case .colorMatrix(let matrix):
                    return matrix.values.allSatisfy(\.isFinite) ? step : nil
                }
            }
            // The draw samples the last surface left.
            if case .texture(_, let rect, let uv, let filter, let tint) = backdrop.draw.fill {
                backdrop.draw.fill = .texture(.surface(.offscreen(backdrop.result)), localRect: rect, uvRect: uv, filter: filter, tint: tint)
            }
            return .backdrop(backdrop)
        }
    }
}

extension CATransform3D {
    /// Whether every point is drawable (`drawablePoint`). For an affine
    /// matrix (no perspective, so w is 1 everywhere) the images of the
    /// points' bounding box corners bound every point's image, so four
    /// points are mapped instead of all: paths have thousands.
    func allDrawable(_ points: [CGPoint]) -> Bool {
        guard m14 == 0, m24 == 0, m44 == 1 else { return points.allSatisfy { drawablePoint($0) != nil } }
        guard let box = BoxAccumulator(finite: points) else { return false }
        guard !box.isEmpty else { return true }  // no points
        return cornersDrawable(box.minX, box.minY, box.maxX, box.maxY)
    }

    /// Whether every point of `box` is drawable, known from its corners when
    /// the matrix is affine in the plane (it maps the box to a
    /// parallelogram, whose corners are its extremes); false when it is not.
    func allDrawable(inAffine box: CGRect) -> Bool {
        guard m14 == 0, m24 == 0, m44 == 1, !box.isNull else { return false }
        return cornersDrawable(box.minX, box.minY, box.maxX, box.maxY)
    }

    private func cornersDrawable(_ minX: CGFloat, _ minY: CGFloat, _ maxX: CGFloat, _ maxY: CGFloat) -> Bool {
        drawablePoint(CGPoint(x: minX, y: minY)) != nil && drawablePoint(CGPoint(x: maxX, y: minY)) != nil
            && drawablePoint(CGPoint(x: minX, y: maxY)) != nil && drawablePoint(CGPoint(x: maxX, y: maxY)) != nil
    }

    /// `p` in target pixels, if it lies in front of the eye and within the
    /// coordinate limit.
    func drawablePoint(_ p: CGPoint) -> CGPoint? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        let h = apply(x: p.x, y: p.y)
        let w = Double(h.w)
        guard w > 0 else { return nil }
        let x = Double(h.x) / w, y = Double(h.y) / w
        guard abs(x) <= RenderPlan.coordinateLimit, abs(y) <= RenderPlan.coordinateLimit else { return nil }
        return CGPoint(x: x, y: y)
    }
}

extension PolygonDraw {
    /// At least a triangle, every vertex drawable, finite cuts that leave
    /// something of it, a texture rect of non-zero finite size, and a finite
    /// opacity.
    var isDrawable: Bool {
        guard polygon.count >= 3, matrix.isFinite, opacity.isFinite, matrix.allDrawable(polygon),
              cuts.allSatisfy(\.isFinite), !piecePolygon.isEmpty
        else { return false }
        switch fill {
        case .color(let c):
            return c.isFinite
        case .texture(_, let local, let uv, _, let tint):
            return local.isMappable(showing: uv) && tint.isFinite
        case .alphaTint(_, let local, let color):
            return local.isMappable(showing: .unit) && color.isFinite
        case .masked(_, _, let local, _):
            return local.isMappable(showing: .unit)
        case .gradient(let g):
            return g.isFinite
        }
    }
}

extension PathFillDraw {
    /// The draw with its contours cut by its clip planes and no planes left,
    /// when the matrix and colour are finite and every vertex of the clipped
    /// contours is drawable; nil otherwise.
    func clippedIfDrawable() -> PathFillDraw? {
        guard matrix.isFinite, color.isFinite, cuts.allSatisfy(\.isFinite) else { return nil }
        // The usual draw: its box known, within every plane and cut (each
        // contour then is: the clippers keep it as it is) and drawable at its
        // corners under an affine matrix (every point between them then is).
        if let box = bounds, contours.allSatisfy({ $0.count >= 3 }), clipPlanes.allSatisfy({ $0.holds(box) }),
           cuts.allSatisfy({ $0.holds(box) }), matrix.allDrawable(inAffine: box) {
            var draw = self
            draw.clipPlanes = []
            draw.color = color.clamped
            return draw
        }
        let contours = clippedContours
        guard contours.allSatisfy({ matrix.allDrawable($0) }) else { return nil }
        let draw = PathFillDraw(matrix: matrix, contours: contours, evenOdd: evenOdd, color: color.clamped, cuts: cuts)
        return draw.pieceContours.isEmpty ? nil : draw
    }
}

extension PolygonDraw {
    /// Opacity and colours within 0...1: decided here, so that no backend
    /// clamps (or forgets to).
    var clamped: PolygonDraw {
        var d = self
        d.opacity = min(1, max(0, opacity))
        switch fill {
        case .color(let c): d.fill = .color(c.clamped)
        case .texture(let t, let local, let uv, let filter, let tint): d.fill = .texture(t, localRect: local, uvRect: uv, filter: filter, tint: tint.clamped)
        case .alphaTint(let t, let local, let color): d.fill = .alphaTint(t, localRect: local, color: color.clamped)
        case .masked: break
        case .gradient(let g): d.fill = .gradient(g.clamped)
        }
        return d
    }
}

extension HalfPlane {
    var isFinite: Bool { a.isFinite && b.isFinite && c.isFinite }
}

extension RGBA {
    var isFinite: Bool { red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite }
    /// Every component within 0...1.
    var clamped: RGBA {
        func c(_ v: Double) -> Double { min(1, max(0, v)) }
        return RGBA(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }
}

extension CGRect {
    static let unit = CGRect(x: 0, y: 0, width: 1, height: 1)

    /// Whether a texture's `uv` rect can be mapped over this local rect:
    /// the affine map from local units to texels of the largest texture
    /// (2^16 texels a side, with room) is finite both ways.
    func isMappable(showing uv: CGRect) -> Bool {
        let texels = 65536.0
        let (lx, ly, lw, lh) = (Double(origin.x), Double(origin.y), Double(size.width), Double(size.height))
        let (ux, uy, uw, uh) = (Double(uv.origin.x), Double(uv.origin.y), Double(uv.size.width), Double(uv.size.height))
        guard lw != 0, lh != 0 else { return false }
        let sx = uw / lw * texels, sy = uh / lh * texels
        let ox = ux * texels - lx * sx, oy = uy * texels - ly * sy
        // Not an array of them: this is asked for every textured draw.
        return lx.isFinite && ly.isFinite && lw.isFinite && lh.isFinite
            && sx.isFinite && sy.isFinite && ox.isFinite && oy.isFinite
    }
}

extension RenderPlan {
    /// About the most bytes a backend holds while drawing this plan: the
    /// output (and its copy as a picture), the surfaces alive at once, the
    /// images (and their copies as textures), and a blur's scratch over the
    /// largest blurred surface (the picture grown by the kernel's reach, at
    /// most twice as wide and tall, and a row pass in floats).
    public var estimatedPeakBytes: Int {
        let canvas = Double(width) * Double(height)
        let images = self.images.reduce(0.0) { $0 + Double($1.width) * Double($1.height) }
        var blurred = 0.0
        for pass in passes {
            // (By index: each draw asked where it lies, not copied out.)
            for c in pass.commands.indices {
                switch pass.commands[c] {
                case .blurMask(.offscreen(let i), _) where surfaces.indices.contains(i):
                    blurred = max(blurred, Double(surfaces[i].pixelCount))
                // A colour blur holds four channels' floats.
                case .filter(.offscreen(let i), .blur) where surfaces.indices.contains(i):
                    blurred = max(blurred, 4 * Double(surfaces[i].pixelCount))
                default:
                    continue
                }
            }
        }
        let bytes = 4 * (2 * canvas + 2 * Double(peakSurfacePixels) + 2 * images) + 48 * blurred
        return Int(saturating: bytes)
    }

    /// Refuses the frame when the process cannot get `estimatedPeakBytes` of
    /// memory now (an address-space limit, `ulimit -v`, is reached): a
    /// failed allocation halfway through drawing would end the process.
    /// Maps that much address space and gives it straight back; the pages
    /// are never touched. (A `malloc` and `free` of a block nobody uses is
    /// removed by the optimizer: in a release build that check passed
    /// always, and the frame's real allocation then ended the process.)
    public func checkMemoryAvailable() throws(RenderRefusal) {
        let bytes = estimatedPeakBytes
        guard bytes > 1 << 24 else { return }
        let block = mmap(nil, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let block, block != MAP_FAILED else {
            throw RenderRefusal(at: .root, "drawing this frame needs about \(bytes >> 20) MB of memory, which this process cannot get now")
        }
        munmap(block, bytes)
    }
}

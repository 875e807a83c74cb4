import Foundation
import Testing
import LaminaRender
@testable import LaminaCPU
@testable import LaminaRaster
@testable import LaminaCore

/// A five-pointed star centred at (30, 24), 22 points to its tips: a
/// concave outline with straight sides.
private func fivePointedStar() -> CGPath {
    let path = CGMutablePath()
    path.addLines(between: (0..<10).map { i in
        let angle = Double(i) * .pi / 5, radius = i % 2 == 0 ? 22.0 : 9.0
        return CGPoint(x: 30 + radius * sin(angle), y: 24 - radius * cos(angle))
    })
    path.closeSubpath()
    return path
}

/// A gradient layer filling `frame`, opaque red to translucent blue from
/// `start` to `end` (unit coordinates).
private func redToBlue(in frame: CGRect, from start: CGPoint, to end: CGPoint) -> CAGradientLayer {
    let gradient = CAGradientLayer()
    gradient.frame = frame
    gradient.colors = [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1), CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.7)]
    gradient.startPoint = start
    gradient.endPoint = end
    return gradient
}

/// A layer of `size` centred at `center` in its superlayer.
private func layer(_ size: CGSize, at center: CGPoint, color: RGBA?, transform: CATransform3D = .identity) -> RenderLayer {
    var l = RenderLayer()
    l.bounds = CGRect(origin: .zero, size: size)
    l.transformToSuperlayer = CATransform3D(translationX: -size.width / 2, y: -size.height / 2, z: 0)
        .concatenating(transform)
        .concatenating(CATransform3D(translationX: center.x, y: center.y, z: 0))
    l.backgroundColor = color
    return l
}

private func render(_ sublayers: [RenderLayer], size: Int = 40, background: RGBA? = .white) throws -> CGImage {
    var root = layer(CGSize(width: size, height: size), at: CGPoint(x: size / 2, y: size / 2), color: background)
    root.sublayers = sublayers
    let plan = try RenderPlanner().plan(root, canvas: RenderCanvas(width: Double(size), height: Double(size)))
    return try CPURenderer().render(plan)
}

private func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.pixelBytes[i..<i + 4])
}

@Suite("CPU renderer")
struct CPURendererTests {
    /// A frame past its deadline, or abandoned, stops before drawing and
    /// says why; the same renderer then draws the next frame whole.
    @Test func aFramePastItsDeadlineStops() throws {
        var root = layer(CGSize(width: 40, height: 40), at: CGPoint(x: 20, y: 20), color: .white)
        root.sublayers = [layer(CGSize(width: 10, height: 10), at: CGPoint(x: 20, y: 20), color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))]
        let plan = try RenderPlanner().plan(root, canvas: RenderCanvas(width: 40, height: 40))
        let renderer = CPURenderer()
        #expect(throws: RenderInterruption.deadlinePassed) {
            try renderer.render(plan, deadline: RenderDeadline(.now - .seconds(1)))
        }
        #expect(throws: RenderInterruption.abandoned) {
            try renderer.render(plan, deadline: RenderDeadline(.now + .seconds(60), isAbandoned: { true }))
        }
        let image = try renderer.render(plan, deadline: RenderDeadline(.now + .seconds(60)))
        #expect(rgba(image, 20, 20) == [255, 0, 0, 255])
    }

    @Test func drawsAFlatLayerWhereItBelongs() throws {
        let image = try render([layer(CGSize(width: 10, height: 10), at: CGPoint(x: 20, y: 20), color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))])
        #expect(rgba(image, 20, 20) == [255, 0, 0, 255])
        #expect(rgba(image, 15, 15) == [255, 0, 0, 255])
        #expect(rgba(image, 14, 14) == [255, 255, 255, 255])
        #expect(rgba(image, 25, 25) == [255, 255, 255, 255])
    }

    @Test func groupOpacityDoesNotShowTheOverlap() throws {
        var parent = layer(CGSize(width: 20, height: 20), at: CGPoint(x: 20, y: 20), color: RGBA(red: 0, green: 0, blue: 1, alpha: 1))
        parent.opacity = 0.5
        parent.sublayers = [layer(CGSize(width: 10, height: 10), at: CGPoint(x: 10, y: 10), color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))]
        let image = try render([parent], background: nil)
        // The red sublayer hides the blue background inside the group; the
        // group is then half transparent: premultiplied red at half alpha.
        let centre = rgba(image, 20, 20)
        #expect(abs(Int(centre[0]) - 128) <= 1 && centre[2] == 0 && abs(Int(centre[3]) - 128) <= 1)
        let edge = rgba(image, 12, 12)
        #expect(edge[0] == 0 && abs(Int(edge[2]) - 128) <= 1)
    }

    @Test func roundedMasksToBoundsClipsSublayers() throws {
        var parent = layer(CGSize(width: 30, height: 30), at: CGPoint(x: 20, y: 20), color: nil)
        parent.masksToBounds = true
        parent.cornerRadii = CornerRadii(uniform: 10)
        parent.sublayers = [layer(CGSize(width: 40, height: 40), at: CGPoint(x: 15, y: 15), color: RGBA(red: 0, green: 1, blue: 0, alpha: 1))]
        let image = try render([parent], background: nil)
        #expect(rgba(image, 20, 20) == [0, 255, 0, 255])
        // Outside the bounds and inside a rounded corner: nothing.
        #expect(rgba(image, 2, 20)[3] == 0)
        #expect(rgba(image, 6, 6)[3] == 0)
    }

    @Test func perspectiveShrinksTheFarEdge() throws {
        var t = CATransform3D.identity
        t.m34 = -1.0 / 50
        t = CATransform3DRotate(t, .pi / 4, 0, 1, 0)
        let image = try render([layer(CGSize(width: 20, height: 20), at: CGPoint(x: 20, y: 20), color: .black, transform: t)])
        // Column heights: the edge that turned away (+x) is shorter than the near one.
        func height(_ x: Int) -> Int { (0..<40).filter { rgba(image, x, $0)[0] < 128 }.count }
        let xs = (0..<40).filter { height($0) > 0 }
        let near = height(xs.first!), far = height(xs.last!)
        #expect(near > far)
    }

    @Test func shadowFallsBelowTheLayer() throws {
        var l = layer(CGSize(width: 10, height: 10), at: CGPoint(x: 20, y: 20), color: RGBA(red: 1, green: 1, blue: 1, alpha: 1))
        l.shadow = RenderShadow(color: .black, opacity: 1, offset: CGSize(width: 0, height: 8), radius: 1)
        let image = try render([l], background: nil)
        #expect(rgba(image, 20, 20) == [255, 255, 255, 255])
        #expect(rgba(image, 20, 31)[3] > 200 && rgba(image, 20, 31)[0] == 0)
        #expect(rgba(image, 20, 9)[3] < 10)
    }
}

/// A solid under a mask that is one fill (a Lottie solid with a mask, a
/// matte) is drawn as the mask's shape filled with the solid's colour, cut
/// by the solid's edges: no surface, and the picture the two surfaces and
/// the masked composite give.
@Suite struct MaskedSolidTests {
    /// As Lottie builds it: a layer holding a solid's colour layer, masked
    /// by a container holding a shape layer; `rounded` gives the solid a
    /// radius too small to see, which keeps the surfaces.
    static func scene(solidFrame: CGRect, alpha: Float = 1, rounded: Bool = false, inverted: Bool = false) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let holder = CALayer()
        holder.frame = root.bounds
        let solid = CALayer()
        solid.frame = solidFrame
        solid.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)
        solid.opacity = alpha
        if rounded { solid.cornerRadius = 1e-6 }
        holder.addSublayer(solid)
        let container = CALayer(), star = CAShapeLayer()
        star.path = fivePointedStar()
        star.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.9)
        star.opacity = 0.75
        container.addSublayer(star)
        holder.mask = container
        holder.invertsMask = inverted
        root.addSublayer(holder)
        return root
    }

    static func plan(_ root: CALayer) throws -> RenderPlan {
        try RenderPlanner().plan(RenderLayer(snapshotOf: root), canvas: RenderCanvas(width: 64, height: 48, scale: 2))
    }

    @Test(arguments: [CGRect(x: 0, y: 0, width: 64, height: 48), CGRect(x: 12.5, y: 6.25, width: 30, height: 20)])
    func aMaskedSolidIsItsMasksShapeInItsColour(solidFrame: CGRect) throws {
        let direct = try Self.plan(Self.scene(solidFrame: solidFrame, alpha: 0.6))
        #expect(direct.surfaces.isEmpty)
        let surfaces = try Self.plan(Self.scene(solidFrame: solidFrame, alpha: 0.6, rounded: true))
        #expect(surfaces.surfaces.count >= 2)
        let a = try CPURenderer().render(direct).pixelBytes, b = try CPURenderer().render(surfaces).pixelBytes
        #expect(a.contains { $0 != 0 })
        // The same to a level or two, but where an edge of the solid and
        // one of the shape cross the same pixel: there the mask multiplies
        // two coverages, the cut shape covers their common area.
        var crossings = 0
        for i in stride(from: 0, to: a.count, by: 4) {
            let worst = (0..<4).map { abs(Int(a[i + $0]) - Int(b[i + $0])) }.max()!
            if worst > 2 { crossings += 1 }
            #expect(worst <= 24, "pixel \(i / 4) differs by \(worst)")
        }
        #expect(crossings <= 12, "\(crossings) pixels differ by more than 2")
        if solidFrame == CGRect(x: 0, y: 0, width: 64, height: 48) { #expect(crossings == 0) }
    }

    @Test func anInvertedMaskKeepsItsSurfaces() throws {
        let plan = try Self.plan(Self.scene(solidFrame: CGRect(x: 0, y: 0, width: 64, height: 48), inverted: true))
        #expect(plan.surfaces.count >= 2)
    }
}

/// A layer under a mask that is one opaque convex polygon (a Lottie
/// rectangle mask; lottie-ios masks every gradient with its shape), its
/// draws apart, is cut by the polygon's sides as square bounds cut: no
/// surface, and the picture the two surfaces and the masked composite give.
/// Draws that overlap are masked together, as are translucent, inverted
/// and concave masks.
@Suite struct ConvexMaskTests {
    /// A gradient (and, with `dot`, a shape over it) masked by a turned
    /// quadrilateral: `bulge` bends one side by a ten-millionth of a point
    /// (a curve: the surfaces stay), `alpha` and `inverted` set the mask's.
    static func scene(dot: Bool = false, bulge: Bool = false, alpha: CGFloat = 1, inverted: Bool = false, concave: Bool = false) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let holder = CALayer()
        holder.frame = root.bounds
        holder.addSublayer(redToBlue(in: holder.bounds, from: CGPoint(x: 0, y: 0.2), to: CGPoint(x: 1, y: 0.8)))
        if dot {
            let shape = CAShapeLayer()
            shape.path = CGPath(ellipseIn: CGRect(x: 30, y: 4, width: 30, height: 30), transform: nil)
            shape.fillColor = CGColor(red: 0.1, green: 0.8, blue: 0.2, alpha: 0.9)
            holder.addSublayer(shape)
        }
        let container = CALayer(), shape = CAShapeLayer()
        container.frame = CGRect(x: 2.25, y: 1.5, width: 60, height: 44)
        let path = CGMutablePath()
        let corners = concave
            ? [CGPoint(x: 3.3, y: 2.1), CGPoint(x: 50.6, y: 8.4), CGPoint(x: 20, y: 20), CGPoint(x: 44.2, y: 40.7), CGPoint(x: 7.9, y: 33.2)]
            : [CGPoint(x: 3.3, y: 2.1), CGPoint(x: 50.6, y: 8.4), CGPoint(x: 44.2, y: 40.7), CGPoint(x: 7.9, y: 33.2)]
        path.move(to: corners[0])
        for (i, corner) in corners.enumerated().dropFirst() {
            if bulge && i == 2 {
                let from = corners[1]
                path.addQuadCurve(to: corner, control: CGPoint(x: (from.x + corner.x) / 2 + 1e-7, y: (from.y + corner.y) / 2))
            } else {
                path.addLine(to: corner)
            }
        }
        path.closeSubpath()
        shape.path = path
        shape.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: alpha)
        container.addSublayer(shape)
        holder.mask = container
        holder.invertsMask = inverted
        root.addSublayer(holder)
        return root
    }

    @Test func aConvexMaskCutsAsClipPlanes() throws {
        let direct = try MaskedSolidTests.plan(Self.scene())
        #expect(direct.surfaces.isEmpty)
        let surfaces = try MaskedSolidTests.plan(Self.scene(bulge: true))
        #expect(surfaces.surfaces.count >= 2)
        let a = try CPURenderer().render(direct).pixelBytes, b = try CPURenderer().render(surfaces).pixelBytes
        #expect(a.contains { $0 != 0 } && a.contains { $0 == 0 })
        // The same to a level or two: the composite rounds twice.
        var worst = 0
        for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        #expect(worst <= 2)
    }

    @Test(arguments: [(1.0, false, false, true), (0.5, false, false, false), (1, true, false, false), (1, false, true, false)])
    func overlappingDrawsOrATranslucentInvertedOrConcaveMaskKeepTheSurfaces(alpha: Double, inverted: Bool, concave: Bool, dot: Bool) throws {
        let plan = try MaskedSolidTests.plan(Self.scene(dot: dot, alpha: CGFloat(alpha), inverted: inverted, concave: concave))
        #expect(plan.surfaces.count >= 2)
    }
}

/// A layer covering the canvas opaquely: the draws under it are dropped and
/// the canvas is not cleared for it, and the picture is the same bytes.
@Suite struct OcclusionPictureTests {
    enum Cover: CaseIterable { case backgroundColor, gradient, shape }

    static func scene(_ cover: Cover) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let dot = CAShapeLayer()
        dot.path = CGPath(ellipseIn: CGRect(x: 10, y: 4, width: 30, height: 30), transform: nil)
        dot.fillColor = CGColor(red: 0.1, green: 0.8, blue: 0.2, alpha: 0.5)
        root.addSublayer(dot)
        let top: CALayer
        switch cover {
        case .backgroundColor:
            top = CALayer()
            top.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        case .gradient:
            let gradient = CAGradientLayer()
            gradient.colors = [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1), CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)]
            top = gradient
        case .shape:
            let shape = CAShapeLayer()
            shape.path = CGPath(rect: CGRect(x: -3, y: -3, width: 70, height: 54), transform: nil)
            shape.fillColor = CGColor(red: 0.6, green: 0.5, blue: 0.1, alpha: 1)
            top = shape
        }
        top.frame = root.bounds
        root.addSublayer(top)
        // Over the cover: drawn as ever.
        let over = CAShapeLayer()
        over.path = CGPath(ellipseIn: CGRect(x: 30, y: 10, width: 20, height: 25), transform: nil)
        over.fillColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.6)
        root.addSublayer(over)
        return root
    }

    @Test(arguments: Cover.allCases)
    func aCoveredCanvasIsNotClearedAndDrawsTheSameBytes(cover: Cover) throws {
        // At 4x: a canvas large enough for the pool to keep its pixels.
        let plan = try RenderPlanner().plan(RenderLayer(snapshotOf: Self.scene(cover)), canvas: RenderCanvas(width: 64, height: 48, scale: 4))
        #expect(plan.passes.count == 1)
        #expect(plan.passes[0].firstDrawCovers)
        #expect(plan.passes[0].commands.count == 2)
        var cleared = plan
        cleared.passes[0].firstDrawCovers = false
        let expected = try CPURenderer().render(cleared).pixelBytes
        // Buffers of the canvas's size full of bytes no picture has, for
        // the covered canvas to be taken from.
        for _ in 0..<4 { BufferPool.pixels.giveBack([UInt8](repeating: 0xA7, count: expected.count)) }
        let drawn = try CPURenderer().render(plan).pixelBytes
        #expect(drawn == expected)
        #expect(Set(expected).count > 2)
        // The test can fail: a first draw that does not cover lets those bytes through.
        var leaky = plan
        leaky.passes[0].commands.removeFirst()
        for _ in 0..<4 { BufferPool.pixels.giveBack([UInt8](repeating: 0xA7, count: expected.count)) }
        #expect(try CPURenderer().render(leaky).pixelBytes.contains(0xA7))
    }
}

/// A layer whose one path is masked by a mask of one path (a Lottie shape
/// under a track matte or a mask) is one path fill through the mask's
/// coverage where the backend draws those (`fillsMaskedPaths`, the CPU
/// backend's): no surface, and the picture the two surfaces and the masked
/// composite give, to the rounding of the composite.
@Suite struct MaskedPathTests {
    enum Mask { case shape, translucent, inverted, solidUnderAShape, outside }

    /// A star in a holder (or a gradient: lottie-ios masks every gradient
    /// fill with its shape), masked by a curved, concave shape (or by a
    /// solid cut by that shape, as lottie-ios makes a matte of a masked
    /// solid); with `clipped`, in a layer whose bounds cut it between pixels.
    static func scene(_ mask: Mask, twoShapes: Bool = false, gradient: Bool = false, clipped: Bool = false) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let holder = CALayer()
        holder.frame = root.bounds
        holder.opacity = 0.9
        if gradient {
            holder.addSublayer(redToBlue(in: holder.bounds, from: CGPoint(x: 0.1, y: 0.2), to: CGPoint(x: 0.9, y: 0.7)))
        } else {
            let star = CAShapeLayer()
            star.path = fivePointedStar()
            star.fillColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)
            let turned = CALayer()
            turned.frame = holder.bounds
            turned.setAffineTransform(CGAffineTransform(rotationAngle: 0.2))
            turned.addSublayer(star)
            holder.addSublayer(turned)
        }
        if twoShapes {
            let dot = CAShapeLayer()
            dot.path = CGPath(ellipseIn: CGRect(x: 40, y: 20, width: 16, height: 16), transform: nil)
            dot.fillColor = CGColor(red: 0.1, green: 0.8, blue: 0.2, alpha: 1)
            holder.addSublayer(dot)
        }
        let moon = CGMutablePath()
        let (x, y) = mask == .outside ? (200.0, 200.0) : (8.5, 4.25)
        moon.move(to: CGPoint(x: x, y: y))
        moon.addCurve(to: CGPoint(x: x + 40, y: y + 38), control1: CGPoint(x: x + 50, y: y - 6), control2: CGPoint(x: x + 56, y: y + 30))
        moon.addQuadCurve(to: CGPoint(x: x, y: y), control: CGPoint(x: x + 30, y: y + 10))
        moon.closeSubpath()
        let shape = CAShapeLayer()
        shape.path = moon
        shape.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: mask == .translucent ? 0.45 : 1)
        let container = CALayer()
        container.frame = CGRect(x: 1.5, y: 0.75, width: 60, height: 44)
        if mask == .solidUnderAShape {
            let solid = CALayer()
            solid.frame = container.bounds
            solid.backgroundColor = CGColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)
            solid.mask = shape
            container.addSublayer(solid)
        } else {
            container.addSublayer(shape)
        }
        holder.mask = container
        holder.invertsMask = mask == .inverted
        if clipped {
            let clip = CALayer()
            clip.frame = CGRect(x: 10.3, y: 7.7, width: 31.4, height: 30.2)
            clip.masksToBounds = true
            holder.frame.origin = CGPoint(x: -10.3, y: -7.7)
            clip.addSublayer(holder)
            root.addSublayer(clip)
        } else {
            root.addSublayer(holder)
        }
        return root
    }

    static func plan(_ root: CALayer, fused: Bool) throws -> RenderPlan {
        var planner = RenderPlanner()
        planner.options.fillsMaskedPaths = fused
        return try planner.plan(RenderLayer(snapshotOf: root), canvas: RenderCanvas(width: 64, height: 48, scale: 2))
    }

    @Test(arguments: [(Mask.shape, false, false), (.translucent, false, false), (.solidUnderAShape, false, false),
                      (.shape, true, false), (.shape, false, true), (.translucent, true, true)])
    func aDrawMaskedByAPathIsOneDrawThroughTheMask(mask: Mask, gradient: Bool, clipped: Bool) throws {
        let scene = { Self.scene(mask, gradient: gradient, clipped: clipped) }
        let fused = try Self.plan(scene(), fused: true)
        #expect(fused.surfaces.isEmpty)
        let masked = fused.passes.flatMap(\.commands).filter { command in
            switch command {
            case .path(let draw): draw.mask != nil
            case .polygon(let draw): draw.mask != nil
            default: false
            }
        }
        #expect(masked.count == 1)
        let surfaces = try Self.plan(scene(), fused: false)
        #expect(surfaces.surfaces.count >= 2)
        let a = try CPURenderer().render(fused).pixelBytes, b = try CPURenderer().render(surfaces).pixelBytes
        #expect(a.contains { $0 != 0 } && a.contains { $0 == 0 })
        // The composite rounds the draw and the mask apart; the draw
        // through the mask's coverage rounds once (and a gradient is read
        // at each pixel's point rather than a row's step). A clip cuts the
        // masked draw once (cut twice, every pixel along its edge would be
        // fainter); where it crosses the star's own edge, it cuts the star's
        // area rather than multiplying the two coverages, as it cuts any
        // draw: a few pixels there.
        var crossings = 0
        for i in stride(from: 0, to: a.count, by: 4) {
            let worst = (0..<4).map { abs(Int(a[i + $0]) - Int(b[i + $0])) }.max()!
            if worst > 3 { crossings += 1 }
            #expect(worst <= 24, "pixel \(i / 4) differs by \(worst)")
        }
        #expect(crossings <= (clipped ? 8 : 0), "\(crossings) pixels differ by more than 3")
    }

    @Test func aMaskThatShowsNothingDrawsNothing() throws {
        let plan = try Self.plan(Self.scene(.outside), fused: true)
        #expect(plan.surfaces.isEmpty)
        #expect(plan.passes.allSatisfy { $0.commands.isEmpty })
    }

    @Test func anInvertedMaskOrTwoShapesKeepTheSurfaces() throws {
        #expect(try Self.plan(Self.scene(.inverted), fused: true).surfaces.count >= 2)
        #expect(try Self.plan(Self.scene(.shape, twoShapes: true), fused: true).surfaces.count >= 2)
    }
}

/// A gradient masked by a gradient laid exactly on it (lottie-ios draws a
/// Lottie gradient's opacity stops so) is one gradient whose colours are
/// multiplied by the mask's alpha: no surface, on every backend, and the
/// picture the surfaces give.
@Suite struct GradientOpacityMaskTests {
    /// `shift` moves the mask off the gradient (a billionth of a point is
    /// enough to keep the surfaces); `otherEnd` gives the mask other ends.
    static func scene(radial: Bool = false, shift: CGFloat = 0, otherEnd: Bool = false, inverted: Bool = false,
                      hardEdge: Bool = false) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let colours = redToBlue(in: CGRect(x: 4, y: 3, width: 52, height: 40), from: CGPoint(x: 0.1, y: 0.2), to: CGPoint(x: 0.9, y: 0.7))
        colours.locations = [0.2, 0.8]
        if hardEdge {
            // Red, then blue from the middle on: two stops at one place.
            colours.colors = [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1), CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1),
                              CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.7), CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.7)]
            colours.locations = [0, 0.55, 0.55, 1]
        }
        if radial { colours.type = .radial }
        let alphas = CAGradientLayer()
        alphas.frame = colours.bounds.offsetBy(dx: shift, dy: 0)
        alphas.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 0.1),
                         CGColor(red: 0, green: 0, blue: 0, alpha: 0.8)]
        alphas.locations = [0, 0.45, 1]
        alphas.startPoint = colours.startPoint
        alphas.endPoint = otherEnd ? CGPoint(x: 1, y: 1) : colours.endPoint
        alphas.type = colours.type
        colours.mask = alphas
        colours.invertsMask = inverted
        root.addSublayer(colours)
        return root
    }

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func aGradientsOpacityMaskFoldsIntoItsColours(radial: Bool, hardEdge: Bool) throws {
        let folded = try MaskedSolidTests.plan(Self.scene(radial: radial, hardEdge: hardEdge))
        #expect(folded.surfaces.isEmpty)
        let surfaces = try MaskedSolidTests.plan(Self.scene(radial: radial, shift: 1e-9, hardEdge: hardEdge))
        #expect(surfaces.surfaces.count >= 2)
        let a = try CPURenderer().render(folded).pixelBytes, b = try CPURenderer().render(surfaces).pixelBytes
        #expect(a.contains { $0 != 0 } && a.contains { $0 == 0 })
        // The mask's alpha multiplied in at each parameter, its product
        // followed to a quarter of a level by the folded stops, against
        // two surfaces composited: within a few levels.
        var worst = 0
        for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        #expect(worst <= 3, "a byte differs by \(worst)")
    }

    @Test func anOpacityMaskOfOtherEndsOrInvertedKeepsTheSurfaces() throws {
        #expect(try MaskedSolidTests.plan(Self.scene(otherEnd: true)).surfaces.count >= 2)
        #expect(try MaskedSolidTests.plan(Self.scene(inverted: true)).surfaces.count >= 2)
    }
}

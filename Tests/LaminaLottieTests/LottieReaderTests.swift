import Foundation
import Testing
@testable import LaminaLottie
import Lamina

/// The Lottie mapping, item by item, each checked on the picture or on the
/// layer tree it makes; and hostile files refused with their JSON path.
@Suite("Lottie")
struct LottieReaderTests {
    /// A 100 x 100 animation at 10 frames a second, frames 0 to 20, with `layers`.
    static func animation(_ layers: String, assets: String = "[]", ip: Double = 0, op: Double = 20) -> [UInt8] {
        Array(#"{"v": "5.7.0", "fr": 10, "ip": \#(ip), "op": \#(op), "w": 100, "h": 100, "assets": \#(assets), "layers": [\#(layers)]}"#.utf8)
    }

    static let still = #"{"a": 0, "k": "#

    /// A shape layer of `shapes`, placed with `ks`.
    static func shapeLayer(_ shapes: String, ks: String = #""p": {"a": 0, "k": [0, 0]}"#, extra: String = "") -> String {
        #"{"ty": 4, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {\#(ks)}, "shapes": [\#(shapes)]\#(extra)}"#
    }

    static let redSquare = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#

    func picture(_ bytes: [UInt8], at time: Double = 0) throws -> CGImage {
        let result = try LottieReader().read(bytes)
        return try LayerRenderer(backend: .cpu).render(result.scene, time: time)
    }

    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
        image.pixel(x: x, y: y).map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? []
    }

    @Test func aRectangleIsFilledWhereItIs() throws {
        let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare)))
        #expect(image.width == 100 && image.height == 100)
        #expect(rgba(image, 50, 50) == [255, 0, 0, 255])
        #expect(rgba(image, 25, 50)[3] == 0, "left of the square is transparent")
        #expect(rgba(image, 69, 69) == [255, 0, 0, 255])
    }

    /// A colour's fourth number is ignored (Lottie's colours are opaque, as
    /// lottie-ios and lottie-web read them); a colour whose three
    /// components are all above 1 is 0...255.
    @Test func coloursAreOpaqueAndMayBeBytes() throws {
        let clearRed = Self.redSquare.replacingOccurrences(of: "[1, 0, 0, 1]", with: "[1, 0, 0, 0]")
        #expect(rgba(try picture(Self.animation(Self.shapeLayer(clearRed))), 50, 50) == [255, 0, 0, 255])
        let bytes = Self.redSquare.replacingOccurrences(of: "[1, 0, 0, 1]", with: "[255, 128, 2]")
        #expect(rgba(try picture(Self.animation(Self.shapeLayer(bytes))), 50, 50) == [255, 128, 2, 255])
    }

    /// A gradient's stops animate (as lottie-ios animates the gradient
    /// layer's colors and locations): red at frame 0, blue at frame 10.
    @Test func aGradientsStopsAnimate() throws {
        let rect = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}"#
        let stops = #"{"p": 2, "k": {"a": 1, "k": [{"t": 0, "s": [0, 1, 0, 0, 1, 1, 0, 0]}, {"t": 10, "s": [0, 0, 0, 1, 1, 0, 0, 1]}]}}"#
        let fill = #"{"ty": "gf", "t": 1, "o": {"a": 0, "k": 100}, "s": {"a": 0, "k": [30, 50]}, "e": {"a": 0, "k": [70, 50]}, "g": \#(stops)}"#
        let bytes = Self.animation(Self.shapeLayer(rect + ", " + fill))
        let first = rgba(try picture(bytes, at: 0), 50, 50), last = rgba(try picture(bytes, at: 1), 50, 50)
        #expect(first[0] > 240 && first[2] < 15, "red at frame 0: \(first)")
        #expect(last[2] > 240 && last[0] < 15, "blue at frame 10: \(last)")
    }

    /// Trims as lottie-ios's Core Animation engine draws them: a start above
    /// the end is the window the other way round; an offset that carries the
    /// window past the end runs on from the path's start.
    @Test func trimsSwapAndWrapAsLottieIOSDraws() throws {
        let line = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[10, 50], [90, 50]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": false}}}"#
        let stroke = #"{"ty": "st", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 10}, "lc": 1, "lj": 1}"#
        func trimmed(_ s: Double, _ e: Double, _ o: Double) throws -> CGImage {
            let trim = #"{"ty": "tm", "s": {"a": 0, "k": \#(s)}, "e": {"a": 0, "k": \#(e)}, "o": {"a": 0, "k": \#(o)}, "m": 1}"#
            return try picture(Self.animation(Self.shapeLayer([line, trim, stroke].joined(separator: ", "))))
        }
        let swapped = try trimmed(75, 25, 0)
        #expect(rgba(swapped, 50, 50)[0] == 255 && rgba(swapped, 15, 50)[3] == 0, "25% to 75%: x 30 to 70")
        let wrapped = try trimmed(0, 50, 270)
        #expect(rgba(wrapped, 80, 50)[0] == 255 && rgba(wrapped, 20, 50)[0] == 255 && rgba(wrapped, 50, 50)[3] == 0,
                "75% to 125%: the last quarter, then the first")
    }

    /// A stroke's dash offset animates (lottie-ios animates lineDashPhase):
    /// dashes 10 long, 10 apart, moved on by 10 at frame 10.
    @Test func aDashOffsetAnimates() throws {
        let line = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[10, 50], [90, 50]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": false}}}"#
        let dashes = #"[{"n": "d", "v": {"a": 0, "k": 10}}, {"n": "g", "v": {"a": 0, "k": 10}}, {"n": "o", "v": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 10, "s": [10]}]}}]"#
        let stroke = #"{"ty": "st", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 6}, "lc": 1, "lj": 1, "d": \#(dashes)}"#
        let bytes = Self.animation(Self.shapeLayer(line + ", " + stroke))
        let first = try picture(bytes, at: 0), moved = try picture(bytes, at: 1)
        #expect(rgba(first, 15, 50)[0] == 255 && rgba(first, 25, 50)[3] == 0, "a dash from x 10 to 20, a gap to 30")
        #expect(rgba(moved, 15, 50)[3] == 0 && rgba(moved, 25, 50)[0] == 255, "moved on by a dash: the gap first")
    }

    /// A repeater draws the items above it once a copy, each moved by one
    /// more step of its transform (lottie-ios's Core Animation engine).
    @Test func aRepeaterDrawsItsCopiesStepByStep() throws {
        // A 10 x 10 square at (15, 50), three copies 30 points apart.
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [15, 50]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}"#
        let repeater = #"{"ty": "rp", "c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": [30, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
        let image = try picture(Self.animation(Self.shapeLayer(square + ", " + repeater)))
        for x in [15, 45, 75] { #expect(rgba(image, x, 50) == [0, 0, 255, 255], "a copy at x \(x)") }
        for x in [30, 60, 90] { #expect(rgba(image, x, 50)[3] == 0, "nothing between copies, at x \(x)") }
        // A billion copies are refused with their place.
        let billion = repeater.replacingOccurrences(of: #""c": {"a": 0, "k": 3}"#, with: #""c": {"a": 0, "k": 1e9}"#)
        #expect { try LottieReader().read(Self.animation(Self.shapeLayer(square + ", " + billion))) } throws: { error in
            (error as? SceneError).map { $0.kind == .limitExceeded && $0.location.contains("shapes[2].c") } ?? false
        }
    }

    /// A repeater that only turns (or only moves) is one `CAReplicatorLayer`
    /// stepping the first copy, its items' animations played once: the
    /// copies where lottie-ios's separate copies are, copy k turned by k
    /// times the rotation about the shape layer's origin after the anchor
    /// and scale. One that turns and moves keeps a layer a copy (no single
    /// step makes k times a move after k turns), in the same places.
    @Test func aRepeaterThatOnlyTurnsIsOneReplicatorLayer() throws {
        // A 10 x 10 square centred 30 right of the anchor (50, 50), four
        // copies a quarter turn apart: right, below, left, above the anchor.
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [80, 50]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}"#
        func repeater(move: String) -> String {
            #"{"ty": "rp", "c": {"a": 0, "k": 4}, "o": {"a": 0, "k": 0}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": \#(move)}, "a": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 90}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
        }
        func hasReplicator(_ layer: CALayer) -> Bool {
            layer is CAReplicatorLayer || (layer.sublayers ?? []).contains(where: hasReplicator)
        }
        // The layer at (50, 50), so the anchor's turns land on the canvas.
        let place = #""p": {"a": 0, "k": [50, 50]}"#
        let turning = try LottieReader().read(Self.animation(Self.shapeLayer(square + ", " + repeater(move: "[0, 0]"), ks: place)))
        #expect(hasReplicator(turning.scene.rootLayer))
        let image = try LayerRenderer(backend: .cpu).render(turning.scene, time: 0)
        for (x, y) in [(80, 50), (50, 80), (20, 50), (50, 20)] { #expect(rgba(image, x, y) == [0, 0, 255, 255], "a copy at (\(x), \(y))") }
        #expect(rgba(image, 50, 50)[3] == 0 && rgba(image, 72, 72)[3] == 0)
        // Turning and moving by (10, 0) a copy: copy k at k turns, then k moves.
        let both = try LottieReader().read(Self.animation(Self.shapeLayer(square + ", " + repeater(move: "[10, 0]"), ks: place)))
        #expect(!hasReplicator(both.scene.rootLayer))
        let moved = try LayerRenderer(backend: .cpu).render(both.scene, time: 0)
        for (x, y) in [(80, 50), (60, 80), (40, 50), (80, 20)] { #expect(rgba(moved, x, y) == [0, 0, 255, 255], "a copy at (\(x), \(y))") }
    }

    /// A keyframed number of copies shows, at each moment, the whole part of
    /// the count then: all the copies it ever reaches are made, each hidden
    /// while the count is below it.
    @Test func aRepeatersKeyframedCountShowsItsCopiesAsItGrows() throws {
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [15, 50]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}"#
        // 0 copies at frame 0, 3 at frame 10, linearly (10 frames a second).
        let repeater = #"{"ty": "rp", "c": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 10, "s": [3]}]}, "o": {"a": 0, "k": 0}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": [30, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
        let bytes = Self.animation(Self.shapeLayer(square + ", " + repeater))
        let result = try LottieReader().read(bytes)
        #expect(!result.warnings.contains { $0.subject.contains(".c") }, "a keyframed count is drawn, not tolerated")
        // (time in seconds, copies shown): 1.5 copies at frame 5 show one.
        for (time, shown) in [(0.0, 0), (0.2, 0), (0.5, 1), (0.75, 2), (1.0, 3), (1.5, 3)] {
            let image = try LayerRenderer(backend: .cpu).render(result.scene, time: time)
            let drawn = [15, 45, 75].map { rgba(image, $0, 50) == [0, 0, 255, 255] }
            #expect(drawn == (0..<3).map { $0 < shown }, "at \(time) s, \(shown) copies")
        }
        // A count that swings between none and 300 every frame is refused,
        // with its place, before any copy is made.
        let swings = (0...400).map { #"{"t": \#($0), "s": [\#($0 % 2 == 0 ? 0 : 300)], "h": 1}"# }.joined(separator: ", ")
        let swinging = repeater.replacingOccurrences(of: #"[{"t": 0, "s": [0]}, {"t": 10, "s": [3]}]"#, with: "[\(swings)]")
        #expect { try LottieReader().read(Self.animation(Self.shapeLayer(square + ", " + swinging), op: 400)) } throws: { error in
            (error as? SceneError).map { $0.kind == .limitExceeded && $0.location.contains("shapes[2].c") && "\($0)".contains("too often") } ?? false
        }
    }

    @Test func positionKeyframesMoveTheLayerWithTheirEasing() throws {
        // From x 0 to 40 over frames 0...10 (1 s), linear then eased.
        let linear = #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 10, "s": [40, 0]}]}"#
        let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: linear)), at: 0.5)
        // Halfway: moved 20, so the square spans 50...90.
        #expect(rgba(image, 85, 50)[0] == 255 && rgba(image, 45, 50)[3] == 0)
        // An ease-in (o: 0.9, 0 / i: 1, 1) has barely moved at half time.
        let eased = #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "o": {"x": [0.9], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [40, 0]}]}"#
        let slow = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: eased)), at: 0.5)
        #expect(rgba(slow, 40, 50)[0] == 255 && rgba(slow, 80, 50)[3] == 0)
    }

    /// Spatial tangents bend the motion: a position that leaves and comes
    /// back to one point, tangents pointing up 40, passes 30 above it halfway.
    @Test func positionsMoveAlongTheirSpatialTangents() throws {
        // A keyframe's `to` and `ti` shape the segment it starts: leaving
        // (0, 0) upwards, arriving from above. The last keyframe's own
        // tangents (which would pull the curve far down) shape nothing.
        let curved = #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "to": [0, -40], "ti": [0, -40]}, {"t": 10, "s": [0, 0], "to": [0, 400], "ti": [0, 400]}]}"#
        let result = try LottieReader().read(Self.animation(Self.shapeLayer(Self.redSquare, ks: curved)))
        #expect(!result.warnings.contains { $0.subject.contains("(to, ti)") })
        let image = try LayerRenderer(backend: .cpu).render(result.scene, time: 0.5)
        // The square (40 x 40 about (50, 50)) is 30 higher: about (50, 20).
        #expect(rgba(image, 50, 10) == [255, 0, 0, 255] && rgba(image, 50, 45)[3] == 0)
    }

    @Test func aHoldKeyframeKeepsItsValueUntilTheNext() throws {
        let hold = #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "h": 1}, {"t": 10, "s": [40, 0]}]}"#
        let before = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: hold)), at: 0.95)
        #expect(rgba(before, 35, 50)[0] == 255 && rgba(before, 80, 50)[3] == 0, "held at 0 until frame 10")
        let after = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: hold)), at: 1.05)
        #expect(rgba(after, 80, 50)[0] == 255)
    }

    @Test func rotationScaleAndAnchorComposeAsAfterEffectsDoes() throws {
        // Anchor at the square's centre, placed at (50, 50), scaled to half: a 20-point square in the middle.
        let ks = #""a": {"a": 0, "k": [50, 50]}, "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 45}"#
        let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: ks)))
        #expect(rgba(image, 50, 50)[0] == 255)
        // Turned 45°: the corner reaches 50 + 10·√2 ≈ 64 along x, the side's middle only 57 along the diagonal.
        #expect(rgba(image, 62, 50)[0] == 255)
        #expect(rgba(image, 58, 58)[3] == 0)
    }

    /// A 3D layer's turns about x and y (`rx`, `ry`), as lottie-ios sets
    /// them, without perspective: 60° about x halves the square's height,
    /// 60° about y its width.
    @Test func aThreeDLayerTurnsAboutXAndY() throws {
        func extent(_ rx: Double, _ ry: Double) throws -> (rows: Int, columns: Int) {
            let ks = #""p": {"a": 0, "k": [50, 50, 0]}, "a": {"a": 0, "k": [50, 50, 0]}, "rx": {"a": 0, "k": \#(rx)}, "ry": {"a": 0, "k": \#(ry)}, "rz": {"a": 0, "k": 0}"#
            let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: ks, extra: #", "ddd": 1"#)))
            return ((0..<100).filter { rgba(image, 50, $0)[3] > 128 }.count, (0..<100).filter { rgba(image, $0, 50)[3] > 128 }.count)
        }
        let (aboutX, aboutY) = (try extent(60, 0), try extent(0, 60))
        #expect(aboutX.rows == 20 && aboutX.columns == 40, "\(aboutX)")
        #expect(aboutY.rows == 40 && aboutY.columns == 20, "\(aboutY)")
    }

    /// Skew (`sk`) along an axis (`sa`), between the rotation and the scale,
    /// as lottie-web draws it: 45° along the x axis moves each row left by
    /// its distance below the anchor (x' = x − y·tan 45°).
    @Test func skewShearsAlongItsAxis() throws {
        let ks = #""p": {"a": 0, "k": [50, 50]}, "a": {"a": 0, "k": [50, 50]}, "sk": {"a": 0, "k": 45}, "sa": {"a": 0, "k": 0}"#
        let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: ks)))
        // 15 below the anchor the square spans x 15...55; 15 above, 45...85.
        #expect(rgba(image, 20, 65)[0] == 255 && rgba(image, 60, 65)[3] == 0, "15 below: moved left by 15")
        #expect(rgba(image, 80, 35)[0] == 255 && rgba(image, 40, 35)[3] == 0, "15 above: moved right by 15")
        // Along the y axis (sa 90) it shears columns instead: x stays.
        let vertical = ks.replacingOccurrences(of: #""sa": {"a": 0, "k": 0}"#, with: #""sa": {"a": 0, "k": 90}"#)
        let columns = try picture(Self.animation(Self.shapeLayer(Self.redSquare, ks: vertical)))
        #expect(rgba(columns, 50, 50)[0] == 255 && rgba(columns, 25, 50)[3] == 0 && rgba(columns, 75, 50)[3] == 0)
    }

    @Test func aLayerShowsOnlyBetweenItsInAndOutPoints() throws {
        let layer = Self.shapeLayer(Self.redSquare).replacingOccurrences(of: #""ip": 0, "op": 20"#, with: #""ip": 5, "op": 10"#)
        let bytes = Self.animation(layer)
        #expect(try rgba(picture(bytes, at: 0.2), 50, 50)[3] == 0)
        #expect(try rgba(picture(bytes, at: 0.7), 50, 50)[0] == 255)
        #expect(try rgba(picture(bytes, at: 1.2), 50, 50)[3] == 0)
    }

    /// A layer shown from the animation's in point to its out point has
    /// nothing to animate: no visibility animation (so no presentation copy
    /// of it each frame), and it shows before, during and after.
    @Test func aLayerShownThroughoutCarriesNoVisibilityAnimation() throws {
        func visibilityAnimations(_ bytes: [UInt8]) throws -> Int {
            var pending = [try LottieReader().read(bytes).scene.rootLayer]
            var count = 0
            while let layer = pending.popLast() {
                if layer.animation(forKey: "lottie.visibility") != nil { count += 1 }
                pending += layer.sublayers ?? []
            }
            return count
        }
        let throughout = Self.animation(Self.shapeLayer(Self.redSquare))
        #expect(try visibilityAnimations(throughout) == 0)
        for time in [-0.5, 1.0, 2.5] { #expect(try rgba(picture(throughout, at: time), 50, 50)[0] == 255, "at \(time) s") }
        let later = Self.shapeLayer(Self.redSquare).replacingOccurrences(of: #""ip": 0, "op": 20"#, with: #""ip": 5, "op": 20"#)
        #expect(try visibilityAnimations(Self.animation(later)) == 1)
    }

    /// A flip-book at 9 frames a second, frames 0 to 12, one square a frame:
    /// Apple's pictures of such a file (lottie-ios's `issue_2265`) show at
    /// frames 3 and 6 the square before, at frame 9 its own. Core Animation
    /// compares 3/9 over 13/9 (the paused view's 13 frames) with the key
    /// time 3/13, and the first is the lower by its last bit; 9/9 over 13/9
    /// is 9/13 exactly.
    @Test func aLayerAppearsWhenLottieIOSsKeyTimesSayItDoes() throws {
        let colours = ["[1, 0, 0, 1]", "[0, 1, 0, 1]", "[0, 0, 1, 1]", "[1, 1, 0, 1]"]
        let layers = (0..<12).map { frame in
            Self.shapeLayer(Self.redSquare.replacingOccurrences(of: "[1, 0, 0, 1]", with: colours[frame % 4]))
                .replacingOccurrences(of: #""ind": 1, "ip": 0, "op": 20"#, with: #""ind": \#(frame + 1), "ip": \#(frame), "op": \#(frame + 1)"#)
        }
        let bytes = Array(String(decoding: Self.animation(layers.joined(separator: ", "), op: 12), as: UTF8.self)
            .replacingOccurrences(of: #""fr": 10"#, with: #""fr": 9"#).utf8)
        func shown(atFrame frame: Double) throws -> [UInt8] { try rgba(picture(bytes, at: frame / 9), 50, 50) }
        // Frames 0, 1, 2, 3 are red, green, blue, yellow, and so on.
        #expect(try shown(atFrame: 3) == [0, 0, 255, 255], "frame 2's square (blue), not frame 3's (yellow)")
        #expect(try shown(atFrame: 6) == [0, 255, 0, 255], "frame 5's square (green), not frame 6's (blue)")
        #expect(try shown(atFrame: 9) == [0, 255, 0, 255], "frame 9's own square (green), not frame 8's (red)")
        #expect(try shown(atFrame: 4.5) == [255, 0, 0, 255], "between frames, frame 4's (red)")
    }

    @Test func theFirstLayerIsOnTop() throws {
        let blue = Self.redSquare.replacingOccurrences(of: "[1, 0, 0, 1]", with: "[0, 0, 1, 1]")
        let image = try picture(Self.animation(Self.shapeLayer(blue) + ", " + Self.shapeLayer(Self.redSquare)))
        #expect(rgba(image, 50, 50) == [0, 0, 255, 255])
    }

    /// A layer's blend mode (`bm`) is its compositing filter, as lottie-ios
    /// sets it: blue multiplied onto red is black; blue screened onto red is magenta.
    @Test func aBlendModeBlendsTheLayerOntoWhatIsBelow() throws {
        let blue = Self.redSquare.replacingOccurrences(of: "[1, 0, 0, 1]", with: "[0, 0, 1, 1]")
        func top(_ bm: Int) -> String { Self.shapeLayer(blue, extra: #", "bm": \#(bm)"#) }
        let multiplied = try picture(Self.animation(top(1) + ", " + Self.shapeLayer(Self.redSquare)))
        #expect(rgba(multiplied, 50, 50) == [0, 0, 0, 255])
        let screened = try picture(Self.animation(top(2) + ", " + Self.shapeLayer(Self.redSquare)))
        #expect(rgba(screened, 50, 50) == [255, 0, 255, 255])
        // Lottie's "add" (16) is no blend mode Core Animation has: drawn normally, with a warning.
        let added = try LottieReader().read(Self.animation(top(16) + ", " + Self.shapeLayer(Self.redSquare)))
        #expect(added.warnings.contains { $0.subject == "$.layers[0].bm" && $0.action == .skipped })
        #expect(rgba(try LayerRenderer(backend: .cpu).render(added.scene, time: 0), 50, 50) == [0, 0, 255, 255])
        // Luminosity (15) lottie-ios names, and Core Animation draws source-over: the same, with a warning.
        let luminosity = try LottieReader().read(Self.animation(top(15) + ", " + Self.shapeLayer(Self.redSquare)))
        let warning = try #require(luminosity.warnings.first { $0.subject == "$.layers[0].bm" })
        #expect(warning.action == .skipped && "\(warning)".contains("luminosityBlendMode"), "\(warning)")
        #expect(rgba(try LayerRenderer(backend: .cpu).render(luminosity.scene, time: 0), 50, 50) == [0, 0, 255, 255])
    }

    /// A text layer: each line on its baseline (the first on the layer's
    /// origin, the next `lh` below), placed by its justification, in its
    /// fill colour; an uninstalled font is drawn in Helvetica, as Core Text does.
    @Test func textIsDrawnOnItsBaselinesByItsJustification() throws {
        func textLayer(_ j: Int, font: String = "Helvetica") -> String {
            #"{"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [50, 40]}}, "t": {"d": {"k": [{"t": 0, "s": {"t": "HH\rHH", "f": "\#(font)", "s": 20, "j": \#(j), "lh": 40, "fc": [1, 0, 0]}}]}, "a": []}}"#
        }
        func redRows(_ image: CGImage, columns: Range<Int>) -> [Int] {
            (0..<100).filter { y in columns.contains { x in let p = rgba(image, x, y); return p[0] > 200 && p[1] < 60 && p[3] > 200 } }
        }
        func redColumns(_ image: CGImage) -> [Int] {
            (0..<100).filter { x in (0..<100).contains { y in let p = rgba(image, x, y); return p[0] > 200 && p[1] < 60 && p[3] > 200 } }
        }
        let left = try picture(Self.animation(textLayer(0)))
        // Capital H: from the baseline (y 40, then 80) up by its cap height (about 14 at 20 pt).
        let rows = redRows(left, columns: 50..<100)
        #expect(rows.contains(39) && rows.contains(28) && !rows.contains(42) && !rows.contains(24), "\(rows)")
        #expect(rows.contains(79) && rows.contains(68), "the second line 40 below: \(rows)")
        let columns = redColumns(left)
        #expect(columns.first.map { (50...53).contains($0) } == true, "left: starts at the origin: \(columns)")
        let right = redColumns(try picture(Self.animation(textLayer(1))))
        #expect(right.last.map { (46...49).contains($0) } == true, "right: ends at the origin: \(right)")
        let centre = redColumns(try picture(Self.animation(textLayer(2))))
        #expect(abs((centre.first! + centre.last!) / 2 - 50) <= 1, "centred on the origin: \(centre)")
        let missing = try LottieReader().read(Self.animation(textLayer(0, font: "NoSuchFont-Bold")))
        #expect(missing.warnings.contains { $0.subject.hasSuffix(".f") && $0.action == .tolerated })
    }

    /// A text stroke (`sc`, `sw`) is the text outlined as lottie-ios draws
    /// it: Core Text's stroke width, which counts in percent of the size
    /// (`sw` 5 at 80 points: 4 points, 2 each side of the glyphs' edges),
    /// below the fill unless `of` puts it over; without a fill, hollow.
    @Test func textStrokesOutlineTheGlyphs() throws {
        func document(fill: Bool = true, over: Bool? = nil) -> [UInt8] {
            let fc = fill ? #", "fc": [1, 0, 0]"# : ""
            let of = over.map { #", "of": \#($0)"# } ?? ""
            return Self.animation(#"{"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [30, 90]}}, "t": {"d": {"k": [{"t": 0, "s": {"t": "I", "f": "Helvetica", "s": 80, "j": 0, "lh": 96\#(fc), "sc": [0, 0, 1], "sw": 5\#(of)}}]}, "a": []}}"#)
        }
        func isRed(_ p: [UInt8]) -> Bool { p[0] > 200 && p[2] < 60 && p[3] > 200 }
        func isBlue(_ p: [UInt8]) -> Bool { p[2] > 200 && p[0] < 60 && p[3] > 200 }
        let row = 60
        let under = try picture(document())
        let stem = (0..<100).filter { isRed(rgba(under, $0, row)) }
        let (left, right) = (try #require(stem.first), try #require(stem.last))
        #expect(right - left >= 4, "the stem of an 80-point I: \(stem)")
        // Below the fill: only the outer half of the outline shows, just outside the stem.
        #expect(isBlue(rgba(under, left - 2, row)) && isBlue(rgba(under, right + 2, row)))
        #expect(rgba(under, left - 4, row)[3] == 0, "2 points out, the outline ends")
        let over = try picture(document(over: true))
        // The stem's edge columns, red below the outline, are blue when it is over the fill.
        #expect(isBlue(rgba(over, left, row)) && isBlue(rgba(over, right, row)), "over the fill, its inner half shows too")
        #expect(isRed(rgba(over, (left + right) / 2, row)))
        let hollow = try picture(document(fill: false))
        #expect(rgba(hollow, (left + right) / 2, row)[3] == 0, "no fill: the glyph is hollow")
        #expect(isBlue(rgba(hollow, left, row)))
        let read = try LottieReader().read(document())
        #expect(!read.warnings.contains { $0.subject.hasSuffix(".sc") }, "strokes are drawn: no warning")
    }

    /// Tracking on text drawn with a font is the kern Core Text adds after
    /// each character, `tr` thousandths of the size (lottie-ios sets it so):
    /// "HH" at 20 pt tracked 500 ends 2 × 10 points further right.
    @Test func trackingSpacesTextDrawnWithAFont() throws {
        func redColumns(tracking: Double) throws -> [Int] {
            let layer = #"{"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [10, 40]}}, "t": {"d": {"k": [{"t": 0, "s": {"t": "HH", "f": "Helvetica", "s": 20, "j": 0, "tr": \#(tracking), "lh": 40, "fc": [1, 0, 0]}}]}, "a": []}}"#
            let image = try picture(Self.animation(layer))
            return (0..<100).filter { x in (0..<100).contains { y in let p = rgba(image, x, y); return p[0] > 200 && p[1] < 60 && p[3] > 200 } }
        }
        let plain = try redColumns(tracking: 0), tracked = try redColumns(tracking: 500)
        #expect(plain.first == tracked.first, "the first H stays: \(plain.first ?? -1) and \(tracked.first ?? -1)")
        #expect(abs((tracked.last! - plain.last!) - 10) <= 1, "the second H moves by 10 points: \(plain.last!) → \(tracked.last!)")
        let warnings = try LottieReader().read(Self.animation(#"{"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "HH", "f": "Helvetica", "s": 20, "tr": 500, "fc": [1, 0, 0]}}]}, "a": []}}"#)).warnings
        #expect(!warnings.contains { $0.subject.hasSuffix(".tr") }, "tracking is drawn: no warning")
    }

    /// Text whose every character has its glyph in the file's `chars` is
    /// drawn from those outlines (size / 100 of them), the pen moved by each
    /// glyph's width plus the tracking; text with a character missing is
    /// drawn with a font.
    @Test func textIsDrawnFromTheFilesGlyphsWhenItCarriesThem() throws {
        // "I": a bar 10 wide and 70 tall standing on the baseline; 20 wide.
        let bar = #"{"ty": "gr", "it": [{"ty": "sh", "ks": {"a": 0, "k": {"v": [[0, -70], [10, -70], [10, 0], [0, 0]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}}}, {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]}"#
        func document(_ text: String, tracking: Double = 0) -> [UInt8] {
            let layer = #"{"ty": 5, "ind": 1, "ip": 0, "op": 20, "st": 0, "ks": {"p": {"a": 0, "k": [20, 60]}}, "t": {"d": {"k": [{"t": 0, "s": {"t": "\#(text)", "f": "Blocky-Regular", "s": 50, "j": 0, "tr": \#(tracking), "lh": 60, "fc": [1, 0, 0]}}]}, "a": []}}"#
            return Array(#"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "assets": [], "fonts": {"list": [{"fName": "Blocky-Regular", "fFamily": "Blocky", "fStyle": "Regular"}]}, "chars": [{"ch": "I", "size": 100, "style": "Regular", "w": 20, "fFamily": "Blocky", "data": {"shapes": [\#(bar)]}}], "layers": [\#(layer)]}"#.utf8)
        }
        let image = try picture(document("II"))
        // At size 50: bars 5 wide, 35 tall, at x 20 and 30, on the baseline y 60.
        #expect(rgba(image, 22, 50) == [255, 0, 0, 255] && rgba(image, 32, 50) == [255, 0, 0, 255])
        #expect(rgba(image, 27, 50)[3] == 0 && rgba(image, 22, 22)[3] == 0 && rgba(image, 22, 62)[3] == 0)
        // Tracking 200 (thousandths of the size): 10 more between the bars.
        let tracked = try picture(document("II", tracking: 200))
        #expect(rgba(tracked, 32, 50)[3] == 0 && rgba(tracked, 42, 50) == [255, 0, 0, 255])
        let result = try LottieReader().read(document("II"))
        #expect(!result.warnings.contains { $0.subject.hasSuffix(".f") }, "no font is needed")
        let missing = try LottieReader().read(document("IX"))
        #expect(missing.warnings.contains { $0.subject.hasSuffix(".f") && $0.action == .tolerated }, "X has no glyph: a font draws it")
    }

    @Test func aStrokeIsTrimmed() throws {
        // A line across, stroked 10 wide, trimmed to its first half.
        let line = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[0, 50], [100, 50]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": false}}}"#
        let trim = #"{"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}}"#
        let stroke = #"{"ty": "st", "c": {"a": 0, "k": [0, 1, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 10}, "lc": 1, "lj": 1}"#
        let image = try picture(Self.animation(Self.shapeLayer([line, trim, stroke].joined(separator: ", "))))
        #expect(rgba(image, 25, 50)[1] == 255)
        #expect(rgba(image, 75, 50)[3] == 0)
    }

    // MARK: Render groups (which fill, stroke and trim draw which paths)

    static func rect(x: Double, y: Double = 50, w: Double = 20, h: Double = 20) -> String {
        #"{"ty": "rc", "p": {"a": 0, "k": [\#(x), \#(y)]}, "s": {"a": 0, "k": [\#(w), \#(h)]}, "r": {"a": 0, "k": 0}}"#
    }
    static func fill(_ rgb: String, opacity: Double = 100) -> String {
        #"{"ty": "fl", "c": {"a": 0, "k": [\#(rgb), 1]}, "o": {"a": 0, "k": \#(opacity)}}"#
    }
    static func stroke(_ rgb: String, width: Double, opacity: Double = 100) -> String {
        #"{"ty": "st", "c": {"a": 0, "k": [\#(rgb), 1]}, "o": {"a": 0, "k": \#(opacity)}, "w": {"a": 0, "k": \#(width)}, "lc": 1, "lj": 1}"#
    }
    static func group(_ items: [String], scale: Double = 100) -> String {
        let transform = #"{"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [\#(scale), \#(scale)]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
        return #"{"ty": "gr", "it": [\#((items + [transform]).joined(separator: ", "))]}"#
    }
    static let across = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[10, 50], [90, 50]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": false}}}"#

    /// A fill draws the paths listed since the fill before it, as lottie-ios
    /// draws it (After Effects would fill both squares blue).
    @Test func aFillDrawsThePathsSinceTheFillBeforeIt() throws {
        let items = [Self.rect(x: 25), Self.fill("1, 0, 0"), Self.rect(x: 75), Self.fill("0, 0, 1")]
        let image = try picture(Self.animation(Self.shapeLayer(items.joined(separator: ", "))))
        #expect(rgba(image, 25, 50) == [255, 0, 0, 255])
        #expect(rgba(image, 75, 50) == [0, 0, 255, 255])
    }

    /// A fill, stroke or trim beside groups, with no paths of its own, is
    /// handed down into each group: a trim after a group cuts the group's
    /// stroke; a fill there fills the group's path.
    @Test func whatALevelDoesNotUseIsHandedDownIntoItsGroups() throws {
        let trim = #"{"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}, "m": 1}"#
        let trimmed = try picture(Self.animation(Self.shapeLayer(
            [Self.group([Self.across, Self.stroke("0, 1, 0", width: 10)]), trim].joined(separator: ", "))))
        #expect(rgba(trimmed, 30, 50) == [0, 255, 0, 255], "the first half is drawn")
        #expect(rgba(trimmed, 70, 50)[3] == 0, "the second half is cut")
        let filled = try picture(Self.animation(Self.shapeLayer(
            [Self.group([Self.rect(x: 50)]), Self.fill("1, 0, 0")].joined(separator: ", "))))
        #expect(rgba(filled, 50, 50) == [255, 0, 0, 255])
    }

    /// A stroke handed down into a group scaled 2x is as wide as the level
    /// that lists it draws it: 10, not 20.
    @Test func aHandedDownStrokeKeepsItsWidthInAScaledGroup() throws {
        let half = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[5, 25], [45, 25]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": false}}}"#
        let image = try picture(Self.animation(Self.shapeLayer(
            [Self.group([half], scale: 200), Self.stroke("0, 0, 1", width: 10)].joined(separator: ", "))))
        #expect(rgba(image, 50, 50) == [0, 0, 255, 255], "on the line, at y 50")
        #expect(rgba(image, 50, 44)[3] == 0 && rgba(image, 50, 56)[3] == 0, "5 either side of it, not 10")
    }

    /// A group's own paths are drawn over its child groups, whatever their
    /// order in the list (lottie-ios's layers); a stroke listed above a fill
    /// of the same opacity is drawn over it, in one layer.
    @Test func aGroupsOwnPathsAreDrawnOverItsChildGroups() throws {
        let items = [Self.group([Self.rect(x: 50, w: 40, h: 40), Self.fill("0, 0, 1")]), Self.rect(x: 50), Self.fill("1, 0, 0")]
        let image = try picture(Self.animation(Self.shapeLayer(items.joined(separator: ", "))))
        #expect(rgba(image, 50, 50) == [255, 0, 0, 255], "the level's own square on top")
        #expect(rgba(image, 35, 50) == [0, 0, 255, 255], "the child group's square below it")
        // Half-transparent: the stroke over the fill in one layer, so the
        // fill does not show through the stroke.
        let both = [Self.rect(x: 50, w: 40, h: 40), Self.stroke("0, 1, 0", width: 10, opacity: 50), Self.fill("1, 0, 0", opacity: 50)]
        let layered = try picture(Self.animation(Self.shapeLayer(both.joined(separator: ", "))))
        let edge = rgba(layered, 50, 32)  // inside the square, under the stroke
        #expect(edge[0] < 8 && abs(Int(edge[1]) - 128) <= 2 && abs(Int(edge[3]) - 128) <= 2, "green at half opacity: \(edge)")
    }

    /// Round Corners (`rd`) rounds the corners of the paths before it, as
    /// lottie-ios does: a Bézier square's corners and a rectangle's (its
    /// radius replacing the rectangle's roundness); not an ellipse's.
    @Test func roundedCornersRoundTheCornersOfThePathsBeforeThem() throws {
        let square = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[30, 30], [70, 30], [70, 70], [30, 70]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}}}"#
        let round = #"{"ty": "rd", "r": {"a": 0, "k": 10}}"#
        for path in [square, Self.rect(x: 50, w: 40, h: 40)] {
            let image = try picture(Self.animation(Self.shapeLayer([path, round, Self.fill("1, 0, 0")].joined(separator: ", "))))
            #expect(rgba(image, 31, 31)[3] == 0 && rgba(image, 68, 68)[3] == 0, "the corners are cut away")
            #expect(rgba(image, 50, 31) == [255, 0, 0, 255] && rgba(image, 31, 50) == [255, 0, 0, 255], "the edges stay")
            #expect(rgba(image, 34, 34) == [255, 0, 0, 255], "inside the rounding")
        }
        let ellipse = #"{"ty": "el", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}}"#
        let result = try LottieReader().read(Self.animation(Self.shapeLayer([ellipse, round, Self.fill("1, 0, 0")].joined(separator: ", "))))
        #expect(result.warnings.contains { $0.subject.contains("(rd)") && $0.action == .tolerated })
    }

    /// A polygon's roundness bends its edges out along the circle through
    /// its corners (lottie-ios's tangents: 0.25 × radius × roundness): a
    /// diamond of radius 40, fully round, covers (72, 28), which its
    /// straight edge (x − y = 40) leaves out.
    @Test func aRoundPolygonBulgesAlongItsCircle() throws {
        func polygon(roundness: Double, points: Double = 4) -> String {
            #"{"ty": "sr", "sy": 2, "d": 1, "pt": {"a": 0, "k": \#(points)}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}, "or": {"a": 0, "k": 40}, "os": {"a": 0, "k": \#(roundness)}}"#
        }
        let sharp = try picture(Self.animation(Self.shapeLayer(polygon(roundness: 0) + ", " + Self.fill("1, 0, 0"))))
        let round = try picture(Self.animation(Self.shapeLayer(polygon(roundness: 100) + ", " + Self.fill("1, 0, 0"))))
        #expect(rgba(sharp, 72, 28)[3] == 0 && rgba(round, 72, 28) == [255, 0, 0, 255])
        #expect(rgba(sharp, 50, 12) == [255, 0, 0, 255] && rgba(round, 50, 12) == [255, 0, 0, 255], "the corners stay where they were")
        // A star of 4.5 points ends on a part point: it draws, a point short of 5.
        let partial = #"{"ty": "sr", "sy": 1, "pt": {"a": 0, "k": 4.5}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}, "or": {"a": 0, "k": 40}, "ir": {"a": 0, "k": 20}}"#
        #expect(rgba(try picture(Self.animation(Self.shapeLayer(partial + ", " + Self.fill("1, 0, 0")))), 50, 50) == [255, 0, 0, 255])
    }

    /// A polygon whose count of points changes over time is made at each
    /// keyframe with that keyframe's count, as lottie-ios makes it: a
    /// square at frame 0 (a corner straight up at y 10), a hexagon at frame
    /// 10 (its edge beside the top corner slopes less, so (70, 25) is in);
    /// a count beyond 1,000 at any keyframe is refused with its path.
    @Test func aPolygonsPointsMayChangeOverTime() throws {
        func polygon(_ counts: String) -> [UInt8] {
            Self.animation(Self.shapeLayer(#"{"ty": "sr", "sy": 2, "d": 1, "pt": {"a": 1, "k": [{"t": 0, "s": [\#(counts)], "h": 1}, {"t": 10, "s": [6]}]}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}, "or": {"a": 0, "k": 40}, "os": {"a": 0, "k": 0}}"# + ", " + Self.fill("1, 0, 0")))
        }
        let square = try picture(polygon("4"), at: 0), hexagon = try picture(polygon("4"), at: 1.5)
        #expect(rgba(square, 50, 12) == [255, 0, 0, 255] && rgba(hexagon, 50, 12) == [255, 0, 0, 255], "a corner straight up in both")
        #expect(rgba(square, 70, 25)[3] == 0 && rgba(hexagon, 70, 25) == [255, 0, 0, 255], "\(rgba(hexagon, 70, 25))")
        let error = #expect(throws: SceneError.self) { try LottieReader().read(polygon("100000")) }
        #expect(error?.location.hasSuffix("$.layers[0].shapes[0].pt") == true)
    }

    /// Trims whose start and end cross, and offsets that carry the window
    /// below the path's start, as lottie-ios draws them.
    @Test func trimsThatCrossOrRunBelowTheStart() throws {
        func trimmed(_ trim: String, at time: Double = 0) throws -> CGImage {
            try picture(Self.animation(Self.shapeLayer([Self.across, trim, Self.stroke("1, 0, 0", width: 10)].joined(separator: ", "))),
                        at: time)
        }
        // Offset -90°: 0...50% becomes -25...25%, the last quarter and the first.
        let below = try trimmed(#"{"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": -90}, "m": 1}"#)
        #expect(rgba(below, 15, 50)[0] == 255 && rgba(below, 85, 50)[0] == 255 && rgba(below, 50, 50)[3] == 0)
        // Start from 0 to 100 over frames 0...10, end fixed at 50: the window
        // is 0...50% at first, then 50...100% (the two taken in order).
        let crossing = #"{"ty": "tm", "s": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 10, "s": [100]}]}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}, "m": 1}"#
        let early = try trimmed(crossing), late = try trimmed(crossing, at: 1)
        #expect(rgba(early, 30, 50)[0] == 255 && rgba(early, 70, 50)[3] == 0)
        #expect(rgba(late, 30, 50)[3] == 0 && rgba(late, 70, 50)[0] == 255)
    }

    @Test func aLinearGradientFillRunsFromItsStartToItsEnd() throws {
        // Black to white, left to right across the square, opaque.
        let gradient = #"{"ty": "gf", "t": 1, "o": {"a": 0, "k": 100}, "s": {"a": 0, "k": [30, 50]}, "e": {"a": 0, "k": [70, 50]}, "g": {"p": 2, "k": {"a": 0, "k": [0, 0, 0, 0, 1, 1, 1, 1]}}}"#
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}"#
        let image = try picture(Self.animation(Self.shapeLayer(square + ", " + gradient)))
        let (left, middle, right) = (rgba(image, 32, 50), rgba(image, 50, 50), rgba(image, 68, 50))
        #expect(left[0] < 20 && right[0] > 235 && abs(Int(middle[0]) - 128) < 12, "\(left) \(middle) \(right)")
        #expect(rgba(image, 25, 50)[3] == 0, "masked by the square")
    }

    /// Alpha stops have locations of their own: white at both colour stops
    /// (0 and 1), alpha 0, 1, 0 at 0, 0.5 and 1 is a white band fading in
    /// and out across the square (merged at the colour stops, it would be
    /// transparent throughout).
    @Test func aGradientsAlphaStopsFadeBetweenItsColourStops() throws {
        let band = #"{"p": 2, "k": {"a": 0, "k": [0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0.5, 1, 1, 0]}}"#
        let gradient = #"{"ty": "gf", "t": 1, "o": {"a": 0, "k": 100}, "s": {"a": 0, "k": [30, 50]}, "e": {"a": 0, "k": [70, 50]}, "g": \#(band)}"#
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}"#
        let image = try picture(Self.animation(Self.shapeLayer(square + ", " + gradient)))
        let (left, quarter, middle) = (rgba(image, 30, 50), rgba(image, 40, 50), rgba(image, 50, 50))
        #expect(middle[3] > 240 && middle[0] > 240, "opaque white in the middle: \(middle)")
        #expect(abs(Int(quarter[3]) - 134) < 14, "half way in at a quarter: \(quarter)")
        #expect(left[3] < 12, "transparent at the start: \(left)")
    }

    /// A scale animated through negative values on both axes mirrors both
    /// ways at every moment (a square right of the layer's origin lands
    /// left of it), as a still one does: the animation sets the scale on an
    /// unturned transform.
    @Test func aScaleAnimatedBelowZeroMirrorsAtEveryMoment() throws {
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [20, 0]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let scale = #""s": {"a": 1, "k": [{"t": 0, "s": [-100, -100]}, {"t": 10, "s": [-50, -50]}]}"#
        let bytes = Self.animation(Self.shapeLayer(square, ks: #""p": {"a": 0, "k": [50, 50]}, "# + scale))
        for time in [0.0, 0.5, 1.5] {
            let image = try picture(bytes, at: time)
            #expect(rgba(image, 65, 50)[3] == 0 && rgba(image, 36, 50)[0] == 255, "at \(time) s")
        }
    }

    /// Held keyframes as lottie-ios plays them: split from eased ones into
    /// runs, a run of held values shown each until the next keyframe (the
    /// last of a file's keyframes too), and a lone held keyframe before an
    /// eased one a discrete animation of one value, which Core Animation
    /// does not play: the fill's layer shows its own opacity, 1, there (as
    /// in Apple's pictures of lottie-ios's pr_1632 samples).
    @Test func heldKeyframesPlayAsLottieIOSSplitsThem() throws {
        func fill(_ keys: String) -> [UInt8] {
            let square = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 1, "k": [\#(keys)]}}"#
            return Self.animation(Self.shapeLayer(square))
        }
        func alpha(_ bytes: [UInt8], _ time: Double) throws -> Int { Int(rgba(try picture(bytes, at: time), 50, 50)[3]) }
        // Held at 20 from 0, then eased from 60 at frame 4 to 100 at frame 8.
        let lone = fill(#"{"t": 0, "s": [20], "h": 1}, {"t": 4, "s": [60]}, {"t": 8, "s": [100]}"#)
        let (held20, eased) = (try alpha(lone, 0.2), try alpha(lone, 0.6))
        #expect(held20 == 255, "the lone held keyframe is not played: the layer's own opacity")
        #expect(abs(eased - 204) <= 2, "eased half way, 80%")
        // Three held values, the last keyframe's shown after it.
        let held = fill(#"{"t": 0, "s": [20], "h": 1}, {"t": 4, "s": [60], "h": 1}, {"t": 8, "s": [100], "h": 1}"#)
        let (first, second, third, after) = (try alpha(held, 0.2), try alpha(held, 0.6), try alpha(held, 0.8), try alpha(held, 1.5))
        #expect(abs(first - 51) <= 1 && abs(second - 153) <= 1)
        #expect(third == 255 && after == 255, "from frame 8 on")
    }

    /// A transform whose scale mirrors x is one `transform` animation of
    /// the whole matrix, as lottie-ios builds it: mirrored at every moment;
    /// and where a lone held keyframe leaves it unplayed, the layer's own
    /// transform (none) shows, position included, as in Apple's pictures of
    /// lottie-ios's issue_2066.
    @Test func aTransformMirroringXIsOneMatrixAsLottieIOSBuildsIt() throws {
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [20, 0]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let eased = Self.animation(Self.shapeLayer(square, ks: #""p": {"a": 0, "k": [50, 50]}, "s": {"a": 1, "k": [{"t": 0, "s": [-100, 100]}, {"t": 10, "s": [-50, 50]}]}"#))
        let (start, end) = (try picture(eased, at: 0), try picture(eased, at: 1.5))
        #expect(rgba(start, 25, 50)[0] == 255 && rgba(start, 65, 50)[3] == 0, "mirrored: x 20...40")
        #expect(rgba(end, 38, 50)[0] == 255 && rgba(end, 33, 50)[3] == 0, "mirrored, half size: x 35...45")
        let lone = Self.animation(Self.shapeLayer(square, ks: #""p": {"a": 0, "k": [50, 50]}, "s": {"a": 1, "k": [{"t": 0, "s": [-100, 100], "h": 1}, {"t": 10, "s": [-100, 100]}, {"t": 20, "s": [-50, 50]}]}"#))
        let held = try picture(lone, at: 0.5)
        #expect(rgba(held, 20, 5)[0] == 255 && rgba(held, 25, 50)[3] == 0, "the layer's own transform: at the origin, x 10...30, y -10...10")
    }

    /// Several paths of one group are one path, as lottie-ios draws them;
    /// keyframed differently, each keeps its own timing (sampled every tenth
    /// of a frame, as lottie-ios samples them): a square held at x 0...10
    /// until frame 10 stays there while the other moves.
    @Test func pathsKeyframedDifferentlyKeepTheirOwnTimingAsOnePath() throws {
        func square(_ x: Double, _ y: Double) -> String {
            #"{"v": [[\#(x), \#(y)], [\#(x + 10), \#(y)], [\#(x + 10), \#(y + 10)], [\#(x), \#(y + 10)]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}"#
        }
        let held = #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(square(0, 0))], "h": 1}, {"t": 10, "s": [\#(square(80, 0))]}]}}"#
        let moving = #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(square(0, 50))]}, {"t": 10, "s": [\#(square(80, 50))]}]}}"#
        let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let image = try picture(Self.animation(Self.shapeLayer([held, moving, fill].joined(separator: ", "))), at: 0.5)
        #expect(rgba(image, 5, 5)[0] == 255 && rgba(image, 45, 5)[3] == 0, "held at x 0 until frame 10")
        #expect(rgba(image, 45, 55)[0] == 255 && rgba(image, 5, 55)[3] == 0, "moved half way, x 40...50")
    }

    /// At a moment exactly on a held keyframe, the value Core Animation's
    /// single-precision arithmetic shows: the one before at 8 of 33 frames
    /// (Apple's picture of lottie-ios's TypeFace/H at 25%), the new one at
    /// 19 of 39 (TypeFace/O at 50%); drawn so, whatever the last bits here.
    @Test func aMomentOnAHeldKeyframeShowsWhatCoreAnimationShows() throws {
        #expect(!LottieAnimator.showsNext(keyTime: 8.0 / 33, duration: 33.0 / 25))
        #expect(LottieAnimator.showsNext(keyTime: 19.0 / 39, duration: 39.0 / 25))
        // A fill held at 20% from frame 0, 100% from frame 8, to frame 32
        // (op 32 at 25 frames a second: the run spans 33 frames, as
        // lottie-ios times it): at frame 8 exactly, still 20%.
        let square = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 1, "k": [{"t": 0, "s": [20], "h": 1}, {"t": 8, "s": [100], "h": 1}, {"t": 16, "s": [60], "h": 1}]}}"#
        let bytes = Array(#"{"v": "5.7.0", "fr": 25, "ip": 0, "op": 32, "w": 100, "h": 100, "assets": [], "layers": [\#(Self.shapeLayer(square))]}"#.utf8)
        let (onKey, after) = (try picture(bytes, at: 8.0 / 25), try picture(bytes, at: 9.0 / 25))
        #expect(abs(Int(rgba(onKey, 50, 50)[3]) - 51) <= 1 && rgba(after, 50, 50)[3] == 255)
    }

    /// A keyframed path rounded by a radius keyframed at other frames is
    /// rounded by the radius at each moment, as lottie-ios combines the two
    /// (it was rounded by the radius at the path's own keyframes): a 40-point
    /// square whose radius grows from 0 at frame 5 to 20 at frame 10 is a
    /// disc at frame 10, its corner empty.
    @Test func aPathsAnimatedRoundingFollowsTheRadiusAtEachMoment() throws {
        let square = #"{"v": [[30, 30], [70, 30], [70, 70], [30, 70]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}"#
        let path = #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(square)]}, {"t": 20, "s": [\#(square)]}]}}"#
        let rounding = #"{"ty": "rd", "r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 5, "s": [0]}, {"t": 10, "s": [20]}]}}"#
        let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let bytes = Self.animation(Self.shapeLayer([path, rounding, fill].joined(separator: ", ")))
        let (square0, disc) = (try picture(bytes, at: 0), try picture(bytes, at: 1))
        #expect(rgba(square0, 32, 32)[0] == 255, "a square corner at first")
        #expect(rgba(disc, 32, 32)[3] == 0 && rgba(disc, 50, 50)[0] == 255, "a disc at frame 10")
    }

    @Test func aRadialGradientStaysRoundInAWideShape() throws {
        // White at the centre to black at radius 20, in a 80 x 20 rectangle.
        let gradient = #"{"ty": "gf", "t": 2, "o": {"a": 0, "k": 100}, "s": {"a": 0, "k": [50, 50]}, "e": {"a": 0, "k": [70, 50]}, "g": {"p": 2, "k": {"a": 0, "k": [0, 1, 1, 1, 1, 0, 0, 0]}}}"#
        let wide = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [80, 20]}, "r": {"a": 0, "k": 0}}"#
        let image = try picture(Self.animation(Self.shapeLayer(wide + ", " + gradient)))
        // 8 points from the centre along x and along y: the same grey.
        let (alongX, alongY) = (rgba(image, 58, 50)[0], rgba(image, 50, 58)[0])
        #expect(abs(Int(alongX) - Int(alongY)) <= 8, "\(alongX) vs \(alongY)")
        #expect(rgba(image, 85, 50)[0] < 10, "black beyond the radius")
    }

    static func maskedSquare(_ masks: String) -> [UInt8] {
        animation(shapeLayer(redSquare, extra: #", "masksProperties": [\#(masks)]"#))
    }

    /// A mask over the square's left half, x 30...50.
    static func halfMask(mode: String, inverted: Bool = false) -> String {
        #"{"mode": "\#(mode)", "inv": \#(inverted), "o": {"a": 0, "k": 100}, "pt": {"a": 0, "k": {"v": [[30, 30], [50, 30], [50, 70], [30, 70]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}}}"#
    }

    @Test func masksAddSubtractAndInvert() throws {
        let added = try picture(Self.maskedSquare(Self.halfMask(mode: "a")))
        #expect(rgba(added, 40, 50)[0] == 255 && rgba(added, 60, 50)[3] == 0, "only the masked half shows")
        let subtracted = try picture(Self.maskedSquare(Self.halfMask(mode: "s")))
        #expect(rgba(subtracted, 40, 50)[3] == 0 && rgba(subtracted, 60, 50)[0] == 255, "the masked half is cut away")
        let inverted = try picture(Self.maskedSquare(Self.halfMask(mode: "a", inverted: true)))
        #expect(rgba(inverted, 40, 50)[3] == 0 && rgba(inverted, 60, 50)[0] == 255)
        let none = try picture(Self.maskedSquare(Self.halfMask(mode: "n")))
        #expect(rgba(none, 40, 50)[0] == 255 && rgba(none, 60, 50)[0] == 255, "a mask of mode n masks nothing")
    }

    /// A mask over the rectangle x0...x1, y0...y1.
    static func rectMask(_ mode: String, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, inverted: Bool = false) -> String {
        #"{"mode": "\#(mode)", "inv": \#(inverted), "o": {"a": 0, "k": 100}, "pt": {"a": 0, "k": {"v": [[\#(x0), \#(y0)], [\#(x1), \#(y0)], [\#(x1), \#(y1)], [\#(x0), \#(y1)]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}}}"#
    }

    /// Several masks combine as lottie-ios's Core Animation engine combines
    /// them (what Apple's pictures show): masks that add join what came
    /// before, even after a subtraction; any other mask cuts it; lighten
    /// adds, darken and difference cut; `inv` inverts only adding and
    /// subtracting masks.
    @Test func masksCombineAsLottieIOSCombinesThem() throws {
        func shows(_ masks: [String], _ x: Int, _ y: Int) throws -> Bool {
            rgba(try picture(Self.maskedSquare(masks.joined(separator: ", "))), x, y)[3] == 255
        }
        // Everything but the left half, then a small rectangle inside that half added back.
        let subtractThenAdd = [Self.rectMask("s", 30, 30, 50, 70), Self.rectMask("a", 35, 40, 45, 60)]
        #expect(try shows(subtractThenAdd, 40, 50), "added back after the subtraction")
        #expect(try !shows(subtractThenAdd, 32, 50) && shows(subtractThenAdd, 60, 50))
        // The left half cut by a band across the square.
        let intersected = [Self.rectMask("a", 30, 30, 50, 70), Self.rectMask("i", 0, 40, 100, 60)]
        #expect(try shows(intersected, 40, 50) && !shows(intersected, 40, 35) && !shows(intersected, 60, 50))
        // Difference and darken cut as intersecting does; lighten adds.
        for mode in ["f", "da"] {
            let masks = [Self.rectMask("a", 30, 30, 50, 70), Self.rectMask(mode, 0, 40, 100, 60)]
            #expect(try shows(masks, 40, 50) && !shows(masks, 40, 35), "\(mode)")
            let read = try LottieReader().read(Self.maskedSquare(masks.joined(separator: ", ")))
            #expect(read.warnings.contains { $0.subject.hasSuffix("[1].mode") && $0.action == .tolerated }, "\(mode)")
        }
        let lightened = [Self.rectMask("a", 30, 30, 50, 70), Self.rectMask("l", 50, 30, 60, 70)]
        #expect(try shows(lightened, 40, 50) && shows(lightened, 55, 50) && !shows(lightened, 65, 50))
        // An inverted intersection cuts as a plain one (lottie-ios inverts only adding and subtracting masks).
        let invertedIntersection = [Self.rectMask("a", 30, 30, 50, 70), Self.rectMask("i", 0, 40, 100, 60, inverted: true)]
        #expect(try shows(invertedIntersection, 40, 50) && !shows(invertedIntersection, 40, 35))
    }

    @Test func aDropShadowEffectIsTheLayersShadow() throws {
        // Black, opaque, straight down (180°) by 10, no softness.
        func number(_ v: Double) -> String { #"{"ty": 0, "v": {"a": 0, "k": \#(v)}}"# }
        let shadow = #"{"ty": 25, "nm": "Drop Shadow", "ef": [{"ty": 2, "v": {"a": 0, "k": [0, 0, 1, 1]}}, \#(number(255)), \#(number(180)), \#(number(10)), \#(number(0))]}"#
        let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare, extra: #", "ef": [\#(shadow)]"#)))
        #expect(rgba(image, 50, 50) == [255, 0, 0, 255])
        #expect(rgba(image, 50, 75) == [0, 0, 255, 255], "the blue shadow below the square")
        #expect(rgba(image, 75, 50)[3] == 0, "none to the side")
        // Some exporters write an effect's values bare ("v": 180): read as
        // fixed values, each a located warning; a bare value of the wrong kind is refused.
        func bare(_ v: Double) -> String { #"{"ty": 0, "v": \#(v)}"# }
        let bareShadow = #"{"ty": 25, "nm": "Drop Shadow", "ef": [{"ty": 2, "v": {"a": 0, "k": [0, 0, 1, 1]}}, \#(bare(255)), \#(bare(180)), \#(bare(10)), \#(bare(0))]}"#
        let read = try LottieReader().read(Self.animation(Self.shapeLayer(Self.redSquare, extra: #", "ef": [\#(bareShadow)]"#)))
        #expect(rgba(try LayerRenderer(backend: .cpu).render(read.scene, time: 0), 50, 75) == [0, 0, 255, 255], "the same shadow")
        #expect(read.warnings.contains { $0.subject.hasSuffix(".ef[0].ef[2].v") && $0.action == .tolerated })
        let wrong = #"{"ty": 25, "nm": "Drop Shadow", "ef": [{"ty": 2, "v": {"a": 0, "k": [0, 0, 1, 1]}}, {"ty": 0, "v": "lots"}]}"#
        #expect(throws: SceneError.self) { try LottieReader().read(Self.animation(Self.shapeLayer(Self.redSquare, extra: #", "ef": [\#(wrong)]"#))) }
    }

    /// After Effects' Gaussian Blur is skipped, as on an iPhone (Core
    /// Animation on iOS has no layer blur; Apple's picture of lottie-ios's
    /// issue_1939 draws the blurred layer sharp): the edge stays sharp, and
    /// a warning names the effect.
    @Test func aGaussianBlurEffectIsSkippedAsOnTheDevice() throws {
        let blur = #"{"ty": 29, "nm": "Gaussian Blur", "ef": [{"ty": 0, "v": {"a": 0, "k": 20}}, {"ty": 7, "v": {"a": 0, "k": 1}}, {"ty": 7, "v": {"a": 0, "k": 0}}]}"#
        let bytes = Self.animation(Self.shapeLayer(Self.redSquare, extra: #", "ef": [\#(blur)]"#))
        let image = try picture(bytes, at: 0.5)
        #expect(rgba(image, 31, 50)[3] == 255 && rgba(image, 28, 50)[3] == 0, "sharp: the edge at x 30")
        let result = try LottieReader().read(bytes)
        #expect(result.warnings.contains { $0.subject.hasSuffix(".ef[0] (Gaussian Blur)") && $0.action == .skipped })
    }

    @Test func aDropShadowStyleIsTheLayersShadowToo() throws {
        // Green, opaque, angle 90 (straight below) by 10, no blur.
        let style = #"{"ty": 1, "c": {"a": 0, "k": [0, 1, 0, 1]}, "o": {"a": 0, "k": 100}, "a": {"a": 0, "k": 90}, "d": {"a": 0, "k": 10}, "s": {"a": 0, "k": 0}}"#
        let image = try picture(Self.animation(Self.shapeLayer(Self.redSquare, extra: #", "sy": [\#(style)]"#)))
        #expect(rgba(image, 50, 75) == [0, 255, 0, 255], "the shadow below the square")
        #expect(rgba(image, 75, 50)[3] == 0)
    }

    /// A drop shadow style's distance animates, as lottie-ios animates the
    /// shadow's offset (Apple's pictures of issue_1169_shadow_style_animated):
    /// straight below by 0 at frame 0, by 10 from frame 10.
    @Test func aDropShadowStylesDistanceAnimates() throws {
        let style = #"{"ty": 1, "c": {"a": 0, "k": [0, 1, 0, 1]}, "o": {"a": 0, "k": 100}, "a": {"a": 0, "k": 90}, "d": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 10, "s": [10]}]}, "s": {"a": 0, "k": 0}}"#
        let bytes = Self.animation(Self.shapeLayer(Self.redSquare, extra: #", "sy": [\#(style)]"#))
        #expect(rgba(try picture(bytes, at: 0), 50, 75)[3] == 0, "no offset at first: hidden under the square")
        #expect(rgba(try picture(bytes, at: 1.5), 50, 75) == [0, 255, 0, 255], "10 below from frame 10")
        let halfway = try picture(bytes, at: 0.5)
        #expect(rgba(halfway, 50, 73) == [0, 255, 0, 255] && rgba(halfway, 50, 76)[3] == 0, "5 below half way")
    }

    @Test func aShapeMorphsBetweenKeyframesOfTheSameVertices() throws {
        func square(_ size: Double) -> String {
            #"{"v": [[0, 0], [\#(size), 0], [\#(size), \#(size)], [0, \#(size)]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}"#
        }
        let shape = #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(square(20))]}, {"t": 10, "s": [\#(square(80))]}]}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let image = try picture(Self.animation(Self.shapeLayer(shape)), at: 0.5)
        // Halfway: a 50-point square.
        #expect(rgba(image, 45, 45)[0] == 255 && rgba(image, 55, 55)[3] == 0)
    }

    /// Keyframes whose paths have different numbers of vertices cannot
    /// morph (Core Animation's result is undefined): each shape shows until
    /// the next keyframe's, with a warning at the path item, rather than no
    /// shape at all between them.
    @Test func aShapeWhoseVerticesChangeShowsEachKeyframesShapeUntilTheNext() throws {
        let square = #"{"v": [[20, 20], [40, 20], [40, 40], [20, 40]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}"#
        let triangle = #"{"v": [[60, 60], [90, 60], [75, 90]], "i": [[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0]], "c": true}"#
        let shape = #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(square)]}, {"t": 10, "s": [\#(triangle)]}]}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let bytes = Self.animation(Self.shapeLayer(shape))
        let halfway = try picture(bytes, at: 0.5)
        #expect(rgba(halfway, 30, 30) == [255, 0, 0, 255], "the square until frame 10")
        #expect(rgba(halfway, 75, 70)[3] == 0)
        let after = try picture(bytes, at: 1.5)
        #expect(rgba(after, 75, 70) == [255, 0, 0, 255], "the triangle from frame 10")
        #expect(rgba(after, 30, 30)[3] == 0)
        let warnings = try LottieReader().read(bytes).warnings
        #expect(warnings.contains { $0.subject == "$.layers[0].shapes[0]" && $0.action == .tolerated && $0.reason.contains("vertices") })
        let morphing = try LottieReader().read(Self.animation(Self.shapeLayer(Self.redSquare))).warnings
        #expect(!morphing.contains { $0.reason.contains("vertices") })
    }

    /// A star whose number of points is keyframed (rlottie's
    /// `polystar_anim`) is drawn between its keyframes too.
    @Test func aStarWhoseNumberOfPointsChangesIsDrawnBetweenKeyframes() throws {
        let star = #"{"ty": "sr", "sy": 1, "d": 1, "pt": {"a": 1, "k": [{"t": 0, "s": [5], "i": {"x": [1], "y": [1]}, "o": {"x": [0], "y": [0]}}, {"t": 20, "s": [11]}]}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}, "ir": {"a": 0, "k": 20}, "is": {"a": 0, "k": 0}, "or": {"a": 0, "k": 45}, "os": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let bytes = Self.animation(Self.shapeLayer(star))
        for time in [0.0, 0.35, 0.75, 1.25, 1.95] {
            #expect(rgba(try picture(bytes, at: time), 50, 50) == [255, 0, 0, 255], "the star's middle at \(time) s")
        }
    }

    @Test func aPrecompositionPlaysOnItsOwnClock() throws {
        // The asset's square moves from x 0 to 40 over its frames 0...10;
        // the precomposition layer starts it at frame 10 (st).
        let moving = Self.shapeLayer(Self.redSquare, ks: #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 10, "s": [40, 0]}]}"#)
        let assets = #"[{"id": "inner", "layers": [\#(moving)]}]"#
        let precomp = #"{"ty": 0, "ind": 1, "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 40, "st": 10, "ks": {}}"#
        let bytes = Self.animation(precomp, assets: assets, op: 40)
        #expect(try rgba(picture(bytes, at: 1.0), 35, 50)[0] == 255, "frame 10 outside is frame 0 inside")
        #expect(try rgba(picture(bytes, at: 1.5), 85, 50)[0] == 255, "frame 15 outside is frame 5 inside")
    }

    /// A layer whose out point is the animation's end stays shown there (as
    /// lottie-ios shows the last frame), inside a precomposition too: its op
    /// is compared on the top composition's clock.
    @Test func aPrecomposedLayerThatLastsToTheEndStaysShownThere() throws {
        let assets = #"[{"id": "inner", "layers": [\#(Self.shapeLayer(Self.redSquare))]}]"#  // the square: frames 0...20 inside
        func precomp(start: Double) -> [UInt8] {
            Self.animation(#"{"ty": 0, "ind": 1, "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 30, "st": \#(start), "ks": {}}"#,
                           assets: assets, op: 30)
        }
        #expect(try rgba(picture(precomp(start: 10), at: 3), 50, 50)[0] == 255, "op 20 inside is frame 30 outside: the end")
        #expect(try rgba(picture(precomp(start: 5), at: 3), 50, 50)[3] == 0, "op 20 inside is frame 25 outside: gone by 30")
    }

    /// A path keyframed inside a time-remapped precomposition morphs between
    /// its keyframes at the remapped frame, as lottie-ios interpolates it
    /// (not the keyframe before it): frozen at frame 5 inside, a square
    /// moving from x 0 to 80 over frames 0...10 stands at x 40.
    @Test func aPathInsideARemappedPrecompositionMorphsAtTheRemappedFrame() throws {
        func square(_ x: Double) -> String {
            #"{"v": [[\#(x), 40], [\#(x + 10), 40], [\#(x + 10), 60], [\#(x), 60]], "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "c": true}"#
        }
        let path = #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(square(0))]}, {"t": 10, "s": [\#(square(80))]}]}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        let assets = #"[{"id": "inner", "layers": [\#(Self.shapeLayer(path))]}]"#
        let frozen = Self.animation(#"{"ty": 0, "ind": 1, "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 20, "st": 0, "ks": {}, "tm": {"a": 0, "k": 0.5}}"#, assets: assets)
        let image = try picture(frozen, at: 1)
        #expect(rgba(image, 45, 50)[0] == 255 && rgba(image, 5, 50)[3] == 0, "x 40...50")
    }

    /// Time remapping (`tm`: seconds of the precomposition at each frame of
    /// the layer): a freeze frame, and a remap that plays it backwards.
    @Test func aRemappedPrecompositionShowsTheRemappedFrame() throws {
        // The asset's square moves from x 0 to 40 over its frames 0...20.
        let moving = Self.shapeLayer(Self.redSquare, ks: #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 20, "s": [40, 0]}]}"#)
        let assets = #"[{"id": "inner", "layers": [\#(moving)]}]"#
        func precomp(_ tm: String, start: Double = 0) -> [UInt8] {
            Self.animation(#"{"ty": 0, "ind": 1, "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 40, "st": \#(start), "ks": {}, "tm": \#(tm)}"#,
                           assets: assets, op: 40)
        }
        // Frozen at 1 s: inside frame 10, x 20 (the square spans 50...90), whatever the time.
        let frozen = precomp(#"{"a": 0, "k": 1}"#)
        for time in [0.0, 1.5, 3.0] {
            let image = try picture(frozen, at: time)
            #expect(rgba(image, 85, 50)[0] == 255 && rgba(image, 45, 50)[3] == 0, "frozen at time \(time)")
        }
        // Backwards: 2 s inside at frame 0, 0 s at frame 20.
        let backwards = precomp(#"{"a": 1, "k": [{"t": 0, "s": [2]}, {"t": 20, "s": [0]}]}"#)
        // (Frame 20 inside is the inner layer's out point, where it is hidden: frame 1 outside is 19 inside.)
        let start = try picture(backwards, at: 0.1), middle = try picture(backwards, at: 1), end = try picture(backwards, at: 2)
        #expect(rgba(start, 95, 50)[0] == 255 && rgba(start, 65, 50)[3] == 0, "frame 1 outside is frame 19 inside: x 38")
        #expect(rgba(middle, 55, 50)[0] == 255 && rgba(middle, 45, 50)[3] == 0, "frame 10 outside is frame 10 inside: x 20")
        #expect(rgba(end, 35, 50)[0] == 255 && rgba(end, 75, 50)[3] == 0, "frame 20 outside is frame 0 inside: x 0")
        // The remap's keyframes are at frames of the composition holding the
        // layer, whatever its start time (as lottie-ios reads them).
        let started = try picture(precomp(#"{"a": 1, "k": [{"t": 0, "s": [2]}, {"t": 20, "s": [0]}]}"#, start: 10), at: 1)
        #expect(rgba(started, 55, 50)[0] == 255 && rgba(started, 45, 50)[3] == 0, "frame 10 outside is still frame 10 inside")
    }

    /// A remapped precomposition's animations are sampled a keyframe a
    /// frame: a long one of many animated layers is refused at its `tm`.
    @Test func remappingThatWouldSampleTooMuchIsRefused() throws {
        let moving = Self.shapeLayer(Self.redSquare, ks: #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 20, "s": [40, 0]}]}"#)
        let assets = #"[{"id": "inner", "layers": [\#(Array(repeating: moving, count: 600).joined(separator: ", "))]}]"#
        let layer = #"{"ty": 0, "ind": 1, "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 500000, "st": 0, "ks": {}, "tm": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 500000, "s": [2]}]}}"#
        #expect { try LottieReader().read(Self.animation(layer, assets: assets, op: 500_000)) } throws: { error in
            (error as? SceneError).map { $0.kind == .limitExceeded && $0.location.hasSuffix(".tm") } ?? false
        }
    }

    @Test func parentingMovesWithTheParentButKeepsItsOwnOpacity() throws {
        let parent = #"{"ty": 3, "ind": 7, "ip": 0, "op": 20, "ks": {"p": {"a": 0, "k": [20, 0]}, "o": {"a": 0, "k": 0}}}"#
        let child = Self.shapeLayer(Self.redSquare, extra: #", "parent": 7"#).replacingOccurrences(of: #""ind": 1"#, with: #""ind": 2"#)
        let image = try picture(Self.animation(child + ", " + parent))
        #expect(rgba(image, 85, 50)[0] == 255, "moved 20 right by its parent")
        #expect(rgba(image, 35, 50)[3] == 0)
    }

    /// What lottie-ios passes over is a located warning, not a refusal: a
    /// parent that is not in the composition ends the chain of parents
    /// there (the parents before it still move the layer), and an image
    /// layer whose asset is missing draws nothing.
    @Test func aMissingParentOrImageAssetIsAWarning() throws {
        let parent = #"{"ty": 3, "ind": 7, "parent": 99, "ip": 0, "op": 20, "ks": {"p": {"a": 0, "k": [20, 0]}}}"#
        let child = Self.shapeLayer(Self.redSquare, extra: #", "parent": 7"#).replacingOccurrences(of: #""ind": 1"#, with: #""ind": 2"#)
        let read = try LottieReader().read(Self.animation(child + ", " + parent))
        #expect(read.warnings.contains { $0.subject == "$.layers[0].parent" && $0.action == .tolerated && $0.reason.contains("ind 99") })
        let moved = try LayerRenderer(backend: .cpu).render(read.scene, time: 0)
        #expect(rgba(moved, 85, 50)[0] == 255 && rgba(moved, 35, 50)[3] == 0, "still moved by the parent that is there")

        let image = #"{"ty": 2, "ind": 1, "refId": "photo.jpg", "ip": 0, "op": 20, "ks": {}}"#
        let withoutAsset = try LottieReader().read(Self.animation(image + ", " + Self.shapeLayer(Self.redSquare).replacingOccurrences(of: #""ind": 1"#, with: #""ind": 2"#)))
        #expect(withoutAsset.warnings.contains { $0.subject == "$.layers[0].refId" && $0.action == .tolerated })
        #expect(rgba(try LayerRenderer(backend: .cpu).render(withoutAsset.scene, time: 0), 50, 50) == [255, 0, 0, 255], "the rest is drawn")
    }

    /// Sloppy files from the lottie-spec's tests: an image marked embedded
    /// whose `p` is no data URI draws nothing, said so at the asset; an
    /// `a` that is neither 0 nor 1 is read by the form of `k`, said so.
    @Test func aMalformedEmbeddedImageAndAnOddAnimatedFlagAreWarnings() throws {
        let assets = #"[{"id": "image_0", "w": 10, "h": 10, "p": "MalformedDataUrl", "e": 1}]"#
        let image = #"{"ty": 2, "ind": 1, "refId": "image_0", "ip": 0, "op": 20, "ks": {}}"#
        let malformed = try LottieReader().read(Self.animation(image, assets: assets))
        #expect(malformed.warnings.contains { $0.subject == "$.assets[image_0].p" && $0.action == .tolerated && $0.reason.contains("e: 1") })
        let odd = Self.shapeLayer(Self.redSquare, ks: #""p": {"a": 2, "k": [10, 0]}"#)
        let read = try LottieReader().read(Self.animation(odd))
        #expect(read.warnings.contains { $0.subject == "$.layers[0].ks.p.a" && $0.action == .tolerated })
        #expect(rgba(try LayerRenderer(backend: .cpu).render(read.scene, time: 0), 65, 50) == [255, 0, 0, 255], "placed by k")
        #expect(!(try LottieReader().read(Self.animation(Self.shapeLayer(Self.redSquare)))).warnings.contains { $0.subject.hasSuffix(".a") })
    }

    /// Track mattes as lottie-ios pairs them: a layer with `tt` is masked
    /// by the layer just above it, which is not drawn itself (alpha: shown
    /// where the matte is; inverted: where it is not), whether or not that
    /// layer says `td` (lottie-ios does not read it, and Apple's pictures of
    /// `pr_2676`, a matte below its layer, are the closer for it); a `td`
    /// layer no layer below uses is drawn.
    @Test func aTrackMatteIsTheLayerJustAbove() throws {
        func blue(tt: Int) -> String {
            ##"{"ty": 1, "ind": 2, "ip": 0, "op": 20, "st": 0, "ks": {}, "sc": "#0000ff", "sw": 100, "sh": 100, "tt": \##(tt)}"##
        }
        func matte(td: Bool) -> String {
            Self.shapeLayer(Self.redSquare, extra: td ? #", "td": 1"# : "")
        }
        func image(_ layers: String) throws -> CGImage { try picture(Self.animation(layers)) }
        for td in [true, false] {
            let alpha = try image(matte(td: td) + ", " + blue(tt: 1))
            #expect(rgba(alpha, 50, 50) == [0, 0, 255, 255] && rgba(alpha, 10, 10)[3] == 0, "alpha, td \(td)")
            let inverted = try image(matte(td: td) + ", " + blue(tt: 2))
            #expect(rgba(inverted, 50, 50)[3] == 0 && rgba(inverted, 10, 10) == [0, 0, 255, 255], "inverted, td \(td)")
        }
        // A matte that no layer below uses is drawn, over the layer below.
        let unused = try image(matte(td: true) + ", " + blue(tt: 0))
        #expect(rgba(unused, 50, 50) == [255, 0, 0, 255] && rgba(unused, 10, 10) == [0, 0, 255, 255])
    }

    /// lottie-ios stretches time in precompositions only: a shape layer's
    /// `sr` is not applied, and said so at its path.
    @Test func aShapeLayersTimeStretchIsAWarning() throws {
        let moving = Self.shapeLayer(Self.redSquare, ks: #""p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 10, "s": [40, 0]}]}"#,
                                     extra: #", "sr": 0.5"#)
        let read = try LottieReader().read(Self.animation(moving))
        #expect(read.warnings.contains { $0.subject == "$.layers[0].sr" && $0.action == .tolerated })
        // At 0.5 s (frame 5) the square is half way, as without the stretch.
        let halfway = try LayerRenderer(backend: .cpu).render(read.scene, time: 0.5)
        #expect(rgba(halfway, 55, 50) == [255, 0, 0, 255] && rgba(halfway, 45, 50)[3] == 0, "moved 20, not 40")
        #expect(!(try LottieReader().read(Self.animation(Self.shapeLayer(Self.redSquare)))).warnings.contains { $0.subject.hasSuffix(".sr") })
    }

    @Test func unsupportedItemsAreWarnedAboutAtTheirPath() throws {
        let shapes = Self.redSquare + #", {"ty": "mm", "mm": 1}"#
        let result = try LottieReader().read(Self.animation(Self.shapeLayer(shapes)))
        #expect(result.warnings.contains {
            $0.subject.contains("$.layers[0].shapes[2]") && $0.action == .skipped && $0.reason.contains("merged paths")
                && $0.reason.contains("lottie-ios")
        })
        #expect(rgba(try LayerRenderer(backend: .cpu).render(result.scene, time: 0), 50, 50) == [255, 0, 0, 255],
                "the paths drawn unchanged, as lottie-ios's engine draws them")
        #expect(throws: SceneError.self) { try LottieReader(strict: true).read(Self.animation(Self.shapeLayer(shapes))) }
    }

    // MARK: Hostile files

    @Test func aPrecompositionThatContainsItselfIsRefused() {
        let loop = #"[{"id": "a", "layers": [{"ty": 0, "ind": 1, "refId": "a", "ip": 0, "op": 20, "ks": {}}]}]"#
        let error = #expect(throws: SceneError.self) {
            try LottieReader().read(Self.animation(#"{"ty": 0, "ind": 1, "refId": "a", "ip": 0, "op": 20, "ks": {}}"#, assets: loop))
        }
        #expect(error?.message.contains("contains itself") == true)
        #expect(error?.location.contains("$.assets[a].layers[0].refId") == true)
    }

    @Test func aParentLoopIsRefused() {
        let a = #"{"ty": 3, "ind": 1, "parent": 2, "ip": 0, "op": 20, "ks": {}}"#
        let b = #"{"ty": 3, "ind": 2, "parent": 1, "ip": 0, "op": 20, "ks": {}}"#
        let error = #expect(throws: SceneError.self) { try LottieReader().read(Self.animation(a + ", " + b)) }
        #expect(error?.message.contains("loop") == true)
    }

    @Test func aBillionFrameRangeIsRefusedBeforeAnyWork() {
        let error = #expect(throws: SceneError.self) { try LottieReader().read(Self.animation("", op: 1e12)) }
        #expect(error?.location.contains("$.op") == true)
    }

    @Test func aPrecompositionUsedManyTimesCountsItsLayersEachTime() {
        // 100 uses of an asset of 100 uses of an asset of 100 layers: a million layers.
        let leaf = (0..<100).map { _ in #"{"ty": 3, "ind": 1, "ip": 0, "op": 20, "ks": {}}"# }.joined(separator: ", ")
        let mid = (0..<100).map { _ in #"{"ty": 0, "refId": "leaf", "ip": 0, "op": 20, "ks": {}}"# }.joined(separator: ", ")
        let top = (0..<100).map { _ in #"{"ty": 0, "refId": "mid", "ip": 0, "op": 20, "ks": {}}"# }.joined(separator: ", ")
        let assets = #"[{"id": "leaf", "layers": [\#(leaf)]}, {"id": "mid", "layers": [\#(mid)]}]"#
        let error = #expect(throws: SceneError.self) { try LottieReader().read(Self.animation(top, assets: assets)) }
        #expect(error?.kind == .limitExceeded)
    }

    /// Found by the fuzzer: a layer type of 4e38 trapped converting it to an Int.
    @Test func hugeNumbersWhereWholeNumbersBelongAreReadWithoutATrap() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/lottie-huge-numbers.json")
        let result = try LottieReader().read(Array(try Data(contentsOf: url)))
        #expect(result.warnings.contains { $0.subject.contains("$.layers[0]") })
        _ = try LayerRenderer(backend: .cpu).render(result.scene)
    }

    @Test func aGiantCanvasIsRefusedByTheRenderBudget() throws {
        let bytes = Array(#"{"fr": 30, "ip": 0, "op": 10, "w": 1e9, "h": 1e9, "layers": []}"#.utf8)
        let scene = try LottieReader().read(bytes).scene
        #expect(throws: RenderRefusal.self) { try LayerRenderer(backend: .cpu).render(scene) }
    }

    @Test func aTelegramStickerIsGzippedLottie() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-\(UUID()).tgs")
        defer { try? FileManager.default.removeItem(at: path) }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: json) }
        try Data(Self.animation(Self.shapeLayer(Self.redSquare))).write(to: json)
        gzip.arguments = ["-c", "gzip -c '\(json.path)' > '\(path.path)'"]
        try gzip.run()
        gzip.waitUntilExit()
        let loaded = try SceneLoader().load(contentsOf: path)
        #expect(loaded.format == .tgs && loaded.isLottie)
        #expect(try SceneLoader().load(Array(Data(contentsOf: path))).format == .tgs, "told by its bytes")
    }

    @Test func theLoaderTellsLottieFromSceneJSONByItsContent() throws {
        let loaded = try SceneLoader().load(Self.animation(Self.shapeLayer(Self.redSquare)))
        #expect(loaded.format == .lottie)
        #expect(loaded.duration == 2 && loaded.frameRate == 10)
        let scene = try SceneLoader().load(Array(#"{"width": 10, "height": 10}"#.utf8))
        #expect(scene.format == .json && scene.duration == nil)
    }
}

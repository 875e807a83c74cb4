// CGContext painted by ContextRasterizer: coverage of known shapes, fill rules,
// strokes, the CTM, graphics state, clipping, clearing and alpha.
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore

@Suite("CGContext on the CPU: shapes")
struct ContextShapeTests {
    @Test func rectAtHalfPixelOffsetHalfCoversItsEdgePixels() throws {
        // x 2.5 ... 6.5, device y 2.5 ... 6.5 = rows 3.5 ... 7.5 of 10.
        let p = try painted(10, 10) { $0.fill(CGRect(x: 2.5, y: 2.5, width: 4, height: 4)) }
        #expect(near(try alpha(p, 2, 5), 128))
        #expect(try alpha(p, 3, 5) == 255)
        #expect(try alpha(p, 5, 5) == 255)
        #expect(near(try alpha(p, 6, 5), 128))
        #expect(try alpha(p, 1, 5) == 0)
        #expect(try alpha(p, 7, 5) == 0)
        #expect(near(try alpha(p, 4, 3), 128))
        #expect(near(try alpha(p, 4, 7), 128))
        #expect(try alpha(p, 4, 2) == 0)
        #expect(try alpha(p, 4, 8) == 0)
        #expect(near(try alpha(p, 2, 3), 64))  // a corner: a quarter
        #expect(abs(coveredArea(p) - 16) < 0.05)
    }

    @Test func deviceSpaceHasItsOriginAtTheBottomLeft() throws {
        let p = try painted(8, 8) { $0.fill(CGRect(x: 0, y: 0, width: 3, height: 2)) }
        #expect(try alpha(p, 0, 7) == 255)
        #expect(try alpha(p, 2, 6) == 255)
        #expect(try alpha(p, 0, 5) == 0)
        #expect(try alpha(p, 0, 0) == 0)
    }

    @Test func fillColourIsPaintedPremultiplied() throws {
        let p = try painted(4, 4) { ctx in
            ctx.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
            ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        let pixel = try rgba(p, 1, 1)
        #expect(near(pixel[0], 128) && near(pixel[1], 64) && pixel[2] == 0 && near(pixel[3], 128))
    }

    @Test func windingAndEvenOddRulesTreatAnInnerSquareDifferently() throws {
        func square(_ rule: CGPathFillRule) throws -> Pixmap {
            try painted(20, 20) { ctx in
                // Both squares wind the same way: winding 2 inside the inner one.
                ctx.addRect(CGRect(x: 2, y: 2, width: 16, height: 16))
                ctx.addRect(CGRect(x: 7, y: 7, width: 6, height: 6))
                ctx.fillPath(using: rule)
            }
        }
        let winding = try square(.winding), evenOdd = try square(.evenOdd)
        #expect(try alpha(winding, 10, 10) == 255)
        #expect(try alpha(evenOdd, 10, 10) == 0)
        #expect(try alpha(winding, 4, 4) == 255)
        #expect(try alpha(evenOdd, 4, 4) == 255)
        #expect(abs(coveredArea(evenOdd) - (256 - 36)) < 0.05)
    }

    @Test func drawPathModesUseTheirFillRule() throws {
        func star(_ mode: CGPathDrawingMode) throws -> Pixmap {
            try painted(40, 40) { ctx in
                let centre = CGPoint(x: 20, y: 20)
                for i in 0..<5 {
                    let angle = CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
                    let point = CGPoint(x: centre.x + 18 * cos(angle), y: centre.y + 18 * sin(angle))
                    i == 0 ? ctx.move(to: point) : ctx.addLine(to: point)
                }
                ctx.closePath()
                ctx.drawPath(using: mode)
            }
        }
        #expect(try alpha(star(.fill), 20, 20) == 255)
        #expect(try alpha(star(.eoFill), 20, 20) == 0)
    }

    @Test func ellipseAreaMatchesTheCircleWithinTheFlatteningTolerance() throws {
        let p = try painted(40, 40) { $0.fillEllipse(in: CGRect(x: 4, y: 4, width: 30, height: 30)) }
        let area = Double.pi * 15 * 15
        // Chords lie inside the circle, at most 0.2 px from it: each cuts
        // off a segment of at most ⅔ · chord · 0.2.
        let loss = area - coveredArea(p)
        #expect(loss > 0 && loss < 2 * Double.pi * 15 * 0.2 * 2 / 3)
    }

    @Test func turningAntialiasingOffPaintsPixelsAtLeastHalfCovered() throws {
        let p = try painted(10, 10) { ctx in
            ctx.setShouldAntialias(false)
            ctx.fill(CGRect(x: 2.4, y: 0, width: 4, height: 10))  // 2.4 ... 6.4
        }
        #expect(try alpha(p, 2, 5) == 255)
        #expect(try alpha(p, 6, 5) == 0)
        #expect(Set(p.data.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)) == [0, 255])
    }
}

@Suite("CGContext on the CPU: strokes")
struct ContextStrokeTests {
    /// A horizontal line along device y = 10 from x = 4 to 16, in a 20x20
    /// context: rows 10 − w/2 ... 10 + w/2 from the top.
    private func line(width: CGFloat, cap: CGLineCap) throws -> Pixmap {
        try painted(20, 20) { ctx in
            ctx.setLineWidth(width)
            ctx.setLineCap(cap)
            ctx.move(to: CGPoint(x: 4, y: 10))
            ctx.addLine(to: CGPoint(x: 16, y: 10))
            ctx.strokePath()
        }
    }

    @Test func strokeWidthIsCentredOnThePath() throws {
        let p = try line(width: 4, cap: .butt)
        for row in 8...11 { #expect(try alpha(p, 10, row) == 255) }
        #expect(try alpha(p, 10, 7) == 0)
        #expect(try alpha(p, 10, 12) == 0)
        #expect(abs(coveredArea(p) - 48) < 0.05)
    }

    @Test func capsExtendTheEnds() throws {
        let butt = try line(width: 4, cap: .butt)
        let square = try line(width: 4, cap: .square)
        let round = try line(width: 4, cap: .round)
        #expect(try alpha(butt, 4, 9) == 255 && alpha(butt, 3, 9) == 0)
        #expect(try alpha(square, 2, 9) == 255 && alpha(square, 1, 9) == 0 && alpha(square, 17, 9) == 255)
        #expect(abs(coveredArea(square) - 64) < 0.05)
        // Round caps: two half discs of radius 2, drawn by chords within 0.2 px.
        let capLoss = 48 + 4 * Double.pi - coveredArea(round)
        #expect(capLoss > 0 && capLoss < 2 * (2 * Double.pi) * 0.2 * 2 / 3)
        #expect(try alpha(round, 3, 9) == 255)
        let tip = try alpha(round, 2, 9)
        #expect(tip > 0 && tip < 255)
    }

    @Test func strokeWidthIsInUserSpace() throws {
        // A vertical line 1 unit wide at x = 3.5, with x stretched 3 times:
        // device x 9 ... 12.
        let p = try painted(20, 20) { ctx in
            ctx.scaleBy(x: 3, y: 1)
            ctx.move(to: CGPoint(x: 3.5, y: 2))
            ctx.addLine(to: CGPoint(x: 3.5, y: 18))
            ctx.strokePath()
        }
        #expect(try alpha(p, 8, 10) == 0)
        for column in 9...11 { #expect(try alpha(p, column, 10) == 255) }
        #expect(try alpha(p, 12, 10) == 0)
        #expect(abs(coveredArea(p) - 48) < 0.05)
    }

    @Test func zeroWidthStrokesAOnePixelHairline() throws {
        let p = try painted(20, 20) { ctx in
            ctx.scaleBy(x: 4, y: 4)
            ctx.setLineWidth(0)
            ctx.move(to: CGPoint(x: 1, y: 2.625))  // device y = 10.5
            ctx.addLine(to: CGPoint(x: 4, y: 2.625))
            ctx.strokePath()
        }
        #expect(try alpha(p, 10, 9) == 255)
        #expect(try alpha(p, 10, 8) == 0 && alpha(p, 10, 10) == 0)
        #expect(abs(coveredArea(p) - 12) < 0.05)
    }

    @Test func dashesAlternateAlongTheLine() throws {
        let p = try painted(20, 4) { ctx in
            ctx.setLineWidth(2)
            ctx.setLineDash(phase: 0, lengths: [2, 2])
            ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 2), CGPoint(x: 16, y: 2)])
        }
        let row = try (0..<16).map { try alpha(p, $0, 1) }
        #expect(row == [255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0])
    }

    @Test func strokeRectAndFillStrokeDrawBothColours() throws {
        let p = try painted(20, 20) { ctx in
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            ctx.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.setLineWidth(2)
            ctx.addRect(CGRect(x: 4, y: 4, width: 12, height: 12))
            ctx.drawPath(using: .fillStroke)
        }
        #expect(try rgba(p, 10, 10) == blue)
        #expect(try rgba(p, 3, 10) == red && rgba(p, 4, 10) == red)  // x 3 ... 5
        #expect(try rgba(p, 5, 10) == blue)
        #expect(try alpha(p, 2, 10) == 0)
    }
}

@Suite("CGContext on the CPU: the CTM")
struct ContextTransformTests {
    @Test func translateMovesTheDrawing() throws {
        let p = try painted(20, 20) { ctx in
            ctx.translateBy(x: 5, y: 3)
            ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        }
        // Device x 5 ... 7, y 3 ... 5: rows 15 ... 16.
        #expect(try alpha(p, 5, 15) == 255 && alpha(p, 6, 16) == 255)
        #expect(try alpha(p, 4, 15) == 0 && alpha(p, 7, 15) == 0 && alpha(p, 5, 14) == 0 && alpha(p, 5, 17) == 0)
        #expect(abs(coveredArea(p) - 4) < 0.01)
    }

    @Test func scaleGrowsTheDrawing() throws {
        let p = try painted(20, 20) { ctx in
            ctx.scaleBy(x: 2, y: 3)
            ctx.fill(CGRect(x: 1, y: 1, width: 2, height: 2))
        }
        // Device x 2 ... 6, y 3 ... 9: rows 11 ... 16.
        #expect(try alpha(p, 2, 11) == 255 && alpha(p, 5, 16) == 255)
        #expect(try alpha(p, 6, 12) == 0 && alpha(p, 3, 10) == 0 && alpha(p, 3, 17) == 0)
        #expect(abs(coveredArea(p) - 24) < 0.01)
    }

    @Test func rotationTurnsXTowardsY() throws {
        let p = try painted(20, 20) { ctx in
            ctx.rotate(by: .pi / 2)
            // (x, y) ↦ (−y, x): x 2 ... 4, y −8 ... −6 go to x 6 ... 8, y 2 ... 4.
            ctx.fill(CGRect(x: 2, y: -8, width: 2, height: 2))
        }
        #expect(try alpha(p, 6, 16) == 255 && alpha(p, 7, 17) == 255)
        #expect(try alpha(p, 2, 16) == 0 && alpha(p, 6, 12) == 0)
        #expect(abs(coveredArea(p) - 4) < 0.01)
    }

    @Test func concatenateAppliesBeforeTheCTM() throws {
        let p = try painted(20, 20) { ctx in
            ctx.translateBy(x: 2, y: 0)
            ctx.concatenate(CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
            // Scaled first, then moved: x 2 ... 4 → 4 ... 6 (not 6 ... 8).
            ctx.fill(CGRect(x: 1, y: 1, width: 1, height: 1))
        }
        #expect(try alpha(p, 4, 16) == 255 && alpha(p, 5, 17) == 255)
        #expect(try alpha(p, 6, 16) == 0 && alpha(p, 3, 16) == 0)
    }

    @Test func pathPointsUseTheCTMWhenTheyAreAdded() throws {
        let p = try painted(20, 20) { ctx in
            ctx.move(to: CGPoint(x: 0, y: 0))
            ctx.translateBy(x: 10, y: 0)
            ctx.addLine(to: CGPoint(x: 0, y: 10))  // device (10, 10)
            ctx.addLine(to: CGPoint(x: -10, y: 10))  // device (0, 10)
            ctx.fillPath()
        }
        // The triangle (0, 0), (10, 10), (0, 10): the pixel at device (2, 8) is in.
        #expect(try alpha(p, 2, 11) == 255)
        #expect(try alpha(p, 8, 18) == 0)
        #expect(abs(coveredArea(p) - 50) < 0.05)
    }
}

@Suite("CGContext on the CPU: state, clipping, clearing, alpha")
struct ContextStateTests {
    @Test func restoreGStateBringsBackColourCTMAndClip() throws {
        let p = try painted(20, 20) { ctx in
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.saveGState()
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            ctx.translateBy(x: 10, y: 0)
            ctx.clip(to: CGRect(x: 0, y: 0, width: 5, height: 20))
            ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))  // device x 10 ... 15 only
            ctx.restoreGState()
            ctx.fill(CGRect(x: 0, y: 10, width: 20, height: 10))  // red, top half, unclipped
        }
        #expect(try rgba(p, 12, 15) == blue)
        #expect(try alpha(p, 16, 15) == 0)
        #expect(try rgba(p, 2, 5) == red && rgba(p, 18, 5) == red)
    }

    @Test func clipToRectIsAntialiased() throws {
        let p = try painted(10, 10) { ctx in
            ctx.clip(to: CGRect(x: 2.5, y: 0, width: 5, height: 10))
            ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        }
        #expect(near(try alpha(p, 2, 4), 128))
        #expect(try alpha(p, 3, 4) == 255 && alpha(p, 6, 4) == 255)
        #expect(near(try alpha(p, 7, 4), 128))
        #expect(try alpha(p, 1, 4) == 0 && alpha(p, 8, 4) == 0)
    }

    @Test func clipToAnEllipsePathKeepsTheDisc() throws {
        let p = try painted(40, 40) { ctx in
            ctx.addEllipse(in: CGRect(x: 0, y: 0, width: 40, height: 40))
            ctx.clip()
            ctx.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        }
        #expect(try alpha(p, 20, 20) == 255)
        #expect(try alpha(p, 1, 1) == 0 && alpha(p, 38, 38) == 0)
        let loss = Double.pi * 400 - coveredArea(p)
        #expect(loss > 0 && loss < 2 * Double.pi * 20 * 0.2 * 2 / 3)
        // The boundary is anti-aliased: some pixels are partly painted.
        #expect(p.data.enumerated().contains { $0.offset % 4 == 3 && $0.element > 0 && $0.element < 255 })
    }

    @Test func clipsIntersect() throws {
        let p = try painted(20, 20) { ctx in
            ctx.clip(to: CGRect(x: 0, y: 0, width: 12, height: 20))
            ctx.addEllipse(in: CGRect(x: 8, y: 0, width: 12, height: 20))
            ctx.clip(using: .evenOdd)
            ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        }
        #expect(try alpha(p, 10, 10) == 255)  // in both
        #expect(try alpha(p, 14, 10) == 0)  // in the ellipse only
        #expect(try alpha(p, 4, 10) == 0)  // in the rect only
    }

    @Test func resetClipRemovesTheClip() throws {
        let p = try painted(10, 10) { ctx in
            ctx.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
            ctx.resetClip()
            ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        }
        #expect(abs(coveredArea(p) - 100) < 0.01)
    }

    @Test func clearMakesPixelsTransparentWithinTheClip() throws {
        let p = try painted(20, 20) { ctx in
            ctx.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
            ctx.clear(CGRect(x: 2, y: 2, width: 4, height: 4))
            ctx.saveGState()
            ctx.clip(to: CGRect(x: 10, y: 0, width: 10, height: 20))
            ctx.clear(CGRect(x: 8, y: 10, width: 12, height: 10.5))  // x 8 ... 20, y 10 ... 20 (past the top)
            ctx.restoreGState()
        }
        #expect(try rgba(p, 3, 16) == transparent)
        #expect(try rgba(p, 1, 16) == white && rgba(p, 6, 16) == white)
        #expect(try rgba(p, 12, 4) == transparent)
        #expect(try rgba(p, 9, 4) == white)  // outside the clip
        #expect(try rgba(p, 12, 12) == white)  // below the cleared rect
    }

    @Test func clearAtHalfPixelsLeavesHalfAlpha() throws {
        let p = try painted(10, 10) { ctx in
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
            ctx.clear(CGRect(x: 2.5, y: 0, width: 5, height: 10))
        }
        let edge = try rgba(p, 2, 5)
        #expect(near(edge[0], 128) && near(edge[3], 128) && edge[1] == 0)
        #expect(try rgba(p, 4, 5) == transparent)
        #expect(try rgba(p, 0, 5) == red)
    }

    @Test func globalAlphaMultipliesColour() throws {
        let p = try painted(10, 10) { ctx in
            ctx.setAlpha(0.5)
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 5, height: 10))
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
            ctx.fill(CGRect(x: 5, y: 0, width: 5, height: 10))
        }
        let half = try rgba(p, 2, 5), quarter = try rgba(p, 7, 5)
        #expect(near(half[0], 128) && near(half[3], 128))
        #expect(near(quarter[2], 64) && near(quarter[3], 64))
    }

    @Test func alphaBlendsSourceOver() throws {
        let p = try painted(4, 4) { ctx in
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
            ctx.setAlpha(0.25)
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        let pixel = try rgba(p, 1, 1)
        #expect(near(pixel[0], 64) && near(pixel[2], 191) && pixel[3] == 255)
    }
}

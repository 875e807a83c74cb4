// CGContext: graphics state, CTM composition, path building, clipping and
// the device-space recording, without a rasterizer.
import Foundation
import Testing
@testable import LaminaCore

@Suite struct ContextRecordingTests {
    private func context(width: Int = 100, height: Int = 50) throws -> CGContext {
        try #require(CGContext(width: width, height: height))
    }

    private func fills(_ ctx: CGContext) -> [FillCommand] {
        ctx.recording.commands.compactMap { if case let .fill(f) = $0 { f } else { nil } }
    }

    private func strokes(_ ctx: CGContext) -> [StrokeCommand] {
        ctx.recording.commands.compactMap { if case let .stroke(s) = $0 { s } else { nil } }
    }

    @Test func sizesBelowOneAreRefused() {
        #expect(CGContext(width: 0, height: 10) == nil)
        #expect(CGContext(width: 10, height: -1) == nil)
    }

    @Test func aNewContextHasTheIdentityCTMAndNoCommands() throws {
        let ctx = try context()
        #expect(ctx.ctm == .identity)
        #expect(ctx.userSpaceToDeviceSpaceTransform == .identity)
        #expect(ctx.recording == DrawingRecording(width: 100, height: 50))
        #expect(ctx.isPathEmpty)
    }

    @Test func ctmCallsApplyBeforeTheCurrentCTM() throws {
        let ctx = try context()
        ctx.translateBy(x: 10, y: 20)
        ctx.scaleBy(x: 2, y: 3)
        // The scale acts first, then the translation.
        #expect(ctx.convertToDeviceSpace(CGPoint(x: 1, y: 1)) == CGPoint(x: 12, y: 23))
        ctx.rotate(by: .pi / 2)
        #expect(isNear(ctx.convertToDeviceSpace(CGPoint(x: 1, y: 0)), CGPoint(x: 10, y: 23), 1e-12))
        ctx.concatenate(CGAffineTransform(translationX: 1, y: 0))
        #expect(isNear(ctx.convertToDeviceSpace(.zero), CGPoint(x: 10, y: 23), 1e-12))
        #expect(isNear(ctx.convertToUserSpace(CGPoint(x: 10, y: 23)), .zero, 1e-12))
    }

    @Test func saveAndRestoreBringBackTheGraphicsStateButNotThePath() throws {
        let ctx = try context()
        ctx.setFillColor(CGColor.white)
        ctx.setLineWidth(4)
        ctx.saveGState()
        ctx.translateBy(x: 5, y: 5)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.setLineWidth(9)
        ctx.setAlpha(0.5)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 10, height: 10))
        ctx.move(to: .zero)
        ctx.addLine(to: CGPoint(x: 1, y: 1))
        ctx.restoreGState()
        #expect(ctx.ctm == .identity)
        #expect(!ctx.isPathEmpty)  // the path is not part of the state
        ctx.strokePath()
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(strokes(ctx).first?.style.lineWidth == 4)
        #expect(fills(ctx).first?.color == .white)
        #expect(fills(ctx).first?.clip == DrawingClip.none)
        ctx.restoreGState()  // unbalanced: ignored
        #expect(ctx.ctm == .identity)
    }

    @Test func pathPointsAreStoredInDeviceSpaceWhenAdded() throws {
        let ctx = try context()
        ctx.move(to: CGPoint(x: 1, y: 1))
        ctx.scaleBy(x: 10, y: 10)
        ctx.addLine(to: CGPoint(x: 1, y: 1))
        ctx.fillPath()
        let path = try #require(fills(ctx).first?.path)
        #expect(path.elements == [.moveTo(CGPoint(x: 1, y: 1)), .lineTo(CGPoint(x: 10, y: 10))])
        #expect(ctx.isPathEmpty)
    }

    @Test func fillRecordsTheDevicePathRuleAndColourWithAlpha() throws {
        let ctx = try context()
        ctx.translateBy(x: 0, y: 50)
        ctx.scaleBy(x: 2, y: -2)
        ctx.setFillColor(gray: 1, alpha: 0.8)
        ctx.setAlpha(0.5)
        ctx.addRect(CGRect(x: 0, y: 0, width: 10, height: 5))
        ctx.fillPath(using: .evenOdd)
        let fill = try #require(fills(ctx).first)
        #expect(fill.rule == .evenOdd)
        #expect(fill.path.boundingBox == CGRect(x: 0, y: 40, width: 20, height: 10))
        #expect(abs(fill.color.alpha - 0.4) < 1e-12)
        #expect(fill.antialias)
    }

    @Test func strokeRecordsTheUserSpacePathWithTheCTMAndStyle() throws {
        let ctx = try context()
        ctx.scaleBy(x: 3, y: 1)
        ctx.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.setLineWidth(2)
        ctx.setLineCap(.round)
        ctx.setLineJoin(.bevel)
        ctx.setMiterLimit(4)
        ctx.setLineDash(phase: 1, lengths: [4, 2])
        ctx.move(to: CGPoint(x: 1, y: 1))
        ctx.addLine(to: CGPoint(x: 5, y: 1))
        ctx.strokePath()
        let stroke = try #require(strokes(ctx).first)
        #expect(stroke.path.elements == [.moveTo(CGPoint(x: 1, y: 1)), .lineTo(CGPoint(x: 5, y: 1))])
        #expect(stroke.transform == CGAffineTransform(scaleX: 3, y: 1))
        #expect(stroke.style == StrokeStyle(lineWidth: 2, lineCap: .round, lineJoin: .bevel, miterLimit: 4,
                                            dashPattern: [4, 2], dashPhase: 1))
        #expect(stroke.color == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    }

    @Test func aSingularCTMStrokesNothing() throws {
        let ctx = try context()
        ctx.scaleBy(x: 0, y: 1)
        ctx.stroke(CGRect(x: 0, y: 0, width: 5, height: 5))
        #expect(ctx.recording.commands.isEmpty)
    }

    @Test func drawPathModesFillThenStroke() throws {
        let ctx = try context()
        ctx.addEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        ctx.drawPath(using: .eoFillStroke)
        #expect(ctx.recording.commands.count == 2)
        #expect(fills(ctx).first?.rule == .evenOdd)
        #expect(strokes(ctx).count == 1)
        #expect(ctx.isPathEmpty)
    }

    @Test func conveniencesRecordTheirOwnShapesAndEmptyThePath() throws {
        let ctx = try context()
        ctx.move(to: .zero)
        ctx.addLine(to: CGPoint(x: 3, y: 3))
        ctx.fill([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 2, width: 1, height: 1)])
        #expect(ctx.isPathEmpty)
        ctx.setLineWidth(1)
        ctx.stroke(CGRect(x: 0, y: 0, width: 4, height: 4), width: 6)
        #expect(strokes(ctx).last?.style.lineWidth == 6)
        ctx.strokePath()  // nothing to stroke
        #expect(strokes(ctx).count == 1)
        ctx.fillEllipse(in: CGRect(x: 0, y: 0, width: 4, height: 2))
        ctx.strokeEllipse(in: CGRect(x: 0, y: 0, width: 4, height: 2))
        ctx.strokeLineSegments(between: [.zero, CGPoint(x: 1, y: 0), CGPoint(x: 2, y: 0), CGPoint(x: 3, y: 0), CGPoint(x: 9, y: 9)])
        let segments = try #require(strokes(ctx).last)
        #expect(segments.path.elements.count == 4)
        #expect(fills(ctx).first?.path.elements.count == 10)  // two closed rectangles
        #expect(ctx.recording.commands.count == 5)
    }

    @Test func clippingIsRecordedWithEachCommandAndUndoneByRestore() throws {
        let ctx = try context()
        ctx.saveGState()
        ctx.scaleBy(x: 2, y: 2)
        ctx.clip(to: CGRect(x: 1, y: 1, width: 5, height: 5))
        ctx.addEllipse(in: CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.clip(using: .evenOdd)
        #expect(ctx.isPathEmpty)
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(isNear(ctx.boundingBoxOfClipPath, CGRect(x: 1, y: 1, width: 5, height: 5), 1e-9))
        ctx.restoreGState()
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        let clipped = try #require(fills(ctx).first).clip
        #expect(clipped.regions.count == 2)
        #expect(clipped.regions[0].path.boundingBox == CGRect(x: 2, y: 2, width: 10, height: 10))
        #expect(clipped.regions[1].rule == .evenOdd)
        #expect(fills(ctx).last?.clip == DrawingClip.none)
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 100, height: 50))
        ctx.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.resetClip()
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 100, height: 50))
    }

    @Test func clearRecordsADeviceRectangle() throws {
        let ctx = try context()
        ctx.translateBy(x: 10, y: 0)
        ctx.clear(CGRect(x: 0, y: 0, width: 5, height: 5))
        guard case let .clear(clear) = try #require(ctx.recording.commands.first) else {
            Issue.record("not a clear command")
            return
        }
        #expect(clear.path.boundingBox == CGRect(x: 10, y: 0, width: 5, height: 5))
    }

    @Test func imagesLandTopRowAtMaxYAsInCoreGraphics() throws {
        let ctx = try context()
        let image = try #require(try? CGImage(width: 4, height: 2, filledWith: .init(red: 0, green: 0, blue: 0, alpha: 255)))
        ctx.translateBy(x: 5, y: 0)
        ctx.interpolationQuality = .none
        ctx.draw(image, in: CGRect(x: 0, y: 10, width: 8, height: 4))
        guard case let .image(command) = try #require(ctx.recording.commands.first) else {
            Issue.record("not an image command")
            return
        }
        #expect(command.interpolationQuality == .none)
        // Pixel (0, 0), the top-left corner, is user (0, 14): device (5, 14).
        #expect(CGPoint.zero.applying(command.pixelTransform) == CGPoint(x: 5, y: 14))
        // Pixel (4, 2), the bottom-right corner, is user (8, 10): device (13, 10).
        #expect(CGPoint(x: 4, y: 2).applying(command.pixelTransform) == CGPoint(x: 13, y: 10))
        ctx.draw(image, in: .zero)  // empty: nothing
        #expect(ctx.recording.commands.count == 1)
    }

    @Test func pathQueriesAreInUserSpace() throws {
        let ctx = try context()
        ctx.scaleBy(x: 2, y: 2)
        ctx.move(to: CGPoint(x: 1, y: 1))
        ctx.addCurve(to: CGPoint(x: 5, y: 1), control1: CGPoint(x: 2, y: 3), control2: CGPoint(x: 4, y: 3))
        ctx.addQuadCurve(to: CGPoint(x: 7, y: 1), control: CGPoint(x: 6, y: 0))
        #expect(isNear(ctx.currentPointOfPath, CGPoint(x: 7, y: 1), 1e-12))
        #expect(ctx.boundingBoxOfPath.minX == 1)
        ctx.closePath()
        #expect(isNear(ctx.currentPointOfPath, CGPoint(x: 1, y: 1), 1e-12))
        let userPath = try #require(ctx.currentPath)
        #expect(userPath.boundingBox.maxX == 7)
        ctx.beginPath()
        #expect(ctx.currentPath == nil)
        #expect(ctx.currentPointOfPath == .zero)
    }

    @Test func arcsAndAddedPathsGoThroughTheCTM() throws {
        let ctx = try context()
        ctx.translateBy(x: 50, y: 0)
        ctx.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        ctx.addPath(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        ctx.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0)])
        ctx.addRects([CGRect(x: 0, y: 0, width: 2, height: 2)])
        ctx.move(to: CGPoint(x: 0, y: 20))
        ctx.addArc(tangent1End: CGPoint(x: 10, y: 20), tangent2End: CGPoint(x: 10, y: 30), radius: 5)
        ctx.fillPath()
        let box = try #require(fills(ctx).first).path.boundingBoxOfPath
        #expect(isNear(box, CGRect(x: 40, y: 0, width: 20, height: 25), 1e-9))
    }

    @Test func stateSettersWithoutCommands() throws {
        let ctx = try context()
        ctx.setShouldAntialias(false)
        ctx.setAlpha(7)
        ctx.setStrokeColor(gray: 0.5, alpha: 1)
        ctx.setStrokeColor(CGColor.white)
        ctx.setFillColor(CGColor.black)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        let fill = try #require(fills(ctx).first)
        #expect(!fill.antialias)
        #expect(fill.color.alpha == 1)  // alpha clamped to 1
    }
}

/// `makeImage()` paints with LaminaCore's own rasterizer: nothing needs
/// installing and no renderer need exist (it returned nil until something
/// had made a `LayerRenderer`).
@Suite struct ContextMakeImageTests {
    @Test func makeImagePaintsWithoutARenderer() throws {
        let ctx = try #require(CGContext(width: 4, height: 4))
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 4))
        let image = try #require(ctx.makeImage())
        #expect(image.width == 4 && image.height == 4)
        #expect(image.pixel(x: 0, y: 1) == CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 3, y: 1) == CGImage.Pixel(red: 0, green: 0, blue: 0, alpha: 0))
        let store = CABackingStore(recording: ctx.recording, contentsScale: 1)
        #expect(store.makeImage() == image)
    }
}

// Images drawn through a CGContext's CTM by ContextRasterizer: orientation,
// placement, scaling, sampling, alpha and clip.
import Foundation
import Testing
@testable import LaminaRaster
@testable import LaminaCore

@Suite("CGContext on the CPU: images")
struct ContextImageTests {
    @Test func imageIsUprightInAnUnflippedContext() throws {
        let image = try quadrantImage()
        let p = try painted(4, 4) { ctx in
            ctx.interpolationQuality = .none
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        #expect(try rgba(p, 0, 0) == red && rgba(p, 1, 1) == red)
        #expect(try rgba(p, 3, 0) == green && rgba(p, 2, 1) == green)
        #expect(try rgba(p, 0, 3) == blue && rgba(p, 1, 2) == blue)
        #expect(try rgba(p, 3, 3) == white && rgba(p, 2, 2) == white)
    }

    @Test func pixelAlignedImageIsCopiedExactlyWithBilinearSampling() throws {
        let image = try quadrantImage()
        let p = try painted(2, 2) { $0.draw(image, in: CGRect(x: 0, y: 0, width: 2, height: 2)) }
        #expect(p.data == image.pixelBytes)
    }

    @Test func imageIsStretchedIntoItsRect() throws {
        let image = try quadrantImage()
        let p = try painted(8, 8) { ctx in
            ctx.interpolationQuality = .none
            // Device x 4 ... 8, y 0 ... 2: rows 6 and 7, each texel 2 x 1 pixels.
            ctx.draw(image, in: CGRect(x: 4, y: 0, width: 4, height: 2))
        }
        #expect(try rgba(p, 4, 6) == red && rgba(p, 5, 6) == red)
        #expect(try rgba(p, 6, 6) == green && rgba(p, 7, 6) == green)
        #expect(try rgba(p, 4, 7) == blue && rgba(p, 7, 7) == white)
        #expect(try rgba(p, 3, 6) == transparent && rgba(p, 4, 5) == transparent)
        #expect(abs(coveredArea(p) - 8) < 0.01)
    }

    @Test func bilinearSamplingBlendsNeighbouringTexels() throws {
        let image = try quadrantImage()
        let p = try painted(8, 8) { $0.draw(image, in: CGRect(x: 0, y: 0, width: 8, height: 8)) }
        #expect(try rgba(p, 0, 0) == red)  // the corners clamp to their texel
        let middleOfTopRow = try rgba(p, 4, 0)  // halfway from red to green
        #expect(near(middleOfTopRow[0], 96, 2) && near(middleOfTopRow[1], 159, 2) && middleOfTopRow[2] == 0)
    }

    @Test func imageIsUpsideDownInAContextFlippedToYDown() throws {
        // CGContextDrawImage puts the image's top row at the rect's maximum
        // y; in a context flipped as a layer's is on iOS, that is the bottom.
        let image = try quadrantImage()
        let flipped = try painted(4, 4) { ctx in
            ctx.translateBy(x: 0, y: 4)
            ctx.scaleBy(x: 1, y: -1)
            ctx.interpolationQuality = .none
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        #expect(try rgba(flipped, 0, 0) == blue && rgba(flipped, 3, 0) == white)
        #expect(try rgba(flipped, 0, 3) == red && rgba(flipped, 3, 3) == green)
        // The iOS idiom flips it back about the rect: upright again.
        let upright = try painted(4, 4) { ctx in
            ctx.translateBy(x: 0, y: 4)
            ctx.scaleBy(x: 1, y: -1)
            ctx.interpolationQuality = .none
            let rect = CGRect(x: 0, y: 1, width: 4, height: 3)
            ctx.translateBy(x: 0, y: rect.minY + rect.maxY)
            ctx.scaleBy(x: 1, y: -1)
            ctx.draw(image, in: rect)
        }
        // The rect is y 1 ... 4 of a y-down space: rows 1 ... 3.
        #expect(try rgba(upright, 0, 1) == red && rgba(upright, 3, 3) == white)
        #expect(try rgba(upright, 0, 0) == transparent)
    }

    @Test func imageTurnsWithTheCTM() throws {
        let image = try quadrantImage()
        let p = try painted(4, 4) { ctx in
            ctx.translateBy(x: 4, y: 0)
            ctx.rotate(by: .pi / 2)  // (x, y) ↦ (4 − y, x)
            ctx.interpolationQuality = .none
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        // The top row now runs up the left side: red at the bottom left.
        #expect(try rgba(p, 0, 3) == red && rgba(p, 0, 0) == green)
        #expect(try rgba(p, 3, 3) == blue && rgba(p, 3, 0) == white)
    }

    @Test func imageTakesTheGlobalAlphaAndTheClip() throws {
        let image = try quadrantImage()
        let p = try painted(4, 4) { ctx in
            ctx.interpolationQuality = .none
            ctx.setAlpha(0.5)
            ctx.clip(to: CGRect(x: 0, y: 0, width: 2, height: 4))
            ctx.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        let halfRed = try rgba(p, 0, 0)
        #expect(near(halfRed[0], 128) && halfRed[1] == 0 && near(halfRed[3], 128))
        #expect(try rgba(p, 3, 0) == transparent)
    }

    @Test func colourAboveAlphaInAnImageIsLoweredToAlpha() throws {
        // CGImage does not check premultiplication; the rasterizer clamps.
        let image = try CGImage(width: 1, height: 1, premultipliedRGBA: [255, 40, 0, 128])
        let p = try painted(1, 1) { $0.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 1)) }
        #expect(try rgba(p, 0, 0) == [128, 40, 0, 128])
    }
}

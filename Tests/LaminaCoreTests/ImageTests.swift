import Foundation
import Testing
@testable import LaminaCore

@Suite struct ImageTests {
    private func image(_ width: Int, _ height: Int) throws -> CGImage {
        // Pixel (x, y) = (x, y, x + y, 255): every pixel tells where it came from.
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(x), UInt8(y), UInt8(x + y), 255] }
        }
        return try CGImage(width: width, height: height, premultipliedRGBA: bytes)
    }

    @Test func describesItsFormatLikeCoreGraphics() throws {
        let picture = try image(3, 2)
        #expect(picture.width == 3)
        #expect(picture.height == 2)
        #expect(picture.bytesPerRow == 12)
        #expect(picture.bitsPerComponent == 8)
        #expect(picture.bitsPerPixel == 32)
        #expect(picture.alphaInfo == .premultipliedLast)
        #expect(CGImageAlphaInfo.premultipliedLast.rawValue == 1)  // Core Graphics' raw value
        #expect(picture.pixelBytes.count == 24)
        #expect(picture.withUnsafeBytes { $0.count } == 24)
    }

    @Test func pixelAccessorReadsRowsFromTheTop() throws {
        let picture = try image(3, 2)
        #expect(picture.pixel(x: 0, y: 0) == .init(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(picture.pixel(x: 2, y: 1) == .init(red: 2, green: 1, blue: 3, alpha: 255))
        #expect(picture.pixel(x: 3, y: 0) == nil)
        #expect(picture.pixel(x: 0, y: 2) == nil)
        #expect(picture.pixel(x: -1, y: 0) == nil)
    }

    @Test(arguments: [(0, 1), (1, 0), (-1, 5), (5, -1)])
    func rejectsSizesBelowOne(size: (Int, Int)) {
        #expect(throws: CGImageError.invalidSize(width: size.0, height: size.1)) {
            try CGImage(width: size.0, height: size.1, premultipliedRGBA: [])
        }
        #expect(throws: CGImageError.invalidSize(width: size.0, height: size.1)) {
            try CGImage(width: size.0, height: size.1, filledWith: .init(red: 0, green: 0, blue: 0, alpha: 0))
        }
    }

    @Test func rejectsWrongByteCounts() {
        #expect(throws: CGImageError.byteCountMismatch(expected: 24, actual: 23)) {
            try CGImage(width: 3, height: 2, premultipliedRGBA: [UInt8](repeating: 0, count: 23))
        }
        #expect(throws: CGImageError.byteCountMismatch(expected: 24, actual: 25)) {
            try CGImage(width: 3, height: 2, straightRGBA: [UInt8](repeating: 0, count: 25))
        }
        #expect(throws: CGImageError.invalidBytesPerRow(bytesPerRow: 11, minimum: 12)) {
            try CGImage(width: 3, height: 2, bytesPerRow: 11, premultipliedRGBA: [UInt8](repeating: 0, count: 22))
        }
    }

    @Test func rejectsSizesWhoseByteCountOverflows() {
        #expect(throws: CGImageError.sizeOverflow(width: Int.max / 2, height: 1)) {
            try CGImage(width: Int.max / 2, height: 1, premultipliedRGBA: [])
        }
        #expect(throws: CGImageError.sizeOverflow(width: 1 << 31, height: 1 << 31)) {
            try CGImage(width: 1 << 31, height: 1 << 31, premultipliedRGBA: [])
        }
        #expect(throws: CGImageError.sizeOverflow(width: 1 << 31, height: 1 << 31)) {
            try CGImage(width: 1 << 31, height: 1 << 31, filledWith: .init(red: 0, green: 0, blue: 0, alpha: 0))
        }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect("\(CGImageError.byteCountMismatch(expected: 24, actual: 23))".contains("needs 24 bytes"))
        #expect("\(CGImageError.invalidSize(width: 0, height: 3))".contains("0x3"))
    }

    @Test func paddedRowsAreRepacked() throws {
        // bytesPerRow 15 = 12 bytes of pixels + 3 of padding (not a multiple of 4).
        var padded: [UInt8] = []
        for y in 0..<2 {
            for x in 0..<3 { padded += [UInt8(x), UInt8(y), UInt8(x + y), 255] }
            padded += [9, 9, 9]
        }
        let picture = try CGImage(width: 3, height: 2, bytesPerRow: 15, premultipliedRGBA: padded)
        #expect(picture.bytesPerRow == 12)
        #expect(picture == (try image(3, 2)))
    }

    @Test func straightInitialiserPremultiplies() throws {
        var bytes: [UInt8] = [255, 128, 0, 128, 10, 20, 30, 255, 200, 200, 200, 0]
        bytes += [9, 9, 9]  // padding after the row, which must not shift later pixels
        bytes += [255, 255, 255, 1, 0, 0, 0, 0, 1, 2, 3, 4]
        let picture = try CGImage(width: 3, height: 2, bytesPerRow: 15, straightRGBA: bytes + [7, 7, 7])
        #expect(picture.pixel(x: 0, y: 0) == .init(red: 128, green: 64, blue: 0, alpha: 128))
        #expect(picture.pixel(x: 1, y: 0) == .init(red: 10, green: 20, blue: 30, alpha: 255))
        #expect(picture.pixel(x: 2, y: 0) == .init(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(picture.pixel(x: 0, y: 1) == .init(red: 1, green: 1, blue: 1, alpha: 1))
        #expect(picture.pixel(x: 2, y: 1) == .init(red: 0, green: 0, blue: 0, alpha: 4))
        #expect(CGImage.Pixel(straightRed: 255, green: 128, blue: 0, alpha: 128) == .init(red: 128, green: 64, blue: 0, alpha: 128))
    }

    @Test func solidColorFillsEveryPixel() throws {
        let color = CGImage.Pixel(red: 10, green: 20, blue: 30, alpha: 40)
        let picture = try CGImage(width: 4, height: 3, filledWith: color)
        #expect(picture.pixelBytes == Array([[UInt8]](repeating: [10, 20, 30, 40], count: 12).joined()))
    }

    @Test func equalityComparesSizeAndPixels() throws {
        #expect(try image(3, 2) == image(3, 2))
        #expect(try image(3, 2) != image(2, 3))
        let other = try CGImage(width: 3, height: 2, premultipliedRGBA: try image(3, 2).pixelBytes.map { $0 ^ 1 })
        #expect(try image(3, 2) != other)
        // Same bytes, different shape.
        let reshaped = try CGImage(width: 6, height: 1, premultipliedRGBA: try image(3, 2).pixelBytes)
        #expect(try image(3, 2) != reshaped)
    }

    @Test func isSendableAcrossTasks() async throws {
        let picture = try image(3, 2)
        let count = await Task.detached { picture.pixelBytes.count }.value
        #expect(count == 24)
    }
}

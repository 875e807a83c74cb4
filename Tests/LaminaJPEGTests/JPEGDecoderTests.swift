import CTurboJPEG
import Testing
@testable import LaminaJPEG
import LaminaCore

/// A JPEG made here with libjpeg-turbo's encoder: `width` x `height`, its
/// left half red and its right half blue, at quality 95, 4:4:4.
func makeJPEG(width: Int = 16, height: Int = 8) -> [UInt8] {
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            (rgba[i], rgba[i + 1], rgba[i + 2]) = x < width / 2 ? (255, 0, 0) : (0, 0, 255)
        }
    }
    let handle = tjInitCompress()!
    defer { tjDestroy(handle) }
    var out: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = rgba.withUnsafeBufferPointer {
        tjCompress2(handle, $0.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGBA.rawValue), &out, &size,
                    Int32(TJSAMP_444.rawValue), 95, 0)
    }
    precondition(status == 0, "tjCompress2 failed")
    defer { tjFree(out) }
    return Array(UnsafeBufferPointer(start: out, count: Int(size)))
}

/// `jpeg` with an APP1 Exif segment saying `orientation`, right after its start marker.
func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8, bigEndian: Bool = false) -> [UInt8] {
    let tiff: [UInt8] = bigEndian
        ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0, 0, 0]
        : [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
    let length = payload.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
}

func rgb(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
    guard let p = image.pixel(x: x, y: y) else { return [] }
    return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
}

func near(_ a: [Int], _ b: [Int]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 12 } }

@Suite("JPEG")
struct JPEGDecoderTests {
    @Test func aJPEGDecodesToItsPicture() throws {
        let image = try JPEGDecoder().decode(makeJPEG())
        #expect(image.width == 16 && image.height == 8)
        #expect(near(rgb(image, 2, 4), [255, 0, 0, 255]), "\(rgb(image, 2, 4))")
        #expect(near(rgb(image, 13, 4), [0, 0, 255, 255]), "\(rgb(image, 13, 4))")
    }

    /// Red was stored on the left; each orientation says where it shows.
    @Test(arguments: [
        (UInt8(1), 16, 8, (2, 4), (13, 4)),   // as stored
        (2, 16, 8, (13, 4), (2, 4)),          // mirrored: red on the right
        (3, 16, 8, (13, 4), (2, 4)),          // turned half way
        (4, 16, 8, (2, 4), (13, 4)),          // flipped top to bottom
        (5, 8, 16, (4, 2), (4, 13)),          // transposed: red on top
        (6, 8, 16, (4, 2), (4, 13)),          // turned a quarter clockwise: the left edge on top
        (7, 8, 16, (4, 13), (4, 2)),
        (8, 8, 16, (4, 13), (4, 2)),          // a quarter anticlockwise: the left edge at the bottom
    ])
    func exifOrientationTurnsThePictureUpright(orientation: UInt8, width: Int, height: Int, red: (Int, Int), blue: (Int, Int)) throws {
        for bigEndian in [false, true] {
            let image = try JPEGDecoder().decode(withOrientation(makeJPEG(), orientation, bigEndian: bigEndian))
            #expect(image.width == width && image.height == height)
            #expect(near(rgb(image, red.0, red.1), [255, 0, 0, 255]), "orientation \(orientation): \(rgb(image, red.0, red.1))")
            #expect(near(rgb(image, blue.0, blue.1), [0, 0, 255, 255]), "orientation \(orientation): \(rgb(image, blue.0, blue.1))")
        }
    }

    /// A decompression bomb: a header that declares 60,000 x 60,000 pixels is
    /// refused before a pixel is decoded.
    @Test func aHugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        var bytes = makeJPEG()
        // The frame header (SOF0, FF C0): its height and width follow the length and precision.
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && $0 + 1 < bytes.count && bytes[$0 + 1] == 0xC0 })
        for offset in [5, 7] { bytes[sof + offset] = 0xEA; bytes[sof + offset + 1] = 0x60 }
        let error = #expect(throws: JPEGError.self) { try JPEGDecoder(limits: .init(maxPixels: 16 << 20)).decode(bytes) }
        #expect(error?.kind == .tooLarge && error?.description.contains("60000 x 60000") == true, "\(String(describing: error))")
    }

    @Test func damagedJPEGsAreErrorsNotCrashes() {
        let good = makeJPEG(width: 32, height: 32)
        var random = SystemRandomNumberGenerator()
        var (read, refused) = (0, 0)
        for k in 0..<600 {
            var bytes = good
            if k < good.count { bytes[k] ^= 0xA5 } else {
                for _ in 0..<4 { bytes[Int.random(in: 2..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            }
            do { _ = try JPEGDecoder().decode(bytes); read += 1 } catch { refused += 1 }
        }
        #expect(refused > 0, "read \(read), refused \(refused)")
        #expect(throws: JPEGError.self) { try JPEGDecoder().decode(Array(good.prefix(40))) }
        #expect(throws: JPEGError.self) { try JPEGDecoder().decode([0x89, 0x50, 0x4E, 0x47]) }
        #expect(throws: JPEGError.self) { try JPEGDecoder(limits: .init(maxBytes: 10)).decode(good) }
    }
}

import CDeflate
import LaminaCore
import LaminaRaster

/// Writes a PNG file's bytes: the rows un-premultiplied and filtered, the
/// filtered rows compressed as one zlib stream (`ImageDeflate` at level 1,
/// libdeflate at the others), in `IHDR`, `sRGB`, `IDAT` and `IEND` chunks.
///
/// libdeflate compresses a whole buffer at once, several times faster than
/// zlib at the same level and ratio, and reports failure as a return value;
/// the container around it is a few dozen bytes of chunk headers and CRCs.
struct PNGWriter {
    let options: PNGEncoder.Options

    /// The largest `IDAT` chunk written; the stream is split across chunks
    /// so that no decoder needs one huge read.
    static let maxChunkData = 1 << 20

    /// - Throws: `PNGError.encoderUnavailable` when libdeflate cannot
    ///   allocate its compressor, `.encoderFailed` when it cannot compress.
    func encode(_ image: CGImage) throws -> [UInt8] {
        // Encoding counts as a frame in flight (`RowBands`): while one
        // request's picture is encoded on a core, another request's frame
        // does not take that core for its bands, nor this encoding the other
        // frame's core for its segments. Alone, it still has every core.
        let (filtered, stream) = try RowBands.drawingFrame {
            let filtered = filteredRows(image)
            return (filtered, try compress(filtered, stride: image.width * 4 + 1))
        }
        // The rows' buffer is the next picture's of this size.
        BufferPool.pixels.giveBack(filtered)

        var out = PNGChunk.signature
        out.reserveCapacity(stream.count + 128)
        // 8 bits, RGBA, deflate, adaptive filtering, no interlace.
        let header = PNGChunk.bigEndian(UInt32(image.width)) + PNGChunk.bigEndian(UInt32(image.height)) + [8, 6, 0, 0, 0]
        PNGChunk.append("IHDR", header, to: &out)
        PNGChunk.append("sRGB", [0], to: &out)  // perceptual rendering intent
        var start = 0
        repeat {
            let end = min(stream.count, start + Self.maxChunkData)
            PNGChunk.append("IDAT", stream[start..<end], to: &out)
            start = end
        } while start < stream.count
        PNGChunk.append("IEND", [], to: &out)
        return out
    }

    /// Every row as its filter type byte and the filtered bytes of its
    /// straight-alpha RGBA pixels.
    private func filteredRows(_ image: CGImage) -> [UInt8] {
        if options.filter == .none { return unfilteredRows(image) }
        let rowBytes = image.width * 4
        var out = BufferPool.pixels.take(count: image.height * (rowBytes + 1), zeroed: false)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        // Scratch rows for `.adaptive`, one per filter type.
        var candidates = options.filter == .adaptive ? [[UInt8]](repeating: [UInt8](repeating: 0, count: rowBytes), count: 5) : []
        image.withUnsafeBytes { pixels in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    let source = UnsafeRawBufferPointer(rebasing: pixels[(y * image.bytesPerRow)...].prefix(rowBytes))
                    current.withUnsafeMutableBytes { PremultipliedAlpha.unpremultiplyRGBA(source, into: $0) }
                    let rowStart = y * (rowBytes + 1)
                    let target = UnsafeMutableBufferPointer(rebasing: out[(rowStart + 1)..<(rowStart + 1 + rowBytes)])
                    let type: PNGRowFilter
                    switch options.filter {
                    case .none: type = .none
                    case .sub: type = .sub
                    case .up: type = .up
                    case .average: type = .average
                    case .paeth: type = .paeth
                    case .adaptive: type = PNGRowFilter.cheapest(current, previous, scratch: &candidates)
                    }
                    type.apply(current, previous, into: target)
                    out[rowStart] = type.rawValue
                    swap(&previous, &current)
                }
            }
        }
        return out
    }

    /// The rows with filter type 0 (none): each row's bytes are its
    /// straight-alpha pixels, so bands of rows are made on idle cores.
    private func unfilteredRows(_ image: CGImage) -> [UInt8] {
        let rowBytes = image.width * 4, stride = rowBytes + 1
        var rows = BufferPool.pixels.take(count: image.height * stride, zeroed: false)
        rows.withUnsafeMutableBufferPointer { out in
            image.withUnsafeBytes { pixels in
                // Each band writes its own rows.
                nonisolated(unsafe) let (target, source) = (out, pixels)
                RowBands.forEach(rows: 0..<image.height, pixels: image.width * image.height) { band in
                    for y in band {
                        target[y * stride] = PNGRowFilter.none.rawValue
                        PremultipliedAlpha.unpremultiplyRGBA(
                            UnsafeRawBufferPointer(rebasing: source[(y * image.bytesPerRow)..<(y * image.bytesPerRow + rowBytes)]),
                            into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: target[(y * stride + 1)..<((y + 1) * stride)])))
                    }
                }
            }
        }
        return rows
    }

    private func compress(_ data: [UInt8], stride: Int) throws -> [UInt8] {
        if options.compressionLevel == 1 { return ImageDeflate.zlibStream(data, stride: stride) }
        guard let compressor = libdeflate_alloc_compressor(Int32(options.compressionLevel)) else {
            throw PNGError.encoderUnavailable
        }
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, data.count))
        let written = data.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard written > 0 else { throw PNGError.encoderFailed("libdeflate could not compress \(data.count) bytes") }
        out.removeSubrange(written...)
        return out
    }
}

/// PNG's five row filters (PNG specification, section 9): each byte becomes
/// its difference with a prediction from the pixel to the left (`a`), above
/// (`b`) and above-left (`c`), which turns smooth areas into runs of small
/// numbers that compress well.
enum PNGRowFilter: UInt8, CaseIterable {
    case none = 0, sub, up, average, paeth

    /// Filters `row` (with `above`, the previous row's unfiltered bytes; zeros
    /// for the first row) into `out`.
    func apply(_ row: [UInt8], _ above: [UInt8], into out: UnsafeMutableBufferPointer<UInt8>) {
        row.withUnsafeBufferPointer { x in
            above.withUnsafeBufferPointer { b in
                let n = x.count
                switch self {
                case .none:
                    for i in 0..<n { out[i] = x[i] }
                case .sub:
                    for i in 0..<min(4, n) { out[i] = x[i] }
                    for i in 4..<max(4, n) { out[i] = x[i] &- x[i - 4] }
                case .up:
                    for i in 0..<n { out[i] = x[i] &- b[i] }
                case .average:
                    for i in 0..<min(4, n) { out[i] = x[i] &- b[i] >> 1 }
                    for i in 4..<max(4, n) { out[i] = x[i] &- UInt8((UInt16(x[i - 4]) + UInt16(b[i])) >> 1) }
                case .paeth:
                    for i in 0..<min(4, n) { out[i] = x[i] &- b[i] }  // a = c = 0: the predictor is b
                    for i in 4..<max(4, n) { out[i] = x[i] &- Self.paeth(x[i - 4], b[i], b[i - 4]) }
                }
            }
        }
    }

    @inline(__always)
    private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// The filter whose output has the smallest sum of absolute values (as
    /// signed bytes): libpng's heuristic for choosing per row.
    static func cheapest(_ row: [UInt8], _ above: [UInt8], scratch: inout [[UInt8]]) -> PNGRowFilter {
        var best = PNGRowFilter.none
        var bestCost = Int.max
        for filter in allCases {
            let cost = scratch[Int(filter.rawValue)].withUnsafeMutableBufferPointer { out -> Int in
                filter.apply(row, above, into: out)
                var sum = 0
                for v in out { sum += Int(abs(Int(Int8(bitPattern: v)))) }
                return sum
            }
            if cost < bestCost { (best, bestCost) = (filter, cost) }
        }
        return best
    }
}

import Foundation
import LaminaIO
import LaminaJPEG
import LaminaPNG
import LaminaWebP
import LaminaGIF
import LaminaJSON

// Images for `contents`: a PNG or JPEG data URI, a PNG or JPEG file relative
// to the scene (told apart by their bytes), or a generated test image (a
// solid colour or a checkerboard).
extension DecodingContext {
    static let pngDataURIPrefix = "data:image/png;base64,"
    /// The data URIs read as images: PNG, JPEG (`image/jpg` as some editors write it), WebP and GIF.
    static let imageDataURIPrefixes = [pngDataURIPrefix, "data:image/jpeg;base64,", "data:image/jpg;base64,", "data:image/webp;base64,",
                                       "data:image/gif;base64,"]

    func image(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        try checkDeadline(at: path, value)
        switch value.kind {
        case .string(let s) where s.hasPrefix("data:"):
            return try dataURIImage(s, value, at: path)
        case .string(let s):
            return try fileImage(s, value, at: path)
        case .object(let object):
            if object["checker"] != nil {
                return try checkerImage(object, value, at: path)
            }
            return try solidImage(object, value, at: path)
        default:
            try wrongType(value, at: path, expected: "an image (a data:image/png;base64 or data:image/jpeg;base64 URI, a file path, "
                          + "{\"width\", \"height\", \"color\"} or {\"checker\", \"colors\"})")
            return nil
        }
    }

    private var pngDecoder: PNGDecoder {
        PNGDecoder(limits: PNGDecoder.Limits(maxPixels: limits.imagePixels, maxBytes: limits.imageBytes))
    }

    private func dataURIImage(_ uri: String, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        guard let bytes = try dataURIBytes(uri, value, at: path) else { return nil }
        return try decodeImage(bytes, value, at: path)
    }

    /// The bytes of an image data URI (PNG, JPEG, WebP or GIF), its size
    /// checked against the limit before decoding the base64.
    private func dataURIBytes(_ uri: String, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> [UInt8]? {
        guard let prefix = Self.imageDataURIPrefixes.first(where: { uri.hasPrefix($0) }) else {
            let mediaType = uri.dropFirst("data:".count).prefix { $0 != "," && $0 != ";" }
            try report(.invalidValue, value, at: path,
                       "only PNG, JPEG, WebP and GIF data URIs (\"\(Self.pngDataURIPrefix)...\", \"data:image/jpeg;base64,...\", \"data:image/webp;base64,...\", \"data:image/gif;base64,...\") are images here, found "
                        + "\(JSONWriter.quoted(String(mediaType.prefix(40))))")
            return nil
        }
        let base64 = uri.utf8.dropFirst(prefix.utf8.count)
        // Base64 makes 3 bytes of every 4 characters, less one per "=" of
        // padding: refuse a big image before decoding it.
        let padding = base64.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
        let byteCount = base64.count / 4 * 3 - padding
        guard byteCount <= limits.imageBytes else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the image has \(byteCount) bytes, over the limit of \(limits.imageBytes)")
        }
        guard let data = Data(base64Encoded: Data(base64)) else {
            try report(.invalidValue, value, at: path, "the data URI is not valid base64")
            return nil
        }
        return [UInt8](data)
    }

    /// The picture in `bytes`: the bytes say what they are (PNG, JPEG, WebP
    /// or GIF), whatever a URI's media type or a file's name claims.
    private func decodeImage(_ bytes: [UInt8], _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        switch ImageFormat(of: bytes) {
        case .jpeg: return try decodeJPEG(bytes, value, at: path)
        case .webp: return try decodeWebP(bytes, value, at: path)
        case .gif: return try decodeGIF(bytes, value, at: path)
        // Anything else is read as a PNG, whose decoder says what is wrong.
        case .png, nil: return try decodePNG(at: path, value) { decoder in try decoder.decode(bytes) }
        }
    }

    /// An animated GIF's pictures with their durations, when `value` is a
    /// data URI or file of a GIF of more than one picture; nil for any other
    /// image (read it with `image`). Each picture counts against the
    /// scene's pixels, and their number against the keyframe limit, before
    /// any is decoded.
    func animatedGIFFrames(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> [GIFDecoder.Frame]? {
        guard case .string(let s) = value.kind else { return nil }
        let bytes: [UInt8]?
        if s.hasPrefix("data:image/gif;base64,") {
            bytes = try dataURIBytes(s, value, at: path)
        } else if !s.hasPrefix("data:"), s.lowercased().hasSuffix(".gif") {
            bytes = try fileBytes(s, value, at: path)
        } else {
            return nil
        }
        guard let bytes, ImageFormat(of: bytes) == .gif, let screen = GIFDecoder.screenSize(bytes) else { return nil }
        let decoder = GIFDecoder(limits: imageLimits)
        let count: Int
        do { count = try decoder.frameCount(bytes) } catch { return nil }  // damaged: `image` says so
        guard count > 1 else { return nil }
        guard count <= limits.keyframeCount else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the GIF has \(count) pictures, over the limit of \(limits.keyframeCount) keyframes")
        }
        // Every picture is the whole screen: all of them within what the
        // scene's images may hold, before any is decoded.
        let (pixels, overflow) = count.multipliedReportingOverflow(by: screen.width * screen.height)
        guard !overflow, pixels <= limits.totalImagePixels - imagePixelCount else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the GIF's \(count) pictures of \(screen.width * screen.height) pixels each are more than the scene's images may hold (\(limits.totalImagePixels) pixels in all)")
        }
        var frames: [GIFDecoder.Frame] = []
        do {
            frames = try decoder.frames(bytes, maxFrames: count)
        } catch {
            if error.isOverLimit { throw fatal(.limitExceeded, at: path, value.position, "the image is too large: \(error)") }
            try report(.invalidValue, value, at: path, "the image is not a valid GIF: \(error)")
            return nil
        }
        for frame in frames { try countImagePixels(frame.image.width, frame.image.height, value, at: path) }
        return frames
    }

    /// A JPEG's picture, upright, within the image limits (checked on its header, before decoding).
    private func decodeJPEG(_ bytes: [UInt8], _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        try decode("JPEG", value, at: path, overLimit: { ($0 as? JPEGError)?.kind == .tooLarge }) {
            try JPEGDecoder(limits: imageLimits).decode(bytes)
        }
    }

    /// A WebP's picture (its first frame, for an animated one), within the
    /// image limits (checked on its header, before decoding).
    private func decodeWebP(_ bytes: [UInt8], _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        try decode("WebP", value, at: path, overLimit: { ($0 as? WebPError)?.isOverLimit == true }) {
            try WebPDecoder(limits: imageLimits).decode(bytes)
        }
    }

    /// A GIF's first picture, within the image limits (checked on its
    /// header, before decoding).
    private func decodeGIF(_ bytes: [UInt8], _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        try decode("GIF", value, at: path, overLimit: { ($0 as? GIFError)?.isOverLimit == true }) {
            try GIFDecoder(limits: imageLimits).decode(bytes)
        }
    }

    /// The scene's image limits, as a decoder takes them.
    private var imageLimits: ImageDecodingLimits { .init(maxPixels: limits.imagePixels, maxBytes: limits.imageBytes) }

    /// Runs a decoder: a picture over the limits refuses the scene, a
    /// damaged one is an issue at `path`; a picture counts against the
    /// scene's pixels.
    private func decode(_ format: String, _ value: JSONValue, at path: JSONPath, overLimit: (any Error) -> Bool,
                        _ decoder: () throws -> CGImage) throws(SceneError) -> CGImage? {
        let image: CGImage
        do {
            image = try decoder()
        } catch {
            if overLimit(error) { throw fatal(.limitExceeded, at: path, value.position, "the image is too large: \(error)") }
            try report(.invalidValue, value, at: path, "the image is not a valid \(format): \(error)")
            return nil
        }
        try countImagePixels(image.width, image.height, value, at: path)
        return image
    }

    private func fileImage(_ file: String, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        guard let bytes = try fileBytes(file, value, at: path) else { return nil }
        return try decodeImage(bytes, value, at: path)
    }

    /// The bytes of an image file relative to the scene, within the limit.
    private func fileBytes(_ file: String, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> [UInt8]? {
        guard options.allowsFiles else {
            try report(.fileAccess, value, at: path,
                       "image files are not allowed here; give the image as a \"\(Self.pngDataURIPrefix)...\" URI")
            return nil
        }
        guard !file.isEmpty else {
            try report(.invalidValue, value, at: path, "an empty string is not an image file path")
            return nil
        }
        var url = URL(fileURLWithPath: file)
        if let base = options.baseDirectory, !file.hasPrefix("/") {
            url = base.appendingPathComponent(file)
        }
        do {
            return try FileIO.readFile(atPath: url.path, maxBytes: limits.imageBytes)
        } catch {
            if error.code == EFBIG {
                throw fatal(.limitExceeded, at: path, value.position, "the image is too large: \(error)")
            }
            try report(.fileAccess, value, at: path, "cannot read the image: \(error)")
            return nil
        }
    }

    /// Runs a PNG decode and turns its errors into issues.
    private func decodePNG(
        at path: JSONPath, _ value: JSONValue, _ decode: (PNGDecoder) throws -> CGImage
    ) throws(SceneError) -> CGImage? {
        let image: CGImage
        do {
            image = try decode(pngDecoder)
        } catch let error as PNGError {
            switch error {
            case .tooLarge, .dataTooLarge:
                throw fatal(.limitExceeded, at: path, value.position, "the image is too large: \(error)")
            case .io:
                try report(.fileAccess, value, at: path, "cannot read the image: \(error)")
            default:
                try report(.invalidValue, value, at: path, "the image is not a valid PNG: \(error)")
            }
            return nil
        } catch {
            try report(.invalidValue, value, at: path, "the image cannot be read: \(error)")
            return nil
        }
        try countImagePixels(image.width, image.height, value, at: path)
        return image
    }

    private func countImagePixels(_ width: Int, _ height: Int, _ value: JSONValue, at path: JSONPath) throws(SceneError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limits.imagePixels else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the image has \(width) x \(height) pixels, over the limit of \(limits.imagePixels)")
        }
        imagePixelCount += pixels
        guard imagePixelCount <= limits.totalImagePixels else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the scene's images have more than \(limits.totalImagePixels) pixels in all (the limit)")
        }
    }

    /// `{"width": w, "height": h, "color": c}`.
    private func solidImage(_ object: JSONObject, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        try checkKeys(of: object, at: path, allowed: ["width", "height", "color"],
                      what: "a solid test image", alternatives: ["checker", "colors"])
        let w = try required("width", of: object, value, at: path) { v, p throws(SceneError) in
            try integer(v, at: p, minimum: 1)
        }
        let h = try required("height", of: object, value, at: path) { v, p throws(SceneError) in
            try integer(v, at: p, minimum: 1)
        }
        let c = try required("color", of: object, value, at: path) { v, p throws(SceneError) in try color(v, at: p) }
        guard let w, let h, let c else { return nil }
        try countImagePixels(w, h, value, at: path)
        return try made(ImageValue.solid(width: w, height: h, color: c), value, at: path)
    }

    /// `{"checker": [w, h, cell], "colors": [c1, c2]}`, colours defaulting to
    /// black and white; cell (0, 0) has the first colour.
    private func checkerImage(_ object: JSONObject, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        try checkKeys(of: object, at: path, allowed: ["checker", "colors"],
                      what: "a checkerboard test image", alternatives: ["width", "height", "color"])
        var size: [Int]?
        if let checker = object["checker"] {
            let p = path / "checker"
            if let items = checker.array, items.count == 3 {
                var values: [Int] = []
                for (k, item) in items.enumerated() {
                    if let n = try integer(item, at: p / k, minimum: 1) { values.append(n) }
                }
                if values.count == 3 { size = values }
            } else {
                try report(.wrongType, checker, at: p,
                           "expected [width, height, cell] (3 whole numbers ≥ 1), found "
                            + (checker.array.map { "an array of \($0.count)" } ?? checker.typeDescription))
            }
        }
        var colors = [CGColor.black, CGColor.white]
        var colorsOK = true
        if let list = object["colors"] {
            let p = path / "colors"
            if let items = list.array, items.count == 2 {
                for (k, item) in items.enumerated() {
                    if let c = try color(item, at: p / k) { colors[k] = c } else { colorsOK = false }
                }
            } else {
                try report(.wrongType, list, at: p, "expected [color1, color2], found "
                           + (list.array.map { "an array of \($0.count)" } ?? list.typeDescription))
                colorsOK = false
            }
        }
        guard let size, colorsOK else { return nil }
        try countImagePixels(size[0], size[1], value, at: path)
        return try made(
            ImageValue.checkerboard(width: size[0], height: size[1], cell: size[2], colors: (colors[0], colors[1])),
            value, at: path)
    }

    /// A generated image, or a report that it could not be made.
    private func made(_ image: CGImage?, _ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGImage? {
        if image == nil { try report(.invalidValue, value, at: path, "the test image cannot be made") }
        return image
    }

    /// Reports keys of an object that are not `allowed`.
    func checkKeys(
        of object: JSONObject, at path: JSONPath, allowed: [String], what: String, alternatives: [String] = []
    ) throws(SceneError) {
        for member in object.members where !allowed.contains(member.key) {
            let note = alternatives.contains(member.key) ? " (it belongs to another form)" : ""
            try report(.unknownKey, at: path / member.key, member.keyPosition,
                       "unknown key '\(member.key)' in \(what)\(note); expected \(Self.list(allowed))"
                        + (note.isEmpty ? Suggestion.didYouMean(member.key, in: allowed) : ""))
        }
    }

    /// Reads a required key, reporting it missing.
    func required<T>(
        _ key: String, of object: JSONObject, _ value: JSONValue, at path: JSONPath,
        _ read: (JSONValue, JSONPath) throws(SceneError) -> T?
    ) throws(SceneError) -> T? {
        guard let v = object[key] else {
            try report(.missingKey, value, at: path, "'\(key)' is required")
            return nil
        }
        return try read(v, path / key)
    }
}

/// Test images and the JSON form of images.
enum ImageValue {
    /// An image of one colour.
    static func solid(width: Int, height: Int, color: CGColor) -> CGImage? {
        let b = ColorValue.bytes(color)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            bytes[i] = b.r; bytes[i + 1] = b.g; bytes[i + 2] = b.b; bytes[i + 3] = b.a
        }
        return try? CGImage(width: width, height: height, straightRGBA: bytes)
    }

    /// A checkerboard of `cell`-pixel squares, the square at (0, 0) in the
    /// first colour, as the reference renderer draws it.
    static func checkerboard(width: Int, height: Int, cell: Int, colors: (CGColor, CGColor)) -> CGImage? {
        let first = ColorValue.bytes(colors.0), second = ColorValue.bytes(colors.1)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let b = (x / cell + y / cell) % 2 == 0 ? first : second
                let i = (y * width + x) * 4
                bytes[i] = b.r; bytes[i + 1] = b.g; bytes[i + 2] = b.b; bytes[i + 3] = b.a
            }
        }
        return try? CGImage(width: width, height: height, straightRGBA: bytes)
    }

    /// A PNG data URI of the image.
    static func encode(_ image: CGImage, at path: JSONPath) throws(SceneError) -> JSONValue {
        do {
            let png = try PNGEncoder().encode(image)
            return .string(DecodingContext.pngDataURIPrefix + Data(png).base64EncodedString())
        } catch {
            throw SceneError(.invalidValue, at: path.description, "the image cannot be encoded as PNG: \(error)")
        }
    }
}

import LaminaRaster

// Moving pictures between the model's `CGImage` and the pipeline's `Pixmap`:
// the same bytes (RGBA8, premultiplied, top row first), with the pixmap's
// invariant enforced on the way in.

extension Pixmap {
    /// The pixels of `image`. `CGImage` does not check that colour is at
    /// most alpha, so a channel above its alpha is lowered to it here (the
    /// pixmap's compositing loops rely on it) rather than rejected.
    ///
    /// Throws when the image is larger than a pixmap may be.
    init(_ image: CGImage) throws {
        try Self.checkSize(image.width, image.height, "image")
        var bytes = image.pixelBytes
        var i = 0
        while i < bytes.count {
            let a = bytes[i + 3]
            if bytes[i] > a { bytes[i] = a }
            if bytes[i + 1] > a { bytes[i + 1] = a }
            if bytes[i + 2] > a { bytes[i + 2] = a }
            i += 4
        }
        self.init(uncheckedWidth: image.width, height: image.height, data: bytes)
    }

    /// The pixmap as an image; nil when it has no pixels (an image has at
    /// least one).
    func makeCGImage() -> CGImage? {
        try? CGImage(width: width, height: height, premultipliedRGBA: data)
    }
}

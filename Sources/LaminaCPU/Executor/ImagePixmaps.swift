import Synchronization
import LaminaCore
import LaminaRaster

/// Images' pixels as pixmaps, and their mipmaps, kept for the next frames
/// while they are still drawn: an animation's pictures (a Lottie file's
/// images, a layer's `contents`) are read and checked once, and a picture
/// drawn smaller than its pixels has its mipmap made once, not every frame
/// (two fifths of lottie-web's `data` sample's frames). The GL backend
/// keeps its uploaded textures the same way.
final class ImagePixmaps: Sendable {
    /// Frames an unused image survives.
    static let maximumIdleFrames = 8

    private let state = Mutex(State())

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The entry whose pixmap's pixels start at an address.
        var byAddress: [UInt: ObjectIdentifier] = [:]
    }

    private struct Entry {
        /// Held with its pixmap, so that its identifier is not reused by
        /// another image while the entry lives.
        let image: CGImage
        let pixmap: Pixmap
        var mipmaps: [Pixmap]?
        var idle = 0
    }

    private static func address(of pixmap: Pixmap) -> UInt {
        UInt(bitPattern: pixmap.data.withUnsafeBytes { $0.baseAddress })
    }

    /// The pixels of `image`: kept ones, or read now (and kept).
    func pixmap(of image: CGImage) throws -> Pixmap {
        let key = ObjectIdentifier(image)
        let kept = state.withLock { s -> Pixmap? in
            s.entries[key]?.idle = 0
            return s.entries[key]?.pixmap
        }
        if let kept { return kept }
        let read = try Pixmap(width: image.width, height: image.height, premultipliedRGBA: image.pixelBytes)
        // Another frame's thread may have read it meanwhile: its pixels are
        // the ones kept, so that no address is kept for pixels let go.
        return state.withLock { s in
            if let kept = s.entries[key]?.pixmap { return kept }
            s.entries[key] = Entry(image: image, pixmap: read)
            s.byAddress[Self.address(of: read)] = key
            return read
        }
    }

    /// The mipmap levels of `pixmap` when it holds a kept image's pixels
    /// (made the first time they are asked for); nil for other pixels.
    func mipmaps(of pixmap: Pixmap) -> [Pixmap]? {
        let address = Self.address(of: pixmap)
        let found = state.withLock { s -> (key: ObjectIdentifier, mipmaps: [Pixmap]?)? in
            guard let key = s.byAddress[address], let entry = s.entries[key],
                  entry.pixmap.width == pixmap.width, entry.pixmap.height == pixmap.height else { return nil }
            return (key, entry.mipmaps)
        }
        guard let found else { return nil }
        if let mipmaps = found.mipmaps { return mipmaps }
        let mipmaps = TextureSampler.mipmaps(of: pixmap)
        state.withLock { s in s.entries[found.key]?.mipmaps = mipmaps }
        return mipmaps
    }

    /// Ends a frame: images unused for `maximumIdleFrames` frames are let go.
    func endFrame() {
        state.withLock { s in
            for (key, entry) in s.entries {
                if entry.idle >= Self.maximumIdleFrames {
                    s.entries[key] = nil
                    s.byAddress[Self.address(of: entry.pixmap)] = nil
                } else {
                    s.entries[key]?.idle += 1
                }
            }
        }
    }

    /// How many images are kept.
    var count: Int { state.withLock { $0.entries.count } }
}

import LaminaCore

/// Text layers' backing images by what they show, so that a frame whose
/// text is unchanged gets the very image of the last frame: no layout, no
/// compositing, and on the GPU no new texture (the GL backend keeps an
/// image's texture as long as the image is drawn).
///
/// The key is everything the image depends on: the styled text, the
/// default style, the layout parameters (bounds, wrapping, alignment,
/// truncation), the scale, and how many fonts the application has
/// registered (a registration can change what a name resolves to). At
/// most `byteBudget` bytes, pixels and keys together, and `maximumCount`
/// entries are kept: a key holds its whole text (a 1 x 1 layer of 99,000
/// characters weighs its characters, not its one pixel); the oldest go first.
struct TextImageCache {
    struct Key: Hashable {
        var text: StyledText
        var style: TextStyle
        var parameters: LayoutParameters
        var scale: Double
        var registeredFonts: Int

        /// What the key holds: its characters (4 bytes each) and its runs'
        /// styles, font names included.
        var bytes: Int {
            let styles = text.runs.reduce(0) { $0 + 64 + $1.style.fontName.utf8.count }
            return text.scalars.count * 4 + styles + 64 + style.fontName.utf8.count + 128
        }
    }

    /// Bytes of pixels and keys kept at most.
    let byteBudget: Int
    /// Entries kept at most.
    let maximumCount: Int
    private var images: [Key: CGImage?] = [:]
    /// Keys in the order they were added, for eviction.
    private var order: [Key] = []
    private var bytes = 0
    private(set) var hits = 0
    private(set) var misses = 0

    init(byteBudget: Int = 32 << 20, maximumCount: Int = 4096) {
        self.byteBudget = byteBudget
        self.maximumCount = maximumCount
    }

    private static func bytes(of image: CGImage?, key: Key) -> Int { (image?.width ?? 0) * (image?.height ?? 0) * 4 + key.bytes }

    /// The image made for `key` before (nil inside: the text draws nothing),
    /// or nil when there is none.
    mutating func image(for key: Key) -> CGImage?? {
        guard let found = images[key] else {
            misses += 1
            return nil
        }
        hits += 1
        return .some(found)
    }

    /// Keeps `image` for `key`, dropping the oldest images past the budget.
    mutating func insert(_ image: CGImage?, for key: Key) {
        let size = Self.bytes(of: image, key: key)
        guard size <= byteBudget, images[key] == nil else { return }
        images[key] = image
        order.append(key)
        bytes += size
        var dropped = 0
        while bytes > byteBudget || order.count - dropped > maximumCount, dropped < order.count {
            let oldKey = order[dropped]
            if let old = images.removeValue(forKey: oldKey) { bytes -= Self.bytes(of: old, key: oldKey) }
            dropped += 1
        }
        if dropped > 0 { order.removeFirst(dropped) }
    }

    mutating func removeAll() {
        images = [:]
        order = []
        bytes = 0
    }
}

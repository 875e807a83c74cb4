import LaminaCore

/// Text layers' backing images by what they show, so that a frame whose
/// text is unchanged gets the very image of the last frame: no layout, no
/// compositing, and on the GPU no new texture (the GL backend keeps an
/// image's texture as long as the image is drawn).
///
/// The key is everything the image depends on: the styled text, the
/// default style, the layout parameters (bounds, wrapping, alignment,
/// truncation), the scale, and how many fonts the application has
/// registered (a registration can change what a name resolves to). Images are kept within `byteBudget`; the
/// oldest go first.
struct TextImageCache {
    struct Key: Hashable {
        var text: StyledText
        var style: TextStyle
        var parameters: LayoutParameters
        var scale: Double
        var registeredFonts: Int
    }

    /// Bytes of pixels kept at most.
    let byteBudget: Int
    private var images: [Key: CGImage?] = [:]
    /// Keys in the order they were added, for eviction.
    private var order: [Key] = []
    private var bytes = 0
    private(set) var hits = 0
    private(set) var misses = 0

    init(byteBudget: Int = 32 << 20) {
        self.byteBudget = byteBudget
    }

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
        let size = (image?.width ?? 0) * (image?.height ?? 0) * 4
        guard size <= byteBudget, images[key] == nil else { return }
        images[key] = image
        order.append(key)
        bytes += size
        var dropped = 0
        while bytes > byteBudget, dropped < order.count {
            if let old = images.removeValue(forKey: order[dropped]) {
                bytes -= (old?.width ?? 0) * (old?.height ?? 0) * 4
            }
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

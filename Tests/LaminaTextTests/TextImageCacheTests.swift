// A text layer drawn again unchanged gets the very same backing image (so
// the GL backend finds its texture); any change the picture depends on
// makes a new one.
import Foundation
import Testing
@testable import LaminaText
import LaminaCore

@Suite struct TextImageCacheTests {
    @Test func unchangedTextGetsTheSameImage() throws {
        let r = try TextRenderer()
        let layer = textLayer("Cached text", width: 200, height: 40)
        let first = try #require(r.image(for: layer, scale: 1))
        let second = try #require(r.image(for: textLayer("Cached text", width: 200, height: 40), scale: 1))
        #expect(first === second)
        #expect(r.statistics.imageHits == 1 && r.statistics.imageMisses == 1)

        // Each of these changes the picture, so each makes a new image.
        let changed: [(String, CATextLayer, Double)] = [
            ("text", textLayer("Cached text!", width: 200, height: 40), 1),
            ("width", textLayer("Cached text", width: 201, height: 40), 1),
            ("colour", textLayer("Cached text", width: 200, height: 40, color: CGColor(red: 1, green: 0, blue: 0, alpha: 1)), 1),
            ("size", textLayer("Cached text", width: 200, height: 40, size: 21), 1),
            ("alignment", textLayer("Cached text", width: 200, height: 40, alignment: .center), 1),
            ("scale", textLayer("Cached text", width: 200, height: 40), 2),
        ]
        for (what, other, scale) in changed {
            let image = try #require(r.image(for: other, scale: scale), "\(what)")
            #expect(image !== first, "a new \(what) gave the old image")
        }
        // The images are the pictures a renderer without the cache makes.
        let fresh = try TextRenderer()
        #expect(try #require(fresh.image(for: layer, scale: 1)).pixelBytes == first.pixelBytes)
    }

    /// Texts that draw nothing weigh no pixels: the cache holds at most
    /// `maximumCount` entries all the same, dropping the oldest.
    @Test func keepsAtMostItsCountOfEntries() {
        var cache = TextImageCache(maximumCount: 2)
        let style = TextStyle(fontName: "Helvetica", fontSize: 12, color: .black)
        func key(_ s: String) -> TextImageCache.Key {
            TextImageCache.Key(text: StyledText(plain: s, style: style), style: style,
                               parameters: LayoutParameters(width: 10, height: 0), scale: 1, registeredFonts: 0)
        }
        for s in ["a", "b", "c"] { cache.insert(nil, for: key(s)) }
        #expect(cache.image(for: key("a")) == nil)
        #expect(cache.image(for: key("b")) != nil)
        #expect(cache.image(for: key("c")) != nil)
    }

    /// A key holds its whole text: texts of 99,000 characters in 1 x 1
    /// layers fill the byte budget by their keys, however few their pixels.
    @Test func keysCountAgainstTheByteBudget() {
        var cache = TextImageCache(byteBudget: 1 << 20, maximumCount: 4096)
        let style = TextStyle(fontName: "Helvetica", fontSize: 12, color: .black)
        func key(_ k: Int) -> TextImageCache.Key {
            TextImageCache.Key(text: StyledText(plain: String(repeating: "x", count: 99_000) + "\(k)", style: style), style: style,
                               parameters: LayoutParameters(width: 1, height: 1), scale: 1, registeredFonts: 0)
        }
        for k in 0..<20 { cache.insert(nil, for: key(k)) }
        // About 396 KB a key: two fit in 1 MiB, the older ones are gone.
        #expect(cache.image(for: key(19)) != nil && cache.image(for: key(18)) != nil)
        #expect((0..<17).allSatisfy { cache.image(for: key($0)) == nil })
    }
}

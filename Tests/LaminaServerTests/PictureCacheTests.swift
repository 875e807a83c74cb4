import Testing
@testable import LaminaServer

@Suite struct PictureCacheTests {
    private func bytes(_ n: Int) -> [UInt8] { [UInt8](repeating: UInt8(n % 256), count: n) }

    @Test func keepsWithinItsBytesDroppingTheLeastRecentlyUsed() {
        let cache = PictureCache(capacityBytes: 100)
        cache.insert(bytes(40), for: "a")
        cache.insert(bytes(40), for: "b")
        #expect(cache.picture(for: "a") == bytes(40))  // a is now the most recent
        cache.insert(bytes(40), for: "c")  // 120 > 100: b goes
        #expect(cache.picture(for: "b") == nil)
        #expect(cache.picture(for: "a") != nil)
        #expect(cache.picture(for: "c") != nil)
        #expect(cache.usage.bytes == 80 && cache.usage.count == 2)
    }

    @Test func aPictureLargerThanTheCacheIsNotKept() {
        let cache = PictureCache(capacityBytes: 10)
        cache.insert(bytes(5), for: "small")
        cache.insert(bytes(11), for: "large")
        #expect(cache.picture(for: "large") == nil)
        #expect(cache.picture(for: "small") != nil)
    }

    @Test func replacingAKeyCountsItsNewSize() {
        let cache = PictureCache(capacityBytes: 100)
        cache.insert(bytes(30), for: "a")
        cache.insert(bytes(60), for: "a")
        #expect(cache.usage.bytes == 60 && cache.usage.count == 1)
    }

    /// Many inserts and lookups against a simple model of LRU order.
    @Test func agreesWithAModelUnderChurn() {
        let cache = PictureCache(capacityBytes: 1000)
        var model: [(String, Int)] = []  // least recent first
        var seed: UInt64 = 42
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        for _ in 0..<5000 {
            let key = "k\(next() % 40)"
            if next() % 3 == 0 {
                let hit = cache.picture(for: key)
                if let i = model.firstIndex(where: { $0.0 == key }) {
                    #expect(hit?.count == model[i].1)
                    model.append(model.remove(at: i))
                } else {
                    #expect(hit == nil)
                }
            } else {
                let size = 1 + next() % 200
                cache.insert(bytes(size), for: key)
                model.removeAll { $0.0 == key }
                model.append((key, size))
                while model.reduce(0, { $0 + $1.1 }) > 1000 { model.removeFirst() }
            }
            #expect(cache.usage.bytes == model.reduce(0, { $0 + $1.1 }))
        }
    }
}

@Suite struct ConditionalRequestTests {
    @Test func ifNoneMatchForms() {
        let tag = "\"abc\""
        #expect(RenderRoutes.matches("\"abc\"", tag))
        #expect(RenderRoutes.matches("W/\"abc\"", tag))
        #expect(RenderRoutes.matches("\"x\", \"abc\"", tag))
        #expect(RenderRoutes.matches("*", tag))
        #expect(!RenderRoutes.matches("\"abcd\"", tag))
        #expect(!RenderRoutes.matches("abc", tag))
    }
}

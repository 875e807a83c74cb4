import Foundation
import CAllocator
import Testing
import Lamina

/// Memory that grows with use: every example scene decoded from its JSON,
/// drawn on the CPU and encoded to PNG again and again, as the render server
/// does per request. Once the caches have what the scene needs (the warm-up
/// frames), the heap in use must stop growing: a frame that leaks shows as
/// growth over the frames after it.
///
/// The heap is the process's (glibc's `mallinfo2`, every arena), so the test
/// runs alone: `scripts/test.sh` runs it in a process of its own with
/// `LAMINA_MEMORY_GROWTH=1`; in the ordinary run, where other tests allocate
/// beside it, it is skipped and says so.
@Suite("Memory growth", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["LAMINA_MEMORY_GROWTH"] == "1",
                "measures the whole heap: run alone, LAMINA_MEMORY_GROWTH=1 swift test --filter MemoryGrowthTests"))
struct MemoryGrowthTests {
    static let scenes: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/scenes")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    /// Bytes the allocator has handed out and not had back, in every arena and in mmapped blocks.
    static func heapInUse() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }

    @Test func theExampleScenesAreThere() {
        #expect(Self.scenes.count >= 5, "\(Self.scenes)")
    }

    /// The instrument itself: blocks kept and not given back show as growth.
    @Test func theMeasureSeesBlocksThatAreNotGivenBack() {
        let before = Self.heapInUse()
        let kept = (0..<6).map { _ in malloc(8 * 1024) }
        let after = Self.heapInUse()
        kept.forEach { free($0) }
        #expect(after - before >= 6 * 8 * 1024)
    }

    @Test(arguments: scenes)
    func aFrameDrawnAgainLeavesTheHeapAsItWas(scene: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: scene))
        let renderer = try LayerRenderer(backend: .cpu)
        func frame(_ k: Int) throws {
            let decoded = try SceneDecoder(options: .init(baseDirectory: scene.deletingLastPathComponent())).decode(bytes)
            let image = try renderer.render(decoded, time: 0.1 * Double(k % 3))
            _ = try image.pngData()
        }
        // Warm-up: caches (glyphs, shapes, outlines, gradients, pooled pixmaps) fill.
        for k in 0..<4 { try frame(k) }
        // Two windows of six frames. A leak grows the heap in both; a worker
        // thread that first allocates late (it got its first band of work
        // only now, on a busy machine) grows its arena once, in one window.
        var growth: [Int] = []
        for window in 0..<2 {
            let before = Self.heapInUse()
            for k in 0..<6 { try frame(4 + 6 * window + k) }
            growth.append(Self.heapInUse() - before)
        }
        // A leak of a few bytes a frame is noise, one of a layer's worth is not.
        #expect(growth.min()! < 16 * 1024, "\(scene.lastPathComponent): the heap grew by \(growth) bytes over two runs of six frames")
    }
}

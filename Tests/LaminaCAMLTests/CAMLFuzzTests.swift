import Foundation
import Testing
@testable import LaminaCAML
import LaminaGeometry
import Lamina

/// Mutated CAML documents are read or refused cleanly: no crash, no hang,
/// a refusal that says where, and a document that reads converts to scene
/// JSON that reads back to the same scene.
@Suite("CAML fuzzing")
struct CAMLFuzzTests {
    /// The example wallpaper's documents and the equivalence cases.
    static let seeds: [[UInt8]] = {
        var out = CAMLEquivalenceTests.cases.map { Array(caml($0.caml).utf8) }
        let wallpaper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/wallpapers/Orbit.wallpaper")
        for bundle in (try? FileManager.default.contentsOfDirectory(atPath: wallpaper.path)) ?? [] {
            if let data = FileManager.default.contents(atPath: wallpaper.appendingPathComponent(bundle + "/main.caml").path) {
                out.append([UInt8](data))
            }
        }
        return out
    }()

    static let tokens = ["<", ">", "/>", "</sublayers>", "&", "&amp;", "\"", "'", "=", " ", "inf", "-1e308", "nan", "1e400",
                         "0 0 1e9 1e9", "rotate(", "rotate(90deg, 0, 0, 0)", "-", ".", "#", "<CALayer>", "<animations>",
                         "<!--", "]]>", "<![CDATA[", "basedOn=\"Locked\"", "type=\"CAAnimationGroup\"", "\u{0}", "é"]

    @Test(.timeLimit(.minutes(3)))
    func mutatedDocumentsAreReadOrRefusedCleanly() throws {
        #expect(Self.seeds.count >= 14, "the wallpaper's documents were found")
        var random = SeededRandom(seed: 0xCA41)
        let reader = CAMLReader(limits: .default)
        var (read, refused) = (0, 0)
        for _ in 0..<1500 {
            var bytes = random.pick(Self.seeds)
            for _ in 0..<random.int(1...3) {
                guard !bytes.isEmpty else { break }
                let i = random.int(0...(bytes.count - 1))
                switch random.int(0...5) {
                case 0: bytes[i] = UInt8(random.int(0...255))
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + random.int(1...12)))
                case 2: bytes = Array(bytes.prefix(i))
                case 3:
                    // A stretch of the document repeated: elements twice, deeper nesting.
                    let end = min(bytes.count, i + random.int(1...200))
                    bytes.insert(contentsOf: bytes[i..<end], at: i)
                default: bytes.insert(contentsOf: Array(random.pick(Self.tokens).utf8), at: i)
                }
            }
            do {
                let result = try reader.read(caml: bytes, state: random.chance(0.3) ? "Unlock" : nil)
                read += 1
                let again = try SceneDecoder(limits: .default).decode(result.sceneJSON)
                #expect(again.width == result.scene.width && again.height == result.scene.height)
            } catch let error as SceneError {
                refused += 1
                #expect(!error.issues.isEmpty && error.issues.allSatisfy { !$0.message.isEmpty })
            }
        }
        // The mutations reach past the XML reader.
        #expect(read > 100 && refused > 300, "read \(read), refused \(refused)")
    }
}

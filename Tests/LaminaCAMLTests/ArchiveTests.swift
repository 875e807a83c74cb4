import Foundation
import Testing
import Lamina
@testable import LaminaCAML
import LaminaIO
import ZIPFoundation

/// `.tendies` archives from strangers: a zip reader that trusts no offset
/// and cannot loop, whatever the bytes.
@Suite("Zip archives")
struct ArchiveTests {
    /// A small wallpaper archive, as ZIPFoundation (a writer other than ours) makes it.
    static let good: [UInt8] = {
        var entries: [(String, ZIPFoundation.Entry.EntryType, Data)] = [("Test.wallpaper/", .directory, Data())]
        for (name, color, square) in [("Background", "0 0 1", 90), ("Foreground", "1 0 0", 30)] {
            entries.append(("Test.wallpaper/\(name).ca/main.caml", .file, Data(plane(color, square: square).utf8)))
        }
        entries.append(("Test.wallpaper/.DS_Store", .file, Data([0, 0, 0, 1])))
        return try! CAMLDocumentTests.zip(entries)
    }()

    static func unpack(_ bytes: [UInt8]) throws(SceneError) -> ArchiveFiles {
        try TendiesArchive.unpack(bytes, name: "t.tendies", limits: .default)
    }

    @Test func aGoodArchiveIsReadEntryByEntry() throws {
        let files = try Self.unpack(Self.good)
        #expect(files.files.keys.sorted() == ["Test.wallpaper/Background.ca/main.caml", "Test.wallpaper/Foreground.ca/main.caml"])
        #expect(String(decoding: try files.read("Test.wallpaper/Foreground.ca/main.caml", limit: 1 << 20), as: UTF8.self)
            == plane("1 0 0", square: 30))
        let scene = try CAMLReader().read(tendies: Self.good).scene
        #expect(scene.width == 100)
    }

    /// The end-of-central-directory record of `bytes`.
    static func endRecord(_ bytes: [UInt8]) -> Int {
        var at = bytes.count - 22
        while !(bytes[at] == 0x50 && bytes[at + 1] == 0x4B && bytes[at + 2] == 5 && bytes[at + 3] == 6) { at -= 1 }
        return at
    }

    static func put32(_ value: UInt32, into bytes: inout [UInt8], at i: Int) {
        for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
    }

    @Test(arguments: [0xFFFF_FFF0, 0xFFFF_FFFF, 0x7FFF_FFFF] as [UInt32])
    func aDirectoryOffsetPastTheEndIsRefused(offset: UInt32) {
        var bytes = Self.good
        Self.put32(offset, into: &bytes, at: Self.endRecord(bytes) + 16)
        let error = #expect(throws: SceneError.self) { try Self.unpack(bytes) }
        #expect(error?.message.contains("central") == true, "\(String(describing: error))")
    }

    @Test func entryCountsAndSizesThatLieAreRefused() throws {
        let end = Self.endRecord(Self.good)
        // More entries than the directory can hold.
        var many = Self.good
        many[end + 10] = 0xFF; many[end + 11] = 0xFE
        #expect(throws: SceneError.self) { try Self.unpack(many) }
        // An entry whose declared size is smaller than what its data inflates to.
        var archive = try ZipArchive(Self.good)
        let entry = try #require(archive.entries.first { $0.path.hasSuffix("Background.ca/main.caml") })
        var lying = Self.good
        let header = try #require(Self.centralHeader(of: entry.path, in: lying))
        Self.put32(UInt32(entry.uncompressedSize - 10), into: &lying, at: header + 24)
        archive = try ZipArchive(lying)
        let short = try #require(archive.entries.first { $0.path == entry.path })
        #expect(throws: ZipArchive.Failure.self) { try archive.contents(of: short) }
    }

    /// Where the central-directory header of `path` starts.
    static func centralHeader(of path: String, in bytes: [UInt8]) -> Int? {
        let name = Array(path.utf8)
        for at in 0..<(bytes.count - 46 - name.count) where bytes[at] == 0x50 && bytes[at + 1] == 0x4B && bytes[at + 2] == 1 && bytes[at + 3] == 2 {
            if Array(bytes[(at + 46)..<(at + 46 + name.count)]) == name { return at }
        }
        return nil
    }

    @Test func oneChangedByteInDeflateDataIsRefusedNotInflatedForEver() throws {
        let archive = try ZipArchive(Self.good)
        let entry = try #require(archive.entries.first { $0.path.hasSuffix("Background.ca/main.caml") })
        // Every byte of the entry's compressed data, changed in turn.
        let local = Self.good.indices.first { i in
            i + 30 < Self.good.count && Self.good[i] == 0x50 && Self.good[i + 1] == 0x4B && Self.good[i + 2] == 3 && Self.good[i + 3] == 4
                && Array(Self.good[(i + 30)..<(i + 30 + entry.path.utf8.count)]) == Array(entry.path.utf8)
        }
        let start = try #require(local) + 30 + entry.path.utf8.count + Int(Self.good[try #require(local) + 28])
        var refused = 0
        for i in start..<(start + entry.compressedSize) {
            var bytes = Self.good
            bytes[i] ^= 0x5A
            do { _ = try Self.unpack(bytes) } catch { refused += 1 }
        }
        #expect(refused == entry.compressedSize, "each damaged byte is caught by inflation or the CRC")
    }

    /// Every byte of the archive changed alone, three ways: read or refused, never a trap.
    @Test func everySingleByteChangeIsReadOrRefused() {
        var (read, refused) = (0, 0)
        for i in Self.good.indices {
            for change in [{ (b: UInt8) in b ^ 0xFF }, { _ in 0 }, { _ in 0xFF }] {
                var bytes = Self.good
                bytes[i] = change(bytes[i])
                do { _ = try Self.unpack(bytes); read += 1 } catch { refused += 1 }
            }
        }
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }

    /// Random mutations of the zip structure (not only the documents in it),
    /// from a fixed seed: the same inputs on every run.
    @Test func mutatedArchivesAreReadOrRefused() {
        var random = SeededRandom(seed: 0x21B)
        var (read, refused) = (0, 0)
        for _ in 0..<3000 {
            var bytes = Self.good
            for _ in 0..<random.int(1...4) {
                let i = random.int(0...(bytes.count - 1))
                switch random.int(0...3) {
                case 0: bytes[i] = UInt8(random.int(0...255))
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + random.int(1...8)))
                case 2: bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF], at: i)
                default: bytes = Array(bytes.prefix(max(1, i)))
                }
            }
            do { _ = try Self.unpack(bytes); read += 1 } catch { refused += 1 }
        }
        #expect(read > 10 && refused > 1000, "read \(read), refused \(refused)")
    }

    @Test func theRefusalSaysWhatIsWrong() {
        let error = #expect(throws: SceneError.self) { try Self.unpack(Array("not a zip at all, just text".utf8)) }
        #expect(error?.message.contains("end-of-central-directory") == true)
        #expect(error?.location == "t.tendies")
    }
}

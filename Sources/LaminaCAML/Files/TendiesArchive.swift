import Foundation
import LaminaScene
import ZIPFoundation

/// A `.tendies` file (a zip archive of a PosterBoard wallpaper) read into
/// memory, refusing what a hostile archive would use: entries whose paths
/// leave the archive (absolute, `..`), links, more entries than
/// `maximumEntries`, and more bytes than the limits once inflated, counted
/// as the bytes come out (a zip's declared sizes can lie).
enum TendiesArchive {
    static let maximumEntries = 10_000

    /// The most bytes all entries may inflate to: four scene documents.
    static func maximumTotalBytes(_ limits: SceneLimits) -> Int {
        limits.documentBytes > Int.max / 4 ? Int.max : limits.documentBytes * 4
    }

    static func unpack(_ bytes: [UInt8], name: String, limits: SceneLimits) throws(SceneError) -> ArchiveFiles {
        func refuse(_ kind: SceneError.Kind, _ message: String) -> SceneError {
            SceneError(kind, at: name, message)
        }
        func refuse(_ message: String) -> SceneError { refuse(.invalidValue, message) }
        guard bytes.count <= limits.documentBytes else {
            throw refuse(.limitExceeded, "the archive has \(bytes.count) bytes, over the limit of \(limits.documentBytes)")
        }
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw refuse("not a zip archive (\(error))")
        }
        let total = maximumTotalBytes(limits)
        let perEntry = max(limits.documentBytes, limits.imageBytes)
        var files: [String: [UInt8]] = [:]
        var folders: Set<String> = []
        var count = 0
        var inflated = 0
        for entry in archive {
            count += 1
            guard count <= maximumEntries else {
                throw refuse(.limitExceeded, "the archive has more than \(maximumEntries) entries (the limit)")
            }
            let raw = entry.path
            // macOS adds resource forks under __MACOSX; they are not the wallpaper.
            if raw.hasPrefix("__MACOSX/") || FilePath.name(of: raw).hasPrefix("._") { continue }
            let trimmed = raw.hasSuffix("/") ? String(raw.dropLast()) : raw
            guard let path = FilePath.resolve(trimmed, in: ""), path == trimmed.split(separator: "/").joined(separator: "/") else {
                throw refuse("the entry '\(Quoted.prefix(raw, limit: 100))' leads outside the archive")
            }
            switch entry.type {
            case .directory:
                folders.insert(path)
            case .symlink:
                throw refuse("the entry '\(path)' is a link; links are refused")
            case .file:
                guard entry.uncompressedSize <= UInt64(perEntry) else {
                    throw refuse(.limitExceeded, "'\(path)' inflates to \(entry.uncompressedSize) bytes, over the limit of \(perEntry)")
                }
                var data: [UInt8] = []
                do {
                    _ = try archive.extract(entry, skipCRC32: false) { chunk in
                        inflated += chunk.count
                        guard data.count + chunk.count <= perEntry, inflated <= total else { throw Inflation.tooLarge }
                        data += chunk
                    }
                } catch Inflation.tooLarge {
                    throw refuse(.limitExceeded, "the archive inflates to more than its limit (\(perEntry) bytes an entry, \(total) in all)")
                } catch {
                    throw refuse("cannot inflate '\(path)': \(error)")
                }
                files[path] = data
            }
        }
        return ArchiveFiles(files: files, folders: folders)
    }

    private enum Inflation: Error { case tooLarge }
}

import LaminaIO
import LaminaScene

/// A `.tendies` file (a zip archive of a PosterBoard wallpaper) read into
/// memory, refusing what a hostile archive would use: entries whose paths
/// leave the archive (absolute, `..`), links, more entries than
/// `maximumEntries`, and more bytes than the limits once inflated. Sizes
/// are checked before anything is inflated, and `ZipArchive` holds each
/// entry to the size it declares, so a declared size cannot lie.
enum TendiesArchive {
    static let maximumEntries = 10_000

    /// The most bytes all entries may inflate to: four scene documents.
    static func maximumTotalBytes(_ limits: SceneLimits) -> Int {
        limits.documentBytes > Int.max / 4 ? Int.max : limits.documentBytes * 4
    }

    static func unpack(_ bytes: [UInt8], name: String, limits: SceneLimits,
                       deadline: RenderDeadline? = nil) throws(SceneError) -> ArchiveFiles {
        func refuse(_ kind: SceneError.Kind, _ message: String) -> SceneError {
            SceneError(kind, at: name, message)
        }
        func refuse(_ message: String) -> SceneError { refuse(.invalidValue, message) }
        guard bytes.count <= limits.documentBytes else {
            throw refuse(.limitExceeded, "the archive has \(bytes.count) bytes, over the limit of \(limits.documentBytes)")
        }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes, maximumEntries: maximumEntries)
        } catch {
            let kind: SceneError.Kind = error.isOverLimit ? .limitExceeded : .invalidValue
            throw refuse(kind, "not a readable zip archive: \(error.message)")
        }
        let total = maximumTotalBytes(limits)
        let perEntry = max(limits.documentBytes, limits.imageBytes)
        var wanted: [(path: String, entry: ZipArchive.Entry)] = []
        var folders: Set<String> = []
        var inflated = 0
        for entry in archive.entries {
            let raw = entry.path
            // macOS adds resource forks under __MACOSX, and Finder its .DS_Store; they are not the wallpaper.
            let fileName = FilePath.name(of: raw)
            if raw.hasPrefix("__MACOSX/") || fileName.hasPrefix("._") || fileName == ".DS_Store" { continue }
            let trimmed = raw.hasSuffix("/") ? String(raw.dropLast()) : raw
            guard let path = FilePath.resolve(trimmed, in: ""), path == trimmed.split(separator: "/").joined(separator: "/") else {
                throw refuse("the entry '\(Quoted.prefix(raw, limit: 100))' leads outside the archive")
            }
            switch entry.kind {
            case .directory:
                folders.insert(path)
            case .symbolicLink:
                throw refuse("the entry '\(path)' is a link; links are refused")
            case .file:
                guard entry.uncompressedSize <= perEntry else {
                    throw refuse(.limitExceeded, "'\(path)' inflates to \(entry.uncompressedSize) bytes, over the limit of \(perEntry)")
                }
                inflated += entry.uncompressedSize
                guard inflated <= total else {
                    throw refuse(.limitExceeded, "the archive inflates to more than its limit of \(total) bytes in all")
                }
                wanted.append((path, entry))
            }
        }
        // Every size is known to fit before the first byte is inflated.
        var files: [String: [UInt8]] = [:]
        for (path, entry) in wanted {
            try deadline?.check(at: "\(name)/\(path)")
            do {
                files[path] = try archive.contents(of: entry)
            } catch {
                throw refuse("cannot read '\(path)': \(error.message)")
            }
        }
        return ArchiveFiles(files: files, folders: folders)
    }
}

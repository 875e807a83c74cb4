import Foundation
import LaminaIO
import LaminaScene

/// Where the files of a CAML bundle come from: a folder on disk
/// (`DirectoryFiles`) or an archive read into memory (`ArchiveFiles`).
/// Paths are relative to the source's root, `/`-separated, and never leave
/// it: `FilePath.resolve` refuses `..` above the root and absolute paths.
protocol CAMLFileSource: Sendable {
    /// The bytes of the file at `path`, refusing one larger than `limit`.
    func read(_ path: String, limit: Int) throws(SceneError) -> [UInt8]
    /// Whether `path` names a folder ("" is the root).
    func isFolder(_ path: String) -> Bool
    /// The names directly inside folder `path`, sorted.
    func list(_ path: String) -> [String]
}

/// Relative paths inside a file source.
enum FilePath {
    /// `relative` resolved against folder `base`: "." and ".." are followed,
    /// and nil is returned for a path that is absolute, empty, holds a
    /// backslash or NUL, or climbs above the root.
    static func resolve(_ relative: String, in base: String) -> String? {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\\"), !relative.contains("\0") else {
            return nil
        }
        var parts = base.split(separator: "/").map(String.init)
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// The folder part of `path` ("" for a top-level name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// The bytes of the regular file at `path` on disk, at most `limit` of
    /// them, read as LaminaIO reads every input (a FIFO or device is refused
    /// without blocking); errors name the file `name`.
    static func readFile(_ path: String, named name: String, limit: Int) throws(SceneError) -> [UInt8] {
        do {
            return try FileIO.readFile(atPath: path, maxBytes: limit)
        } catch {
            throw SceneError(error.code == EFBIG ? .limitExceeded : .fileAccess, at: name, "'\(name)' \(error.reason)")
        }
    }
}

/// Files in a folder on disk. Reads refuse links that lead out of the folder.
struct DirectoryFiles: CAMLFileSource {
    let root: URL

    init(root: URL) {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
    }

    private func url(_ path: String) -> URL {
        path.isEmpty ? root : root.appendingPathComponent(path)
    }

    /// The file's real location, or nil when it resolves outside the root.
    private func contained(_ path: String) -> URL? {
        let real = url(path).resolvingSymlinksInPath().standardizedFileURL
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return real.path == root.path || real.path.hasPrefix(rootPath) ? real : nil
    }

    func read(_ path: String, limit: Int) throws(SceneError) -> [UInt8] {
        guard let real = contained(path) else {
            throw SceneError(.fileAccess, at: path, "'\(path)' leads outside its bundle")
        }
        return try FilePath.readFile(real.path, named: path, limit: limit)
    }

    func isFolder(_ path: String) -> Bool {
        guard let real = contained(path) else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: real.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    func list(_ path: String) -> [String] {
        guard let real = contained(path) else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: real.path)) ?? []).sorted()
    }
}

/// Files read out of an archive into memory.
struct ArchiveFiles: CAMLFileSource {
    /// File contents by path.
    let files: [String: [UInt8]]
    /// Every folder, implied by the files' paths or listed in the archive.
    let folders: Set<String>

    /// The sorted names directly inside each folder ("" is the root), worked
    /// out once: a wallpaper of thousands of bundles lists each of them.
    private let children: [String: [String]]

    init(files: [String: [UInt8]], folders: Set<String>) {
        self.files = files
        var all = folders
        for path in files.keys {
            var folder = FilePath.folder(of: path)
            while !folder.isEmpty, all.insert(folder).inserted {
                folder = FilePath.folder(of: folder)
            }
        }
        self.folders = all
        var children: [String: Set<String>] = [:]
        for path in files.keys where !path.isEmpty { children[FilePath.folder(of: path), default: []].insert(FilePath.name(of: path)) }
        for path in all where !path.isEmpty { children[FilePath.folder(of: path), default: []].insert(FilePath.name(of: path)) }
        self.children = children.mapValues { $0.sorted() }
    }

    func read(_ path: String, limit: Int) throws(SceneError) -> [UInt8] {
        guard let bytes = files[path] else {
            throw SceneError(.fileAccess, at: path, "the archive has no file '\(path)'")
        }
        guard bytes.count <= limit else {
            throw SceneError(.limitExceeded, at: path, "'\(path)' has \(bytes.count) bytes, over the limit of \(limit)")
        }
        return bytes
    }

    func isFolder(_ path: String) -> Bool { path.isEmpty || folders.contains(path) }

    func list(_ path: String) -> [String] { children[path] ?? [] }
}

import CFreeType
import Foundation
import LaminaCore
import Synchronization

/// Fonts an application brings with it, as `CTFontManagerRegisterFontsForURL`
/// registers them on Apple's systems: once registered, a font resolves by its
/// family and PostScript names before Lamina's table (`FontTable`), in every
/// renderer of the process, made before or after.
///
/// ```swift
/// try FontRegistry.register(fileAt: "Brand-Bold.otf")    // "Brand" bold, or "Brand-Bold"
/// try FontRegistry.register(directory: "fonts/")          // every font file in it
/// try FontRegistry.register(data: bytes)                  // a font in memory
/// ```
public enum FontRegistry {
    private struct State {
        var files: [String] = []
        /// Files written for fonts registered as data (removed at exit).
        var temporaryFiles: [String] = []
        var temporaryFolder: String?
    }

    private static let state = Mutex(State())

    /// The extensions `register(directory:)` takes.
    public static let fileExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

    /// Registers one font file (TrueType, OpenType or a collection).
    /// - Throws: `TextRenderingError` when it is not a font FreeType can
    ///   read, or has no outlines.
    public static func register(fileAt path: String) throws(TextRenderingError) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        // FreeType opens with a plain fopen, which waits for ever on a FIFO
        // (and reads without end from a device): only a regular file is a font.
        var info = stat()
        guard stat(absolute, &info) == 0 else { throw TextRenderingError("\(path): cannot be read (\(String(cString: strerror(errno))))") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TextRenderingError("\(path): not a regular file (a FIFO, a device or a folder is refused without being opened)")
        }
        try validate(absolute, reportingAs: path)
        state.withLock { s in
            if !s.files.contains(absolute) { s.files.append(absolute) }
        }
    }

    /// Registers every font file (`.ttf`, `.otf`, `.ttc`, `.otc`) in a
    /// folder and its subfolders, in name order; returns how many.
    /// - Throws: `TextRenderingError` when the folder cannot be read, holds
    ///   over 10,000 files, or a font file in it cannot be read.
    @discardableResult
    public static func register(directory: String) throws(TextRenderingError) -> Int {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw TextRenderingError("\(directory): no such folder of fonts")
        }
        guard let walker = FileManager.default.enumerator(atPath: directory) else {
            throw TextRenderingError("\(directory): the folder cannot be read")
        }
        var fonts: [String] = []
        var seen = 0
        while let relative = walker.nextObject() as? String {
            seen += 1
            guard seen <= 10_000 else { throw TextRenderingError("\(directory): over 10,000 files; give a folder of fonts") }
            if fileExtensions.contains(URL(fileURLWithPath: relative).pathExtension.lowercased()) {
                fonts.append(directory + "/" + relative)
            }
        }
        for font in fonts.sorted() { try register(fileAt: font) }
        return fonts.count
    }

    /// Registers a font given as bytes (kept in a private temporary file
    /// for the life of the process, since fontconfig finds fonts by file).
    /// - Throws: `TextRenderingError` when the bytes are not a font.
    public static func register(data: [UInt8]) throws(TextRenderingError) {
        let path: String
        do {
            path = try state.withLock { s in
                if s.temporaryFolder == nil {
                    let folder = NSTemporaryDirectory() + "/lamina-fonts-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o700])
                    s.temporaryFolder = folder
                    atexit { FontRegistry.removeTemporaryFiles() }
                }
                let path = s.temporaryFolder! + "/font-\(s.temporaryFiles.count).bin"
                guard FileManager.default.createFile(atPath: path, contents: Data(data), attributes: [.posixPermissions: 0o600]) else {
                    throw TextRenderingError("a font given as data could not be kept in \(s.temporaryFolder!)")
                }
                s.temporaryFiles.append(path)
                return path
            }
        } catch let error as TextRenderingError {
            throw error
        } catch {
            throw TextRenderingError("a font given as data could not be kept: \(error.localizedDescription)")
        }
        do {
            try validate(path, reportingAs: "a font given as data (\(data.count) bytes)")
        } catch {
            unlink(path)
            throw error
        }
        state.withLock { $0.files.append(path) }
    }

    /// Every registered file, in the order registered.
    static var files: [String] { state.withLock { $0.files } }

    private static func removeTemporaryFiles() {
        let (files, folder) = state.withLock { ($0.temporaryFiles, $0.temporaryFolder) }
        files.forEach { unlink($0) }
        if let folder { rmdir(folder) }
    }

    private static func validate(_ path: String, reportingAs name: String) throws(TextRenderingError) {
        let library = try FreeTypeLibrary()
        var face: FT_Face?
        let error = FT_New_Face(library.handle, path, 0, &face)
        guard error == 0, let face else {
            throw TextRenderingError("\(name): not a font file FreeType can read (error \(error))")
        }
        defer { FT_Done_Face(face) }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            throw TextRenderingError("\(name): the font has no scalable outlines")
        }
    }
}

/// A font name drawn with another family than Lamina's table prefers for
/// it, because none of the preferred families is installed; reported once
/// per process through `FontWarnings`.
public struct FontSubstitution: Hashable, Sendable, CustomStringConvertible {
    /// The name the scene gave.
    public var requested: String
    /// The families that would have drawn it.
    public var missing: [String]
    /// The family drawing it instead; nil when only fontconfig's own guess
    /// was left.
    public var used: String?

    /// What went wrong, in words for a message.
    public var description: String {
        let names = missing.map(Self.shown)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        let verb = names.count == 1 ? "is" : "are"
        return "font \"\(Self.shown(requested))\": \(list) \(verb) not installed; drawing it with \(used ?? "fontconfig's closest match")"
    }

    /// A name as messages show it: names come from scenes, so at most a
    /// prefix of a long one, and control characters escaped (a name cannot
    /// start a line of its own in a log).
    public static func shown(_ name: String) -> String {
        var out = ""
        for scalar in Quoted.prefix(name).unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\"" {
                out += scalar == "\"" ? "\\\"" : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Where font substitutions are told, once each per process: standard
/// error by default (`lamina: font "Helvetica": ...`); the render server
/// logs and counts them.
public enum FontWarnings {
    private static let state = Mutex<(told: Set<FontSubstitution>, toldBytes: Int, handler: @Sendable (FontSubstitution) -> Void)>(
        ([], 0, { substitution in
            FileHandle.standardError.write(Data(("lamina: " + substitution.description + "\n").utf8))
        }))

    /// What the substitutions told hold at most: 10,000 of them, 1 MiB of names.
    static let toldLimit = (count: 10_000, bytes: 1 << 20)

    /// Replaces where substitutions are told.
    public static func setHandler(_ handler: @escaping @Sendable (FontSubstitution) -> Void) {
        state.withLock { $0.handler = handler }
    }

    static func report(_ substitution: FontSubstitution) {
        let handler: (@Sendable (FontSubstitution) -> Void)? = state.withLock { s in
            // Bounded: a server drawing strangers' scenes tells the first
            // 10,000 substitutions, not an endless stream of made-up names.
            let bytes = substitution.requested.utf8.count + substitution.missing.reduce(0) { $0 + $1.utf8.count }
                + (substitution.used?.utf8.count ?? 0)
            guard s.told.count < toldLimit.count, s.toldBytes + bytes <= toldLimit.bytes else { return nil }
            guard s.told.insert(substitution).inserted else { return nil }
            s.toldBytes += bytes
            return s.handler
        }
        handler?(substitution)
    }
}

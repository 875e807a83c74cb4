import Foundation
import LaminaIO
import LaminaJSON

/// Reads scene JSON (see `scene-format.md`) into a `Scene`.
///
/// Decoding is strict: an unknown key, a wrong type, a number out of range, a
/// conflict or a scene over the limits refuses the whole scene with a
/// `SceneError` that names the JSON location of every problem found.
public struct SceneDecoder: Sendable {
    /// What a decode may do besides reading the text.
    public struct Options: Hashable, Sendable {
        /// Where image paths in `contents` are resolved from (the scene
        /// file's directory). Nil resolves them from the current directory.
        public var baseDirectory: URL?
        /// Whether `contents` may name files. A server sets this false and
        /// then accepts only data URIs and generated test images.
        public var allowsFiles: Bool

        /// Options: relative image paths resolve against `baseDirectory`; with
        /// `allowsFiles` false (a server), only data URIs are read.
        public init(baseDirectory: URL? = nil, allowsFiles: Bool = true) {
            self.baseDirectory = baseDirectory
            self.allowsFiles = allowsFiles
        }
    }

    /// What a document may hold (sizes, counts, depth).
    public var limits: SceneLimits
    /// Where images may come from.
    public var options: Options
    /// When decoding must stop (a render server's request deadline): checked
    /// between layers, images and every 64 KiB of JSON; past it the decode
    /// throws a `SceneError` of kind `interrupted`. Nil: no limit.
    public var deadline: RenderDeadline?

    /// A decoder with `limits` and `options`.
    public init(limits: SceneLimits = .default, options: Options = Options(), deadline: RenderDeadline? = nil) {
        self.limits = limits
        self.options = options
        self.deadline = deadline
    }
}

extension SceneDecoder {
    /// The only format this decoder reads.
    public static let formatName = "lamina.scene/1"

    /// Decodes scene JSON.
    /// - Throws: `SceneError` with every problem found; nothing of a refused
    ///   scene is returned.
    public func decode(_ data: Data) throws(SceneError) -> Scene {
        try decode([UInt8](data))
    }

    /// Decodes scene JSON bytes, as a server holds a request's body (no
    /// copy is made of them).
    public func decode(_ bytes: [UInt8]) throws(SceneError) -> Scene {
        try scene(from: parse(bytes))
    }

    /// Decodes scene JSON given as text.
    public func decode(_ text: String) throws(SceneError) -> Scene {
        try decode(Array(text.utf8))
    }

    /// Reads and decodes a scene file. Image paths resolve from the file's
    /// directory unless `options.baseDirectory` says otherwise.
    public func decode(contentsOf url: URL) throws(SceneError) -> Scene {
        let data: Data
        do {
            let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            guard size <= limits.documentBytes else {
                throw SceneError(.limitExceeded, at: "$",
                                 "the file has \(size) bytes, over the limit of \(limits.documentBytes)")
            }
            data = try Data(contentsOf: url)
        } catch let error as SceneError {
            throw error
        } catch {
            throw SceneError(.fileAccess, at: "$", "cannot read \(url.path): \(error.localizedDescription)")
        }
        var decoder = self
        if decoder.options.baseDirectory == nil {
            decoder.options.baseDirectory = url.deletingLastPathComponent()
        }
        return try decoder.decode(data)
    }

    /// Decodes scene JSON and names the scene: the `fingerprint` is the
    /// same for every spelling of the same document (whitespace, key order,
    /// number formats), so it can key a cache of pictures.
    package func decodeWithFingerprint(_ bytes: [UInt8]) throws(SceneError) -> (scene: Scene, fingerprint: SHA256.Digest) {
        let root = try parse(bytes)
        return (try scene(from: root), JSONFingerprint.digest(of: root))
    }

    /// The document's JSON, its size checked first.
    private func parse(_ bytes: [UInt8]) throws(SceneError) -> JSONValue {
        guard bytes.count <= limits.documentBytes else {
            throw SceneError(.limitExceeded, at: "$",
                             "the document has \(bytes.count) bytes, over the limit of \(limits.documentBytes)")
        }
        return try JSONParser.parse(bytes, maxNesting: limits.jsonNesting, deadline: deadline)
    }

    /// Decodes a scene from a JSON value built in code (the CAML reader
    /// builds one whose positions are places in the XML text).
    package func decode(value root: JSONValue) throws(SceneError) -> Scene {
        try scene(from: root)
    }

    private func scene(from root: JSONValue) throws(SceneError) -> Scene {
        let context = DecodingContext(limits: limits, options: options, deadline: deadline)
        let scene = try context.scene(root)
        try context.throwIfIssues()
        guard let scene else {
            // Every path that yields no scene has reported why.
            throw SceneError(.invalidValue, at: "$", "the scene was refused")
        }
        return scene
    }
}

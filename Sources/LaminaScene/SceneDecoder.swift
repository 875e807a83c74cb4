import Foundation

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

        public init(baseDirectory: URL? = nil, allowsFiles: Bool = true) {
            self.baseDirectory = baseDirectory
            self.allowsFiles = allowsFiles
        }
    }

    public var limits: SceneLimits
    public var options: Options

    public init(limits: SceneLimits = .default, options: Options = Options()) {
        self.limits = limits
        self.options = options
    }
}

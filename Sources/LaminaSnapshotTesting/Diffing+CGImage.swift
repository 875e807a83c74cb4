import Foundation
import Lamina
import LaminaIO
import SnapshotTesting

extension Diffing where Value == CGImage {
    /// Pictures compared exactly, stored as PNG.
    ///
    /// ```swift
    /// let exact = Snapshotting<CGImage, CGImage>(pathExtension: "png", diffing: .image)
    /// ```
    public static var image: Diffing { .image() }

    /// Pictures stored as PNG and compared as swift-snapshot-testing compares
    /// images on Apple's systems, so that a reference recorded there with
    /// the same settings verifies here.
    ///
    /// ```swift
    /// assertSnapshot(of: picture, as: .image(precision: 0.99, perceptualPrecision: 0.98))
    /// ```
    ///
    /// - Parameters:
    ///   - precision: The fraction of pixels that must match (of bytes, when
    ///     `perceptualPrecision` is 1). 1: all of them.
    ///   - perceptualPrecision: How close a pixel's colour must be to
    ///     match: 1 exactly; below 1, within a CIE94 ΔE of
    ///     `(1 - perceptualPrecision) * 100` (0.98 allows ΔE 2, about the
    ///     smallest difference an eye sees), over black and over white.
    ///
    /// On a failure the message says how many pixels differ and by how
    /// much, and the reference, the new picture and a picture of the
    /// differences (grey by how much, red where over the tolerance) are
    /// written side by side as `reference.png`, `failure.png` and
    /// `difference.png` in a folder under `SNAPSHOT_ARTIFACTS` (or the
    /// temporary folder), which the message names.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Diffing {
        let comparison = ImageComparison(precision: precision, perceptualPrecision: perceptualPrecision)
        return .diff(
            toData: { Data(SnapshotPictures.png($0)) },
            fromData: { SnapshotPictures.decode($0) }
        ) { reference, new in
            if reference === SnapshotPictures.unreadable {
                return ("The reference could not be read as a PNG picture; record it again.", [])
            }
            // Compared as stored: the new picture read back from its PNG, as the reference was.
            let newPNG = SnapshotPictures.png(new)
            let stored = SnapshotPictures.decode(Data(newPNG))
            guard let (message, measurement) = comparison.compare(reference, stored) else { return nil }
            let pictures = [("reference.png", SnapshotPictures.png(reference)), ("failure.png", newPNG)]
                + (measurement.flatMap(ImageComparison.differencePicture).map { [("difference.png", SnapshotPictures.png($0))] } ?? [])
            let written = SnapshotPictures.writeArtifacts(pictures)
            let attachments = pictures.map { DiffAttachment.data(Data($0.1), name: $0.0) }
            return (message + (written.map { "\n\nReference, new picture and difference: \($0)" } ?? ""), attachments)
        }
    }
}

/// Pictures to and from the files snapshots are stored in.
enum SnapshotPictures {
    /// What a reference that is not a readable PNG reads as (the comparison
    /// says so instead of comparing it).
    static let unreadable = try! CGImage(width: 1, height: 1, premultipliedRGBA: [0, 0, 0, 0])

    /// `image` as PNG, compressed well (references live in repositories).
    static func png(_ image: CGImage) -> [UInt8] {
        (try? PNGEncoder(options: .balanced).encode(image)) ?? []
    }

    /// The picture in `data`, or `unreadable`.
    static func decode(_ data: Data) -> CGImage {
        (try? PNGDecoder().decode(data)) ?? unreadable
    }

    /// Writes `pictures` into a new folder of `SNAPSHOT_ARTIFACTS` (or the
    /// temporary folder) named by their digest, and returns its path; nil
    /// when it could not be written.
    static func writeArtifacts(_ pictures: [(name: String, bytes: [UInt8])]) -> String? {
        let root = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory()
        var hash = SHA256()
        for picture in pictures { hash.update(picture.bytes) }
        let folder = URL(fileURLWithPath: root, isDirectory: true)
            .appendingPathComponent("lamina-snapshot-" + String(hash.finalize().hex.prefix(12)), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for picture in pictures {
                try Data(picture.bytes).write(to: folder.appendingPathComponent(picture.name), options: .atomic)
            }
        } catch {
            return nil
        }
        return folder.path
    }
}

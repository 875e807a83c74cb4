import Foundation

/// The content that a layer's `display()` drew: what `contents` holds after
/// drawing, as Core Animation puts its own backing store object there.
///
/// It is the context's `DrawingRecording`, kept as vector commands so that a
/// renderer can paint it at the resolution it needs, or have
/// `ContextRasterizer` make a bitmap (`makeImage()`). A renderer shows it exactly as it
/// shows a `CGImage` in `contents` of `width` x `height` pixels (pixel row
/// `r` is device y from `height - r - 1` to `height - r`, see
/// `DrawingRecording`), with `contentsScale`, `contentsGravity` and the other
/// contents properties applying to it.
package final class CABackingStore: Hashable, Sendable, CustomStringConvertible {
    /// What was drawn, in device pixels.
    public let recording: DrawingRecording
    /// The layer's `contentsScale` when it was drawn: pixels per point.
    public let contentsScale: CGFloat

    /// The drawing `recording`, made at `contentsScale` pixels per point.
    public init(recording: DrawingRecording, contentsScale: CGFloat) {
        self.recording = recording
        self.contentsScale = contentsScale
    }

    /// The width in pixels.
    public var width: Int { recording.width }

    /// The height in pixels.
    public var height: Int { recording.height }

    /// A bitmap of the drawing, painted by `ContextRasterizer` (nil when
    /// the recording cannot be painted: it is larger than a bitmap may be).
    public func makeImage() -> CGImage? {
        ContextRasterizer().makeImage(from: recording)
    }

    public static func == (lhs: CABackingStore, rhs: CABackingStore) -> Bool {
        lhs === rhs || (lhs.recording == rhs.recording && lhs.contentsScale == rhs.contentsScale)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recording)
        hasher.combine(contentsScale)
    }

    public var description: String {
        "CABackingStore(\(width)x\(height) px, scale \(contentsScale), \(recording.commands.count) commands)"
    }
}

import Foundation
import LaminaRaster

/// Paints the `DrawingRecording` of a `CGContext` with LaminaRaster's stages: the
/// rasterizer behind `CGContext.makeImage()` and behind the bitmaps of a
/// layer's `display()` (its `CABackingStore`).
///
/// Every command is painted source-over in premultiplied sRGB, as Core
/// Graphics paints a bitmap context:
///
/// - fills use the command's fill rule; strokes are outlined by the
///   LaminaGeometry stroker in the user space of the stroke and filled
///   nonzero (a line width of 0 is a one-pixel hairline, a negative one
///   strokes nothing);
/// - curves become chords within `flatteningTolerance` device pixels;
/// - a clip is the product of its regions' anti-aliased coverage;
/// - `clear(_:)` makes the covered pixels transparent, within the clip;
/// - images are sampled bilinearly through the CTM (nearest with
///   `interpolationQuality = .none`); their top row lies along the maximum
///   y of the rectangle in user space, so an image is upright in an
///   unflipped context and upside down in a layer's context on iOS, where
///   `display()` flips the CTM so that y grows down;
/// - with `setShouldAntialias(false)` a fill or stroke paints the pixels it
///   covers at least half; image edges stay anti-aliased.
struct ContextRasterizer {
    /// The largest distance, in device pixels, between a curve (or a round
    /// join or cap) and the chords that draw it.
    static let flatteningTolerance: CGFloat = 0.2

    init() {}

    /// The recording painted into a transparent pixmap of its size.
    ///
    /// - Throws: `RecordingReplayError` naming the command that could not be
    ///   painted (coordinates out of range, an image too large for a pixmap)
    ///   or a recording larger than a pixmap may be.
    func render(_ recording: DrawingRecording) throws -> Pixmap {
        var replay: RecordingReplay
        do {
            replay = try RecordingReplay(
                width: recording.width, height: recording.height, tolerance: Self.flatteningTolerance)
        } catch let error as RasterError {
            throw RecordingReplayError(commandIndex: nil, part: "bitmap size", underlying: error)
        }
        for (index, command) in recording.commands.enumerated() {
            try replay.run(command, index: index)
        }
        return replay.pixmap
    }

    /// The recording as an image; nil when `render(_:)` throws or the
    /// recording has no pixels (call `render(_:)` to learn why).
    func makeImage(from recording: DrawingRecording) -> CGImage? {
        (try? render(recording))?.makeCGImage()
    }
}

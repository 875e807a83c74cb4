import LaminaRaster

/// Why `ContextRasterizer` could not paint a `DrawingRecording`, and where.
struct RecordingReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The index of the command in `DrawingRecording.commands`, or nil when
    /// the recording as a whole is at fault (its size).
    var commandIndex: Int?
    /// The part that failed, such as `"fill"`, `"stroke"`, `"clip region 1"`
    /// or `"image"`.
    var part: String
    /// What the pixel pipeline reported.
    var underlying: RasterError

    init(commandIndex: Int?, part: String, underlying: RasterError) {
        self.commandIndex = commandIndex
        self.part = part
        self.underlying = underlying
    }

    var description: String {
        if let commandIndex {
            return "drawing command \(commandIndex) (\(part)): \(underlying)"
        }
        return "drawing recording (\(part)): \(underlying)"
    }
}

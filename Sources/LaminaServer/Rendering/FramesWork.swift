import Foundation
import Lamina
import Synchronization

/// What `POST /frames` (and a job of `POST /jobs`) asks of a worker:
/// every frame of a timeline, encoded as one animated file as the frames are
/// drawn.
struct FramesWork: Sendable {
    var timeline: AnimationTimeline
    var format: AnimationEncoder.Format
    var options: AnimationEncoder.Options
    /// Counted by the worker as it goes, read by `GET /jobs/{id}`.
    var progress = FramesProgress()
}

/// How far a worker is with an animation: frames drawn, frames encoded,
/// and the stage, written by the worker and read by anyone.
final class FramesProgress: Sendable {
    enum Stage: Int, Sendable {
        /// Waiting for a worker.
        case queued
        /// Frames being drawn (and encoded as each is drawn).
        case rendering
        /// Every frame is in; the file is being finished (ffmpeg's end for MP4).
        case encoding
        /// The worker is done with it (the answer says how).
        case finished
    }

    private let stageValue = Atomic<Int>(Stage.queued.rawValue)
    private let rendered = Atomic<Int>(0)
    private let encoded = Atomic<Int>(0)

    var stage: Stage { Stage(rawValue: stageValue.load(ordering: .acquiring)) ?? .queued }
    var renderedFrames: Int { rendered.load(ordering: .relaxed) }
    var encodedFrames: Int { encoded.load(ordering: .relaxed) }

    func enter(_ stage: Stage) { stageValue.store(stage.rawValue, ordering: .releasing) }
    func frameRendered() { rendered.add(1, ordering: .relaxed) }
    func frameEncoded() { encoded.add(1, ordering: .relaxed) }
}

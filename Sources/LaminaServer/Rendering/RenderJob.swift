import Foundation
import Lamina
import Synchronization

/// One request's picture and what it asked for.
struct RenderJob: @unchecked Sendable {
    // @unchecked: the scene's layer tree is handed over whole to the worker
    // that draws it; the request handler keeps no reference to it.
    var scene: Scene
    var scale: Double?
    var time: Double?
    /// The backend this request asks for; nil: the worker's own.
    var backend: RenderBackend?
    /// Plan the frame (which refuses what the budget does not allow) but
    /// draw nothing: `POST /validate`.
    var planOnly = false
    /// An animation instead of one picture: `POST /frames`.
    var frames: FramesWork?
    /// When the request arrived: time in the queue is measured from here.
    var enqueued: ContinuousClock.Instant
    var deadline: ContinuousClock.Instant
}

/// A picture (or an animation) made by a worker, and how long each stage took.
struct RenderedPicture: Sendable {
    /// The encoded file: a PNG, or an animated PNG, WebP or MP4 for frames.
    var bytes: [UInt8]
    var width: Int
    var height: Int
    /// Pictures drawn: 1, or the animation's frames.
    var frameCount = 1
    var backend: RenderBackend
    var queue: Duration
    var plan: Duration
    var render: Duration
    var encode: Duration
}

/// Why a job produced no picture.
enum RenderFailure: Error, Sendable {
    /// Every worker is busy and the queue is full.
    case queueFull
    /// The deadline passed (in the queue or between passes).
    case deadlinePassed
    /// The server is shutting down.
    case draining
    /// The request went away (its task was cancelled).
    case abandoned
    /// The frame asks for more than the budget: the scene's fault.
    case refused(RenderRefusal)
    /// The request asked for a backend this worker does not have.
    case backendUnavailable(String)
    /// The renderer or encoder failed (not the scene's fault).
    case failed(String)
}

/// Render targets kept between frames and handed out again by size, so that
/// a steady animation allocates no GPU memory after its first frames.
///
/// `acquire` gives a cleared target, `recycle` puts it back, `endFrame` frees
/// targets nobody asked for during the last `maximumIdleFrames` frames.
final class GLRenderTargetPool {
    let context: GLContext
    /// How many `endFrame` calls an unused target survives.
    let maximumIdleFrames: Int

    private struct Key: Hashable {
        var width: Int
        var height: Int
        var multisampled: Bool
    }

    private struct Idle {
        var target: GLRenderTarget
        var idleFrames: Int
    }

    private var idle: [Key: [Idle]] = [:]
    private var checkedOut: Set<ObjectIdentifier> = []

    init(context: GLContext, maximumIdleFrames: Int = 4) {
        self.context = context
        self.maximumIdleFrames = max(0, maximumIdleFrames)
    }

    /// A target of exactly this size, cleared to transparent: a recycled one
    /// when there is one, otherwise a new one.
    func acquire(width: Int, height: Int, multisampled: Bool = false) throws -> GLRenderTarget {
        // Without MSAA support a "multisampled" target is an ordinary one.
        let key = Key(width: width, height: height, multisampled: multisampled && context.info.multisampleCount > 0)
        let target: GLRenderTarget
        if let reused = idle[key]?.popLast() {
            target = reused.target
            try target.clear()
        } else {
            target = try GLRenderTarget(context: context, width: width, height: height, multisampled: key.multisampled)
        }
        checkedOut.insert(ObjectIdentifier(target))
        return target
    }

    /// Gives a target from `acquire` back for later frames.
    /// - Throws: `GLError.invalidArgument` for a target this pool did not hand
    ///   out, or one already given back.
    func recycle(_ target: GLRenderTarget) throws {
        guard target.context === context, checkedOut.remove(ObjectIdentifier(target)) != nil else {
            throw GLError.invalidArgument(
                "recycling a \(target.width)x\(target.height) render target this pool did not hand out "
                    + "(or one already recycled)")
        }
        let key = Key(width: target.width, height: target.height, multisampled: target.isMultisampled)
        idle[key, default: []].append(Idle(target: target, idleFrames: 0))
    }

    /// Ages idle targets by one frame and frees those idle for longer than
    /// `maximumIdleFrames`.
    func endFrame() {
        for key in Array(idle.keys) {
            let aged = (idle[key] ?? []).map { Idle(target: $0.target, idleFrames: $0.idleFrames + 1) }
                .filter { $0.idleFrames <= maximumIdleFrames }
            idle[key] = aged.isEmpty ? nil : aged
        }
    }

    /// Frees every idle target now.
    func purge() {
        idle.removeAll()
    }

    /// Targets waiting to be reused.
    var idleCount: Int { idle.values.reduce(0) { $0 + $1.count } }
    /// Targets handed out and not yet recycled.
    var checkedOutCount: Int { checkedOut.count }
}

import Foundation

// The keys of replicator layers (`"type": "replicator"`).
extension SceneKeys {
    static let replicatorKeys: [SceneKey] = [
        .property("instanceCount", \CAReplicatorLayer.instanceCount, default: 1,
                  read: { c, v, p throws(SceneError) in try c.integer(v, at: p, minimum: 0) },
                  write: { .number(Double($0)) }),
        .transform("instanceTransform", \CAReplicatorLayer.instanceTransform),
        .color("instanceColor", \CAReplicatorLayer.instanceColor, default: CGColor.white),
        .number("instanceRedOffset", \CAReplicatorLayer.instanceRedOffset, default: 0),
        .number("instanceGreenOffset", \CAReplicatorLayer.instanceGreenOffset, default: 0),
        .number("instanceBlueOffset", \CAReplicatorLayer.instanceBlueOffset, default: 0),
        .number("instanceAlphaOffset", \CAReplicatorLayer.instanceAlphaOffset, default: 0),
        .number("instanceDelay", \CAReplicatorLayer.instanceDelay, default: 0),
    ]
}

import Foundation

// The keys of replicator layers (`"type": "replicator"`).
extension SceneKeys {
    static let replicatorKeys: [SceneKey] = [
        .property("instanceCount", \CAReplicatorLayer.instanceCount,
                  read: { c, v, p throws(SceneError) in try c.integer(v, at: p, minimum: 0) },
                  write: { .number(Double($0)) }),
        .transform("instanceTransform", \CAReplicatorLayer.instanceTransform),
        .color("instanceColor", \CAReplicatorLayer.instanceColor),
        .number("instanceRedOffset", \CAReplicatorLayer.instanceRedOffset),
        .number("instanceGreenOffset", \CAReplicatorLayer.instanceGreenOffset),
        .number("instanceBlueOffset", \CAReplicatorLayer.instanceBlueOffset),
        .number("instanceAlphaOffset", \CAReplicatorLayer.instanceAlphaOffset),
        .number("instanceDelay", \CAReplicatorLayer.instanceDelay),
    ]
}

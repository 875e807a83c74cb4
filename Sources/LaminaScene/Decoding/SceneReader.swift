import Foundation
import LaminaJSON

// The top-level object: the canvas keys, then the root layer.
extension DecodingContext {
    func scene(_ value: JSONValue) throws(SceneError) -> Scene? {
        guard let object = value.object else {
            try wrongType(value, at: .root, expected: "a scene (a JSON object with 'width' and 'height')")
            return nil
        }
        let path = JSONPath.root
        if let format = object["format"] {
            if let name = try string(format, at: path / "format"), name != SceneDecoder.formatName {
                try report(.unsupportedFormat, format, at: path / "format",
                           "unsupported format \(JSONWriter.quoted(name)); this reader knows "
                            + JSONWriter.quoted(SceneDecoder.formatName))
            }
        }
        let width = try required("width", of: object, value, at: path) { v, p throws(SceneError) in
            try number(v, at: p, .positive)
        }
        let height = try required("height", of: object, value, at: path) { v, p throws(SceneError) in
            try number(v, at: p, .positive)
        }
        var scale = 1.0
        if let v = object["scale"], let s = try number(v, at: path / "scale", .positive) { scale = s }
        var origin = Scene.Origin.topLeft
        if let v = object["origin"],
           let n = try name(v, at: path / "origin", from: Scene.Origin.allCases.map(\.rawValue)),
           let o = Scene.Origin(rawValue: n) {
            origin = o
        }
        var time = 0.0
        if let v = object["time"], let t = try number(v, at: path / "time") { time = t }

        let root = try layer(value, at: path, depth: 1, copies: 1, isRoot: true)
        guard let width, let height, let root else { return nil }
        return Scene(width: width, height: height, scale: scale, origin: origin, time: time, rootLayer: root)
    }
}

import Foundation
import LaminaCore
import LaminaScene
import LaminaJSON

/// A property value on its way from CAML text to the scene format: either
/// already in the format's JSON form (colours, paths, images, names), or a
/// Swift value of a kind that key paths reach into (numbers, booleans,
/// points, sizes, rectangles, transforms), kept as such until the layer is
/// written so that `position.y` or `transform.rotation.z` can change part
/// of it through Core Animation's own key-value coding.
enum BuiltValue {
    case json(JSONValue)
    case native(Any)

    /// The value in the scene format, placed at `position` for errors.
    func json(at position: SourcePosition) -> JSONValue {
        switch self {
        case .json(let v):
            return v.placedThroughout(at: position)
        case .native(let value):
            return JSONValue((SceneVocabulary.json(of: value) ?? .null).kind, at: position)
        }
    }
}

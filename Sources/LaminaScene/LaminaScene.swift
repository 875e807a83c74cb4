// LaminaScene: the scene JSON codec of ../shared/scene-format.md, strict, with
// errors that name the JSON location, and the limits a server needs.
//
//   SceneDecoder   JSON -> Scene (canvas + CALayer tree), refusing bad input
//                  as a whole with a SceneError that lists every issue found
//   SceneEncoder   Scene -> canonical JSON that decodes to the same tree
//   SceneLimits    how large a scene may be (pixels, layers, depth, ...)
//   SceneError     kind, JSON location ($.sublayers[2].lineCap), line and
//                  column, message, for each issue
//
// Inside: JSON/ is a position-keeping JSON reader and a canonical writer;
// Decoding/ reads values (colours, transforms, paths, images, animations)
// and layers; Keys/ is the table of every layer key, which both directions
// share; Encoding/ writes layers and animations back.
@_exported import LaminaCore

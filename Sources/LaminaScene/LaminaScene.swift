// LaminaScene: the scene JSON codec of ../shared/scene-format.md, strict, with
// errors that name the JSON location, and the limits a server needs.
@_exported import LaminaCore

/// How a bitmap stores alpha, with Core Graphics' names and raw values.
///
/// Lamina's `CGImage` always stores `.premultipliedLast` (RGBA, colour already
/// multiplied by alpha); the other cases exist so that code written against
/// Core Graphics reads and compares the same.
public enum CGImageAlphaInfo: UInt32, Sendable, CaseIterable {
    /// No alpha channel.
    case none = 0
    /// Alpha is the last component (RGBA) and colour is premultiplied by it.
    case premultipliedLast = 1
    /// Alpha is the first component (ARGB) and colour is premultiplied by it.
    case premultipliedFirst = 2
    /// Alpha is the last component (RGBA), colour is not premultiplied.
    case last = 3
    /// Alpha is the first component (ARGB), colour is not premultiplied.
    case first = 4
    /// The last component is padding to ignore (RGBX).
    case noneSkipLast = 5
    /// The first component is padding to ignore (XRGB).
    case noneSkipFirst = 6
    /// Only alpha, no colour.
    case alphaOnly = 7
}

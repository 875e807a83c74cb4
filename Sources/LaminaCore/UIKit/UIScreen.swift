import Foundation

/// The screen as UIKit names it, for the one thing the book's listings ask
/// of it: `[UIScreen mainScreen].scale`, the pixels per point that a text
/// layer's `contentsScale` must match for its text not to look pixelated.
///
/// Lamina has no screen: the "screen" is the picture that a tree is drawn
/// into, and `scale` is that picture's scale. Whoever renders sets it to the
/// scale it draws at (the example programs do), so that code written for iOS
/// reads the right value. It is process-wide, like the real main screen.
public final class UIScreen: Sendable {
    /// The screen the views are shown on.
    public static let main = UIScreen()

    private let storedScale = Locked<CGFloat>(2)

    private init() {}

    /// Pixels per point of the picture the views are drawn into. Default 2,
    /// the Retina iPhone of the book. A value that is not positive and
    /// finite is ignored, as no picture has that scale.
    public var scale: CGFloat {
        get { storedScale.withLock { $0 } }
        set {
            guard newValue > 0, newValue.isFinite else { return }
            storedScale.withLock { $0 = newValue }
        }
    }
}

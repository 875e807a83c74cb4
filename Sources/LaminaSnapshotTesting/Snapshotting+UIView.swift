import Foundation
import Lamina
import SnapshotTesting

extension Snapshotting where Value == UIView, Format == CGImage {
    /// A picture of the view's layer tree at the main screen's scale,
    /// compared exactly.
    ///
    /// ```swift
    /// let badge = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 40))
    /// badge.backgroundColor = .systemGreen
    /// badge.layer.cornerRadius = 20
    /// assertSnapshot(of: badge, as: .image)
    /// ```
    public static var image: Snapshotting { .image() }

    /// A picture of the view's layer tree (see the `CALayer` strategy of the
    /// same name). `size`, as in Apple's strategy, resizes the view before
    /// it is drawn.
    ///
    /// ```swift
    /// assertSnapshot(of: badge, as: .image(perceptualPrecision: 0.98, size: CGSize(width: 160, height: 40)))
    /// ```
    public static func image(
        precision: Float = 1, perceptualPrecision: Float = 1, scale: CGFloat? = nil,
        backend: RenderBackend = .cpu, size: CGSize? = nil
    ) -> Snapshotting {
        Snapshotting<CALayer, CGImage>
            .image(precision: precision, perceptualPrecision: perceptualPrecision, scale: scale, backend: backend)
            .pullback { view in
                if let size { view.frame.size = size }
                return view.layer
            }
    }
}

extension Snapshotting where Value == UIView, Format == String {
    /// The view's layer tree as scene JSON (see the `CALayer` strategy).
    ///
    /// ```swift
    /// assertSnapshot(of: badge, as: .sceneJSON)
    /// ```
    public static var sceneJSON: Snapshotting { Snapshotting<CALayer, String>.sceneJSON.pullback(\.layer) }

    /// The view's layer tree as CAML (see the `CALayer` strategy).
    ///
    /// ```swift
    /// assertSnapshot(of: badge, as: .caml)
    /// ```
    public static var caml: Snapshotting { Snapshotting<CALayer, String>.caml.pullback(\.layer) }
}

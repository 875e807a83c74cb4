import Foundation
import Synchronization

/// An immutable graphics path with Core Graphics' API and semantics.
///
/// Like Apple's, `CGPath` is a class and `CGMutablePath` is its mutable
/// subclass, so `shapeLayer.path = mutablePath` compiles. The elements live
/// in a `PathData` value behind a lock: a `CGPath` is safe to share across
/// threads, and renderers take `pathData`, a plain value, rather than the
/// object. Two paths are equal when their elements are equal.
public class CGPath: @unchecked Sendable {
    /// The elements, behind a lock held inline: a path is made for every
    /// frame of an animated shape, and an `NSLock` was an object of its own.
    private let storage: Mutex<PathData>

    /// The empty path (`CGMutablePath()`).
    public convenience init() {
        self.init(PathData())
    }

    /// A path holding `data`.
    package init(_ data: PathData) {
        storage = Mutex(data)
    }

    /// A path of one rectangle (`CGPath(rect:transform:)`); see
    /// `PathData.addRect`.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        var data = PathData()
        data.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(data)
    }

    /// A path of the ellipse that fits `rect` (`CGPath(ellipseIn:transform:)`);
    /// see `PathData.addEllipse(in:transform:)`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        var data = PathData()
        data.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(data)
    }

    /// A path of one rounded rectangle
    /// (`CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`). Core
    /// Graphics traps on radii above half the rectangle's size; these are
    /// clamped instead.
    public convenience init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: UnsafePointer<CGAffineTransform>? = nil
    ) {
        var data = PathData()
        data.addRoundedRect(
            in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
            transform: transform?.pointee ?? .identity)
        self.init(data)
    }

    /// A snapshot of the path's elements, a value any thread may keep.
    package var pathData: PathData {
        storage.withLock { $0 }
    }

    /// Runs `body` on the stored elements under the lock; the mutable
    /// subclass edits through this.
    func withMutableData<R>(_ body: (inout PathData) -> R) -> R {
        storage.withLock { body(&$0) }
    }

    /// The path's elements, in order.
    package var elements: [PathElement] { pathData.elements }

    /// Whether the path has no elements.
    public var isEmpty: Bool { pathData.isEmpty }

    /// Where the next segment would start; `CGPoint.zero` for an empty path,
    /// as in Core Graphics.
    public var currentPoint: CGPoint { pathData.currentPoint ?? .zero }

    /// The smallest rectangle holding every point, control points included;
    /// `CGRect.null` when the path is empty.
    public var boundingBox: CGRect { pathData.boundingBox }

    /// The smallest rectangle holding the path itself (curve extremes, not
    /// control points); `CGRect.null` when the path is empty.
    public var boundingBoxOfPath: CGRect { pathData.boundingBoxOfPath }

    /// Whether filling the path, transformed by `transform`, with `rule`
    /// would paint `point`. Open subpaths count as closed, as when filling.
    public func contains(
        _ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity
    ) -> Bool {
        pathData.applying(transform).contains(point, using: rule)
    }

    /// Calls `block` with each element in turn, as Core Graphics'
    /// `applyWithBlock` does. The element and its points are valid only
    /// during the call.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let elements = pathData.elements
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        points.initialize(repeating: .zero, count: 3)
        defer {
            points.deinitialize(count: 3)
            points.deallocate()
        }
        for element in elements {
            var i = 0
            element.forEachPoint { p in
                points[i] = p
                i += 1
            }
            var cgElement = CGPathElement(type: element.type, points: points)
            withUnsafePointer(to: &cgElement) { block($0) }
        }
    }

    /// An immutable copy. Never `nil`; optional to match Core Graphics.
    public func copy() -> CGPath? {
        CGPath(pathData)
    }

    /// An immutable copy with every point transformed by `transform`
    /// (`copy(using: &t)` as with Core Graphics; `nil` means no transform).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        CGPath(pathData.applying(transform?.pointee ?? .identity))
    }

    /// An immutable copy with every point transformed by `transform`.
    public func copy(using transform: CGAffineTransform) -> CGPath {
        CGPath(pathData.applying(transform))
    }

    /// A mutable copy. Never `nil`; optional to match Core Graphics.
    public func mutableCopy() -> CGMutablePath? {
        CGMutablePath(pathData)
    }

    /// A mutable copy with every point transformed by `transform`.
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        CGMutablePath(pathData.applying(transform?.pointee ?? .identity))
    }

    /// The path as polylines within `tolerance` of the true curves; see
    /// `PathData.flattened(tolerance:)`.
    package func flattened(tolerance: CGFloat) -> [Polyline] {
        pathData.flattened(tolerance: tolerance)
    }
}

extension CGPath: Hashable {
    /// Paths with the same elements are equal, as `CGPath.==` compares them.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs === rhs || lhs.pathData == rhs.pathData
    }

    /// Hashes the elements.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pathData)
    }
}

extension CGPath: CustomStringConvertible {
    /// The path as SVG path data, which lists every element.
    public var description: String {
        "CGPath(\"\(pathData.svgPathData)\")"
    }
}

import Foundation

/// The geometric properties of one layer and the transforms Core Animation
/// derives from them: the one place where Lamina turns `bounds`, `position`,
/// `anchorPoint`, `transform`, `sublayerTransform` and `isGeometryFlipped`
/// into matrices. Hit testing, point conversion, `frame` and the renderer all
/// use these functions, so what is drawn is where a point converts to.
///
/// ## Convention
///
/// Matrices are `CATransform3D`s in Core Animation's row-vector convention:
/// a point is the row `[x y z 1]` multiplied on the left, so `a.concatenating(b)`
/// applies `a` first. Each layer has three spaces:
///
/// - its **own space** (bounds space): the coordinates of `bounds`, of its
///   contents, its path (shape layers) and of `draw(in:)`; the layer's plane
///   is z = 0 of this space;
/// - its **sublayer space**: the coordinates in which its sublayers' `position`
///   and `zPosition` are given. It is the own space, vertically flipped about
///   the bounds' middle when `isGeometryFlipped`, and seen through
///   `sublayerTransform` about the anchor point;
/// - its superlayer's sublayer space, where its own `position` lives.
///
/// The two building blocks:
///
///     placementTransform      (own space -> superlayer's sublayer space)
///       = T(-anchor.x, -anchor.y, -anchorPointZ) * transform * T(position.x, position.y, zPosition)
///
///     sublayerSpaceTransform  (sublayer space -> own space)
///       = F * T(-anchor.x, -anchor.y, -anchorPointZ) * sublayerTransform * T(anchor.x, anchor.y, anchorPointZ)
///
/// where `anchor = bounds.origin + anchorPoint * bounds.size` is the anchor
/// point in own-space coordinates, `T` a translation, and `F` the flip
/// `y -> bounds.minY + bounds.maxY - y` when `isGeometryFlipped` (identity
/// otherwise). `anchorPointZ` is the reference for `zPosition` exactly as the
/// 2D anchor point is for `position`: with an identity transform the layer's
/// plane lies at `zPosition - anchorPointZ` (Core Animation's header calls it
/// "the reference point for position and transform").
///
/// The transform from a sublayer's own space to its superlayer's own space is
/// `child.placementTransform * parent.sublayerSpaceTransform`
/// (`transformToSuperlayer(of:in:isMask:)`). A mask layer is placed in its
/// owner's own space: neither the owner's flip nor its `sublayerTransform`
/// applies to it.
///
/// ## Flattening
///
/// Every layer except a `CATransformLayer` flattens its sublayers into its own
/// plane: after a sublayer's points reach the layer's own space, their z is
/// dropped (an orthographic projection). From a layer's plane to an
/// ancestor's plane the map is therefore a `PlaneHomography` (rows and
/// columns 1, 2, 4 of each 4x4), composed across flattening layers; through a
/// transform layer the full 4x4 product is kept and reduced only at the next
/// flattening layer.
package struct LayerGeometry: Hashable, Sendable {
    /// The layer's `bounds`, as the geometry reads it.
    public var bounds: CGRect
    /// The layer's `position`, as the geometry reads it.
    public var position: CGPoint
    /// The layer's `zPosition`, as the geometry reads it.
    public var zPosition: CGFloat
    /// The layer's `anchorPoint`, as the geometry reads it.
    public var anchorPoint: CGPoint
    /// The layer's `anchorPointZ`, as the geometry reads it.
    public var anchorPointZ: CGFloat
    /// The layer's `transform`, as the geometry reads it.
    public var transform: CATransform3D
    /// The layer's `sublayerTransform`, as the geometry reads it.
    public var sublayerTransform: CATransform3D
    /// The layer's `isGeometryFlipped`, as the geometry reads it.
    public var isGeometryFlipped: Bool

    /// A geometry with Core Animation's defaults unless given.
    public init(
        bounds: CGRect = .zero,
        position: CGPoint = .zero,
        zPosition: CGFloat = 0,
        anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5),
        anchorPointZ: CGFloat = 0,
        transform: CATransform3D = .identity,
        sublayerTransform: CATransform3D = .identity,
        isGeometryFlipped: Bool = false
    ) {
        self.bounds = bounds
        self.position = position
        self.zPosition = zPosition
        self.anchorPoint = anchorPoint
        self.anchorPointZ = anchorPointZ
        self.transform = transform
        self.sublayerTransform = sublayerTransform
        self.isGeometryFlipped = isGeometryFlipped
    }

    /// The anchor point in own-space coordinates.
    public var anchorInBounds: CGPoint { Self.anchor(anchorPoint, in: bounds) }

    /// The point `anchorPoint` (unit coordinates) names in `bounds`.
    static func anchor(_ anchorPoint: CGPoint, in bounds: CGRect) -> CGPoint {
        CGPoint(
            x: bounds.minX + anchorPoint.x * bounds.width,
            y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// Own space to the superlayer's sublayer space:
    /// `T(-anchor, -anchorPointZ) * transform * T(position, zPosition)`.
    public var placementTransform: CATransform3D {
        Self.placementTransform(bounds: bounds, position: position, zPosition: zPosition,
                                anchorPoint: anchorPoint, anchorPointZ: anchorPointZ, transform: transform)
    }

    /// `placementTransform` of a geometry with these values (the sublayer
    /// transform and the flip play no part in it).
    public static func placementTransform(
        bounds: CGRect, position: CGPoint, zPosition: CGFloat, anchorPoint: CGPoint, anchorPointZ: CGFloat,
        transform: CATransform3D
    ) -> CATransform3D {
        let a = anchor(anchorPoint, in: bounds)
        if transform.isIdentity {
            return CATransform3D(translationX: position.x - a.x, y: position.y - a.y, z: zPosition - anchorPointZ)
        }
        // The two products written out: a translation before the transform
        // only changes its last row, one after only adds w times it to each
        // row's x, y and z. The general products' terms left out are
        // multiplications by 0 and 1; every layer of every frame is placed.
        let (ax, ay, az) = (-a.x, -a.y, -anchorPointZ)
        let (px, py, pz) = (position.x, position.y, zPosition)
        var m = transform
        m.m41 = ax * m.m11 + ay * m.m21 + az * m.m31 + m.m41
        m.m42 = ax * m.m12 + ay * m.m22 + az * m.m32 + m.m42
        m.m43 = ax * m.m13 + ay * m.m23 + az * m.m33 + m.m43
        m.m44 = ax * m.m14 + ay * m.m24 + az * m.m34 + m.m44
        m.m11 += m.m14 * px; m.m12 += m.m14 * py; m.m13 += m.m14 * pz
        m.m21 += m.m24 * px; m.m22 += m.m24 * py; m.m23 += m.m24 * pz
        m.m31 += m.m34 * px; m.m32 += m.m34 * py; m.m33 += m.m34 * pz
        m.m41 += m.m44 * px; m.m42 += m.m44 * py; m.m43 += m.m44 * pz
        return m
    }

    /// Sublayer space to own space: the flip of `isGeometryFlipped` (about
    /// the bounds' horizontal middle line), then `sublayerTransform` about the
    /// anchor point (x, y and `anchorPointZ`).
    public var sublayerSpaceTransform: CATransform3D {
        Self.sublayerSpaceTransform(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                    sublayerTransform: sublayerTransform, isGeometryFlipped: isGeometryFlipped)
    }

    /// `sublayerSpaceTransform` of a geometry with these values (its
    /// position, z position and transform play no part in it).
    public static func sublayerSpaceTransform(
        bounds: CGRect, anchorPoint: CGPoint, anchorPointZ: CGFloat, sublayerTransform: CATransform3D, isGeometryFlipped: Bool
    ) -> CATransform3D {
        var m = CATransform3D.identity
        if isGeometryFlipped {
            m.m22 = -1
            m.m42 = bounds.minY + bounds.maxY
        }
        if !sublayerTransform.isIdentity {
            let a = anchor(anchorPoint, in: bounds)
            m = m.concatenating(CATransform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ))
                .concatenating(sublayerTransform)
                .concatenating(CATransform3D(translationX: a.x, y: a.y, z: anchorPointZ))
        }
        return m
    }

    /// The transform from `child`'s own space to its superlayer's own space
    /// (before the superlayer flattens): `child.placementTransform`, followed
    /// by `parent.sublayerSpaceTransform` unless `child` is the parent's mask
    /// or has no parent.
    public static func transformToSuperlayer(
        of child: LayerGeometry, in parent: LayerGeometry?, isMask: Bool = false
    ) -> CATransform3D {
        placed(child.placementTransform, in: sublayerSpace(of: parent, isMask: isMask))
    }

    /// What `transformToSuperlayer(of:in:isMask:)` applies after a child's
    /// placement: `parent.sublayerSpaceTransform`; nil where it adds
    /// nothing (no parent, a mask, a sublayer space that is the bounds'
    /// own). The same for every sublayer of a parent: a renderer placing
    /// many works it out once.
    public static func sublayerSpace(of parent: LayerGeometry?, isMask: Bool = false) -> CATransform3D? {
        guard let parent, !isMask else { return nil }
        return sublayerSpace(bounds: parent.bounds, anchorPoint: parent.anchorPoint, anchorPointZ: parent.anchorPointZ,
                             sublayerTransform: parent.sublayerTransform, isGeometryFlipped: parent.isGeometryFlipped)
    }

    /// The sublayer space of a geometry with these values, nil where it is
    /// the bounds' own (no flip, no sublayer transform: most layers).
    public static func sublayerSpace(
        bounds: CGRect, anchorPoint: CGPoint, anchorPointZ: CGFloat, sublayerTransform: CATransform3D, isGeometryFlipped: Bool
    ) -> CATransform3D? {
        guard isGeometryFlipped || !sublayerTransform.isIdentity else { return nil }
        let space = sublayerSpaceTransform(bounds: bounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                           sublayerTransform: sublayerTransform, isGeometryFlipped: isGeometryFlipped)
        return space.isIdentity ? nil : space
    }

    /// A child's `placement` taken into a parent's `sublayerSpace` (nil:
    /// the placement alone).
    public static func placed(_ placement: CATransform3D, in sublayerSpace: CATransform3D?) -> CATransform3D {
        guard let sublayerSpace else { return placement }
        return placement.concatenating(sublayerSpace)
    }

    // MARK: - Frame

    /// The frame as Core Animation computes it: the bounding box, in the
    /// superlayer's sublayer space, of the bounds' four corners mapped by
    /// `placementTransform` and projected (divided by w) when the transform
    /// has perspective. When a corner lands at or behind the eye (w <= 0),
    /// the projected layer is unbounded and the frame is `CGRect.infinite`.
    public var frame: CGRect {
        let size = bounds.size
        let origin = CGPoint(x: -anchorPoint.x * size.width, y: -anchorPoint.y * size.height)
        if transform.isIdentity {
            return CGRect(x: position.x + origin.x, y: position.y + origin.y, width: size.width, height: size.height)
        }
        if transform.isAffine {
            return CGRect(origin: origin, size: size)
                .applying(transform.affineTransform)
                .offsetBy(dx: position.x, dy: position.y)
        }
        let corners = [
            (origin.x, origin.y), (origin.x + size.width, origin.y),
            (origin.x, origin.y + size.height), (origin.x + size.width, origin.y + size.height),
        ]
        var minX = CGFloat.infinity, minY = CGFloat.infinity
        var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for (x, y) in corners {
            let h = transform.apply(x: x, y: y, z: -anchorPointZ)
            guard h.w > 0 else { return .infinite }
            let p = h.projected
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return CGRect(x: minX + position.x, y: minY + position.y, width: maxX - minX, height: maxY - minY)
    }

    /// Sets `position` and `bounds.size` so that the layer covers `frame`,
    /// as `CALayer.frame`'s setter does; `bounds.origin` is kept.
    ///
    /// With an identity transform, `bounds.size = frame.size` and the anchor
    /// point lands at its place in `frame`. Otherwise the transform's 2D
    /// affine part defines the result (perspective and z are ignored, as
    /// Core Animation leaves the frame of such layers undefined):
    /// `bounds.size` is the size of the bounding box of `frame` mapped back by
    /// the inverse of the linear part, and `position` puts the transformed
    /// bounds' centre at `frame`'s centre. For scales and translations the
    /// getter then returns `frame` again; for rotations it returns the
    /// (larger) bounding box of the rotated bounds. When the linear part is
    /// singular the transform is ignored, as if it were the identity.
    public mutating func setFrame(_ frame: CGRect) {
        let f = frame.standardized
        var linear = transform.affineTransform
        let translation = CGPoint(x: linear.tx, y: linear.ty)
        linear.tx = 0; linear.ty = 0
        let det = linear.determinant
        guard !transform.isIdentity, det != 0, det.isFinite else {
            bounds.size = f.size
            position = CGPoint(x: f.minX + anchorPoint.x * f.width, y: f.minY + anchorPoint.y * f.height)
            return
        }
        let size = CGRect(origin: .zero, size: f.size).applying(linear.inverted()).size
        bounds.size = size
        let centreOffset = CGSize(
            width: (0.5 - anchorPoint.x) * size.width,
            height: (0.5 - anchorPoint.y) * size.height
        ).applying(linear)
        position = CGPoint(
            x: f.midX - translation.x - centreOffset.width,
            y: f.midY - translation.y - centreOffset.height)
    }
}

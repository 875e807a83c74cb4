import Foundation

/// How texels are read between their centres.
///
/// A layer asks for one of Core Animation's filters by name for when its
/// picture is magnified and one for when it is minified (`layerFilters`);
/// the planner picks the read each draw gets (`magnifying`):
/// - `nearest`: the texel a point falls in.
/// - `linear`: a weighted mean of the four nearest texel centres, weights
///   falling linearly with distance (bilinear).
/// - `trilinear`: that mean on the two mipmap levels nearest a pixel's
///   footprint, mixed; magnifying, it reads as `linear` does.
/// - `smoothLinear`: the same four texel centres, each axis's weight eased by
///   smoothstep, 3t² − 2t³ (a cubic Hermite kernel one texel wide). This is
///   how Core Animation magnifies a picture whose filter is `linear`: fitted
///   to Apple's own snapshots of pictures drawn 1.24x and 2x, it leaves a
///   third as many pixels off as bilinear does, and sharper edges. Only the
///   planner chooses it.
package enum TextureFilter: String, Hashable, Sendable, CaseIterable {
    case linear, nearest, trilinear, smoothLinear

    /// The filters a layer may ask for, by Core Animation's names
    /// (`kCAFilterLinear`, `kCAFilterNearest`, `kCAFilterTrilinear`).
    package static let layerFilters: [TextureFilter] = [.linear, .nearest, .trilinear]

    /// The filter a layer's `minificationFilter` or `magnificationFilter`
    /// names; nil for any other string, `smoothLinear` included.
    package init?(layerFilterNamed name: String) {
        guard let filter = TextureFilter(rawValue: name), Self.layerFilters.contains(filter) else { return nil }
        self = filter
    }

    /// The read for a picture this filter magnifies: `nearest` stays
    /// nearest, the others ease between texels (`smoothLinear`).
    package var magnifying: TextureFilter { self == .nearest ? .nearest : .smoothLinear }
}

import Foundation

/// How texels are read between their centres: `nearest` the texel a point
/// falls in, `linear` a weighted mean of the four nearest texel centres,
/// `trilinear` that mean on the two mipmap levels nearest a pixel's
/// footprint, mixed (Core Animation's filters of the same names).
package enum TextureFilter: String, Hashable, Sendable, CaseIterable {
    case linear, nearest, trilinear
}

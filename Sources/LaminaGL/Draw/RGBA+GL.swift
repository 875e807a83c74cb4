import LaminaRaster
import LaminaRender

// The plan's colour (`RGBA`, straight components) as GL's uniforms take it:
// premultiplied floats, as every LaminaGL picture is stored.
extension RGBA {
    /// `(r·a, g·a, b·a, a)` as floats, each scaled by `opacity`.
    func premultipliedFloats(times opacity: Float = 1) -> SIMD4<Float> {
        let (r, g, b, a) = premultiplied
        return SIMD4(Float(r), Float(g), Float(b), Float(a)) * opacity
    }

    /// Throws unless every component is a finite number in 0...1.
    func validate(_ what: String) throws {
        for value in [red, green, blue, alpha] where !(value.isFinite && (0...1).contains(value)) {
            throw GLError.invalidArgument("\(what) has a component \(value) outside 0...1")
        }
    }
}

/// A premultiplied RGBA colour, components 0...1 (red, green and blue already
/// multiplied by alpha, as every LaminaGL picture is stored).
struct GLColor: Sendable, Hashable {
    var red: Float
    var green: Float
    var blue: Float
    var alpha: Float

    /// A colour from premultiplied components.
    init(red: Float, green: Float, blue: Float, alpha: Float) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from straight (not premultiplied) components.
    init(straightRed red: Float, green: Float, blue: Float, alpha: Float) {
        self.init(red: red * alpha, green: green * alpha, blue: blue * alpha, alpha: alpha)
    }

    /// Transparent black.
    static let clear = GLColor(red: 0, green: 0, blue: 0, alpha: 0)
    static let black = GLColor(red: 0, green: 0, blue: 0, alpha: 1)
    static let white = GLColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// The colour with every component scaled by `opacity` (premultiplied
    /// colours fade by scaling all four).
    func scaled(by opacity: Float) -> GLColor {
        GLColor(red: red * opacity, green: green * opacity, blue: blue * opacity, alpha: alpha * opacity)
    }

    /// Throws unless every component is a finite number in 0...1.
    func validate(_ what: String) throws {
        for value in [red, green, blue, alpha] where !(value.isFinite && (0...1).contains(value)) {
            throw GLError.invalidArgument("\(what) has a component \(value) outside 0...1")
        }
    }
}

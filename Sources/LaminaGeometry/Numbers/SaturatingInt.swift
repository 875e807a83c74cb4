extension Int {
    /// `value` rounded toward zero and clamped to Int's range; NaN is 0.
    /// For sizes and counts computed from a scene's numbers, where `Int()`
    /// would trap on a huge or non-finite value.
    public init(saturating value: Double) {
        if value.isNaN { self = 0 }
        else if value >= 9.2e18 { self = .max }
        else if value <= -9.2e18 { self = .min }
        else { self = Int(value) }
    }
}

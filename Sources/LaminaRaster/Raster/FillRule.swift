/// Which points a self-overlapping outline covers.
package enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is not zero (CoreGraphics `.winding`,
    /// `kCAFillRuleNonZero`).
    case nonZero
    /// Inside where the winding number is odd (`kCAFillRuleEvenOdd`).
    case evenOdd
}

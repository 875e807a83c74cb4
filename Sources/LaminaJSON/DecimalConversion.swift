/// Decimal numbers to doubles, correctly rounded, without the C library's
/// `strtod` for the numbers scenes are full of.
///
/// Clinger's fast path covers integers of up to 2^53 scaled by a power of
/// ten up to 10^22: both are exact doubles, so one division or multiplication,
/// rounded once, is the correctly rounded value. Generated scenes write
/// coordinates with 16 or 17 significant digits (the shortest text that
/// reads back to the same double), whose integers pass 2^53; for them a
/// guess from floating-point arithmetic (within an ulp of the value) and its
/// two neighbours are checked exactly, in 128-bit integers, against the
/// halfway points around each, and the one the value rounds to is returned.
/// glibc's `strtod` takes a multi-precision path for those, about 2 µs each.
package enum DecimalConversion {
    /// The double nearest `digits` · 10^`scale` (ties to even), or nil when
    /// neither method applies (the caller then uses `strtod`). `digits` holds
    /// at most 19 decimal digits.
    package static func double(digits: UInt64, scale: Int) -> Double? {
        if digits <= 1 << 53, abs(scale) <= 22 {
            let power = powersOfTen[abs(scale)]
            return scale < 0 ? Double(digits) / power : Double(digits) * power
        }
        guard scale < 0, scale >= -19 else { return nil }
        let k = -scale
        let guess = Double(digits) / powersOfTen[k]
        for candidate in [guess, guess.nextDown, guess.nextUp] where isNearest(candidate, to: digits, over: integerPowersOfTen[k]) {
            return candidate
        }
        return nil
    }

    /// 10^0 ... 10^22, every one exact in a double.
    package static let powersOfTen: [Double] = (0...22).map { n in (0..<n).reduce(1.0) { value, _ in value * 10 } }
    private static let integerPowersOfTen: [UInt64] = (0...19).map { n in (0..<n).reduce(1) { value, _ in value * 10 } }

    /// Whether `c` is the double nearest `w / p` (ties to even), checked in
    /// exact integers; false too when the check would not fit in 128 bits.
    private static func isNearest(_ c: Double, to w: UInt64, over p: UInt64) -> Bool {
        guard c.isNormal, c > 0 else { return false }
        // c = m · 2^e, and the halfway points to its neighbours are
        // c + 2^(e-1) above and c - 2^(e-1) below (c - 2^(e-2) when m is a
        // power of two: the double below has half the spacing). Times
        // 4 · p · 2^-e, to compare in integers: w·2^(2-e) against
        // (4m ± 2)·p, or (4m - 1)·p below a power of two.
        let m = (UInt64(1) << 52) | c.significandBitPattern
        let e = Int(c.exponent) - 52
        let below = m == 1 << 52 ? 4 * m - 1 : 4 * m - 2
        let shiftValue = max(0, 2 - e), shiftBounds = max(0, e - 2)
        guard let value = UInt128Parts(w).shiftedLeft(by: shiftValue),
              let low = UInt128Parts.product(below, p).shiftedLeft(by: shiftBounds),
              let high = UInt128Parts.product(4 * m + 2, p).shiftedLeft(by: shiftBounds)
        else { return false }
        if low < value && value < high { return true }
        return (value == low || value == high) && m % 2 == 0
    }
}

/// An unsigned 128-bit integer as two words: what the exact check needs
/// (products of two words, shifts that must not overflow, comparisons).
private struct UInt128Parts: Comparable {
    package var high: UInt64
    package var low: UInt64

    package init(_ value: UInt64) { (high, low) = (0, value) }
    package init(high: UInt64, low: UInt64) { (self.high, self.low) = (high, low) }

    package static func product(_ a: UInt64, _ b: UInt64) -> UInt128Parts {
        let (high, low) = a.multipliedFullWidth(by: b)
        return UInt128Parts(high: high, low: low)
    }

    /// Self · 2^n, or nil when it does not fit.
    package func shiftedLeft(by n: Int) -> UInt128Parts? {
        if n == 0 { return self }
        let leadingZeros = high != 0 ? high.leadingZeroBitCount : 64 + low.leadingZeroBitCount
        guard n < 128, n <= leadingZeros else { return nil }
        if n >= 64 { return UInt128Parts(high: low << (n - 64), low: 0) }
        return UInt128Parts(high: high << n | low >> (64 - n), low: low << n)
    }

    package static func < (a: UInt128Parts, b: UInt128Parts) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

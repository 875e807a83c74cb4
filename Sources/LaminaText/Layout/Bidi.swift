/// Directions of text within a paragraph: a simplified Unicode
/// Bidirectional Algorithm (UAX #9).
///
/// What it does:
/// - the paragraph's direction is that of its first strong character (P2,
///   P3): right-to-left for Hebrew, Arabic and the other right-to-left
///   scripts, left-to-right for other letters, left-to-right when there is
///   none;
/// - combining marks take the class of the character before them (W1);
/// - digits after left-to-right text count as left-to-right (W7), other
///   digits form left-to-right numbers inside right-to-left text (I1, I2);
/// - neutrals (spaces, punctuation, symbols) between two strong characters
///   of one direction take it, others take the paragraph's (N1, N2);
/// - each line's runs are reordered by level, highest first (L2).
///
/// What it leaves out: explicit embeddings, overrides and isolates (the
/// formatting characters U+202A–U+202E and U+2066–U+2069 are neutrals), the
/// separator and terminator rules for numbers (W2–W6), and mirroring, which
/// HarfBuzz applies when it shapes a right-to-left run.
enum Bidi {
    enum Class: Equatable { case leftToRight, rightToLeft, number, mark, neutral }

    /// The class of one scalar.
    static func `class`(of scalar: Unicode.Scalar) -> Class {
        switch scalar.value {
        case 0x200E: return .leftToRight  // LEFT-TO-RIGHT MARK
        case 0x200F, 0x061C: return .rightToLeft  // RIGHT-TO-LEFT MARK, ARABIC LETTER MARK
        default: break
        }
        let category = scalar.properties.generalCategory
        switch category {
        case .nonspacingMark, .enclosingMark, .format: return .mark
        case .decimalNumber: return .number
        default: break
        }
        if isRightToLeftBlock(scalar.value) { return .rightToLeft }
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark,
             .letterNumber:
            return .leftToRight
        default:
            return .neutral
        }
    }

    /// Blocks whose letters and punctuation are strong right-to-left:
    /// Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, the Hebrew
    /// and Arabic presentation forms, and the right-to-left planes of the
    /// supplementary multilingual plane.
    private static func isRightToLeftBlock(_ v: UInt32) -> Bool {
        (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
    }

    /// The embedding level of each scalar of a paragraph, and the
    /// paragraph's level (0 left-to-right, 1 right-to-left).
    static func levels(of scalars: some Collection<Unicode.Scalar>) -> (paragraph: UInt8, levels: [UInt8]) {
        var classes = scalars.map(`class`)
        let firstStrong = classes.first { $0 == .leftToRight || $0 == .rightToLeft }
        let base: UInt8 = firstStrong == .rightToLeft ? 1 : 0
        let baseClass: Class = base == 1 ? .rightToLeft : .leftToRight

        // W1: marks take the class before them (the paragraph's at the start).
        var previous = baseClass
        for i in classes.indices {
            if classes[i] == .mark { classes[i] = previous } else { previous = classes[i] }
        }
        // W7: numbers after left-to-right text (or at the start of a
        // left-to-right paragraph) are left-to-right.
        var lastStrong = baseClass
        for i in classes.indices {
            switch classes[i] {
            case .leftToRight, .rightToLeft: lastStrong = classes[i]
            case .number where lastStrong == .leftToRight: classes[i] = .leftToRight
            default: break
            }
        }
        // N1, N2: neutrals between equal directions take them (numbers count
        // as right-to-left), others the paragraph's.
        func direction(_ c: Class) -> Class? {
            switch c {
            case .leftToRight: .leftToRight
            case .rightToLeft, .number: .rightToLeft
            default: nil
            }
        }
        var i = 0
        while i < classes.count {
            guard classes[i] == .neutral else { i += 1; continue }
            var end = i
            while end < classes.count, classes[end] == .neutral { end += 1 }
            let before = i > 0 ? direction(classes[i - 1]) ?? baseClass : baseClass
            let after = end < classes.count ? direction(classes[end]) ?? baseClass : baseClass
            let resolved = before == after ? before : baseClass
            for k in i..<end { classes[k] = resolved }
            i = end
        }
        // I1, I2.
        let levels: [UInt8] = classes.map { c in
            switch (base, c) {
            case (0, .rightToLeft): 1
            case (0, .number): 2
            case (0, _): 0
            case (_, .rightToLeft): 1
            default: 2
            }
        }
        return (base, levels)
    }

    /// The visual order of runs with the given levels, left to right, as
    /// indices into `levels` (L2: from the highest level down to the lowest
    /// odd one, reverse every stretch at that level or higher).
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowest = levels.min() else { return order }
        let lowestOdd = lowest | 1
        guard highest >= lowestOdd else { return order }
        for level in stride(from: highest, through: lowestOdd, by: -1) {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var end = i
                while end < order.count, levels[order[end]] >= level { end += 1 }
                order[i..<end].reverse()
                i = end
            }
        }
        return order
    }
}

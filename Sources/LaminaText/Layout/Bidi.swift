import CUnicodeText

/// Directions of text within a paragraph: Unicode's Bidirectional Algorithm
/// (UAX #9), whole, through GNU FriBidi: explicit embeddings, overrides
/// and isolates, numbers with their separators and terminators, paired
/// brackets, and the paragraph's direction from its first strong character
/// (left-to-right when there is none). Tested against Unicode's
/// BidiCharacterTest.txt. Mirroring is HarfBuzz's, when it shapes a
/// right-to-left run; the order of a line's runs is `visualOrder` (L2).
enum Bidi {
    /// A paragraph's direction: from its first strong character (rules P2
    /// and P3; what a text layer does), or given.
    enum Direction: Int32 { case leftToRight = 0, rightToLeft = 1, auto = 2 }

    /// The embedding level of each scalar of a paragraph (rule L1 applied
    /// as for one line: whitespace at the end and before tabs takes the
    /// paragraph's level), and the paragraph's level (0 left-to-right, 1
    /// right-to-left).
    static func levels(of scalars: some Collection<Unicode.Scalar>, direction: Direction = .auto) -> (paragraph: UInt8, levels: [UInt8]) {
        let text = scalars.map(\.value)
        guard !text.isEmpty else { return (0, []) }
        var levels = [UInt8](repeating: 0, count: text.count)
        let paragraph = text.withUnsafeBufferPointer { text in
            levels.withUnsafeMutableBufferPointer { levels in
                lamina_bidi_levels(text.baseAddress, Int32(text.count), direction.rawValue, levels.baseAddress)
            }
        }
        // FriBidi fails only without memory; then everything is left-to-right.
        guard paragraph >= 0 else { return (0, [UInt8](repeating: 0, count: text.count)) }
        return (UInt8(paragraph), levels)
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

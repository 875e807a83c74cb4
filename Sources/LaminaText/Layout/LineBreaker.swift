/// Where the lines of a wrapped paragraph end: greedily, as many words as
/// fit the width on each line.
///
/// Lines break after spaces (which hang past the width and are not drawn),
/// after hyphens and dashes inside a word, and before and after ideographs.
/// A word wider than the whole line is broken between grapheme clusters,
/// as many as fit (at least one per line, so a narrow layer still shows
/// every character).
enum LineBreaker {
    /// Paragraph-relative ranges of the lines, in order, covering the
    /// paragraph (one empty line for an empty paragraph).
    static func lines(of paragraph: Paragraph, width: Double) -> [Range<Int>] {
        let n = paragraph.count
        guard n > 0 else { return [0..<0] }
        let opportunities = breakOpportunities(paragraph)
        // Widths are sums of doubles; a line that fits exactly must not
        // wrap because of rounding.
        let limit = width + 1e-6
        var lines: [Range<Int>] = []
        var start = 0
        var next = 0  // index into opportunities
        while start < n {
            while next < opportunities.count, opportunities[next] <= start { next += 1 }
            var end: Int?
            var k = next
            while k < opportunities.count {
                let candidate = opportunities[k]
                guard paragraph.width(paragraph.trimmingTrailingSpaces(start..<candidate)) <= limit else { break }
                end = candidate
                k += 1
            }
            let lineEnd = end ?? splitWord(paragraph, from: start, before: opportunities[next], limit: limit)
            lines.append(start..<lineEnd)
            start = lineEnd
        }
        return lines
    }

    /// Positions where a line may end (1...count, always including count),
    /// ascending.
    static func breakOpportunities(_ p: Paragraph) -> [Int] {
        let s = p.scalars
        var result: [Int] = []
        for i in 1..<s.count where p.isClusterStart[i] {
            let before = s[i - 1], after = s[i]
            if after.isBreakingSpace { continue }
            if before.isBreakingSpace || before.isIdeographic || after.isIdeographic {
                result.append(i)
            } else if before.isBreakingHyphen, i >= 2, !s[i - 2].isBreakingSpace {
                result.append(i)
            }
        }
        result.append(s.count)
        return result
    }

    /// The end of the longest run of clusters from `start` (before `stop`)
    /// that fits; at least one cluster.
    private static func splitWord(_ p: Paragraph, from start: Int, before stop: Int, limit: Double) -> Int {
        var end = start + 1
        while end < stop, !p.isClusterStart[end] { end += 1 }
        var candidate = end + 1
        while candidate <= stop {
            if p.isClusterStart[candidate] {
                guard p.width(start..<candidate) <= limit else { break }
                end = candidate
            }
            candidate += 1
        }
        return end
    }
}

extension Unicode.Scalar {
    /// Hyphens and dashes after which a word may break.
    var isBreakingHyphen: Bool {
        switch value {
        case 0x2D, 0x2010, 0x2012, 0x2013, 0x2014: true
        default: false
        }
    }

    /// CJK ideographs, kana and fullwidth forms: lines may break between
    /// any two.
    var isIdeographic: Bool {
        switch value {
        case 0x2E80...0x2FFF, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60,
             0x20000...0x3FFFF:
            true
        default: false
        }
    }
}

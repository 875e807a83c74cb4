import CUnicodeText
import Synchronization

/// Where the lines of a wrapped paragraph end: greedily, as many words as
/// fit the width on each line.
///
/// Lines may break where Unicode's line breaking algorithm (UAX #14, ICU's
/// root-locale rules; tested against Unicode's LineBreakTest.txt) allows:
/// after spaces (which hang past the width and are not drawn), after
/// hyphens and dashes, between ideographs but not before closing
/// punctuation, never inside a grapheme cluster; and must break after a
/// vertical tab or form feed. Small kana and "ー" (class CJ) may start a
/// line, as with CSS's `line-break: normal`, which browsers and Apple's
/// text system use (UAX #14's default, `Style.strict`, forbids it; tested
/// against headless Chromium's lines). A word wider than the whole
/// line is broken between grapheme clusters, as many as fit (at least one
/// per line, so a narrow layer still shows every character).
enum LineBreaker {
    /// Paragraph-relative ranges of the lines, in order, covering the
    /// paragraph (one empty line for an empty paragraph).
    static func lines(of paragraph: Paragraph, width: Double) -> [Range<Int>] {
        let n = paragraph.count
        guard n > 0 else { return [0..<0] }
        let (opportunities, mandatory) = breakOpportunities(paragraph)
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
                if mandatory.contains(candidate) { break }
            }
            let lineEnd = end ?? splitWord(paragraph, from: start, before: opportunities[next], limit: limit)
            lines.append(start..<lineEnd)
            start = lineEnd
        }
        return lines
    }

    /// Positions where a line may end (1...count, always including count),
    /// ascending, and those where it must.
    static func breakOpportunities(_ p: Paragraph) -> (allowed: [Int], mandatory: Set<Int>) {
        let breaks = unicodeBreaks(p.scalars)
        var allowed: [Int] = [], mandatory: Set<Int> = []
        for i in 1..<p.count where breaks[i] != 0 && p.isClusterStart[i] {
            allowed.append(i)
            if breaks[i] == 2 { mandatory.insert(i) }
        }
        allowed.append(p.count)
        return (allowed, mandatory)
    }

    /// Which of UAX #14's treatments of conditional Japanese starters (CJ).
    enum Style: Int32 {
        /// UAX #14's default: CJ as non-starters (what LineBreakTest.txt tests).
        case strict = 0
        /// CJ as ideographs: CSS's `line-break: normal`; what layout uses.
        case normal = 1
    }

    /// For each scalar offset 0...count: 1 where UAX #14 allows a break
    /// before it, 2 where it requires one, 0 elsewhere.
    static func unicodeBreaks(_ scalars: [Unicode.Scalar], style: Style = .normal) -> [UInt8] {
        var utf16: [UInt16] = []
        utf16.reserveCapacity(scalars.count)
        var scalarAt: [Int32] = []  // UTF-16 offset → scalar offset (-1 inside a pair)
        scalarAt.reserveCapacity(scalars.count + 1)
        for (i, scalar) in scalars.enumerated() {
            let units = UTF16.encode(scalar)!
            scalarAt.append(Int32(i))
            if units.count == 2 { scalarAt.append(-1) }
            utf16.append(contentsOf: units)
        }
        scalarAt.append(Int32(scalars.count))
        var unitBreaks = [UInt8](repeating: 0, count: utf16.count + 1)
        let status = Breakers.shared(style).with { breaker in
            utf16.withUnsafeBufferPointer { text in
                unitBreaks.withUnsafeMutableBufferPointer { out in
                    lamina_line_breaks(breaker, text.baseAddress, Int32(text.count), out.baseAddress)
                }
            }
        }
        var breaks = [UInt8](repeating: 0, count: scalars.count + 1)
        if status == 0 {
            for (unit, scalar) in scalarAt.enumerated() where scalar >= 0 { breaks[Int(scalar)] = unitBreaks[unit] }
        }
        return breaks
    }

    /// ICU line-break iterators: making one loads ICU's rules (slow), and
    /// one may serve only one thread at a time, so each layout borrows one.
    private final class Breakers: Sendable {
        private static let strict = Breakers(.strict), normal = Breakers(.normal)
        static func shared(_ style: Style) -> Breakers { style == .strict ? strict : normal }
        private let style: Style
        private init(_ style: Style) { self.style = style }
        /// An idle iterator; used by one thread at a time.
        private struct Breaker: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }
        private let idle = Mutex<[Breaker]>([])

        /// Runs `body` with an iterator (-1 if ICU cannot make one: then no
        /// break is allowed but the paragraph's end).
        func with(_ body: (UnsafeMutableRawPointer) -> Int32) -> Int32 {
            guard let breaker = idle.withLock({ $0.popLast() }) ?? lamina_line_breaker_open(style.rawValue).map(Breaker.init) else { return -1 }
            defer { idle.withLock { $0.append(breaker) } }
            return body(breaker.pointer)
        }
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

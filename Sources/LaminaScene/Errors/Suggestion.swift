import LaminaJSON
/// "Did you mean ...?" for unknown keys and names.
enum Suggestion {
    /// The candidate nearest to `word` by edit distance (a change of letter
    /// case counts as half a mistake), if it is near enough to be a
    /// plausible typo: at most a third of the word's length in mistakes, at
    /// least 1, at most 3.
    /// Failing that, a candidate that starts with the word (`top` for
    /// `topLeft`), if the word has at least 3 characters.
    static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(1, min(3, word.count / 3))
        var best: (name: String, distance: Int)?
        var completion: String?
        let lowered = word.lowercased()
        for candidate in candidates {
            let d = distance(word, candidate)
            if d <= limit * 2, d < (best?.distance ?? Int.max) {
                best = (candidate, d)
            }
            if completion == nil, word.count >= 3, candidate.lowercased().hasPrefix(lowered) {
                completion = candidate
            }
        }
        return best?.name ?? completion
    }

    /// `" (did you mean 'cornerRadius'?)"`, or `""` when nothing is near.
    /// Values (as opposed to keys) are quoted as JSON strings:
    /// `" (did you mean "round"?)"`.
    static func didYouMean(_ word: String, in candidates: some Sequence<String>, asValue: Bool = false) -> String {
        nearest(to: word, in: candidates).map {
            " (did you mean \(asValue ? JSONWriter.quoted($0) : "'\($0)'")?)"
        } ?? ""
    }

    /// Damerau-Levenshtein (optimal string alignment) distance, in half
    /// steps: an edit costs 2, and a change of letter case only costs 1, so
    /// that `cornerradius` is nearer to `cornerRadius` than to anything else.
    /// Words are short (keys and names), so the quadratic table is cheap; to
    /// stay cheap on hostile input, long words are compared by their first
    /// 64 characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars.prefix(64)), y = Array(b.unicodeScalars.prefix(64))
        if x.isEmpty { return 2 * y.count }
        if y.isEmpty { return 2 * x.count }
        func cost(_ p: Unicode.Scalar, _ q: Unicode.Scalar) -> Int {
            if p == q { return 0 }
            return p.properties.lowercaseMapping == q.properties.lowercaseMapping ? 1 : 2
        }
        let width = y.count + 1
        var d = [Int](repeating: 0, count: (x.count + 1) * width)
        for j in 0...y.count { d[j] = 2 * j }
        for i in 1...x.count {
            d[i * width] = 2 * i
            for j in 1...y.count {
                var v = min(d[(i - 1) * width + j] + 2, d[i * width + j - 1] + 2,
                            d[(i - 1) * width + j - 1] + cost(x[i - 1], y[j - 1]))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    v = min(v, d[(i - 2) * width + j - 2] + 2)
                }
                d[i * width + j] = v
            }
        }
        return d[x.count * width + y.count]
    }
}

/// Rows of a picture, as ascending runs that neither overlap nor touch:
/// the part of a frame redrawn when only some of it changed since the
/// frame before (`PlanDamage`).
///
/// ```swift
/// var spans = RowSpans()
/// spans.insert(10..<20)
/// spans.insert(15..<30)      // 10..<30
/// spans.insert(40..<41)      // 10..<30, 40..<41
/// spans.overlaps(25..<35)    // true
/// ```
package struct RowSpans: Equatable, Sendable, Sequence {
    /// The runs, ascending, each non-empty, with rows between any two.
    package private(set) var runs: [Range<Int>] = []

    /// No rows.
    package init() {}

    /// The rows of `runs`, in any order, overlapping or not.
    package init(_ runs: some Sequence<Range<Int>>) {
        for run in runs { insert(run) }
    }

    /// Whether there are no rows.
    package var isEmpty: Bool { runs.isEmpty }

    /// How many rows.
    package var rowCount: Int { runs.reduce(0) { $0 + $1.count } }

    /// Adds the rows of `run`, joining the runs it overlaps or touches.
    package mutating func insert(_ run: Range<Int>) {
        guard !run.isEmpty else { return }
        // The first run that ends at or after the new one's start, and the
        // first that starts after its end: those between are joined to it.
        var first = runs.endIndex
        for (i, r) in runs.enumerated() where r.upperBound >= run.lowerBound { first = i; break }
        var last = first
        while last < runs.endIndex, runs[last].lowerBound <= run.upperBound { last += 1 }
        guard first < last else { return runs.insert(run, at: first) }
        let joined = Swift.min(run.lowerBound, runs[first].lowerBound)..<Swift.max(run.upperBound, runs[last - 1].upperBound)
        runs.replaceSubrange(first..<last, with: CollectionOfOne(joined))
    }

    /// Whether any row of `rows` is one of these.
    package func overlaps(_ rows: Range<Int>) -> Bool {
        runs.contains { $0.overlaps(rows) }
    }

    /// The runs joined where fewer than `gap` rows lie between two, so that
    /// a picture is not redrawn in many thin slices (each slice costs every
    /// draw across it a setting-up).
    package func bridging(gapsUnder gap: Int) -> RowSpans {
        var bridged = RowSpans()
        for run in runs {
            if let last = bridged.runs.last, run.lowerBound - last.upperBound < gap {
                bridged.runs[bridged.runs.count - 1] = last.lowerBound..<run.upperBound
            } else {
                bridged.runs.append(run)
            }
        }
        return bridged
    }

    package func makeIterator() -> IndexingIterator<[Range<Int>]> { runs.makeIterator() }
}

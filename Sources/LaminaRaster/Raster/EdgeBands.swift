/// The edges of a shape in mask coordinates, handed out band by band: each
/// band of rows gets exactly the edges that reach into it (an active edge
/// list), so per-band work follows the edges there, not all of them.
package struct EdgeBands {
    /// Edges translated to mask coordinates, sorted by the first band they touch.
    private var edges: [LineSegment] = []
    private var firstBand: [Int] = []
    private var lastBand: [Int] = []
    /// Working lists of `forEachBand`, kept with the rest for reuse.
    private var entries: [(first: Int, last: Int, edge: LineSegment)] = []
    private var active: [Int] = []
    /// Per band, where its edges start in `edges` (the counting sort's tally).
    private var starts: [Int] = []
    private var edgesOfBand: [LineSegment] = []
    package private(set) var height = 0
    package private(set) var bandRows = 1

    /// Empty lists, for `reset` to fill.
    package init() {}

    /// Keeps the edges of `segments` that can affect rows 0 ..< height once
    /// moved by (−left, −top); horizontal ones carry nothing and are dropped.
    /// Reuses this value's storage (the rasterizer keeps a few for draw
    /// after draw).
    package mutating func reset(_ segments: [LineSegment], left: Double, top: Double, height: Int, bandRows: Int) {
        self.height = height
        self.bandRows = max(1, bandRows)
        let h = Double(height)
        entries.removeAll(keepingCapacity: true)
        entries.reserveCapacity(segments.count)
        for s in segments where s.y0 != s.y1 {
            let e = LineSegment(x0: s.x0 - left, y0: s.y0 - top, x1: s.x1 - left, y1: s.y1 - top)
            let lo = min(e.y0, e.y1), hi = max(e.y0, e.y1)
            guard hi > 0, lo < h else { continue }
            // Clamped before converting, so these Int conversions are safe;
            // the bottom is above 0, so truncation is its floor, and the
            // ceiling one more where it is not whole (no call to ceil).
            let bottom = min(hi, h), whole = Int(bottom)
            let firstRow = Int(max(lo, 0)), lastRow = whole - (Double(whole) == bottom ? 1 : 0)
            entries.append((firstRow / self.bandRows, max(firstRow, lastRow) / self.bandRows, e))
        }
        // Sorted by first band, keeping the order of edges that share one
        // (the cells add up in the same order, to the last bit): a counting
        // sort into the kept lists, where a comparison sort made a scratch
        // list of its own on every draw. Written through pointers: a path
        // has hundreds of edges and is drawn every frame.
        let bands = (height + self.bandRows - 1) / self.bandRows
        starts.removeAll(keepingCapacity: true)
        starts.append(contentsOf: repeatElement(0, count: bands + 1))
        // Sized to the edges kept, every slot then written by the sort:
        // grown with placeholders, or cut, but not filled again each draw.
        let count = entries.count
        Self.resize(&edges, to: count, with: LineSegment(x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0))
        Self.resize(&firstBand, to: count, with: 0)
        Self.resize(&lastBand, to: count, with: 0)
        entries.withUnsafeBufferPointer { entries in
            starts.withUnsafeMutableBufferPointer { starts in
                for entry in entries { starts[entry.first + 1] += 1 }
                for band in 0..<bands { starts[band + 1] += starts[band] }
                edges.withUnsafeMutableBufferPointer { edges in
                    firstBand.withUnsafeMutableBufferPointer { firstBand in
                        lastBand.withUnsafeMutableBufferPointer { lastBand in
                            for entry in entries {
                                let slot = starts[entry.first]
                                starts[entry.first] = slot + 1
                                edges[slot] = entry.edge
                                firstBand[slot] = entry.first
                                lastBand[slot] = entry.last
                            }
                        }
                    }
                }
            }
        }
    }

    /// `list` with `count` elements: its first ones as they are, then `filler`.
    private static func resize<T>(_ list: inout [T], to count: Int, with filler: T) {
        if list.count > count {
            list.removeLast(list.count - count)
        } else if list.count < count {
            list.append(contentsOf: repeatElement(filler, count: count - list.count))
        }
    }

    /// Calls `body(bandTop, rows, edges)` for each band top to bottom.
    /// The active list keeps its order as edges leave it (a band's edges
    /// are summed in the order the sort gave them, to the last bit), and
    /// is walked through pointers: a curve flattened finely has hundreds of
    /// edges, each visited in every band it crosses.
    package mutating func forEachBand(_ body: (Int, Int, [LineSegment]) -> Void) {
        let count = edges.count
        active.removeAll(keepingCapacity: true)
        active.reserveCapacity(count)
        edgesOfBand.reserveCapacity(count)
        var next = 0
        var band = 0
        var bandTop = 0
        while bandTop < height {
            edges.withUnsafeBufferPointer { edges in
                firstBand.withUnsafeBufferPointer { firstBand in
                    lastBand.withUnsafeBufferPointer { lastBand in
                        // The edges that end above this band leave, the rest keep their order.
                        var kept = 0
                        active.withUnsafeMutableBufferPointer { active in
                            for k in 0..<active.count where lastBand[active[k]] >= band {
                                active[kept] = active[k]
                                kept &+= 1
                            }
                        }
                        active.removeLast(active.count - kept)
                        while next < count, firstBand[next] == band {
                            active.append(next)
                            next &+= 1
                        }
                        edgesOfBand.removeAll(keepingCapacity: true)
                        for i in active { edgesOfBand.append(edges[i]) }
                    }
                }
            }
            body(bandTop, min(bandRows, height - bandTop), edgesOfBand)
            band &+= 1
            bandTop &+= bandRows
        }
    }

    /// Elements of storage held, to keep a pooled value from hoarding.
    var capacity: Int { entries.capacity + edges.capacity + active.capacity + edgesOfBand.capacity + starts.capacity }
}

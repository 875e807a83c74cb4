/// A length-limited canonical Huffman code for one of a deflate block's
/// alphabets: literals and lengths (286 symbols), distances (30), or code
/// lengths (19).
///
/// Made for every block of every picture, so making one allocates nothing:
/// its tables are fixed-size inline arrays, and the tree it is built from
/// lives in a `HuffmanScratch` its caller reuses.
struct HuffmanCode {
    /// The most symbols an alphabet has (deflate's literals and lengths).
    static let maximumSymbols = 286

    /// How many symbols the alphabet has.
    let count: Int
    /// The code length of each symbol, 0 for symbols the block does not use.
    private var lengths = InlineArray<286, UInt8>(repeating: 0)
    /// Each symbol's code, bit-reversed, in its low `length(of:)` bits.
    private var codes = InlineArray<286, UInt16>(repeating: 0)

    /// The code length of `symbol`, 0 when it has no code.
    @inline(__always) func length(of symbol: Int) -> UInt8 { lengths[symbol] }
    /// The code of `symbol`, bit-reversed (deflate writes codes from their
    /// first bit), in its low `length(of:)` bits.
    @inline(__always) func code(of symbol: Int) -> UInt16 { codes[symbol] }

    /// The code for symbols with these frequencies (see
    /// `init(count:limit:scratch:frequency:)`), with scratch of its own.
    init(frequencies: [UInt32], limit: Int) {
        self = HuffmanScratch.with { scratch in
            HuffmanCode(count: frequencies.count, limit: limit, scratch: scratch) { frequencies[$0] }
        }
    }

    /// The code for `count` symbols (at most `maximumSymbols`) whose
    /// frequencies `frequency` gives, no code longer than `limit` bits,
    /// built in `scratch`. It is complete (every bit string of `limit` bits
    /// starts with a code), which zlib's inflate demands, so at least two
    /// symbols get a code: unused ones are given one when fewer than two are
    /// used.
    init(count: Int, limit: Int, scratch: HuffmanScratch, frequency: (Int) -> UInt32) {
        precondition(count <= Self.maximumSymbols && count >= 2, "an alphabet of \(count) symbols")
        self.count = count
        // The symbols that get a code, as sort keys: frequency, then symbol
        // (so codes do not depend on how the sort orders ties).
        let used = scratch.keys
        var n = 0
        for s in 0..<count where frequency(s) > 0 {
            used[n] = UInt64(frequency(s)) << 32 | UInt64(s)
            n += 1
        }
        for s in 0..<count where n < 2 && frequency(s) == 0 {
            // (Their keys sort first; the tree weighs them as 1.)
            used[n] = UInt64(s)
            n += 1
        }
        precondition(n <= 1 << limit, "\(n) symbols cannot have codes of at most \(limit) bits")
        Self.heapSort(used, count: n)
        // The depths of the leaves in a Huffman tree (least frequent first),
        // limited; then Kraft's equality restored: lengthen the longest
        // codes that can still grow while the code is over-full, shorten the
        // longest while it has room.
        let length = Self.depths(of: used, count: n, scratch: scratch)
        let full = 1 << limit
        var kraft = 0
        for k in 0..<n {
            length[k] = min(length[k], UInt16(limit))
            kraft += 1 << (limit - Int(length[k]))
        }
        while kraft > full {
            // The leaf with the longest length below the limit (the least
            // frequent of them).
            var longest = -1
            for k in 0..<n where Int(length[k]) < limit && (longest < 0 || length[k] > length[longest]) { longest = k }
            guard longest >= 0 else { break }
            kraft -= 1 << (limit - Int(length[longest]) - 1)
            length[longest] += 1
        }
        while kraft < full {
            // Shortening a code of length L adds 2^(limit-L); the most
            // frequent such leaf gains most.
            var shortened = -1
            for k in stride(from: n - 1, through: 0, by: -1)
            where length[k] > 1 && 1 << (limit - Int(length[k])) <= full - kraft {
                shortened = k
                break
            }
            guard shortened >= 0 else { break }
            kraft += 1 << (limit - Int(length[shortened]))
            length[shortened] -= 1
        }
        for k in 0..<n { lengths[Int(used[k] & 0xFFFF_FFFF)] = UInt8(length[k]) }
        makeCanonicalCodes()
    }

    /// Huffman tree depths of the leaves `keys[0..<n]` (sorted ascending by
    /// weight, their high 32 bits; a weight of 0 counts as 1), in
    /// `scratch.depth[0..<n]`: the two-queue method (leaves in order,
    /// internal nodes in the order made), parents always after their
    /// children.
    private static func depths(of keys: UnsafeMutablePointer<UInt64>, count n: Int, scratch: HuffmanScratch) -> UnsafeMutablePointer<UInt16> {
        let depth = scratch.depth
        guard n > 1 else {
            depth.update(repeating: 1, count: n)
            return depth
        }
        // Leaves 0..<n, internal nodes n..<2n-1.
        let (weight, parent) = (scratch.weight, scratch.parent)
        for k in 0..<n { weight[k] = max(1, keys[k] >> 32) }
        var leaf = 0, node = n, made = n
        func takeSmallest() -> Int {
            if leaf < n && (node >= made || weight[leaf] <= weight[node]) { leaf += 1; return leaf - 1 }
            node += 1; return node - 1
        }
        while made < 2 * n - 1 {
            let a = takeSmallest(), b = takeSmallest()
            weight[made] = weight[a] + weight[b]
            parent[a] = Int16(made); parent[b] = Int16(made)
            made += 1
        }
        // Depths from the root (2n-2, depth 0) down; a parent comes after
        // its children, so walking back finds every parent's depth first.
        depth[2 * n - 2] = 0
        for i in stride(from: 2 * n - 3, through: 0, by: -1) { depth[i] = depth[Int(parent[i])] + 1 }
        return depth
    }

    /// Sorts `keys[0..<n]` ascending, in place, allocating nothing (the
    /// standard library's sort takes a buffer for its merges). The keys
    /// are distinct, so any correct sort gives this order.
    private static func heapSort(_ keys: UnsafeMutablePointer<UInt64>, count n: Int) {
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end && keys[child] < keys[child + 1] { child += 1 }
                guard keys[root] < keys[child] else { return }
                (keys[root], keys[child]) = (keys[child], keys[root])
                root = child
            }
        }
        for start in stride(from: n / 2 - 1, through: 0, by: -1) { siftDown(start, n) }
        for end in stride(from: n - 1, to: 0, by: -1) {
            (keys[0], keys[end]) = (keys[end], keys[0])
            siftDown(0, end)
        }
    }

    /// Deflate's canonical codes for `lengths`, bit-reversed.
    private mutating func makeCanonicalCodes() {
        var lengthCount = InlineArray<16, Int>(repeating: 0)
        for s in 0..<count where lengths[s] > 0 { lengthCount[Int(lengths[s])] += 1 }
        var next = InlineArray<16, Int>(repeating: 0)
        var code = 0
        for bits in 1..<16 {
            code = (code + lengthCount[bits - 1]) << 1
            next[bits] = code
        }
        for s in 0..<count {
            let l = Int(lengths[s])
            guard l > 0 else { continue }
            let c = next[l]
            next[l] += 1
            var reversed = 0
            for b in 0..<l where c & (1 << b) != 0 { reversed |= 1 << (l - 1 - b) }
            codes[s] = UInt16(reversed)
        }
    }
}

/// Where Huffman codes are built: room for the sort keys and the tree of
/// deflate's largest alphabet, taken once by a segment's encoder and used
/// for every code of its blocks.
struct HuffmanScratch {
    fileprivate let keys: UnsafeMutablePointer<UInt64>
    fileprivate let weight: UnsafeMutablePointer<UInt64>
    fileprivate let parent: UnsafeMutablePointer<Int16>
    fileprivate let depth: UnsafeMutablePointer<UInt16>

    /// Runs `body` with scratch that lives as long as the call (one block
    /// of memory for all of it).
    static func with<Result>(_ body: (HuffmanScratch) throws -> Result) rethrows -> Result {
        let leaves = HuffmanCode.maximumSymbols, nodes = 2 * leaves - 1
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: (leaves + nodes) * 8 + nodes * 4, alignment: 8)
        defer { bytes.deallocate() }
        let parent = bytes + (leaves + nodes) * 8
        return try body(HuffmanScratch(
            keys: bytes.bindMemory(to: UInt64.self, capacity: leaves),
            weight: (bytes + leaves * 8).bindMemory(to: UInt64.self, capacity: nodes),
            parent: parent.bindMemory(to: Int16.self, capacity: nodes),
            depth: (parent + nodes * 2).bindMemory(to: UInt16.self, capacity: nodes)))
    }
}

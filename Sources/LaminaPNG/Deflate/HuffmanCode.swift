/// A length-limited canonical Huffman code for one alphabet of a deflate
/// block (RFC 1951, 3.2.2): each symbol's code length, and its code with
/// the bits reversed, as deflate's least-significant-bit-first stream
/// writes them.
struct HuffmanCode {
    /// The code length of each symbol, 0 for symbols the block does not use.
    private(set) var lengths: [UInt8]
    /// Each symbol's code, bit-reversed, in its low `lengths[s]` bits.
    private(set) var codes: [UInt16]

    /// The code for symbols with these frequencies, no code longer than
    /// `limit` bits. It is complete (every bit string of `limit` bits starts
    /// with a code), which zlib's inflate demands, so at least two symbols
    /// get a code: unused ones are given one when fewer than two are used.
    init(frequencies: [UInt32], limit: Int) {
        var used = frequencies.indices.filter { frequencies[$0] > 0 }
        for s in frequencies.indices where used.count < 2 && !used.contains(s) { used.append(s) }
        precondition(used.count <= 1 << limit, "\(used.count) symbols cannot have codes of at most \(limit) bits")
        // Least frequent first (ties by symbol, so codes do not depend on sort stability).
        used.sort { (frequencies[$0], $0) < (frequencies[$1], $1) }
        lengths = [UInt8](repeating: 0, count: frequencies.count)
        let depths = Self.depths(of: used.map { max(1, frequencies[$0]) })
        // Limit the lengths, then restore Kraft's equality: lengthen the
        // longest codes that can still grow while the code is over-full,
        // shorten the longest while it has room.
        var length = depths.map { min($0, limit) }
        let full = 1 << limit
        var kraft = length.reduce(0) { $0 + (1 << (limit - $1)) }
        while kraft > full {
            // The leaf with the longest length below the limit (the least frequent of them).
            guard let i = length.indices.filter({ length[$0] < limit }).max(by: { (length[$0], -$0) < (length[$1], -$1) })
            else { break }
            kraft -= 1 << (limit - length[i] - 1)
            length[i] += 1
        }
        while kraft < full {
            // Shortening a code of length L adds 2^(limit-L); the most frequent such leaf gains most.
            guard let i = length.indices.reversed().first(where: { length[$0] > 1 && (1 << (limit - length[$0])) <= full - kraft })
            else { break }
            kraft += 1 << (limit - length[i])
            length[i] -= 1
        }
        for (k, s) in used.enumerated() { lengths[s] = UInt8(length[k]) }
        codes = Self.canonicalCodes(lengths)
    }

    /// Huffman tree depths of leaves with these weights, sorted ascending:
    /// the two-queue method (leaves in order, internal nodes in the order
    /// made), parents always after their children.
    private static func depths(of weights: [UInt32]) -> [Int] {
        let n = weights.count
        guard n > 1 else { return [Int](repeating: 1, count: n) }
        var weight = weights.map { UInt64($0) } + [UInt64](repeating: 0, count: n - 1)
        var parent = [Int](repeating: -1, count: 2 * n - 1)
        var leaf = 0, node = n, made = n
        func takeSmallest() -> Int {
            if leaf < n && (node >= made || weight[leaf] <= weight[node]) { leaf += 1; return leaf - 1 }
            node += 1; return node - 1
        }
        while made < 2 * n - 1 {
            let a = takeSmallest(), b = takeSmallest()
            weight[made] = weight[a] + weight[b]
            parent[a] = made; parent[b] = made
            made += 1
        }
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        for i in stride(from: 2 * n - 3, through: 0, by: -1) { depth[i] = depth[parent[i]] + 1 }
        return Array(depth[0..<n])
    }

    /// Deflate's canonical codes for `lengths`, bit-reversed.
    private static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { count[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + count[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { l in
            guard l > 0 else { return 0 }
            let c = next[Int(l)]
            next[Int(l)] += 1
            var reversed = 0
            for b in 0..<Int(l) where c & (1 << b) != 0 { reversed |= 1 << (Int(l) - 1 - b) }
            return UInt16(reversed)
        }
    }
}

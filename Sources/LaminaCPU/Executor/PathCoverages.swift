import Foundation
import LaminaGeometry
import LaminaRaster
import Synchronization

/// The coverage of path fills, kept from one frame for the next.
///
/// An animation's frames redraw most of their shapes where they were: a
/// still part of the picture, a shape waiting for its turn to move. The
/// planner hands such a fill the very contours it handed it before (its
/// `OutlineCache` keeps them), under the same matrix, and their coverage is
/// the same bytes; rasterizing it again was half of drawing a frame of a
/// typical Lottie animation. A fill whose contours (the same list, not an
/// equal one), matrix (to the bit), fill rule and target size were drawn in
/// the frame before, or earlier in this one, is painted from the coverage
/// found then. A fill's coverage is kept from its second drawing on: most
/// fills drawn once are not drawn again (a moving shape's), and their masks
/// go back to the pool as soon as they are painted. The coverage found is
/// the one that would be made, so no picture depends on what was drawn
/// before it.
///
/// A kept list of contours is held, so its storage is neither changed nor
/// freed and another list cannot take its address. What the frame that ends
/// did not draw is forgotten (an animation's moving shapes leave a trail of
/// coverage no later frame asks for), and at most `maximumBytes` are kept.
final class PathCoverages: Sendable {
    /// The most coverage bytes kept, all fills together.
    static let maximumBytes = 16 << 20

    private let state = Mutex(State())

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The fingerprints of the fills this frame and the frame before
        /// drew: a coverage is kept once its fill is drawn a second time
        /// (most fills drawn once are not drawn again: a moving shape's),
        /// the others' masks going back to the pool as soon as they are
        /// painted. (Two fills of one fingerprint only keep a coverage
        /// early; what is found is told by the whole key.)
        var seen: Set<Int> = [], seenBefore: Set<Int> = []
        var bytes = 0
        /// Frames ended so far; a coverage notes the last one that used it.
        var frame = 0
        /// Coverages worked out since the cache was made.
        var made = 0
    }

    private struct Entry {
        let mask: CoverageMask
        var lastUsed: Int
    }

    /// A fill, to the bit: its list of contours by identity, its matrix's
    /// sixteen entries, its rule and the target's size. Made for every
    /// fill drawn, so it allocates nothing and hashes a few words.
    struct Key: Hashable, @unchecked Sendable {
        /// Held while the entry lives (see the type's comment).
        let contours: [[CGPoint]]
        let address: UInt
        let matrix: CATransform3D
        let evenOdd: Bool
        let width: Int, height: Int
        /// The list, the matrix's plane part, the rule and the size, mixed:
        /// enough to tell fills apart (equality compares the rest).
        let fingerprint: Int

        init(_ contours: [[CGPoint]], matrix m: CATransform3D, evenOdd: Bool, width: Int, height: Int) {
            self.contours = contours
            address = contours.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            matrix = m
            self.evenOdd = evenOdd
            self.width = width
            self.height = height
            func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
                let x = (h ^ v) &* 0x9E37_79B9_7F4A_7C15
                return x ^ (x >> 29)
            }
            var h = mix(UInt64(address), Double(m.m11).bitPattern)
            h = mix(h, Double(m.m12).bitPattern)
            h = mix(h, Double(m.m21).bitPattern)
            h = mix(h, Double(m.m22).bitPattern)
            h = mix(h, Double(m.m41).bitPattern)
            h = mix(h, Double(m.m42).bitPattern)
            h = mix(h, UInt64(truncatingIfNeeded: width << 32 | height << 1 | (evenOdd ? 1 : 0)))
            fingerprint = Int(truncatingIfNeeded: h)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

        static func == (a: Key, b: Key) -> Bool {
            guard a.fingerprint == b.fingerprint, a.address == b.address, a.evenOdd == b.evenOdd,
                  a.width == b.width, a.height == b.height else { return false }
            // Sixteen Doubles, no padding: their bytes are their bits.
            return withUnsafeBytes(of: a.matrix) { x in
                withUnsafeBytes(of: b.matrix) { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }
    }

    /// What `find` knows of a path's coverage.
    enum Found {
        /// Kept from an earlier drawing: paint it (it is not the pool's:
        /// painting it gives nothing back).
        case kept(CoverageMask)
        /// Drawn in this frame or the last before: make it and `keep` it.
        case drawnBefore(Key)
        /// Not drawn lately: made now, it would not be kept, so it need
        /// not be made at all (`PathFill` paints straight from the edges).
        case drawnOnce
    }

    /// Looks up the coverage of `contours` through `matrix` on a `width` x
    /// `height` target, counting this drawing (a path drawn in two
    /// frames running is kept from its second drawing on).
    func find(_ contours: [[CGPoint]], matrix: CATransform3D, evenOdd: Bool, width: Int, height: Int) -> Found {
        // An empty list has no storage of its own to tell it by.
        guard !contours.isEmpty else { return .drawnOnce }
        let key = Key(contours, matrix: matrix, evenOdd: evenOdd, width: width, height: height)
        return state.withLock { s -> Found in
            if !s.entries.isEmpty, let i = s.entries.index(forKey: key) {
                s.entries.values[i].lastUsed = s.frame
                return .kept(s.entries.values[i].mask)
            }
            s.made += 1
            let again = !s.seen.insert(key.fingerprint).inserted || s.seenBefore.contains(key.fingerprint)
            return again ? .drawnBefore(key) : .drawnOnce
        }
    }

    /// Keeps `made`, the coverage `find` said was drawn before, while there
    /// is room, and returns it as a mask the pool does not take back.
    func keep(_ made: CoverageMask, as key: Key) -> CoverageMask {
        let mask = CoverageMask(uncheckedBounds: made.bounds, values: made.values, pooled: false)
        state.withLock { s in
            let bytes = mask.values.count
            guard s.bytes + bytes <= Self.maximumBytes, s.entries[key] == nil else { return }
            s.entries[key] = Entry(mask: mask, lastUsed: s.frame)
            s.bytes += bytes
        }
        return mask
    }

    /// The coverage of `contours` through `matrix` on a `width` x `height`
    /// target: kept, or made by `make` now (and kept while there is room,
    /// from its second drawing on). A kept mask is not the pool's: painting
    /// it gives nothing back.
    func coverage(
        of contours: [[CGPoint]], matrix: CATransform3D, evenOdd: Bool, width: Int, height: Int,
        make: () throws -> CoverageMask?
    ) rethrows -> CoverageMask? {
        switch find(contours, matrix: matrix, evenOdd: evenOdd, width: width, height: height) {
        case .kept(let mask): return mask
        case .drawnOnce: return try make()
        case .drawnBefore(let key): return try make().map { keep($0, as: key) }
        }
    }

    /// Ends a frame: the coverages it used are kept for the next, the
    /// others are forgotten.
    func endFrame() {
        let forgotten = state.withLock { s -> [CoverageMask] in
            defer { s.frame += 1 }
            let frame = s.frame
            swap(&s.seen, &s.seenBefore)
            s.seen.removeAll(keepingCapacity: true)
            guard s.entries.values.contains(where: { $0.lastUsed < frame }) else { return [] }
            let forgotten = s.entries.values.filter { $0.lastUsed < frame }.map(\.mask)
            s.entries = s.entries.filter { $0.value.lastUsed == frame }
            s.bytes = s.entries.values.reduce(0) { $0 + $1.mask.values.count }
            return forgotten
        }
        // Their bytes back to the pool, for the next frame's masks. (One a
        // frame still paints keeps its bytes: the pool's next taker copies.)
        for mask in forgotten { BufferPool.masks.giveBack(mask.values) }
    }

    /// How many coverages are kept, and how many were worked out since the
    /// cache was made (for tests).
    var statistics: (kept: Int, made: Int) { state.withLock { ($0.entries.count, $0.made) } }
}

import Synchronization

/// Encoded pictures by ETag, the least recently used dropped first, bounded
/// in bytes: repeats of a scene (the same social card asked for by every
/// visitor) are answered without a worker.
///
/// ```swift
/// let cache = PictureCache(capacityBytes: 64 << 20)
/// cache.insert(png, for: etag)
/// cache.picture(for: etag)  // png, now the most recently used
/// ```
final class PictureCache: Sendable {
    let capacityBytes: Int
    private let state: Mutex<State>

    /// A doubly linked list threaded through an array (indices, no
    /// references, so no reference counting per lookup), plus an index by key.
    private struct State {
        var nodes: [Node] = []
        var freeSlots: [Int] = []
        var slotByKey: [String: Int] = [:]
        /// Most recently used.
        var head = -1
        /// Least recently used: the next to go.
        var tail = -1
        var bytes = 0
    }

    private struct Node {
        var key: String
        var value: [UInt8]
        var newer = -1
        var older = -1
    }

    init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
        state = Mutex(State())
    }

    /// The bytes kept and how many pictures.
    var usage: (bytes: Int, count: Int) {
        state.withLock { ($0.bytes, $0.slotByKey.count) }
    }

    /// The picture for `key`, which becomes the most recently used.
    func picture(for key: String) -> [UInt8]? {
        state.withLock { s in
            guard let slot = s.slotByKey[key] else { return nil }
            Self.unlink(slot, in: &s)
            Self.pushFront(slot, in: &s)
            return s.nodes[slot].value
        }
    }

    /// Keeps `value` for `key`, dropping the least recently used pictures
    /// until it fits. A picture larger than the whole cache is not kept.
    func insert(_ value: [UInt8], for key: String) {
        guard value.count <= capacityBytes else { return }
        state.withLock { s in
            if let slot = s.slotByKey[key] {
                s.bytes += value.count - s.nodes[slot].value.count
                s.nodes[slot].value = value
                Self.unlink(slot, in: &s)
                Self.pushFront(slot, in: &s)
            } else {
                let node = Node(key: key, value: value)
                let slot: Int
                if let free = s.freeSlots.popLast() {
                    s.nodes[free] = node
                    slot = free
                } else {
                    s.nodes.append(node)
                    slot = s.nodes.count - 1
                }
                s.slotByKey[key] = slot
                s.bytes += value.count
                Self.pushFront(slot, in: &s)
            }
            while s.bytes > capacityBytes, s.tail >= 0 {
                let victim = s.tail
                Self.unlink(victim, in: &s)
                s.bytes -= s.nodes[victim].value.count
                s.slotByKey[s.nodes[victim].key] = nil
                s.nodes[victim] = Node(key: "", value: [])
                s.freeSlots.append(victim)
            }
        }
    }

    private static func unlink(_ slot: Int, in s: inout State) {
        let (newer, older) = (s.nodes[slot].newer, s.nodes[slot].older)
        if newer >= 0 { s.nodes[newer].older = older } else { s.head = older }
        if older >= 0 { s.nodes[older].newer = newer } else { s.tail = newer }
        s.nodes[slot].newer = -1
        s.nodes[slot].older = -1
    }

    private static func pushFront(_ slot: Int, in s: inout State) {
        s.nodes[slot].older = s.head
        s.nodes[slot].newer = -1
        if s.head >= 0 { s.nodes[s.head].newer = slot }
        s.head = slot
        if s.tail < 0 { s.tail = slot }
    }
}

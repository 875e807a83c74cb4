import Synchronization

/// The bytes of request bodies the server holds at once, read or being read,
/// bounded as a whole: a hundred clients each sending a body just under the
/// size limit would otherwise hold a hundred bodies (the render queue counts
/// only decoded requests). A body is counted as its bytes arrive, and given
/// back when the request has done with it (its `Reservation` ends); one that
/// would take the total past the bound is refused (429 `tooManyBodies`).
///
/// ```swift
/// let bodies = BodyBytesInFlight(limit: 64 << 20)
/// let held = bodies.reservation()
/// guard held.add(chunk.readableBytes) else { throw tooMany }
/// // ... the body is decoded; `held` ends with it and gives its bytes back.
/// ```
final class BodyBytesInFlight: Sendable {
    let limit: Int
    private let held = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// The bytes held now.
    var bytes: Int { held.withLock { $0 } }

    /// A new, empty reservation.
    func reservation() -> Reservation { Reservation(pool: self) }

    fileprivate func take(_ n: Int) -> Bool {
        held.withLock { held in
            guard n <= limit - held else { return false }
            held += n
            return true
        }
    }

    fileprivate func give(_ n: Int) {
        held.withLock { $0 -= n }
    }

    /// One body's share, given back when the reservation ends.
    final class Reservation: Sendable {
        private let pool: BodyBytesInFlight
        private let bytes = Mutex(0)

        fileprivate init(pool: BodyBytesInFlight) { self.pool = pool }

        /// Counts `n` more bytes of this body; false when the server holds too many.
        func add(_ n: Int) -> Bool {
            guard pool.take(n) else { return false }
            bytes.withLock { $0 += n }
            return true
        }

        deinit { pool.give(bytes.withLock { $0 }) }
    }
}

import Synchronization
import LaminaRaster

/// The colour tables of gradients' stops, kept while frames draw them.
///
/// A gradient draw reads its colours from a table of 1,024 (`GradientRamp`),
/// which depends on its stops alone. An animation's gradients mostly keep
/// their stops and move or stretch, so each table is made once and found
/// again by its stops in later draws and frames, rather than made for every
/// draw (a third of a frame of small gradient-heavy animations). The table
/// found is the one that would be made, so no picture depends on what was
/// drawn before it.
final class GradientTables: Sendable {
    /// The most tables kept (a frame of more distinct stops than this makes
    /// the rest itself each time).
    static let maximumTables = 256

    private let state = Mutex(State())

    private struct State {
        var tables: [Stops: Entry] = [:]
        /// Frames ended so far; a table notes the last one that used it.
        var frame = 0
    }

    private struct Entry {
        let table: GradientRamp.Table
        var lastUsed: Int
    }

    /// A gradient's stops to the bit: locations and premultiplied channels.
    private struct Stops: Hashable {
        let bits: [UInt64]
        init(_ fill: GradientFill) {
            var bits: [UInt64] = []
            bits.reserveCapacity(fill.stops.count * 5)
            for stop in fill.stops {
                let c = stop.color
                bits.append(contentsOf: [stop.location.bitPattern, c.0.bitPattern, c.1.bitPattern, c.2.bitPattern, c.3.bitPattern])
            }
            self.bits = bits
        }
    }

    /// `fill` read through the table of its stops: one kept, or one made now
    /// (and kept, while there is room).
    func ramp(for fill: GradientFill) -> GradientRamp {
        let stops = Stops(fill)
        let kept = state.withLock { s -> GradientRamp.Table? in
            guard let entry = s.tables[stops] else { return nil }
            s.tables[stops]?.lastUsed = s.frame
            return entry.table
        }
        if let kept { return GradientRamp(fill, table: kept) }
        let table = GradientRamp.Table(fill)
        state.withLock { s in
            if s.tables.count < Self.maximumTables { s.tables[stops] = Entry(table: table, lastUsed: s.frame) }
        }
        return GradientRamp(fill, table: table)
    }

    /// Ends a frame: the tables it used are kept for the next, the others
    /// are forgotten.
    func endFrame() {
        state.withLock { s in
            defer { s.frame += 1 }
            let frame = s.frame
            guard s.tables.values.contains(where: { $0.lastUsed < frame }) else { return }
            s.tables = s.tables.filter { $0.value.lastUsed == frame }
        }
    }

    /// How many tables are kept.
    var count: Int { state.withLock { $0.tables.count } }
}

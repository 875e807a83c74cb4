import CThreadPlacement

/// Which cores this process may run on, and keeping a thread on one of them.
///
/// Why the server pins its render workers: when each request stays on one
/// core (`--frame-threads 1`) and the process has exactly one core per
/// worker, Linux's scheduler can wake a worker onto the core where the other
/// worker is drawing and leave it queued there for whole time slices while
/// the other core sits idle (measured with `perf sched` on two cores, two
/// requests at a time: up to 15 ms at once, 17% of one core in all). A
/// worker pinned to a core of its own cannot be stacked that way.
///
/// `auto` pins only then. Where frames spread over idle cores (the default),
/// a pinned worker holds its share of the frame on its core while the band
/// helpers, which are not pinned, wait to be moved: one request at a time
/// drew 6–16% slower pinned. Where the process may use more cores than it
/// has workers (a CPU quota on a large node), pinning would tie the workers
/// to cores that other processes share.
enum CPUAffinity {
    /// The cores the calling thread may run on, in ascending order: the
    /// process's (its affinity mask, which a container's cpuset narrows)
    /// unless the thread has been pinned; empty where the platform cannot say.
    static func allowedCores() -> [Int] {
        var mask = [UInt8](repeating: 0, count: 128)
        guard lamina_allowed_cores(&mask, Int32(mask.count)) == 0 else { return [] }
        return (0..<(mask.count * 8)).filter { core in mask[core / 8] & (1 << (core % 8)) != 0 }
    }

    /// Keeps the calling thread on `core`; false where that failed or the
    /// platform has no affinity.
    @discardableResult
    static func pinCurrentThread(to core: Int) -> Bool {
        lamina_pin_current_thread(Int32(clamping: core)) == 0
    }

    /// The core the calling thread is running on now; nil where unknown.
    static func currentCore() -> Int? {
        let core = lamina_current_core()
        return core >= 0 ? Int(core) : nil
    }

    /// Names the calling thread for `top -H`, `perf` and debuggers (the
    /// first 15 bytes). Foundation's `Thread.name`, set before `start()`,
    /// does not reach the system's thread name on Linux.
    static func nameCurrentThread(_ name: String) {
        _ = lamina_name_current_thread(name)
    }

    /// The core each of `workers` workers keeps to, or nil for none:
    /// `auto` pins only when each request keeps to one core
    /// (`frameThreads == 1`) and the process may use exactly `workers` cores.
    static func plan(workers: Int, frameThreads: Int?, choice: ServerConfiguration.PinChoice,
                     allowed: [Int] = allowedCores()) -> [Int]? {
        guard !allowed.isEmpty, workers > 0 else { return nil }
        switch choice {
        case .off: return nil
        case .auto where frameThreads != 1 || allowed.count != workers: return nil
        case .auto, .on: return (0..<workers).map { allowed[$0 % allowed.count] }
        }
    }
}

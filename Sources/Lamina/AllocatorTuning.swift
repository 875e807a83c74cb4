#if canImport(Glibc)
import CAllocator
import Glibc
#endif
import Foundation

/// How the process's C allocator treats the large buffers a frame makes.
///
/// Every frame allocates surfaces, coverage masks and encoder buffers of a
/// few megabytes and frees them when the frame is done. glibc serves blocks
/// that large with fresh `mmap` pages and gives them back on free, so each
/// frame pays the kernel to fault in and zero every page again: about 3 ms
/// of a 1200x630 card's 17 (`scripts/bench/stage-instructions.sh` shows the page
/// faults; `lamina bench` the time). Raising the `mmap` threshold and the
/// trim threshold keeps those blocks in the heap, where the next frame reuses
/// them: the same steady-state memory, without the faults.
///
/// Process-wide, so it is the program's choice, not the library's: the
/// `lamina` command calls it at start. Glibc's own settings win: when any
/// `MALLOC_*_` variable or `GLIBC_TUNABLES` is set, nothing is changed.
///
/// ```swift
/// AllocatorTuning.reuseLargeBuffers()   // first thing in main
/// ```
public enum AllocatorTuning {
    /// Blocks up to this size come from the heap and are reused.
    public static let mmapThreshold = 64 << 20
    /// Free memory at the top of the heap up to this size is kept.
    public static let trimThreshold = 128 << 20

    /// Keeps large freed blocks for reuse (see above). Returns whether the
    /// allocator was changed.
    @discardableResult
    public static func reuseLargeBuffers() -> Bool {
        #if canImport(Glibc)
        let environment = ProcessInfo.processInfo.environment
        guard environment["GLIBC_TUNABLES"] == nil,
              !environment.keys.contains(where: { $0.hasPrefix("MALLOC_") && $0.hasSuffix("_") })
        else { return false }
        return mallopt(M_MMAP_THRESHOLD, Int32(mmapThreshold)) == 1
            && mallopt(M_TRIM_THRESHOLD, Int32(trimThreshold)) == 1
        #else
        return false
        #endif
    }
}

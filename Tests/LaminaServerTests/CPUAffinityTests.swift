import Foundation
import Synchronization
import Testing
@testable import LaminaServer

@Suite struct CPUAffinityTests {
    @Test func autoPinsOnlyOneCorePerWorkerAndOneCorePerRequest() {
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 1, choice: .auto, allowed: [0, 1]) == [0, 1])
        // A cpuset of two cores that are not the first two.
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 1, choice: .auto, allowed: [4, 9]) == [4, 9])
        // A quota of two cores on a larger node: the cores are shared with others.
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 1, choice: .auto, allowed: Array(0..<16)) == nil)
        #expect(CPUAffinity.plan(workers: 3, frameThreads: 1, choice: .auto, allowed: [0, 1]) == nil)
        // Frames spread over idle cores: their band helpers are not pinned.
        #expect(CPUAffinity.plan(workers: 2, frameThreads: nil, choice: .auto, allowed: [0, 1]) == nil)
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 2, choice: .auto, allowed: [0, 1]) == nil)
    }

    @Test func onSpreadsWorkersOverTheAllowedCoresAndOffNeverPins() {
        #expect(CPUAffinity.plan(workers: 3, frameThreads: nil, choice: .on, allowed: [2, 5]) == [2, 5, 2])
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 1, choice: .on, allowed: Array(0..<8)) == [0, 1])
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 1, choice: .off, allowed: [0, 1]) == nil)
        // Where the platform cannot say which cores, nothing is pinned.
        #expect(CPUAffinity.plan(workers: 2, frameThreads: 1, choice: .on, allowed: []) == nil)
    }

    @Test func theAffinityMaskIsReadAndAThreadCanBePinnedToOneOfItsCores() throws {
        let allowed = CPUAffinity.allowedCores()
        #if os(Linux)
        try #require(!allowed.isEmpty)
        let core = try #require(allowed.last)
        // On a thread of its own, so that the test runner's threads keep their cores.
        let thread = Thread {
            let pinned = CPUAffinity.pinCurrentThread(to: core)
            let now = CPUAffinity.currentCore()
            Self.observed.withLock { $0 = (pinned, now, CPUAffinity.allowedCores()) }
        }
        thread.start()
        let giveUp = ContinuousClock.now + .seconds(30)
        while Self.observed.withLock({ $0 == nil }), ContinuousClock.now < giveUp { Thread.sleep(forTimeInterval: 0.001) }
        let (pinned, now, after) = try #require(Self.observed.withLock { $0 })
        #expect(pinned)
        #expect(now == core)
        // sched_getaffinity(0) is the calling thread's mask.
        #expect(after == [core])
        #expect(!CPUAffinity.pinCurrentThread(to: -1))
        #else
        #expect(allowed.isEmpty)
        #endif
    }

    private static let observed = Mutex<(Bool, Int?, [Int])?>(nil)
}

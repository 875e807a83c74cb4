import Foundation
import Lamina
import Synchronization
import Testing
@testable import LaminaServer

/// The pool's errands (a request's decoding on an idle worker) and the order
/// in which a worker goes idle and answers.
@Suite struct RenderPoolTests {
    /// A pool of CPU workers, pinned to the first allowed core when `pinned`
    /// (every worker on the same core: the tests are about the hand-over,
    /// not the cores).
    private static func pool(workers: Int, pinned: Bool) async -> RenderPool {
        let core = CPUAffinity.allowedCores().first ?? 0
        let setup = RenderPool.Setup(workers: workers, queueCapacity: 4, backend: .cpu, eglPlatform: nil,
                                     budget: .default, pngOptions: .fast,
                                     cores: pinned ? Array(repeating: core, count: workers) : nil)
        let pool = RenderPool(setup)
        _ = await pool.waitUntilStarted()
        return pool
    }

    private static func job() throws -> RenderJob {
        let json = ##"{"width": 8, "height": 8, "backgroundColor": "#336699"}"##
        let scene = try SceneDecoder().decode(Array(json.utf8))
        return RenderJob(scene: scene, scale: nil, time: nil, backend: nil,
                         enqueued: .now, deadline: .now + .seconds(60))
    }

    /// The system's name of the calling thread (`lamina.render.N` on a worker).
    private static func threadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines)
    }

    @Test func withPinnedWorkersAnErrandRunsOnAnIdleWorkerAndSaysWhich() async throws {
        let pool = await Self.pool(workers: 2, pinned: true)
        defer { pool.stop() }
        let (name, worker) = try await pool.runOnIdleWorker { Self.threadName() }
        let index = try #require(worker)
        #expect(name == "lamina.render.\(index)")
        // The errand is over once its answer is heard: nobody counts as busy.
        #expect(pool.load.busy == 0)
    }

    @Test func withoutPinnedWorkersAnErrandRunsWhereItIsAsked() async throws {
        let pool = await Self.pool(workers: 1, pinned: false)
        defer { pool.stop() }
        let (name, worker) = try await pool.runOnIdleWorker { Self.threadName() }
        #expect(worker == nil)
        #expect(!name.hasPrefix("lamina.render"))
    }

    @Test func whenNoWorkerIsIdleTheErrandRunsWhereItIsAskedInsteadOfWaiting() async throws {
        let pool = await Self.pool(workers: 1, pinned: true)
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        let holding = Task { try await pool.runOnIdleWorker { release.wait() } }
        let giveUp = ContinuousClock.now + .seconds(10)
        while pool.load.busy == 0, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(1)) }
        try #require(pool.load.busy == 1, "the first errand never reached the worker")
        // The only worker is busy: this one runs here, without waiting for it.
        let (name, worker) = try await pool.runOnIdleWorker { Self.threadName() }
        #expect(worker == nil)
        #expect(!name.hasPrefix("lamina.render"))
        release.signal()
        let (_, held) = try await holding.value
        #expect(held == 0)
    }

    @Test func anErrandsErrorReachesTheCaller() async throws {
        struct Broken: Error {}
        let pool = await Self.pool(workers: 1, pinned: true)
        defer { pool.stop() }
        await #expect(throws: Broken.self) { try await pool.runOnIdleWorker { () throws -> Int in throw Broken() } }
        #expect(pool.load.busy == 0)
        // The worker is still there for the next errand.
        let (_, worker) = try await pool.runOnIdleWorker { 1 }
        #expect(worker == 0)
    }

    @Test func aWorkerIsIdleAgainBeforeItsAnswerIsHeard() async throws {
        let pool = await Self.pool(workers: 1, pinned: true)
        defer { pool.stop() }
        for _ in 0..<20 {
            let (job, worker) = try await pool.runOnIdleWorker { try Self.job() }
            let picture = try await pool.render(job, near: worker)
            #expect(picture.width == 8 && picture.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            // The next request's decoding must find the worker that just drew
            // this one idle, not still on its way back to the idle list.
            #expect(pool.load.busy == 0)
            let (_, next) = try await pool.runOnIdleWorker { 0 }
            #expect(next == 0)
        }
    }

    /// The load told to `onLoadChange` (the metrics' gauges) ends at the
    /// pool's own, whichever thread's report comes last: here the queuing
    /// thread is slow to report, and the worker that took the job reports
    /// busy meanwhile.
    @Test func theLoadToldLastIsTheLoadAsItIsNow() async throws {
        // The busy workers of each load told, in the order told.
        let told = Mutex<[Int]>([])
        let setup = RenderPool.Setup(workers: 1, queueCapacity: 4, backend: .cpu, eglPlatform: nil,
                                     budget: .default, pngOptions: .fast, cores: nil)
        let pool = RenderPool(setup) { load in
            if !Self.threadName().hasPrefix("lamina.render") { usleep(50_000) }
            told.withLock { $0.append(load.busy) }
        }
        _ = await pool.waitUntilStarted()
        defer { pool.stop() }
        // A picture that takes well over the queuing thread's 50 ms (a
        // second here): 24 turned layers, each with its own blurred shadow.
        let layers = (0..<24).map { turn in
            ##"{"bounds": [0, 0, 900, 900], "position": [600, 600], "backgroundColor": "#cc6633", "cornerRadius": 80, "##
                + ##""shadowOpacity": 1, "shadowRadius": 60, "transform": [{"rotate": [\##(Double(turn) / 10), 0, 0, 1]}]}"##
        }
        let json = #"{"width": 1200, "height": 1200, "sublayers": [\#(layers.joined(separator: ", "))]}"#
        let job = RenderJob(scene: try SceneDecoder().decode(Array(json.utf8)), scale: nil, time: nil, backend: nil,
                            enqueued: .now, deadline: .now + .seconds(60))
        // `submit` returns once the queuing thread has told its load (50 ms).
        let ticket = try pool.submit(job)
        // What had been told when the drawing ended, read as it ends (the
        // worker tells the idle load after answering): not by polling, which
        // a busy machine may not schedule before the drawing is over.
        let toldWhileDrawing: [Int] = await withCheckedContinuation { continuation in
            ticket.onFinish { continuation.resume(returning: told.withLock { $0 }) }
        }
        #expect(toldWhileDrawing.last == 1, "the worker drew while the load told last said \(toldWhileDrawing) busy")
        _ = await ticket.answer()
    }
}

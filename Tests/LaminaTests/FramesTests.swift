import Foundation
import Testing
@testable import Lamina

/// Frame sequences: the timeline's times, counts and delays, the default
/// length from the scene's animations, and animated PNGs that decode back
/// to the same pictures as single renders.
@Suite("Frames")
struct FramesTests {
    @Test func framesCoverTheStartAndStopBeforeTheEnd() throws {
        let t = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 30)
        #expect(t.count == 30)
        #expect(t.time(ofFrame: 0) == 0 && abs(t.time(ofFrame: 29) - 29.0 / 30) < 1e-12)
        // A length that is a whole number of frames up to rounding adds none.
        #expect(try AnimationTimeline(start: 0.1, end: 0.7, framesPerSecond: 10).count == 6)
        #expect(try AnimationTimeline(start: 0, end: 1.01, framesPerSecond: 10).count == 11)
        #expect(try AnimationTimeline(start: 2, end: 2.001, framesPerSecond: 24).count == 1)
        #expect(try AnimationTimeline(start: -1, end: 0, framesPerSecond: 4).time(ofFrame: 3) == -0.25)
        for bad in [(0.0, 0.0, 30.0), (1, 0, 30), (0, 1, 0), (0, 1, .nan), (0, .infinity, 30), (0, 1e9, 1000), (0, 1, 1e-161), (0, 1, 0.0009)] {
            #expect(throws: AnimationTimelineError.self) { try AnimationTimeline(start: bad.0, end: bad.1, framesPerSecond: bad.2) }
        }
    }

    @Test func delaysAddUpWithoutDrift() throws {
        let t = try AnimationTimeline(start: 0, end: 100, framesPerSecond: 29.97)
        var sum = 0
        for i in 0..<t.count {
            sum += t.delayInMilliseconds(ofFrame: i)
            #expect(abs(Double(sum) - Double(i + 1) * 1000 / 29.97) <= 0.5)
        }
        #expect(try AnimationTimeline(start: 0, end: 1, framesPerSecond: 30).delayFraction(ofFrame: 7) == (1, 30))
        #expect(t.delayFraction(ofFrame: 0) == (33, 1000))
        // The slowest rate: a frame every 1000 s, in whole seconds for APNG.
        let slow = try AnimationTimeline(start: 0, end: 3000, framesPerSecond: 0.001)
        #expect(slow.count == 3 && slow.delayInMilliseconds(ofFrame: 2) == 1_000_000 && slow.delayFraction(ofFrame: 1) == (1000, 1))
    }

    @Test func theDefaultLengthIsTheEndOfTheLastAnimation() throws {
        func end(_ animation: String) throws -> Double? {
            try SceneDecoder().decode(##"{"width": 10, "height": 10, "sublayers": [{"sublayers": [{"animations": [\##(animation)]}]}]}"##)
                .rootLayer.animationsEnd()
        }
        let base = ##"{"keyPath": "opacity", "fromValue": 0, "toValue": 1"##
        #expect(try end(base + ##", "duration": 2}"##) == 2)
        #expect(try end(base + ##", "duration": 2, "beginTime": 1, "repeatCount": 1.5}"##) == 4)
        #expect(try end(base + ##", "duration": 2, "autoreverses": true, "speed": 2}"##) == 2)
        #expect(try SceneDecoder().decode(##"{"width": 10, "height": 10}"##).rootLayer.animationsEnd() == nil)
        // Through the library: a repeat duration, and a spin that never ends
        // (Apple's idiom, repeatCount = .infinity), which needs a length.
        let root = CALayer(), spinner = CALayer()
        root.addSublayer(spinner)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.duration = 1
        fade.repeatDuration = 2.5
        spinner.add(fade, forKey: "fade")
        #expect(try root.animationsEnd() == 2.5)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.repeatCount = .infinity
        spinner.add(spin, forKey: "spin")
        #expect(throws: AnimationTimelineError("the animation 'spin' of the layer at $.sublayers[0] never ends; give the sequence a length",
                                               path: "$.sublayers[0].animations[1]")) {
            try root.animationsEnd()
        }
    }

    @Test("An animated PNG holds every frame as a single render draws it", arguments: availableBackends)
    func animatedPNGDecodesToTheSingleRenders(backend: RenderBackend) throws {
        let scene = try SceneDecoder().decode(##"""
            {"width": 40, "height": 30, "backgroundColor": "#ffffff", "sublayers": [{"bounds": [0, 0, 10, 10],
             "position": [5, 15], "backgroundColor": "#ff0000", "animations": [{"keyPath": "position.x",
             "fromValue": 5, "toValue": 35, "duration": 1}]}]}
            """##)
        let timeline = try AnimationTimeline(start: 0, end: try #require(try scene.rootLayer.animationsEnd()), framesPerSecond: 8)
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        var apng = try APNGEncoder(width: 40, height: 30, frameCount: timeline.count, loopCount: 2)
        var singles: [CGImage] = []
        for i in 0..<timeline.count {
            let image = try renderer.render(scene, time: timeline.time(ofFrame: i))
            singles.append(image)
            try apng.add(image, delay: timeline.delayFraction(ofFrame: i))
        }
        let file = try apng.finish()
        let frames = try APNGFrames(file)
        #expect(frames.loopCount == 2)
        #expect(frames.images.count == 8 && frames.delays.allSatisfy { $0 == (1, 8) })
        #expect(frames.sequenceNumbers == Array(0..<UInt32(frames.sequenceNumbers.count)))
        #expect(frames.images == singles)
        // The ordinary PNG decoder sees the first frame.
        #expect(try PNGDecoder().decode(file) == singles[0])
    }
}

extension FramesTests {
    @Test("An animated WebP, lossless, holds every frame as a single render draws it", arguments: availableBackends)
    func animatedWebPDecodesToTheSingleRenders(backend: RenderBackend) throws {
        let scene = try SceneDecoder().decode(##"""
            {"width": 40, "height": 30, "backgroundColor": "#ffffff", "sublayers": [{"bounds": [0, 0, 10, 10],
             "position": [5, 15], "backgroundColor": "#3366cc", "cornerRadius": 3, "animations": [{"keyPath": "position.x",
             "fromValue": 5, "toValue": 35, "duration": 1}]}]}
            """##)
        // 7 fps: delays of 143 and 142 ms that add up to the true times.
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 7)
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        let webp = try WebPAnimationEncoder(width: 40, height: 30, loopCount: 3)
        var singles: [CGImage] = []
        for i in 0..<timeline.count {
            let image = try renderer.render(scene, time: timeline.time(ofFrame: i))
            singles.append(image)
            try webp.add(image, durationMilliseconds: timeline.delayInMilliseconds(ofFrame: i))
        }
        let decoded = try WebPAnimation(decoding: try webp.finish())
        #expect(decoded.loopCount == 3)
        #expect(decoded.images == singles)
        // libwebp reports each frame's end time.
        #expect(decoded.timestamps == (1...7).map { Int((Double($0) * 1000 / 7).rounded()) })
    }

    @Test func lossyWebPIsSmallerAndClose() throws {
        var pixels: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 4), UInt8((x ^ y) & 255), 255] } }
        let image = try CGImage(width: 64, height: 64, premultipliedRGBA: pixels)
        let lossless = try WebPAnimationEncoder(width: 64, height: 64)
        try lossless.add(image, durationMilliseconds: 100)
        let lossy = try WebPAnimationEncoder(width: 64, height: 64, quality: 50)
        try lossy.add(image, durationMilliseconds: 100)
        let (exact, small) = (try lossless.finish(), try lossy.finish())
        #expect(small.count < exact.count)
        let back = try #require(try WebPAnimation(decoding: small).images.first)
        let error = zip(back.pixelBytes, image.pixelBytes).map { abs(Int($0) - Int($1)) }.reduce(0, +) / pixels.count
        #expect(error < 16, "mean error \(error)")
        #expect(throws: WebPError.self) { _ = try WebPAnimationEncoder(width: 20000, height: 10) }
        #expect(throws: WebPError.self) { try WebPAnimation(decoding: [1, 2, 3]) }
    }
}

extension FramesTests {
    private static let moving = ##"""
        {"width": 40, "height": 30, "backgroundColor": "#ffffff", "sublayers": [{"bounds": [0, 0, 10, 10],
         "position": [5, 15], "backgroundColor": "#ff0000", "animations": [{"keyPath": "position.x",
         "fromValue": 5, "toValue": 35, "duration": 1}, {"keyPath": "opacity", "fromValue": 1, "toValue": 0.2,
         "duration": 0.5, "autoreverses": true}]}]}
        """##

    @Test("Frames rendered in parallel come in order, the same as one by one", arguments: availableBackends)
    func parallelFramesEqualSerialOnes(backend: RenderBackend) throws {
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 12)
        func frames(workers: Int) throws -> [CGImage] {
            var out: [CGImage] = []
            try FrameRenderer(timeline: timeline, backend: backend, workers: workers, fallBack: false) {
                try SceneDecoder().decode(Self.moving)
            }.render { index, image in
                #expect(index == out.count)
                out.append(image)
            }
            return out
        }
        let serial = try frames(workers: 1)
        #expect(serial.count == 12)
        #expect(try frames(workers: 3) == serial)
        // And each is the single render at its time.
        let renderer = try LayerRenderer(backend: backend, fallBack: false)
        #expect(try renderer.render(try SceneDecoder().decode(Self.moving), time: timeline.time(ofFrame: 7)) == serial[7])
    }

    /// The asynchronous sequence gives the same frames, in order, with their
    /// times; a loop left early stops the workers (the test would hang if
    /// they waited for a consumer that had gone); an error ends the loop.
    @Test func framesAsAnAsyncSequence() async throws {
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 8)
        let renderer = FrameRenderer(timeline: timeline, backend: .cpu, workers: 2) { try SceneDecoder().decode(Self.moving) }
        var expected: [CGImage] = []
        try renderer.render { _, image in expected.append(image) }
        var seen: [FrameRenderer.Frame] = []
        for try await frame in renderer.frames { seen.append(frame) }
        #expect(seen.map(\.index) == Array(0..<8))
        #expect(seen.map(\.image) == expected)
        #expect(seen.map(\.time) == (0..<8).map { timeline.time(ofFrame: $0) })

        var taken = 0
        for try await _ in renderer.frames {
            taken += 1
            if taken == 2 { break }
        }
        #expect(taken == 2)

        var budget = RenderBudget.default
        budget.canvasPixels = 100
        let refused = FrameRenderer(timeline: timeline, backend: .cpu, budget: budget, workers: 2) {
            try SceneDecoder().decode(Self.moving)
        }
        await #expect(throws: RenderRefusal.self) {
            for try await _ in refused.frames {}
        }
    }

    @Test func aFrameRefusedStopsTheSequenceWithItsError() throws {
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 10)
        var budget = RenderBudget.default
        budget.canvasPixels = 100  // the 40x30 canvas is refused in every frame
        var delivered = 0
        #expect(throws: RenderRefusal.self) {
            try FrameRenderer(timeline: timeline, backend: .cpu, budget: budget, workers: 2) {
                try SceneDecoder().decode(Self.moving)
            }.render { _, _ in delivered += 1 }
        }
        #expect(delivered == 0)
        // An error of the consumer stops the workers too.
        struct Enough: Error {}
        #expect(throws: Enough.self) {
            try FrameRenderer(timeline: timeline, backend: .cpu, workers: 2) { try SceneDecoder().decode(Self.moving) }
                .render { index, _ in if index == 3 { throw Enough() } }
        }
    }
}

@Suite("AnimationEncoder")
struct AnimationEncoderTests {
    /// Frames of a moving square, drawn on the CPU.
    static func frames(_ timeline: AnimationTimeline, width: Int = 40, height: Int = 30) throws -> [CGImage] {
        let scene = try SceneDecoder().decode(##"""
            {"width": \##(width), "height": \##(height), "backgroundColor": "#ffffff", "sublayers": [{"bounds": [0, 0, 10, 10],
             "position": [5, 15], "backgroundColor": "#cc3300", "animations": [{"keyPath": "position.x",
             "fromValue": 5, "toValue": 35, "duration": 1}]}]}
            """##)
        let renderer = try LayerRenderer(backend: .cpu)
        return try (0..<timeline.count).map { try renderer.render(scene, time: timeline.time(ofFrame: $0)) }
    }

    @Test func theSameBytesAsEachFormatsOwnEncoderWithTheTimelinesDelays() throws {
        // 7 fps: delays that do not divide a second evenly.
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 7)
        let images = try Self.frames(timeline)
        let apng = try AnimationEncoder(.apng, width: 40, height: 30, timeline: timeline, options: .init(loopCount: 2))
        var direct = try APNGEncoder(width: 40, height: 30, frameCount: timeline.count, loopCount: 2)
        let webp = try AnimationEncoder(.webp, width: 40, height: 30, timeline: timeline, options: .init(loopCount: 3, quality: 60))
        let directWebP = try WebPAnimationEncoder(width: 40, height: 30, loopCount: 3, quality: 60)
        for (i, image) in images.enumerated() {
            try apng.add(image)
            try direct.add(image, delay: timeline.delayFraction(ofFrame: i))
            try webp.add(image)
            try directWebP.add(image, durationMilliseconds: timeline.delayInMilliseconds(ofFrame: i))
        }
        #expect(apng.frameCount == 7)
        #expect(try apng.finish() == direct.finish())
        #expect(try webp.finish() == directWebP.finish())
    }

    @Test func framesThatDoNotMakeTheTimelineAreRefused() throws {
        let timeline = try AnimationTimeline(start: 0, end: 0.5, framesPerSecond: 4)
        let images = try Self.frames(timeline)
        let short = try AnimationEncoder(.apng, width: 40, height: 30, timeline: timeline)
        try short.add(images[0])
        #expect(throws: AnimationEncoderError("1 frames were added of the timeline's 2")) { try short.finish() }
        let long = try AnimationEncoder(.webp, width: 40, height: 30, timeline: timeline)
        try long.add(images[0])
        try long.add(images[1])
        #expect(throws: AnimationEncoderError("frame 2 is one more than the timeline's 2")) { try long.add(images[1]) }
    }

    @Test func eachFormatRefusesASizeItCannotHoldBeforeAnyFrame() throws {
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 1)
        #expect(throws: AnimationEncoderError("an animated WebP holds pictures up to 16383 pixels a side, not 16384x10")) {
            _ = try AnimationEncoder(.webp, width: 16384, height: 10, timeline: timeline)
        }
        #expect(throws: AnimationEncoderError("an MP4 (H.264) holds pictures up to 8192 pixels a side, not 10x8193")) {
            try AnimationEncoder.Format.mp4.check(width: 10, height: 8193)
        }
        try AnimationEncoder.Format.apng.check(width: 20000, height: 10)
        #expect(throws: AnimationEncoderError("an animated GIF holds pictures up to 65535 pixels a side, not 65536x10")) {
            try AnimationEncoder.Format.gif.check(width: 65536, height: 10)
        }
        #expect(AnimationEncoder.Format.allCases.map(\.mediaType) == ["image/apng", "image/webp", "image/gif", "video/mp4"])
    }
}

@Suite("Video", .enabled(if: VideoEncoder.ffmpeg != nil, "ffmpeg is not installed (scripts/setup/install-packages.sh installs it)"))
struct VideoTests {
    @Test func anMP4DecodesBackToTheFramesWithinH264sLoss() throws {
        let scene = try SceneDecoder().decode(##"""
            {"width": 41, "height": 31, "backgroundColor": "#ffffff", "sublayers": [{"bounds": [0, 0, 12, 12],
             "position": [6, 15], "backgroundColor": "#3366cc", "animations": [{"keyPath": "position.x",
             "fromValue": 6, "toValue": 35, "duration": 1}]}]}
            """##)
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 10)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-video-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("move.mp4").path
        let video = try VideoEncoder(path: path, width: 41, height: 31, framesPerSecond: 10)
        let renderer = try LayerRenderer(backend: .cpu)
        var singles: [CGImage] = []
        for i in 0..<timeline.count {
            let image = try renderer.render(scene, time: timeline.time(ofFrame: i))
            singles.append(image)
            try video.add(image)
        }
        try video.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["move.mp4"])
        // Decoded by ffmpeg: 10 frames of 42x32 (odd sides padded), each
        // within H.264's loss of the render (mean error under 3 levels).
        let decode = Process()
        decode.executableURL = URL(fileURLWithPath: try #require(VideoEncoder.ffmpeg))
        decode.arguments = ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        let out = Pipe()
        decode.standardOutput = out
        try decode.run()
        let raw = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        decode.waitUntilExit()
        #expect(raw.count == 10 * 42 * 32 * 4)
        for (i, single) in singles.enumerated() where raw.count == 10 * 42 * 32 * 4 {
            var error = 0
            for y in 0..<31 {
                for x in 0..<41 {
                    for c in 0..<3 { error += abs(Int(raw[((i * 32 + y) * 42 + x) * 4 + c]) - Int(single.pixelBytes[(y * 41 + x) * 4 + c])) }
                }
            }
            #expect(Double(error) / Double(41 * 31 * 3) < 3, "frame \(i): mean error \(Double(error) / Double(41 * 31 * 3))")
        }
    }

    @Test func anAnimationEncoderMakesTheVideoEncodersFileInMemoryAndLeavesNoFileBehind() throws {
        let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 10)
        let images = try AnimationEncoderTests.frames(timeline)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-video-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("direct.mp4").path
        let direct = try VideoEncoder(path: path, width: 40, height: 30, framesPerSecond: 10)
        // A folder of its own: other tests make videos at the same time.
        let scratch = directory.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let leftovers = { try FileManager.default.contentsOfDirectory(atPath: scratch.path) }
        let encoder = try AnimationEncoder(.mp4, width: 40, height: 30, timeline: timeline, temporaryDirectory: scratch.path)
        for image in images {
            try direct.add(image)
            try encoder.add(image)
        }
        try direct.finish()
        let bytes = try encoder.finish()
        #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(bytes[4..<8] == [UInt8]("ftyp".utf8)[...])
        #expect(try leftovers() == [])
        // Abandoned half way: ffmpeg is stopped and its file removed.
        do {
            let abandoned = try AnimationEncoder(.mp4, width: 40, height: 30, timeline: timeline, temporaryDirectory: scratch.path)
            try abandoned.add(images[0])
        }
        #expect(try leftovers() == [])
    }
}

/// A reader of the animated PNGs `APNGEncoder` writes (whole-canvas frames):
/// each frame's data rewrapped as a plain PNG and decoded.
private struct APNGFrames {
    var loopCount: UInt32 = 0
    var images: [CGImage] = []
    var delays: [(UInt16, UInt16)] = []
    var sequenceNumbers: [UInt32] = []

    init(_ bytes: [UInt8]) throws {
        func u32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
        var ihdr: [UInt8] = []
        var current: [UInt8]?
        func flush() throws {
            guard let data = current else { return }
            images.append(try PNGDecoder().decode(Self.png(ihdr: ihdr, idat: data)))
            current = nil
        }
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(u32(offset)), type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            switch type {
            case "IHDR": ihdr = Array(bytes[body..<body + length])
            case "acTL": loopCount = u32(body + 4)
            case "fcTL":
                try flush()
                sequenceNumbers.append(u32(body))
                delays.append((u16(body + 20), u16(body + 22)))
                current = []
            case "IDAT": current? += bytes[body..<body + length]
            case "fdAT":
                sequenceNumbers.append(u32(body))
                current? += bytes[body + 4..<body + length]
            default: break
            }
            offset = body + length + 4
        }
        try flush()
    }

    static func png(ihdr: [UInt8], idat: [UInt8]) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let t = Array(type.utf8)
            return be(UInt32(data.count)) + t + data + be(crc(t + data))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}

import Foundation
import LaminaCore
import LaminaIO

/// H.264 video in an MP4 file, made by the `ffmpeg` program (Debian's
/// `ffmpeg` package) fed raw frames on a pipe.
///
/// Frames go to ffmpeg as they come (it holds only what x264 looks ahead
/// over), premultiplied: a video has no alpha, and dropping the alpha of a
/// premultiplied picture is showing it over black. A side of odd length is
/// padded by one black row or column (H.264's 4:2:0 needs even sides). The
/// file appears at its path only when ffmpeg has finished it. ffmpeg's
/// output is bit-exact for the same frames (`+bitexact`, one thread).
///
/// ```swift
/// var video = try VideoEncoder(path: "spin.mp4", width: 600, height: 400, framesPerSecond: 30)
/// for image in frames { try video.add(image) }
/// try video.finish()
/// ```
public final class VideoEncoder {
    /// Each frame's width in pixels.
    public let width: Int
    /// Each frame's height in pixels.
    public let height: Int
    private let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let path: String
    private let temporary: String
    private var finished = false

    /// The program this encoder runs, found on `PATH`; nil when missing.
    public static var ffmpeg: String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts ffmpeg writing `path`.
    /// - Parameters:
    ///   - path: the MP4 file to write.
    ///   - width: each frame's width in pixels (H.264 needs it even).
    ///   - height: each frame's height in pixels (even, too).
    ///   - framesPerSecond: the video's frame rate.
    ///   - quality: x264's constant rate factor, 0 (lossless) to 51;
    ///     18 is visually lossless.
    /// - Throws: `VideoError` when ffmpeg is missing or cannot start;
    ///   `IOError` when `path` cannot be written.
    public init(path: String, width: Int, height: Int, framesPerSecond: Double, quality: Int = 18) throws {
        guard let ffmpeg = Self.ffmpeg else {
            throw VideoError("writing MP4 needs the ffmpeg program, which is not installed (Debian: apt-get install ffmpeg)")
        }
        guard width > 0, height > 0, width <= 8192, height <= 8192 else {
            throw VideoError("a \(width)x\(height) video is larger than H.264 levels allow (8192 a side)")
        }
        self.width = width
        self.height = height
        self.path = path
        temporary = try FileIO.temporaryPath(beside: path, suffix: ".mp4")
        // A closed pipe (ffmpeg gone) is an error from write, not a signal
        // that ends the process.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
            "-framerate", Self.rational(framesPerSecond), "-i", "pipe:0",
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
            "-c:v", "libx264", "-preset", "medium", "-crf", String(max(0, min(51, quality))), "-pix_fmt", "yuv420p",
            "-threads", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-movflags", "+faststart",
            "-f", "mp4", temporary,
        ]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw VideoError("ffmpeg could not start: \(error.localizedDescription)")
        }
    }

    deinit {
        if !finished {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
            unlink(temporary)
        }
    }

    /// Sends the next frame.
    /// - Throws: `VideoError` for a frame of another size, or when ffmpeg
    ///   stopped (with what it said).
    public func add(_ image: CGImage) throws {
        guard image.width == width, image.height == height else {
            throw VideoError("a frame is \(image.width)x\(image.height), not \(width)x\(height)")
        }
        do {
            try FileIO.writeStream(image.pixelBytes, to: input.fileHandleForWriting.fileDescriptor, name: "ffmpeg")
        } catch {
            throw VideoError("ffmpeg stopped taking frames: \(stopReason())")
        }
    }

    /// Waits for ffmpeg to finish the file and moves it into place.
    public func finish() throws {
        finished = true
        try? input.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            unlink(temporary)
            throw VideoError("ffmpeg failed (status \(process.terminationStatus)): \(said.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        try FileIO.moveIntoPlace(temporary, toPath: path)
    }

    private func stopReason() -> String {
        try? input.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        finished = true
        unlink(temporary)
        return said.isEmpty ? "status \(process.terminationStatus)" : said.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A frame rate as ffmpeg reads it: whole rates as they are, others as
    /// a fraction over 1001 or 1000.
    static func rational(_ fps: Double) -> String {
        if fps == fps.rounded() { return String(Int(fps)) }
        let ntsc = fps * 1001
        if abs(ntsc - ntsc.rounded()) < 1e-6 { return "\(Int(ntsc.rounded()))/1001" }
        return "\(Int((fps * 1000).rounded()))/1000"
    }
}

/// A video could not be made, in words for a person.
public struct VideoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words for a message.
    public var description: String
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
}

import Foundation

/// Turns a `DrawingRecording` into pixels. LaminaCore cannot import a
/// backend, so a backend (the CPU rasterizer) conforms to this protocol and
/// installs itself with `CGContextRasterizerRegistry.install(_:)`.
public protocol CGContextRasterizer: Sendable {
    /// The image the recording stands for: `recording.width` x
    /// `recording.height` pixels, starting transparent; nil when it cannot be
    /// made (for example, too large).
    func makeImage(from recording: DrawingRecording) -> CGImage?
}

/// The rasterizer that `CGContext.makeImage()` and
/// `CABackingStore.makeImage()` use, shared by the whole process.
public enum CGContextRasterizerRegistry {
    private static let installed = Locked<(any CGContextRasterizer)?>(nil)

    /// The installed rasterizer, or nil.
    public static var current: (any CGContextRasterizer)? {
        installed.withLock { $0 }
    }

    /// Installs `rasterizer` (nil removes it). Thread-safe; the last call wins.
    public static func install(_ rasterizer: (any CGContextRasterizer)?) {
        installed.withLock { $0 = rasterizer }
    }

    /// Installs the rasterizer `make` returns unless one is installed
    /// already, in one step, so concurrent callers install once and never
    /// replace another backend's. Returns whether it installed.
    @discardableResult
    public static func installIfAbsent(_ make: () -> any CGContextRasterizer) -> Bool {
        installed.withLock {
            guard $0 == nil else { return false }
            $0 = make()
            return true
        }
    }
}

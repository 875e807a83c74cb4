import Foundation
import LaminaCore
import LaminaRaster

extension CGImage {
    /// The image averaged down by a whole factor so that neither side is
    /// over `side` pixels (`BoxDownscale`), or the image itself when it
    /// already fits.
    func downscaled(toFit side: Int) -> CGImage {
        guard let smaller = BoxDownscale.pixels(pixelBytes, width: width, height: height, toFit: side) else { return self }
        // Averages of premultiplied pixels are premultiplied: never fails.
        return (try? CGImage(width: smaller.width, height: smaller.height, premultipliedRGBA: smaller.pixels)) ?? self
    }
}

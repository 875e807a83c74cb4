import Foundation
import LaminaRaster

/// One replay of a `DrawingRecording` into a pixmap: the commands in order,
/// each painted under its own clip, with the clip mask and the images'
/// pixmaps kept while consecutive commands share them.
struct RecordingReplay {
    private(set) var pixmap: Pixmap
    private let space: DeviceSpace
    /// The clip of the last command and its mask (nil: no clipping).
    private var lastClip: (clip: DrawingClip, mask: CoverageMask?)?
    /// Images already converted in this replay, by identity.
    private var imagePixmaps: [ObjectIdentifier: Pixmap] = [:]

    /// A transparent pixmap of the recording's size.
    init(width: Int, height: Int, tolerance: CGFloat) throws {
        pixmap = try Pixmap(width: width, height: height)
        space = DeviceSpace(height: height, tolerance: tolerance)
    }

    /// Paints command `index`, naming it (and the clip region, when that is
    /// what failed) in any error.
    mutating func run(_ command: DrawingCommand, index: Int) throws {
        let clip = try clipMask(for: command.clip, commandIndex: index)
        // A clip that leaves nothing needs no painting.
        let area = clip?.bounds ?? pixmap.bounds
        guard !area.isEmpty else { return }
        do {
            switch command {
            case .fill(let fill):
                let mask = try coverage(
                    space.fillContours(of: fill.path), rule: FillRule(fill.rule), antialias: fill.antialias, within: area)
                try pixmap.fill(mask, with: PremultipliedColor(fill.color), clip: clip)
            case .stroke(let stroke):
                let mask = try coverage(
                    space.strokeContours(of: stroke), rule: .nonZero, antialias: stroke.antialias, within: area)
                try pixmap.fill(mask, with: PremultipliedColor(stroke.color), clip: clip)
            case .image(let image):
                try draw(image, clip: clip)
            case .clear(let clear):
                let mask = try coverage(space.fillContours(of: clear.path), rule: .nonZero, antialias: true, within: area)
                pixmap.erase(mask, clip: clip)
            }
        } catch let error as RasterError {
            throw RecordingReplayError(commandIndex: index, part: command.kind, underlying: error)
        }
    }

    /// The anti-aliased (or thresholded) coverage of contours in pixels,
    /// computed only over `area`.
    private func coverage(
        _ contours: [[CGPoint]], rule: FillRule, antialias: Bool, within area: PixelRect
    ) throws -> CoverageMask {
        let mask = try CoverageRasterizer(clip: area).rasterize(contours: contours, fillRule: rule)
        return antialias ? mask : mask.aliased
    }

    /// The mask of `clip`, or nil for no clipping. Consecutive commands
    /// nearly always share their clip, so the last mask is kept. Each region
    /// is rasterized only where the regions before it left something.
    private mutating func clipMask(for clip: DrawingClip, commandIndex: Int) throws -> CoverageMask? {
        if let lastClip, lastClip.clip == clip { return lastClip.mask }
        var mask: CoverageMask?
        for (i, region) in clip.regions.enumerated() {
            do {
                let regionMask = try coverage(
                    space.fillContours(of: region.path), rule: FillRule(region.rule), antialias: true,
                    within: mask?.bounds ?? pixmap.bounds)
                mask = mask.map { $0.intersected(with: regionMask) } ?? regionMask
            } catch let error as RasterError {
                throw RecordingReplayError(commandIndex: commandIndex, part: "clip region \(i)", underlying: error)
            }
        }
        lastClip = (clip, mask)
        return mask
    }

    /// Paints an image through the map from its pixels to the bitmap's:
    /// `pixelTransform` (image pixels, top row first, to device space) and
    /// then the flip to pixmap rows. Drawn into a y-up context the image is
    /// upright; drawn into one flipped to y down (a layer's, on iOS) it is
    /// upside down, as `CGContextDrawImage` draws it there.
    private mutating func draw(_ command: ImageCommand, clip: CoverageMask?) throws {
        let image = command.image
        let key = ObjectIdentifier(image)
        let texture: Pixmap
        if let cached = imagePixmaps[key] {
            texture = cached
        } else {
            texture = try Pixmap(image)
            imagePixmaps[key] = texture
        }
        let imageRect = CGRect(x: 0, y: 0, width: image.width, height: image.height)
        var draw = PolygonPaint(
            rect: imageRect, transform: CATransform3DMakeAffineTransform(command.pixelTransform.concatenating(space.toPixels)),
            source: .texture(MappedTexture(
                pixmap: texture, localRect: imageRect,
                filter: command.interpolationQuality == .none ? .nearest : .linear)))
        draw.alpha = Double(command.alpha)
        draw.clipMask = clip
        try pixmap.draw(draw)
    }
}

extension DrawingCommand {
    /// The clip the command was recorded under.
    var clip: DrawingClip {
        switch self {
        case .fill(let c): c.clip
        case .stroke(let c): c.clip
        case .image(let c): c.clip
        case .clear(let c): c.clip
        }
    }

    /// The command's name in errors.
    var kind: String {
        switch self {
        case .fill: "fill"
        case .stroke: "stroke"
        case .image: "image"
        case .clear: "clear"
        }
    }
}

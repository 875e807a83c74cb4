import Foundation
import LaminaCore

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

    /// Paints command `index`, naming it in any error.
    mutating func run(_ command: DrawingCommand, index: Int) throws {
        var part = command.kind
        do {
            switch command {
            case .fill(let fill):
                let clip = try clipMask(for: fill.clip, part: &part)
                part = "fill"
                let mask = try coverage(space.fillContours(of: fill.path), rule: FillRule(fill.rule), antialias: fill.antialias)
                try pixmap.fill(mask, with: PremultipliedColor(fill.color), clip: clip)
            case .stroke(let stroke):
                let clip = try clipMask(for: stroke.clip, part: &part)
                part = "stroke"
                let mask = try coverage(space.strokeContours(of: stroke), rule: .nonZero, antialias: stroke.antialias)
                try pixmap.fill(mask, with: PremultipliedColor(stroke.color), clip: clip)
            case .image(let image):
                let clip = try clipMask(for: image.clip, part: &part)
                part = "image"
                try draw(image, clip: clip)
            case .clear(let clear):
                let clip = try clipMask(for: clear.clip, part: &part)
                part = "clear"
                pixmap.erase(try coverage(space.fillContours(of: clear.path), rule: .nonZero, antialias: true), clip: clip)
            }
        } catch let error as CPURenderError {
            throw RecordingReplayError(commandIndex: index, part: part, underlying: error)
        }
    }

    /// The anti-aliased (or thresholded) coverage of contours in pixels.
    private func coverage(_ contours: [[CGPoint]], rule: FillRule, antialias: Bool) throws -> CoverageMask {
        let mask = try CoverageRasterizer(clip: pixmap.bounds).rasterize(contours: contours, fillRule: rule)
        return antialias ? mask : mask.aliased
    }

    /// The mask of `clip`, or nil for no clipping. Consecutive commands
    /// nearly always share their clip, so the last mask is kept. `part`
    /// names the region being rasterized, for errors.
    private mutating func clipMask(for clip: DrawingClip, part: inout String) throws -> CoverageMask? {
        if let lastClip, lastClip.clip == clip { return lastClip.mask }
        var mask: CoverageMask?
        for (i, region) in clip.regions.enumerated() {
            part = "clip region \(i)"
            let regionMask = try coverage(space.fillContours(of: region.path), rule: FillRule(region.rule), antialias: true)
            mask = mask.map { $0.intersected(with: regionMask) } ?? regionMask
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
        var draw = PolygonDraw(
            rect: imageRect, transform: Matrix4x4(command.pixelTransform.concatenating(space.toPixels)),
            source: .texture(TextureSource(
                pixmap: texture, localRect: imageRect,
                filter: command.interpolationQuality == .none ? .nearest : .bilinear)))
        draw.alpha = Double(command.alpha)
        draw.clipMask = clip
        try pixmap.draw(draw)
    }
}

extension DrawingCommand {
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

extension PremultipliedColor {
    /// A `CGColor`'s straight components, premultiplied to bytes.
    init(_ color: CGColor) {
        self.init(
            red: Double(color.red), green: Double(color.green), blue: Double(color.blue), alpha: Double(color.alpha))
    }
}

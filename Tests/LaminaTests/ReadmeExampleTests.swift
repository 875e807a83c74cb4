import Testing
import Lamina  // and nothing else: Lamina brings Foundation's CGRect, as QuartzCore does

/// The README's opening example, as written there, so it keeps compiling and
/// drawing what it says.
@Test func readmeExampleDrawsARotatedFace() throws {
    let container = CALayer()
    container.frame = CGRect(x: 0, y: 0, width: 500, height: 300)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    container.sublayerTransform = perspective

    let face = CALayer()
    face.frame = CGRect(x: 175, y: 75, width: 150, height: 150)
    face.backgroundColor = UIColor.red.cgColor
    face.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
    container.addSublayer(face)

    let renderer = try LayerRenderer(backend: .gl)
    let image = try renderer.render(container, canvas: RenderCanvas(width: 500, height: 300, scale: 2))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-readme-\(UUID()).png").path
    try image.writePNG(toFile: path)
    defer { try? FileManager.default.removeItem(atPath: path) }

    #expect(image.width == 1000 && image.height == 600)
    // The face's centre is red; its turned-away right edge is shorter than 300 px.
    #expect(image.pixel(x: 500, y: 300) == CGImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
    let decoded = try PNGDecoder().decode(contentsOfFile: path)
    #expect(decoded == image)
}

/// `import Lamina` exposes one `PolygonDraw`, `TextureSource` and
/// `TextureFilter` (the render plan's): the CPU backend's own painting types
/// are internal, so these names are not ambiguous (they were).
@Test func planTypesAreNotAmbiguous() {
    let filter: TextureFilter = .linear
    let source: TextureSource = .image(ImageID(0))
    let draw = PolygonDraw(matrix: CATransform3DIdentity, polygon: [], fill: .color(.white))
    #expect(filter.rawValue == "linear" && source == .image(ImageID(0)) && draw.opacity == 1)
}

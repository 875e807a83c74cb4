import Lamina

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

let renderer = try LayerRenderer.choosing(.auto)   // GL on a GPU, else the CPU
let image = try renderer.render(container, canvas: RenderCanvas(width: 500, height: 300, scale: 2))
try image.writePNG(toFile: "perspective.png")
let json = Data("""
    {"width": 200, "height": 120, "backgroundColor": "#ffffff", "sublayers": [
      {"bounds": [0, 0, 120, 60], "position": [100, 60], "backgroundColor": "#3366cc", "cornerRadius": 12}
    ]}
    """.utf8)
let card = try SceneDecoder().decode(json)
try renderer.render(card).writePNG(toFile: "card.png")
let timeline = try AnimationTimeline(start: 0, end: 1, framesPerSecond: 10)
let frames = FrameRenderer(timeline: timeline, backend: .cpu) {
    let scene = try SceneDecoder().decode(json)
    let spin = CABasicAnimation(keyPath: "transform.rotation.z")
    spin.fromValue = 0
    spin.toValue = Double.pi
    spin.duration = 1
    scene.rootLayer.sublayers?.first?.add(spin, forKey: "spin")
    return scene
}
let encoder = try AnimationEncoder(.apng, width: 200, height: 120, timeline: timeline)
try frames.render { _, image in try encoder.add(image) }
try encoder.finish(writingTo: "spin.png")

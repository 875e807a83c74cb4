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

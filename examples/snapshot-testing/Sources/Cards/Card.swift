import Lamina

/// A profile card: a rounded panel with a shadow, a gradient banner, an
/// avatar circle and a name, as a layer tree of 320 x 200 points.
///
/// ```swift
/// let card = makeCard(name: "Ada Lovelace")
/// ```
public func makeCard(name: String, accent: CGColor = CGColor(red: 0.16, green: 0.45, blue: 0.95, alpha: 1)) -> CALayer {
    let card = CALayer()
    card.bounds = CGRect(x: 0, y: 0, width: 320, height: 200)
    card.backgroundColor = CGColor(red: 0.98, green: 0.98, blue: 0.99, alpha: 1)
    card.cornerRadius = 18
    card.masksToBounds = true

    let banner = CAGradientLayer()
    banner.frame = CGRect(x: 0, y: 0, width: 320, height: 80)
    banner.colors = [accent, CGColor(red: 0.55, green: 0.3, blue: 0.95, alpha: 1)]
    banner.startPoint = CGPoint(x: 0, y: 0.5)
    banner.endPoint = CGPoint(x: 1, y: 0.5)
    card.addSublayer(banner)

    let avatar = CAShapeLayer()
    avatar.frame = CGRect(x: 24, y: 44, width: 72, height: 72)
    avatar.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 72, height: 72), transform: nil)
    avatar.fillColor = CGColor(red: 1, green: 0.8, blue: 0.35, alpha: 1)
    avatar.strokeColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    avatar.lineWidth = 4
    card.addSublayer(avatar)

    let title = CATextLayer()
    title.frame = CGRect(x: 24, y: 128, width: 272, height: 36)
    title.string = name
    title.fontSize = 24
    title.foregroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)
    title.contentsScale = 2
    card.addSublayer(title)
    return card
}

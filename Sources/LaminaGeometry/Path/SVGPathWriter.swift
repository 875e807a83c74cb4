import Foundation

extension PathData {
    /// The path as SVG path data with absolute commands (`M L Q C Z`), which
    /// `init(svgPathData:)` reads back to the same elements. Numbers are
    /// written in the shortest form that reads back to the same value.
    public var svgPathData: String {
        var parts: [String] = []
        parts.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .moveTo(let p): parts.append("M \(Self.format(p))")
            case .lineTo(let p): parts.append("L \(Self.format(p))")
            case .quadCurveTo(let c, let p): parts.append("Q \(Self.format(c)) \(Self.format(p))")
            case .curveTo(let c1, let c2, let p):
                parts.append("C \(Self.format(c1)) \(Self.format(c2)) \(Self.format(p))")
            case .closeSubpath: parts.append("Z")
            }
        }
        return parts.joined(separator: " ")
    }

    private static func format(_ p: CGPoint) -> String {
        "\(format(p.x)) \(format(p.y))"
    }

    /// The shortest text that reads back as `v`: integers without ".0",
    /// never "-0". Values that are not finite cannot be written as SVG and
    /// come out as Swift spells them ("nan", "inf"), which the reader rejects.
    static func format(_ v: CGFloat) -> String {
        if v == 0 { return "0" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(Double(v))"
    }
}

extension CGPath {
    /// The path as SVG path data; see `PathData.svgPathData`.
    public var svgPathData: String { pathData.svgPathData }
}

import Foundation

extension PathData {
    /// Reads SVG path data (the `d` attribute, SVG 1.1 and 2 grammar): every
    /// command `M m L l H h V v C c S s Q q T t A a Z z`, implicitly repeated
    /// commands (extra pairs after `M` are lines), numbers such as `1e-3`,
    /// `.5.5` (two numbers) and `-1-2`, and arc flags written without
    /// separators (`a1 1 0 00 1 1`).
    ///
    /// Arcs follow the SVG implementation notes: radii too small to reach
    /// the end point are scaled up, a zero radius gives a straight line, an
    /// arc to its own start point is left out; they are stored as cubic
    /// Béziers of at most 90°. Empty data gives an empty path.
    ///
    /// - Throws: `SVGPathError` at the first character that does not fit,
    ///   saying what was expected; nothing is returned from bad data.
    public init(svgPathData: String) throws {
        var parser = SVGPathParser(svgPathData)
        self = try parser.parse()
    }
}

extension CGPath {
    /// A path read from SVG path data; see `PathData.init(svgPathData:)`.
    public convenience init(svgPathData: String) throws {
        self.init(try PathData(svgPathData: svgPathData))
    }
}

/// A recursive-descent reader of SVG path data over its UTF-8 bytes.
struct SVGPathParser {
    private let bytes: [UInt8]
    private var index = 0
    private var path = PathData()

    /// The current point, as SVG defines it (the origin before any command).
    private var current = CGPoint.zero
    /// The first point of the current subpath, where `Z` returns to.
    private var subpathStart = CGPoint.zero
    /// The second control point of the previous `C`/`S`, for `S`.
    private var lastCubicControl: CGPoint?
    /// The control point of the previous `Q`/`T`, for `T`.
    private var lastQuadControl: CGPoint?

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    mutating func parse() throws -> PathData {
        skipWhitespace()
        guard index < bytes.count else { return path }
        guard bytes[index] == UInt8(ascii: "M") || bytes[index] == UInt8(ascii: "m") else {
            throw error("expected a moveto command (M or m)")
        }
        var command: UInt8 = 0
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if Self.commandLetters.contains(byte) {
                command = byte
                index += 1
                try run(command, repeated: false)
            } else if Self.startsNumber(byte), command != 0,
                      command != UInt8(ascii: "Z"), command != UInt8(ascii: "z") {
                try run(command, repeated: true)
            } else {
                throw error("expected a path command letter")
            }
        }
        return path
    }

    private static let commandLetters = Set("MmLlHhVvCcSsQqTtAaZz".utf8)

    /// Runs one command with its arguments; `repeated` when its letter was
    /// left out because it repeats the previous one.
    private mutating func run(_ command: UInt8, repeated: Bool) throws {
        let relative = command >= UInt8(ascii: "a")
        let base = relative ? current : .zero
        var cubicControl: CGPoint?, quadControl: CGPoint?
        switch command | 0x20 {  // lowercased
        case UInt8(ascii: "m"):
            let p = try point(base)
            if repeated {
                // Extra pairs after a moveto are implicit linetos.
                path.addLine(to: p)
            } else {
                path.move(to: p)
                subpathStart = p
            }
            current = p
        case UInt8(ascii: "l"):
            current = try point(base)
            path.addLine(to: current)
        case UInt8(ascii: "h"):
            current = CGPoint(x: try number() + base.x, y: current.y)
            path.addLine(to: current)
        case UInt8(ascii: "v"):
            current = CGPoint(x: current.x, y: try number() + base.y)
            path.addLine(to: current)
        case UInt8(ascii: "c"):
            let c1 = try point(base), c2 = try point(base), p = try point(base)
            path.addCurve(to: p, control1: c1, control2: c2)
            cubicControl = c2
            current = p
        case UInt8(ascii: "s"):
            // The first control mirrors the previous cubic's second one.
            let c1 = lastCubicControl.map { current * 2 - $0 } ?? current
            let c2 = try point(base), p = try point(base)
            path.addCurve(to: p, control1: c1, control2: c2)
            cubicControl = c2
            current = p
        case UInt8(ascii: "q"):
            let c = try point(base), p = try point(base)
            path.addQuadCurve(to: p, control: c)
            quadControl = c
            current = p
        case UInt8(ascii: "t"):
            let c = lastQuadControl.map { current * 2 - $0 } ?? current
            let p = try point(base)
            path.addQuadCurve(to: p, control: c)
            quadControl = c
            current = p
        case UInt8(ascii: "a"):
            let rx = try number(), ry = try number(), rotation = try number()
            let largeArc = try flag(), sweep = try flag()
            let p = try point(base)
            path.addSVGArc(
                from: current, to: p, radiusX: rx, radiusY: ry, rotationDegrees: rotation,
                largeArc: largeArc, sweep: sweep)
            current = p
        default:  // z
            path.closeSubpath()
            current = subpathStart
        }
        lastCubicControl = cubicControl
        lastQuadControl = quadControl
    }

    // MARK: Tokens

    /// Reads an x, y pair and adds `base` to it.
    private mutating func point(_ base: CGPoint) throws -> CGPoint {
        let x = try number()
        let y = try number()
        return CGPoint(x: x + base.x, y: y + base.y)
    }

    /// Reads a number and the comma or white space after it.
    private mutating func number() throws -> CGFloat {
        skipWhitespace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        let integerDigits = skipDigits()
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = skipDigits()
        }
        guard integerDigits + fractionDigits > 0 else {
            index = start
            throw error("expected a number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard skipDigits() > 0 else { throw error("expected the digits of an exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number \(text) is out of range", namingWhatIsFound: false)
        }
        skipCommaWhitespace()
        return CGFloat(value)
    }

    /// Reads an arc flag, a lone `0` or `1` that needs no separator after it.
    private mutating func flag() throws -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw error("expected an arc flag (0 or 1)")
        }
        let value = bytes[index] == UInt8(ascii: "1")
        index += 1
        skipCommaWhitespace()
        return value
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index - start
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Skips white space with at most one comma in it.
    private mutating func skipCommaWhitespace() {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
        }
    }

    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    private static func startsNumber(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
    }

    /// An error at the current position, by default naming what was found
    /// there after what was expected.
    private func error(_ expected: String, namingWhatIsFound: Bool = true) -> SVGPathError {
        // Every byte accepted before an error is ASCII, so the byte offset is
        // also the character offset.
        let offset = index
        guard namingWhatIsFound else { return SVGPathError(offset: offset, message: expected) }
        guard index < bytes.count else {
            return SVGPathError(offset: offset, message: "\(expected), found the end of the data")
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        let found = rest.first.map { "'\($0)'" } ?? "the end of the data"
        return SVGPathError(offset: offset, message: "\(expected), found \(found)")
    }
}

extension PathData {
    /// Adds an SVG elliptical arc from `start` (the current point) to `end`,
    /// converting SVG's end-point form to a centre and angles as the SVG
    /// implementation notes (F.6.5, F.6.6) prescribe.
    mutating func addSVGArc(
        from start: CGPoint, to end: CGPoint, radiusX: CGFloat, radiusY: CGFloat,
        rotationDegrees: CGFloat, largeArc: Bool, sweep: Bool
    ) {
        guard start != end else { return }  // "as if the arc were omitted"
        var rx = abs(radiusX), ry = abs(radiusY)
        guard rx > 0, ry > 0 else {
            addLine(to: end)
            return
        }
        let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        // The half chord in the ellipse's own axes.
        let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        // Radii too small to span the chord grow just enough to do it.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s; ry *= s
        }
        let numerator = max(rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1, 0)
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = denominator > 0 ? (numerator / denominator).squareRoot() : 0
        if largeArc == sweep { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry
        let cy1 = -coefficient * ry * x1 / rx
        let center = CGPoint(
            x: cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2,
            y: sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2)
        // Angles on the unit circle that the ellipse is mapped from.
        let theta1 = atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
        let theta2 = atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx)
        var delta = theta2 - theta1
        if sweep && delta < 0 { delta += 2 * .pi }
        if !sweep && delta > 0 { delta -= 2 * .pi }
        guard center.x.isFinite, center.y.isFinite, delta.isFinite else {
            addLine(to: end)
            return
        }
        let mapping = CGAffineTransform(
            a: rx * cosPhi, b: rx * sinPhi, c: -ry * sinPhi, d: ry * cosPhi, tx: center.x, ty: center.y)
        appendUnitArc(startAngle: theta1, sweep: delta, mapping: mapping, end: end)
    }
}

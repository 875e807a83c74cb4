import Foundation
import LaminaJSON

// Paths: SVG path data, or an array of operations each named by its first
// element, built exactly as the matching CGPath / UIBezierPath call.
extension DecodingContext {
    /// The operations of the array form, with their arguments (for messages).
    static let pathOperations: [(name: String, form: String)] = [
        ("moveTo", "x, y"), ("lineTo", "x, y"), ("quadTo", "cx, cy, x, y"),
        ("curveTo", "c1x, c1y, c2x, c2y, x, y"), ("arc", "cx, cy, r, start, end, clockwise"),
        ("close", ""), ("rect", "x, y, w, h"), ("ellipse", "x, y, w, h"),
        ("roundedRect", "x, y, w, h, radius"), ("roundedRectCorners", "x, y, w, h, rx, ry, corners"),
    ]

    static let cornerNames = ["topLeft", "topRight", "bottomLeft", "bottomRight"]

    func path(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> CGPath? {
        let data: PathData
        switch value.kind {
        case .string(let svg):
            do {
                data = try PathData(svgPathData: svg)
            } catch let error as SVGPathError {
                try report(.invalidValue, value, at: path,
                           "invalid SVG path data at character \(error.offset): \(error.message)")
                return nil
            } catch {
                try report(.invalidValue, value, at: path, "invalid SVG path data: \(error)")
                return nil
            }
        case .array(let operations):
            guard operations.count <= limits.pathElements else {
                throw fatal(.limitExceeded, at: path, value.position,
                            "the path has \(operations.count) operations, over the limit of \(limits.pathElements) elements")
            }
            guard let built = try pathFromOperations(operations, at: path) else { return nil }
            data = built
        default:
            try wrongType(value, at: path, expected: "a path (SVG path data or an array of operations)")
            return nil
        }
        try countPathElements(data.elements.count, value, at: path)
        return CGPath(data)
    }

    private func countPathElements(_ count: Int, _ value: JSONValue, at path: JSONPath) throws(SceneError) {
        guard count <= limits.pathElements else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the path has \(count) elements, over the limit of \(limits.pathElements)")
        }
        pathElementCount += count
        guard pathElementCount <= limits.totalPathElements else {
            throw fatal(.limitExceeded, at: path, value.position,
                        "the scene's paths have more than \(limits.totalPathElements) elements in all (the limit)")
        }
    }

    private func pathFromOperations(_ operations: JSONArray, at path: JSONPath) throws(SceneError) -> PathData? {
        let bezier = UIBezierPath()
        var ok = true
        for (k, operation) in operations.enumerated() {
            if try !appendOperation(operation, index: k, of: path, to: bezier) { ok = false }
        }
        return ok ? bezier.pathData : nil
    }

    /// Each operation's arguments and how many of them lead as numbers,
    /// from its form in `pathOperations`: looked up, not worked out, for
    /// each of a path's thousands of operations.
    private static let operationShapes: [String: (index: Int, arguments: Int, numbers: Int)] = Dictionary(
        uniqueKeysWithValues: pathOperations.enumerated().map { i, operation in
            let arguments = operation.form.isEmpty ? 0 : operation.form.split(separator: ",").count
            let numbers = operation.name == "arc" ? 5 : operation.name == "roundedRectCorners" ? 6 : arguments
            return (operation.name, (i, arguments, numbers))
        })

    /// Appends operation `k` of the path at `path`; false (after reporting)
    /// when it is wrong. Locations are only made for messages.
    private func appendOperation(
        _ operation: JSONValue, index k: Int, of pathLocation: JSONPath, to bezier: UIBezierPath
    ) throws(SceneError) -> Bool {
        var path: JSONPath { pathLocation / k }
        guard let items = operation.array, let first = items.first else {
            try wrongType(operation, at: path, expected: "a path operation such as [\"lineTo\", x, y]")
            return false
        }
        guard let name = first.string else {
            let names = Self.pathOperations.map(\.name)
            try report(.wrongType, first, at: path / 0,
                       "expected the name of a path operation (\(Self.list(names))), found \(first.typeDescription)")
            return false
        }
        guard let shape = Self.operationShapes[name] else {
            let names = Self.pathOperations.map(\.name)
            try report(.unknownName, first, at: path / 0,
                       "unknown path operation \(JSONWriter.quoted(name)); expected one of \(Self.list(names))"
                        + Suggestion.didYouMean(name, in: names, asValue: true))
            return false
        }
        guard items.count == shape.arguments + 1 else {
            let form = Self.pathOperations[shape.index].form
            let shapeText = "[" + ([JSONWriter.quoted(name)] + (form.isEmpty ? [] : [form])).joined(separator: ", ") + "]"
            try report(.wrongType, operation, at: path,
                       "expected \(shapeText) (\(shape.arguments + 1) elements), found \(items.count)")
            return false
        }
        // The leading numbers, each checked (at most six).
        var n = OperationNumbers()
        for k in 0..<shape.numbers {
            let range: NumberRange = Self.pathArgumentRange(name, k)
            let argument = items[k + 1]
            if let x = argument.number, range.contains(x) {
                n[k] = CGFloat(x)
            } else {
                guard let x = try number(argument, at: path / (k + 1), range) else { return false }
                n[k] = CGFloat(x)
            }
        }
        let arguments = items[1...]
        let hasCurrentPoint = !bezier.isEmpty
        switch name {
        case "moveTo":
            bezier.move(to: CGPoint(x: n[0], y: n[1]))
        case "lineTo", "quadTo", "curveTo", "close":
            guard hasCurrentPoint else {
                try report(.invalidValue, operation, at: path,
                           "\(JSONWriter.quoted(name)) needs a current point; start the path with \"moveTo\"")
                return false
            }
            switch name {
            case "lineTo": bezier.addLine(to: CGPoint(x: n[0], y: n[1]))
            case "quadTo": bezier.addQuadCurve(to: CGPoint(x: n[2], y: n[3]), controlPoint: CGPoint(x: n[0], y: n[1]))
            case "curveTo":
                bezier.addCurve(to: CGPoint(x: n[4], y: n[5]),
                                controlPoint1: CGPoint(x: n[0], y: n[1]), controlPoint2: CGPoint(x: n[2], y: n[3]))
            default: bezier.close()
            }
        case "arc":
            guard let clockwise = try bool(arguments[arguments.startIndex + 5], at: path / 6) else { return false }
            bezier.addArc(withCenter: CGPoint(x: n[0], y: n[1]), radius: n[2],
                          startAngle: n[3], endAngle: n[4], clockwise: clockwise)
        case "rect":
            bezier.append(UIBezierPath(rect: CGRect(x: n[0], y: n[1], width: n[2], height: n[3])))
        case "ellipse":
            bezier.append(UIBezierPath(ovalIn: CGRect(x: n[0], y: n[1], width: n[2], height: n[3])))
        case "roundedRect":
            bezier.append(UIBezierPath(
                roundedRect: CGRect(x: n[0], y: n[1], width: n[2], height: n[3]), cornerRadius: n[4]))
        default:  // roundedRectCorners
            guard let corners = try rectCorners(arguments[arguments.startIndex + 6], at: path / 7) else { return false }
            bezier.append(UIBezierPath(
                roundedRect: CGRect(x: n[0], y: n[1], width: n[2], height: n[3]),
                byRoundingCorners: corners, cornerRadii: CGSize(width: n[4], height: n[5])))
        }
        return true
    }

    /// The numbers of one path operation, without an array for each.
    private struct OperationNumbers {
        private var values: (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0, 0, 0)
        subscript(i: Int) -> CGFloat {
            get {
                switch i {
                case 0: values.0
                case 1: values.1
                case 2: values.2
                case 3: values.3
                case 4: values.4
                default: values.5
                }
            }
            set {
                switch i {
                case 0: values.0 = newValue
                case 1: values.1 = newValue
                case 2: values.2 = newValue
                case 3: values.3 = newValue
                case 4: values.4 = newValue
                default: values.5 = newValue
                }
            }
        }
    }

    /// Sizes and radii must not be negative; coordinates and angles may be anything.
    private static func pathArgumentRange(_ operation: String, _ index: Int) -> NumberRange {
        switch operation {
        case "arc": index == 2 ? .nonNegative : .any
        case "rect", "ellipse", "roundedRect", "roundedRectCorners": index >= 2 ? .nonNegative : .any
        default: .any
        }
    }

    private func rectCorners(_ value: JSONValue, at path: JSONPath) throws(SceneError) -> UIRectCorner? {
        guard let names = try array(value, at: path, of: "corner names (\(Self.list(Self.cornerNames)))") else {
            return nil
        }
        var corners: UIRectCorner = []
        var ok = true
        for (k, element) in names.enumerated() {
            guard let n = try name(element, at: path / k, from: Self.cornerNames) else { ok = false; continue }
            switch n {
            case "topLeft": corners.insert(.topLeft)
            case "topRight": corners.insert(.topRight)
            case "bottomLeft": corners.insert(.bottomLeft)
            default: corners.insert(.bottomRight)
            }
        }
        return ok ? corners : nil
    }
}

/// The JSON form of paths: SVG path data with absolute `M L Q C Z`
/// commands, which reads back to exactly the same elements.
enum PathValue {
    static func encode(_ path: CGPath) -> JSONValue { .string(path.svgPathData) }
}

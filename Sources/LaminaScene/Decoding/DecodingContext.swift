import Foundation
import LaminaJSON

/// The state of one decode: the issues found so far, the limits, and the
/// running totals that the limits apply to.
///
/// Readers report a problem and return nil, so that decoding goes on and
/// finds further problems in other keys; problems that make going on unsafe
/// or pointless (a limit, too many issues) throw at once.
final class DecodingContext {
    let limits: SceneLimits
    let options: SceneDecoder.Options
    let deadline: RenderDeadline?

    /// Issues found so far, in the order found.
    private(set) var issues: [SceneError.Issue] = []

    /// After this many issues decoding stops: the first ones are what
    /// matter, and a hostile document must not make an unbounded report.
    static let maxIssues = 50

    // Running totals for the limits that count the whole scene.
    var layerCount = 0
    var pathElementCount = 0
    var imagePixelCount = 0
    var animationCount = 0

    init(limits: SceneLimits, options: SceneDecoder.Options, deadline: RenderDeadline?) {
        self.limits = limits
        self.options = options
        self.deadline = deadline
    }

    /// Stops the decode when its deadline has passed: called before each
    /// layer and each image, the steps whose count or cost a document sets.
    func checkDeadline(at path: JSONPath, _ value: JSONValue) throws(SceneError) {
        try deadline?.check(at: path.description, position: value.position)
    }

    /// Records a problem and lets decoding go on.
    func report(
        _ kind: SceneError.Kind, at path: JSONPath, _ position: SourcePosition?, _ message: String
    ) throws(SceneError) {
        issues.append(SceneError.Issue(kind: kind, location: path.description, position: position, message: message))
        if issues.count >= Self.maxIssues {
            throw Self.error(issues)
        }
    }

    /// Records a problem with a value, at the value's place.
    func report(_ kind: SceneError.Kind, _ value: JSONValue, at path: JSONPath, _ message: String) throws(SceneError) {
        try report(kind, at: path, value.position, message)
    }

    /// A problem that stops decoding: every issue so far plus this one.
    func fatal(
        _ kind: SceneError.Kind, at path: JSONPath, _ position: SourcePosition?, _ message: String
    ) -> SceneError {
        Self.error(issues + [SceneError.Issue(kind: kind, location: path.description, position: position, message: message)])
    }

    /// Throws every issue found, if any.
    func throwIfIssues() throws(SceneError) {
        if !issues.isEmpty { throw Self.error(issues) }
    }

    /// The error for `issues` in document order (the decoder does not walk
    /// keys strictly in that order), issues without a place last.
    private static func error(_ issues: [SceneError.Issue]) -> SceneError {
        let ordered = issues.enumerated().sorted { a, b in
            switch (a.element.position, b.element.position) {
            case let (p?, q?) where p != q: (p.line, p.column) < (q.line, q.column)
            case (.some, nil): true
            case (nil, .some): false
            default: a.offset < b.offset
            }
        }
        return SceneError(issues: ordered.map(\.element))
    }

    /// Reports `"expected <what>, found <a string>"`.
    func wrongType(_ value: JSONValue, at path: JSONPath, expected what: String) throws(SceneError) {
        try report(.wrongType, value, at: path, "expected \(what), found \(value.typeDescription)")
    }
}

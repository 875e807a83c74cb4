/// A location inside a JSON document, written the way errors show it:
/// `$.sublayers[2].transform[5]`.
///
/// Paths are built one step at a time while a document is walked, so each
/// step shares its parent instead of copying it: appending is O(1) and the
/// string is only made when an error needs it.
package struct JSONPath: Sendable, CustomStringConvertible {
    package enum Component: Sendable {
        case key(String)
        case index(Int)
        /// A member's key, read from its document only when the path is
        /// written out (no string is made while decoding goes well).
        case member(JSONMember)

        var key: String? {
            switch self {
            case .key(let k): k
            case .member(let m): m.key
            case .index: nil
            }
        }
    }

    private final class Node: Sendable {
        let parent: Node?
        let component: Component

        init(parent: Node?, component: Component) {
            self.parent = parent
            self.component = component
        }
    }

    /// Every step but the last two, shared with the paths it was extended
    /// from.
    private let node: Node?
    /// The last two steps, held inline (`last` is nil while there is only
    /// `beforeLast`): a step costs an allocation only when a path is
    /// extended a third time. A layer's path (`sublayers[k]`) and each of
    /// its keys' (`sublayers[k].bounds`) need none.
    private let beforeLast: Component?
    private let last: Component?

    /// The document itself, `$`.
    package static let root = JSONPath(node: nil, beforeLast: nil, last: nil)

    private init(node: Node?, beforeLast: Component?, last: Component?) {
        self.node = node
        self.beforeLast = beforeLast
        self.last = last
    }

    private func appending(_ component: Component) -> JSONPath {
        guard let beforeLast else { return JSONPath(node: node, beforeLast: component, last: nil) }
        guard let last else { return JSONPath(node: node, beforeLast: beforeLast, last: component) }
        return JSONPath(node: Node(parent: node, component: beforeLast), beforeLast: last, last: component)
    }

    /// The path of a member of the object at this path.
    package func appending(key: String) -> JSONPath { appending(.key(key)) }

    /// The path of an element of the array at this path.
    package func appending(index: Int) -> JSONPath { appending(.index(index)) }

    package static func / (path: JSONPath, key: String) -> JSONPath { path.appending(key: key) }
    package static func / (path: JSONPath, index: Int) -> JSONPath { path.appending(index: index) }
    /// The path of `member` of the object at this path.
    package static func / (path: JSONPath, member: JSONMember) -> JSONPath { path.appending(.member(member)) }

    /// This path with its inline steps moved into shared nodes, for a path
    /// that many others will extend by more than one step (a list's, whose
    /// elements' keys extend it by two).
    package var shared: JSONPath {
        guard let beforeLast else { return self }
        var shared = Node(parent: node, component: beforeLast)
        if let last { shared = Node(parent: shared, component: last) }
        return JSONPath(node: shared, beforeLast: nil, last: nil)
    }

    /// The steps from the root, first step first.
    package var components: [Component] {
        var out: [Component] = []
        if let last { out.append(last) }
        if let beforeLast { out.append(beforeLast) }
        var n = node
        while let current = n {
            out.append(current.component)
            n = current.parent
        }
        return out.reversed()
    }

    /// The last key named on the path, if any (`lineCap` for
    /// `$.sublayers[2].lineCap`).
    package var lastKey: String? {
        components.reversed().lazy.compactMap(\.key).first
    }

    package var description: String {
        var out = "$"
        for component in components {
            switch component {
            case .index(let i):
                out += "[\(i)]"
            case .key, .member:
                let k = component.key ?? ""
                out += Self.isPlainIdentifier(k) ? "." + k : "[" + JSONWriter.quoted(k) + "]"
            }
        }
        return out
    }

    /// Keys that read unambiguously after a dot: letters, digits and `_`,
    /// not starting with a digit.
    private static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}

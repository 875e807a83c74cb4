/// A location inside a JSON document, written the way errors show it:
/// `$.sublayers[2].transform[5]`.
///
/// Paths are built one step at a time while a document is walked, so each
/// step shares its parent instead of copying it: appending is O(1) and the
/// string is only made when an error needs it.
struct JSONPath: Sendable, CustomStringConvertible {
    enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    private final class Node: Sendable {
        let parent: Node?
        let component: Component

        init(parent: Node?, component: Component) {
            self.parent = parent
            self.component = component
        }
    }

    private let node: Node?

    /// The document itself, `$`.
    static let root = JSONPath(node: nil)

    private init(node: Node?) { self.node = node }

    /// The path of a member of the object at this path.
    func appending(key: String) -> JSONPath {
        JSONPath(node: Node(parent: node, component: .key(key)))
    }

    /// The path of an element of the array at this path.
    func appending(index: Int) -> JSONPath {
        JSONPath(node: Node(parent: node, component: .index(index)))
    }

    static func / (path: JSONPath, key: String) -> JSONPath { path.appending(key: key) }
    static func / (path: JSONPath, index: Int) -> JSONPath { path.appending(index: index) }

    /// The steps from the root, first step first.
    var components: [Component] {
        var out: [Component] = []
        var n = node
        while let current = n {
            out.append(current.component)
            n = current.parent
        }
        return out.reversed()
    }

    /// The last key named on the path, if any (`lineCap` for
    /// `$.sublayers[2].lineCap`).
    var lastKey: String? {
        var n = node
        while let current = n {
            if case .key(let k) = current.component { return k }
            n = current.parent
        }
        return nil
    }

    var description: String {
        var out = "$"
        for component in components {
            switch component {
            case .index(let i):
                out += "[\(i)]"
            case .key(let k) where Self.isPlainIdentifier(k):
                out += "." + k
            case .key(let k):
                out += "[" + JSONWriter.quoted(k) + "]"
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

import LaminaScene
import LaminaJSON

/// An element of an XML document: its local name (without a namespace
/// prefix), attributes in document order, child elements and the text
/// directly inside it, and where it starts.
struct XMLElement: Sendable {
    var name: String
    var attributes: [XMLAttribute]
    var children: [XMLElement]
    /// The character data directly inside the element, entities resolved.
    var text: String
    var position: SourcePosition

    /// The value of the attribute `name`, or nil.
    subscript(name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The attribute `name`, with its position.
    func attribute(_ name: String) -> XMLAttribute? {
        attributes.first { $0.name == name }
    }

    /// The first child element called `name`.
    func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }
}

/// One `name="value"` of an element, entities resolved.
struct XMLAttribute: Sendable {
    var name: String
    var value: String
    var position: SourcePosition
}

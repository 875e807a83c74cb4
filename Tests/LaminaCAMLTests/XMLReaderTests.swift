import Foundation
import Testing
@testable import LaminaCAML
import LaminaScene
import LaminaJSON

@Suite("XMLReader")
struct XMLReaderTests {
    func read(_ text: String, limits: XMLReader.Limits = .init()) throws(SceneError) -> XMLElement {
        try XMLReader(limits: limits).read(Array(text.utf8))
    }

    /// The error reading `text` gives, or nil when it reads.
    func failure(_ text: String, limits: XMLReader.Limits = .init()) -> SceneError? {
        do {
            _ = try read(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ bytes: [UInt8]) -> SceneError? {
        do {
            _ = try XMLReader(limits: .init()).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func elementsAttributesTextAndEntities() throws {
        let root = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <ca:caml xmlns:ca="urn:x" a='1' b="x &amp; &lt;y&gt; &#65;&#x42;">
              <child c="tab\there"/>
              <text>one &quot;two&quot; <![CDATA[<three> & four]]></text>
              <?pi ignored?>
            </ca:caml>
            """)
        #expect(root.name == "caml")
        #expect(root["a"] == "1")
        #expect(root["b"] == "x & <y> AB")
        #expect(root.children.map(\.name) == ["child", "text"])
        #expect(root.children[0]["c"] == "tab here", "whitespace in attribute values becomes spaces")
        #expect(root.children[1].text == "one \"two\" <three> & four")
        #expect(root.children[0].position == SourcePosition(line: 4, column: 3))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try read("<a n=\"é\"><b/></a>")
        #expect(root.children[0].position == SourcePosition(line: 1, column: 10))
    }

    @Test(arguments: [
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a/>", "entity declaration is refused", 1, 14),
        ("<!DOCTYPE a [\n <!ENTITY lol \"lol\">\n <!ENTITY lol2 \"&lol;&lol;\">]><a>&lol2;</a>", "entity declaration", 2, 2),
        ("<!DOCTYPE a [%ext;]><a/>", "parameter entity", 1, 14),
        ("<!DOCTYPE a><!DOCTYPE a><a/>", "only come once", 1, 13),
        ("<a/><!DOCTYPE a>", "only come once", 1, 5),
        ("<!DOCTYPE a PUBLIC \"x\" \"y><a/>", "never closed", 1, 24),
        ("<!DOCTYPE a [<!ELEMENT a ANY>", "never closed", 1, 1),
        ("<a>&lol;</a>", "unknown entity", 1, 4),
        ("<a><b></a>", "closes <b>", 1, 7),
        ("<a>\n  <b>", "never closed", 2, 6),
        ("<a x=1/>", "must be quoted", 1, 6),
        ("<a x='1' x='2'/>", "given twice", 1, 10),
        ("<a/><b/>", "only one root", 1, 5),
        ("<a x='<'/>", "not allowed in an attribute", 1, 7),
        ("", "no root element", 1, 1),
        ("<a>&#0;</a>", "is not a character", 1, 4),
        ("<a><!-- open", "never closed", 1, 4),
    ])
    func malformedDocumentsNameTheirPlace(text: String, message: String, line: Int, column: Int) throws {
        let error = try #require(failure(text))
        #expect(error.kind == .syntax)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.position == SourcePosition(line: line, column: column), "\(error)")
    }

    /// Apple's property lists name their DTD; it declares nothing and is never loaded.
    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\"><dict/></plist>",
        "<!doctype plist SYSTEM 'file:///etc/passwd'><plist><dict/></plist>",
        "<!DOCTYPE plist [<!ELEMENT plist ANY> <!-- <!ENTITY x 'no'> --> <!ATTLIST plist version CDATA \"1.0>]\">]>\n<plist><dict/></plist>",
    ])
    func documentTypesThatDeclareNoEntityAreSkipped(text: String) throws {
        let root = try read(text)
        #expect(root.name == "plist")
        #expect(root.children.map(\.name) == ["dict"])
    }

    @Test func invalidUTF8IsRefused() throws {
        let bytes: [UInt8] = [0x3C, 0x61, 0x20, 0x62, 0x3D, 0x22, 0xFF, 0x22, 0x2F, 0x3E]  // <a b="\xFF"/>
        let error = try #require(Self.failure(bytes))
        #expect(error.message.contains("UTF-8"))
    }

    @Test func deepNestingStopsAtTheLimitWithoutRecursing() throws {
        let depth = 100_000
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = try #require(failure(text, limits: .init(depth: 256)))
        #expect(error.kind == .limitExceeded)
        #expect(error.message.contains("256"))
        // Under the limit the same shape reads.
        let ok = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect(failure(ok, limits: .init(depth: 256)) == nil)
    }

    @Test func elementAndAttributeCountsAreLimited() throws {
        let many = "<a>" + String(repeating: "<b/>", count: 50) + "</a>"
        #expect(try #require(failure(many, limits: .init(elements: 10))).kind == .limitExceeded)
        let attributes = "<a " + (0..<20).map { "x\($0)='1'" }.joined(separator: " ") + "/>"
        #expect(try #require(failure(attributes, limits: .init(attributesPerElement: 8))).kind == .limitExceeded)
    }

    @Test func positionsOnALongSingleLine() throws {
        // 200,000 elements on one line: columns are counted as the reader goes
        // (counting from the line's start for each would be quadratic).
        let text = "<a>" + String(repeating: "<b c='1 2 3'/>", count: 200_000) + "</a>"
        let root = try read(text, limits: .init())
        #expect(root.children.count == 200_000)
        #expect(root.children.last?.position.column == 4 + 14 * 199_999)
    }
}

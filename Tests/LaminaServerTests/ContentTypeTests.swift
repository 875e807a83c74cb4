import Testing
@testable import LaminaServer

@Suite("Content-Type")
struct ContentTypeTests {
    @Test(arguments: [
        ("application/json", "application/json", [:]),
        ("Application/JSON", "application/json", [:]),
        ("  application/xml ; charset=utf-8", "application/xml", ["charset": "utf-8"]),
        ("text/xml;CHARSET=\"UTF-8\";q=1", "text/xml", ["charset": "UTF-8", "q": "1"]),
        ("application/zip;", "application/zip", [:]),
        ("application/zip ; ; x=\"a\\\"b;c\"", "application/zip", ["x": "a\"b;c"]),
        ("application/vnd.lottie+json", "application/vnd.lottie+json", [:]),
    ] as [(String, String, [String: String])])
    func mediaTypesParseAsRFC9110WritesThem(text: String, essence: String, parameters: [String: String]) throws {
        let type = try #require(ContentType(text))
        #expect(type.essence == essence)
        #expect(type.parameters == parameters)
    }

    /// What once ended the server (`Content-Type: ` and `;` split to nothing), and other unusable values.
    @Test(arguments: ["", " ", ";", " ; ", "/", "application", "application/", "/json", "application/json x",
                      "application/json; charset", "application/json; charset=", "application/json; =x",
                      "application/json; x=\"open", "appli cation/json", "application/json\u{0}", "ä/ö"])
    func unusableMediaTypesAreNil(text: String) {
        #expect(ContentType(text) == nil)
    }
}

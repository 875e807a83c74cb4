import Foundation
import HTTPTypes
import Hummingbird
import Lamina
import NIOCore

/// The playground (`lamina serve --playground`, or `--dev`): a page at `/`
/// where a person writes a scene and sees what this server renders as they
/// type. Its files and the example scenes are built into the binary
/// (Plugins/EmbedPlaygroundFiles), so it works offline and in the
/// container; the page talks to the same `/validate`, `/render` and
/// `/frames` as any client, with the same token.
///
/// - `GET /`: the page.
/// - `GET /playground/app.js`, `/playground/app.css`: its script and style.
/// - `GET /playground/examples.json`: `[{"group", "name", "scene"}]`, the
///   example scenes and the book's listings.
struct PlaygroundRoutes: Sendable {
    /// The routes and their methods, for the 405 check.
    static let methods: [String: [HTTPRequest.Method]] = ["/": [.get], "/playground/:file": [.get]]

    /// The embedded files by name (`files/index.html`, `scenes/examples/card.json`).
    static let files: [String: [UInt8]] = EmbeddedFiles.base64.compactMapValues { Data(base64Encoded: $0).map { [UInt8]($0) } }

    /// A strong validator for every file: they change only with the binary.
    private static let etag: String = {
        var hash = SHA256()
        for name in files.keys.sorted() {
            hash.update(field: name)
            hash.update(files[name]!)
        }
        return "\"" + String(hash.finalize().hex.prefix(32)) + "\""
    }()

    /// The page may load only its own files, and talk only to this server.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
        + "media-src 'self' blob:; connect-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// `examples.json`, made once: the example scenes first, then the
    /// listings, then Lottie animations.
    static let examples: [UInt8] = {
        struct Example: Encodable { var group: String; var name: String; var scene: String }
        var list: [Example] = []
        for (prefix, group) in [("scenes/examples/", "Examples"), ("scenes/listings/", "The book's listings"), ("scenes/lottie/", "Lottie")] {
            for name in files.keys.filter({ $0.hasPrefix(prefix) }).sorted() {
                let title = String(name.dropFirst(prefix.count).dropLast(".json".count))
                list.append(Example(group: group, name: title, scene: String(decoding: files[name]!, as: UTF8.self)))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? [UInt8](encoder.encode(list))) ?? Array("[]".utf8)
    }()

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/") { request, _ in Self.file("files/index.html", type: "text/html; charset=utf-8", request: request) }
        router.get("playground/:file") { request, context in
            switch context.parameters.get("file") {
            case "app.js": return Self.file("files/app.js", type: "text/javascript; charset=utf-8", request: request)
            case "app.css": return Self.file("files/app.css", type: "text/css; charset=utf-8", request: request)
            case "examples.json": return Self.response(Self.examples, type: "application/json", request: request)
            default: throw APIError(.notFound, "notFound", "the playground has no such file")
            }
        }
    }

    private static func file(_ name: String, type: String, request: Request) -> Response {
        response(files[name] ?? [], type: type, request: request)
    }

    private static func response(_ bytes: [UInt8], type: String, request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: type,
            .eTag: etag,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
        ]
        if let match = request.headers[.ifNoneMatch], RenderRoutes.matches(match, etag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

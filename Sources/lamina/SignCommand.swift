import ArgumentParser
import Foundation
import Lamina
import LaminaServer

/// `lamina sign URL`: the URL with the `sig` that `lamina serve --templates`
/// checks, made with the first key of LAMINA_URL_KEYS (or --url-keys-file).
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print a template link signed for lamina serve --templates.",
        discussion: """
            The link is a path and query (/t/card.png?title=Hello%20world) or a whole URL; \
            its values are percent-encoded as they will be sent. The key is the first of \
            LAMINA_URL_KEYS (comma-separated) or of the file --url-keys-file names: never \
            given on the command line.

              LAMINA_URL_KEYS=... lamina sign '/t/card.png?title=Hello%20world'
            """)

    @Argument(help: "The link to sign: /t/NAME.png?slot=value... or https://host/t/...")
    var url: String

    @Option(help: "A file holding the comma-separated keys; the first signs (LAMINA_URL_KEYS_FILE).")
    var urlKeysFile: String?

    func run() throws {
        let keys = try Self.urlKeys(file: urlKeysFile, environment: ProcessInfo.processInfo.environment)
        guard !keys.isEmpty else {
            throw ValidationError("no key: set LAMINA_URL_KEYS or give --url-keys-file")
        }
        guard url.hasPrefix("/") || url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw ValidationError("the link must start with / or http(s)://, got \"\(url.prefix(60))\"")
        }
        print(URLSigner(keys: keys).sign(url))
    }

    /// The keys from `file` (or LAMINA_URL_KEYS_FILE), else LAMINA_URL_KEYS.
    static func urlKeys(file: String?, environment: [String: String]) throws -> [String] {
        if let path = file ?? environment["LAMINA_URL_KEYS_FILE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                let bytes = try FileIO.readFile(atPath: path, maxBytes: 64 << 10)
                let keys = URLSigner.keys(fromList: String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: ","))
                guard !keys.isEmpty else { throw ValidationError("--url-keys-file (or LAMINA_URL_KEYS_FILE): \(path) holds no key") }
                return keys
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ValidationError("--url-keys-file (or LAMINA_URL_KEYS_FILE): \(error)")
            }
        }
        return URLSigner.keys(fromList: environment["LAMINA_URL_KEYS"] ?? "")
    }
}

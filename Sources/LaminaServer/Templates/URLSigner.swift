import LaminaIO

/// Signs and checks the links of `GET /t/...`: a template's picture is drawn
/// for a URL only when the URL carries `sig`, the HMAC-SHA256 of its path
/// and query under one of the server's keys, so strangers cannot make the
/// server draw what they like, while a CDN can cache each signed URL for ever.
///
/// The signed message is the request target as sent, percent-escapes and
/// all, with the `sig` parameter and its separator taken out:
///
/// ```swift
/// let signer = URLSigner(keys: ["k2-new", "k1-old"])
/// signer.sign("/t/card.png?title=Hello%20world")
/// // "/t/card.png?title=Hello%20world&sig=<43 characters of base64url>"
/// ```
///
/// Every key is accepted when checking, so keys rotate: add the new key
/// first (links are signed with the first), re-sign, then drop the old.
public struct URLSigner: Sendable {
    /// The keys, first the one `sign` uses.
    let keys: [[UInt8]]

    /// A signer with `keys` (each a secret string; at least one, none empty).
    public init(keys: [String]) {
        self.keys = keys.map { Array($0.utf8) }
    }

    /// The keys of `LAMINA_URL_KEYS`: comma-separated, white space around
    /// each ignored, empty entries dropped.
    public static func keys(fromList list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `target` (a path and query, or a whole URL: its path and query are
    /// signed) with `sig` appended; a `sig` it already had is replaced.
    public func sign(_ target: String) -> String {
        let (prefix, pathAndQuery) = Self.splitOrigin(target)
        let unsigned = Self.removingSignature(pathAndQuery).message
        let signature = HMACSHA256.base64URL(HMACSHA256.code(for: Array(unsigned.utf8), key: keys[0]))
        return prefix + unsigned + (unsigned.contains("?") ? "&" : "?") + "sig=" + signature
    }

    /// Why a request target's signature is refused.
    public enum Refusal: Error, Equatable, Sendable {
        /// There is no `sig` parameter.
        case missing
        /// There is one, and no key makes it.
        case mismatch
    }

    /// Checks the `sig` of a request target (path and query, as sent).
    public func verify(_ target: String) throws(Refusal) {
        let (message, signature) = Self.removingSignature(target)
        guard let signature else { throw .missing }
        let given = Array(signature.utf8)
        let bytes = Array(message.utf8)
        // Every key is tried, whichever matches, so that the time taken does
        // not say which key (or whether the first) was right.
        var matched = false
        for key in keys {
            let expected = Array(HMACSHA256.base64URL(HMACSHA256.code(for: bytes, key: key)).utf8)
            if HMACSHA256.constantTimeEqual(expected, given) { matched = true }
        }
        if !matched { throw .mismatch }
    }

    /// The target without its `sig` parameter, and that parameter's value
    /// (the last one, if a target has several: they are all taken out, and
    /// only one can match).
    static func removingSignature(_ target: String) -> (message: String, signature: String?) {
        guard let questionMark = target.firstIndex(of: "?") else { return (target, nil) }
        let path = target[..<questionMark]
        var kept: [Substring] = []
        var signature: String?
        for parameter in target[target.index(after: questionMark)...].split(separator: "&", omittingEmptySubsequences: false) {
            if parameter.hasPrefix("sig=") {
                signature = String(parameter.dropFirst(4))
            } else {
                kept.append(parameter)
            }
        }
        return (kept.isEmpty ? String(path) : path + "?" + kept.joined(separator: "&"), signature)
    }

    /// `https://host:port` and the rest, for a whole URL; "" and the
    /// target itself for a path.
    static func splitOrigin(_ target: String) -> (origin: String, pathAndQuery: String) {
        guard let schemeEnd = target.range(of: "://") else { return ("", target) }
        let rest = target[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return (target, "/") }
        return (String(target[..<slash]), String(target[slash...]))
    }
}

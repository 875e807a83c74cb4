import Foundation
import LaminaJSON

/// The state of one encode: images already turned into data URIs (a picture
/// shared by many layers is compressed once) and the limits that bound the
/// walk.
final class EncodingContext {
    let limits: SceneLimits
    private var imageURIs: [ObjectIdentifier: JSONValue] = [:]
    /// The images whose URIs are cached, kept alive so that their object
    /// identifiers stay unique for the whole encode.
    private var images: [CGImage] = []

    init(limits: SceneLimits) {
        self.limits = limits
    }

    /// The data URI of `image`, encoded once per image object.
    func dataURI(for image: CGImage, at path: JSONPath) throws(SceneError) -> JSONValue {
        if let uri = imageURIs[ObjectIdentifier(image)] { return uri }
        let uri = try ImageValue.encode(image, at: path)
        imageURIs[ObjectIdentifier(image)] = uri
        images.append(image)
        return uri
    }
}

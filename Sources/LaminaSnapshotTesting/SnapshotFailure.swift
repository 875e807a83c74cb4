import Foundation
import XCTest
#if canImport(Testing)
import Testing
#endif

/// Why a snapshot could not be taken.
struct SnapshotFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Fails the running test with `message`: a Swift Testing issue inside a
/// `@Test`, an XCTest failure otherwise (as swift-snapshot-testing reports).
func reportSnapshotFailure(_ message: String) {
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: message))
        return
    }
    #endif
    XCTFail(message)
}

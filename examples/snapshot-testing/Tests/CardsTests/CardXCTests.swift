import Cards
import Lamina
import LaminaSnapshotTesting
import SnapshotTesting
import XCTest

/// XCTest: the same assertion in a test case, as a ported iOS test reads.
final class CardXCTests: XCTestCase {
    func testCardAtOneX() {
        assertSnapshot(of: makeCard(name: "Grace Hopper"), as: .image(scale: 1))
    }
}

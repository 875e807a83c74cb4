import Cards
import Lamina
import LaminaSnapshotTesting
import SnapshotTesting
import Testing

/// Swift Testing: `assertSnapshot` inside a `@Test`.
@Suite struct CardTests {
    @Test func card() {
        assertSnapshot(of: makeCard(name: "Ada Lovelace"), as: .image)
    }

    /// The tree as scene JSON: a reviewable diff when the structure changes.
    @Test func cardStructure() {
        assertSnapshot(of: makeCard(name: "Ada Lovelace"), as: .sceneJSON)
    }
}

// swift-tools-version:6.0
//
// Snapshot tests of a layer on Linux: a card drawn by Lamina, checked with
// pointfreeco's swift-snapshot-testing (`swift test`). Its first run records
// the references in Tests/CardsTests/__Snapshots__; later runs compare.
import Foundation
import PackageDescription

// Lamina, from this repository. In your own package, depend on it by URL:
//   .package(url: "https://github.com/<owner>/lamina", from: "0.1.0")
// and name its products with `package: "lamina"`.
let laminaPath = "../.."
// A package found by path is named after its folder.
let lamina = URL(fileURLWithPath: laminaPath, relativeTo: URL(fileURLWithPath: Context.packageDirectory + "/"))
    .standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "CardSnapshots",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: laminaPath),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .target(name: "Cards", dependencies: [.product(name: "Lamina", package: lamina)]),
        .testTarget(
            name: "CardsTests",
            dependencies: [
                "Cards",
                .product(name: "LaminaSnapshotTesting", package: lamina),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]),
    ]
)

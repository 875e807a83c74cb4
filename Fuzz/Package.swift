// swift-tools-version:6.0
//
// A coverage-guided fuzz target for the whole pipeline: scene JSON bytes in,
// decode, snapshot, plan, CPU render, PNG encode. libFuzzer supplies `main`,
// so this is its own package with its own build folder (scripts/fuzz/libfuzzer.sh
// builds it with `-sanitize=fuzzer`); the main package never builds it.
import PackageDescription

let package = Package(
    name: "LaminaFuzz",
    dependencies: [.package(name: "Lamina", path: "..")],
    targets: [
        .executableTarget(
            name: "LaminaFuzz",
            dependencies: [.product(name: "Lamina", package: "Lamina")]),
    ]
)

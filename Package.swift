// swift-tools-version:6.0
//
// Lamina: Core Animation's layer model for Linux servers.
//
// Modules, left to right (arrows point one way; see docs/architecture.md):
//
//   LaminaGeometry  transforms, paths, flattening, the plane's vocabulary: pure math
//   LaminaRaster    pixmaps, coverage rasterization, painting stages (package-internal)
//   LaminaCore      layers, colours, images, CGContext and its rasterizer
//   LaminaIO        bounded reads and safe, atomic writes of files and streams; zip archives
//                   read by a reader that trusts no offset (inflated by libdeflate); SHA-256
//                   (on the processor's SHA instructions where it has them: CSHA256)
//   LaminaPNG       PNG decoding through libpng, encoding (ImageDeflate, libdeflate), animated PNG
//   LaminaJPEG      JPEG decoding through libjpeg-turbo, EXIF orientation applied
//   LaminaWebP      animated WebP through libwebp
//   LaminaScene     the scene JSON codec and its limits
//   LaminaCAML      Apple's CAML, .ca bundles, wallpapers and .tendies, read into scenes
//   LaminaRender    the render plan and the `Renderer` protocol
//   LaminaGL        EGL + OpenGL ES 3 backend
//   LaminaCPU       the CPU backend: the render plan on LaminaRaster
//   LaminaText      CATextLayer's text: fontconfig, HarfBuzz, FreeType
//   Lamina          re-exports the public API
//   LaminaSnapshotTesting  snapshot-test strategies for layers and views (swift-snapshot-testing)
//   LaminaServer    `lamina serve`: HTTP on Hummingbird, render workers, cache, jobs (in memory
//                   or shared in PostgreSQL through libpq), template links, webhooks (libcurl)
//   lamina          the command line tool
//
// And the book's listings as programs, one per listing (examples/<name>/).
import PackageDescription

let package = Package(
    name: "Lamina",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Lamina", targets: ["Lamina"]),
        // Snapshot tests of layers with pointfreeco's swift-snapshot-testing;
        // its own product, so that users of Lamina alone do not build it.
        .library(name: "LaminaSnapshotTesting", targets: ["LaminaSnapshotTesting"]),
        .executable(name: "lamina", targets: ["lamina"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The render server (LaminaServer) only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The connection gate is a channel handler in Hummingbird's pipeline.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` (scripts/checks/docs.sh); a plugin, built into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Writes the archives the tests read (LaminaCAMLTests); Lamina reads them with its own ZipArchive.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        // LaminaSnapshotTesting only: its strategies plug into this library's assertSnapshot.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // C shims over the Debian headers.
        .systemLibrary(
            name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
            providers: [.apt(["libegl-dev", "libgles-dev", "libgbm-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CDeflate", path: "Sources/CDeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // glibc's mallopt (header only).
        .systemLibrary(name: "CAllocator", path: "Sources/CAllocator"),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CImageQuant", path: "Sources/CImageQuant", pkgConfig: "imagequant",
            providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev", "libharfbuzz-dev", "libfontconfig-dev"])]),
        // Bidi (Debian's libfribidi-dev) and line breaking (libicu-dev) behind plain C functions.
        .target(
            name: "CUnicodeText", path: "Sources/CUnicodeText",
            linkerSettings: [.linkedLibrary("fribidi"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]),

        // The model. (Its processor check goes with the lowest module, so
        // that every program built of Lamina's modules makes it first.)
        .target(name: "LaminaGeometry", dependencies: ["CProcessorCheck"]),
        // Pixels: pixmaps, coverage rasterization, painting stages; shared by
        // CGContext's replayer (LaminaCore) and the CPU backend, not public.
        .target(name: "LaminaRaster", dependencies: ["LaminaGeometry"]),
        .target(name: "LaminaCore", dependencies: ["LaminaGeometry", "LaminaRaster"]),
        // SHA-256's block function on x86's SHA extensions, for LaminaIO.
        .target(name: "CSHA256", path: "Sources/CSHA256"),
        .target(name: "LaminaIO", dependencies: ["CSHA256", "CDeflate"]),
        // Refuses, with a message, to run a build for x86-64-v3 on a
        // processor without those instructions (see the end of this file).
        .target(name: "CProcessorCheck", path: "Sources/CProcessorCheck"),
        // Linux's thread affinity and naming calls, for the server's workers.
        .target(name: "CThreadPlacement", path: "Sources/CThreadPlacement"),
        .target(name: "LaminaPNG", dependencies: ["LaminaCore", "LaminaIO", "LaminaRaster", "CPNG", "CDeflate"]),

        // Scene codec, render plan, backends.
        .target(name: "LaminaWebP", dependencies: ["LaminaCore", "LaminaRaster", "CWebP"]),
        // JPEG decoding through libjpeg-turbo, EXIF orientation applied.
        .target(name: "LaminaGIF", dependencies: ["LaminaCore", "LaminaRaster", "CImageQuant"]),
        .target(name: "LaminaJPEG", dependencies: ["LaminaCore", "CTurboJPEG"]),
        .target(name: "LaminaJSON", dependencies: ["LaminaIO"]),
        .target(name: "LaminaScene", dependencies: ["LaminaCore", "LaminaIO", "LaminaJSON", "LaminaPNG", "LaminaJPEG", "LaminaWebP", "LaminaGIF"]),
        .target(name: "LaminaRender", dependencies: ["LaminaCore", "LaminaRaster"]),
        // Apple's CAML files, .ca bundles, wallpapers and .tendies archives, read into scenes.
        .target(
            name: "LaminaCAML",
            dependencies: ["LaminaCore", "LaminaIO", "LaminaJSON", "LaminaScene"]),
        .target(name: "LaminaLottie", dependencies: ["LaminaCore", "LaminaJSON", "LaminaScene", "LaminaPNG", "LaminaJPEG", "LaminaWebP", "LaminaGIF", "LaminaText"]),
        .target(name: "LaminaGL", dependencies: ["LaminaRender", "LaminaRaster", "CEGL"]),
        .target(name: "LaminaCPU", dependencies: ["LaminaRender", "LaminaRaster"]),
        .target(name: "LaminaText", dependencies: ["LaminaCore", "LaminaRaster", "CFreeType", "CUnicodeText"]),

        // The public face.
        .target(
            name: "Lamina",
            dependencies: [
                "LaminaGeometry", "LaminaCore", "LaminaIO", "LaminaJSON", "LaminaPNG", "LaminaWebP", "LaminaGIF", "LaminaScene",
                "LaminaCAML", "LaminaLottie", "LaminaRender", "LaminaGL", "LaminaCPU", "LaminaText", "LaminaRaster", "CAllocator",
            ]),
        // The render server: HTTP routes, a pool of render workers, a cache,
        // the playground (its files and the example scenes built in by
        // EmbedPlaygroundFiles).
        .executableTarget(name: "embed-files", path: "Sources/embed-files"),
        .plugin(name: "EmbedPlaygroundFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        .target(
            name: "LaminaServer",
            dependencies: [
                "Lamina",
                "CThreadPlacement",
                "CCurl",
                "CLibPQ",
                "LaminaIO",
                "LaminaJSON",
                "LaminaScene",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Playground/Files"],
            plugins: ["EmbedPlaygroundFiles"]),
        // Snapshotting strategies for layers and views (swift-snapshot-testing).
        .target(
            name: "LaminaSnapshotTesting",
            dependencies: ["Lamina", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]),
        .executableTarget(
            name: "lamina",
            dependencies: [
                "Lamina", "LaminaServer", "LaminaRaster",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // What the test targets share (a seeded random generator).
        .testTarget(name: "LaminaGeometryTests", dependencies: ["LaminaGeometry"]),
        .testTarget(name: "LaminaCoreTests", dependencies: ["LaminaCore", "LaminaRaster"]),
        .testTarget(name: "LaminaPNGTests", dependencies: ["LaminaPNG", "LaminaRaster", "CDeflate"]),
        .testTarget(name: "LaminaIOTests", dependencies: ["LaminaIO", "CDeflate"]),
        .testTarget(name: "LaminaGIFTests", dependencies: ["LaminaGIF", "LaminaCore", "LaminaGeometry"]),
        .testTarget(name: "LaminaJPEGTests", dependencies: ["LaminaJPEG", "CTurboJPEG"]),
        .testTarget(name: "LaminaJSONTests", dependencies: ["LaminaJSON", "LaminaGeometry"]),
        .testTarget(name: "LaminaSceneTests", dependencies: ["LaminaScene", "LaminaJSON"]),
        .testTarget(
            name: "LaminaCAMLTests",
            dependencies: ["LaminaCAML", "LaminaJSON", "Lamina", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "LaminaRenderTests", dependencies: ["LaminaRender", "LaminaRaster", "LaminaJSON"]),
        .testTarget(name: "LaminaLottieTests",
                    dependencies: ["LaminaLottie", "Lamina", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "LaminaGLTests", dependencies: ["LaminaGL", "LaminaRaster"]),
        .testTarget(name: "LaminaCPUTests", dependencies: ["LaminaCPU", "LaminaRaster", "LaminaCore"]),
        .testTarget(name: "LaminaRasterTests", dependencies: ["LaminaRaster", "LaminaCore", "LaminaGeometry"]),
        .testTarget(name: "LaminaTests", dependencies: ["Lamina", "CAllocator"]),
        .testTarget(name: "LaminaTextTests", dependencies: ["LaminaText", "LaminaRaster", "Lamina"]),
        // The server's parts; the server as a whole is tested through the
        // real binary (scripts/checks/server.py).
        .testTarget(name: "LaminaServerTests", dependencies: ["LaminaServer"]),
        .testTarget(name: "LaminaSnapshotTestingTests", dependencies: ["LaminaSnapshotTesting"]),
    ]
)

// The book's listings of chapters 5 and 6 as programs: examples/<name>/main.swift
// builds the listing's views and layers and hands them to ExampleSupport, which
// writes examples/out/<name>.png and <name>.json. Names match the conformance
// scenes of ../shared/conformance that show the same pictures. The scripts read
// this list (scripts/checks/example-names.sh): keep it one `let examples = [` ... `]`.
let examples = [
    "listing-5-1-affine-rotate", "listing-5-2-composite-affine", "listing-5-3-shear",
    "listing-5-4-rotate-y-flat", "listing-5-5-perspective", "listing-5-6-sublayer-transform",
    "double-sided-back", "listing-5-7-inner-outer-z", "listing-5-8-inner-outer-y-flattening",
    "listing-5-9-cube-camera", "listing-5-10-lit-cube", "listing-6-1-stick-figure",
    "rounded-corners-redux", "listing-6-2-text-layer", "listing-6-3-rich-text",
    "listing-6-4-layer-label", "listing-6-5-two-cubes-transform-layer", "transform-layer-arm", "spinning-cube",
]
package.targets += [
    .target(name: "ExampleSupport", dependencies: ["Lamina"], path: "examples/ExampleSupport"),
    .testTarget(name: "ExampleSupportTests", dependencies: ["ExampleSupport"]),
]
package.targets += examples.map { name in
    .executableTarget(name: name, dependencies: ["ExampleSupport"], path: "examples/\(name)")
}

// The README's first sample and the getting-started article's code, byte for
// byte as printed (scripts/checks/readme.sh compares them, type-checks them as
// a user's package sees Lamina, and runs them): `import Lamina` alone.
package.targets += [
    .executableTarget(name: "docs-readme", dependencies: ["Lamina"], path: "examples/docs-readme"),
    .executableTarget(name: "docs-getting-started", dependencies: ["Lamina"], path: "examples/docs-getting-started"),
]

// scripts/setup.sh and scripts/test.sh build Lamina's own modules and its
// programs optimized (LAMINA_OPTIMIZED=1, still the debug configuration:
// assertions, @testable, debug information): the tests then exercise the
// code users run (the optimizer once removed a memory check a debug build
// kept) and run several times faster. The test targets themselves stay
// unoptimized (their own code is a small part of their time, and compiling
// them optimized took 28 s more than it saved), and so do the dependencies,
// which keeps the one build short. A package that depends on Lamina does
// not set it, and gets no unsafe flags.
//
// On x86-64 those builds also use the instructions of x86-64-v3 (AVX2, FMA,
// BMI2: Intel's processors since Haswell, 2013, AMD's since Excavator, 2015;
// RHEL 10's baseline), as the peers Lamina is measured against do: an
// animation's frames take 5 to 9% less time (docs/benchmarks.md), the same
// pictures to the byte. A build for them started on a processor without
// them says so and stops (CProcessorCheck) rather than dying of an illegal
// instruction; LAMINA_TARGET_CPU=x86-64 builds for any x86-64 processor.
// The container image (docker/Dockerfile) is built for any x86-64 processor.
if Context.environment["LAMINA_OPTIMIZED"] == "1" {
    var optimized = ["-O"]
    #if arch(x86_64)
    switch Context.environment["LAMINA_TARGET_CPU"] ?? "x86-64-v3" {
    case "x86-64-v3":
        // Swift names the level by its first processor; code that is
        // written for it asks `#if LAMINA_X86_64_V3`.
        optimized += ["-target-cpu", "haswell", "-D", "LAMINA_X86_64_V3"]
        for target in package.targets where target.name == "CProcessorCheck" {
            target.cSettings = [.define("LAMINA_BUILT_FOR_X86_64_V3")]
        }
    case "x86-64":
        break
    case let other:
        fatalError("LAMINA_TARGET_CPU=\(other): expected x86-64-v3 (the default) or x86-64")
    }
    #endif
    for target in package.targets where [.regular, .executable].contains(target.type) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(optimized)]
    }
    // Programs and the test bundle linked by LLVM's lld (the toolchain's):
    // gold took 39 s to link the test bundle alone.
    for target in package.targets where [.executable, .test].contains(target.type) {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}

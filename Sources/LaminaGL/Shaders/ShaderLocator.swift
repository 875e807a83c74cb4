import Foundation

/// Finds the folder holding Lamina's shaders, so that a binary works wherever
/// it is installed and not only inside the build tree.
///
/// Searched in order, keeping the first folder that holds every `ShaderFile`:
/// 1. `$LAMINA_SHADER_DIR`;
/// 2. `<executable dir>/Shaders`, then `<executable dir>/../share/lamina/Shaders`,
///    for the executable's path as invoked and with symbolic links resolved;
/// 3. the source tree this module was built from (`Shaders/` at its root).
enum ShaderLocator {
    /// The environment variable naming a shader folder to use first.
    static let environmentVariable = "LAMINA_SHADER_DIR"

    /// This file's path when the module was built; a default argument of
    /// `#filePath` would give the caller's file instead.
    private static let thisFile = #filePath

    /// The folders to try, in order, each with where it came from.
    /// `sourceFile` stands in for this file's path (for tests).
    static func candidates(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        sourceFile: String? = nil
    ) -> [(folder: URL, origin: String)] {
        var result: [(URL, String)] = []
        if let value = environment[environmentVariable], !value.isEmpty {
            result.append((URL(fileURLWithPath: value, isDirectory: true), "$\(environmentVariable)"))
        }
        if let executable {
            var folders = [executable.deletingLastPathComponent()]
            let resolved = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            if resolved.standardizedFileURL != folders[0].standardizedFileURL { folders.append(resolved) }
            for folder in folders {
                result.append((folder.appendingPathComponent("Shaders", isDirectory: true), "next to the executable"))
                result.append((
                    folder.appendingPathComponent("../share/lamina/Shaders", isDirectory: true).standardizedFileURL,
                    "installed beside the executable"))
            }
        }
        // Sources/LaminaGL/Shaders/ShaderLocator.swift -> the package root.
        let root = URL(fileURLWithPath: sourceFile ?? Self.thisFile)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        result.append((root.appendingPathComponent("Shaders", isDirectory: true), "source tree"))
        return result
    }

    /// The first candidate folder holding every shader file.
    /// - Throws: `GLError.shaderDirectoryNotFound` listing each folder tried
    ///   and what it lacked.
    static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        sourceFile: String? = nil
    ) throws -> URL {
        var searched: [String] = []
        for (folder, origin) in candidates(environment: environment, executable: executable, sourceFile: sourceFile) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue
            else {
                searched.append("\(folder.path) (\(origin)): no such folder")
                continue
            }
            let missing = ShaderFile.allCases.map(\.rawValue).filter {
                !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            if missing.isEmpty { return folder }
            searched.append("\(folder.path) (\(origin)): lacks \(missing.joined(separator: ", "))")
        }
        throw GLError.shaderDirectoryNotFound(searched: searched)
    }
}

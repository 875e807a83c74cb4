import Foundation

/// Reads shader files from one folder and expands their `#include` lines.
///
/// GLSL ES has no include; LaminaGL's loader replaces a line
/// `#include "name"` with that file's text framed by `#line` directives, so
/// that the driver's messages name the right line. Each file gets a GLSL
/// source-string number (0 for the main file, then one per include in order)
/// and `PreparedShader.legend` says which number is which file.
final class ShaderLibrary: Sendable {
    /// The folder the files are read from.
    let folder: URL

    /// Uses the shader folder found by `ShaderLocator.locate()`.
    convenience init() throws {
        self.init(folder: try ShaderLocator.locate())
    }

    /// Uses `folder` as is.
    init(folder: URL) {
        self.folder = folder
    }

    /// The text of `file` with includes expanded, ready for `glShaderSource`.
    func prepare(_ file: ShaderFile) throws -> PreparedShader {
        try expand(file: file.rawValue)
    }

    /// The text of any file in the folder, includes expanded.
    func expand(file name: String) throws -> PreparedShader {
        var sources: [String] = [name]
        let text = try expand(name, into: &sources, including: [])
        return PreparedShader(file: name, text: text, sources: sources)
    }

    private func read(_ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw GLError.shaderSource(file: url.path, reason: "\(error.localizedDescription)")
        }
    }

    private func expand(_ name: String, into sources: inout [String], including stack: [String]) throws -> String {
        guard !stack.contains(name) else {
            throw GLError.shaderSource(
                file: name, reason: "includes itself through \((stack + [name]).joined(separator: " -> "))")
        }
        let sourceNumber = sources.firstIndex(of: name) ?? 0
        var output: [String] = []
        for (index, line) in try read(name).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let included = Self.includedName(line) else {
                output.append(String(line))
                continue
            }
            if !sources.contains(included) { sources.append(included) }
            let includedNumber = sources.firstIndex(of: included) ?? 0
            output.append("#line 1 \(includedNumber)")
            output.append(try expand(included, into: &sources, including: stack + [name]))
            // #line sets the number of the line after it: the one after the include.
            output.append("#line \(index + 2) \(sourceNumber)")
        }
        return output.joined(separator: "\n")
    }

    /// The file named by an `#include "name"` line, or nil for any other line.
    static func includedName(_ line: Substring) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("#include") else { return nil }
        let rest = trimmed.dropFirst("#include".count).trimmingCharacters(in: .whitespaces)
        guard rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\"") else { return nil }
        return String(rest.dropFirst().dropLast())
    }
}

/// A shader's full text after include expansion.
struct PreparedShader: Sendable, Equatable {
    /// The file it was prepared from.
    let file: String
    /// The text to compile.
    let text: String
    /// File names by GLSL source-string number (index 0 is `file`).
    let sources: [String]

    /// The same shader with `name` defined: a line after `#version` (which
    /// must stay first), then a `#line` that keeps the file's own numbering.
    func defining(_ name: String) -> PreparedShader {
        var lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 2, lines[0].hasPrefix("#version") else {
            return PreparedShader(file: file, text: "#define \(name) 1\n" + text, sources: sources)
        }
        lines.insert("#define \(name) 1\n#line 2 0", at: 1)
        return PreparedShader(file: file, text: lines.joined(separator: "\n"), sources: sources)
    }

    /// "0 = fill_solid.frag, 1 = coverage.glsl", for reading driver logs.
    var legend: String {
        sources.enumerated().map { "\($0.offset) = \($0.element)" }.joined(separator: ", ")
    }
}

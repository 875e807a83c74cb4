import Foundation
import Testing
@testable import LaminaText

/// Unicode's own test data (Debian's unicode-data package, which
/// scripts/setup/install-packages.sh installs), for the two algorithms text
/// layout takes whole from ICU.
enum UnicodeTestData {
    static func lines(_ path: String) -> [Substring]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    static func scalars(_ field: some StringProtocol) -> [Unicode.Scalar] {
        field.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
    }

    static let bidi = "/usr/share/unicode/BidiCharacterTest.txt"
    static let lineBreak = "/usr/share/unicode/auxiliary/LineBreakTest.txt"
}

@Suite("Unicode's algorithms against Unicode's test data")
struct UnicodeAlgorithmTests {
    @Test("Bidi: every case of BidiCharacterTest.txt, levels and visual order",
          .enabled(if: FileManager.default.fileExists(atPath: UnicodeTestData.bidi),
                   "no \(UnicodeTestData.bidi) (Debian's unicode-data; scripts/setup/install-packages.sh installs it)"))
    func bidiCharacterTest() throws {
        let lines = try #require(UnicodeTestData.lines(UnicodeTestData.bidi))
        var failures: [String] = []
        for line in lines {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count >= 5, let direction = Int32(fields[1]).flatMap(Bidi.Direction.init), let paragraph = UInt8(fields[2])
            else { continue }
            let scalars = UnicodeTestData.scalars(fields[0])
            let expected = fields[3].split(separator: " ").map { UInt8($0) }  // nil: removed by X9
            let order = fields[4].split(separator: " ").compactMap { Int($0) }
            let result = Bidi.levels(of: scalars, direction: direction)
            let kept = expected.indices.filter { expected[$0] != nil }
            let levelsMatch = kept.allSatisfy { result.levels[$0] == expected[$0] }
            let visual = Bidi.visualOrder(kept.map { result.levels[$0] }).map { kept[$0] }
            if result.paragraph != paragraph || !levelsMatch || visual != order {
                failures.append(String(line))
            }
        }
        #expect(lines.count > 90_000)
    }

    /// ICU 72's root rules take revisions of UAX #14 that Unicode 15.1 made
    /// after this data (15.0): no break after a word-initial hyphen before a
    /// letter (LB20a), none between an infix separator and a digit (LB25,
    /// "IS × NU"), and a break between a space and such a separator (LB15c,
    /// "SP ÷ IS NU"). A case differs for those reasons when every difference
    /// is either a break the data allows and ICU does not, right after a
    /// hyphen, comma or full stop (combining marks after it aside), or a
    /// break ICU makes between a space and a full stop or comma before a
    /// digit.
    static func isUnicode151Revision(_ scalars: [Unicode.Scalar], _ expected: [Bool], _ got: [Bool]) -> Bool {
        (0..<got.count).allSatisfy { k in
            guard got[k] != expected[k] else { return true }
            // ICU breaks between scalars[k] and scalars[k + 1]: LB15c.
            if got[k], k + 2 < scalars.count, scalars[k].value == 0x20, [0x2C, 0x2E].contains(scalars[k + 1].value),
               scalars[k + 2].properties.numericType == .decimal {
                return true
            }
            guard expected[k], !got[k] else { return false }
            var before = k  // scalars[before] is the one before the break at k + 1
            while before > 0, scalars[before].properties.generalCategory == .nonspacingMark { before -= 1 }
            return [0x2D, 0x2C, 0x2E].contains(scalars[before].value)
        }
    }

    @Test("Line breaking: every case of LineBreakTest.txt",
          .enabled(if: FileManager.default.fileExists(atPath: UnicodeTestData.lineBreak),
                   "no \(UnicodeTestData.lineBreak) (Debian's unicode-data; scripts/setup/install-packages.sh installs it)"))
    func lineBreakTest() throws {
        let lines = try #require(UnicodeTestData.lines(UnicodeTestData.lineBreak))
        var failures: [String] = [], revised: [String] = []
        for line in lines {
            let rule = line.split(separator: "#", maxSplits: 1)[0]
            var scalars: [Unicode.Scalar] = []
            var expected: [Bool] = []  // a break before scalars[i], i in 1...count
            for token in rule.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                switch token {
                case "×": expected.append(false)
                case "÷": expected.append(true)
                default: scalars += UnicodeTestData.scalars(token)
                }
            }
            guard !scalars.isEmpty, expected.count == scalars.count + 1 else { continue }
            let breaks = LineBreaker.unicodeBreaks(scalars, style: .strict)
            let got = (1...scalars.count).map { breaks[$0] != 0 }
            if got != Array(expected[1...]) {
                if Self.isUnicode151Revision(scalars, Array(expected[1...]), got) {
                    revised.append(String(rule))
                } else {
                    failures.append(String(rule))
                }
            }
        }
        #expect(lines.count > 7_000)
        #expect(revised.count <= 30, "\(revised.count) cases follow Unicode 15.1's revisions: \(revised)")
        #expect(failures.isEmpty, "\(failures.count) of \(lines.count) cases differ, such as \(failures.prefix(3))")
    }

    @Test("Layout's normal line breaking differs from UAX #14's default only before small kana and \"ー\" (CJ)")
    func normalDiffersOnlyForConditionalJapaneseStarters() throws {
        let cj: [Unicode.Scalar] = ["\u{3041}", "\u{3083}", "\u{30C3}", "\u{30FC}", "\u{31F0}", "\u{FF67}"]
        for starter in cj {
            let text: [Unicode.Scalar] = ["\u{6F22}", starter, "\u{5B57}"]  // 漢 CJ 字
            #expect(LineBreaker.unicodeBreaks(text, style: .strict)[1] == 0, "no break before U+\(String(starter.value, radix: 16)) in UAX #14's default")
            #expect(LineBreaker.unicodeBreaks(text, style: .normal)[1] == 1, "a break before U+\(String(starter.value, radix: 16)) with line-break: normal")
        }
        let latin = Array("Hello, world — co-operate 3.14 (again)! 漢字。".unicodeScalars)
        #expect(LineBreaker.unicodeBreaks(latin, style: .strict) == LineBreaker.unicodeBreaks(latin, style: .normal))
    }
}

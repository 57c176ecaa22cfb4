import Foundation
import NeonClient
import NeonTUI
import Testing

/// docs/CLIENT.md's key tables against the bindings, row by row: a table
/// belongs to a screen by the heading it sits under (the first table
/// headed `| keys | what they do |` after it), a row is the key as the key
/// list names it, in backticks, and what it does.
@Suite("docs/CLIENT.md's key tables are the bindings' key lists")
struct KeyTableDocsTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/CLIENT.md")
    static let header = "| keys | what they do |"

    /// Each screen's heading in docs/CLIENT.md and its key list.
    static let tables: [(heading: String, lines: [HelpOverlay.Line])] = [
        ("## The reader's screen", ReaderModel.helpLines),
        ("### Speaker notes", NotesModel.help),
        ("## The shared draft", DraftModel.helpLines),
        ("## Monitoring: monitor and replay", MonitorModel.help),
    ]

    /// The table's row for `line`, as docs/CLIENT.md writes it.
    static func row(_ line: HelpOverlay.Line) -> String {
        "| `\(line.key)` | \(line.action) |"
    }

    /// The rows of the first key table under `heading`.
    static func rows(under heading: String, in lines: [String]) throws -> [String] {
        let start = try #require(lines.firstIndex(of: heading), "docs/CLIENT.md has no heading \"\(heading)\"")
        let level = heading.prefix { $0 == "#" }.count
        let section = lines[(start + 1)...].prefix { line in
            let hashes = line.prefix { $0 == "#" }.count
            return hashes == 0 || hashes > level || !line.dropFirst(hashes).hasPrefix(" ")
        }
        let table = try #require(section.firstIndex(of: header), "docs/CLIENT.md has no key table (\(header)) under \"\(heading)\"")
        return section[(table + 2)...].prefix { $0.hasPrefix("|") }.map { $0 }
    }

    @Test("each screen's key table in docs/CLIENT.md lists its bindings' lines, in order", arguments: 0..<tables.count)
    func table(_ index: Int) throws {
        let (heading, lines) = Self.tables[index]
        let text = try String(contentsOf: Self.client, encoding: .utf8).components(separatedBy: "\n")
        let documented = try Self.rows(under: heading, in: text)
        let expected = lines.map(Self.row)
        let whole = "the table the bindings make:\n\(Self.header)\n|---|---|\n" + expected.joined(separator: "\n")
        for (number, (doc, bound)) in zip(documented, expected).enumerated() where doc != bound {
            Issue.record("docs/CLIENT.md's key table under \"\(heading)\", row \(number + 1), says \(doc) where the bindings say \(bound); \(whole)")
        }
        for extra in documented.dropFirst(expected.count) {
            Issue.record("docs/CLIENT.md's key table under \"\(heading)\" has the row \(extra), which no binding has; \(whole)")
        }
        for missing in expected.dropFirst(documented.count) {
            Issue.record("docs/CLIENT.md's key table under \"\(heading)\" lacks the row \(missing); \(whole)")
        }
    }
}

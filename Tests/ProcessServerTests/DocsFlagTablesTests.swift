import Foundation
import NeonServerTestSupport
import NeonTestSupport
import Testing

/// The flag tables of the documents against the binaries' `--help`, both
/// ways, so that neither can drift: every flag a table documents is one
/// `--help` lists, and every flag `--help` lists has its row. A table
/// belongs to a command by the heading it sits under (down to the next
/// heading of the same or a higher level); a flag is the first word of
/// each backticked span in a row's first cell (`` `-h`, `--help` `` is two).
@Suite("the documents' flag tables match --help", .ownThreads)
struct DocsFlagTablesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let neonsyncd = ServerProcess.binary
    static let neonsync = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync")

    /// The commands of `neonsync` whose flags docs/CLIENT.md's "Options" table
    /// lists, by name in its `commands` column (`bench` has its own table).
    static let clientCommands = ["read", "join", "present", "follow", "draft", "tail", "monitor", "replay", "notes", "rooms"]

    struct Row {
        var flags: [String]
        var cells: [String]
    }

    /// The rows of every table under `heading` in `file`.
    static func rows(in file: String, under heading: String) throws -> [Row] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: heading), "\(file) has no heading \"\(heading)\"")
        let level = heading.prefix { $0 == "#" }.count
        var rows: [Row] = []
        var inCode = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("```") { inCode.toggle() }
            if inCode { continue }
            let hashes = line.prefix { $0 == "#" }.count
            if hashes > 0, hashes <= level, line.dropFirst(hashes).hasPrefix(" ") { break }
            guard line.hasPrefix("|"), !line.hasPrefix("|---") else { continue }
            let cells = cells(of: line)
            let flags = flags(inCell: cells.first ?? "")
            if !flags.isEmpty { rows.append(Row(flags: flags, cells: cells)) }
        }
        return rows
    }

    /// A table row's cells, `\|` kept inside its cell.
    static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "|" { cells.append(current.trimmingCharacters(in: .whitespaces)); current = "" } else {
                current.append(character)
            }
        }
        return cells
    }

    /// `` `--log FILE\|-` `` → ["--log"]; `` `-h`, `--help` `` → ["-h", "--help"].
    static func flags(inCell cell: String) -> [String] {
        let spans = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map(\.element)
        return spans.compactMap { span in
            let word = String(span.split(separator: " ").first ?? "")
            return word.wholeMatch(of: /--?[A-Za-z0-9][a-z0-9-]*/) != nil ? word : nil
        }
    }

    static func compare(documented: [String], listed: Set<String>, what: String) {
        let documentedSet = Set(documented)
        let counts = Dictionary(documented.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.filter { $0.value > 1 }.isEmpty, "\(what): flags documented twice: \(counts.filter { $0.value > 1 }.keys.sorted())")
        #expect(documentedSet.subtracting(listed).isEmpty,
                "\(what): documented but not in --help: \(documentedSet.subtracting(listed).sorted())")
        #expect(listed.subtracting(documentedSet).isEmpty,
                "\(what): in --help but not documented: \(listed.subtracting(documentedSet).sorted())")
    }

    @Test("docs/OPERATIONS.md's tables of neonsyncd's flags list exactly the flags of neonsyncd --help")
    func server() throws {
        let rows = try Self.rows(in: "docs/OPERATIONS.md", under: "### Every flag")
        let listed = HelpFlags.flags(inHelp: try HelpFlags.help(Self.neonsyncd, ["--help"]))
        #expect(listed.count > 30, "the help parser found the flags: \(listed.sorted())")
        Self.compare(documented: rows.flatMap(\.flags), listed: listed, what: "neonsyncd")
    }

    @Test("docs/OPERATIONS.md's table of neonsyncd token's flags lists exactly the flags of neonsyncd token --help")
    func token() throws {
        let rows = try Self.rows(in: "docs/OPERATIONS.md", under: "### neonsyncd token")
        let listed = HelpFlags.flags(inHelp: try HelpFlags.help(Self.neonsyncd, ["token", "--help"]))
        #expect(listed == ["--secret-file", "--room", "--role", "--ttl", "-h", "--help"], "the help parser found the flags: \(listed.sorted())")
        Self.compare(documented: rows.flatMap(\.flags), listed: listed, what: "neonsyncd token")
    }

    @Test("docs/OPERATIONS.md's table of neonsyncd reshard's flags lists exactly the flags of neonsyncd reshard --help")
    func reshard() throws {
        let rows = try Self.rows(in: "docs/OPERATIONS.md", under: "### neonsyncd reshard")
        let listed = HelpFlags.flags(inHelp: try HelpFlags.help(Self.neonsyncd, ["reshard", "--help"]))
        #expect(listed == ["--from", "--to", "--redis-password-file", "--dry-run", "-h", "--help"], "the help parser found the flags: \(listed.sorted())")
        Self.compare(documented: rows.flatMap(\.flags), listed: listed, what: "neonsyncd reshard")
    }

    @Test("docs/CLIENT.md's options table gives each neonsync command exactly the flags of its --help",
          arguments: clientCommands)
    func client(command: String) throws {
        let rows = try Self.rows(in: "docs/CLIENT.md", under: "## Options")
        let taking = rows.filter { row in
            row.cells.count >= 2 && row.cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .contains(command)
        }
        let listed = HelpFlags.flags(inHelp: try HelpFlags.help(Self.neonsync, [command, "--help"]))
        #expect(listed.contains("--help"), "the help parser found the flags: \(listed.sorted())")
        Self.compare(documented: taking.flatMap(\.flags), listed: listed, what: "neonsync \(command)")
    }

    @Test("every option neonsync --help lists is in docs/CLIENT.md's options table, and every command there exists")
    func clientOverview() throws {
        let rows = try Self.rows(in: "docs/CLIENT.md", under: "## Options")
        let documented = Set(rows.flatMap(\.flags))
        let listed = HelpFlags.flags(inHelp: try HelpFlags.help(Self.neonsync, ["--help"]))
        #expect(listed.subtracting(documented).isEmpty,
                "in neonsync --help but not documented: \(listed.subtracting(documented).sorted())")
        let named = Set(rows.flatMap { $0.cells.count >= 2 ? $0.cells[1].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces) } : [] })
        #expect(named.subtracting(Self.clientCommands).isEmpty, "unknown commands: \(named.subtracting(Self.clientCommands).sorted())")
    }

    @Test("docs/PERFORMANCE.md's table of neonsync bench's flags lists exactly the flags of neonsync bench --help")
    func bench() throws {
        let rows = try Self.rows(in: "docs/PERFORMANCE.md", under: "### Every flag of `neonsync bench`")
        let listed = HelpFlags.flags(inHelp: try HelpFlags.help(Self.neonsync, ["bench", "--help"]))
        #expect(listed.count > 15, "the help parser found the flags: \(listed.sorted())")
        Self.compare(documented: rows.flatMap(\.flags), listed: listed, what: "neonsync bench")
    }
}

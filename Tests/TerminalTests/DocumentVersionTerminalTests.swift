import Foundation
import NeonTestSupport
import Testing

/// A document that changes while two readers of other sizes read it: saved
/// by vim (which writes a new file and renames it over the old one) and
/// appended to with the shell's `>>`, watched by `read FILE`.
@Suite("A document that changes while you read it, in tmux", .serialized, .ownThreads)
struct DocumentVersionTerminalTests {
    static let client = TerminalEndToEndTests.client

    static let talk = "# Changing talk\n\n" + (1...30).map { "Paragraph \($0) of the talk that changes while people read it." }
        .joined(separator: "\n\n") + "\n"

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// The document box's first row, trimmed.
    func topRow(_ screen: [String]) -> String? {
        ReadingTogetherTerminalTests().documentRows(screen).first
    }

    /// Runs a program to its end, with no terminal; its exit status.
    func run(_ program: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runUnblocked()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// `text` in a file named talk.md (short, so notices naming it fit the
    /// status line) in a directory of its own; the caller removes both.
    static func talkFile(_ text: String) throws -> (directory: String, file: String) {
        let directory = NSTemporaryDirectory() + "neonsync-versions-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let file = directory + "/talk.md"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return (directory, file)
    }

    /// Scrolls `name` a row at a time (a few at most) until a paragraph
    /// other than the first starts on its top row; that row.
    func paragraphOnTop(_ tmux: Tmux, _ name: String) throws -> String {
        for _ in 0..<4 {
            let top = topRow(try tmux.waitUntilStill(name)) ?? ""
            if top.hasPrefix("Paragraph "), !top.hasPrefix("Paragraph 1 ") { return top }
            try tmux.sendKeys(name, "j")
        }
        throw TmuxError("no paragraph reached the top of \(name):\n" + (try tmux.capture(name)).joined(separator: "\n"))
    }

    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test("a file saved by vim's rename and then by >> keeps both readers' places, at 80x24 and 60x20, and says who changed it")
    func savedByRenameAndAppend() throws {
        let vim = try #require(["/usr/bin/vim", "/usr/bin/vim.tiny", "/usr/bin/vi"].first { FileManager.default.isExecutableFile(atPath: $0) },
                               "vim is installed by deploy/setup.sh")
        let server = try ServerProcess()
        let tmux = try Tmux()
        let (directory, file) = try Self.talkFile(Self.talk)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try launch(tmux, "ada", columns: 80, rows: 24, "read \(file) --room versions --name ada", server: server)
        try tmux.waitFor("ada", "Paragraph 1 of the talk")
        try launch(tmux, "bob", columns: 60, rows: 20, "join versions --name bob", server: server)
        try tmux.waitFor("bob", "Paragraph 1 of the talk")

        // Each reader goes somewhere of their own, a paragraph's first row on top.
        try tmux.sendKeys("ada", "d")
        try tmux.sendKeys("bob", "Space", "Space")
        let adaPlace = try paragraphOnTop(tmux, "ada")
        let bobPlace = try paragraphOnTop(tmux, "bob")
        #expect(adaPlace != bobPlace)

        // vim writes a new file and renames it over the old one.
        let insert = NSTemporaryDirectory() + "neonsync-insert-\(getpid()).md"
        try "\nA paragraph vim put above everyone.\n".write(toFile: insert, atomically: true, encoding: .utf8)
        defer { unlink(insert) }
        let before = Self.inode(file)
        #expect(try run(vim, ["-u", "NONE", "-i", "NONE", "-N", "-n", "-es", "-c", "set backupcopy=no writebackup backupskip=",
                              "-c", "1r \(insert)", "-c", "wq", file]) == 0)
        #expect(Self.inode(file) != before, "vim replaced the file by a rename")
        try tmux.waitFor("bob", "ada published version 2 of “talk.md”")
        try tmux.waitFor("ada", "“talk.md” changed: the room has version 2")
        #expect(topRow(try tmux.capture("ada")) == adaPlace, "ada kept her place")
        #expect(topRow(try tmux.capture("bob")) == bobPlace, "bob kept his place")

        // The shell appends to it in place.
        #expect(try run("/bin/sh", ["-c", "printf '\\nAppended by the shell at the end.\\n' >> \(file)"]) == 0)
        try tmux.waitFor("bob", "ada published version 3 of “talk.md”")
        #expect(try topRow(tmux.capture("ada")) == adaPlace && topRow(tmux.capture("bob")) == bobPlace)
        let versions = server.events("document").compactMap { $0["version"] as? Int }
        #expect(versions == [1, 2, 3])
        #expect(server.events("document").last?["revises"] as? Int == 2)

        // Both versions are the room's: the new paragraph above, the new one at the end.
        try tmux.sendKeys("bob", "g")
        try tmux.waitFor("bob", "A paragraph vim put above everyone.")
        try tmux.sendKeys("ada", "G")
        try tmux.waitFor("ada", "Appended by the shell at the end.")
        #expect(server.stop() == 0)
    }

    @Test("a file that becomes unreadable keeps its last good version and says why, at 80x24 and 60x20", arguments: [(80, 24), (60, 20)])
    func unreadableKeepsLastGood(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let (directory, file) = try Self.talkFile(Self.talk)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(file) --room gone --name ada", server: server)
        try tmux.waitFor("ada", "Paragraph 1 of the talk")
        try Data([0x23, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: file))
        try tmux.waitUntil("ada", "the reason") { $0.last?.contains("talk.md is not UTF-8 text;") == true }
        #expect(try tmux.capture("ada").joined().contains("Paragraph 1 of the talk"))
        #expect(server.events("document").count == 1, "nothing went to the room")
        #expect(server.stop() == 0)
    }
}

import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonSystem
import NeonTestSupport
import Testing

/// `--token-file FILE`: the token off the command line, from a file only
/// its owner can read; `--token T` still works but warns.
@Suite("neonsync --token-file", .serialized, .ownThreads)
struct TokenFileTests {
    @Test("a file only its owner can read gives its first line, without spaces or a carriage return")
    func readsFirstLine() throws {
        let path = try fileWithMode("  v1.talk.reader.abc \r\nsecond line\n", 0o600, prefix: "neonsync-token")
        defer { unlink(path) }
        #expect(try PrivateFile.roomToken(path) == "v1.talk.reader.abc")
        let bare = try fileWithMode("tok", 0o400, prefix: "neonsync-token")
        defer { unlink(bare) }
        #expect(try PrivateFile.roomToken(bare) == "tok")
    }

    @Test("a file group or others can read or write is refused with the path, who can do what, and chmod 600", arguments: [
        (mode_t(0o644), "can be read by group and others"), (mode_t(0o640), "can be read by its group"),
        (mode_t(0o604), "can be read by others"), (mode_t(0o620), "can be written by its group"),
        (mode_t(0o602), "can be written by others"), (mode_t(0o660), "can be read and written by its group"),
        (mode_t(0o624), "can be written by its group and read by others"), (mode_t(0o610), "can be run by its group"),
    ])
    func refusesReadable(mode: mode_t, who: String) throws {
        let path = try fileWithMode("tok\n", mode, prefix: "neonsync-token")
        defer { unlink(path) }
        #expect(throws: NeonError("--token-file \(path) \(who) (mode \(String(mode, radix: 8))); "
            + "run chmod 600 \(path) so only you can read it, then try again")) { try PrivateFile.roomToken(path) }
    }

    @Test("an empty file, or one whose first line is blank, is refused naming the path and what to write")
    func refusesEmpty() throws {
        for text in ["", "\n", "   \nlater\n"] {
            let path = try fileWithMode(text, 0o600, prefix: "neonsync-token")
            defer { unlink(path) }
            #expect(throws: NeonError("--token-file \(path) is empty (or its first line is); write the room "
                + "token (the last line neonsyncd token prints) on its first line, and run chmod 600 \(path)")) {
                try PrivateFile.roomToken(path)
            }
        }
    }

    @Test("a missing file or a directory is refused naming the path")
    func refusesMissing() throws {
        let missing = NSTemporaryDirectory() + "neonsync-no-such-token-\(UUID().uuidString)"
        #expect(throws: NeonError("--token-file \(missing) cannot be read (No such file or directory); write "
            + "the room token (the last line neonsyncd token prints) on its first line, then run chmod 600 \(missing)")) {
            try PrivateFile.roomToken(missing)
        }
        #expect(throws: NeonError("--token-file / is not a regular file; give a file that holds the room token")) {
            try PrivateFile.roomToken("/")
        }
    }

    @Test("tail with --token-file watches without a warning; --token works but warns once on standard error")
    func tailWarnsOnlyForToken() throws {
        let secret = try TestSecret()
        let server = try ServerProcess(["--secret-file", secret.path])
        let token = try secret.mint(room: "talk", role: "observer")
        let path = try fileWithMode(token + "\n", 0o600, prefix: "neonsync-token")
        defer { unlink(path) }

        let quiet = try TailProcess(["tail", "talk", "--server", server.url, "--token-file", path])
        #expect(try quiet.waitForLines(1)[0].contains("watching talk"))
        #expect(quiet.exitStatus(after: SIGTERM) == 0)
        #expect(!quiet.errorLines.contains { $0.contains("WARNING") }, "\(quiet.errorLines)")

        let loud = try TailProcess(["tail", "talk", "--server", server.url, "--token", token])
        #expect(try loud.waitForLines(1)[0].contains("watching talk"))
        #expect(loud.exitStatus(after: SIGTERM) == 0)
        #expect(loud.errorLines.filter { $0.contains("WARNING") } == [TokenFile.commandLineWarning])
        #expect(TokenFile.commandLineWarning == "neonsync: WARNING: --token: the token is visible to other users of "
            + "this machine (in ps); use --token-file FILE or NEONSYNC_TOKEN")
        #expect(server.stop() == 0)
    }

    @Test("every command that connects refuses a token file others can read with status 2 and the sentence; a group-writable one too")
    func commandsRefuseReadableFile() throws {
        let path = try fileWithMode("tok\n", 0o644, prefix: "neonsync-token")
        defer { unlink(path) }
        let sentence = "--token-file \(path) can be read by group and others (mode 644); run chmod 600 \(path)"
        for arguments in [["tail", "talk"], ["join", "talk"], ["monitor"], ["rooms"], ["bench", "connect"]] {
            let run = try runClient(arguments + ["--server", "ws://127.0.0.1:1/", "--token-file", path])
            #expect(run.status == 2, "\(arguments): \(run.err)")
            #expect(run.err.contains(sentence), "\(arguments): \(run.err)")
        }
        let writable = try fileWithMode("tok\n", 0o620, prefix: "neonsync-token")
        defer { unlink(writable) }
        let written = try runClient(["tail", "talk", "--server", "ws://127.0.0.1:1/", "--token-file", writable])
        #expect(written.status == 2 && written.err.contains(
            "--token-file \(writable) can be written by its group (mode 620); run chmod 600 \(writable)"), "\(written.err)")
        let readable = try fileWithMode("tok\n", 0o600, prefix: "neonsync-token")
        defer { unlink(readable) }
        let both = try runClient(["tail", "talk", "--token", "t", "--token-file", readable])
        #expect(both.status == 2 && both.err.contains("--token and --token-file both give the token"), "\(both.err)")
    }

    @Test("every command's help lists --token-file and says --token is visible in ps")
    func help() throws {
        for command in CommandName.allCases where command.connects {
            let text = CommandHelp.of(command).text().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("--token-file FILE") && text.contains("chmod 600 FILE"), "\(command)")
            #expect(text.contains("(ps)"), "\(command)")
        }
        for arguments in [["rooms", "--help"], ["bench", "--help"], ["--help"]] {
            let run = try runClient(arguments)
            #expect(run.status == 0 && run.out.contains("--token-file FILE") && run.out.contains("unix:PATH"), "\(arguments)")
        }
    }
}

import Foundation
import NeonTestSupport
import Testing

/// What the command lines of both binaries answer before anything
/// connects: names and rooms checked by the server's own rule, the closest
/// command or flag for a typo, and --version.
@Suite("command-line checks, suggestions and --version", .ownThreads)
struct CommandLineChecksTests {
    @Test("a room or --name the server would refuse ends the command with status 2 and the server's sentence, before connecting: nothing reaches the server")
    func serverRuleBeforeConnecting() async throws {
        let server = try ServerProcess()
        defer { _ = server.stop() }
        let long = String(repeating: "r", count: 65)
        let cases: [([String], String)] = [
            (["tail", long], "the room name has 65 characters"),
            (["tail", "talk", "--name", ""], "the name is empty"),
            (["join", "talk", "--name", String(repeating: "n", count: 70)], "the name has 70 characters; use at most 64"),
            (["follow", "talk", "--name", "tab\there"], "control characters"),
            (["join", long], "the room name has 65 characters"),
        ]
        for (arguments, sentence) in cases {
            let run = try runClient(arguments + ["--server", server.url])
            #expect(run.status == 2, "neonsync \(arguments.joined(separator: " ")) exits 2: \(run.err)")
            #expect(run.err.contains(sentence), "neonsync \(arguments.joined(separator: " ")): \(run.err)")
            #expect(run.err.hasPrefix("neonsync \(arguments[0]): ") && run.err.split(separator: "\n").count == 1, "\(run.err)")
        }
        #expect(server.events("connect").isEmpty && server.events("join").isEmpty, "nothing connected")
    }

    @Test("a mistyped command or flag gets the closest one as 'did you mean', a word far from all gets none, and each exits 2")
    func suggestions() throws {
        let client: [([String], String?)] = [
            (["raed"], "did you mean read?"),
            (["moniter"], "did you mean monitor?"),
            (["xyzzy"], nil),
            (["read", "notes.md", "--romo", "r"], "did you mean --room?"),
            (["tail", "talk", "--jsno"], "did you mean --json?"),
            (["rooms", "--jsn"], "did you mean --json?"),
            (["bench", "follow", "--folowers", "3"], "did you mean --followers?"),
            (["generate", "zhs"], "did you mean zsh?"),
        ]
        for (arguments, suggestion) in client {
            let run = try runClient(arguments)
            #expect(run.status == 2, "neonsync \(arguments.joined(separator: " ")): \(run.err)")
            if let suggestion {
                #expect(run.err.contains(suggestion), "neonsync \(arguments.joined(separator: " ")): \(run.err)")
            } else {
                #expect(!run.err.contains("did you mean"), "\(run.err)")
            }
        }
        for (arguments, suggestion) in [(["--prot", "1"], "did you mean --port?"), (["token", "--rol", "reader"], "did you mean --role?")] {
            let run = try runDaemon(arguments)
            #expect(run.status == 2 && run.err.contains(suggestion), "neonsyncd \(arguments.joined(separator: " ")): \(run.err)")
        }
    }

    @Test("neonsync --version and neonsyncd --version print the version, the commit and the versions of libwebsockets and cmark-gfm they run with; neonsync also its highlighter's (the development build's plug-in, beside it)")
    func version() throws {
        for (name, run) in [("neonsync", try runClient(["--version"])), ("neonsyncd", try runDaemon(["--version"]))] {
            #expect(run.status == 0, "\(name) --version: \(run.err)")
            let lines = run.out.split(separator: "\n").map(String.init)
            #expect(lines.count == (name == "neonsync" ? 5 : 4), "\(run.out)")
            if name == "neonsync" {
                #expect(lines.last?.wholeMatch(of: /highlighting: KSyntaxHighlighting 5\.[0-9]+\.[0-9]+/) != nil, "\(run.out)")
            }
            #expect(lines.first?.hasPrefix("\(name) ") == true, "\(run.out)")
            #expect(lines.contains { $0.hasPrefix("commit: ") }, "\(run.out)")
            #expect(lines.contains { $0.wholeMatch(of: /libwebsockets: [0-9]+\.[0-9]+\.[0-9]+.*/) != nil }, "\(run.out)")
            #expect(lines.contains { $0.wholeMatch(of: /cmark-gfm: [0-9]+\.[0-9]+\.[0-9]+\.gfm\.[0-9]+/) != nil }, "\(run.out)")
        }
    }
}

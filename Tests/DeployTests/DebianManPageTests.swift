import Foundation
import NeonTestSupport
import Testing

/// The man pages and shell completions in the packages, against the
/// packaged binaries' own `--help`: every flag each command's help lists is
/// in that command's part of the man page and of each completion script.
@Suite("the packages' man pages and completions", .serialized, .ownThreads)
struct DebianManPageTests {
    /// Each command's help arguments, by program; nil is the program itself.
    static let commands: [String: [String?]] = [
        "neonsync": ["read", "join", "present", "follow", "draft", "tail", "monitor", "replay", "rooms", "bench", "generate", "config"],
        "neonsyncd": [nil, "token", "reshard", "generate"],
    ]
    static let pages = ["neonsync": "usr/share/man/man1/neonsync.1.gz", "neonsyncd": "usr/share/man/man8/neonsyncd.8.gz"]

    static func run(_ line: String) throws -> (status: Int32, out: String, err: String) {
        try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", line])
    }

    /// The lines of `text` from the first that starts with `start` to the
    /// next that starts with one of `ends` (and then no space).
    static func part(of text: String, from start: String, to ends: [String]) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix(start) }) else { return "" }
        let rest = lines[(first + 1)...]
        let last = rest.firstIndex { line in
            ends.contains { line.hasPrefix($0) && line.dropFirst($0.count).first != " " }
        } ?? lines.endIndex
        return lines[first..<last].joined(separator: "\n")
    }

    /// `--room` as the man page writes it in bold: `\fB\-\-room\fR`.
    static func roff(_ flag: String) -> String { "\\fB" + flag.replacingOccurrences(of: "-", with: "\\-") + "\\fR" }

    @Test("each man page lints clean: mandoc -T lint and groff -ww -z say nothing")
    func lint() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        for (program, page) in Self.pages {
            let path = Tmux.quote(root.appendingPathComponent(page).path)
            let mandoc = try Self.run("mandoc -T lint -W warning \(path) 2>&1")
            #expect(mandoc.status == 0 && mandoc.out.isEmpty, "\(program): mandoc -T lint:\n\(mandoc.out)")
            let groff = try Self.run("zcat \(path) | groff -man -ww -z 2>&1")
            #expect(groff.status == 0 && groff.out.isEmpty, "\(program): groff -ww -z:\n\(groff.out)")
            let shown = try Self.run("MANWIDTH=80 man -l \(path) 2>/dev/null | col -b")
            #expect(shown.out.contains("NAME") && shown.out.contains(program), "\(program): man -l shows the page")
        }
    }

    @Test("every flag of every command's --help is in that command's part of its man page and of its bash, zsh and fish completions")
    func everyFlag() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        for (program, commands) in Self.commands {
            let binary = root.appendingPathComponent("usr/bin/\(program)")
            let page = try Self.run("zcat \(Tmux.quote(root.appendingPathComponent(Self.pages[program]!).path))").out
            let share = root.appendingPathComponent("usr/share")
            let bash = try String(contentsOf: share.appendingPathComponent("bash-completion/completions/\(program)"), encoding: .utf8)
            let zsh = try String(contentsOf: share.appendingPathComponent("zsh/vendor-completions/_\(program)"), encoding: .utf8)
            let fish = try String(contentsOf: share.appendingPathComponent("fish/vendor_completions.d/\(program).fish"), encoding: .utf8)
            for command in commands {
                let help = try HelpFlags.help(binary, (command.map { [$0] } ?? []) + ["--help"])
                let flags = HelpFlags.flags(inHelp: help)
                #expect(flags.contains("--help"), "\(program) \(command ?? ""): \(flags.sorted())")
                let manPart = command.map { Self.part(of: page, from: ".SS \(program) \($0)", to: [".SS ", ".SH "]) }
                    ?? Self.part(of: page, from: ".SH OPTIONS", to: [".SH "])
                let bashPart = Self.part(of: bash, from: "        \(command ?? "*"))", to: ["        ", "    esac"])
                let zshPart = Self.part(of: zsh, from: "        \(command ?? "*"))", to: ["        ", "    esac"])
                let subcommands = commands.compactMap { $0 }.joined(separator: " ")
                let fishCondition = command.map { "-n '__fish_seen_subcommand_from \($0)'" }
                    ?? "-n 'not __fish_seen_subcommand_from \(subcommands)'"
                for flag in flags {
                    let name = "\(program) \(command ?? "") \(flag)"
                    #expect(manPart.contains(Self.roff(flag)), "\(name) is in the man page")
                    #expect(bashPart.contains(" \(flag) ") || bashPart.contains("\"\(flag) ") || bashPart.contains(" \(flag)\""),
                            "\(name) is in the bash completion")
                    #expect(zshPart.contains("'\(flag)["), "\(name) is in the zsh completion")
                    let fishOption = flag.hasPrefix("--") ? "-l \(flag.dropFirst(2))" : "-s \(flag.dropFirst())"
                    #expect(fish.split(separator: "\n").contains { $0.contains(fishCondition) && $0.contains(fishOption + " ") },
                            "\(name) is in the fish completion")
                }
            }
        }
    }

    @Test("bash completes commands, flags and file names with the packaged script")
    func bashCompletes() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = Tmux.quote(root.appendingPathComponent("usr/share/bash-completion/completions/neonsync").path)
        func complete(_ words: [String]) throws -> [String] {
            let array = words.map(Tmux.quote).joined(separator: " ")
            let line = "cd \(Tmux.quote(root.path)) && source \(script) && COMP_WORDS=(\(array)) && COMP_CWORD=\(words.count - 1) "
                + "&& _neonsync; printf '%s\\n' \"${COMPREPLY[@]}\""
            let run = try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", line])
            #expect(run.status == 0, "\(run.err)")
            return run.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["neonsync", "ra"]) == [])
        #expect(try complete(["neonsync", "re"]).sorted() == ["read", "replay"])
        #expect(try complete(["neonsync", "read", "--ro"]) == ["--room"])
        #expect(try complete(["neonsync", "tail", "--j"]) == ["--json"])
        #expect(try complete(["neonsync", "read", "--token-file", "us"]) == ["usr"])
        #expect(try complete(["neonsync", "generate", "z"]) == ["zsh"])
        // Two completions in one shell: the second offers only its own words.
        let server = Tmux.quote(root.appendingPathComponent("usr/share/bash-completion/completions/neonsyncd").path)
        let twice = try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", "source \(server); "
            + "COMP_WORDS=(neonsyncd --po); COMP_CWORD=1; _neonsyncd; COMP_WORDS=(neonsyncd to); COMP_CWORD=1; _neonsyncd; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\""])
        #expect(twice.out == "token\n", "\(twice.out)\(twice.err)")
    }
}

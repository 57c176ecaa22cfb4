import NeonClient
import NeonCore
import Testing

@Suite("Command help, room names, login names")
struct CommandHelpTests {
    @Test("every command's help names its arguments, exactly its options, its exit statuses and an example",
          arguments: CommandName.allCases)
    func everyCommand(command: CommandName) {
        let help = CommandHelp.of(command)
        let text = help.text()
        #expect(text.hasPrefix("USAGE: neonsync \(command.rawValue)"))
        for section in ["OPTIONS:", "EXIT STATUS:"] { #expect(text.contains("\n\(section)\n"), "\(section) in \(command)") }
        #expect(text.contains("\nEXAMPLE:\n  neonsync \(command.rawValue)") || text.contains("\nEXAMPLES:\n  neonsync \(command.rawValue)"))
        for argument in help.arguments { #expect(text.contains("  \(argument.name)  ")) }
        for option in CommandOption.all {
            let listed = text.contains("\n  \(option.usage) ")
            #expect(listed == option.commands.contains(command), "\(option.flag) in \(command)")
        }
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(command) fits 80 columns")
        #expect(text.contains("EXIT STATUS:\n  0  "))
    }

    @Test("screen commands list their keys: the reader's, the draft editor's with F1 and Ctrl-G, the monitor's")
    func keys() {
        #expect(CommandHelp.of(.join).text().contains("\nKEYS:\n"))
        #expect(CommandHelp.of(.join).text().contains("t                  back to top (eased)"))
        let draft = CommandHelp.of(.draft).text()
        #expect(draft.contains("F1 Ctrl-G") && draft.contains("undo / redo a word or burst") && draft.contains("? included"))
        #expect(CommandHelp.of(.monitor).text().contains("scroll the feed"))
        #expect(!CommandHelp.of(.tail).text().contains("KEYS:"))
        #expect(CommandHelp.of(.tail).text().contains("  4  the server"))
        #expect(CommandHelp.of(.present).text().contains("  3  the server refused this client"))
    }

    @Test("room names follow the server's rule, and the sentence names the argument the command takes")
    func roomNames() {
        for good in ["talk", "café(1)", "a\u{A0}b", "*notes*", String(repeating: "r", count: 64), "読書会"] {
            #expect(RoomName.problem(good, given: "neonsync join ROOM") == nil && Hub.problem(withRoom: good) == nil, "\(good)")
        }
        for bad in ["", "a b", "tab\there", String(repeating: "r", count: 65)] {
            #expect(RoomName.problem(bad, given: "neonsync join ROOM") != nil && Hub.problem(withRoom: bad) != nil, "\(bad)")
        }
        #expect(RoomName.problem("a b", given: "neonsync join ROOM") == "the room name \"a b\" contains spaces or control characters; a room name is 1–64 characters without spaces or control characters; choose another room: neonsync join ROOM")
        #expect(RoomName.problem("a b", given: "--room R")?.hasSuffix("; choose another with --room R") == true)
        #expect(RoomName.rule == "1–64 characters without spaces or control characters")
    }

    @Test("a room from a file name keeps what the rule allows and turns spaces into dashes", arguments: [
        ("notes.md", "notes"), ("/tmp/My Notes (v2).md", "My-Notes-(v2)"), ("archive.tar.gz", "archive.tar"),
        (".md", ".md"), ("café", "café"), (String(repeating: "x", count: 70) + ".txt", String(repeating: "x", count: 64)),
    ])
    func roomFromFile(path: String, room: String) {
        #expect(RoomName.fromFile(path) == room)
        #expect(Hub.problem(withRoom: RoomName.fromFile(path)) == nil)
    }

    @Test("the default name is the first login name the server takes, else reader")
    func loginName() {
        #expect(LoginName.choose(["ada", "bob", "carol"]) == "ada")
        #expect(LoginName.choose([nil, "bob", "carol"]) == "bob")
        #expect(LoginName.choose([nil, "  ", "carol"]) == "carol")
        #expect(LoginName.choose(["a\u{7}b", nil, nil]) == "reader")
        #expect(LoginName.choose([]) == LoginName.fallback)
    }

    @Test("a screen command without a capable terminal says why in one sentence with the way out")
    func terminalCheck() {
        #expect(TerminalCheck.problem(for: .join, inputIsTerminal: true, outputIsTerminal: true, term: "xterm-256color") == nil)
        #expect(TerminalCheck.problem(for: .join, inputIsTerminal: true, outputIsTerminal: true, term: nil) == nil)
        let piped = TerminalCheck.problem(for: .read, inputIsTerminal: true, outputIsTerminal: false, term: "xterm")
        #expect(piped == "draws a screen, but standard output is not a terminal; run it in a terminal window or tmux, without redirecting it (neonsync tail ROOM prints a room's events as lines without one)")
        let dumb = TerminalCheck.problem(for: .replay, inputIsTerminal: true, outputIsTerminal: true, term: "dumb")
        #expect(dumb?.contains("TERM=dumb") == true && dumb?.contains("neonsync replay LOGFILE --summary") == true)
        #expect(TerminalCheck.problem(for: .draft, inputIsTerminal: false, outputIsTerminal: false, term: "dumb")?
            .contains("standard input and output are not terminals") == true)
    }

    @Test("help text wraps at word boundaries and aligns its tables")
    func layout() {
        #expect(HelpText.wrap("one two three four", width: 30, indent: 2) == ["  one two three four"])
        #expect(HelpText.wrap(String(repeating: "word ", count: 12), width: 30, indent: 0).allSatisfy { $0.count <= 30 })
        #expect(HelpText.table([("-a", "first"), ("--bb X", "second")], width: 40) == ["  -a      first", "  --bb X  second"])
    }
}

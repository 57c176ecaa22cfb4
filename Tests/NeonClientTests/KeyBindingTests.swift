import NeonClient
import NeonTUI
import Testing

/// A screen's key maps and the lists of keys it shows: its key list and
/// the keys of its commands' `--help`.
struct ScreenKeys: CustomTestStringConvertible, Sendable {
    var name: String
    /// Each map's name, help lines and repeated inputs.
    var maps: [(name: String, help: [HelpOverlay.Line], repeated: [BindingInput])]
    /// What the key list shows.
    var shown: [HelpOverlay.Line]
    /// The commands whose `--help` lists the keys.
    var commands: [String]

    var testDescription: String { name }

    static let all: [ScreenKeys] = [
        ScreenKeys(name: "the reader", maps: [
            ("document", ReaderModel.documentKeys.bindings.map(\.help), ReaderModel.documentKeys.repeatedInputs),
            ("slides", ReaderModel.slideKeys.bindings.map(\.help), ReaderModel.slideKeys.repeatedInputs),
        ], shown: ReaderModel.helpLines, commands: ["read", "join", "present", "follow"]),
        ScreenKeys(name: "the draft editor", maps: [("draft", DraftModel.keys.bindings.map(\.help), DraftModel.keys.repeatedInputs)],
                   shown: DraftModel.helpLines, commands: ["draft"]),
        ScreenKeys(name: "the monitor", maps: [("monitor", MonitorModel.keys.bindings.map(\.help), MonitorModel.keys.repeatedInputs)],
                   shown: MonitorModel.help, commands: ["monitor", "replay"]),
        ScreenKeys(name: "the notes screen", maps: [("notes", NotesModel.keys.bindings.map(\.help), NotesModel.keys.repeatedInputs)],
                   shown: NotesModel.help, commands: ["notes"]),
    ]
}

@Suite("key bindings are data: the key lists come from them")
struct KeyBindingTests {
    @Test("every binding has help, and its line is on the screen's key list", arguments: ScreenKeys.all)
    func everyBindingHasHelp(_ screen: ScreenKeys) {
        for map in screen.maps {
            for line in map.help {
                #expect(!line.key.isEmpty && !line.action.isEmpty, "\(screen.name)'s \(map.name) keys have a binding without help")
                #expect(screen.shown.contains(line),
                        "\(screen.name)'s \(map.name) keys have a binding (\(line.key): \(line.action)) its key list leaves out")
            }
        }
    }

    @Test("every line of a key list and of --help has a binding", arguments: ScreenKeys.all)
    func everyLineHasBinding(_ screen: ScreenKeys) throws {
        let bound = screen.maps.flatMap(\.help)
        for line in screen.shown {
            #expect(bound.contains(line), "\(screen.name)'s key list shows \"\(line.key): \(line.action)\", which no binding has")
        }
        #expect(Set(screen.shown.map(\.key)).count == screen.shown.count, "\(screen.name)'s key list names a key twice")
        for command in screen.commands {
            let help = try #require(CommandHelp.all.first { $0.command.rawValue == command }, "no --help for \(command)")
            #expect(help.keys == screen.shown, "neonsync \(command) --help lists other keys than \(screen.name)'s key list")
        }
    }

    @Test("no two bindings of one mode share a key", arguments: ScreenKeys.all)
    func noKeyTwice(_ screen: ScreenKeys) {
        for map in screen.maps {
            #expect(map.repeated.isEmpty, "\(screen.name)'s \(map.name) keys bind \(map.repeated) more than once")
        }
    }

    @Test("a key is looked up as its binding says, typing takes the characters no binding names, and unbound input does nothing")
    func lookup() {
        #expect(ReaderModel.documentKeys.action(for: .key(.character("j"))) == .rowDown)
        #expect(ReaderModel.documentKeys.action(for: .key(.enter)) == .rowDown)
        #expect(ReaderModel.documentKeys.action(for: .key(.character("7"))) == .chooseTab)
        #expect(ReaderModel.documentKeys.action(for: .key(.character("0"))) == nil)
        #expect(ReaderModel.documentKeys.action(for: .mouse(MouseEvent(.wheelUp, x: 0, y: 0))) == .mouse)
        #expect(ReaderModel.documentKeys.action(for: .paste("x")) == nil)
        #expect(ReaderModel.slideKeys.action(for: .key(.character("0"))) == .typeDigit)
        #expect(ReaderModel.slideKeys.action(for: .key(.character("q"))) == nil)
        #expect(DraftModel.keys.action(for: .key(.character("?"))) == .type)
        #expect(DraftModel.keys.action(for: .key(.function(1))) == .showKeys)
        #expect(DraftModel.keys.action(for: .key(.alt("b"))) == .wordLeft)
        #expect(DraftModel.keys.action(for: .key(.function(5))) == nil)
        #expect(DraftModel.keys.action(for: .paste("x")) == .paste)
        #expect(MonitorModel.keys.action(for: .key(.escape)) == .quit)
        #expect(NotesModel.keys.action(for: .key(.function(1))) == .showKeys)
    }

    @Test("bindings that share a help line are listed once, where the first of them stands")
    func sharedLines() {
        let map = KeyMap<Int>([
            KeyBinding([.character("j")], 1, help: HelpOverlay.Line(key: "j k", action: "scroll")),
            KeyBinding([.character("q")], 2, help: HelpOverlay.Line(key: "q", action: "quit")),
            KeyBinding([.character("k")], 3, help: HelpOverlay.Line(key: "j k", action: "scroll")),
            KeyBinding([.character("j")], 4, help: HelpOverlay.Line(key: "j", action: "again")),
        ])
        #expect(map.helpLines == [HelpOverlay.Line(key: "j k", action: "scroll"), HelpOverlay.Line(key: "q", action: "quit"),
                                  HelpOverlay.Line(key: "j", action: "again")])
        #expect(map.repeatedInputs == [.key(.character("j"))])
        #expect(map.action(for: .character("j")) == 1)
    }
}

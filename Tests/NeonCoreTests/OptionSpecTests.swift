import NeonCore
import Testing

@Suite("option tables: parsing, suggestions, man pages and completions")
struct OptionSpecTests {
    static let table = [
        OptionSpec("--port", value: "N", help: "the port"),
        OptionSpec("--log", value: "FILE", help: "the log; see -x"),
        OptionSpec("--quiet", help: "say less"),
        OptionSpec.help(),
    ]

    @Test("a table reads --flag value, --flag=value, switches, -h and positional arguments in order")
    func parses() throws {
        let read = try OptionSpec.parse(["a", "--port", "1", "--log=x=y", "--quiet", "-", "-h"], by: Self.table)
        #expect(read == [.positional("a"), .option(Self.table[0], value: "1"), .option(Self.table[1], value: "x=y"),
                         .option(Self.table[2], value: nil), .positional("-"), .option(Self.table[3], value: nil)])
    }

    @Test("an unknown flag comes with the closest one, a missing value and a value for a switch are named")
    func problems() {
        #expect(throws: OptionSpec.ParseError.unknown("--prot", suggestion: "--port")) { try OptionSpec.parse(["--prot"], by: Self.table) }
        #expect(throws: OptionSpec.ParseError.unknown("--zzzzzz", suggestion: nil)) { try OptionSpec.parse(["--zzzzzz"], by: Self.table) }
        #expect(throws: OptionSpec.ParseError.missingValue(Self.table[0])) { try OptionSpec.parse(["--port"], by: Self.table) }
        #expect(throws: OptionSpec.ParseError.unexpectedValue(Self.table[2])) { try OptionSpec.parse(["--quiet=1"], by: Self.table) }
    }

    @Test("the closest word is at most two edits away and less than half the word; a swap of neighbours is one edit")
    func closest() {
        #expect(Suggestion.closest(to: "raed", among: ["read", "replay", "join"]) == "read")
        #expect(Suggestion.closest(to: "folow", among: ["follow", "join"]) == "follow")
        #expect(Suggestion.closest(to: "xyzzy", among: ["read", "join"]) == nil)
        #expect(Suggestion.closest(to: "ab", among: ["ac"]) == nil)
        #expect(Suggestion.closest(to: "read", among: ["read"]) == nil)
    }

    @Test("a man page escapes dashes, backslashes, leading dots and non-ASCII characters, and lists every option as a tagged paragraph")
    func manPage() {
        let spec = CommandLineSpec(program: "demo", section: 1, tagline: "a demo — of pages", description: [".starts with a dot"],
                                   commands: [.init(name: nil, synopsis: "demo [options]", summary: "", groups: [.init(nil, Self.table)])],
                                   exitStatuses: [.init("0", "done")])
        let page = spec.manPage(version: "1.0", date: "2026-01-02")
        #expect(page.hasPrefix(".TH DEMO 1 \"2026-01-02\" \"demo 1.0\" \"NeonSync\"\n"))
        #expect(page.contains("demo \\- a demo \\[u2014] of pages"))
        #expect(page.contains("\\&.starts with a dot"))
        #expect(page.contains(".TP\n\\fB\\-\\-port\\fR \\fIN\\fR\nthe port"))
        #expect(page.contains(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow this help"))
        #expect(!page.contains(".SH OPTIONS\n.PP"))
    }

    @Test("completion scripts offer every flag; paths complete file names, other values nothing")
    func completions() {
        let spec = CommandLineSpec(program: "demo", section: 1, tagline: "", description: [],
                                   commands: [.init(name: "run", synopsis: "demo run", summary: "run it", groups: [.init(nil, Self.table)])],
                                   exitStatuses: [])
        let bash = spec.completion(for: .bash)
        #expect(bash.contains("words=\"--port --log --quiet -h --help\"") && bash.contains("paths=\"--log\" values=\"--port\""))
        let zsh = spec.completion(for: .zsh)
        #expect(zsh.contains("'--log[the log]:FILE:_files'") && zsh.contains("'--port[the port]:N: '"))
        let fish = spec.completion(for: .fish)
        #expect(fish.contains("complete -c demo -n '__fish_seen_subcommand_from run' -l log -r -F -d 'the log'"))
        #expect(fish.contains("-s h -l help -d 'show this help'"))
    }
}

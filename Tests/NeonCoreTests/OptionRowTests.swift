import NeonCore
import Testing

@Suite("option rows: one row parses, validates, helps, documents and completes its flag")
struct OptionRowTests {
    struct Settings: Equatable {
        var port = 7681
        var name: String?
        var tags: [String] = []
        var verbose = false
        var help = false
        var positional: [String] = []
        var checked: [String] = []
    }

    static let rows: [OptionRow<Settings>] = [
        .value(OptionSpec("--port", value: "N", help: "the port"), \.port, .wholeNumber(in: 0...65535)),
        .optional(OptionSpec("--name", value: "NAME", help: "a name"), \.name, .text),
        .each(OptionSpec("--tag", value: "TAG", help: "a tag; repeatable"), \.tags,
              ValueParser({ $0.isEmpty ? nil : $0.uppercased() }, otherwise: { flag, _ in "\(flag) needs a word" })),
        .switch(OptionSpec("--verbose", help: "say more"), \.verbose),
        .switch(OptionSpec.help(), \.help, ends: true),
    ]

    static func read(_ arguments: [String]) throws(NeonError) -> (Settings, ended: Bool) {
        var settings = Settings()
        let ended = try OptionRow.read(arguments, by: rows, into: &settings,
                                       failing: { NeonError.usage($0.sentence(help: "demo --help")) },
                                       positional: { settings, word in settings.positional.append(word) })
        return (settings, ended)
    }

    @Test("each row's key path receives its parsed value; a repeatable row collects every value; the last value wins")
    func keyPaths() throws {
        let (settings, ended) = try Self.read(["--port", "80", "a", "--tag", "x", "--name=n", "--tag=y", "--verbose",
                                               "--port", "81", "-"])
        #expect(!ended)
        #expect(settings == Settings(port: 81, name: "n", tags: ["X", "Y"], verbose: true, positional: ["a", "-"]))
    }

    @Test("a bad value is a usage error that names the flag, the value and what is allowed")
    func badValue() {
        #expect(throws: NeonError.usage("--port 70000 is not a whole number in 0…65535")) { try Self.read(["--port", "70000"]) }
        #expect(throws: NeonError.usage("--port x is not a whole number in 0…65535")) { try Self.read(["--port=x"]) }
        #expect(throws: NeonError.usage("--tag needs a word")) { try Self.read(["--tag", ""]) }
        do {
            _ = try Self.read(["--port", "x"])
            Issue.record("--port x was read")
        } catch {
            #expect(error.exitStatus == NeonError.usageStatus)
        }
    }

    @Test("arguments that do not fit the table fail before any row stores, through the program's own sentence")
    func tableProblems() {
        #expect(throws: NeonError.usage("unknown option --prot (did you mean --port?); see demo --help")) {
            try Self.read(["--port", "x", "--prot", "1"])
        }
        #expect(throws: NeonError.usage("--name needs a value; see demo --help")) { try Self.read(["--name"]) }
        #expect(throws: NeonError.usage("--verbose takes no value; see demo --help")) { try Self.read(["--verbose=1"]) }
    }

    @Test("a row that ends the reading stops it: the flags after -h are not read")
    func ends() throws {
        let (settings, ended) = try Self.read(["--verbose", "-h", "--port", "x"])
        #expect(ended)
        #expect(settings.help && settings.verbose)
        #expect(settings.port == 7681)
    }

    @Test("a check added to a row runs before the row stores, and may refuse the flag")
    func checking() {
        let row = OptionRow<Settings>.optional(OptionSpec("--name", value: "NAME", help: "a name"), \.name, .text)
            .checking { settings, flag throws(NeonError) in
                guard settings.verbose else { throw NeonError.usage("\(flag) needs --verbose first") }
                settings.checked.append(flag)
            }
        var settings = Settings()
        #expect(throws: NeonError.usage("--name needs --verbose first")) { try row.store("n", as: "--name", into: &settings) }
        #expect(settings.name == nil)
        settings.verbose = true
        #expect(throws: Never.self) { try row.store("n", as: "--name", into: &settings) }
        #expect(settings.name == "n" && settings.checked == ["--name"])
    }

    @Test("a parser's value can be turned into another: seconds to a duration, 0 to none")
    func mapping() throws {
        let seconds = ValueParser<Int>.wholeNumber(in: 0...60).map { $0 == 0 ? nil : Duration.seconds($0) }
        #expect(try seconds("--wait", "0") == nil)
        #expect(try seconds("--wait", "5") == .seconds(5))
        #expect(throws: NeonError.usage("--wait 61 is not a whole number in 0…60")) { try seconds("--wait", "61") }
    }

    @Test("help, the man page and every completion script come from the rows' specs")
    func oneRowEverywhere() {
        let specs = Self.rows.map(\.spec)
        let spec = CommandLineSpec(program: "demo", section: 1, tagline: "a demo", description: ["a demo"],
                                   commands: [.init(name: nil, synopsis: "demo [options]", summary: "demo",
                                                    groups: [.init(nil, specs)])],
                                   exitStatuses: [.init("0", "done")])
        let help = HelpText.table(specs.map { ($0.usage, $0.help) }, width: 80).joined(separator: "\n")
        let page = spec.manPage(version: "1", date: "2026-01-01")
        for row in Self.rows {
            #expect(help.contains(row.spec.usage) && help.contains(row.spec.help))
            #expect(page.contains(row.spec.flag.split(separator: "-", omittingEmptySubsequences: false).joined(separator: "\\-")))
            for shell in CommandLineSpec.Shell.allCases {
                #expect(spec.completion(for: shell).contains(row.spec.flag.dropFirst(2)), "\(shell) \(row.spec.flag)")
            }
        }
    }
}

import NeonClient
import NeonCore
import NeonRender
import NeonSystem
import NeonTUI
import NeonTransport

/// The flags and arguments of one command as they are read, before they
/// become its `Subcommand`.
struct CommandFlags {
    let command: CommandName
    var connect: ConnectOptions
    var json = false
    var summary = false
    var speed = 1.0
    var profile: CountingProfile?
    var pointing = PointingRule.everyone
    var slides = false
    var snippets = SnippetPermission.off
    var file: String?
    var room: String?
    var positional: [String] = []
    /// The flags given, for the checks between them.
    var given: Set<String> = []
    var showHelp = false
    /// `draft --print`.
    var print = false
    /// `see neonsync COMMAND --help`.
    let help: String

    /// Where each setting of the config file's keys came from, when not
    /// from its default (`settle`).
    var sources: [String: String] = [:]

    /// The defaults; the environment and the config file come in `settle`.
    init(command: CommandName) {
        self.command = command
        connect = ConnectOptions(name: LoginName.current(), server: CommandOption.defaultServer, token: nil)
        help = "see neonsync \(command.rawValue) --help"
    }

    /// Where each of NeonClient's `CommandOption.all` puts its value, in
    /// the same order: the table `parse` reads.
    static let rows: [OptionRow<CommandFlags>] = [
        admitted(.optional(CommandOption.room.spec, \.room, .text), CommandOption.room),
        admitted(.value(CommandOption.name.spec, \.connect.name, .text), CommandOption.name),
        suffixed(.optional(CommandOption.profile.spec, \.profile, countingProfile), CommandOption.profile),
        admitted(.switch(CommandOption.slides.spec, \.slides), CommandOption.slides),
        suffixed(.value(CommandOption.pointers.spec, \.pointing, pointingRule), CommandOption.pointers),
        admitted(.switch(CommandOption.json.spec, \.json), CommandOption.json),
        suffixed(.value(CommandOption.speed.spec, \.speed, speedFactor), CommandOption.speed),
        admitted(.switch(CommandOption.summary.spec, \.summary), CommandOption.summary),
        admitted(.value(CommandOption.server.spec, \.connect.server, .text), CommandOption.server),
        admitted(.optional(CommandOption.tokenFile.spec, \.connect.token, tokenFileContents), CommandOption.tokenFile),
        suffixed(OptionRow(CommandOption.token.spec) { flags, flag, text throws(NeonError) in
            flags.connect.token = try tokenText(flag, text ?? "")
            flags.connect.tokenOnCommandLine = true
        }, CommandOption.token),
        admitted(.value(CommandOption.ca.spec, \.connect.trust, ValueParser<ServerTrust> { _, path in .certificates(path: path) }),
                 CommandOption.ca),
        admitted(OptionRow(CommandOption.insecure.spec) { flags, _, _ in flags.connect.trust = .insecureAcceptAnything },
                 CommandOption.insecure),
        suffixed(.value(CommandOption.theme.spec, \.connect.theme, themeName), CommandOption.theme),
        suffixed(.value(CommandOption.hyperlinks.spec, \.connect.hyperlinks, hyperlinkChoice), CommandOption.hyperlinks),
        suffixed(.value(CommandOption.graphics.spec, \.connect.graphics, graphicsName), CommandOption.graphics),
        admitted(OptionRow(CommandOption.exec.spec) { flags, _, _ in flags.snippets = max(flags.snippets, .exec) },
                 CommandOption.exec),
        admitted(OptionRow(CommandOption.execReplace.spec) { flags, _, _ in flags.snippets = .execReplace },
                 CommandOption.execReplace),
        .switch(CommandOption.showHelp.spec, \.showHelp, ends: true),
        admitted(.switch(CommandOption.print.spec, \.print), CommandOption.print),
    ]

    /// `row`, refused for a command `option` does not belong to, and noted
    /// as given.
    private static func admitted(_ row: OptionRow<CommandFlags>, _ option: CommandOption) -> OptionRow<CommandFlags> {
        row.checking { flags, flag throws(NeonError) in
            guard option.commands.contains(flags.command) else {
                throw NeonError.usage("\(flag) belongs to \(owners(of: option)), not to neonsync \(flags.command.rawValue); \(flags.help)")
            }
            flags.given.insert(flag)
        }
    }

    /// `admitted(row)`, its bad values refused with `; see neonsync COMMAND --help` after the sentence.
    private static func suffixed(_ row: OptionRow<CommandFlags>, _ option: CommandOption) -> OptionRow<CommandFlags> {
        admitted(OptionRow(row.spec) { flags, flag, text throws(NeonError) in
            do throws(NeonError) {
                try row.store(text, as: flag, into: &flags)
            } catch {
                throw NeonError.usage("\(error.sentence); \(flags.help)")
            }
        }, option)
    }

    /// `neonsync tail` or `neonsync read, present or replay`.
    private static func owners(of option: CommandOption) -> String {
        let names = CommandName.allCases.filter { option.commands.contains($0) }.map(\.rawValue)
        if names.count == 1 { return "neonsync \(names[0])" }
        if names.count == CommandName.allCases.filter(\.connects).count, !option.commands.contains(.replay) {
            return "the commands that connect to a server"
        }
        return "neonsync " + names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}

/// How the commands' flags read their values; each sentence is followed by
/// `; see neonsync COMMAND --help` where the flag is read.
extension CommandFlags {
    static let themeName = ValueParser<ThemeName>({ ThemeName(rawValue: $0) }, otherwise: { flag, text in
        "\(flag) \"\(text)\" is not a theme; choose one of \(ThemeName.allCases.map(\.rawValue).joined(separator: ", "))"
    })

    static let hyperlinkChoice = ValueParser<HyperlinkChoice>({ HyperlinkChoice(rawValue: $0) }, otherwise: { flag, text in
        "\(flag) needs auto, always or never, not \"\(text)\""
    })

    static let graphicsName = ValueParser<String>({ graphicsNames.contains($0) ? $0 : nil }, otherwise: { flag, text in
        "\(flag) needs one of \(graphicsNames.joined(separator: ", ")), not \"\(text)\""
    })
    /// The table's choices, which completions offer: auto, none and every protocol.
    private static let graphicsNames = CommandOption.graphics.spec.choices

    static let countingProfile = ValueParser<CountingProfile>({ CountingProfile(rawValue: $0) }, otherwise: { flag, _ in
        "\(flag) needs one of \(CountingProfile.allCases.map(\.rawValue).joined(separator: ", "))"
    })

    static let pointingRule = ValueParser<PointingRule>({ PointingRule(rawValue: $0) }, otherwise: { flag, text in
        "\(flag) needs everyone or presenter, not \"\(text)\""
    })

    static let speedFactor = ValueParser<Double>({ Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }, otherwise: { flag, _ in
        "\(flag) needs a number above 0, e.g. \(flag) 10"
    })

    static let tokenText = ValueParser<String>({ $0.isEmpty ? nil : $0 }, otherwise: { flag, _ in
        "\(flag) needs a value (a room token from neonsyncd token)"
    })

    /// The token in the file, which only its owner may read.
    static let tokenFileContents = ValueParser<String> { _, path throws(NeonError) in
        do throws(NeonError) {
            return try PrivateFile.roomToken(path)
        } catch {
            throw error.exiting(with: NeonError.usageStatus)
        }
    }
}

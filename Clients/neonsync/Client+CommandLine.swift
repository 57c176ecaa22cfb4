import NeonClient
import NeonCore

extension Client {
    /// neonsync's command line for its man page and completions: the tables
    /// the parsers read and every `--help` prints.
    static let spec = CommandLineSpec(
        program: "neonsync", section: 1, tagline: "read, present, follow and draft together from terminals",
        description: [
            """
            neonsync is the terminal client of NeonSync: people in a room read one Markdown document together \
            (each at their own pace, seeing where the others are), follow a presenter on any terminal size, and \
            compose a shared draft; tail, monitor and replay watch rooms. It connects to neonsyncd, by default \
            at \(CommandOption.defaultServer).
            """,
            "A room name is \(RoomName.rule). neonsync --version prints the version, the commit it was built "
                + "from and the versions of libwebsockets and cmark-gfm it runs with.",
        ],
        commands: [
            CommandLineSpec.Command(
                name: nil, synopsis: "neonsync --version | --help | help [COMMAND]",
                summary: "the version, or the list of commands and the options they share",
                groups: [.init(nil, [
                    OptionSpec("--version", help: "print the version, the commit it was built from and the versions "
                        + "of libwebsockets and cmark-gfm it runs with"),
                    OptionSpec.help("list the commands, the options of the commands that connect, the exit statuses "
                        + "and the keys (neonsync COMMAND --help: one command's)"),
                ])]),
        ] + CommandHelp.all.map(command) + [
            RoomsCommand.spec,
            BenchHelp.command,
            ConfigCommand.spec,
            CommandLineSpec.generateCommand(program: "neonsync"),
        ],
        exitStatuses: ExitStatus.ofScreens.map { .init(String($0.0), $0.1) },
        environment: [
            .init("NEONSYNC_SERVER", "the server when --server is not given"),
            .init("NEONSYNC_TOKEN", "the room token when neither --token-file nor --token is given"),
            .init("NEONSYNC_THEME", "the theme when --theme is not given"),
            .init("XDG_CONFIG_HOME", "the directory of the config file, neonsync/config.yaml in it (default ~/.config)"),
        ],
        files: [
            .init("$XDG_CONFIG_HOME/neonsync/config.yaml, ~/.config/neonsync/config.yaml", """
                the config file: a YAML mapping of settings named as the flags that set them, without their dashes                 (server, name, theme, hyperlinks, graphics, token-file), e.g. "theme: light". A flag wins over the                 environment, which wins over the file; a relative token-file is relative to the file's directory,                 ~/ is the home directory. A key or value it does not take is refused with the file, the line and                 what is allowed (exit status 2). neonsync config prints the effective settings and where each came from.
                """),
            .init("/usr/share/doc/neonsync/examples/", """
                documents to try, as the Debian package installs them: guide.md (neonsync read \
                /usr/share/doc/neonsync/examples/guide.md), deck.md (a presenterm deck with speaker notes and a picture, \
                room.png: neonsync present and neonsync notes), code.md (fenced code to highlight) and animals.json \
                (a catalog)
                """),
        ],
        seeAlso: ["neonsyncd(8)", "tmux(1)"])

    /// One command of `CommandHelp.all`, with its keys after its options.
    private static func command(_ help: CommandHelp) -> CommandLineSpec.Command {
        let keys = help.keys.map { "\($0.key): \($0.action)" }.joined(separator: "; ")
        return CommandLineSpec.Command(
            name: help.command.rawValue, synopsis: help.usage, summary: help.summary,
            arguments: help.arguments.map { .init($0.name, $0.help) },
            groups: [.init(nil, CommandOption.of(help.command))],
            takesFiles: [.read, .present, .replay].contains(help.command),
            notes: keys.isEmpty ? [] : [[help.keysNote, "Keys: \(keys)."].compactMap { $0 }.joined(separator: " ")],
            exitStatuses: help.exitStatuses.map { .init(String($0.status), $0.meaning) })
    }
}

import NeonCore
import NeonTUI

/// One flag of the `neonsync` commands: how it is written, the value it
/// takes, what it does, and which commands take it. The parser and every
/// `--help` read this one table.
public struct CommandOption: Sendable {
    /// How it is written, its value and its help.
    public let spec: OptionSpec
    /// The commands that take it.
    public let commands: Set<CommandName>

    init(flag: String, short: String? = nil, value: String?, help: String, choices: [String] = [], commands: Set<CommandName>) {
        spec = OptionSpec(flag, short: short, value: value, help: help, choices: choices)
        self.commands = commands
    }

    /// `--room`.
    public var flag: String { spec.flag }
    /// The value's placeholder (`R`), or nil for a switch.
    public var value: String? { spec.value }
    /// What it does, as a paragraph.
    public var help: String { spec.help }
    /// `--room R`, `-h, --help`.
    public var usage: String { spec.usage }

    /// The option spelled `flag` (`--room`, `-h`), if there is one.
    public static func named(_ flag: String) -> CommandOption? {
        all.first { $0.spec.spelled(flag) }
    }

    /// The options of `command`, in the order help lists them.
    public static func of(_ command: CommandName) -> [OptionSpec] {
        all.filter { $0.commands.contains(command) }.map(\.spec)
    }

    /// The default server and the environment variables the options read.
    public static let defaultServer = "ws://127.0.0.1:7681/"
    public static let serverEnvironment = "NEONSYNC_SERVER"
    public static let tokenEnvironment = "NEONSYNC_TOKEN"

    private static let connecting = Set(CommandName.allCases.filter(\.connects))
    /// The commands that connect and draw a screen.
    private static let screens = connecting.filter(\.drawsScreen)

    /// `--room`.
    public static let room = CommandOption(flag: "--room", value: "R", help: """
        the room: \(RoomName.rule). read: the room FILE goes to (default: FILE's name without its extension, \
        spaces turned into -); present FILE and notes FILE: the same; replay: only room R's events; \
        join, follow, draft, tail and monitor: the same as ROOM (give one or the other)
        """, commands: [.read, .present, .replay, .notes, .join, .follow, .draft, .tail, .monitor])

    /// `--name`.
    public static let name = CommandOption(flag: "--name", value: "N", help: """
        the name the others see (default: your login name, from getlogin(), $USER or the password database)
        """, commands: connecting)

    /// `--profile`.
    public static let profile = CommandOption(flag: "--profile", value: "P", help: """
        how a new room's draft counts toward its limit (a room keeps the profile it was created with): \
        \(CountingProfile.allCases.map { "\($0.rawValue) — \($0.summary)" }.joined(separator: "; "))
        """, choices: CountingProfile.allCases.map(\.rawValue), commands: [.draft])

    /// `--slides`.
    public static let slides = CommandOption(flag: "--slides", value: nil, help: """
        present the document as slides, one section a slide, even without presenterm's slide separators \
        (a file with <!-- end_slide --> comments is presented as slides anyway)
        """, commands: [.present])

    /// `--pointers`.
    public static let pointers = CommandOption(flag: "--pointers", value: "WHO", help: """
        who may point at passages in the room besides you: everyone (the default; their pointers show with \
        their initial and move nobody's screen) or presenter (only you)
        """, choices: ["everyone", "presenter"], commands: [.present])

    /// `--json`.
    public static let json = CommandOption(flag: "--json", value: nil, help: """
        print the protocol messages verbatim, one JSON object a line, instead of sentences
        """, commands: [.tail])

    /// `--speed`.
    public static let speed = CommandOption(flag: "--speed", value: "X", help: """
        play the log X times faster than it happened (a number above 0; default 1)
        """, commands: [.replay])

    /// `--summary`.
    public static let summary = CommandOption(flag: "--summary", value: nil, help: """
        print per room how far each reader read, the time spent in each section and the limit events, \
        instead of replaying; needs no terminal
        """, commands: [.replay])

    /// `--server`.
    public static let server = CommandOption(flag: "--server", value: "URL", help: """
        ws://HOST:PORT/, wss://HOST:PORT/ or unix:PATH of neonsyncd (default \(defaultServer), or $\(serverEnvironment)); \
        wss:// checks the server's certificate against the system's CA store and the host name in the URL. \
        URL may be a failover list, URL1,URL2,… (commas, no spaces): the client starts with URL1 and, when a \
        connection drops or cannot be made, tries the next URL (after the last, the first again) with its \
        usual backoff, resyncing as on any reconnect; --ca, --insecure and the token apply to every URL. \
        unix:PATH (an entry of a list too) connects over the Unix domain socket PATH of a neonsyncd on this \
        machine, e.g. unix:/run/neonsync/neonsync.sock (plain WebSocket; no TLS over a socket)
        """, commands: connecting)

    /// `--token-file`.
    public static let tokenFile = CommandOption(flag: "--token-file", value: "FILE", help: """
        read the room token a server with a secret requires (from its operator's neonsyncd token) from the \
        first line of FILE, which only you may read (chmod 600 FILE; a file group or others can read, a \
        missing or an empty one ends the command with status 2). Or set $\(tokenEnvironment). A missing, \
        refused or expired token ends the command with status 3
        """, commands: connecting)

    /// `--token`.
    public static let token = CommandOption(flag: "--token", value: "T", help: """
        the room token on the command line, where other users of this machine can see it (ps); warns on \
        every start. Prefer --token-file FILE or $\(tokenEnvironment)
        """, commands: connecting)

    /// `--ca`.
    public static let ca = CommandOption(flag: "--ca", value: "FILE", help: """
        wss:// only: trust the CA certificate(s) in FILE (PEM), e.g. the CA of a self-signed setup, instead \
        of the system's store
        """, commands: connecting)

    /// `--insecure`.
    public static let insecure = CommandOption(flag: "--insecure", value: nil, help: """
        wss:// only: do not check the server's certificate at all (testing only; warns on every start)
        """, commands: connecting)

    /// `--theme`.
    public static let theme = CommandOption(flag: "--theme", value: "T", help: """
        the screen's look: dark (the default: the neon look on a dark terminal), light (dark text and code \
        colours for a light terminal) or ascii (no colour, ASCII borders and bars); or $\(ThemeName.environment). \
        The terminal decides the colours it gets: 24-bit with COLORTERM=truecolor, the 16 ANSI colours for \
        TERM=linux and names such as xterm-color, none with NO_COLOR (bold and italic stay)
        """, choices: ThemeName.allCases.map(\.rawValue), commands: screens)

    /// `--hyperlinks`.
    public static let hyperlinks = CommandOption(flag: "--hyperlinks", value: "WHEN", help: """
        write links as clickable OSC 8 hyperlinks: auto (the default: when the terminal is known to show them, \
        as kitty, WezTerm, iTerm2, foot, VTE terminals such as GNOME Terminal, Konsole and Windows Terminal do, \
        and tmux 3.4 and later pass them on), always or never. The address stays after the link's text either \
        way; relative links open the file beside the document you published, for others they stay text
        """, choices: HyperlinkChoice.allCases.map(\.rawValue), commands: [.read, .join, .present, .follow])

    /// `--graphics`.
    public static let graphics = CommandOption(flag: "--graphics", value: "P", help: """
        how pictures are drawn in their boxes: auto (the default: ask the terminal, which answers for kitty's \
        graphics protocol, iTerm2's inline images or sixel), kitty, iterm2, sixel, or none (the box with the \
        alt text and file name only, as every other terminal shows). Inside tmux pictures pass through only with \
        set -g allow-passthrough on, and are boxes otherwise
        """, choices: ["auto", "kitty", "iterm2", "sixel", "none"], commands: [.read, .join, .present, .follow])

    /// `-x`, as presenterm spells it.
    public static let exec = CommandOption(flag: "--exec", short: "-x", value: nil, help: """
        run code blocks marked +exec (```bash +exec) on this machine when you press Ctrl-E, through the interpreter \
        their language names (bash, sh, zsh, fish, python, ruby, perl, javascript, lua), at most \
        \(SnippetLimits.seconds) seconds each; the last \(SnippetOutput.maximumLines) lines of their output show \
        under the block for everyone in the room. Nothing ever runs on the others' machines
        """, commands: [.present])

    /// `-X`, as presenterm spells it.
    public static let execReplace = CommandOption(flag: "--exec-replace", short: "-X", value: nil, help: """
        -x, and run code blocks marked +exec_replace when their slide is first shown, their output shown in place \
        of the code
        """, commands: [.present])

    /// `--help`.
    public static let showHelp = CommandOption(flag: "--help", short: "-h", value: nil, help: "show this help",
                                               commands: Set(CommandName.allCases))

    /// `--print`.
    public static let print = CommandOption(flag: "--print", value: nil, help: """
        print the room's shared draft to standard output and exit (0), instead of editing it; needs no terminal
        """, commands: [.draft])

    /// Every option, in the order help lists them.
    public static let all: [CommandOption] = [
        room, name, profile, slides, pointers, json, speed, summary, server, tokenFile, token, ca, insecure, theme,
        hyperlinks, graphics, exec, execReplace, showHelp, print,
    ]
}

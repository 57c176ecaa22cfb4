/// One flag of a command line: how it is written, the value it takes and
/// what it does. A program's tables of these are what its parser accepts,
/// what `--help` prints, and what its man page and shell completions list.
public struct OptionSpec: Sendable, Equatable {
    /// `--port`.
    public let flag: String
    /// A short spelling, `-h`.
    public let short: String?
    /// The value's placeholder (`N`, `FILE`), or nil for a switch.
    public let value: String?
    /// What it does, as one paragraph.
    public let help: String
    /// The values it takes when they are a fixed set (`dark`, `light`,
    /// `ascii`), which the completions offer; empty for any value.
    public let choices: [String]

    public init(_ flag: String, short: String? = nil, value: String? = nil, help: String, choices: [String] = []) {
        self.flag = flag
        self.short = short
        self.value = value
        self.help = help
        self.choices = choices
    }

    /// `-h, --help`.
    public var names: String { short.map { "\($0), \(flag)" } ?? flag }

    /// `--port N`, `-h, --help`: the term `--help` and the man page show.
    public var usage: String { value.map { "\(names) \($0)" } ?? names }

    /// Whether `argument` (without any `=value`) spells this option.
    public func spelled(_ argument: String) -> Bool { argument == flag || argument == short }

    /// Whether its value names a file or a directory (for completions).
    public var takesPath: Bool {
        guard let value else { return false }
        return ["FILE", "DIR", "PATH", "LOGFILE", "FILE|-"].contains(value)
    }

    /// The usual `-h, --help`, with `help` as its sentence.
    public static func help(_ help: String = "show this help") -> OptionSpec {
        OptionSpec("--help", short: "-h", help: help)
    }
}

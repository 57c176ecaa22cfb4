/// A program's whole command line, as its man page and its shell
/// completions describe it: built from the same option tables its parser
/// reads and its `--help` prints.
public struct CommandLineSpec: Sendable {
    /// A term and its paragraph: an argument, an exit status, a variable.
    public struct Entry: Sendable, Equatable {
        public let term: String
        public let text: String

        public init(_ term: String, _ text: String) {
            self.term = term
            self.text = text
        }
    }

    /// A titled group of options (`CLUSTER`, `ACCESS AND LIMITS`).
    public struct OptionGroup: Sendable {
        public let title: String?
        public let options: [OptionSpec]

        public init(_ title: String?, _ options: [OptionSpec]) {
            self.title = title
            self.options = options
        }
    }

    /// One command (`neonsync read`), or the program itself when `name` is nil.
    public struct Command: Sendable {
        public let name: String?
        /// `neonsync read FILE [--room R] [OPTIONS]`.
        public let synopsis: String
        public let summary: String
        public let arguments: [Entry]
        public let groups: [OptionGroup]
        /// Words the first argument may be (`bash`, `zsh`, `fish`), for completions.
        public let choices: [String]
        /// Whether the arguments are files (for completions).
        public let takesFiles: Bool
        /// Paragraphs after the options.
        public let notes: [String]
        public let exitStatuses: [Entry]

        public init(name: String?, synopsis: String, summary: String, arguments: [Entry] = [],
                    groups: [OptionGroup], choices: [String] = [], takesFiles: Bool = false,
                    notes: [String] = [], exitStatuses: [Entry] = []) {
            self.name = name
            self.synopsis = synopsis
            self.summary = summary
            self.arguments = arguments
            self.groups = groups
            self.choices = choices
            self.takesFiles = takesFiles
            self.notes = notes
            self.exitStatuses = exitStatuses
        }

        /// Every option of the command.
        public var options: [OptionSpec] { groups.flatMap(\.options) }
    }

    /// `neonsync`.
    public let program: String
    /// 1 for a user command, 8 for a daemon.
    public let section: Int
    /// The line of the man page's NAME.
    public let tagline: String
    public let description: [String]
    public let commands: [Command]
    public let exitStatuses: [Entry]
    public let environment: [Entry]
    public let files: [Entry]
    public let seeAlso: [String]

    public init(program: String, section: Int, tagline: String, description: [String], commands: [Command],
                exitStatuses: [Entry], environment: [Entry] = [], files: [Entry] = [], seeAlso: [String] = []) {
        self.program = program
        self.section = section
        self.tagline = tagline
        self.description = description
        self.commands = commands
        self.exitStatuses = exitStatuses
        self.environment = environment
        self.files = files
        self.seeAlso = seeAlso
    }

    /// The program's own options (those given without a command).
    public var topLevel: Command? { commands.first { $0.name == nil } }

    /// The commands with a name.
    public var subcommands: [Command] { commands.filter { $0.name != nil } }
}

import NeonCore

/// A snippet the presenter's machine runs (`ClientCommand.runSnippet`):
/// code block `block`'s code, through the interpreter its language names.
public struct Snippet: Equatable, Sendable {
    public let block: Int
    /// The program and arguments that run `code` (the code is the last argument).
    public let command: [String]

    /// The snippet of code block `block`, or why it cannot run here.
    public static func of(block: Int, language: String?, code: String) -> Result<Snippet, SnippetRefusal> {
        guard let language, let interpreter = interpreters[language.lowercased()] else {
            return .failure(SnippetRefusal(language: language))
        }
        return .success(Snippet(block: block, command: interpreter + [code]))
    }

    /// How each language runs, as presenterm runs it by default: the
    /// interpreter that takes the code as an argument.
    static let interpreters: [String: [String]] = [
        "bash": ["bash", "-c"], "sh": ["sh", "-c"], "shell": ["sh", "-c"], "zsh": ["zsh", "-c"], "fish": ["fish", "-c"],
        "python": ["python3", "-c"], "python3": ["python3", "-c"], "py": ["python3", "-c"],
        "ruby": ["ruby", "-e"], "rb": ["ruby", "-e"], "perl": ["perl", "-e"],
        "javascript": ["node", "-e"], "js": ["node", "-e"], "lua": ["lua", "-e"], "php": ["php", "-r"],
    ]

    /// The languages that run, for the sentences that list them.
    static let languages = "bash, sh, zsh, fish, python, ruby, perl, javascript and lua"
}

/// Why a snippet cannot run.
public struct SnippetRefusal: Error, Equatable, Sendable {
    public let language: String?

    public var sentence: String {
        guard let language else { return "a snippet without a language cannot run: write ```bash +exec (or another language)" }
        return "a \(language) snippet cannot run here: the languages that run are \(Snippet.languages)"
    }
}

/// What a running snippet printed so far, as the runtime reports it
/// (`ProgramEvent.snippetOutput`): sanitized and bounded (`SnippetOutput.sanitized`).
public struct SnippetProgress: Equatable, Sendable {
    public let block: Int
    public let text: String
    public let state: SnippetOutput.State
    public let exit: Int?

    public init(block: Int, text: String, state: SnippetOutput.State, exit: Int? = nil) {
        self.block = block
        self.text = text
        self.state = state
        self.exit = exit
    }
}

/// Whether snippets run on this terminal: never but when presenting with
/// `-x` (`+exec` blocks, with Ctrl-E) or `-X` (`+exec_replace` blocks too,
/// when their slide is shown).
public enum SnippetPermission: Int, Comparable, Equatable, Sendable {
    case off, exec, execReplace

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a snippet may take on the presenter's machine.
public enum SnippetLimits {
    /// How long a snippet runs before it is stopped.
    public static let seconds = 30
    /// How many bytes of output the runner reads before it stops the snippet.
    public static let readBytes = 1 << 20
    /// How often a running snippet's output goes to the room, at most.
    public static let interval: Duration = .milliseconds(100)
}

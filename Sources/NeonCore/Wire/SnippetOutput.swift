/// The output of a snippet the presenter ran (`output` message and
/// `welcome.outputs`, added after v1): the last lines of what code block
/// `block` printed on the presenter's machine, at most `maximumLines` lines
/// of at most `maximumLineBytes` bytes each and `maximumBytes` in all,
/// sanitized (`SnippetOutput.sanitized`). `by` and `name` say whose run it
/// was. The room keeps the latest output of each block; a new run replaces it.
public struct SnippetOutput: Codable, Equatable, Hashable, Sendable {
    /// Where the run is.
    public enum State: String, Codable, CaseIterable, Hashable, Sendable {
        /// Still running: more output may come.
        case running
        /// Ended by itself, with `exit`.
        case exited
        /// Stopped at the time limit.
        case timeout
        /// Stopped after printing more than the runner reads.
        case truncated
        /// Could not start: the text says why.
        case failed
    }

    public var block: Int
    public var by: ClientID
    public var name: String
    public var text: String
    public var state: State
    /// The exit status, when `state` is `exited`.
    public var exit: Int?

    public init(block: Int, by: ClientID, name: String, text: String, state: State, exit: Int? = nil) {
        self.block = block
        self.by = by
        self.name = name
        self.text = text
        self.state = state
        self.exit = exit
    }

    /// The most lines an output keeps: the last ones.
    public static let maximumLines = 40
    /// The most bytes of one line; a longer line is cut.
    public static let maximumLineBytes = 400
    /// The most bytes of the whole text.
    public static let maximumBytes = 8192

    /// `raw` as an output's text: terminal escape sequences removed, tabs
    /// as spaces, other control characters dropped, carriage returns ending
    /// a line's text so far (a progress line keeps its last state), lines
    /// cut at `maximumLineBytes`, and only the last lines that fit
    /// `maximumLines` and `maximumBytes`. Empty lines at the end are dropped.
    public static func sanitized(_ raw: String) -> String {
        var lines: [String] = []
        var line = ""
        var escape = EscapeState.none
        for scalar in raw.unicodeScalars {
            switch escape {
            case .start:
                escape = scalar == "[" ? .csi : scalar == "]" ? .osc : .none
                continue
            case .csi:
                if (0x40...0x7E).contains(scalar.value) { escape = .none }
                continue
            case .osc:
                if scalar == "\u{07}" { escape = .none } else if scalar == "\u{1B}" { escape = .oscEscape }
                continue
            case .oscEscape:
                escape = .none
                continue
            case .none:
                break
            }
            switch scalar {
            case "\u{1B}": escape = .start
            case "\n":
                lines.append(line)
                if lines.count > maximumLines { lines.removeFirst(lines.count - maximumLines) }
                line = ""
            case "\r": line = ""
            case "\t": line += "    "
            default:
                let category = scalar.properties.generalCategory
                if category == .control || (category == .format && scalar != "\u{200D}") { continue }
                if line.utf8.count + String(scalar).utf8.count <= maximumLineBytes { line.unicodeScalars.append(scalar) }
            }
        }
        if !line.isEmpty { lines.append(line) }
        while lines.last == "" { lines.removeLast() }
        var kept = Array(lines.suffix(maximumLines))
        while kept.reduce(0, { $0 + $1.utf8.count + 1 }) > maximumBytes + 1 { kept.removeFirst() }
        return kept.joined(separator: "\n")
    }

    private enum EscapeState { case none, start, csi, osc, oscEscape }

    /// What is wrong with `text` as an output's text, if anything.
    static func problem(with text: String) -> String? {
        if text.utf8.count > maximumBytes {
            return "the output is \(text.utf8.count) bytes, over the \(maximumBytes) an output keeps; send its last lines"
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > maximumLines {
            return "the output has \(lines.count) lines, over the \(maximumLines) an output keeps; send its last lines"
        }
        if let long = lines.first(where: { $0.utf8.count > maximumLineBytes }) {
            return "a line of the output is \(long.utf8.count) bytes, over the \(maximumLineBytes) a line keeps; cut it"
        }
        if sanitized(text) != text {
            return "the output holds control characters, escape sequences, tabs or empty lines at its end; send printable text, lines joined by \\n"
        }
        return nil
    }
}

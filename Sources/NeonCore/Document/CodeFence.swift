/// What a fenced code block's info string says beyond its language, as
/// presenterm reads it: ```` ```bash +exec +id:demo +line_numbers {1,3|5-7|all} ````.
/// `+exec` makes the snippet runnable by the presenter (Ctrl-E, with
/// `present -x`); `+exec_replace` runs it when its slide is shown (with
/// `present -X`) and shows its output in place of the code; `+id:NAME`
/// names it, so that `<!-- snippet_output: NAME -->` places its output;
/// `+line_numbers` draws line numbers; `{…}` lights groups of lines, one
/// group per step. Words it does not know are ignored, as presenterm does.
public struct CodeFence: Equatable, Hashable, Sendable {
    /// How the snippet runs.
    public enum Exec: String, Equatable, Hashable, Sendable {
        /// `+exec`: when the presenter presses Ctrl-E; output below the code.
        case onKey = "exec"
        /// `+exec_replace`: when its slide is shown; output instead of the code.
        case replace = "exec_replace"
    }

    public let language: String?
    public let exec: Exec?
    /// `+id:NAME`.
    public let id: String?
    public let lineNumbers: Bool
    /// `{1,3|5-7|all}`: the lines lit at each step, as 1-based line
    /// numbers; nil in a group means every line. Empty without braces.
    public let highlightGroups: [Set<Int>?]

    public init(language: String?, exec: Exec? = nil, id: String? = nil, lineNumbers: Bool = false,
                highlightGroups: [Set<Int>?] = []) {
        self.language = language
        self.exec = exec
        self.id = id
        self.lineNumbers = lineNumbers
        self.highlightGroups = highlightGroups
    }

    /// The fence of `info`, a code block's info string.
    public init(info: String) {
        let words = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var language = words.first.flatMap { $0.hasPrefix("+") || $0.hasPrefix("{") ? nil : $0 }
        // presenterm's form without a space: ```rust{1,3}
        var groups: [Set<Int>?] = []
        if let word = language, let brace = word.firstIndex(of: "{") {
            language = String(word[..<brace])
            groups = Self.groups(String(word[brace...]))
        }
        var exec: Exec?
        var id: String?
        var lineNumbers = false
        for word in words.dropFirst(language == nil ? 0 : 1) {
            switch word {
            case "+exec": exec = exec ?? .onKey
            case "+exec_replace": exec = .replace
            case "+line_numbers": lineNumbers = true
            default:
                if word.hasPrefix("+id:"), word.count > 4 {
                    id = String(word.dropFirst(4))
                } else if word.hasPrefix("{") {
                    groups = Self.groups(word)
                }
            }
        }
        self.init(language: language, exec: exec, id: id, lineNumbers: lineNumbers, highlightGroups: groups)
    }

    /// The lines lit when group `group` is (clamped to the groups there
    /// are), as 1-based line numbers; nil when every line is: a fence
    /// without groups, or the group `all`.
    public func litLines(group: Int) -> Set<Int>? {
        guard let last = highlightGroups.indices.last else { return nil }
        return highlightGroups[min(max(group, 0), last)]
    }

    /// The fence when it says more than the language, else nil: what a
    /// block keeps.
    var ifAny: CodeFence? {
        exec != nil || id != nil || lineNumbers || !highlightGroups.isEmpty ? self : nil
    }

    /// The most groups a fence lights (more are ignored), and the highest
    /// line number read.
    static let maximumGroups = 64
    static let maximumLine = 100_000

    /// `{1,3|5-7|all}` as groups of line numbers; malformed text gives none.
    static func groups(_ text: String) -> [Set<Int>?] {
        guard text.hasPrefix("{"), text.hasSuffix("}"), text.count >= 2 else { return [] }
        var groups: [Set<Int>?] = []
        for group in text.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).prefix(maximumGroups) {
            let trimmed = group.trimmingCharacters(in: " ")
            if trimmed == "all" {
                groups.append(nil)
                continue
            }
            var lines = Set<Int>()
            for item in trimmed.split(separator: ",") {
                let bounds = item.split(separator: "-", maxSplits: 1).map { Int($0.trimmingCharacters(in: " ")) }
                guard let low = bounds.first ?? nil, low >= 1, low <= maximumLine else { return [] }
                let high = bounds.count == 2 ? (bounds[1] ?? -1) : low
                guard high >= low, high <= maximumLine else { return [] }
                lines.formUnion(low...min(high, low + 1000))
            }
            groups.append(lines)
        }
        return groups
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}

extension OptionSpec {
    /// One argument as a table reads it.
    public enum Argument: Equatable {
        /// An option of the table, with its value when it takes one.
        case option(OptionSpec, value: String?)
        /// An argument that is not an option (`-` alone is one).
        case positional(String)
    }

    /// Why the arguments do not fit the table.
    public enum ParseError: Error, Equatable {
        /// A flag the table does not have, with the closest one it has.
        case unknown(String, suggestion: String?)
        /// An option that takes a value came last.
        case missingValue(OptionSpec)
        /// `--switch=value` for an option that takes none.
        case unexpectedValue(OptionSpec)

        /// The problem as a usage sentence: `unknown NOUN FLAG (did you
        /// mean …?)` with `context` after the flag, `FLAG needs a value`,
        /// `FLAG takes no value`; each ends with `; see HELP` when given.
        public func sentence(unknown noun: String = "option", context: String = "", help: String? = nil) -> String {
            let see = help.map { "; see \($0)" } ?? ""
            switch self {
            case let .unknown(flag, suggestion):
                return "unknown \(noun) \(flag)" + (suggestion.map { " (did you mean \($0)?)" } ?? "") + context + see
            case let .missingValue(option):
                return "\(option.flag) needs a value" + see
            case let .unexpectedValue(option):
                return "\(option.flag) takes no value" + see
            }
        }
    }

    /// Reads `arguments` by `table`: `--flag value`, `--flag=value`, switches
    /// and positional arguments, in order.
    public static func parse(_ arguments: some Sequence<String>, by table: [OptionSpec]) throws(ParseError) -> [Argument] {
        var rest = Array(arguments)[...]
        var read: [Argument] = []
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                read.append(.positional(argument))
                continue
            }
            var flag = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = table.first(where: { $0.spelled(flag) }) else {
                throw .unknown(flag, suggestion: Suggestion.closest(to: flag, among: table.map(\.flag)))
            }
            guard option.value != nil else {
                if inline != nil { throw .unexpectedValue(option) }
                read.append(.option(option, value: nil))
                continue
            }
            guard let value = inline ?? rest.popFirst() else { throw .missingValue(option) }
            read.append(.option(option, value: value))
        }
        return read
    }
}

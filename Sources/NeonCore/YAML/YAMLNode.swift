/// A YAML document as libyaml reads it (YAML 1.1, with quoting, block
/// scalars, flow and block lists and mappings as the language says): the
/// tree of scalars, sequences and mappings, each with the line it starts
/// on (1 for the first). Tags are not kept; an alias stands for a copy of
/// what its anchor names. Read with `YAMLNode.parse`.
public indirect enum YAMLNode: Equatable, Sendable {
    case scalar(String, line: Int)
    case sequence([YAMLNode], line: Int)
    case mapping([YAMLEntry], line: Int)

    /// The line the node starts on, 1 for the first.
    public var line: Int {
        switch self {
        case let .scalar(_, line), let .sequence(_, line), let .mapping(_, line): line
        }
    }

    /// A scalar's text; nil for a sequence or a mapping.
    public var text: String? {
        if case let .scalar(text, _) = self { return text }
        return nil
    }

    /// A mapping's entries; nil for a scalar or a sequence.
    public var entries: [YAMLEntry]? {
        if case let .mapping(entries, _) = self { return entries }
        return nil
    }

    /// Every scalar under the node, in order: a scalar's text, a sequence's
    /// items, a mapping's entries as `key: value`.
    public var words: [String] {
        switch self {
        case let .scalar(text, _): [text]
        case let .sequence(items, _): items.flatMap(\.words)
        case let .mapping(entries, _):
            entries.map { entry in (entry.key.words + entry.value.words.prefix(1)).joined(separator: ": ") }
        }
    }
}

/// One key and its value in a YAML mapping.
public struct YAMLEntry: Equatable, Sendable {
    public let key: YAMLNode
    public let value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// Why a text is not YAML: libyaml's problem and the line it found it on
/// (1 for the first), or a limit of ours (nesting, aliases).
public struct YAMLError: Error, Equatable, Sendable {
    public let line: Int
    public let problem: String

    public init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }
}

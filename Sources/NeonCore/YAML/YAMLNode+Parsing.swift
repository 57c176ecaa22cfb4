import CYAML

extension YAMLNode {
    /// The deepest nesting of sequences and mappings taken.
    public static let maximumDepth = 64
    /// The most nodes a document may stand for, its aliases' copies counted
    /// (a few aliases of aliases can otherwise name billions).
    public static let maximumNodes = 100_000

    /// The first document of `text` (nil when it holds none), as libyaml
    /// reads it; a text that is not YAML throws its problem and line.
    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) != 0 else { throw YAMLError(line: 1, problem: "the YAML parser could not start (out of memory)") }
        defer { yaml_parser_delete(parser) }
        return try bytes.withUnsafeBufferPointer { buffer throws(YAMLError) -> YAMLNode? in
            yaml_parser_set_input_string(parser, buffer.baseAddress!, buffer.count)
            var builder = Builder()
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) != 0 else {
                    let problem = parser.pointee.problem.map { String(cString: $0) } ?? "not YAML"
                    let context = parser.pointee.context.map { String(cString: $0) + ": " } ?? ""
                    throw YAMLError(line: Int(parser.pointee.problem_mark.line) + 1, problem: context + problem)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT || event.type == YAML_DOCUMENT_END_EVENT { return builder.root }
                try builder.take(event)
            }
        }
    }

    /// Builds the tree from libyaml's events: open sequences and mappings
    /// on a stack, anchors by name.
    private struct Builder {
        var root: YAMLNode?
        var open: [(items: [YAMLNode], isMapping: Bool, line: Int, anchor: String?)] = []
        var anchors: [String: (node: YAMLNode, size: Int)] = [:]
        var nodes = 0

        mutating func take(_ event: yaml_event_t) throws(YAMLError) {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
                try add(.scalar(text, line: line), size: 1, anchor: Self.name(scalar.anchor))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard open.count < YAMLNode.maximumDepth else {
                    throw YAMLError(line: line, problem: "nested deeper than \(YAMLNode.maximumDepth) levels")
                }
                let anchor = event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                open.append(([], event.type == YAML_MAPPING_START_EVENT, line, Self.name(anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let done = open.popLast() else { return }
                let node: YAMLNode = done.isMapping
                    ? .mapping(stride(from: 0, to: done.items.count - 1, by: 2).map { YAMLEntry(key: done.items[$0], value: done.items[$0 + 1]) },
                               line: done.line)
                    : .sequence(done.items, line: done.line)
                try add(node, size: 1 + Self.size(of: node), anchor: done.anchor, counted: true)
            case YAML_ALIAS_EVENT:
                let name = Self.name(event.data.alias.anchor) ?? ""
                guard let named = anchors[name] else { throw YAMLError(line: line, problem: "the alias *\(name) names no anchor") }
                try add(named.node, size: named.size, anchor: nil)
            default:
                return
            }
        }

        private mutating func add(_ node: YAMLNode, size: Int, anchor: String?, counted: Bool = false) throws(YAMLError) {
            nodes += counted ? 1 : size
            guard nodes <= YAMLNode.maximumNodes else {
                throw YAMLError(line: node.line, problem: "more than \(YAMLNode.maximumNodes) values (aliases counted)")
            }
            if let anchor { anchors[anchor] = (node, size) }
            if open.isEmpty {
                root = root ?? node
            } else {
                open[open.count - 1].items.append(node)
            }
        }

        private static func size(of node: YAMLNode) -> Int {
            switch node {
            case .scalar: 1
            case let .sequence(items, _): items.reduce(0) { $0 + size(of: $1) }
            case let .mapping(entries, _): entries.reduce(0) { $0 + size(of: $1.key) + size(of: $1.value) }
            }
        }

        private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            anchor.map { String(cString: $0) }
        }
    }
}

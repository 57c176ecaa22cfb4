import NeonCore

/// The room's snippet outputs, and, presenting with `-x` or `-X`, the
/// snippets this terminal runs: which are running, and which
/// `+exec_replace` blocks already ran when their slide was shown.
public struct SnippetPart: Equatable, Sendable {
    /// Whether snippets run here (never but when presenting with -x or -X).
    public let permission: SnippetPermission
    /// The room's outputs, by block, as the server keeps them.
    public internal(set) var outputs: [SnippetOutput] = []
    /// Blocks whose run is under way on this machine.
    public internal(set) var running: Set<Int> = []
    /// `+exec_replace` blocks run once their slide was shown (-X).
    var shownReplaced: Set<Int> = []

    init(permission: SnippetPermission) {
        self.permission = permission
    }

    /// Takes `output` in place of its block's earlier one.
    mutating func take(_ output: SnippetOutput) {
        outputs.removeAll { $0.block == output.block }
        outputs.append(output)
        outputs.sort { $0.block < $1.block }
    }

    /// A new document: no output is of its code.
    mutating func documentChanged() {
        outputs = []
        shownReplaced = []
    }

    /// The shelf a layout of `document` draws.
    func shelf(in document: Document?) -> SnippetShelf {
        guard let document, !outputs.isEmpty else { return .none }
        return SnippetShelf(outputs, in: document)
    }
}

/// The snippet outputs a layout draws, placed where presenterm places
/// them: below the code of a `+exec` block, instead of the code of a
/// `+exec_replace` block, or at `<!-- snippet_output: NAME -->` for a
/// block marked `+id:NAME` that such a comment names (there only).
public struct SnippetShelf: Equatable, Sendable {
    /// Outputs drawn with their block, by the block's index in the laid-out document.
    public var byBlock: [Int: SnippetOutput]
    /// Outputs drawn at a `snippet_output` comment, by the snippet's id.
    public var named: [String: SnippetOutput]

    public static let none = SnippetShelf(byBlock: [:], named: [:])

    public init(byBlock: [Int: SnippetOutput], named: [String: SnippetOutput]) {
        self.byBlock = byBlock
        self.named = named
    }

    /// The room's `outputs` placed in `document`: an output whose block is
    /// not a runnable code block is left out.
    public init(_ outputs: [SnippetOutput], in document: Document) {
        var referenced = Set<String>()
        for block in document.blocks {
            if case .htmlBlock = block.kind, case let .snippetOutput(id)? = CommentCommand(html: block.text) {
                referenced.insert(id)
            }
        }
        var byBlock: [Int: SnippetOutput] = [:]
        var named: [String: SnippetOutput] = [:]
        for output in outputs where document.blocks.indices.contains(output.block) {
            guard let fence = document.blocks[output.block].fence, fence.exec != nil else { continue }
            if let id = fence.id, referenced.contains(id) {
                named[id] = output
            } else {
                byBlock[output.block] = output
            }
        }
        self.init(byBlock: byBlock, named: named)
    }

    /// The shelf for `document.slice(blocks)`: its block `i` is block `blocks[i]`.
    public func sliced(_ blocks: [Int]) -> SnippetShelf {
        var sliced: [Int: SnippetOutput] = [:]
        for (index, block) in blocks.enumerated() {
            if let output = byBlock[block] { sliced[index] = output }
        }
        return SnippetShelf(byBlock: sliced, named: named)
    }

    /// The output block `index` of `document` draws, if any: a code block's
    /// own, or the named one at a `snippet_output` comment.
    func output(at index: Int, in document: Document) -> SnippetOutput? {
        let block = document.blocks[index]
        switch block.kind {
        case .codeBlock: return byBlock[index]
        case .htmlBlock:
            guard case let .snippetOutput(id)? = CommentCommand(html: block.text) else { return nil }
            return named[id]
        default: return nil
        }
    }
}

extension SnippetOutput {
    /// The rows an output is drawn in: a heading that says whose run it is
    /// and how it ended, then its lines.
    public var rows: [String] {
        let how: String = switch state {
        case .running: "running…"
        case .exited: "exit \(exit ?? 0)"
        case .timeout: "stopped at the time limit"
        case .truncated: "stopped: too much output"
        case .failed: "could not run"
        }
        let heading = "▶ output of \(name)'s run · \(how)"
        return [heading] + (text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
}

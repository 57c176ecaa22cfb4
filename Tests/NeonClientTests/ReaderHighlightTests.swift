import NeonClient
import NeonCore
import NeonTUI
import Testing

/// The reader asks for its document's code to be highlighted once per
/// document, and lays the tokens only on the document they were made for.
@Suite("Reader: highlighted code")
struct ReaderHighlightTests {
    static let code = DocumentInfo(title: "code.md", format: .markdown, text: "# Code\n\n```swift\nlet x = 1\n```\n")
    static let tokens = CodeHighlights(runs: [1: [CodeRun(bytes: 0..<3, kind: .keyword)]])

    func highlightCommands(_ commands: [ClientCommand]) -> [Int] {
        commands.compactMap { if case let .highlight(_, version) = $0 { version } else { nil } }
    }

    @Test("a document with code in a language is sent to be highlighted on the next tick, once")
    func once() {
        var m = ReaderModel(mode: .read, room: "code", name: "ada", columns: 40, rows: 12, document: Self.code, at: .zero)
        let first = m.update(.tick, at: .zero)
        #expect(highlightCommands(first) == [m.pane.documentVersion])
        #expect(highlightCommands(m.update(.tick, at: .milliseconds(10))).isEmpty)
    }

    @Test("a document without code in a language asks for nothing")
    func none() {
        let plain = DocumentInfo(title: "p.md", format: .markdown, text: "# P\n\n```\nplain\n```\n")
        var m = ReaderModel(mode: .read, room: "p", name: "ada", columns: 40, rows: 12, document: plain, at: .zero)
        #expect(highlightCommands(m.update(.tick, at: .zero)).isEmpty)
    }

    @Test("the tokens colour the code row; the row's text and the layout's rows stay as they were")
    func applied() {
        var m = ReaderModel(mode: .read, room: "code", name: "ada", columns: 40, rows: 12, document: Self.code, at: .zero)
        let version = highlightCommands(m.update(.tick, at: .zero))[0]
        let before = m.view(at: .zero, theme: .neon256)
        let rows = m.contentRows
        _ = m.update(.highlighted(Self.tokens, version: version), at: .zero)
        let after = m.view(at: .zero, theme: .neon256)
        #expect(after.lines() == before.lines())
        #expect(m.contentRows == rows)
        let y = after.lines().firstIndex { $0.contains("let x = 1") }!
        let x = after.lines()[y].distance(from: after.lines()[y].startIndex, to: after.lines()[y].range(of: "let")!.lowerBound)
        #expect(after.styles(row: y)[x].fg == .indexed(212))
        #expect(before.styles(row: y)[x].fg == .indexed(250))
    }

    @Test("highlights made for a document no longer shown are dropped")
    func stale() {
        var m = ReaderModel(mode: .read, room: "code", name: "ada", columns: 40, rows: 12, document: Self.code, at: .zero)
        let old = highlightCommands(m.update(.tick, at: .zero))[0]
        _ = m.connected(at: .zero)
        let other = DocumentInfo(title: "other.md", format: .markdown, text: "```swift\nlet y = 2\n```\n")
        _ = m.receive(ServerMessage(seq: 2, .document(DocumentPublished(other, by: ClientID("c2")))), at: .zero)
        _ = m.update(.highlighted(Self.tokens, version: old), at: .zero)
        #expect(m.pane.highlights == .none)
        #expect(highlightCommands(m.update(.tick, at: .zero)) == [old + 1])
    }
}

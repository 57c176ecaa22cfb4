import Foundation
import Testing
@testable import NeonCore

@Suite("Room reducer: snippet outputs")
struct RoomOutputTests {
    let pat = ClientID("c9")
    /// Blocks: 0 "Demo", 1 the +exec snippet, 2 a plain code block, 3 the
    /// +exec_replace snippet named "clock", 4 its snippet_output comment.
    static let deck = """
    # Demo

    ```bash +exec
    echo $((6*7))
    ```

    ```bash
    echo not runnable
    ```

    ```python +exec_replace +id:clock
    print(1)
    ```

    <!-- snippet_output: clock -->
    """

    func demo() -> RoomState {
        var r = RoomState(name: "demo")
        _ = r.apply(.joined(pat, name: "pat", role: .presenter), at: .zero)
        _ = r.apply(.joined(ada, name: "ada", role: .reader), at: .zero)
        _ = r.apply(.documentPublished(pat, DocumentInfo(title: "Demo", format: .markdown, text: Self.deck)), at: .zero)
        return r
    }

    @Test("code fences say +exec, +exec_replace, +id, +line_numbers and the lit groups as presenterm writes them")
    func fences() throws {
        let document = try Document.parse(title: "Demo", format: .markdown, text: Self.deck)
        #expect(document.blocks[1].fence == CodeFence(language: "bash", exec: .onKey))
        #expect(document.blocks[2].fence == nil, "a fence that says only its language keeps nothing more")
        #expect(document.blocks[3].fence == CodeFence(language: "python", exec: .replace, id: "clock"))
        #expect(CommentCommand(html: document.blocks[4].text) == .snippetOutput("clock"))
        #expect(CodeFence(info: "rust {1,3|5-7|all} +line_numbers")
                == CodeFence(language: "rust", lineNumbers: true, highlightGroups: [[1, 3], [5, 6, 7], nil]))
        #expect(CodeFence(info: "rust{2}").highlightGroups == [[2]])
        #expect(CodeFence(info: "rust {3-1}").highlightGroups == [], "a backward range lights nothing")
    }

    @Test("the presenter's output goes to everyone with its seq, replaces the block's earlier one, and a run's start and end are logged")
    func presenterOutput() {
        var r = demo()
        let seq = r.seq
        let start = r.apply(.outputSent(pat, block: 1, text: "", state: .running, exit: nil), at: .seconds(1))
        let running = SnippetOutput(block: 1, by: pat, name: "pat", text: "", state: .running)
        #expect(start.broadcasts == [ServerMessage(seq: seq + 1, .output(running))])
        #expect(start.logs.map(\.event) == ["output"])
        let more = r.apply(.outputSent(pat, block: 1, text: "EXEC", state: .running, exit: nil), at: .seconds(1))
        #expect(more.logs.isEmpty, "streaming output is not logged line by line")
        let done = r.apply(.outputSent(pat, block: 1, text: "EXECOUT42", state: .exited, exit: 0), at: .seconds(2))
        #expect(done.logs.first?.fields.contains(LogField("exit", .int(0))) == true)
        #expect(r.outputs == [SnippetOutput(block: 1, by: pat, name: "pat", text: "EXECOUT42", state: .exited, exit: 0)])
        #expect(ServerMessage.Payload.output(r.outputs[0]).coalescingKey == "output:1")
        _ = r.apply(.outputSent(pat, block: 3, text: "1", state: .exited, exit: 0), at: .seconds(3))
        _ = r.apply(.outputSent(pat, block: 1, text: "", state: .running, exit: nil), at: .seconds(4))
        #expect(r.outputs.map(\.block) == [1, 3])
        #expect(r.outputs[0].text == "", "a re-run replaces the output")
    }

    @Test("a late joiner's welcome holds the outputs; they outlive the presenter's connection and go with the document")
    func keptOutputs() throws {
        var r = demo()
        _ = r.apply(.outputSent(pat, block: 1, text: "EXECOUT42", state: .exited, exit: 0), at: .zero)
        _ = r.apply(.left(pat), at: .zero)
        let joined = r.apply(.joined(bob, name: "bob", role: .reader), at: .zero)
        guard case let .welcome(welcome)? = joined.sent(to: bob).first?.payload else {
            Issue.record("no welcome"); return
        }
        #expect(welcome.outputs?.map(\.text) == ["EXECOUT42"])
        let image = r.image
        #expect(RoomState(image: image).outputs == r.outputs, "a cluster's room image keeps them")
        _ = r.apply(.joined(pat, name: "pat", role: .presenter), at: .zero)
        _ = r.apply(.documentPublished(pat, DocumentInfo(title: "Demo", format: .markdown, text: Self.deck + "\nMore.\n")), at: .zero)
        #expect(r.outputs.isEmpty, "another document starts without outputs")
    }

    @Test("only the presenter's output of a runnable block, sanitized and bounded, is taken; the rest is refused and changes nothing")
    func refusals() {
        var r = demo()
        let before = r
        #expect(r.apply(.outputSent(ada, block: 1, text: "x", state: .exited, exit: 0), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.outputSent(pat, block: 2, text: "x", state: .exited, exit: 0), at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.outputSent(pat, block: 99, text: "x", state: .exited, exit: 0), at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.outputSent(pat, block: 1, text: "\u{1B}[31mred", state: .running, exit: nil), at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.outputSent(pat, block: 1, text: String(repeating: "l\n", count: 41) + "l", state: .running, exit: nil),
                        at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.outputSent(pat, block: 1, text: "x", state: .exited, exit: nil), at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.outputSent(pat, block: 1, text: "x", state: .timeout, exit: 1), at: .zero).errorCodes == [.invalidMessage])
        #expect(r == before)
    }

    @Test("sanitizing drops escapes and control characters, keeps a progress line's last state and the last 40 lines")
    func sanitizing() {
        #expect(SnippetOutput.sanitized("\u{1B}[1;31mred\u{1B}[0m\tok\u{07}\n") == "red    ok")
        #expect(SnippetOutput.sanitized("10%\r50%\r100%\ndone\n\n") == "100%\ndone")
        #expect(SnippetOutput.sanitized("\u{1B}]0;title\u{07}x\u{202E}y") == "xy")
        let many = (1...100).map { "line \($0)" }.joined(separator: "\n")
        let kept = SnippetOutput.sanitized(many)
        #expect(kept.split(separator: "\n").count == SnippetOutput.maximumLines)
        #expect(kept.hasSuffix("line 100"))
        #expect(SnippetOutput.sanitized(kept) == kept)
        #expect(SnippetOutput.sanitized(String(repeating: "é", count: 1000)).utf8.count <= SnippetOutput.maximumLineBytes)
    }

    @Test("the output message reads back as sent, and a bad one is named")
    func wire() throws {
        let codec = WireCodec()
        let message = ClientMessage.output(block: 1, text: "EXECOUT42", state: .exited, exit: 0)
        #expect(try codec.decodeClient(codec.encode(message)).get() == message)
        let broadcast = ServerMessage(seq: 7, .output(SnippetOutput(block: 1, by: pat, name: "pat", text: "a", state: .timeout)))
        #expect(try codec.decodeServer(codec.encode(broadcast)) == broadcast)
        guard case let .failure(error) = codec.decodeClient(Array(#"{"type":"output","block":1,"text":"","state":"done"}"#.utf8)) else {
            Issue.record("a bad state was taken"); return
        }
        #expect(error.message.contains("\"state\"") && error.message.contains("\"running\""))
    }

    @Test("a layout draws an output below +exec code, instead of +exec_replace code, and at its snippet_output comment")
    func layout() throws {
        let document = try Document.parse(title: "Demo", format: .markdown, text: Self.deck)
        let outputs = [SnippetOutput(block: 1, by: pat, name: "pat", text: "EXECOUT42", state: .exited, exit: 0),
                       SnippetOutput(block: 3, by: pat, name: "pat", text: "1", state: .exited, exit: 0)]
        let shelf = SnippetShelf(outputs, in: document)
        #expect(shelf.byBlock.keys.sorted() == [1])
        #expect(shelf.named.keys.sorted() == ["clock"])
        let layout = Layout(document: document, width: 40, outputs: shelf)
        let lines = (0..<layout.rowCount).map { layout.line(at: $0) }
        let texts = lines.map { String($0.text) }
        let code = try #require(texts.firstIndex(of: "echo $((6*7))"))
        #expect(Array(texts[code + 1...code + 2]) == ["▶ output of pat's run · exit 0", "EXECOUT42"])
        #expect(lines[code + 2].part == .output && lines[code + 1].part == .outputHeading)
        #expect(Array(texts.suffix(2)) == ["▶ output of pat's run · exit 0", "1"], "a named output is drawn at its comment")
        #expect(texts.filter { $0 == "1" }.count == 1, "and only there")
        let replaced = Layout(document: document, width: 40,
                              outputs: SnippetShelf(byBlock: [3: outputs[1]], named: [:]))
        let shown = (0..<replaced.rowCount).map { String(replaced.line(at: $0).text) }
        #expect(!shown.contains("print(1)") && shown.contains("1"), "an +exec_replace output takes its code's place")
    }
}

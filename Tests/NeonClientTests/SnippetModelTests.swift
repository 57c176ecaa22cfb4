import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("Snippets in the reader")
struct SnippetModelTests {
    let ada = ClientID("c7")
    static let deck = """
    # Demo

    ```bash +exec
    echo "EXECOUT$((6*7))"
    ```

    ```rust +exec
    fn main() {}
    ```
    """

    func model(_ mode: ClientMode, snippets: SnippetPermission = .off, outputs: [SnippetOutput] = []) -> ReaderModel {
        let info = DocumentInfo(title: "demo.md", format: .markdown, text: Self.deck)
        var m = ReaderModel(mode: mode, room: "demo", name: mode == .present ? "ada" : "fay", columns: 80, rows: 24,
                            document: mode == .present ? info : nil, snippets: snippets, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: mode == .present ? ada : me, room: "demo", document: info,
                        readers: [ReaderInfo(id: ada, name: "ada", role: .presenter, anchor: .top)], presenter: ada,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)), outputs: outputs)
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        return m
    }

    func runs(_ commands: [ClientCommand]) -> [Snippet] {
        commands.compactMap { if case let .runSnippet(s) = $0 { s } else { nil } }
    }

    func screen(_ m: ReaderModel) -> [String] {
        var m = m
        m.settle()
        return m.view(at: .zero, theme: .neon).lines()
    }

    @Test("presenting with -x, Ctrl-E runs the bash snippet through bash and says the rust one cannot run; its output goes to the room")
    func presenterRuns() throws {
        var m = model(.present, snippets: .exec)
        let out = m.handle(.key(.ctrl("e")), at: .seconds(1))
        #expect(runs(out) == [try Snippet.of(block: 1, language: "bash", code: "echo \"EXECOUT$((6*7))\"").get()])
        #expect(runs(out).first?.command == ["bash", "-c", "echo \"EXECOUT$((6*7))\""])
        let sent = out.compactMap { if case let .send(message) = $0 { message } else { nil } }
        #expect(sent.contains(.output(block: 1, text: "", state: .running)))
        #expect(sent.contains { if case .output(2, _, .failed, nil) = $0 { true } else { false } }, "rust cannot run here, and the room is told")
        #expect(m.notices.current?.text.contains("a rust snippet cannot run here") == true)
        #expect(runs(m.handle(.key(.ctrl("e")), at: .seconds(1))).isEmpty, "a snippet that runs is not started twice")
        let done = m.snippetRan(SnippetProgress(block: 1, text: "EXECOUT42\n", state: .exited, exit: 0), at: .seconds(2))
        #expect(done == [.send(.output(block: 1, text: "EXECOUT42", state: .exited, exit: 0))])
        #expect(runs(m.handle(.key(.ctrl("e")), at: .seconds(3))).count == 1, "once it ended it runs again")
    }

    @Test("without -x nothing runs and Ctrl-E says how to enable it; a follower's Ctrl-E runs nothing either")
    func nothingRunsWithoutPermission() {
        var presenter = model(.present)
        #expect(runs(presenter.handle(.key(.ctrl("e")), at: .zero)).isEmpty)
        #expect(presenter.notices.current?.text.hasPrefix("snippets run only when enabled: start neonsync present FILE -x") == true)
        var follower = model(.follow, snippets: .exec)
        #expect(follower.handle(.key(.ctrl("e")), at: .zero).isEmpty)
        #expect(follower.notices.current?.text.hasPrefix("only the presenter runs snippets") == true)
        #expect(follower.snippetRan(SnippetProgress(block: 1, text: "x", state: .exited, exit: 0), at: .zero).isEmpty)
    }

    @Test("a follower draws the room's output under its block, from the welcome and from output messages, and a re-run replaces it")
    func followerSeesOutput() {
        let first = SnippetOutput(block: 1, by: ada, name: "ada", text: "EXECOUT42", state: .exited, exit: 0)
        var m = model(.follow, outputs: [first])
        let lines = screen(m)
        let code = lines.firstIndex { $0.contains("echo \"EXECOUT$((6*7))\"") }
        #expect(code.map { lines[$0 + 1].contains("▶ output of ada's run · exit 0") && lines[$0 + 2].contains("EXECOUT42") } == true,
                "\(lines.joined(separator: "\n"))")
        _ = m.receive(ServerMessage(seq: 2, .output(SnippetOutput(block: 1, by: ada, name: "ada", text: "", state: .running))), at: .zero)
        let rerun = screen(m)
        #expect(rerun.contains { $0.contains("▶ output of ada's run · running…") })
        #expect(!rerun.contains { $0.contains("EXECOUT42") })
    }
}

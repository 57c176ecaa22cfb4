import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("Questions in the reader, tail and the monitor")
struct QuestionModelTests {
    let bob = ClientID("c2")

    /// ada follows pat through `pointerTalk` at 80x24; `questions` are the room's.
    func model(_ mode: ClientMode = .follow, questions: [QuestionInfo] = []) -> ReaderModel {
        var m = ReaderModel(mode: mode, room: "talk", name: mode == .present ? "pat" : "ada", columns: 80, rows: 24, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: mode == .present ? pat : me, room: "talk",
                        document: DocumentInfo(title: "talk.md", format: .markdown, text: pointerTalk),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter, anchor: .top),
                                  ReaderInfo(id: me, name: "ada", role: .reader, following: mode == .follow)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)),
                        questions: questions)
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        return m
    }

    func type(_ text: String, into m: inout ReaderModel) -> [ClientCommand] {
        text.flatMap { m.handle(.key(.character($0)), at: .zero) }
    }

    static let first = "The first paragraph says hello to everyone in the room."

    @Test("c opens a prompt on the passage at the top that counts as the draft does; Enter sends ask, Esc sends nothing")
    func prompt() throws {
        var m = model()
        _ = m.scroll(to: 2, at: .zero)
        #expect(m.handle(.key(.character("c")), at: .zero).isEmpty)
        #expect(type("Why? q", into: &m).isEmpty, "q is typed, not quit")
        let screen = m.view(at: .seconds(10), theme: .neon).lines()
        #expect(screen.last?.hasPrefix(" ask: Why? q▏") == true && screen.last?.hasSuffix("6/280 ◔") == true, "\(screen.last ?? "")")
        #expect(m.handle(.key(.enter), at: .zero)
                == [.send(.ask(anchor: Anchor(block: 1, offset: 0), length: Self.first.count, text: "Why? q"))])
        #expect(m.questions.prompt == nil)
        _ = m.handle(.key(.character("c")), at: .zero)
        _ = type("never mind", into: &m)
        #expect(m.handle(.key(.escape), at: .zero).isEmpty && m.questions.prompt == nil)
    }

    @Test("an empty question or one over the limit is not sent: the prompt stays and says why")
    func refusedHere() {
        var m = model()
        _ = m.handle(.key(.character("c")), at: .zero)
        #expect(m.handle(.key(.enter), at: .zero).isEmpty)
        #expect(m.view(at: .zero, theme: .neon).lines().last?.hasPrefix(" the question is empty: type it, then Enter (Esc cancels)  ask: ▏") == true)
        _ = m.handle(.paste(String(repeating: "a", count: 281) + "\n"), at: .zero)
        #expect(m.questionStatus?.count == 281, "the line break is left out")
        #expect(m.handle(.key(.enter), at: .zero).isEmpty && m.questions.prompt != nil)
        #expect(m.view(at: .zero, theme: .neon).lines().last?.contains("over the room's limit of 280") == true)
    }

    @Test("a question heard marks its passage with ? in the gutter and tells who asks what; answered it is ✓")
    func heardAndMarked() throws {
        var m = model()
        var question = QuestionInfo(number: 1, by: bob, name: "bob", text: "Why hello?", anchor: Anchor(block: 1, offset: 0), length: 5)
        _ = m.receive(ServerMessage(seq: 2, .question(question)), at: .zero)
        var lines = m.view(at: .zero, theme: .neon).lines()
        #expect(lines.last?.contains("bob asks: Why hello? — C lists the questions") == true, "\(lines.last ?? "")")
        let row = try #require(lines.firstIndex { $0.contains("The first paragraph says hello") })
        #expect(lines[row].hasSuffix("?│"), "\(lines[row])")
        question.answered = true
        question.answeredBy = "pat"
        _ = m.receive(ServerMessage(seq: 3, .question(question)), at: .seconds(10))
        lines = m.view(at: .seconds(10), theme: .neon).lines()
        #expect(lines[row].hasSuffix("✓│"), "\(lines[row])")
        #expect(lines.last?.contains("pat marked #1 answered (bob: Why hello?)") == true)
    }

    @Test("while slides show, a question on the slide is marked at the page's right edge")
    func slideMark() throws {
        var m = ReaderModel(mode: .present, room: "talk", name: "pat", columns: 80, rows: 24, slides: true, at: .zero)
        _ = m.connected(at: .zero)
        let asked = QuestionInfo(number: 1, by: bob, name: "bob", text: "Hello?", anchor: Anchor(block: 1, offset: 0), length: 5)
        let w = Welcome(you: pat, room: "talk", document: DocumentInfo(title: "talk.md", format: .markdown, text: pointerTalk),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)], presenter: pat,
                        draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)), questions: [asked])
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        #expect(m.slides.isOn)
        let lines = m.view(at: .zero, theme: .neon).lines(trimming: false)
        let row = try #require(lines.firstIndex { $0.contains("The first paragraph says hello") })
        #expect(lines[row].trimmingCharacters(in: .whitespaces).last == "?" || lines[row].dropLast().last == "?", "\(lines[row])")
        #expect(lines.filter { $0.contains("?") }.count == 1)
    }

    @Test("C lists the welcome's questions; Enter goes to one's passage and detaches a follower; a marks it answered only for its asker or the presenter")
    func list() throws {
        let end = QuestionInfo(number: 1, by: bob, name: "bob", text: "The end?", anchor: Anchor(block: 19, offset: 0), length: 3)
        let mine = QuestionInfo(number: 2, by: me, name: "ada", text: "Hello?", anchor: Anchor(block: 1, offset: 0), length: 5)
        var m = model(questions: [end, mine])
        #expect(m.handle(.key(.character("C")), at: .zero).isEmpty)
        let lines = m.view(at: .zero, theme: .neon).lines()
        #expect(lines.contains { $0.contains("? #1 bob: The end?") } && lines.contains { $0.contains("? #2 ada: Hello?") })
        #expect(m.handle(.key(.character("a")), at: .zero) == [.send(.answered(question: 2))], "ada asked #2")
        _ = m.handle(.key(.up), at: .zero)
        #expect(m.handle(.key(.character("a")), at: .zero).isEmpty, "bob's is not ada's to mark")
        let out = m.handle(.key(.enter), at: .zero)
        #expect(out.contains(.send(.follow(on: false))) && !m.questions.isListOpen)
        #expect(m.view(at: .zero, theme: .neon).lines().contains { $0.contains("The pointed paragraph at the end") })
        var presenter = model(.present, questions: [end])
        _ = presenter.handle(.key(.character("C")), at: .zero)
        #expect(presenter.handle(.key(.character("a")), at: .zero) == [.send(.answered(question: 1))])
        var empty = model()
        #expect(empty.handle(.key(.character("C")), at: .zero).isEmpty && !empty.questions.isListOpen, "no list without questions")
    }

    @Test("tail and the monitor say who asks what, where, and who answered it; a welcome counts the questions")
    func feedLines() throws {
        var feed = TailFeed()
        let document = DocumentInfo(title: "Guide", format: .markdown, text: "# Intro\nHello there.\n")
        let asked = QuestionInfo(number: 1, by: bob, name: "bob", text: "why?", anchor: Anchor(block: 1, offset: 0), length: 5)
        let welcome = Welcome(you: ClientID("c9"), room: "talk", document: document, readers: [], presenter: nil,
                              draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)), questions: [asked])
        #expect(feed.describe(ServerMessage(seq: 1, .welcome(welcome)))?.hasSuffix("; 1 question (1 open)") == true)
        let second = QuestionInfo(number: 2, by: bob, name: "bob", text: "how?", anchor: Anchor(block: 1, offset: 0), length: 5)
        #expect(feed.describe(ServerMessage(seq: 2, .question(second))) == "bob asks #2 on \"Hello\" in §1 \"Intro\": how?")
        var answered = second
        answered.answered = true
        answered.answeredBy = "pat"
        #expect(feed.describe(ServerMessage(seq: 3, .question(answered))) == "pat marked #2 answered (bob: how?)")
        var monitor = watchingMonitor()
        _ = monitor.receive(ServerMessage(seq: 4, .question(second)), at: .zero)
        #expect(monitor.view(at: .zero, theme: .neon).lines().contains { $0.contains("bob asks #2 on \"Hello\" in §1 \"Intro\": how?") })
    }
}

import NeonClient
import NeonCore
import NeonTUI

/// The screens of the sweep, each a chain through every size with a
/// script of states (`SweepChain`): the reader reading, presenting (online
/// and offline) and following, the notes screen, the draft editor, and the
/// monitor of one room and of every room, each with its help overlay.
struct SweepScreens {
    let document: SweepDocument
    /// What a follower's terminal received while a presenter went through
    /// the whole document, the welcome first.
    let session: [ServerMessage]

    static let room = "sweep"
    static let server = "ws://127.0.0.1:1/"
    static let me = ClientID("c1"), bob = ClientID("c2"), pat = ClientID("c9")

    init(_ document: SweepDocument) {
        self.document = document
        session = Self.record(document)
    }

    /// A presenter at 80x24 goes through every slide and step (or every
    /// page of a document), back to the start and to the next section,
    /// through NeonCore's room reducer, with a follower whose messages are
    /// kept.
    static func record(_ document: SweepDocument) -> [ServerMessage] {
        var room = RoomSimulation()
        room.join(pat, .present, name: "pat", columns: 80, rows: 24, document: document.file)
        room.join(me, .follow, name: "fay", columns: 60, rows: 20)
        let slides = room.clients[pat]?.slides.isOn == true
        for _ in 0..<80 {
            let before = room.clients[pat].map { ($0.slides.place, $0.pane.top) }
            room.press(pat, slides ? .right : .character(" "))
            room.advance(by: .milliseconds(400))
            guard let after = room.clients[pat].map({ ($0.slides.place, $0.pane.top) }), after != before! else { break }
        }
        room.press(pat, .character("g"))
        room.advance(by: .milliseconds(400))
        room.press(pat, .tab)
        room.advance(by: .milliseconds(400))
        return room.inbox[me] ?? []
    }

    /// The characters of the document, the names and the draft typed: what
    /// an ASCII theme may still draw outside ASCII.
    var content: Set<Character> { Set(document.file.text + "bob 李 👩‍💻 Two 漢字") }

    /// The session's messages after the welcome.
    var moves: [ServerMessage] { Array(session.dropFirst()) }

    var welcomePresenting: ServerMessage {
        ServerMessage(seq: 1, .welcome(Welcome(
            you: Self.me, room: Self.room, document: nil,
            readers: [ReaderInfo(id: Self.me, name: "ada", role: .presenter), ReaderInfo(id: Self.bob, name: "bob 李 👩‍💻", role: .reader)],
            presenter: Self.me, draft: DraftInfo(text: "", rev: 0, status: DraftCounter.standard.status(forCount: 0)))))
    }

    var welcomeReading: ServerMessage {
        ServerMessage(seq: 1, .welcome(Welcome(
            you: Self.me, room: Self.room, document: nil,
            readers: [ReaderInfo(id: Self.me, name: "ada", role: .reader), ReaderInfo(id: Self.bob, name: "bob 李 👩‍💻", role: .reader, percent: 40)],
            presenter: nil, draft: DraftInfo(text: "", rev: 0, status: DraftCounter.standard.status(forCount: 0)))))
    }

    static let offline = ProgramEvent.disconnected(Disconnection(cause: .failed("connection refused"), server: server,
                                                                 retryAt: .seconds(2)))

    // MARK: the reader

    /// `read FILE`: published on the welcome; paged, to the bottom, idle,
    /// to the next section, code shifted, searched, with the draft panel,
    /// the help, offline and back.
    var read: SweepChain<ReaderModel> {
        SweepChain(screen: "read", document: document.name, content: content, make: { size in
            ReaderModel(mode: .read, room: Self.room, name: "ada", columns: size.columns, rows: size.rows,
                        document: document.file, at: .seconds(1))
        }, setUp: { run in
            run.send(.connected(to: Self.server))
            run.receive(welcomeReading)
        }, steps: [
            SweepStep("a page down") { $0.press(.character(" ")) },
            SweepStep("at the bottom") { $0.press(.character("G")) },
            SweepStep("idle at the bottom") { $0.wait(.seconds(5)) },
            SweepStep("the next section") { $0.press(.tab) },
            SweepStep("code shifted") { $0.press(.right, .right) },
            SweepStep("typing a search") { $0.type("/the") },
            SweepStep("a search match") { $0.press(.enter) },
            SweepStep("the draft panel open") { $0.press(.character("e")) },
            SweepStep("the draft panel closed") { $0.press(.escape, .character("E")) },
            SweepStep("help") { $0.press(.character("?")) },
            SweepStep("help at its end") { $0.press(.character("G")) },
            SweepStep("back to the top") { $0.press(.escape, .character("g")) },
            SweepStep("offline") { $0.send(Self.offline) },
            SweepStep("back online") { run in
                run.send(.connected(to: Self.server))
                run.receive(welcomeReading)
            },
        ])
    }

    /// `present FILE`: every slide and every step (or page of a document)
    /// and back to the start, the speaker notes hidden and shown, a pointer,
    /// a slide number typed, the help; offline, stepping the same way.
    func present(online: Bool) -> SweepChain<ReaderModel> {
        let slides = ReaderModel(mode: .present, room: Self.room, name: "ada", columns: 80, rows: 24, document: document.file,
                                 at: .zero).slides.isOn
        let deck = PresenterSource(markdown: document.file.text).published
        let steps = slides ? (try? Document.parse(title: "", format: .markdown, text: deck)).map { SlideDeck($0).slides.map(\.steps).reduce(0, +) } ?? 1
            : 8
        var script: [SweepStep<ReaderModel>] = (1..<max(steps, 1)).map { number in
            SweepStep(slides ? "step \(number + 1) of the deck" : "page \(number + 1)") { $0.press(slides ? .right : .character(" ")) }
        }
        if online {
            script += [
                SweepStep("scrolled within") { $0.press(.character("j")) },
                SweepStep("notes toggled") { $0.press(.character("s")) },
                SweepStep("pointing") { $0.press(.character("p")) },
                SweepStep("typing a slide number") { $0.type("3") },
                SweepStep("gone to slide 3") { $0.press(.enter) },
                SweepStep("help") { $0.press(.character("?")) },
                SweepStep("notes toggled back") { $0.press(.escape, .character("s")) },
            ]
        }
        script.append(SweepStep("back to the start") { $0.press(.character("g")) })
        return SweepChain(screen: online ? "present" : "present offline", document: document.name, content: content, make: { size in
            ReaderModel(mode: .present, room: Self.room, name: "ada", columns: size.columns, rows: size.rows,
                        document: document.file, at: .seconds(1))
        }, setUp: { run in
            if online {
                run.send(.connected(to: Self.server))
                run.receive(welcomePresenting)
            } else {
                run.send(Self.offline)
            }
        }, steps: script)
    }

    /// `follow ROOM`: the presenter's every move as the room relays it,
    /// then detached and following again.
    var follow: SweepChain<ReaderModel> {
        var script = moves.enumerated().map { number, message in
            SweepStep<ReaderModel>("the presenter's move \(number + 1)") { $0.receive(message) }
        }
        script += [
            SweepStep("detached") { $0.press(.character("k")) },
            SweepStep("following again") { $0.press(.character("f")) },
        ]
        return SweepChain(screen: "follow", document: document.name, content: content, make: { size in
            ReaderModel(mode: .follow, room: Self.room, name: "fay", columns: size.columns, rows: size.rows, at: .seconds(1))
        }, setUp: { run in
            run.send(.connected(to: Self.server))
            if let welcome = session.first { run.receive(welcome) }
        }, steps: script)
    }

    // MARK: the other screens

    /// `notes FILE`: the notes of every passage the presenter reaches,
    /// scrolled, the help, offline.
    var notes: SweepChain<NotesModel> {
        var script = moves.enumerated().map { number, message in
            SweepStep<NotesModel>("the presenter's move \(number + 1)") { $0.receive(message) }
        }
        script += [
            SweepStep("scrolled") { $0.press(.character("j"), .character("j")) },
            SweepStep("help") { $0.press(.character("?")) },
            SweepStep("offline") { run in
                run.press(.escape)
                run.send(.disconnected(Disconnection(cause: .closed("going away"), server: Self.server, retryAt: .seconds(2))))
            },
        ]
        return SweepChain(screen: "notes", document: document.name, content: content, make: { size in
            NotesModel(room: Self.room, name: "ada-notes", file: document.file, columns: size.columns, rows: size.rows)
        }, setUp: { run in
            run.send(.connected(to: Self.server))
            if let welcome = session.first { run.receive(welcome) }
        }, steps: script)
    }

    /// `draft ROOM`: the start of the document as the draft (over the
    /// limit when it is long), a remote cursor, typing, the help.
    var draft: SweepChain<DraftModel> {
        let text = String(document.published.text.prefix(320))
        return SweepChain(screen: "draft", document: document.name, content: content, make: { size in
            DraftModel(room: Self.room, name: "ada", profile: nil, columns: size.columns, rows: size.rows)
        }, setUp: { run in
            run.send(.connected(to: Self.server))
            run.receive(ServerMessage(seq: 1, .welcome(Welcome(
                you: Self.me, room: Self.room, document: nil,
                readers: [ReaderInfo(id: Self.me, name: "ada", role: .reader), ReaderInfo(id: Self.bob, name: "bob 李 👩‍💻", role: .reader)],
                presenter: nil, draft: DraftInfo(text: text, rev: 3, status: DraftCounter.standard.status(forCount: text.count))))))
            run.receive(ServerMessage(seq: 2, .cursor(CursorInfo(id: Self.bob, position: text.count / 2, rev: 3))))
        }, steps: [
            SweepStep("typed at the start") { $0.press(.ctrl("a")); $0.type("漢👩‍💻 ") },
            SweepStep("at the end") { $0.press(.ctrl("e")) },
            SweepStep("help") { $0.press(.function(1)) },
            SweepStep("help closed") { $0.press(.escape) },
        ])
    }

    /// `monitor ROOM`: the follower's session seen from outside, the feed
    /// scrolled back, the help.
    var monitor: SweepChain<MonitorModel> {
        SweepChain(screen: "monitor", document: document.name, content: content, make: { size in
            MonitorModel(room: Self.room, name: "ops", columns: size.columns, rows: size.rows)
        }, setUp: { run in
            run.send(.connected(to: Self.server))
            for message in session { run.receive(message) }
        }, steps: [
            SweepStep("the feed scrolled back") { $0.press(.character("k")) },
            SweepStep("help") { $0.press(.character("?")) },
            SweepStep("help scrolled") { $0.press(.character("j")) },
            SweepStep("help closed") { $0.press(.escape, .character("G")) },
        ])
    }

    /// `monitor` of every room: fourteen rooms, the session relayed from
    /// one of them, the selection moved through them, the help.
    var monitorEveryRoom: SweepChain<MonitorModel> {
        let heading = document.file.format == .catalog ? nil
            : DocumentHeading(title: document.file.title, format: document.file.format, sections: ["One", "Two 漢字"])
        let rooms = (1...14).map { number in
            RoomSummary(room: number == 7 ? Self.room : "room-\(number)-\(String(repeating: "long", count: number % 5))", seq: number,
                        readers: [ReaderInfo(id: ClientID("c\(number + 10)"), name: "reader \(number)", role: .reader, percent: number * 7)],
                        presenter: nil, document: heading,
                        draft: DraftCount(rev: number, status: DraftCounter.standard.status(forCount: number * 23)))
        }
        return SweepChain(screen: "monitor every room", document: document.name, content: content, make: { size in
            MonitorModel(room: nil, name: "ops", columns: size.columns, rows: size.rows)
        }, setUp: { run in
            run.send(.connected(to: Self.server))
            run.receive(ServerMessage(seq: 0, .overview(Overview(you: ClientID("c99"), rooms: rooms))))
            for message in moves { run.receive(ServerMessage(seq: 0, .room(RoomEnvelope(room: Self.room, message: message)))) }
        }, steps: [
            SweepStep("the next room") { $0.press(.tab) },
            SweepStep("three rooms on") { $0.press(.tab, .tab, .tab) },
            SweepStep("the room before") { $0.press(.backTab) },
            SweepStep("help") { $0.press(.character("?")) },
            SweepStep("help closed") { $0.press(.escape) },
        ])
    }
}

// A libFuzzer target over the client's screens (issue 35: one slide at one
// size killed every follower's client): a Markdown document, a terminal
// size and a sequence of events through the reader (reading, presenting
// as slides or a document, following a presenter who moves through a room
// run by NeonCore's reducer) and the presenter's notes screen, each event
// through `update` and each frame through `view`, as the runtime drives
// them. Built and run by scripts/fuzz.sh with NeonCore, NeonTUI and
// NeonClient compiled into one module.
//
// The input: byte 0 is the width less one, mod 160 (1 to 160 columns; the
// sweep draws 200 and 300), byte 1 the height less one, mod 48, byte 2 the
// screen (read, present, follow, notes), byte 3 how many event bytes follow
// (0 to 15: short runs, many of them, each drawn after every event); those bytes
// are events (`screenEvent`: keys, resizes, time passing, mouse, the
// presenter's moves, the connection lost and back); the rest is the
// document's text (invalid UTF-8 replaced). Checks: no trap (libFuzzer
// counts one as a crash), and every frame is the terminal's size with no
// fault (`Buffer.faults`: nothing drawn outside a widget's area, no text
// cut without an ellipsis).

private let keys: [Key] = [
    .right, .left, .character(" "), .character("j"), .character("k"), .character("g"), .character("G"), .tab,
    .backTab, .enter, .escape, .character("/"), .character("n"), .character("N"), .character("e"), .character("E"),
    .character("s"), .character("p"), .character("P"), .character("'"), .character("t"), .character("f"),
    .character("?"), .character("d"), .character("u"), .pageDown, .pageUp, .home, .end, .character("3"),
    .character("9"), .backspace, .character("漢"), .function(1), .up, .down, .character("l"), .character("h"),
]

private enum ScreenEvent {
    case program(ProgramEvent)
    case wait(Duration)
    /// The presenter presses a key; the room relays what it sends.
    case presenter(Key)
}

/// What event byte `byte` stands for on a terminal of `size`.
private func screenEvent(_ byte: UInt8, size: (columns: Int, rows: Int)) -> ScreenEvent {
    let value = Int(byte)
    switch value {
    case 0..<keys.count: return .program(.input(.key(keys[value])))
    case 40..<100:
        // A resize: sizes near the small ones that broke, and some large.
        return .program(.resized(columns: 1 + (value * 37) % 200, rows: 1 + (value * 11) % 48))
    case 100..<110: return .wait(.milliseconds(70 * (value - 99) * (value - 99)))
    case 110..<130:
        let x = (value * 13) % max(size.columns, 1), y = (value * 7) % max(size.rows, 1)
        let kind: MouseEvent.Action = value % 3 == 0 ? .wheelUp : value % 3 == 1 ? .wheelDown : .press(.left)
        return .program(.input(.mouse(MouseEvent(kind, x: x, y: y))))
    case 130..<200:
        let moves: [Key] = [.right, .right, .right, .left, .character("G"), .character("g"), .tab, .character(" "), .character("j")]
        return .presenter(moves[value % moves.count])
    case 200..<210: return .program(.input(.paste("pasted 漢字 text")))
    case 210..<215:
        return .program(.disconnected(Disconnection(cause: .failed("refused"), server: "ws://x/", retryAt: .seconds(1))))
    default: return .program(.tick)
    }
}

/// A room in-process: the presenter's terminal (80x24) and the screen
/// fuzzed, with NeonCore's reducer between them.
private struct FuzzRoom {
    var room = RoomState(name: "fuzz")
    var presenter: ReaderModel
    let presenterID = ClientID("c9"), viewerID = ClientID("c1")
    var now: Duration = .seconds(1)

    init(document: DocumentInfo) {
        presenter = ReaderModel(mode: .present, room: "fuzz", name: "pat", columns: 80, rows: 24, document: document, at: now)
        _ = presenter.connected(at: now)
    }

    /// Joins both; the viewer's messages go to `deliver`.
    mutating func start(viewer role: Role, deliver: (ServerMessage) -> Void) {
        relay(room.apply(.joined(presenterID, name: "pat", role: .presenter), at: now), deliver)
        relay(room.apply(.joined(viewerID, name: "fay", role: role), at: now), deliver)
    }

    mutating func press(_ key: Key, deliver: (ServerMessage) -> Void) {
        now += .milliseconds(200)
        let commands = presenter.handle(.key(key), at: now) + presenter.tick(at: now)
        presenter.settle()
        relay(perform(commands), deliver)
    }

    private mutating func relay(_ outputs: [RoomOutput], _ deliver: (ServerMessage) -> Void) {
        var queue = outputs
        while !queue.isEmpty {
            let message: ServerMessage, recipients: [ClientID]
            switch queue.removeFirst() {
            case let .broadcast(m, _, except): (message, recipients) = (m, [viewerID, presenterID].filter { $0 != except })
            case let .send(m, id): (message, recipients) = (m, [id])
            default: continue
            }
            if recipients.contains(viewerID) { deliver(message) }
            if recipients.contains(presenterID) {
                let commands = presenter.receive(message, at: now)
                presenter.settle()
                queue += perform(commands)
            }
        }
    }

    private mutating func perform(_ commands: [ClientCommand]) -> [RoomOutput] {
        var outputs: [RoomOutput] = []
        for case let .send(message) in commands {
            switch message {
            case let .scroll(top, viewport, content, anchor, step):
                outputs += room.apply(.scrolled(presenterID, top: top, viewport: viewport, content: content, anchor: anchor, step: step), at: now)
            case let .tab(section):
                outputs += room.apply(.tabSelected(presenterID, section: section), at: now)
            case let .document(title, format, text, _, images, unshown, revises):
                outputs += room.apply(.documentPublished(presenterID, DocumentInfo(title: title, format: format, text: text, images: images,
                                                                                   unshown: unshown),
                                                         revises: revises), at: now)
            default: break
            }
        }
        return outputs
    }
}

/// Traps when a frame is not the terminal's size or a widget misbehaved.
private func checkFrame(_ buffer: Buffer, columns: Int, rows: Int, screen: String) {
    guard buffer.width == max(columns, 1), buffer.height == max(rows, 1) else {
        fatalError("\(screen): a \(buffer.width)x\(buffer.height) frame for a \(columns)x\(rows) terminal")
    }
    guard buffer.faults.isEmpty else {
        fatalError("\(screen) at \(columns)x\(rows): \(buffer.faults.examples.joined(separator: "; "))")
    }
}

/// Drives `model` through `events`, drawing and checking after each.
private func drive<P: ScreenProgram>(_ model: inout P, _ events: [UInt8], size start: (columns: Int, rows: Int),
                                      room: inout FuzzRoom?, screen: String, receive: (inout P, ServerMessage, Duration) -> Void) {
    var size = start
    var now: Duration = .seconds(1)
    checkFrame(model.view(at: now, theme: .neon), columns: size.columns, rows: size.rows, screen: screen)
    for (index, byte) in events.enumerated() {
        now += .milliseconds(30)
        switch screenEvent(byte, size: size) {
        case let .program(event):
            if case let .resized(columns, rows) = event { size = (columns, rows) }
            _ = model.update(event, at: now)
        case let .wait(duration):
            now += duration
        case let .presenter(key):
            guard var current = room else { continue }
            current.press(key) { receive(&model, $0, now) }
            room = current
        }
        _ = model.update(.tick, at: now)
        let theme: Theme = index % 2 == 0 ? .neon : .monochromeASCII
        checkFrame(model.view(at: now, theme: theme), columns: size.columns, rows: size.rows, screen: screen)
    }
}

func fuzzScreens(_ data: UnsafePointer<UInt8>, _ size: Int) {
    guard size >= 4 else { return }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let columns = 1 + Int(bytes[0]) % 160, rows = 1 + Int(bytes[1]) % 48
    let screen = Int(bytes[2]) % 4
    let eventCount = min(Int(bytes[3]) % 16, size - 4)
    let events = Array(bytes[4..<4 + eventCount])
    let text = String(decoding: bytes[(4 + eventCount)...], as: UTF8.self)
    let file = DocumentInfo(title: "fuzz.md", format: .markdown, text: text)
    let me = ClientID("c1")
    let draft = DraftInfo(text: "", rev: 0, status: DraftCounter.standard.status(forCount: 0))
    var room: FuzzRoom?
    switch screen {
    case 0, 1:
        let mode: ClientMode = screen == 0 ? .read : .present
        var model = ReaderModel(mode: mode, room: "fuzz", name: "ada", columns: columns, rows: rows, document: file, at: .seconds(1))
        _ = model.connected(at: .seconds(1))
        let welcome = Welcome(you: me, room: "fuzz", document: nil, readers: [ReaderInfo(id: me, name: "ada", role: mode.role)],
                              presenter: mode == .present ? me : nil, draft: draft)
        _ = model.receive(ServerMessage(seq: 1, .welcome(welcome)), at: .seconds(1))
        drive(&model, events, size: (columns, rows), room: &room, screen: mode.rawValue) { _, _, _ in }
    case 2:
        var model = ReaderModel(mode: .follow, room: "fuzz", name: "fay", columns: columns, rows: rows, at: .seconds(1))
        _ = model.connected(at: .seconds(1))
        var started = FuzzRoom(document: file)
        started.start(viewer: .reader) { message in _ = model.receive(message, at: .seconds(1)) }
        room = started
        drive(&model, events, size: (columns, rows), room: &room, screen: "follow") { model, message, now in
            _ = model.receive(message, at: now)
        }
    default:
        var model = NotesModel(room: "fuzz", name: "ada-notes", file: file, columns: columns, rows: rows)
        _ = model.connected(at: .seconds(1))
        var started = FuzzRoom(document: file)
        started.start(viewer: .observer) { message in _ = model.receive(message, at: .seconds(1)) }
        room = started
        drive(&model, events, size: (columns, rows), room: &room, screen: "notes") { model, message, now in
            _ = model.receive(message, at: now)
        }
    }
}

import NeonCore
import NeonTUI

/// `neonsync draft ROOM`: the room's shared draft in a full-screen editor
/// with the draft's ring. Local edits go out through the OT client state
/// (`DraftEditor`), so typing never waits for the network.
public struct DraftModel: Sendable {
    /// How long the ring pulses after the draft reaches the limit.
    public static let pulseDuration: Duration = .milliseconds(400)

    public let room: String
    public let name: String
    public let profile: CountingProfile?
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var connection: ConnectionState = .connecting
    /// Who is in the room: the names of the remote cursors, the headcount.
    public internal(set) var presence = Presence()
    public internal(set) var editor = DraftEditor()
    public internal(set) var counter: DraftCounter
    public internal(set) var pulseUntil: Duration?
    public internal(set) var notices = NoticeLine()
    public internal(set) var scrollTop = 0
    /// The key list over the draft editor (F1 or Ctrl-G).
    public internal(set) var keyList = KeyList()
    /// The terminal Ctrl-O copies the draft through (OSC 52); the shell
    /// reads it from the environment. Unknown, it takes no copy.
    public var terminal = ClipboardCopy.Terminal(term: nil, inTmux: false)
    /// Where the editor is drawn when it is a panel inside another screen
    /// (the reader's draft panel); nil for the full-screen draft editor.
    public var panel: Rect?
    /// Whether the editor's revision is the server's: a reconnect then
    /// resumes from it (the welcome lists the edits missed since) instead
    /// of starting over from the welcome's text. Set by every welcome,
    /// cleared when this terminal and the server disagree.
    public internal(set) var synced = false
    /// Whether a welcome has loaded the draft since this editor started.
    var loadedOnce = false
    /// The key of the edit awaiting its ack, so a resent edit counts once.
    public internal(set) var outstandingKey: String?
    let keyPrefix: String
    var nextKey = 0

    /// `keyPrefix` starts the key of every edit this editor sends: random,
    /// so no two editors' keys meet (a simulation gives its own, to replay).
    public init(room: String, name: String, profile: CountingProfile?, columns: Int, rows: Int,
                keyPrefix: String = String(UInt64.random(in: 1...UInt64.max), radix: 36)) {
        self.room = room
        self.name = name
        self.profile = profile
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        counter = DraftCounter.standard
        self.keyPrefix = keyPrefix
    }

    /// The revision to resume from after a reconnect, once synced.
    public var resumeRevision: Int? { synced ? editor.revision : nil }

    /// Puts `op` (the edit now in flight) under a fresh key and sends it
    /// while joined. Otherwise it waits: an edit goes out only once this
    /// connection's welcome is loaded, against a revision the server has
    /// told this connection about, and the welcome's `load` sends it.
    mutating func submit(_ op: TextOperation) -> [ClientCommand] {
        let key = "\(keyPrefix)-\(nextKey)"
        nextKey += 1
        outstandingKey = key
        return connection == .joined ? [.send(.edit(rev: editor.revision, ops: op, key: key))] : []
    }

    /// Loads the welcome's draft. Resuming from a revision whose later
    /// edits the server still keeps: replays the edits missed while away
    /// (our own edit in flight among them counts as acked) and sends what
    /// is still pending. Otherwise (the first welcome, a history the server
    /// no longer keeps, after a disagreement) starts from the server's text
    /// with what was typed and not yet acknowledged moved onto it
    /// (`DraftEditor.rebase`) and sent as a new edit; the first time, with
    /// nothing typed, the cursor goes to the end.
    mutating func load(_ draft: DraftInfo) throws -> [ClientCommand] {
        guard synced, let missed = draft.missed else {
            let pending = editor.rebase(onto: draft.text, revision: draft.rev)
            if !loadedOnce, pending == nil { editor.textEnd() }
            loadedOnce = true
            synced = true
            outstandingKey = nil
            return pending.map { submit($0) } ?? []
        }
        var out: [ClientCommand] = []
        for edit in missed {
            if let key = edit.key, key == outstandingKey {
                outstandingKey = nil
                if let next = try editor.acknowledged() { out += submit(next) }
            } else {
                try editor.receive(edit.ops, from: edit.by)
            }
        }
        if out.isEmpty, let key = outstandingKey {
            switch editor.ot.state {
            case let .awaitingConfirm(outstanding), let .awaitingWithBuffer(outstanding, _):
                out.append(.send(.edit(rev: editor.revision, ops: outstanding, key: key)))
            case .synchronized:
                outstandingKey = nil
            }
        }
        return out
    }

    /// The full screen's title row, editor and status line.
    var screen: ScreenFrame { ScreenFrame(columns: columns, rows: rows) }

    /// The editor's border: the panel, or the screen between the title row
    /// and the status line.
    var frame: Rect { panel ?? screen.body }

    /// The editor's rectangle inside its border.
    var editorArea: Rect { BorderBox.inner(of: frame) }

    /// Draws the bordered editor into its frame: the whole draft screen
    /// draws it below its title, the reader into its draft panel.
    public func renderEditor(into buffer: inout Buffer, at time: Duration, theme: Theme, focused: Bool = true) {
        let title = "Draft · \(counter.profile.rawValue), limit \(counter.limit)" + (focused ? "" : " · e edits")
        BorderBox(title: panel == nil ? nil : title, theme: theme).render(in: frame, into: &buffer)
        editorView(at: time, theme: theme).render(in: editorArea, into: &buffer)
    }

    var status: DraftStatus { editor.status(counter: counter) }
}

extension DraftModel {
    public mutating func connected(at time: Duration) -> [ClientCommand] {
        opened()
        return [.send(.hello(room: room, name: name, role: .reader, profile: profile, draftRev: resumeRevision))]
    }

    /// A connection opened: until its welcome is loaded, edits wait.
    mutating func opened() {
        connection = .connecting
    }

    /// This terminal and the server disagree about the draft: say so, and
    /// start over from the next welcome's text (what was typed is kept and
    /// moved onto it, `load`).
    mutating func startOver(_ sentence: String, at time: Duration) -> [ClientCommand] {
        synced = false
        notices.note(sentence, error: true, at: time)
        return [.reconnect]
    }

    public mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand] {
        connection = .closed(reason)
        return []
    }

    public mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand] {
        switch message.payload {
        case let .welcome(w):
            connection = .joined
            presence.welcomed(w)
            counter = (try? DraftCounter(limit: w.draft.limit, profile: w.draft.profile ?? .graphemes)) ?? counter
            // Who is still here, and where, shows again as they type or move.
            defer { editor.removeRemoteCursors() }
            do {
                return try load(w.draft)
            } catch {
                return startOver("the draft changed in a way this terminal cannot replay (\(error)); reloading it", at: time)
            }
        case let .joined(info):
            presence.joined(info)
        case let .left(info):
            presence.left(info.id)
            editor.removeRemoteCursor(info.id)
        case let .edit(e):
            do {
                try editor.receive(e.ops, from: e.by == presence.me ? nil : e.by)
            } catch {
                return startOver("an edit did not fit the draft (\(error)); resyncing", at: time)
            }
        case let .ack(rev):
            // An edit resent under its key is acked again with the revision
            // it became, which this terminal has already counted.
            guard rev > editor.revision else { return [] }
            guard rev == editor.revision + 1 else {
                return startOver("the server acknowledged revision \(rev) while this terminal is at \(editor.revision); resyncing", at: time)
            }
            outstandingKey = nil
            do {
                if let next = try editor.acknowledged() { return submit(next) }
            } catch {
                return startOver("an acknowledgement came with no edit awaiting it (\(error)); resyncing", at: time)
            }
        case let .cursor(c):
            if c.rev == editor.revision { editor.setRemoteCursor(c.id, at: c.position) }
        case let .limit(l):
            if l.level == .limit { pulseUntil = time + Self.pulseDuration }
            notices.note("\(l.level.rawValue) at \(l.count)/\(l.limit)", error: l.level >= .limit, at: time)
        case let .error(e):
            if let refusal = Refusal(e, room: room) { return [.refused(refusal)] }
            if e.code == .editRejected { return startOver(e.message, at: time) }
            notices.note(e.message, error: true, at: time)
        case .document, .progress, .tab, .follow, .overview, .room, .relay, .pointer, .question, .output, .summon:
            break
        }
        return []
    }

    /// Puts the cursor at the end of the draft and shares it.
    public mutating func moveToEnd() -> [ClientCommand] {
        editor.textEnd()
        return connection == .joined ? [.send(.cursor(position: editor.cursor, rev: editor.revision))] : []
    }

    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        return []
    }

    public mutating func tick(at time: Duration) -> [ClientCommand] {
        if let until = pulseUntil, time >= until { pulseUntil = nil }
        return []
    }

    public mutating func settle() {
        scrollTop = editorView(at: .zero, theme: .neon).visibleTop(in: editorArea)
    }

    public func nextWake(after time: Duration) -> Duration? {
        [pulseUntil, notices.current.map(\.until), connection == .connecting ? time + .milliseconds(100) : nil]
            .compactMap { $0 }.filter { $0 > time }.min()
    }

    public func view(at time: Duration, theme: Theme) -> Buffer {
        var buffer = Buffer(width: columns, height: rows, style: theme.background)
        let screen = self.screen
        let title = theme.chrome("Draft · \(room) · \(counter.profile.rawValue), limit \(counter.limit)")
        buffer.write(title, x: screen.title.x, y: screen.title.y, style: theme.strong, maxWidth: screen.title.width,
                     ellipsis: theme.glyphs.ellipsis)
        renderEditor(into: &buffer, at: time, theme: theme)
        let line = notices.text(at: time)
            .map { StatusLine(message: $0, right: connectionItems, theme: theme) }
            ?? StatusLine(items: Self.statusHints, right: connectionItems, theme: theme)
        line.render(in: screen.status, into: &buffer)
        keyList.render(helpOverlay(theme: theme), into: &buffer)
        return buffer
    }

    func editorView(at time: Duration, theme: Theme) -> DraftEditorView {
        let names = Dictionary(presence.readers.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let remotes = editor.remoteCursors.sorted { $0.key < $1.key }.map {
            DraftEditorView.RemoteCursor(name: names[$0.key] ?? $0.key.rawValue, position: $0.value)
        }
        return DraftEditorView(text: editor.text, cursor: editor.cursor, remoteCursors: remotes, status: status,
                               overLimit: editor.overLimitRange(counter: counter),
                               pulse: pulseUntil.map { time < $0 } ?? false, scrollTop: scrollTop, theme: theme)
    }

    /// The status line's hints, most important first.
    static let statusHints = ["type to edit", "F1 keys", "Esc quits", "Ctrl-Z undo", "Ctrl-Y redo", "Alt-b/f words"]

    /// The connection, most important last.
    private var connectionItems: [String] {
        switch connection {
        case .connecting: ["connecting…"]
        case .closed: ["offline, reconnecting"]
        case .joined: ["rev \(editor.revision)", presence.headcount.here]
        }
    }
}

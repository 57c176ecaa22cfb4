import NeonCore

/// `neonsync tail ROOM`: joins ROOM as an observer and prints one line per
/// event (or, with `--json`, every message verbatim), with no terminal
/// involved. A reader's progress is printed where they settle
/// (`ProgressSettling`), not on every frame of an eased scroll; `--json`
/// keeps every message. What goes wrong goes to standard error: a lost connection and
/// the reconnect (the runtime's backoff, on the next server of a failover
/// list), a room the server refuses (exit 3), no server within
/// `firstContact` of starting (exit 4).
public struct TailProgram: Program {
    /// How long the first connection may take, retries included, before
    /// tail gives up with `ExitStatus.unreachable`.
    public static let firstContact: Duration = .seconds(5)

    let room: String
    let name: String
    let json: Bool
    /// Every server given, for the sentence when none answers.
    let servers: [String]
    /// The local time of day, `HH:MM:SS`, that starts each line.
    let timeOfDay: @Sendable () -> String
    var feed = TailFeed()
    var settling = ProgressSettling()
    /// The draft, printed whole once nobody has typed for a while.
    var draft = DraftSettling()
    /// The server connected to now (or tried next).
    var current: String
    /// The server of the last welcome: a welcome from another one starts a
    /// new numbering of events.
    var joinedServer: String?
    var joined = false
    var everJoined = false
    var lastSeq: Int?
    var lastFailure = "no answer yet"

    /// `servers` in the order given (never empty); `timeOfDay` reads the
    /// clock for each line.
    public init(room: String, name: String, json: Bool, servers: [String],
                timeOfDay: @escaping @Sendable () -> String) {
        self.room = room
        self.name = name
        self.json = json
        self.servers = servers
        self.timeOfDay = timeOfDay
        current = servers.first ?? ""
    }

    public mutating func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case let .connected(server):
            current = server
            return [.send(.hello(room: room, name: name, role: .observer))]
        case let .received(message, text):
            return received(message, text: text, at: time)
        case let .unreadable(text, problem):
            return (json ? [.print(text)] : [])
                + [.printError("neonsync tail: " + ProgramEvent.unreadableSentence(problem))]
        case let .disconnected(lost):
            return disconnected(lost, at: time)
        case .tick:
            let settled = lines(settling.settled(at: time)) + draftLines(at: time)
            guard !everJoined, time >= Self.firstContact else { return settled }
            let target = servers.count > 1 ? "any of \(servers.joined(separator: ", "))" : current
            return [.printError("neonsync tail: cannot reach \(target) within \(Int(Self.firstContact.inSeconds)) s (\(lastFailure)); start neonsyncd or check --server"),
                    .exit(ExitStatus.unreachable)]
        case .input, .resized, .highlighted, .fileChanged, .fileUnreadable, .snippetOutput:
            return []
        }
    }

    /// Until the first welcome, the deadline of `firstContact`; while a
    /// reader moves, when they will have settled.
    public func nextWake(after time: Duration) -> Duration? {
        [everJoined ? nil : Self.firstContact, settling.nextSettle, json ? nil : draft.nextSettle].compactMap { $0 }.min()
    }

    /// The settled draft's lines, the first after the time of day.
    private mutating func draftLines(at time: Duration) -> [ClientCommand] {
        guard !json else { return [] }
        return draft.settled(at: time).enumerated().map { index, line in .print(index == 0 ? "\(timeOfDay()) \(line)" : line) }
    }

    /// The readable lines of `messages`, each after the time of day.
    private mutating func lines(_ messages: [ServerMessage]) -> [ClientCommand] {
        messages.compactMap { message in feed.describe(message).map { .print("\(timeOfDay()) \($0)") } }
    }

    private mutating func received(_ message: ServerMessage, text: String, at time: Duration) -> [ClientCommand] {
        var out: [ClientCommand] = json ? [.print(text)] : []
        if !joined {
            switch message.payload {
            case let .error(refusal):
                return out + [.printError("neonsync tail: the server refused to join room \"\(room)\": \(refusal.message) (\(refusal.code.rawValue))"),
                              .exit(ExitStatus.refused)]
            case .welcome:
                out += welcomed(seq: message.seq)
            default:
                break
            }
        }
        lastSeq = message.seq
        guard !json else { return out }
        out += lines(settling.settled(at: time)) + draftLines(at: time)
        draft.observe(message, at: time)
        guard !settling.hold(message, at: time) else { return out }
        // Held places go first, described before this message changes the
        // names (a leave forgets one); messages without a line hold nothing back.
        var probe = feed
        guard probe.describe(message) != nil else { return out }
        return out + lines(settling.flush()) + lines([message])
    }

    private mutating func welcomed(seq: Int) -> [ClientCommand] {
        joined = true
        defer {
            everJoined = true
            joinedServer = current
        }
        guard everJoined else { return [] }
        var note = "neonsync tail: reconnected to room \"\(room)\""
        if servers.count > 1 { note += " on \(current)" }
        if joinedServer != current {
            note += "; another server than before, with its own room and numbering (the welcome shows the room there now)"
        } else if let last = lastSeq, seq > last + 1 {
            note += "; events \(last + 1)–\(seq - 1) happened while disconnected (the welcome shows the room now)"
        }
        return [.printError(note)]
    }

    private mutating func disconnected(_ lost: Disconnection, at time: Duration) -> [ClientCommand] {
        joined = false
        let places = lines(settling.flush())
        lastFailure = switch lost.cause {
        case let .closed(reason), let .failed(reason): reason
        case let .notOpened(reason): "cannot connect: \(reason)"
        }
        if let next = lost.next { current = next }
        guard everJoined, let at = lost.retryAt else { return places }
        let wait = ((at - time).inSeconds * 100).rounded() / 100
        let next = lost.next.map { "reconnecting to \($0)" } ?? "reconnecting"
        return places + [.printError("neonsync tail: lost the connection to \(lost.server) (\(lastFailure)); \(next) in \(wait) s")]
    }
}

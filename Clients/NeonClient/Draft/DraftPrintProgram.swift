import NeonCore

/// `neonsync draft ROOM --print`: joins ROOM as an observer, prints the
/// room's shared draft as its welcome gives it, and exits 0. No terminal is
/// involved. A room the server refuses exits 3 with its sentence; no server
/// within `TailProgram.firstContact` exits 4, as `tail` does.
public struct DraftPrintProgram: Program {
    let room: String
    let name: String
    /// Every server given, for the sentence when none answers.
    let servers: [String]
    var lastFailure = "no answer yet"

    public init(room: String, name: String, servers: [String]) {
        self.room = room
        self.name = name
        self.servers = servers
    }

    /// The draft's text as printed: as it is, ending with one line break
    /// (none for an empty draft).
    public static func printed(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    public mutating func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case .connected:
            return [.send(.hello(room: room, name: name, role: .observer))]
        case let .received(message, _):
            switch message.payload {
            case let .welcome(welcome):
                return (Self.printed(welcome.draft.text).map { [.print($0)] } ?? []) + [.exit(ExitStatus.done)]
            case let .error(refusal):
                return [.printError("neonsync draft: the server refused to join room \"\(room)\": \(refusal.message) (\(refusal.code.rawValue))"),
                        .exit(ExitStatus.refused)]
            default:
                return []
            }
        case let .disconnected(lost):
            lastFailure = switch lost.cause {
            case let .closed(reason), let .failed(reason): reason
            case let .notOpened(reason): "cannot connect: \(reason)"
            }
            return []
        case .tick:
            guard time >= TailProgram.firstContact else { return [] }
            let target = servers.count > 1 ? "any of \(servers.joined(separator: ", "))" : servers.first ?? ""
            return [.printError("neonsync draft: cannot reach \(target) within \(Int(TailProgram.firstContact.inSeconds)) s (\(lastFailure)); start neonsyncd or check --server"),
                    .exit(ExitStatus.unreachable)]
        case .unreadable, .input, .resized, .highlighted, .fileChanged, .fileUnreadable, .snippetOutput:
            return []
        }
    }

    /// The deadline of the first contact.
    public func nextWake(after time: Duration) -> Duration? { TailProgram.firstContact }
}

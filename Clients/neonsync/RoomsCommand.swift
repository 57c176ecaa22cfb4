import Dispatch
import Foundation
import NeonClient
import NeonCore
import NeonTransport

/// `neonsync rooms`: the rooms a server (or its token) lets you see, with
/// who is in them, their document and when someone last came or went.
enum RoomsCommand {
    /// `neonsync rooms` as help, the man page and completions show it.
    static let spec = CommandLineSpec.Command(
        name: "rooms", synopsis: "neonsync rooms [--server URL] [--token-file FILE] [--json]",
        summary: """
            lists the rooms of the server that you may see (every room, or the one your room token admits): \
            people reading and watching, the presenter, the document's title and when someone last joined or \
            left. Empty rooms idle longer than the server's room TTL are removed by the server.
            """,
        groups: [.init(nil, RoomsOptions.table)],
        exitStatuses: [
            .init("0", "listed"),
            .init("2", "bad arguments, or a --token-file that group or others can read or that is missing or empty"),
            .init("3", "the server refused (e.g. no or a wrong token)"),
            .init("4", "no server answered within 5 s"),
        ])

    /// What `neonsync rooms --help` prints.
    static var help: String {
        let statuses = spec.exitStatuses.map { "\($0.term) \($0.text)" }.joined(separator: "; ")
        return ([spec.synopsis] + HelpText.wrap(spec.summary, width: 80, indent: 2) + [""]
            + HelpText.table(RoomsOptions.table.map { ($0.usage, $0.help) }, width: 80) + [""]
            + HelpText.wrap("Exit status: \(statuses).", width: 80, indent: 0)).joined(separator: "\n")
    }

    /// Prints the overview of the first server that answers; the error it
    /// ends with otherwise: 2 bad --server, 3 refused, 4 no server answered.
    static func run(_ options: RoomsOptions) throws(NeonError) -> Int32 {
        let token = options.token
        let json = options.json
        if options.tokenOnCommandLine {
            Client.standardError(TokenFile.commandLineWarning + "\n")
        }
        let servers = try ServerList.webSockets(options.server)
        TransportLog.route([])
        let name = ProcessEnvironment()["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "rooms"
        var failures: [String] = []
        for url in servers.all {
            switch fetch(url.description, name: name, token: token) {
            case let .success(message):
                if case let .overview(overview) = message.payload {
                    print(json ? String(decoding: WireCodec().encode(overview), as: UTF8.self) : table(overview, now: Date()))
                    return 0
                }
                if case let .error(error) = message.payload {
                    throw NeonError(error.message, exitStatus: ExitStatus.refused).at("\(url) refused")
                }
                failures.append("\(url): it answered \(message.type) instead of an overview")
            case let .failure(failure):
                failures.append("\(url): \(failure)")
            }
        }
        throw NeonError("no server answered (\(failures.joined(separator: "; "))); start neonsyncd or check --server",
                        exitStatus: ExitStatus.unreachable)
    }

    /// Connects, says hello as an observer of every room, and returns the
    /// first message (the overview, or an error).
    private static func fetch(_ url: String, name: String, token: String?) -> Result<ServerMessage, NeonError> {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let client = try await WebSocketClient.connect(url: url, subprotocol: "neonsync.v1", timeout: .seconds(5))
                let codec = WireCodec()
                client.send(text: String(decoding: codec.encode(ClientMessage.hello(room: Hub.everyRoom, name: name,
                                                                                  role: .observer, token: token)), as: UTF8.self))
                let reply = try await client.receive(timeout: .seconds(5))
                client.close()
                guard case let .text(text) = reply else { throw NeonError("a binary frame instead of an overview") }
                box.set(.success(try codec.decodeServer(Array(text.utf8))))
            } catch {
                box.set(.failure(NeonError(error)))
            }
            done.signal()
        }
        done.wait()
        return box.value ?? .failure(NeonError("no answer"))
    }

    /// The rooms as a table, most recently active first.
    static func table(_ overview: Overview, now: Date) -> String {
        guard !overview.rooms.isEmpty else { return "no rooms" }
        let rows = overview.rooms.sorted { ($0.active ?? 0) > ($1.active ?? 0) }.map { room -> [String] in
            let reading = room.readers.filter { $0.role != .observer }
            let watching = room.readers.count - reading.count
            let presenter = room.presenter.flatMap { id in room.readers.first { $0.id == id }?.name } ?? "-"
            return [room.room, String(reading.count), String(watching), presenter, room.document?.title ?? "-",
                    room.active.map { ago(Date(timeIntervalSince1970: Double($0) / 1000), now: now) } ?? "-"]
        }
        let header = ["ROOM", "READING", "WATCHING", "PRESENTER", "DOCUMENT", "LAST ACTIVE"]
        let widths = header.indices.map { column in ([header] + rows).map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return ([header] + rows).map { row in
            zip(row, widths).map { cell, width in cell + String(repeating: " ", count: width - DisplayWidth.of(cell)) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// `3 min ago`, `2 h ago`, `5 d ago`, `just now`.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }
}

/// The fetch task's result, handed to the waiting thread.
/// `@unchecked Sendable`: `stored` is only touched under `lock`.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<ServerMessage, NeonError>?
    func set(_ result: Result<ServerMessage, NeonError>) { lock.withLock { stored = result } }
    var value: Result<ServerMessage, NeonError>? { lock.withLock { stored } }
}

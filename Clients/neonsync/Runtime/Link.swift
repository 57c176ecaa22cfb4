import NeonClient
import NeonCore
import NeonTransport

/// A program's way to its server: the failover list and the one in use,
/// the open connection, the reconnect timer and its backoff, and what every
/// hello carries that the program never holds (the token, this run's
/// `resume` secret). The runtime's state; main thread only.
struct Link {
    /// The servers to use: the current one, and where the next try goes
    /// after a lost or failed connection (`--server URL1,URL2,…`).
    var servers: ServerList<WebSocketURL>
    /// Sent in every hello (the program never holds credentials).
    let token: String?
    /// This run's `resume` secret, sent with every hello.
    let resume = SessionSecret.make()
    var connection: ClientConnection?
    /// The number of the connection opened last; events of older ones are
    /// dropped.
    var generation = 0
    /// Whether the server has said anything on this connection yet.
    var heard = false
    /// When to try the server again after the connection dropped.
    var reconnectAt: Duration?
    var backoff = ReconnectBackoff()
    /// The short connection that fetches the server's list of rooms
    /// (`ClientCommand.listRooms`), while it is open.
    var roomList: ClientConnection?

    init(servers: ServerList<WebSocketURL>, token: String?) {
        self.servers = servers
        self.token = token
    }

    /// `message` with the token and the resume secret when it is a hello
    /// that carries neither.
    func completed(_ message: ClientMessage) -> ClientMessage {
        guard case let .hello(room, name, role, profile, draftRev, nil, nil, notes) = message else { return message }
        return .hello(room: room, name: name, role: role, profile: profile, draftRev: draftRev, token: token, resume: resume,
                      notes: notes)
    }
}

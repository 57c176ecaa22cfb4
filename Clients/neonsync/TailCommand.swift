import Dispatch
import Glibc
import NeonClient
import NeonCore
import NeonTransport

/// `neonsync tail ROOM`: joins ROOM as an observer and prints one line per
/// event to standard output, written at once, with no terminal involved.
/// When the connection drops it reconnects with backoff and says so on
/// standard error; with a failover list (`--server URL1,URL2,…`) each try
/// after a lost or failed connection goes to the next server. It sleeps in
/// poll() on the mailbox until a network event, a signal or the next
/// reconnect.
final class TailCommand {
    /// The documented exit statuses.
    enum Exit {
        /// Stopped by SIGINT or SIGTERM (or standard output was closed).
        static let stopped: Int32 = 0
        /// The server refused the hello (an invalid room or name, a full
        /// room or server).
        static let refused: Int32 = 3
        /// No welcome within `firstContact` of starting.
        static let unreachable: Int32 = 4
        /// The wss:// server's certificate failed verification.
        static let untrusted = ExitStatus.untrusted
    }

    /// How long the first connection may take, retries included, before
    /// tail gives up with `Exit.unreachable`.
    static let firstContact: Duration = .seconds(5)

    private let room: String
    private let name: String
    private let json: Bool
    private var servers: ServerList<WebSocketURL>
    /// The server of the last welcome: a welcome from another one starts
    /// a new numbering of events.
    private var joinedServer: WebSocketURL?
    private let mailbox: Mailbox
    private let codec = WireCodec()
    private let epoch = ContinuousClock.now
    private var feed = TailFeed()
    private var connection: ClientConnection?
    private var generation = 0
    private var joined = false
    private var everJoined = false
    private var lastSeq: Int?
    private var lastFailure = "no answer yet"
    private var status: Int32?
    private var signalSources: [any DispatchSourceSignal] = []
    /// When to try again, and the wait after that (0.25 s doubling to 4 s,
    /// with jitter).
    private var reconnectAt: Duration?
    private var backoff = ReconnectBackoff()

    private let token: String?
    /// This run's `resume` secret, sent with every hello.
    private let resume = SessionSecret.make()

    init(room: String, name: String, json: Bool, servers: ServerList<WebSocketURL>, mailbox: Mailbox,
         token: String? = nil) {
        self.token = token
        self.room = room
        self.name = name
        self.json = json
        self.servers = servers
        self.mailbox = mailbox
    }

    private var now: Duration { ContinuousClock.now - epoch }

    /// Runs until a signal, a refusal or a failed start; returns the status.
    func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        installSignals()
        connect()
        while status == nil {
            var deadlines: [Duration] = []
            if let at = reconnectAt { deadlines.append(at) }
            if !everJoined { deadlines.append(Self.firstContact) }
            var timeout: Int32 = -1
            if let next = deadlines.min() {
                timeout = Int32(clamping: max((next - now).inNanoseconds / 1_000_000, 0) + 1)
            }
            var fds = [pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, timeout) < 0 && errno != EINTR {
                Client.standardError("neonsync tail: poll failed: \(String(cString: strerror(errno)))\n")
                return 1
            }
            for event in mailbox.drain() where status == nil { deliver(event) }
            guard status == nil else { break }
            if !everJoined && now >= Self.firstContact {
                let target = servers.isFailover ? "any of \(servers.listed)" : "\(servers.current)"
                Client.standardError("neonsync tail: cannot reach \(target) within \(Int(Self.firstContact.inSeconds)) s (\(lastFailure)); start neonsyncd or check --server\n")
                return Exit.unreachable
            }
            if let at = reconnectAt, now >= at {
                reconnectAt = nil
                connect()
            }
        }
        finishConnection()
        return status ?? Exit.stopped
    }

    private func deliver(_ event: AppEvent) {
        switch event {
        case let .network(gen, event) where gen == generation:
            switch event {
            case .connected:
                connection?.send(text: String(decoding: codec.encode(ClientMessage.hello(room: room, name: name, role: .observer, token: token, resume: resume)), as: UTF8.self))
            case let .received(.text(text)):
                receive(text)
            case .received(.binary), .rejected:
                break
            case let .closed(close):
                lost(close.reason.isEmpty ? "connection closed (\(close.code.map(String.init) ?? "no code"))" : close.reason)
            case let .failed(reason):
                lost(reason)
            case let .untrusted(rejection):
                Client.standardError("neonsync tail: \(Client.untrustedSentence(rejection, url: servers.current))\n")
                status = Exit.untrusted
            }
        case .network, .resized:
            break
        case .terminate:
            status = Exit.stopped
        }
    }

    private func receive(_ text: String) {
        if json { emit(text) }
        let message: ServerMessage
        do {
            message = try codec.decodeServer(Array(text.utf8))
        } catch {
            Client.standardError("neonsync tail: the server sent a message this client cannot read: \(error)\n")
            return
        }
        if !joined {
            switch message.payload {
            case let .error(refusal):
                Client.standardError("neonsync tail: the server refused to join room \"\(room)\": \(refusal.message) (\(refusal.code.rawValue))\n")
                status = Exit.refused
                return
            case .welcome:
                welcomed(seq: message.seq)
            default:
                break
            }
        }
        lastSeq = message.seq
        if !json, let line = feed.describe(message) { emit("\(Self.clock()) \(line)") }
    }

    private func welcomed(seq: Int) {
        joined = true
        backoff.reset()
        if everJoined {
            var note = "neonsync tail: reconnected to room \"\(room)\""
            if servers.isFailover { note += " on \(servers.current)" }
            if joinedServer != servers.current {
                note += "; another server than before, with its own room and numbering (the welcome shows the room there now)"
            } else if let last = lastSeq, seq > last + 1 {
                note += "; events \(last + 1)–\(seq - 1) happened while disconnected (the welcome shows the room now)"
            }
            Client.standardError(note + "\n")
        }
        everJoined = true
        joinedServer = servers.current
    }

    private func lost(_ reason: String) {
        joined = false
        connection = nil
        lastFailure = reason
        let from = servers.current
        scheduleReconnect()
        if everJoined, let at = reconnectAt {
            let wait = ((at - now).inSeconds * 100).rounded() / 100
            let next = servers.isFailover ? "reconnecting to \(servers.current)" : "reconnecting"
            Client.standardError("neonsync tail: lost the connection to \(from) (\(reason)); \(next) in \(wait) s\n")
        }
    }

    /// Tries again after the backoff's next wait, on the next server of a
    /// failover list.
    private func scheduleReconnect() {
        guard status == nil, reconnectAt == nil else { return }
        servers.advance()
        reconnectAt = backoff.nextTry(after: now)
    }

    private func connect() {
        generation += 1
        do {
            connection = try mailbox.connect(to: servers.current, generation: generation)
        } catch {
            lost("cannot connect: \(error.description)")
        }
    }

    /// Says goodbye with a normal close and waits briefly for it to go out.
    private func finishConnection() {
        guard let connection else { return }
        connection.close(code: CloseCode.normal, reason: "bye")
        let deadline = now + .milliseconds(500)
        while now < deadline {
            var fds = [pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(clamping: (deadline - now).inNanoseconds / 1_000_000 + 1))
            let finished = mailbox.drain().contains { event in
                if case let .network(gen, event) = event { return gen == generation && event.isFinal }
                return false
            }
            if finished { return }
        }
    }

    /// Writes one line to standard output at once; a closed output ends tail.
    private func emit(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                status = Exit.stopped
                return
            }
            offset += n
        }
    }

    /// The local time of day, HH:MM:SS.
    private static func clock() -> String {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    private func installSignals() {
        let queue = DispatchQueue(label: "neonsync.tail.signals")
        let mailbox = mailbox
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { @Sendable in mailbox.post(.terminate) }
            source.resume()
            signalSources.append(source)
        }
    }
}

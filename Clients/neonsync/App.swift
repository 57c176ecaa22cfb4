import Dispatch
import Glibc
import NeonClient
import NeonCore
import NeonTransport
import NeonTUI

/// The client shell: terminal and socket I/O around a pure screen model.
/// Input and network events go to the model; its commands go to the socket;
/// `view` is diffed onto the terminal. It sleeps in poll() until input, a
/// network event, or the model's next animation frame.
final class App<Model: ScreenModel> {
    private var model: Model
    private var decoder = KeyDecoder()
    private let theme: Theme
    private let mailbox: Mailbox
    /// The servers to use: the current one, and where the next try goes
    /// after a lost or failed connection (`--server URL1,URL2,…`).
    private var servers: ServerList<WebSocketURL>
    private var connection: ClientConnection?
    private var generation = 0
    private var previous: Buffer?
    private var running = true
    private let codec = WireCodec()
    private let epoch = ContinuousClock.now
    private var signalSources: [any DispatchSourceSignal] = []
    /// When to try the server again after the connection dropped.
    private var reconnectAt: Duration?
    private var backoff = ReconnectBackoff()
    /// Sent in every hello (the model never holds credentials).
    private let token: String?
    /// This run's `resume` secret, sent with every hello.
    private let resume = SessionSecret.make()
    /// Why the screen ended on its own (the server refused this client for
    /// good, or a wss:// server's certificate failed), to print once the
    /// terminal is back; the app stops at once, with no reconnecting.
    private(set) var refusal: String?
    /// The exit status that goes with `refusal`.
    private var refusalStatus: Int32 = 0

    init(model: Model, servers: ServerList<WebSocketURL>, theme: Theme, mailbox: Mailbox, token: String? = nil) {
        self.model = model
        self.servers = servers
        self.theme = theme
        self.mailbox = mailbox
        self.token = token
    }

    var now: Duration { ContinuousClock.now - epoch }

    /// Runs until the reader quits; returns the exit status.
    func run() -> Int32 {
        installSignals()
        connect()
        var escapePendingSince: Duration?
        while running {
            render()
            var timeout: Int32 = -1
            if let wake = model.nextWake(after: now) {
                timeout = Int32(clamping: max((wake - now).inNanoseconds / 1_000_000, 0) + 1)
            }
            if escapePendingSince != nil { timeout = timeout < 0 ? 30 : min(timeout, 30) }
            if let at = reconnectAt {
                let wait = Int32(clamping: max((at - now).inNanoseconds / 1_000_000, 0) + 1)
                timeout = timeout < 0 ? wait : min(timeout, wait)
            }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { break }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let n = read(STDIN_FILENO, &bytes, bytes.count)
                // End of input, or the terminal is gone (EIO after a hangup):
                // there is no one left to draw for.
                if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { running = false }
                if n > 0 {
                    let events = decoder.feed(bytes[0..<n])
                    escapePendingSince = bytes[n - 1] == 0x1B ? now : nil
                    for event in events { perform(model.handle(event, at: now)) }
                }
            } else if let since = escapePendingSince, now - since >= .milliseconds(25) {
                escapePendingSince = nil
                for event in decoder.flush() { perform(model.handle(event, at: now)) }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                for event in mailbox.drain() { deliver(event) }
            }
            if let at = reconnectAt, now >= at {
                reconnectAt = nil
                connect()
            }
            perform(model.tick(at: now))
            model.settle()
        }
        connection?.close(code: CloseCode.normal, reason: "bye")
        return refusal == nil ? 0 : refusalStatus
    }

    private func deliver(_ event: AppEvent) {
        switch event {
        case let .network(gen, event) where gen == generation:
            switch event {
            case .connected:
                backoff.reset()
                perform(model.connected(at: now))
            case let .received(.text(text)):
                do {
                    let message = try codec.decodeServer(Array(text.utf8))
                    perform(model.receive(message, at: now))
                } catch {
                    perform(model.disconnected("the server sent a message this client cannot read: \(error)", at: now))
                }
            case .received(.binary), .rejected:
                break
            case let .closed(close):
                lost(close.reason.isEmpty ? "connection closed (\(close.code.map(String.init) ?? "no code"))" : close.reason)
            case let .failed(reason):
                lost("cannot reach \(servers.current): \(reason)")
            case let .untrusted(rejection):
                refusal = Client.untrustedSentence(rejection, url: servers.current)
                refusalStatus = ExitStatus.untrusted
                running = false
            }
        case .network:
            break
        case .resized:
            let size = Terminal.size()
            previous = nil
            perform(model.resize(columns: size.columns, rows: size.rows, at: now))
        case .terminate:
            running = false
        }
    }

    private func perform(_ commands: [ClientCommand]) {
        for command in commands {
            switch command {
            case var .send(message):
                if case let .hello(room, name, role, profile, draftRev, nil, nil) = message {
                    message = .hello(room: room, name: name, role: role, profile: profile, draftRev: draftRev, token: token,
                                     resume: resume)
                }
                connection?.send(text: String(decoding: codec.encode(message), as: UTF8.self))
            case .quit:
                running = false
            case let .refused(refusal):
                self.refusal = refusal.sentence
                refusalStatus = Refusal.exitStatus
                running = false
            case .reconnect:
                reconnectAt = nil
                connection?.close(code: CloseCode.normal, reason: "resync")
                connect()
            }
        }
    }

    /// The connection was lost or could not be made: the screen says why
    /// (with a failover list, also which server is tried next) and the
    /// next try is scheduled.
    private func lost(_ reason: String) {
        let scheduled = scheduleReconnect()
        let next = scheduled && servers.isFailover ? "; trying \(servers.current) next" : ""
        perform(model.disconnected(reason + next, at: now))
    }

    /// Tries again after the backoff's next wait, on the next server of a
    /// failover list; false when a try is already scheduled (or the app
    /// is ending).
    @discardableResult
    private func scheduleReconnect() -> Bool {
        guard running, reconnectAt == nil else { return false }
        servers.advance()
        reconnectAt = backoff.nextTry(after: now)
        return true
    }

    private func connect() {
        generation += 1
        do {
            connection = try mailbox.connect(to: servers.current, generation: generation)
        } catch {
            lost("cannot connect to \(servers.current): \(error.description)")
        }
    }

    private func render() {
        let frame = model.view(at: now, theme: theme)
        let bytes = FrameWriter.diff(from: previous, to: frame)
        if !bytes.isEmpty { Terminal.write(bytes) }
        previous = frame
    }

    private func installSignals() {
        let queue = DispatchQueue(label: "neonsync.signals")
        let mailbox = mailbox
        for (sig, event) in [(SIGWINCH, AppEvent.resized), (SIGTERM, .terminate), (SIGHUP, .terminate), (SIGINT, .terminate)] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { @Sendable in mailbox.post(event) }
            source.resume()
            signalSources.append(source)
        }
    }
}

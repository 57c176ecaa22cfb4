import Glibc
import NeonClient
import NeonCore
import NeonTransport
import NeonTransportCore

/// The connection: opening it, its events, reconnecting with backoff on the
/// next server of a failover list, and a normal close at the end.
extension Runtime {
    /// Opens a connection to the current server.
    func connect() {
        guard var link else { return }
        link.generation += 1
        link.heard = false
        do {
            link.connection = try mailbox.connect(to: link.servers.current.naming(room: program.routingRoom), generation: link.generation)
            self.link = link
        } catch {
            self.link = link
            lost(.notOpened(error.description))
        }
    }

    /// An event of connection number `generation`; those of a connection
    /// replaced since are dropped.
    func received(_ event: ClientEvent, generation: Int) {
        if generation == Self.roomListGeneration { return roomListReceived(event) }
        guard let link, generation == link.generation else { return }
        switch event {
        case .connected:
            update(.connected(to: link.servers.current.description))
        case let .received(.text(text)):
            if !link.heard {
                self.link?.heard = true
                self.link?.backoff.reset()
            }
            do {
                update(.received(try WireCodec().decodeServer(Array(text.utf8)), text: text))
            } catch {
                update(.unreadable(text: text, problem: "\(error)"))
            }
        case .received(.binary), .rejected:
            break
        case let .closed(close):
            lost(.closed(close.reason.isEmpty ? "connection closed (\(close.code.map(String.init) ?? "no code"))" : close.reason))
        case let .failed(reason):
            lost(.failed(reason))
        case let .untrusted(rejection):
            say(Client.untrustedSentence(rejection, url: link.servers.current))
            status = ExitStatus.untrusted
        }
    }

    /// The connection was lost or could not be made: the next try is
    /// scheduled (unless the program is ending or one already is) and the
    /// program is told.
    func lost(_ cause: Disconnection.Cause) {
        guard var link else { return }
        link.connection = nil
        let server = link.servers.current.description
        var retryAt: Duration?
        if status == nil, link.reconnectAt == nil {
            link.servers.advance()
            link.reconnectAt = link.backoff.nextTry(after: now)
            retryAt = link.reconnectAt
        }
        let next = link.servers.isFailover ? link.servers.current.description : nil
        self.link = link
        update(.disconnected(Disconnection(cause: cause, server: server, retryAt: retryAt, next: next)))
    }

    /// Drops the connection and opens a new one at once (a resync).
    func reconnect() {
        link?.reconnectAt = nil
        link?.connection?.close(code: CloseCode.normal, reason: "resync")
        connect()
    }

    /// Sends `message`, with the token and resume secret in a hello.
    func send(_ message: ClientMessage) {
        guard let link, let connection = link.connection else { return }
        connection.send(text: String(decoding: WireCodec().encode(link.completed(message)), as: UTF8.self))
    }

    /// Says goodbye with a normal close and waits briefly for it to go out.
    func closeConnection() {
        guard let link, let connection = link.connection else { return }
        connection.close(code: CloseCode.normal, reason: "bye")
        self.link?.connection = nil
        let deadline = now + .milliseconds(500)
        while now < deadline {
            var fds = [pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(clamping: (deadline - now).inNanoseconds / 1_000_000 + 1))
            let finished = mailbox.drain().contains { delivery in
                if case let .network(generation, event) = delivery { return generation == link.generation && event.isFinal }
                return false
            }
            if finished { return }
        }
    }
}

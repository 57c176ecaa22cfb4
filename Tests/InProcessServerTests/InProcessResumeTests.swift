import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

/// One client session's connections (the `resume` secret in every hello of
/// it), through the whole server in-process.
@Suite("In-process server: a session's connections")
struct InProcessResumeTests {
    let secret = "session-secret-0123456789"
    let replaced = RecordingTransport.Close(code: CloseCode.rejoin,
                                           reason: "another connection of this session joined the room; reconnect")

    @Test("a hello with a member's resume secret takes its place, and the member's connection, still open, is closed with 4013")
    func replacedIsClosed() throws {
        let server = try InProcessServer()
        let old = server.connect()
        server.send(.hello(room: "post", name: "ada", role: .reader, resume: secret), from: old)
        let new = server.connect()
        server.send(.hello(room: "post", name: "ada", role: .reader, draftRev: 0, resume: secret), from: new)
        #expect(server.closeOf(old) == replaced)
        #expect(server.closeOf(new) == nil)
        server.send(.edit(rev: 0, ops: TextOperation([.insert("hi")]), key: "k1"), from: new)
        #expect(server.take(new).compactMap { if case let .ack(rev) = $0.payload { rev } else { nil } } == [1])
    }

    @Test("the late hello of a connection its client gave up on does not leave the live one outside the room: the live one is closed (4013), and joins again")
    func lateHello() throws {
        let server = try InProcessServer()
        let abandoned = server.connect()
        let live = server.connect()
        server.send(.hello(room: "post", name: "ada", role: .reader, resume: secret), from: live)
        // The hello the client sent on the connection it gave up on (a
        // resync closes one and opens the next at once) arrives after the
        // live connection's: it takes the seat.
        server.send(.hello(room: "post", name: "ada", role: .reader, resume: secret), from: abandoned)
        #expect(server.closeOf(live) == replaced, "left open, it would hear nothing more and every edit would be refused")
        server.close(abandoned)
        let again = server.connect()
        server.send(.hello(room: "post", name: "ada", role: .reader, draftRev: 0, resume: secret), from: again)
        guard case let .welcome(welcome)? = server.take(again).first?.payload else {
            throw InProcessFailure("no welcome: \(server.messages(of: again))")
        }
        #expect(welcome.readers.map(\.name) == ["ada"])
        server.send(.edit(rev: 0, ops: TextOperation([.insert("hi")]), key: "k1"), from: again)
        #expect(server.take(again).compactMap { if case let .ack(rev) = $0.payload { rev } else { nil } } == [1])
    }
}

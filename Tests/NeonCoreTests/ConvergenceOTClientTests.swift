import NeonCore
import Testing

@Suite struct ConvergenceOTClientTests {
    @Test("A local edit while synchronized is sent at once")
    func sendsAtOnce() throws {
        var client = OTClient(revision: 4)
        let edit = TextOperation([.insert("a")])
        #expect(try client.applyLocal(edit) == edit)
        #expect(client.state == .awaitingConfirm(outstanding: edit))
        #expect(client.revision == 4)
    }

    @Test("Local edits made while one is in flight are composed into one buffer")
    func buffersLocalEdits() throws {
        var client = OTClient(revision: 0)
        let first = TextOperation([.insert("a")])
        let second = TextOperation([.retain(1), .insert("b")])
        let third = TextOperation([.retain(2), .insert("c")])
        _ = try client.applyLocal(first)
        #expect(try client.applyLocal(second) == nil)
        #expect(try client.applyLocal(third) == nil)
        #expect(client.state == .awaitingWithBuffer(outstanding: first, buffer: TextOperation([.retain(1), .insert("bc")])))
    }

    @Test("An acknowledgement moves to the next revision and sends the buffer")
    func acknowledgementSendsBuffer() throws {
        var client = OTClient(revision: 0)
        let first = TextOperation([.insert("a")])
        let second = TextOperation([.retain(1), .insert("b")])
        _ = try client.applyLocal(first)
        _ = try client.applyLocal(second)
        #expect(try client.serverAck() == second)
        #expect(client.state == .awaitingConfirm(outstanding: second))
        #expect(client.revision == 1)
        #expect(try client.serverAck() == nil)
        #expect(client.state == .synchronized)
        #expect(client.revision == 2)
    }

    @Test("A server edit is transformed past the edit in flight and the buffer")
    func transformsServerEdits() throws {
        var client = OTClient(revision: 0)
        var text = "ab"
        for edit in [TextOperation([.retain(1), .insert("X"), .retain(1)]), TextOperation([.retain(3), .insert("Y")])] {
            text = try edit.apply(to: text)
            _ = try client.applyLocal(edit)
        }
        let serverEdit = TextOperation([.insert("S"), .retain(2)])
        text = try client.applyServer(serverEdit).apply(to: text)
        #expect(text == "SaXbY")
        #expect(client.revision == 1)
        #expect(client.state == .awaitingWithBuffer(
            outstanding: TextOperation([.retain(2), .insert("X"), .retain(1)]),
            buffer: TextOperation([.retain(4), .insert("Y")])
        ))
    }

    @Test("A server edit while synchronized applies unchanged")
    func synchronizedServerEdit() throws {
        var client = OTClient(revision: 2)
        let edit = TextOperation([.delete(1)])
        #expect(try client.applyServer(edit) == edit)
        #expect(client.revision == 3)
    }

    @Test("An acknowledgement with nothing in flight is an error telling the client to resync")
    func unexpectedAcknowledgement() {
        var client = OTClient(revision: 3)
        #expect(throws: OTClientError.unexpectedAcknowledgement(revision: 3)) {
            try client.serverAck()
        }
        #expect(
            OTClientError.unexpectedAcknowledgement(revision: 3).description
                == "the server acknowledged an edit at revision 3 but none was in flight — resync"
        )
        #expect(client == OTClient(revision: 3))
    }

    @Test("Edits that do not fit the tracked text are rejected and nothing changes")
    func mismatchedEdits() throws {
        var client = OTClient(revision: 0)
        _ = try client.applyLocal(TextOperation([.insert("ab")]))
        let inFlight = client
        #expect(throws: OTClientError.mismatchedEdit(.lengthMismatch(expected: 5, actual: 2))) {
            try client.applyLocal(TextOperation([.retain(5)]))
        }
        #expect(throws: OTClientError.mismatchedEdit(.lengthMismatch(expected: 0, actual: 4))) {
            try client.applyServer(TextOperation([.retain(4)]))
        }
        #expect(client == inFlight)
        _ = try client.applyLocal(TextOperation([.retain(2), .insert("c")]))
        let buffered = client
        #expect(throws: OTClientError.mismatchedEdit(.lengthMismatch(expected: 1, actual: 3))) {
            try client.applyLocal(TextOperation([.retain(1)]))
        }
        #expect(client == buffered)
    }

    @Test("Resyncing drops the edits in flight and adopts the server's revision")
    func resync() throws {
        var client = OTClient(revision: 0)
        _ = try client.applyLocal(TextOperation([.insert("a")]))
        _ = try client.applyLocal(TextOperation([.retain(1), .insert("b")]))
        client.resync(revision: 17)
        #expect(client == OTClient(revision: 17))
        #expect(client.state == .synchronized)
    }
}
